// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/editing/model_fields.hpp"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "core/model/text_util.hpp"

namespace kt {
namespace {

// The doubles a path addresses (one, or every entry of a vector without an index).
struct Target {
  std::vector<double*> entries;
  std::vector<std::pair<double*, double*>> mirrors;  // inertia: the symmetric entry follows
};

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw std::invalid_argument(path + ": " + message);
}

// "name[3]" → ("name", 3); "name" → ("name", nullopt).
std::pair<std::string, std::optional<std::size_t>> splitIndex(const std::string& path, const std::string& part) {
  const std::size_t open = part.find('[');
  if (open == std::string::npos) return {part, std::nullopt};
  if (part.back() != ']' || open + 2 > part.size() - 1) fail(path, "expected NAME[INDEX], got '" + part + "'");
  const std::string digits = part.substr(open + 1, part.size() - open - 2);
  for (char c : digits)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      fail(path, "the index in '" + part + "' is not a whole number (0, 1, 2, …)");
  // no vector of a model has 10⁹ entries; the bound also keeps the conversion from overflowing
  if (digits.size() > 9) fail(path, "the index in '" + part + "' is out of range");
  return {part.substr(0, open), std::stoul(digits)};
}

// A single number takes no index.
void noIndex(const std::string& path, std::optional<std::size_t> index) {
  if (index) fail(path, "is a single number: it takes no index");
}

void addVector(const std::string& path, double* data, std::size_t size, std::optional<std::size_t> index, Target& t) {
  if (size == 0) fail(path, "has no entries here");
  if (index) {
    if (*index >= size)
      fail(path, "index " + std::to_string(*index) + " is past the end (" + std::to_string(size) + " entries)");
    t.entries.push_back(data + *index);
  } else {
    for (std::size_t k = 0; k < size; ++k) t.entries.push_back(data + k);
  }
}

// A vector the model may leave empty (neutral q0, zero v0, an optional drive entry): sized to `n`
// with `fill` before it is set; read as `fill` while it is empty.
void addOptionalVector(const std::string& path, std::vector<double>& v, std::size_t n, const std::vector<double>& fill,
                       std::optional<std::size_t> index, bool forWriting, Target& t, std::vector<double>& readScratch) {
  if (n == 0) fail(path, "has no entries here");
  if (index && *index >= n)
    fail(path, "index " + std::to_string(*index) + " is past the end (" + std::to_string(n) + " entries)");
  if (v.empty()) {
    if (forWriting) {
      v = fill;
    } else {
      readScratch = fill;
      addVector(path, readScratch.data(), readScratch.size(), index, t);
      return;
    }
  }
  if (v.size() != n) fail(path, "has " + std::to_string(v.size()) + " entries, expected " + std::to_string(n));
  addVector(path, v.data(), v.size(), index, t);
}

std::vector<double> neutralQ(JointType type) {
  std::vector<double> q(static_cast<std::size_t>(jointNq(type)), 0.0);
  if (type == JointType::Spherical || type == JointType::Free) q[0] = 1.0;
  return q;
}

int bodyIndex(const Model& model, const std::string& path, const std::string& key) {
  bool digits = !key.empty();
  for (char c : key) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  const std::string indices = model.bodies.empty() ? std::string("the model has no bodies")
                                                   : "the model has " + std::to_string(model.bodies.size()) +
                                                         " bodies, 0 to " + std::to_string(model.bodies.size() - 1);
  if (digits) {
    // more digits than any body count: out of range, and too many for std::stoul
    const std::size_t k = key.size() > 9 ? model.bodies.size() : std::stoul(key);
    if (k >= model.bodies.size())
      fail(path, "there is no bodies[" + key + "]: the index is out of range (" + indices + ")");
    return static_cast<int>(k);
  }
  const int k = model.findBody(key);
  if (k < 0) {
    // a number that is not a whole one (1e21, -1, 2.5) was meant as an index, not as a name
    char* end = nullptr;
    (void)std::strtod(key.c_str(), &end);
    if (!key.empty() && *end == '\0')
      fail(path, "'" + key + "' is neither a body's name nor an index (a whole number; " + indices + ")");
    std::vector<std::string> names;
    for (const BodySpec& b : model.bodies) names.push_back(b.name);
    const std::string near = closestMatch(key, names);
    fail(path, "no body is named '" + key + "'" + (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
  }
  return k;
}

bool driveUses(DriveType type, const std::string& field) {
  switch (type) {
    case DriveType::None: return false;
    case DriveType::Constant: return field == "value";
    case DriveType::Sinusoid:
      return field == "amplitude" || field == "frequency" || field == "phase" || field == "offset";
    case DriveType::PdSinusoid:
      return field == "kp" || field == "kd" || field == "amplitude" || field == "frequency" || field == "phase" ||
             field == "offset";
    case DriveType::PdPiecewise: return field == "kp" || field == "kd";
    case DriveType::SpringDamper: return field == "stiffness" || field == "damping" || field == "rest_position";
    case DriveType::Table: return false;
  }
  return false;
}

Target resolve(Model& model, const std::string& path, bool forWriting, std::vector<double>& scratch) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  Target t;
  const auto expectEnd = [&](std::size_t n) {
    if (parts.size() != n)
      fail(path, "expected a numeric field (docs/model-format.md); '" + parts[n - 1] + "' has none");
  };
  const std::string head = parts[0].substr(0, parts[0].find('['));  // bodies[NAME] is read below
  if (head == "gravity") {
    expectEnd(1);
    addVector(path, model.gravity.data(), 3, splitIndex(path, parts[0]).second, t);
    return t;
  }
  if (head == "simulation" && parts.size() == 2) {
    if (parts[0] != "simulation") fail(path, "simulation takes no index");
    SimulationSettings& s = model.simulation;
    double* field = parts[1] == "step"        ? &s.step
                    : parts[1] == "duration"  ? &s.duration
                    : parts[1] == "tolerance" ? &s.tolerance
                                              : nullptr;
    if (!field) fail(path, "expected simulation.step, simulation.duration or simulation.tolerance");
    t.entries.push_back(field);
    return t;
  }
  if (head != "bodies" || parts[0].find('[') == std::string::npos || parts.size() < 2)
    fail(path, "expected gravity[i], simulation.FIELD or bodies[NAME].FIELD (docs/model-format.md)");
  const std::size_t open = parts[0].find('[');
  if (parts[0].back() != ']') fail(path, "expected bodies[NAME] or bodies[INDEX]");
  BodySpec& b = model.bodies[bodyIndex(model, path, parts[0].substr(open + 1, parts[0].size() - open - 2))];
  const auto nv = static_cast<std::size_t>(jointNv(b.joint.type));
  const auto [section, sectionIndex] = splitIndex(path, parts[1]);
  noIndex(path, sectionIndex);
  if (section == "inertial" && parts.size() >= 3) {
    const auto [field, index] = splitIndex(path, parts[2]);
    // what the model uses: the density of a body whose mass comes from its shapes, else the rest
    if (b.inertial.fromShapes && field != "density")
      fail(path, "the body's mass properties come from its shapes (from_shapes): change inertial.density");
    if (!b.inertial.fromShapes && field == "density")
      fail(path, "the body's mass properties are given (no from_shapes): change inertial.mass, com or inertia");
    if (field == "mass" || field == "density") {
      expectEnd(3);
      noIndex(path, index);
      t.entries.push_back(field == "mass" ? &b.inertial.mass : &b.inertial.density);
    } else if (field == "com") {
      expectEnd(3);
      addVector(path, b.inertial.com.data(), 3, index, t);
    } else if (field == "inertia" && parts.size() == 4) {
      static const char* names[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
      static const int rows[6] = {0, 1, 2, 0, 0, 1}, cols[6] = {0, 1, 2, 1, 2, 2};
      int k = 0;
      while (k < 6 && parts[3] != names[k]) ++k;
      if (k == 6) fail(path, "expected inertia.ixx, iyy, izz, ixy, ixz or iyz");
      Mat3& I = b.inertial.inertia;
      t.entries.push_back(&I(rows[k], cols[k]));
      if (rows[k] != cols[k]) t.mirrors.emplace_back(&I(rows[k], cols[k]), &I(cols[k], rows[k]));
    } else {
      fail(path, "expected inertial.mass, density, com[i] or inertia.ixx … iyz");
    }
    return t;
  }
  if (section == "joint" && parts.size() >= 3) {
    JointSpec& j = b.joint;
    const auto [field, index] = splitIndex(path, parts[2]);
    if (field == "q0" || field == "v0") {
      expectEnd(3);
      if (field == "q0")
        addOptionalVector(path, j.q0, static_cast<std::size_t>(jointNq(j.type)), neutralQ(j.type), index, forWriting, t,
                          scratch);
      else
        addOptionalVector(path, j.v0, nv, std::vector<double>(nv, 0.0), index, forWriting, t, scratch);
      return t;
    }
    if (field == "drive" && parts.size() == 4) {
      Drive& d = j.drive;
      const auto [name, entry] = splitIndex(path, parts[3]);
      if (!driveUses(d.type, name))
        fail(path, "the drive of joint '" + (j.name.empty() ? b.name : j.name) + "' is " +
                       std::string(driveTypeName(d.type)) + ": it has no " + name);
      if (name == "kp" || name == "kd") {
        noIndex(path, entry);
        t.entries.push_back(name == "kp" ? &d.kp : &d.kd);
        return t;
      }
      std::vector<double>& v = name == "value"       ? d.value
                               : name == "amplitude" ? d.amplitude
                               : name == "frequency" ? d.frequency
                               : name == "phase"     ? d.phase
                               : name == "offset"    ? d.offset
                               : name == "stiffness" ? d.stiffness
                               : name == "damping"   ? d.damping
                                                     : d.restPosition;
      addOptionalVector(path, v, nv, std::vector<double>(nv, 0.0), entry, forWriting, t, scratch);
      return t;
    }
    if (field == "rating" && parts.size() == 4) {
      const auto [name, entry] = splitIndex(path, parts[3]);
      if (name == "force" || name == "moment") {
        noIndex(path, entry);
        t.entries.push_back(name == "force" ? &j.rating.force : &j.rating.moment);
      } else if (name == "reaction") {
        // a rating of one reaction coordinate alone would leave the others at 0, which is invalid
        if (j.rating.reaction.empty() && entry && forWriting)
          fail(path, "the joint has no reaction rating: set rating.reaction (every entry) first");
        addOptionalVector(path, j.rating.reaction, 6 - nv, std::vector<double>(6 - nv, 0.0), entry, forWriting, t,
                          scratch);
      } else {
        fail(path, "expected rating.force, rating.moment or rating.reaction[i]");
      }
      return t;
    }
    fail(path, "expected joint.q0[i], v0[i], drive.FIELD or rating.FIELD");
  }
  if (section == "applied_wrench" && parts.size() == 3) {
    const auto [name, index] = splitIndex(path, parts[2]);
    if (name != "moment" && name != "force") fail(path, "expected applied_wrench.moment[i] or force[i]");
    addVector(path, b.appliedWrench.data() + (name == "moment" ? 0 : 3), 3, index, t);
    return t;
  }
  fail(path, "expected bodies[NAME].inertial.FIELD, joint.FIELD or applied_wrench.FIELD (docs/model-format.md)");
}

}  // namespace

int modelFieldBody(const Model& model, const std::string& path) {
  if (path.rfind("bodies[", 0) != 0) return -1;
  const std::size_t close = path.find(']');
  if (close == std::string::npos) return -1;
  try {
    return bodyIndex(model, path, path.substr(7, close - 7));
  } catch (const std::invalid_argument&) {
    return -1;
  }
}

double getModelField(const Model& model, const std::string& path) {
  std::vector<double> scratch;
  auto& m = const_cast<Model&>(model);  // resolve() reads only when not writing
  const Target t = resolve(m, path, false, scratch);
  if (t.entries.empty()) fail(path, "has no entries");
  const double first = *t.entries.front();
  for (const double* e : t.entries)
    if (*e != first) fail(path, "its entries differ; give an index ([0], [1], …)");
  return first;
}

void setModelField(Model& model, const std::string& path, double value) {
  std::vector<double> scratch;
  const Target t = resolve(model, path, true, scratch);
  for (double* e : t.entries) *e = value;
  for (const auto& [from, to] : t.mirrors) *to = *from;
}

std::vector<std::string> modelFieldPaths(const Model& model) {
  std::vector<std::string> out = {"gravity[0]",      "gravity[1]",          "gravity[2]",
                                  "simulation.step", "simulation.duration", "simulation.tolerance"};
  for (const BodySpec& b : model.bodies) {
    const std::string p = "bodies[" + b.name + "].";
    if (b.inertial.fromShapes) {
      out.push_back(p + "inertial.density");
    } else {
      out.push_back(p + "inertial.mass");
      for (int i = 0; i < 3; ++i) out.push_back(p + "inertial.com[" + std::to_string(i) + "]");
      for (const char* n : {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}) out.push_back(p + "inertial.inertia." + n);
    }
    const int nq = jointNq(b.joint.type), nv = jointNv(b.joint.type);
    for (int i = 0; i < nq; ++i) out.push_back(p + "joint.q0[" + std::to_string(i) + "]");
    for (int i = 0; i < nv; ++i) out.push_back(p + "joint.v0[" + std::to_string(i) + "]");
    for (const char* n :
         {"kp", "kd", "value", "amplitude", "frequency", "phase", "offset", "stiffness", "damping", "rest_position"})
      if (driveUses(b.joint.drive.type, n)) out.push_back(p + "joint.drive." + n);
  }
  return out;
}

}  // namespace kt
