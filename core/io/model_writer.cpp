// SPDX-License-Identifier: BSD-3-Clause
// Model writer: canonical YAML (fixed key order, flow style for vectors, shortest round-trip
// numbers) so that save → load → save is byte-identical. A field is left out only when the
// loader's default for a missing key gives back exactly the same value.
#include <yaml-cpp/emitter.h>
#include <yaml-cpp/emittermanip.h>

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "core/io/atomic_file.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"

namespace kt {
namespace {

bool plainSafe(const std::string& s) {
  if (s.empty()) return false;
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!letter(s[0])) return false;
  for (char c : s)
    if (!(letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '/')) return false;
  // Words that YAML 1.1 readers take for booleans or null.
  static const char* kReserved[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* w : kReserved)
    if (lower == w) return false;
  return true;
}

// The code point of the UTF-8 sequence at s[i] and its length; length 0 for bytes that are not UTF-8.
std::pair<unsigned, std::size_t> codePointAt(const std::string& s, std::size_t i) {
  const auto b = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  const unsigned c = b(i);
  if (c < 0x80) return {c, 1};
  const std::size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (n == 0) return {0, 0};
  unsigned cp = c & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  const bool shortest = (n == 2) || (n == 3 && cp >= 0x800) || (n == 4 && cp >= 0x10000 && cp <= 0x10FFFF);
  if (!shortest || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};
  return {cp, n};
}

// Code points yaml-cpp's emitter would replace by U+FFFD: the noncharacters.
bool noncharacter(unsigned cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// The double-quoted scalar written here, for text yaml-cpp's emitter would change: control
// characters, DEL and the noncharacters escaped, bytes that are not UTF-8 kept as they are.
std::string quotedByHand(const std::string& s) {
  std::string out = "\"";
  char hex[16];
  for (std::size_t i = 0; i < s.size();) {
    const auto [cp, n] = codePointAt(s, i);
    if (n == 0) {
      out += s[i++];
      continue;
    }
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02X", cp);
      out += hex;
    } else if (noncharacter(cp)) {
      std::snprintf(hex, sizeof hex, cp > 0xFFFF ? "\\U%08X" : "\\u%04X", cp);
      out += hex;
    } else {
      out.append(s, i, n);
    }
    i += n;
  }
  return out + "\"";
}

// Text that is not a plain name: a double-quoted scalar as yaml-cpp's emitter writes it (its
// escapes for quotes, backslashes, line ends and control characters), with DEL escaped too: the
// emitter leaves it as it is, and YAML does not allow it unescaped. Text the emitter would change
// (a noncharacter such as U+FDD0 becomes U+FFFD, so do bytes that are not UTF-8) is written by
// hand, so that nothing a model holds is changed by saving it.
std::string quoted(const std::string& s) {
  if (plainSafe(s)) return s;
  for (std::size_t i = 0; i < s.size();) {
    const auto [cp, n] = codePointAt(s, i);
    if (n == 0 || noncharacter(cp)) return quotedByHand(s);
    i += n;
  }
  YAML::Emitter e;
  e << YAML::DoubleQuoted << s;
  std::string out;
  for (const char* c = e.c_str(); *c != '\0'; ++c) {
    if (*c == '\x7F')
      out += "\\x7F";
    else
      out += *c;
  }
  return out;
}

std::string num(double x) { return formatRoundTrip(x); }

template <typename V>
std::string list(const V& v) {
  return formatRoundTripList(v.data(), static_cast<int>(v.size()));
}

std::string placement(const Placement& p) {
  std::string s = "{xyz: " + list(p.xyz);
  s += p.useQuaternion ? ", quaternion: " + list(p.quat) : ", rpy: " + list(p.rpy);
  return s + "}";
}

class Writer {
 public:
  std::string out;
  void line(int indent, const std::string& text) {
    out.append(static_cast<std::size_t>(indent), ' ');
    out += text;
    out += '\n';
  }
};

void writeDrive(Writer& w, const Drive& d) {
  const int I = 8;
  w.line(6, "drive:");
  w.line(I, "type: " + std::string(driveTypeName(d.type)));
  switch (d.type) {
    case DriveType::None: break;
    case DriveType::Constant: w.line(I, "value: " + list(d.value)); break;
    case DriveType::PdSinusoid:
      w.line(I, "kp: " + num(d.kp));
      w.line(I, "kd: " + num(d.kd));
      [[fallthrough]];
    case DriveType::Sinusoid:
      w.line(I, "amplitude: " + list(d.amplitude));
      w.line(I, "frequency: " + list(d.frequency));
      w.line(I, "phase: " + list(d.phase));
      w.line(I, "offset: " + list(d.offset));
      break;
    case DriveType::PdPiecewise:
      w.line(I, "kp: " + num(d.kp));
      w.line(I, "kd: " + num(d.kd));
      if (d.knots.empty()) {
        w.line(I, "knots: []");
        break;
      }
      w.line(I, "knots:");
      for (const auto& coordinate : d.knots) {
        std::string s = "- [";
        for (std::size_t i = 0; i < coordinate.size(); ++i) {
          if (i) s += ", ";
          s += "[" + num(coordinate[i].t) + ", " + num(coordinate[i].value) + "]";
        }
        w.line(I + 2, s + "]");
      }
      break;
    case DriveType::SpringDamper:
      w.line(I, "stiffness: " + list(d.stiffness));
      w.line(I, "damping: " + list(d.damping));
      w.line(I, "rest_position: " + list(d.restPosition));
      break;
    case DriveType::Table: w.line(I, "file: " + quoted(d.file)); break;
  }
}

// One list of items per coordinate, each item written by `item`.
template <typename T, typename Item>
void writePerCoordinate(Writer& w, int indent, const char* key, const std::vector<std::vector<T>>& lists, Item item) {
  if (lists.empty()) {
    w.line(indent, std::string(key) + ": []");
    return;
  }
  w.line(indent, std::string(key) + ":");
  for (const std::vector<T>& coordinate : lists) {
    std::string s = "- [";
    for (std::size_t i = 0; i < coordinate.size(); ++i) s += (i ? ", " : "") + item(coordinate[i]);
    w.line(indent + 2, s + "]");
  }
}

void writeMotion(Writer& w, const Motion& m) {
  const int I = 8;
  w.line(6, "motion:");
  w.line(I, "type: " + std::string(motionTypeName(m.type)));
  switch (m.type) {
    case MotionType::None: break;
    case MotionType::Spline:
      writePerCoordinate(w, I, "knots", m.knots,
                         [](const Knot& k) { return "[" + num(k.t) + ", " + num(k.value) + "]"; });
      if (!m.startVelocity.empty()) w.line(I, "start_velocity: " + list(m.startVelocity));
      if (!m.endVelocity.empty()) w.line(I, "end_velocity: " + list(m.endVelocity));
      break;
    case MotionType::RestToRest:
      writePerCoordinate(w, I, "moves", m.moves, [](const Move& mv) {
        return "[" + num(mv.ta) + ", " + num(mv.tb) + ", " + num(mv.qa) + ", " + num(mv.qb) + "]";
      });
      break;
    case MotionType::Sinusoid:
      w.line(I, "amplitude: " + list(m.amplitude));
      w.line(I, "frequency: " + list(m.frequency));
      w.line(I, "phase: " + list(m.phase));
      w.line(I, "offset: " + list(m.offset));
      break;
    case MotionType::Table:
      w.line(I, "file: " + quoted(m.file));
      if (m.cutoff != 0.0) w.line(I, "cutoff: " + num(m.cutoff));
      break;
  }
}

// A one-coordinate list as its number ("0.5"), longer ones as lists: the drive texts of the
// template table, which the loader reads back (a scalar is broadcast to the joint's coordinates).
template <typename V>
std::string compactList(const V& v) {
  return v.size() == 1 ? num(v[0]) : list(v);
}

}  // namespace

std::string driveText(const Drive& d) {
  std::string s = "{type: " + std::string(driveTypeName(d.type));
  const auto add = [&s](const char* key, const std::string& value) { s += std::string(", ") + key + ": " + value; };
  switch (d.type) {
    case DriveType::None: break;
    case DriveType::Constant: add("value", compactList(d.value)); break;
    case DriveType::PdSinusoid:
    case DriveType::Sinusoid:
      if (d.type == DriveType::PdSinusoid) {
        add("kp", num(d.kp));
        add("kd", num(d.kd));
      }
      add("amplitude", compactList(d.amplitude));
      add("frequency", compactList(d.frequency));
      add("phase", compactList(d.phase));
      add("offset", compactList(d.offset));
      break;
    case DriveType::PdPiecewise: {
      add("kp", num(d.kp));
      add("kd", num(d.kd));
      std::string knots = "[";
      for (std::size_t c = 0; c < d.knots.size(); ++c) {
        knots += c ? ", [" : "[";
        for (std::size_t i = 0; i < d.knots[c].size(); ++i)
          knots += (i ? ", [" : "[") + num(d.knots[c][i].t) + ", " + num(d.knots[c][i].value) + "]";
        knots += "]";
      }
      add("knots", knots + "]");
      break;
    }
    case DriveType::SpringDamper:
      add("stiffness", compactList(d.stiffness));
      add("damping", compactList(d.damping));
      add("rest_position", compactList(d.restPosition));
      break;
    case DriveType::Table: add("file", quoted(d.file)); break;
  }
  return s + "}";
}

namespace {

void writeRating(Writer& w, const LoadRating& rating) {
  std::string s;
  const auto add = [&s](const std::string& field) { s += (s.empty() ? "" : ", ") + field; };
  if (rating.force != 0.0) add("force: " + num(rating.force));
  if (rating.moment != 0.0) add("moment: " + num(rating.moment));
  if (!rating.reaction.empty()) add("reaction: " + list(rating.reaction));
  if (!rating.effort.empty()) add("effort: " + list(rating.effort));
  w.line(6, "rating: {" + s + "}");
}

void writeJoint(Writer& w, const JointSpec& j) {
  w.line(4, "joint:");
  w.line(6, "type: " + std::string(jointTypeName(j.type)));
  if (!j.name.empty()) w.line(6, "name: " + quoted(j.name));
  if (j.origin != Placement{}) w.line(6, "origin: " + placement(j.origin));
  if (jointHasAxis(j.type)) w.line(6, "axis: " + list(j.axis));
  if (j.type == JointType::Universal || j.type == JointType::Gimbal) w.line(6, "axis2: " + list(j.axis2));
  if (j.type == JointType::Gimbal) w.line(6, "axis3: " + list(j.axis3));
  // offset axes only where the file says so: a joint through one point writes what it always did
  if ((j.type == JointType::Universal || j.type == JointType::Gimbal) && j.point2 != Vec3::Zero())
    w.line(6, "point2: " + list(j.point2));
  if (j.type == JointType::Gimbal && j.point3 != Vec3::Zero()) w.line(6, "point3: " + list(j.point3));
  if (j.type != JointType::Fixed) {
    if (!j.q0.empty()) w.line(6, "q0: " + list(j.q0));
    if (!j.v0.empty()) w.line(6, "v0: " + list(j.v0));
    if (!j.limits.empty()) {
      std::string s = "limits: [";
      for (std::size_t i = 0; i < j.limits.size(); ++i) {
        if (i) s += ", ";
        s += "{lower: " + num(j.limits[i].lower) + ", upper: " + num(j.limits[i].upper) + "}";
      }
      w.line(6, s + "]");
    }
    if (j.drive.type != DriveType::None) writeDrive(w, j.drive);
    if (j.motion.type != MotionType::None) writeMotion(w, j.motion);
  }
  if (!j.rating.empty()) writeRating(w, j.rating);
}

void writeInertial(Writer& w, const Inertial& in) {
  w.line(4, "inertial:");
  if (in.fromShapes) {
    w.line(6, "from_shapes: true");
    w.line(6, "density: " + num(in.density));
    return;
  }
  const Mat3& I = in.inertia;
  w.line(6, "mass: " + num(in.mass));
  w.line(6, "com: " + list(in.com));
  w.line(6, "inertia: {ixx: " + num(I(0, 0)) + ", iyy: " + num(I(1, 1)) + ", izz: " + num(I(2, 2)) +
                ", ixy: " + num(I(0, 1)) + ", ixz: " + num(I(0, 2)) + ", iyz: " + num(I(1, 2)) + "}");
}

void writeShape(Writer& w, const Shape& s) {
  w.line(6, "- type: " + std::string(shapeTypeName(s.type)));
  const int I = 8;
  switch (s.type) {
    case ShapeType::Box: w.line(I, "size: " + list(s.size)); break;
    case ShapeType::Sphere: w.line(I, "radius: " + num(s.radius)); break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      w.line(I, "radius: " + num(s.radius));
      w.line(I, "length: " + num(s.length));
      break;
    case ShapeType::Prism:
      w.line(I, "sides: " + std::to_string(s.sides));
      w.line(I, "radius: " + num(s.radius));
      w.line(I, "length: " + num(s.length));
      break;
    case ShapeType::Mesh:
      w.line(I, "file: " + quoted(s.mesh));
      w.line(I, "scale: " + list(s.meshScale));
      break;
  }
  if (s.origin != Placement{}) w.line(I, "origin: " + placement(s.origin));
  w.line(I, "color: " + list(s.color));
}

void writeBody(Writer& w, const BodySpec& b) {
  w.line(2, "- name: " + quoted(b.name));
  w.line(4, "parent: " + quoted(b.parent));
  writeJoint(w, b.joint);
  writeInertial(w, b.inertial);
  if (!b.shapes.empty()) {
    w.line(4, "shapes:");
    for (const Shape& s : b.shapes) writeShape(w, s);
  }
  if (b.appliedWrench != Vec6::Zero())
    w.line(4, "applied_wrench: {moment: " + list(Vec3(b.appliedWrench.head<3>())) +
                  ", force: " + list(Vec3(b.appliedWrench.tail<3>())) + "}");
}

}  // namespace

std::string saveModelToString(const Model& m) {
  Writer w;
  w.line(0, "kinetree: " + std::to_string(m.formatVersion));
  w.line(0, "name: " + quoted(m.name));
  if (!m.description.empty()) w.line(0, "description: " + quoted(m.description));
  w.line(0, "gravity: " + list(m.gravity));
  w.line(0, "simulation:");
  w.line(2, "solver: " + quoted(m.simulation.solver));
  w.line(2, "integrator: " + quoted(m.simulation.integrator));
  w.line(2, "step: " + num(m.simulation.step));
  w.line(2, "duration: " + num(m.simulation.duration));
  w.line(2, "tolerance: " + num(m.simulation.tolerance));
  if (m.bodies.empty()) {
    w.line(0, "bodies: []");
  } else {
    w.line(0, "bodies:");
    for (const BodySpec& b : m.bodies) writeBody(w, b);
  }
  return w.out;
}

void saveModelToFile(const Model& model, const std::string& path) {
  writeFileAtomically(path, saveModelToString(model));
}

}  // namespace kt
