// SPDX-License-Identifier: BSD-3-Clause
// Model reader: YAML text → yaml::Node tree (positions, duplicate keys, size and depth guards)
// → Model, checking types and keys as it goes; then the validator (core/model/validate.cpp) and
// the simulation: block's check (core/sim/run_limits.hpp), whose YAML paths are mapped back to
// the positions recorded while reading.
#include "core/io/model_yaml.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <unordered_map>

#include "core/io/model_files.hpp"
#include "core/io/yaml_tree.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"

namespace kt {

namespace {

std::string summary(const std::vector<Diagnostic>& d) {
  std::string s = formatDiagnostics(d);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

ModelLoadError::ModelLoadError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(summary(diagnostics)), diagnostics_(std::move(diagnostics)) {}

namespace {

using yaml::Node;
using Kind = yaml::Node::Kind;
using Keys = std::vector<std::string>;

constexpr std::size_t kMaxErrors = kMaxDiagnostics;

// YAML 1.2 core-schema floats: decimal/exponent forms and .inf/.nan; "nan", "inf" and quoted
// text are not numbers. Locale-independent (std::from_chars).
bool parseYamlNumber(std::string_view v, double& out) {
  if (v == ".nan" || v == ".NaN" || v == ".NAN") {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  bool negative = false;
  if (!v.empty() && (v[0] == '+' || v[0] == '-')) {
    negative = v[0] == '-';
    v.remove_prefix(1);
  }
  if (v == ".inf" || v == ".Inf" || v == ".INF") {
    out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (v.empty() || !((v[0] >= '0' && v[0] <= '9') || v[0] == '.')) return false;
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out, std::chars_format::general);
  if (ec != std::errc() || ptr != v.data() + v.size()) return false;
  if (negative) out = -out;
  return true;
}

class ModelReader {
 public:
  explicit ModelReader(std::size_t budget) : budget_(budget) {}

  std::vector<Diagnostic> errors;
  /// Paths of nodes reached through an alias: what is inside them is reported at the alias.
  std::unordered_map<std::string, yaml::Position> aliasMarks;

  /// Errors found after the first kMaxErrors: only counted, for the closing "... and N more" line.
  std::size_t dropped = 0;

  void errorAt(yaml::Position p, const std::string& path, const std::string& message) {
    if (errors.size() >= kMaxErrors) {
      ++dropped;
      return;
    }
    Diagnostic d;
    d.path = path;
    d.message = message;
    d.line = p.line + 1;
    d.column = p.column + 1;
    errors.push_back(std::move(d));
  }
  void error(const Node& n, const std::string& path, const std::string& message) { errorAt(n.pos, path, message); }

  // Counts visited nodes so that aliases cannot make reading explode.
  bool visit(const Node& n, const std::string& path) {
    if (budget_ == 0) {
      if (!budgetReported_) error(n, path, "the document expands to too many values (check anchors and aliases)");
      budgetReported_ = true;
      return false;
    }
    --budget_;
    return true;
  }

  // A mapping whose keys are all in `keys`; `misplaced(key)` may explain a key that belongs
  // elsewhere (for example axis2 on a revolute joint).
  bool map(const Node& n, const std::string& path, const Keys& keys, const std::string& what,
           const std::function<std::string(const std::string&)>& misplaced = {}) {
    if (!visit(n, path)) return false;
    if (n.kind != Kind::Map) {
      error(n, path, "expected " + what + " (a mapping with keys " + joinNames(keys) + "), got " + yaml::describe(n));
      return false;
    }
    for (const auto& [k, v] : n.entries) {
      if (k->kind != Kind::Scalar) {
        error(*k, path, "keys must be plain names, got " + yaml::describe(*k));
        continue;
      }
      if (std::find(keys.begin(), keys.end(), k->value) != keys.end()) continue;
      const std::string keyPath = path.empty() ? k->value : path + "." + k->value;
      const std::string why = misplaced ? misplaced(k->value) : std::string();
      if (!why.empty()) {
        error(*k, keyPath, why);
        continue;
      }
      const std::string near = closestMatch(k->value, keys);
      error(*k, keyPath,
            "unknown key '" + k->value + "'" +
                (near.empty() ? "; expected one of: " : "; did you mean '" + near + "'? Expected one of: ") +
                joinNames(keys));
    }
    return true;
  }

  const Node* required(const Node& map, const std::string& path, const std::string& key, const std::string& what) {
    const Node* v = map.find(key);
    if (!v) error(map, path, "missing required key '" + key + "' (" + what + ")");
    return v;
  }

  static std::string sub(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  static std::string idx(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

  bool number(const Node& n, const std::string& path, double& out) {
    if (!visit(n, path)) return false;
    if (n.kind == Kind::Scalar && !n.quoted && parseYamlNumber(n.value, out)) return true;
    error(n, path, "expected a number, got " + yaml::describe(n));
    return false;
  }

  // A whole number: written as one (6) or as a number with no fractional part (6.0, 6e0), as
  // YAML readers and users take them alike.
  bool integer(const Node& n, const std::string& path, int& out) {
    if (!visit(n, path)) return false;
    double x = 0.0;
    if (n.kind == Kind::Scalar && !n.quoted && parseYamlNumber(n.value, x) && std::isfinite(x) && x == std::floor(x)) {
      if (x >= std::numeric_limits<int>::min() && x <= std::numeric_limits<int>::max()) {
        out = static_cast<int>(x);
        return true;
      }
      error(n, path,
            "the whole number " + n.value + " is out of range (at most " +
                std::to_string(std::numeric_limits<int>::max()) + " in size)");
      return false;
    }
    error(n, path, "expected a whole number, got " + yaml::describe(n));
    return false;
  }

  bool boolean(const Node& n, const std::string& path, bool& out) {
    if (!visit(n, path)) return false;
    if (n.kind == Kind::Scalar && !n.quoted) {
      if (n.value == "true" || n.value == "True" || n.value == "TRUE") {
        out = true;
        return true;
      }
      if (n.value == "false" || n.value == "False" || n.value == "FALSE") {
        out = false;
        return true;
      }
    }
    error(n, path, "expected true or false, got " + yaml::describe(n));
    return false;
  }

  bool text(const Node& n, const std::string& path, std::string& out) {
    if (!visit(n, path)) return false;
    if (n.kind == Kind::Scalar) {
      if (const std::size_t bad = invalidUtf8At(n.value); bad != std::string::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(n.value[bad]));
        error(n, path,
              "is not valid UTF-8 text (byte " + std::string(hex) + " at offset " + std::to_string(bad) +
                  "); save the file as UTF-8");
        return false;
      }
      out = n.value;
      return true;
    }
    error(n, path, "expected text, got " + yaml::describe(n));
    return false;
  }

  // Exactly `size` numbers; with `broadcast`, a single number fills all of them.
  bool fixed(const Node& n, const std::string& path, double* out, int size, bool broadcast = false) {
    if (!visit(n, path)) return false;
    if (broadcast && n.kind == Kind::Scalar) {
      double x = 0;
      if (!number(n, path, x)) return false;
      std::fill(out, out + size, x);
      return true;
    }
    if (n.kind != Kind::Sequence || static_cast<int>(n.items.size()) != size) {
      error(n, path,
            "expected a list of " + std::to_string(size) + " numbers" + (broadcast ? " (or one number for all)" : "") +
                ", got " +
                (n.kind == Kind::Sequence ? "a list of " + std::to_string(n.items.size()) : yaml::describe(n)));
      return false;
    }
    bool ok = true;
    for (int i = 0; i < size; ++i) ok = number(*n.items[i], idx(path, i), out[i]) && ok;
    return ok;
  }
  template <typename V>
  bool vec(const Node& n, const std::string& path, V& v, bool broadcast = false) {
    return fixed(n, path, v.data(), static_cast<int>(v.size()), broadcast);
  }

  // A list of numbers of any length; a single number is broadcast to `broadcastTo` entries.
  bool list(const Node& n, const std::string& path, std::vector<double>& out, int broadcastTo) {
    if (!visit(n, path)) return false;
    out.clear();
    if (n.kind == Kind::Scalar) {
      double x = 0;
      if (!number(n, path, x)) return false;
      out.assign(static_cast<std::size_t>(std::max(broadcastTo, 1)), x);
      return true;
    }
    if (n.kind != Kind::Sequence) {
      error(n, path, "expected a list of numbers (or one number), got " + yaml::describe(n));
      return false;
    }
    out.resize(n.items.size());
    bool ok = true;
    for (std::size_t i = 0; i < n.items.size(); ++i) ok = number(*n.items[i], idx(path, i), out[i]) && ok;
    return ok;
  }

 private:
  std::size_t budget_;
  bool budgetReported_ = false;
};

// ---------------------------------------------------------------------------------------------
// Sections of the format, one reader each.

void readPlacement(ModelReader& r, const Node& n, const std::string& path, Placement& p) {
  if (!r.map(n, path, {"xyz", "rpy", "quaternion"}, "a placement")) return;
  if (const Node* v = n.find("xyz")) r.vec(*v, path + ".xyz", p.xyz);
  const Node* rpy = n.find("rpy");
  const Node* quat = n.find("quaternion");
  if (rpy && quat) {
    r.error(*quat, path + ".quaternion", "give the rotation either as rpy or as quaternion, not both");
    return;
  }
  if (rpy) r.vec(*rpy, path + ".rpy", p.rpy);
  if (quat) {
    p.useQuaternion = true;
    r.vec(*quat, path + ".quaternion", p.quat);
  }
}

const Keys kDriveKeys = {"type", "value", "amplitude", "frequency", "phase",         "offset", "kp",
                         "kd",   "knots", "stiffness", "damping",   "rest_position", "file"};

Keys driveKeys(DriveType t) {
  switch (t) {
    case DriveType::None: return {"type"};
    case DriveType::Constant: return {"type", "value"};
    case DriveType::Sinusoid: return {"type", "amplitude", "frequency", "phase", "offset"};
    case DriveType::PdSinusoid: return {"type", "kp", "kd", "amplitude", "frequency", "phase", "offset"};
    case DriveType::PdPiecewise: return {"type", "kp", "kd", "knots"};
    case DriveType::SpringDamper: return {"type", "stiffness", "damping", "rest_position"};
    case DriveType::Table: return {"type", "file"};
  }
  return {"type"};
}

void readKnotList(ModelReader& r, const Node& n, const std::string& path, std::vector<Knot>& out) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Sequence) {
    r.error(n, path, "expected a list of [time, value] pairs, got " + yaml::describe(n));
    return;
  }
  out.resize(n.items.size());
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    double tv[2] = {0, 0};
    if (r.fixed(*n.items[i], ModelReader::idx(path, i), tv, 2)) out[i] = {tv[0], tv[1]};
  }
}

// A list of items per coordinate, or one list for every coordinate. An item (a [time, value]
// pair, a [ta, tb, qa, qb] move) is a list whose first entry is a number; a list of items is not.
template <typename T, typename ReadList>
void readPerCoordinate(const Node& k, const std::string& path, int nv, std::vector<std::vector<T>>& out,
                       ReadList readList) {
  const bool single = !k.items.empty() && k.items[0]->kind == Kind::Sequence && !k.items[0]->items.empty() &&
                      k.items[0]->items[0]->kind == Kind::Scalar;
  if (single) {
    std::vector<T> one;
    readList(k, path, one);
    out.assign(static_cast<std::size_t>(std::max(nv, 1)), one);
    return;
  }
  out.resize(k.items.size());
  for (std::size_t i = 0; i < k.items.size(); ++i) readList(*k.items[i], ModelReader::idx(path, i), out[i]);
}

// A number per joint coordinate under `key` (one number for all of them); a missing optional one
// is zeros.
void readCoordinateValues(ModelReader& r, const Node& n, const std::string& path, const char* key, int nv,
                          bool required, std::vector<double>& out) {
  if (const Node* v = n.find(key))
    r.list(*v, path + "." + key, out, nv);
  else if (required)
    r.required(n, path, key, std::string("one number per joint coordinate, or one for all"));
  else
    out.assign(static_cast<std::size_t>(nv), 0.0);
}

// The required `key`: one list of items (`what`) for every coordinate, or one list per coordinate.
template <typename T, typename ReadList>
void readCoordinateLists(ModelReader& r, const Node& n, const std::string& path, const char* key, const char* what,
                         int nv, std::vector<std::vector<T>>& out, ReadList readList) {
  const Node* k = r.required(n, path, key, what);
  const std::string kp = path + "." + key;
  if (!k || !r.visit(*k, kp)) return;
  if (k->kind != Kind::Sequence) {
    r.error(*k, kp, std::string("expected ") + what + ", got " + yaml::describe(*k));
    return;
  }
  readPerCoordinate(*k, kp, nv, out, readList);
}

// The error of a type name that is none of `names` (with the nearest one), at the type's node.
void unknownType(ModelReader& r, const Node& typeNode, const std::string& path, const char* kind,
                 const std::string& typeName, const Keys& names) {
  const std::string near = closestMatch(typeName, names);
  r.error(typeNode, path + ".type",
          "unknown " + std::string(kind) + " type '" + typeName + "'; expected one of: " + joinNames(names) +
              (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
}

void readDrive(ModelReader& r, const Node& n, const std::string& path, JointType jointType, Drive& d) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Map) {
    r.error(n, path,
            "expected a drive (a mapping with a type: " +
                std::string("none, constant, sinusoid, "
                            "pd_sinusoid, pd_piecewise, "
                            "spring_damper, table), got ") +
                yaml::describe(n));
    return;
  }
  const Node* typeNode = r.required(n, path, "type",
                                    "none, constant, sinusoid, pd_sinusoid, pd_piecewise, "
                                    "spring_damper or table");
  if (!typeNode) return;
  std::string typeName;
  if (!r.text(*typeNode, path + ".type", typeName)) return;
  const auto type = driveTypeFromName(typeName);
  if (!type) {
    unknownType(r, *typeNode, path, "drive", typeName,
                {"none", "constant", "sinusoid", "pd_sinusoid", "pd_piecewise", "spring_damper", "table"});
    return;
  }
  d.type = *type;
  const Keys keys = driveKeys(d.type);
  r.map(n, path, keys, "a drive", [&](const std::string& key) {
    if (std::find(kDriveKeys.begin(), kDriveKeys.end(), key) == kDriveKeys.end()) return std::string();
    return "'" + key + "' is not used by a " + typeName + " drive (its keys: " + joinNames(keys) + ")";
  });
  const int nv = jointNv(jointType);
  const auto vecOr = [&](const char* key, std::vector<double>& out, bool req) {
    readCoordinateValues(r, n, path, key, nv, req, out);
  };
  const auto scalar = [&](const char* key, double& out, bool req) {
    if (const Node* v = n.find(key))
      r.number(*v, path + "." + key, out);
    else if (req)
      r.required(n, path, key, "a number");
  };
  switch (d.type) {
    case DriveType::None: break;
    case DriveType::Constant: vecOr("value", d.value, true); break;
    case DriveType::PdSinusoid:
      scalar("kp", d.kp, true);
      scalar("kd", d.kd, false);
      [[fallthrough]];
    case DriveType::Sinusoid:
      vecOr("amplitude", d.amplitude, true);
      vecOr("frequency", d.frequency, true);
      vecOr("phase", d.phase, false);
      vecOr("offset", d.offset, false);
      break;
    case DriveType::PdPiecewise: {
      scalar("kp", d.kp, true);
      scalar("kd", d.kd, false);
      readCoordinateLists(
          r, n, path, "knots", "[time, value] pairs, or one such list per coordinate", nv, d.knots,
          [&](const Node& k, const std::string& p, std::vector<Knot>& out) { readKnotList(r, k, p, out); });
      break;
    }
    case DriveType::SpringDamper:
      vecOr("stiffness", d.stiffness, true);
      vecOr("damping", d.damping, false);
      vecOr("rest_position", d.restPosition, false);
      break;
    case DriveType::Table:
      if (const Node* f = r.required(n, path, "file", "a CSV file with tau:<joint>[k] columns"))
        r.text(*f, path + ".file", d.file);
      break;
  }
}

void readMoveList(ModelReader& r, const Node& n, const std::string& path, std::vector<Move>& out) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Sequence) {
    r.error(n, path, "expected a list of moves [t_a, t_b, q_a, q_b], got " + yaml::describe(n));
    return;
  }
  out.resize(n.items.size());
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    double m[4] = {0, 0, 0, 0};
    if (r.fixed(*n.items[i], ModelReader::idx(path, i), m, 4)) out[i] = {m[0], m[1], m[2], m[3]};
  }
}

const Keys kMotionKeys = {"type",      "knots", "start_velocity", "end_velocity", "moves", "amplitude",
                          "frequency", "phase", "offset",         "file",         "cutoff"};

Keys motionKeys(MotionType t) {
  switch (t) {
    case MotionType::None: return {"type"};
    case MotionType::Spline: return {"type", "knots", "start_velocity", "end_velocity"};
    case MotionType::RestToRest: return {"type", "moves"};
    case MotionType::Sinusoid: return {"type", "amplitude", "frequency", "phase", "offset"};
    case MotionType::Table: return {"type", "file", "cutoff"};
  }
  return {"type"};
}

void readMotion(ModelReader& r, const Node& n, const std::string& path, JointType jointType, Motion& m) {
  if (!r.visit(n, path)) return;
  const char* types = "spline, rest_to_rest, sinusoid, table or none";
  if (n.kind != Kind::Map) {
    r.error(n, path, std::string("expected a motion (a mapping with a type: ") + types + "), got " + yaml::describe(n));
    return;
  }
  const Node* typeNode = r.required(n, path, "type", types);
  if (!typeNode) return;
  std::string typeName;
  if (!r.text(*typeNode, path + ".type", typeName)) return;
  const auto type = motionTypeFromName(typeName);
  if (!type) {
    unknownType(r, *typeNode, path, "motion", typeName, {"none", "spline", "rest_to_rest", "sinusoid", "table"});
    return;
  }
  m.type = *type;
  const Keys keys = motionKeys(m.type);
  r.map(n, path, keys, "a motion", [&](const std::string& key) {
    if (std::find(kMotionKeys.begin(), kMotionKeys.end(), key) == kMotionKeys.end()) return std::string();
    return "'" + key + "' is not used by a " + typeName + " motion (its keys: " + joinNames(keys) + ")";
  });
  const int nv = jointNv(jointType);
  const auto vecOr = [&](const char* key, std::vector<double>& out, bool req) {
    readCoordinateValues(r, n, path, key, nv, req, out);
  };
  const auto lists = [&](const char* key, const char* what, auto& out, auto readList) {
    readCoordinateLists(r, n, path, key, what, nv, out, readList);
  };
  switch (m.type) {
    case MotionType::None: break;
    case MotionType::Spline:
      lists("knots", "[time, position] pairs, or one such list per coordinate", m.knots,
            [&](const Node& k, const std::string& p, std::vector<Knot>& out) { readKnotList(r, k, p, out); });
      if (n.find("start_velocity") || n.find("end_velocity")) {
        vecOr("start_velocity", m.startVelocity, false);
        vecOr("end_velocity", m.endVelocity, false);
      }
      break;
    case MotionType::RestToRest:
      lists("moves", "moves [t_a, t_b, q_a, q_b], or one such list per coordinate", m.moves,
            [&](const Node& k, const std::string& p, std::vector<Move>& out) { readMoveList(r, k, p, out); });
      break;
    case MotionType::Sinusoid:
      vecOr("amplitude", m.amplitude, true);
      vecOr("frequency", m.frequency, true);
      vecOr("phase", m.phase, false);
      vecOr("offset", m.offset, false);
      break;
    case MotionType::Table:
      if (const Node* f = r.required(n, path, "file", "a CSV file with q:<joint>[k] columns"))
        r.text(*f, path + ".file", m.file);
      if (const Node* c = n.find("cutoff")) r.number(*c, path + ".cutoff", m.cutoff);
      break;
  }
}

const Keys kJointKeys = {"type",   "name", "origin", "axis",   "axis2", "axis3",  "point2",
                         "point3", "q0",   "v0",     "limits", "drive", "motion", "rating"};

std::string jointTypeList() {
  return "fixed, revolute, prismatic, cylindrical, universal (or cardan), gimbal, spherical, planar, free";
}

// reactions: the joint's 6 − n_v reaction coordinates (one number applies to all of them)
// efforts: the joint's n_v actuated coordinates (one number applies to all of them)
void readRating(ModelReader& r, const Node& n, const std::string& path, int reactions, int efforts,
                LoadRating& rating) {
  if (!r.map(n, path, {"force", "moment", "reaction", "effort"}, "a load rating")) return;
  if (const Node* v = n.find("force")) r.number(*v, path + ".force", rating.force);
  if (const Node* v = n.find("moment")) r.number(*v, path + ".moment", rating.moment);
  if (const Node* v = n.find("reaction")) r.list(*v, path + ".reaction", rating.reaction, reactions);
  if (const Node* v = n.find("effort")) r.list(*v, path + ".effort", rating.effort, efforts);
}

void readJoint(ModelReader& r, const Node& n, const std::string& path, JointSpec& j) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Map) {
    r.error(n, path, "expected a joint (a mapping with type, origin, axis, ...), got " + yaml::describe(n));
    return;
  }
  const Node* typeNode = r.required(n, path, "type", jointTypeList());
  std::string typeName;
  if (!typeNode || !r.text(*typeNode, path + ".type", typeName)) return;
  const auto type = jointTypeFromName(typeName);
  if (!type) {
    Keys names;
    for (JointType t : kAllJointTypes) names.emplace_back(jointTypeName(t));
    names.emplace_back("cardan");
    const std::string near = closestMatch(typeName, names);
    r.error(*typeNode, path + ".type",
            "unknown joint type '" + typeName + "'; expected one of: " + jointTypeList() +
                (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
    return;
  }
  j.type = *type;
  Keys keys = {"type", "name", "origin"};
  if (jointHasAxis(j.type)) keys.emplace_back("axis");
  if (j.type == JointType::Universal || j.type == JointType::Gimbal) keys.insert(keys.end(), {"axis2", "point2"});
  if (j.type == JointType::Gimbal) keys.insert(keys.end(), {"axis3", "point3"});
  if (j.type != JointType::Fixed) {
    keys.insert(keys.end(), {"q0", "v0"});
    if (jointNq(j.type) == jointNv(j.type) && !jointUsesQuasiVelocity(j.type)) keys.emplace_back("limits");
    keys.emplace_back("drive");
    keys.emplace_back("motion");
  }
  keys.emplace_back("rating");
  r.map(n, path, keys, "a joint", [&](const std::string& key) {
    if (std::find(kJointKeys.begin(), kJointKeys.end(), key) == kJointKeys.end()) return std::string();
    if (key == "axis2") return std::string("axis2 is only used by universal (cardan) and gimbal joints");
    if (key == "axis3") return std::string("axis3 is only used by gimbal joints");
    if (key == "point2") return std::string("point2 is only used by universal (cardan) and gimbal joints");
    if (key == "point3") return std::string("point3 is only used by gimbal joints");
    return "'" + key + "' is not used by a " + typeName + " joint (its keys: " + joinNames(keys) + ")";
  });
  if (const Node* v = n.find("name"); v && r.text(*v, path + ".name", j.name) && j.name.empty())
    r.error(*v, path + ".name", "must not be empty; leave 'name' out to name the joint after its body");
  if (const Node* v = n.find("origin")) readPlacement(r, *v, path + ".origin", j.origin);
  if (jointHasAxis(j.type))
    if (const Node* v = n.find("axis")) r.vec(*v, path + ".axis", j.axis);
  if (j.type == JointType::Universal || j.type == JointType::Gimbal) {
    if (const Node* v = n.find("axis2")) r.vec(*v, path + ".axis2", j.axis2);
    if (const Node* v = n.find("point2")) r.vec(*v, path + ".point2", j.point2);
  }
  if (j.type == JointType::Gimbal) {
    if (const Node* v = n.find("axis3")) r.vec(*v, path + ".axis3", j.axis3);
    if (const Node* v = n.find("point3")) r.vec(*v, path + ".point3", j.point3);
  }
  if (const Node* v = n.find("rating"))
    readRating(r, *v, path + ".rating", 6 - jointNv(j.type), jointNv(j.type), j.rating);
  if (j.type == JointType::Fixed) return;
  if (const Node* v = n.find("q0")) r.list(*v, path + ".q0", j.q0, 1);
  if (const Node* v = n.find("v0")) r.list(*v, path + ".v0", j.v0, 1);
  if (const Node* v = n.find("limits"); v && jointNq(j.type) == jointNv(j.type) && !jointUsesQuasiVelocity(j.type)) {
    const std::string lp = path + ".limits";
    const auto one = [&](const Node& m, const std::string& p, Limit& lim) {
      if (!r.map(m, p, {"lower", "upper"}, "a limit")) return;
      if (const Node* x = r.required(m, p, "lower", "a number")) r.number(*x, p + ".lower", lim.lower);
      if (const Node* x = r.required(m, p, "upper", "a number")) r.number(*x, p + ".upper", lim.upper);
    };
    if (v->kind == Kind::Map) {  // one {lower, upper} for every coordinate
      Limit lim;
      one(*v, lp, lim);
      j.limits.assign(static_cast<std::size_t>(jointNv(j.type)), lim);
    } else if (v->kind == Kind::Sequence && r.visit(*v, lp)) {
      j.limits.resize(v->items.size());
      for (std::size_t i = 0; i < v->items.size(); ++i) one(*v->items[i], ModelReader::idx(lp, i), j.limits[i]);
    } else {
      r.error(*v, lp, "expected a list of {lower, upper} (one per coordinate), got " + yaml::describe(*v));
    }
  }
  if (const Node* v = n.find("drive")) readDrive(r, *v, path + ".drive", j.type, j.drive);
  if (const Node* v = n.find("motion")) readMotion(r, *v, path + ".motion", j.type, j.motion);
}

void readInertial(ModelReader& r, const Node& n, const std::string& path, Inertial& in) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Map) {
    r.error(n, path,
            "expected inertial data (a mapping with mass, com, inertia, or from_shapes: true and "
            "density), got " +
                yaml::describe(n));
    return;
  }
  if (const Node* v = n.find("from_shapes"); v && !r.boolean(*v, path + ".from_shapes", in.fromShapes)) return;
  if (in.fromShapes) {
    r.map(n, path, {"from_shapes", "density"}, "inertial data", [](const std::string& key) {
      if (key == "mass" || key == "com" || key == "inertia")
        return "'" + key + "' is computed from the shapes when from_shapes is true; remove it (or set " +
               "from_shapes: false)";
      return std::string();
    });
    if (const Node* v = n.find("density")) r.number(*v, path + ".density", in.density);
    return;
  }
  r.map(n, path, {"mass", "com", "inertia", "from_shapes"}, "inertial data", [](const std::string& key) {
    if (key == "density") return std::string("density is only used with from_shapes: true");
    return std::string();
  });
  if (const Node* v = r.required(n, path, "mass", "the body's mass in kg, or use from_shapes: true"))
    r.number(*v, path + ".mass", in.mass);
  if (const Node* v = n.find("com")) r.vec(*v, path + ".com", in.com);
  const Node* I = r.required(n, path, "inertia", "{ixx, iyy, izz, ixy, ixz, iyz} about the centre of mass, kg m²");
  if (!I) return;
  const std::string ip = path + ".inertia";
  if (!r.map(*I, ip, {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}, "an inertia")) return;
  double e[6] = {0, 0, 0, 0, 0, 0};
  const char* names[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  for (int k = 0; k < 6; ++k) {
    const Node* v = k < 3 ? r.required(*I, ip, names[k], "kg m²") : I->find(names[k]);
    if (v) r.number(*v, ip + "." + names[k], e[k]);
  }
  in.inertia << e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2];
}

Keys shapeKeys(ShapeType t) {
  switch (t) {
    case ShapeType::Box: return {"type", "size", "origin", "color"};
    case ShapeType::Cylinder: return {"type", "radius", "length", "origin", "color"};
    case ShapeType::Sphere: return {"type", "radius", "origin", "color"};
    case ShapeType::Capsule: return {"type", "radius", "length", "origin", "color"};
    case ShapeType::Prism: return {"type", "sides", "radius", "length", "origin", "color"};
    case ShapeType::Mesh: return {"type", "file", "scale", "origin", "color"};
  }
  return {};
}

void readShape(ModelReader& r, const Node& n, const std::string& path, Shape& s) {
  if (!r.visit(n, path)) return;
  if (n.kind != Kind::Map) {
    r.error(n, path,
            "expected a shape (a mapping with type: box, cylinder, sphere, capsule, prism or mesh), got " +
                yaml::describe(n));
    return;
  }
  const Node* typeNode = r.required(n, path, "type", "box, cylinder, sphere, capsule, prism or mesh");
  std::string typeName;
  if (!typeNode || !r.text(*typeNode, path + ".type", typeName)) return;
  const auto type = shapeTypeFromName(typeName);
  if (!type) {
    const Keys names = {"box", "cylinder", "sphere", "capsule", "prism", "mesh"};
    const std::string near = closestMatch(typeName, names);
    r.error(*typeNode, path + ".type",
            "unknown shape type '" + typeName + "'; expected one of: " + joinNames(names) +
                (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
    return;
  }
  s.type = *type;
  const Keys keys = shapeKeys(s.type);
  r.map(n, path, keys, "a shape", [&](const std::string& key) {
    static const Keys all = {"type", "size", "radius", "length", "sides", "file", "scale", "origin", "color"};
    if (std::find(all.begin(), all.end(), key) == all.end()) return std::string();
    return "'" + key + "' is not used by a " + typeName + " shape (its keys: " + joinNames(keys) + ")";
  });
  const auto num = [&](const char* key, double& out, const char* what) {
    if (const Node* v = r.required(n, path, key, what)) r.number(*v, path + "." + key, out);
  };
  switch (s.type) {
    case ShapeType::Box:
      if (const Node* v = r.required(n, path, "size", "[x, y, z] edge lengths in m")) r.vec(*v, path + ".size", s.size);
      break;
    case ShapeType::Sphere: num("radius", s.radius, "m"); break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      num("radius", s.radius, "m");
      num("length", s.length, "m along the shape's z axis");
      break;
    case ShapeType::Prism:
      if (const Node* v = r.required(n, path, "sides", "number of sides, at least 3"))
        r.integer(*v, path + ".sides", s.sides);
      num("radius", s.radius, "circumradius in m");
      num("length", s.length, "m along the shape's z axis");
      break;
    case ShapeType::Mesh:
      if (const Node* v = r.required(
              n, path, "file", "a mesh file path (.stl, .obj, .dae, .ply, .gltf or .glb) relative to the model file"))
        r.text(*v, path + ".file", s.mesh);
      if (const Node* v = n.find("scale")) r.vec(*v, path + ".scale", s.meshScale, true);
      break;
  }
  if (const Node* v = n.find("origin")) readPlacement(r, *v, path + ".origin", s.origin);
  if (const Node* v = n.find("color")) {
    const std::string cp = path + ".color";
    if (v->kind == Kind::Sequence && v->items.size() == 3) {
      Vec3 rgb;
      if (r.vec(*v, cp, rgb)) s.color << rgb, 1.0;
    } else if (v->kind == Kind::Sequence && v->items.size() == 4) {
      r.vec(*v, cp, s.color);
    } else {
      r.visit(*v, cp);
      r.error(*v, cp,
              "expected [red, green, blue] or [red, green, blue, alpha] in [0, 1], got " +
                  (v->kind == Kind::Sequence ? "a list of " + std::to_string(v->items.size()) : yaml::describe(*v)));
    }
  }
}

void readBody(ModelReader& r, const Node& n, const std::string& path, BodySpec& b) {
  if (!r.map(n, path, {"name", "parent", "joint", "inertial", "shapes", "applied_wrench"}, "a body")) return;
  if (const Node* v = r.required(n, path, "name", "a unique body name")) r.text(*v, path + ".name", b.name);
  b.parent.clear();
  if (const Node* v = r.required(n, path, "parent", "'world' or the name of another body"))
    r.text(*v, path + ".parent", b.parent);
  if (const Node* v = r.required(n, path, "joint", "the joint to the parent, with at least a type"))
    readJoint(r, *v, path + ".joint", b.joint);
  if (const Node* v = r.required(n, path, "inertial", "{mass, com, inertia} or {from_shapes: true, density}"))
    readInertial(r, *v, path + ".inertial", b.inertial);
  if (const Node* v = n.find("shapes")) {
    const std::string sp = path + ".shapes";
    if (r.visit(*v, sp)) {
      if (v->kind != Kind::Sequence) {
        r.error(*v, sp, "expected a list of shapes, got " + yaml::describe(*v));
      } else {
        b.shapes.resize(v->items.size());
        for (std::size_t i = 0; i < v->items.size(); ++i)
          readShape(r, *v->items[i], ModelReader::idx(sp, i), b.shapes[i]);
      }
    }
  }
  if (const Node* v = n.find("applied_wrench")) {
    const std::string wp = path + ".applied_wrench";
    if (r.map(*v, wp, {"moment", "force"}, "an applied wrench")) {
      Vec3 m = Vec3::Zero(), f = Vec3::Zero();
      if (const Node* x = v->find("moment")) r.vec(*x, wp + ".moment", m);
      if (const Node* x = v->find("force")) r.vec(*x, wp + ".force", f);
      b.appliedWrench << m, f;
    }
  }
}

void readSimulation(ModelReader& r, const Node& n, SimulationSettings& s) {
  // "simulation:" with every setting commented out: the defaults, as for no block at all.
  if (n.kind == Kind::Null) {
    r.visit(n, "simulation");
    return;
  }
  if (!r.map(n, "simulation", {"solver", "integrator", "step", "duration", "tolerance"}, "simulation settings")) return;
  if (const Node* v = n.find("solver")) r.text(*v, "simulation.solver", s.solver);
  if (const Node* v = n.find("integrator")) r.text(*v, "simulation.integrator", s.integrator);
  if (const Node* v = n.find("step")) r.number(*v, "simulation.step", s.step);
  if (const Node* v = n.find("duration")) r.number(*v, "simulation.duration", s.duration);
  if (const Node* v = n.find("tolerance")) r.number(*v, "simulation.tolerance", s.tolerance);
}

const Keys kTopKeys = {"kinetree", "name", "description", "gravity", "simulation", "bodies"};

void readModel(ModelReader& r, const Node& root, Model& m) {
  if (root.kind != Kind::Map) {
    r.error(root, "",
            "expected a model: a mapping starting with 'kinetree: 1' (then name, gravity, bodies, ...), got " +
                yaml::describe(root));
    return;
  }
  const Node* version = root.find("kinetree");
  if (!version) {
    r.error(root, "kinetree", "missing 'kinetree: 1' (the format version) at the top of the file");
    return;
  }
  if (!r.integer(*version, "kinetree", m.formatVersion)) return;
  if (m.formatVersion != kModelFormatVersion) {
    r.error(*version, "kinetree",
            "unsupported format version " + std::to_string(m.formatVersion) +
                "; this version of Kinetree reads format version 1");
    return;
  }
  r.map(root, "", kTopKeys, "a model");
  if (const Node* v = root.find("name")) r.text(*v, "name", m.name);
  if (const Node* v = root.find("description")) r.text(*v, "description", m.description);
  if (const Node* v = root.find("gravity")) r.vec(*v, "gravity", m.gravity);
  if (const Node* v = root.find("simulation")) readSimulation(r, *v, m.simulation);
  const Node* bodies = r.required(root, "", "bodies", "the list of bodies");
  if (!bodies || !r.visit(*bodies, "bodies")) return;
  if (bodies->kind != Kind::Sequence) {
    r.error(*bodies, "bodies", "expected a list of bodies, got " + yaml::describe(*bodies));
    return;
  }
  m.bodies.resize(bodies->items.size());
  for (std::size_t i = 0; i < bodies->items.size(); ++i)
    readBody(r, *bodies->items[i], ModelReader::idx("bodies", i), m.bodies[i]);
}

// The node at a reader path ("bodies[2].joint.drive.phase[0]": keys of mappings and indices of
// lists from the root), or the nearest ancestor that exists; null for a path the file does not
// reach at all. The reader names every node it visits by this path, so this finds the node it
// visited there, without a table of every visited path (which cost a tenth of the time to open a
// 10,000-body model).
const Node* nodeAt(const Node& root, const std::string& path) {
  const Node* n = &root;
  std::size_t i = 0;
  while (i < path.size()) {
    const Node* next = nullptr;
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos) break;
      std::size_t index = 0;
      const auto [end, ec] = std::from_chars(path.data() + i + 1, path.data() + close, index);
      if (ec != std::errc() || end != path.data() + close) break;
      if (n->kind == Kind::Sequence && index < n->items.size()) next = n->items[index];
      i = close + 1;
    } else {
      if (path[i] == '.') ++i;
      const std::size_t stop = path.find_first_of(".[", i);
      const std::size_t end = stop == std::string::npos ? path.size() : stop;
      if (n->kind == Kind::Map) next = n->find(path.substr(i, end - i));
      i = end;
    }
    if (next == nullptr) break;
    n = next;
  }
  return n;
}

// Position of a validator path: the path itself, or the nearest ancestor in the file
// ("bodies[2].joint.drive.phase[0]" → "…phase" → "…drive" → …).
// Inside a node reached through an alias, the outermost alias: a duplicate made by "*a" is
// reported where "*a" is written, not at the anchor.
yaml::Position positionOf(const Node& root, const ModelReader& r, std::string path) {
  const yaml::Position found = nodeAt(root, path)->pos;
  std::optional<yaml::Position> alias;
  while (!r.aliasMarks.empty()) {
    if (auto it = r.aliasMarks.find(path); it != r.aliasMarks.end()) alias = it->second;
    if (path.empty()) break;
    const std::size_t cut = path.find_last_of(".[");
    path = cut == std::string::npos ? std::string() : path.substr(0, cut);
  }
  return alias ? *alias : found;
}

// `modelProblems`: when given, problems of the model checks (validateWithSettings) of a file that parsed are
// returned there (positioned) instead of thrown; syntax, key and type errors still throw.
Model loadText(const std::string& original, const std::string& fileName, const std::string& directory,
               std::vector<Diagnostic>* modelProblems = nullptr, std::vector<Diagnostic>* warnings = nullptr) {
  // Line ends of classic Mac files (CR alone) become LF, as the text scans here (the nesting
  // guard) count lines by LF.
  std::string crFree;
  const bool loneCr = original.find('\r') != std::string::npos && [&] {
    for (std::size_t i = original.find('\r'); i != std::string::npos; i = original.find('\r', i + 1))
      if (i + 1 >= original.size() || original[i + 1] != '\n') return true;
    return false;
  }();
  if (loneCr) {
    crFree = original;
    for (std::size_t i = 0; i < crFree.size(); ++i)
      if (crFree[i] == '\r' && (i + 1 >= crFree.size() || crFree[i + 1] != '\n')) crFree[i] = '\n';
  }
  const std::string& text = loneCr ? crFree : original;
  std::vector<yaml::ParseProblem> problems;
  std::vector<std::pair<std::string, yaml::Position>> aliases;
  const auto root = yaml::parseDocument(text, problems, &aliases);
  std::vector<Diagnostic> out;
  const auto add = [&](yaml::Position p, const std::string& path, const std::string& message) {
    Diagnostic d;
    d.path = path;
    d.message = message;
    d.file = fileName;
    d.line = p.line + 1;
    d.column = p.column + 1;
    out.push_back(std::move(d));
  };
  for (const auto& p : problems) add(p.pos, p.path, p.message);
  if (!root || root->kind == Kind::Null) {
    if (out.empty())
      add(root ? root->pos : yaml::Position{}, "", "the file is empty; expected a model starting with 'kinetree: 1'");
    throw ModelLoadError(std::move(out));
  }

  Model model;
  model.sourceDirectory = directory;
  ModelReader reader(32 * text.size() + 1024);
  reader.aliasMarks.insert(aliases.begin(), aliases.end());
  readModel(reader, *root, model);
  for (Diagnostic& d : reader.errors) {
    d.file = fileName;
    out.push_back(std::move(d));
  }
  if (out.empty()) {
    std::vector<Diagnostic> problemsFound = validateWithSettings(model);
    for (Diagnostic& d : problemsFound) {
      d.file = fileName;
      if (d.omitted > 0) continue;  // the closing "... and N more" line has no place in the file
      const yaml::Position p = positionOf(*root, reader, d.path);
      d.line = p.line + 1;
      d.column = p.column + 1;
    }
    if (warnings != nullptr && problemsFound.empty()) {
      *warnings = modelWarnings(model);
      for (Diagnostic& d : *warnings) {
        const yaml::Position p = positionOf(*root, reader, d.path);
        d.file = fileName;
        d.line = p.line + 1;
        d.column = p.column + 1;
      }
    }
    // The validator's closing "... and N more" line (after its first kMaxErrors) stays last.
    const auto sortEnd = problemsFound.size() > kMaxErrors ? problemsFound.begin() + kMaxErrors : problemsFound.end();
    std::stable_sort(problemsFound.begin(), sortEnd, [](const Diagnostic& a, const Diagnostic& b) {
      return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    if (modelProblems != nullptr) {
      *modelProblems = std::move(problemsFound);
      return model;
    }
    out = std::move(problemsFound);
  } else {
    std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    // As the validator does: the first kMaxErrors, then one line that counts the rest.
    const std::size_t total = out.size() + reader.dropped;
    if (total > kMaxErrors) {
      out.resize(kMaxErrors);
      Diagnostic more = omittedProblemsLine(total - kMaxErrors);
      more.file = fileName;
      out.push_back(std::move(more));
    }
  }
  if (!out.empty()) throw ModelLoadError(std::move(out));
  return model;
}

}  // namespace

Model loadModelFromString(const std::string& text, const std::string& fileName) {
  return loadText(text, fileName, std::string());
}

namespace {

Model loadFile(const std::string& path, std::vector<Diagnostic>* modelProblems,
               std::vector<Diagnostic>* warnings = nullptr) {
  const std::string text = readModelFileText(path);
  std::error_code ec;
  const std::string dir = std::filesystem::absolute(std::filesystem::path(path), ec).parent_path().lexically_normal();
  return loadText(text, path, dir, modelProblems, warnings);
}

}  // namespace

std::string readModelFileText(const std::string& path) {
  const auto fail = [&](const std::string& message) {
    Diagnostic d;
    d.file = path;
    d.message = message;
    throw ModelLoadError({d});
  };
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) fail("no such file");
  if (std::filesystem::is_directory(path, ec)) fail("is a directory, not a model file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) fail("cannot read the file: " + ec.message());
  if (size > kMaxModelFileBytes)
    fail("the file is " + std::to_string(size / (1024 * 1024)) + " MiB; model files are limited to " +
         std::to_string(kMaxModelFileBytes / (1024 * 1024)) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open the file for reading");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

Model loadModelFromFile(const std::string& path) { return loadFile(path, nullptr); }

Model loadModelFromFile(const std::string& path, std::vector<Diagnostic>& warnings) {
  warnings.clear();
  return loadFile(path, nullptr, &warnings);
}

Model loadModelFromString(const std::string& text, const std::string& fileName, std::vector<Diagnostic>& warnings) {
  warnings.clear();
  return loadText(text, fileName, std::string(), nullptr, &warnings);
}

Model loadModelFromString(const std::string& text, const std::string& fileName, const std::string& directory,
                          std::vector<Diagnostic>& warnings) {
  warnings.clear();
  return loadText(text, fileName, directory, nullptr, &warnings);
}

Model loadModelForEditing(const std::string& path, std::vector<Diagnostic>& problems) {
  problems.clear();
  return loadFile(path, &problems);
}

Model loadModelForEditingFromString(const std::string& text, const std::string& fileName,
                                    std::vector<Diagnostic>& problems) {
  problems.clear();
  return loadText(text, fileName, std::string(), &problems);
}

}  // namespace kt

namespace kt {

bool parseDriveText(const std::string& text, JointType joint, Drive& drive, std::string& error) {
  std::string value = text;
  while (!value.empty() && (value.back() == ' ' || value.back() == '\n' || value.back() == '\t')) value.pop_back();
  std::size_t start = value.find_first_not_of(" \t\n");
  value = start == std::string::npos ? std::string() : value.substr(start);
  if (value.empty() || value == "none") {
    drive = Drive{};
    return true;
  }
  if (value.find('\n') != std::string::npos) {  // a block mapping: indented under `drive:`
    std::string block;
    std::size_t from = 0;
    while (from <= value.size()) {
      const std::size_t to = std::min(value.find('\n', from), value.size());
      block += "\n        " + value.substr(from, to - from);
      from = to + 1;
    }
    value = block;
  }
  // one body whose joint has this drive, read by the loader with all of its checks
  const std::string document = "kinetree: 1\nbodies:\n  - name: b\n    parent: world\n    joint:\n      type: " +
                               std::string(jointTypeName(joint)) + "\n      drive: " + value +
                               "\n    inertial: {mass: 1, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1, ixy: 0, "
                               "ixz: 0, iyz: 0}}\n";
  try {
    const Model m = loadModelFromString(document, "drive");
    drive = m.bodies.front().joint.drive;
    return true;
  } catch (const ModelLoadError& e) {
    error = e.diagnostics().empty() ? std::string(e.what()) : e.diagnostics().front().message;
    return false;
  }
}

}  // namespace kt
