// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/editing/edit_ops.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "core/model/editing/round_values.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/joint.hpp"

namespace kt {
namespace {

constexpr int kMaxTemplateBodies = 10000;

const std::string& effectiveJointName(const BodySpec& b) { return b.joint.name.empty() ? b.name : b.joint.name; }

bool bodyExists(const Model& m, const std::string& name) { return name == "world" || m.findBody(name) >= 0; }

// Rotation of a placement back into the form the placement uses.
void setRotation(Placement& p, const Mat3& R) {
  if (p.useQuaternion) {
    const Quat q(R);
    p.quat = Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
  } else {
    p.rpy = rpyFromRotation(R);
  }
}

// parent ∘ child for placements (child frame given in the parent's placed frame).
Placement compose(const Placement& parent, const Placement& child) {
  Placement out = child;
  const Mat3 Rp = parent.rotation();
  out.xyz = parent.xyz + Rp * child.xyz;
  setRotation(out, Rp * child.rotation());
  return out;
}

// Mass properties of one primitive shape of the given total mass (closed forms of mass_properties).
void fillInertialFromShape(Inertial& in, const Shape& s, double mass) {
  const double volume = shapeVolume(s);
  if (volume > 0.0) {
    // the mass as given (mass / volume · volume is 400.00000000000006 for 400 kg of prism), the
    // rest without its rounding noise
    MassProperties mp = primitiveMassProperties(s, mass / volume);
    mp.mass = mass;
    roundComputed(mp);
    in.mass = mp.mass;
    in.com = mp.com;
    in.inertia = mp.inertia;
  } else {
    in.mass = mass;
  }
}

// Names for copies: mapped through `rename`, made unique against `taken` (which grows).
std::string copyName(const std::string& name, const MirrorOptions* mirror, const std::string& suffix,
                     std::set<std::string>& taken) {
  std::string base = name;
  if (mirror) {
    for (const auto& [from, to] : mirror->renames) {
      if (from.empty()) continue;
      std::string out;
      std::size_t pos = 0;
      for (std::size_t hit; (hit = base.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
        out.append(base, pos, hit - pos);
        out += to;
      }
      base = out + base.substr(pos);
    }
  }
  if (base == name) base = name + suffix;
  std::string unique = uniqueName(base, taken);
  taken.insert(unique);
  return unique;
}

// Appends copies of the subtree of `root` (bodies in model order); returns the new root index.
int appendCopy(Model& model, int root, const MirrorOptions* mirror, const std::string& suffix) {
  const std::vector<int> sub = subtreeOf(model, root);
  std::set<std::string> taken = usedNames(model);
  std::map<std::string, std::string> newName;
  std::vector<BodySpec> copies;
  for (int k : sub) {
    BodySpec b = model.bodies[k];
    newName[b.name] = copyName(b.name, mirror, suffix, taken);
    if (!b.joint.name.empty()) b.joint.name = copyName(b.joint.name, mirror, suffix, taken);
    copies.push_back(std::move(b));
  }
  for (BodySpec& b : copies) {
    if (auto it = newName.find(b.parent); it != newName.end()) b.parent = it->second;
    b.name = newName[b.name];
  }
  const int first = static_cast<int>(model.bodies.size());
  for (BodySpec& b : copies) model.bodies.push_back(std::move(b));
  return first;
}

// ---- mirroring ----

Mat3 reflection(MirrorPlane plane) {
  Mat3 S = Mat3::Identity();
  switch (plane) {
    case MirrorPlane::XY: S(2, 2) = -1.0; break;
    case MirrorPlane::YZ: S(0, 0) = -1.0; break;
    case MirrorPlane::ZX: S(1, 1) = -1.0; break;
  }
  return S;
}

// R → S R D, xyz → S xyz (D = S for frames; shapes may use another flip they are symmetric under).
// With D = S the stored form is mapped exactly: S Ra(θ) S = Ra(θ) for the normal axis a and
// Ra(−θ) for the two axes in the plane, so roll/pitch/yaw in the plane change sign and the one
// about the normal stays; a quaternion (w, v) becomes (w, −S v). Mirroring twice restores the
// numbers bit for bit.
void mirrorPlacement(Placement& p, const Mat3& S, const Mat3& D) {
  p.xyz = S * p.xyz;
  if (D != S) {
    setRotation(p, S * p.rotation() * D);
    return;
  }
  for (int k = 0; k < 3; ++k) {
    if (S(k, k) > 0.0) p.rpy[k] = -p.rpy[k];
    p.quat[1 + k] *= -S(k, k);
  }
}

// −0 written as "-0" would make mirrored files differ from hand-written ones: x + 0.0 maps −0 to +0.
template <typename Derived>
void scrubZeros(Eigen::DenseBase<Derived>& m) {
  m.derived().array() += 0.0;
}
void scrubZeros(std::vector<double>& v) {
  for (double& x : v) x += 0.0;
}

void scrubZeros(BodySpec& b) {
  JointSpec& j = b.joint;
  for (Placement* p : {&j.origin}) {
    scrubZeros(p->xyz);
    scrubZeros(p->rpy);
    scrubZeros(p->quat);
  }
  scrubZeros(j.axis);
  scrubZeros(j.axis2);
  scrubZeros(j.axis3);
  scrubZeros(j.point2);
  scrubZeros(j.point3);
  scrubZeros(j.q0);
  scrubZeros(j.v0);
  for (Limit& l : j.limits) {
    l.lower += 0.0;
    l.upper += 0.0;
  }
  for (auto* v : {&j.drive.value, &j.drive.amplitude, &j.drive.offset, &j.drive.restPosition}) scrubZeros(*v);
  for (auto& list : j.drive.knots)
    for (Knot& k : list) k.value += 0.0;
  scrubZeros(b.inertial.com);
  scrubZeros(b.inertial.inertia);
  for (Shape& s : b.shapes) {
    scrubZeros(s.origin.xyz);
    scrubZeros(s.origin.rpy);
    scrubZeros(s.origin.quat);
    scrubZeros(s.meshScale);
  }
  scrubZeros(b.appliedWrench);
}

void mirrorShape(Shape& s, const Mat3& S) {
  Mat3 D = S;
  if (s.type == ShapeType::Prism && S(0, 0) < 0.0) D = Mat3(Vec3(1.0, -1.0, 1.0).asDiagonal());
  if (s.type == ShapeType::Mesh) s.meshScale = S * s.meshScale;
  mirrorPlacement(s.origin, S, D);
}

// Signed permutation of the velocity coordinates: coordinate i becomes coordinate perm[i],
// multiplied by sign[i].
struct CoordinateMap {
  std::vector<int> perm;
  std::vector<double> sign;
};

void mapVector(std::vector<double>& v, const CoordinateMap& m, bool negate) {
  if (v.size() != m.perm.size()) return;
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[m.perm[i]] = negate ? m.sign[i] * v[i] : v[i];
  v = std::move(out);
}

void mapLimitsAndDrive(JointSpec& j, const CoordinateMap& m) {
  if (j.limits.size() == m.perm.size()) {
    std::vector<Limit> out(j.limits.size());
    for (std::size_t i = 0; i < j.limits.size(); ++i)
      out[m.perm[i]] = m.sign[i] > 0 ? j.limits[i] : Limit{-j.limits[i].upper, -j.limits[i].lower};
    j.limits = std::move(out);
  }
  Drive& d = j.drive;
  for (auto* v : {&d.value, &d.amplitude, &d.offset, &d.restPosition}) mapVector(*v, m, true);
  for (auto* v : {&d.frequency, &d.phase, &d.stiffness, &d.damping}) mapVector(*v, m, false);
  if (d.knots.size() == m.perm.size()) {
    std::vector<std::vector<Knot>> out(d.knots.size());
    for (std::size_t i = 0; i < d.knots.size(); ++i) {
      out[m.perm[i]] = d.knots[i];
      for (Knot& k : out[m.perm[i]]) k.value *= m.sign[i];
    }
    d.knots = std::move(out);
  }
}

CoordinateMap identityMap(int n) {
  CoordinateMap m;
  for (int i = 0; i < n; ++i) {
    m.perm.push_back(i);
    m.sign.push_back(1.0);
  }
  return m;
}

void mirrorJoint(JointSpec& j, const Mat3& S) {
  mirrorPlacement(j.origin, S, S);
  const Vec3 axial = -(S * j.axis);
  CoordinateMap map = identityMap(jointNv(j.type));
  switch (j.type) {
    case JointType::Fixed: break;
    case JointType::Revolute: j.axis = axial; break;
    case JointType::Prismatic: j.axis = S * j.axis; break;
    case JointType::Cylindrical:
      j.axis = axial;
      map.sign[1] = -1.0;
      break;
    case JointType::Universal:
      j.axis = axial;
      j.axis2 = -(S * j.axis2);
      j.point2 = S * j.point2;  // a point: polar
      break;
    case JointType::Gimbal:
      j.axis = axial;
      j.axis2 = -(S * j.axis2);
      j.axis3 = -(S * j.axis3);
      j.point2 = S * j.point2;
      j.point3 = S * j.point3;
      break;
    case JointType::Spherical:
    case JointType::Free: {
      // Quaternion vector part and angular velocity are axial (−S), positions and linear velocity polar (S).
      for (int k = 0; k < 3; ++k) map.sign[k] = -S(k, k);
      if (j.type == JointType::Free)
        for (int k = 0; k < 3; ++k) map.sign[3 + k] = S(k, k);
      if (static_cast<int>(j.q0.size()) == jointNq(j.type)) {
        for (int k = 0; k < 3; ++k) j.q0[1 + k] *= -S(k, k);
        if (j.type == JointType::Free)
          for (int k = 0; k < 3; ++k) j.q0[4 + k] *= S(k, k);
      }
      mapVector(j.v0, map, true);
      mapLimitsAndDrive(j, map);
      return;
    }
    case JointType::Planar: {
      // In-plane translation t = perp1 q1 + perp2 q2 is polar: t' = S t, expressed in the
      // mirrored joint's basis (perp1', perp2') of the plane with normal −S n.
      const JointModel before = JointModel::make(j.type, j.axis, j.axis2, j.axis3);
      j.axis = axial;
      const JointModel after = JointModel::make(j.type, j.axis, j.axis2, j.axis3);
      Eigen::Matrix2d M;
      M << after.perp1.dot(S * before.perp1), after.perp1.dot(S * before.perp2), after.perp2.dot(S * before.perp1),
          after.perp2.dot(S * before.perp2);
      auto mapPair = [&](std::vector<double>& v) {
        if (v.size() != 3) return;
        const Eigen::Vector2d t = M * Eigen::Vector2d(v[1], v[2]);
        v[1] = t[0];
        v[2] = t[1];
      };
      mapPair(j.q0);
      mapPair(j.v0);
      const bool straight = std::abs(std::abs(M(0, 0)) - 1.0) < 1e-12 && std::abs(M(0, 1)) < 1e-12;
      const bool swapped = std::abs(std::abs(M(0, 1)) - 1.0) < 1e-12 && std::abs(M(0, 0)) < 1e-12;
      if (straight) {
        map.sign[1] = M(0, 0) > 0 ? 1.0 : -1.0;
        map.sign[2] = M(1, 1) > 0 ? 1.0 : -1.0;
      } else if (swapped) {
        map.perm = {0, 2, 1};
        map.sign[1] = M(1, 0) > 0 ? 1.0 : -1.0;  // q1 → q2' = M(1,0) q1
        map.sign[2] = M(0, 1) > 0 ? 1.0 : -1.0;  // q2 → q1' = M(0,1) q2
      }
      if (straight || swapped) mapLimitsAndDrive(j, map);
      return;
    }
  }
  mapVector(j.q0, map, true);
  mapVector(j.v0, map, true);
  mapLimitsAndDrive(j, map);
}

// The root's placement is in the (unmirrored) parent frame, the others are relative to mirrored
// frames; both map the same way, S (·) S (see the header).
void mirrorBody(BodySpec& b, const Mat3& S) {
  mirrorJoint(b.joint, S);
  b.inertial.com = S * b.inertial.com;
  b.inertial.inertia = S * b.inertial.inertia * S;
  for (Shape& s : b.shapes) mirrorShape(s, S);
  const Vec3 moment = -(S * b.appliedWrench.head<3>());
  const Vec3 force = S * b.appliedWrench.tail<3>();
  b.appliedWrench << moment, force;
  scrubZeros(b);
}

EditError checkCount(int n, const char* what) {
  if (n < 1 || n > kMaxTemplateBodies)
    return std::string(what) + " must be between 1 and " + std::to_string(kMaxTemplateBodies) + ", got " +
           std::to_string(n);
  return std::nullopt;
}

EditError checkPositive(double x, const char* what) {
  if (!(std::isfinite(x) && x > 0.0)) return std::string(what) + " must be a positive number";
  return std::nullopt;
}

EditError checkParent(const Model& model, const std::string& parent) {
  if (!bodyExists(model, parent)) return "unknown parent '" + parent + "'; expected 'world' or the name of a body";
  return std::nullopt;
}

JointSpec templateJoint(JointType type, const Vec3& axis) {
  JointSpec j;
  j.type = type;
  j.axis = axis;
  // Universal: the second axis is y, or x when the first one is (nearly) y.
  if (type == JointType::Universal)
    j.axis2 = std::abs(axis.normalized().dot(Vec3::UnitY())) > 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  if (type == JointType::Gimbal) {  // the axis, then the two others of a right-handed set
    const Vec3 a = axis.normalized();
    j.axis2 = perpendicularTo(a);
    j.axis3 = a.cross(j.axis2);
  }
  return j;
}

// "<prefix>1" … "<prefix><n>" (the prefix carries any separator: "arm1_" gives arm1_1), each made
// unique against `taken` and the ones before.
std::vector<std::string> templateNames(std::set<std::string> taken, const std::string& prefix, int n) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    names.push_back(uniqueName(prefix + std::to_string(i + 1), taken));
    taken.insert(names.back());
  }
  return names;
}
std::vector<std::string> templateNames(const Model& model, const std::string& prefix, int n) {
  return templateNames(usedNames(model), prefix, n);
}

}  // namespace

// ---- names ----

std::set<std::string> usedNames(const Model& model) {
  std::set<std::string> out{"world"};
  for (const BodySpec& b : model.bodies) {
    out.insert(b.name);
    out.insert(effectiveJointName(b));
  }
  return out;
}

std::string uniqueName(const std::string& base, const std::set<std::string>& taken) {
  std::string clean;
  for (char c : base)
    clean +=
        ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') ? c : '_';
  if (clean.empty() || !isValidName(clean)) clean = "_" + clean;
  if (!taken.count(clean)) return clean;
  // Strip a trailing "_<digits>" so that "arm_2" continues as "arm_3", not "arm_2_2".
  std::string stem = clean;
  if (const std::size_t us = stem.find_last_of('_');
      us != std::string::npos && us > 0 && us + 1 < stem.size() &&
      std::all_of(stem.begin() + static_cast<long>(us) + 1, stem.end(), [](char c) { return c >= '0' && c <= '9'; }))
    stem.resize(us);
  for (int k = 2;; ++k) {
    std::string candidate = stem + "_" + std::to_string(k);
    if (!taken.count(candidate)) return candidate;
  }
}

EditError checkBodyName(const Model& model, int body, const std::string& name) {
  if (name.empty()) return std::string("a body name must not be empty");
  if (name == "world") return std::string("'world' is reserved for the fixed ground; choose another name");
  if (!isValidName(name)) return "'" + name + "' is not a valid name; " + kNameRule;
  const bool jointTakesName = body < 0 || model.bodies[body].joint.name.empty();
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    if (static_cast<int>(k) == body) continue;
    const BodySpec& b = model.bodies[k];
    if (b.name == name) return "another body is already named '" + name + "'";
    if (jointTakesName && effectiveJointName(b) == name)
      return "the joint of body '" + b.name + "' is already named '" + name +
             "' (this body's unnamed joint would take it)";
  }
  return std::nullopt;
}

EditError checkJointName(const Model& model, int body, const std::string& name) {
  const std::string& effective = name.empty() ? model.bodies[body].name : name;
  if (!name.empty() && !isValidName(name)) return "'" + name + "' is not a valid name; " + kNameRule;
  for (std::size_t k = 0; k < model.bodies.size(); ++k) {
    if (static_cast<int>(k) == body) continue;
    if (effectiveJointName(model.bodies[k]) == effective)
      return "the joint of body '" + model.bodies[k].name + "' is already named '" + effective + "'";
  }
  return std::nullopt;
}

// ---- structure queries ----

std::vector<int> childrenOf(const Model& model, const std::string& parent) {
  std::vector<int> out;
  for (std::size_t k = 0; k < model.bodies.size(); ++k)
    if (model.bodies[k].parent == parent) out.push_back(static_cast<int>(k));
  return out;
}

std::vector<int> subtreeOf(const Model& model, int root) {
  const std::size_t n = model.bodies.size();
  std::vector<bool> in(n, false);
  in[root] = true;
  // Repeat until nothing changes (handles children listed before their parents).
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t k = 0; k < n; ++k) {
      if (in[k]) continue;
      const int p = model.findBody(model.bodies[k].parent);
      if (p >= 0 && in[p] && static_cast<int>(k) != p) {
        in[k] = true;
        grew = true;
      }
    }
  }
  std::vector<int> out;
  for (std::size_t k = 0; k < n; ++k)
    if (in[k]) out.push_back(static_cast<int>(k));
  return out;
}

bool isInSubtree(const Model& model, int body, int ancestor) {
  for (std::size_t steps = 0; body >= 0 && steps <= model.bodies.size(); ++steps) {
    if (body == ancestor) return true;
    body = model.findBody(model.bodies[body].parent);
  }
  return false;
}

Pose neutralPose(const Model& model, int body) {
  std::vector<int> path;
  for (int k = body; k >= 0 && path.size() <= model.bodies.size(); k = model.findBody(model.bodies[k].parent))
    path.push_back(k);
  Pose pose;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const Placement& o = model.bodies[*it].joint.origin;
    pose.p += pose.R * o.xyz;
    pose.R = pose.R * o.rotation();
  }
  return pose;
}

// ---- single bodies ----

BodySpec defaultBody(const std::string& name, const std::string& parent, JointType type) {
  BodySpec b;
  b.name = name;
  b.parent = parent;
  b.joint = templateJoint(type, Vec3::UnitZ());
  if (parent != "world") b.joint.origin.xyz = Vec3(0.0, 0.0, 0.3);
  Shape box;
  box.type = ShapeType::Box;
  box.size = Vec3::Constant(0.2);
  b.shapes.push_back(box);
  fillInertialFromShape(b.inertial, box, 1.0);
  return b;
}

EditError addBody(Model& model, const std::string& parent, JointType type, const std::string& name, int* newIndex) {
  const std::string n = name.empty() ? uniqueName("body_1", usedNames(model)) : name;
  return addBody(model, defaultBody(n, parent, type), newIndex);
}

EditError addBody(Model& model, const BodySpec& body, int* newIndex) {
  if (auto e = checkParent(model, body.parent)) return e;
  if (auto e = checkBodyName(model, -1, body.name)) return e;
  if (!body.joint.name.empty()) {
    if (!isValidName(body.joint.name)) return "'" + body.joint.name + "' is not a valid joint name";
    for (const BodySpec& other : model.bodies)
      if (effectiveJointName(other) == body.joint.name)
        return "the joint of body '" + other.name + "' is already named '" + body.joint.name + "'";
  }
  model.bodies.push_back(body);
  if (newIndex) *newIndex = static_cast<int>(model.bodies.size()) - 1;
  return std::nullopt;
}

EditError deleteBody(Model& model, int body) {
  if (body < 0 || body >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  const BodySpec gone = model.bodies[body];
  for (int c : childrenOf(model, gone.name)) {
    BodySpec& child = model.bodies[c];
    child.parent = gone.parent;
    child.joint.origin = compose(gone.joint.origin, child.joint.origin);
  }
  model.bodies.erase(model.bodies.begin() + body);
  return std::nullopt;
}

EditError deleteSubtree(Model& model, int root) {
  if (root < 0 || root >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  const std::vector<int> sub = subtreeOf(model, root);
  for (auto it = sub.rbegin(); it != sub.rend(); ++it) model.bodies.erase(model.bodies.begin() + *it);
  return std::nullopt;
}

EditError reparent(Model& model, int body, const std::string& newParent, bool keepWorldPose) {
  if (body < 0 || body >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  BodySpec& b = model.bodies[body];
  if (newParent == b.name) return "a body cannot be its own parent";
  if (auto e = checkParent(model, newParent)) return e;
  const int p = model.findBody(newParent);
  if (p >= 0 && isInSubtree(model, p, body))
    return "'" + newParent + "' hangs below '" + b.name + "'; moving '" + b.name + "' under it would make a cycle";
  if (b.parent == newParent) return "'" + b.name + "' already hangs from '" + newParent + "'";
  if (keepWorldPose) {
    const Pose world = neutralPose(model, body);
    const Pose parentPose = p >= 0 ? neutralPose(model, p) : Pose{};
    b.joint.origin.xyz = parentPose.R.transpose() * (world.p - parentPose.p);
    setRotation(b.joint.origin, parentPose.R.transpose() * world.R);
  }
  b.parent = newParent;
  return std::nullopt;
}

EditError renameBody(Model& model, int body, const std::string& newName) {
  if (body < 0 || body >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  if (model.bodies[body].name == newName) return std::nullopt;
  if (auto e = checkBodyName(model, body, newName)) return e;
  const std::string old = model.bodies[body].name;
  for (BodySpec& b : model.bodies)
    if (b.parent == old) b.parent = newName;
  model.bodies[body].name = newName;
  return std::nullopt;
}

EditError renameJoint(Model& model, int body, const std::string& newName) {
  if (body < 0 || body >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  if (auto e = checkJointName(model, body, newName)) return e;
  model.bodies[body].joint.name = newName;
  return std::nullopt;
}

// ---- copies ----

EditError duplicateSubtree(Model& model, int root, const std::string& suffix, int* newRoot) {
  if (root < 0 || root >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  const int first = appendCopy(model, root, nullptr, suffix.empty() ? std::string("_copy") : suffix);
  if (newRoot) *newRoot = first;
  return std::nullopt;
}

EditError mirrorSubtree(Model& model, int root, const MirrorOptions& options, int* newRoot) {
  if (root < 0 || root >= static_cast<int>(model.bodies.size())) return std::string("no such body");
  int start = root;
  if (options.copy) start = appendCopy(model, root, &options, options.suffix);
  const Mat3 S = reflection(options.plane);
  if (options.mountOnly) {
    mirrorPlacement(model.bodies[start].joint.origin, S, S);
    scrubZeros(model.bodies[start]);
  } else {
    for (int k : subtreeOf(model, start)) mirrorBody(model.bodies[k], S);
  }
  if (newRoot) *newRoot = start;
  return std::nullopt;
}

// ---- templates ----

void appendSerialChain(Model& model, const std::string& parent, const BodySpec& link,
                       const std::vector<std::string>& names, const Placement& base, const Vec3& offset) {
  std::string up = parent;
  for (std::size_t i = 0; i < names.size(); ++i) {
    BodySpec b = link;
    b.name = names[i];
    b.parent = up;
    b.joint.origin = i == 0 ? base : Placement{};
    if (i > 0) b.joint.origin.xyz = offset;
    up = b.name;
    model.bodies.push_back(std::move(b));
  }
}

EditError insertArm(Model& model, const std::string& parent, const ArmTemplate& t, int* firstNew) {
  if (auto e = checkParent(model, parent)) return e;
  const int n = static_cast<int>(t.links.size());
  if (auto e = checkCount(n, "the number of links")) return e;
  std::vector<BodySpec> links;
  links.reserve(t.links.size());
  for (int k = 0; k < n; ++k) {
    const ArmLink& row = t.links[static_cast<std::size_t>(k)];
    const std::string where = "link " + std::to_string(k + 1) + ": ";
    if (auto e = checkPositive(row.length, "the link length")) return where + *e;
    if (auto e = checkPositive(row.width, "the link width")) return where + *e;
    if (auto e = checkPositive(row.mass, t.byDensity ? "the density" : "the link mass")) return where + *e;
    if (jointHasAxis(row.joint) && !(row.axis.allFinite() && row.axis.norm() > 0.0))
      return where + "the axis must not be zero";
    if (row.shape != ShapeType::Cylinder && row.shape != ShapeType::Box) return where + "a link is a cylinder or a box";
    BodySpec link;
    link.joint = templateJoint(row.joint, row.axis);
    link.joint.drive = row.drive;
    Shape s;
    s.type = row.shape;
    s.radius = 0.5 * row.width;
    s.length = row.length;
    s.size = Vec3(row.width, row.width, row.length);
    s.origin.xyz = Vec3(0.0, 0.0, 0.5 * row.length);
    link.shapes.push_back(s);
    fillInertialFromShape(link.inertial, s, t.byDensity ? row.mass * shapeVolume(s) : row.mass);
    links.push_back(std::move(link));
  }
  const int first = static_cast<int>(model.bodies.size());
  std::set<std::string> taken = usedNames(model);
  const std::vector<std::string> names = templateNames(taken, t.prefix, n);
  taken.insert(names.begin(), names.end());
  const std::vector<std::string> jointNames =
      t.jointPrefix.empty() ? std::vector<std::string>() : templateNames(taken, t.jointPrefix, n);
  for (int k = 0; k < n; ++k) {
    BodySpec& b = links[static_cast<std::size_t>(k)];
    b.name = names[static_cast<std::size_t>(k)];
    b.parent = k == 0 ? parent : names[static_cast<std::size_t>(k) - 1];
    b.joint.origin = k == 0 ? t.base : Placement{};
    if (k > 0) b.joint.origin.xyz = Vec3(0.0, 0.0, t.links[static_cast<std::size_t>(k) - 1].length);
    if (!jointNames.empty()) b.joint.name = jointNames[static_cast<std::size_t>(k)];
    model.bodies.push_back(std::move(b));
  }
  if (firstNew) *firstNew = first;
  return std::nullopt;
}

const std::vector<ArmPreset>& armPresets() {
  // axes of each joint frame; every link along +z of its own frame
  const auto arm = [](std::string name, const std::vector<std::pair<Vec3, double>>& joints) {
    ArmPreset p;
    p.name = std::move(name);
    for (const auto& [axis, length] : joints) {
      ArmLink l;
      l.axis = axis;
      l.length = length;
      p.links.push_back(l);
    }
    return p;
  };
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  // The first arm of examples/space_robot.yaml complete: link diameters and masses, and each
  // joint's PD-tracked target q* = offset + amplitude·sin(2π f t − π/2), which starts at rest.
  const auto spaceRobotArm = [&] {
    ArmPreset p = arm("6R yaw-pitch-pitch-roll-pitch-roll (space robot arm)",
                      {{z, 0.25}, {x, 1.2}, {x, 1.0}, {z, 0.2}, {x, 0.2}, {z, 0.25}});
    struct Row {
      double width, mass, kp, kd, amplitude, frequency, offset;
    };
    const Row rows[] = {{0.14, 8, 200, 40, 0.5, 0.1, 0.5},   {0.12, 20, 3000, 1000, 0.7, 0.1, 0.7},
                        {0.1, 15, 800, 250, 0.6, 0.15, 1.6}, {0.09, 5, 5, 1, 1, 0.2, 1},
                        {0.08, 4, 15, 4, 0.5, 0.2, 1},       {0.08, 3, 0.5, 0.1, 1.5, 0.25, 1.5}};
    for (std::size_t k = 0; k < p.links.size(); ++k) {
      const Row& r = rows[k];
      ArmLink& l = p.links[k];
      l.width = r.width;
      l.mass = r.mass;
      l.drive.type = DriveType::PdSinusoid;
      l.drive.kp = r.kp;
      l.drive.kd = r.kd;
      l.drive.amplitude = {r.amplitude};
      l.drive.frequency = {r.frequency};
      l.drive.phase = {-std::numbers::pi / 2};
      l.drive.offset = {r.offset};
    }
    return p;
  };
  static const std::vector<ArmPreset> presets = {
      spaceRobotArm(),
      arm("6R industrial (yaw-pitch-pitch-roll-pitch-roll)",
          {{z, 0.4}, {y, 0.6}, {y, 0.5}, {z, 0.2}, {y, 0.15}, {z, 0.1}}),
      arm("7R redundant (roll-pitch alternating)",
          {{z, 0.3}, {y, 0.3}, {z, 0.4}, {y, 0.3}, {z, 0.3}, {y, 0.15}, {z, 0.1}}),
      arm("3R planar (pitch-pitch-pitch)", {{y, 0.5}, {y, 0.4}, {y, 0.3}}),
      arm("2R double pendulum", {{y, 1.0}, {y, 1.0}}),
  };
  return presets;
}

EditError insertChain(Model& model, const std::string& parent, const ChainTemplate& t, int* firstNew) {
  if (auto e = checkParent(model, parent)) return e;
  if (auto e = checkCount(t.bodies, "the number of bodies")) return e;
  if (auto e = checkPositive(t.spacing, "the spacing")) return e;
  if (auto e = checkPositive(t.bodyMass, "the body mass")) return e;
  if (!(t.boxSize.allFinite() && t.boxSize.minCoeff() > 0.0)) return std::string("every box edge must be positive");
  if (jointHasAxis(t.joint) && !(t.axis.allFinite() && t.axis.norm() > 0.0))
    return std::string("the axis must not be zero");
  BodySpec link;
  link.joint = templateJoint(t.joint, t.axis);
  Shape s;
  s.type = ShapeType::Box;
  s.size = t.boxSize;
  s.origin.xyz = Vec3(0.0, 0.0, -0.5 * t.spacing);
  link.shapes.push_back(s);
  fillInertialFromShape(link.inertial, s, t.bodyMass);
  const int first = static_cast<int>(model.bodies.size());
  appendSerialChain(model, parent, link, templateNames(model, t.prefix, t.bodies), t.base, Vec3(0.0, 0.0, -t.spacing));
  if (firstNew) *firstNew = first;
  return std::nullopt;
}

EditError insertPrismBase(Model& model, const std::string& parent, const PrismBaseTemplate& t, int* firstNew) {
  if (auto e = checkParent(model, parent)) return e;
  if (t.sides < 3 || t.sides > 1024) return "a prism needs 3 to 1024 sides, got " + std::to_string(t.sides);
  if (auto e = checkPositive(t.radius, "the radius")) return e;
  if (auto e = checkPositive(t.height, "the height")) return e;
  if (auto e = checkPositive(t.mass, "the mass")) return e;
  BodySpec b;
  b.name = uniqueName(t.name.empty() ? std::string("base") : t.name, usedNames(model));
  b.parent = parent;
  b.joint = templateJoint(t.joint, Vec3::UnitZ());
  b.joint.origin = t.base;
  if (!t.jointName.empty()) {
    std::set<std::string> taken = usedNames(model);
    taken.insert(b.name);
    b.joint.name = uniqueName(t.jointName, taken);
  }
  Shape s;
  s.type = ShapeType::Prism;
  s.sides = t.sides;
  s.radius = t.radius;
  s.length = t.height;
  b.shapes.push_back(s);
  fillInertialFromShape(b.inertial, s, t.mass);
  model.bodies.push_back(std::move(b));
  if (firstNew) *firstNew = static_cast<int>(model.bodies.size()) - 1;
  return std::nullopt;
}

}  // namespace kt
