// SPDX-License-Identifier: BSD-3-Clause
// MJCF import (core/io/mjcf/mjcf.hpp, docs/mjcf.md). MuJoCo's compiler does the reading; this file
// maps its compiled model (mjModel) onto Kinetree's bodies.
//
// Frames. A MuJoCo body frame is placed on its parent's by body_pos and body_quat, and its joints
// turn it about their anchors (jnt_pos, body coordinates) in the order they are written, each
// axis in the frame the joints before it left (so two hinges compose as R(a₁, q₁) R(a₂, q₂), as a
// Kinetree universal joint does). A Kinetree joint turns its body about the body frame's origin,
// so the Kinetree body frame is the MuJoCo body frame moved to the joint's anchor (same axes);
// centres of mass, geoms and the children's placements are shifted by the anchor. A body with no
// joint and no mass (a frame that carries geoms or other bodies) is merged into its parent.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/io/mesh.hpp"
#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/geometry/physical_inertia.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"

namespace kt {
namespace {

// "1 geom", "3 geoms"
std::string count(int n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }
std::string are(int n) { return n == 1 ? " is" : " are"; }

// The point nearest to the lines through anchor(k) along axis(k), k in ids (least squares: Σ P_k x
// = Σ P_k p_k with P_k = 1 − a_k a_kᵀ), and in `gap` the largest distance from it to one of them.
template <class Axis, class Anchor>
Vec3 meetingPoint(const std::vector<int>& ids, const Axis& axis, const Anchor& anchor, double& gap) {
  Mat3 A = Mat3::Zero();
  Vec3 rhs = Vec3::Zero();
  for (int k : ids) {
    const Vec3 a = axis(k).normalized();
    const Mat3 P = Mat3::Identity() - a * a.transpose();
    A += P;
    rhs += P * anchor(k);
  }
  Vec3 x = A.fullPivLu().solve(rhs);
  gap = 0.0;
  for (int k : ids) {
    const Vec3 a = axis(k).normalized();
    const Vec3 d = x - anchor(k);
    gap = std::max(gap, (d - d.dot(a) * a).norm());
  }
  return x;
}

namespace fs = std::filesystem;

// MuJoCo reports warnings through a global hook (and otherwise writes MUJOCO_LOG.TXT into the
// working directory): while a file is compiled they are collected here, one compile at a time.
std::mutex& compilerMutex() {
  static std::mutex m;
  return m;
}
std::vector<std::string>* gCompilerWarnings = nullptr;
void collectWarning(const char* text) {
  if (gCompilerWarnings) gCompilerWarnings->push_back(text);
}

// A rigid placement: x_parent = R x + p.
struct MjcfPose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  MjcfPose operator*(const MjcfPose& b) const { return {R * b.R, R * b.p + p}; }
};

Mat3 rotationOf(const mjtNum* quat) {
  return Eigen::Quaterniond(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
}

MjcfPose poseOf(const mjtNum* pos, const mjtNum* quat) { return {rotationOf(quat), Vec3(pos[0], pos[1], pos[2])}; }

// The rounding left by turning and shifting MuJoCo's values (6e-18 m beside 0.33 m, a product of
// inertia of 1e-18 beside moments of 1e-2) as the zero it stands for: entries within 16 ε of the
// largest one, which no double sum of them can tell from zero, so that the file reads as written.
Vec3 withoutResidue(Vec3 v) {
  const double floor = 16.0 * std::numeric_limits<double>::epsilon() * v.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k)
    if (std::abs(v[k]) <= floor) v[k] = 0.0;
  return v;
}
Mat3 withoutResidue(Mat3 I) {
  const double floor = 16.0 * std::numeric_limits<double>::epsilon() * I.diagonal().cwiseAbs().maxCoeff();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (r != c && std::abs(I(r, c)) <= floor) I(r, c) = 0.0;
  return I;
}

Placement placementOf(const MjcfPose& pose) {
  Placement out;
  out.xyz = withoutResidue(pose.p);
  const Eigen::Quaterniond q(pose.R);
  // the identity is written as xyz alone; any other rotation as the quaternion MuJoCo gave
  if (pose.R.isApprox(Mat3::Identity(), 1e-15)) return out;
  out.useQuaternion = true;
  out.quat = Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
  if (out.quat[0] < 0) out.quat = -out.quat;
  return out;
}

// Names as Kinetree takes them (letters, digits, '_' and '-', not starting with a digit or '-'),
// unique among bodies and among joints.
class MjcfNames {
 public:
  std::string take(const std::string& wanted, const std::string& fallback, std::vector<std::string>& renamed) {
    std::string name = wanted.empty() ? fallback : wanted;
    for (char& c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) c = '_';
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-') name = "_" + name;
    std::string unique = name;
    for (int k = 2; used_.count(unique); ++k) unique = name + "_" + std::to_string(k);
    used_.insert(unique);
    if (!wanted.empty() && unique != wanted) renamed.push_back("'" + wanted + "' as '" + unique + "'");
    return unique;
  }

 private:
  std::set<std::string> used_;
};

std::string mjName(const mjModel* m, int type, int id) {
  const char* n = mj_id2name(m, type, id);
  return n ? std::string(n) : std::string();
}

// A single-precision value of MuJoCo's (colours) as the decimal it was written as: the shortest
// one that reads back as the same float, so that 0.8 is saved as 0.8, not 0.800000011920929.
double asWritten(float value) {
  std::array<char, 32> text{};
  const auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), value);
  double out = value;
  if (ec == std::errc()) std::from_chars(text.data(), end, out);
  return out;
}

std::string jointKindName(int type) {
  switch (type) {
    case mjJNT_FREE: return "free";
    case mjJNT_BALL: return "ball";
    case mjJNT_SLIDE: return "slide";
    case mjJNT_HINGE: return "hinge";
    default: return "unknown";
  }
}

class MjcfImporter {
 public:
  MjcfImporter(const mjModel* m, std::string file, const MjcfImportOptions& options)
      : m_(m), file_(std::move(file)), options_(options) {}

  // <mujoco model="..."> (MuJoCo keeps it first in names; "MuJoCo Model" when none is given) as a
  // Kinetree name, characters a name cannot have as '_'; else the file's name, else "mjcf_model"
  std::string modelName() const {
    std::string name = m_->nnames > 0 ? std::string(m_->names) : std::string();
    if (name == "MuJoCo Model") name.clear();
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
    if (!name.empty() && !isValidName(name)) name.insert(0, 1, '_');
    if (isValidName(name)) return name;
    name = fs::path(file_).stem().string();
    return isValidName(name) ? name : "mjcf_model";
  }

  MjcfImport run(const std::vector<std::string>& compilerWarnings) {
    MjcfImport out;
    out.model.name = modelName();
    out.model.gravity = Vec3(m_->opt.gravity[0], m_->opt.gravity[1], m_->opt.gravity[2]);
    out.model.description = "Imported from " + fs::path(file_).filename().string() + " (MJCF).";
    out.model.sourceDirectory = options_.meshBaseDirectory;
    for (const std::string& w : compilerWarnings) warn("MuJoCo's compiler: " + w);
    host_.assign(static_cast<std::size_t>(m_->nbody), -1);
    hostPose_.assign(static_cast<std::size_t>(m_->nbody), MjcfPose{});
    jointBody_.assign(static_cast<std::size_t>(m_->njnt), -1);
    // every body refused is named, not just the first (a model is often mirrored: both ankles)
    std::vector<Diagnostic> refused;
    for (int b = 1; b < m_->nbody; ++b) {
      try {
        addBody(b, out);
      } catch (const ModelLoadError& e) {
        refused.insert(refused.end(), e.diagnostics().begin(), e.diagnostics().end());
        // its children are still read, as if it were welded to its parent, for their own refusals
        const auto parent = static_cast<std::size_t>(m_->body_parentid[b]);
        host_[static_cast<std::size_t>(b)] = host_[parent];
        hostPose_[static_cast<std::size_t>(b)] =
            hostPose_[parent] * poseOf(m_->body_pos + 3 * b, m_->body_quat + 4 * b);
      }
    }
    if (!refused.empty()) throw ModelLoadError(refused);
    addGeoms(out.model);
    addActuators(out.model);
    warnDropped();
    if (!renamed_.empty())
      warn("names Kinetree does not take (letters, digits, '_' and '-') were changed: " + joinNames(renamed_));
    out.warnings = std::move(warnings_);
    out.coordinates = std::move(coordinates_);
    return out;
  }

 private:
  void warn(const std::string& message) {
    Diagnostic d;
    d.file = file_;
    d.message = replaceInvalidUtf8(message);
    d.warning = true;
    warnings_.push_back(std::move(d));
  }
  [[noreturn]] void fail(const std::string& message) const {
    Diagnostic d;
    d.file = file_;
    d.message = replaceInvalidUtf8(message);
    throw ModelLoadError({d});
  }

  std::string bodyLabel(int b) const {
    const std::string n = mjName(m_, mjOBJ_BODY, b);
    return n.empty() ? "body " + std::to_string(b) + " (unnamed)" : "body '" + n + "'";
  }

  // The Kinetree joint for MuJoCo body b's joints, and the anchor its frame moves to.
  JointSpec jointOf(int b, Vec3& anchor, MjcfCoordinates& coords) {
    JointSpec j;
    const int n = m_->body_jntnum[b], first = m_->body_jntadr[b];
    anchor.setZero();
    if (n == 0) {
      j.type = JointType::Fixed;
      return j;
    }
    std::vector<int> types(m_->jnt_type + first, m_->jnt_type + first + n);
    const auto axisOf = [&](int jn) {
      return Vec3(m_->jnt_axis[3 * jn], m_->jnt_axis[3 * jn + 1], m_->jnt_axis[3 * jn + 2]);
    };
    const auto anchorOf = [&](int jn) {
      return Vec3(m_->jnt_pos[3 * jn], m_->jnt_pos[3 * jn + 1], m_->jnt_pos[3 * jn + 2]);
    };
    const auto scalar = [&](int jn) {
      coords.qpos.push_back(m_->jnt_qposadr[jn]);
      coords.dof.push_back(m_->jnt_dofadr[jn]);
      coords.ref.push_back(m_->qpos0[m_->jnt_qposadr[jn]]);
    };
    std::vector<std::string> names(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) names[static_cast<std::size_t>(k)] = mjName(m_, mjOBJ_JOINT, first + k);
    std::string kinds;
    for (int t : types) kinds += (kinds.empty() ? "" : ", ") + jointKindName(t);
    if (n == 1) {
      const int jn = first;
      switch (types[0]) {
        case mjJNT_HINGE:
          j.type = JointType::Revolute;
          j.axis = axisOf(jn);
          anchor = anchorOf(jn);
          scalar(jn);
          break;
        case mjJNT_SLIDE:
          j.type = JointType::Prismatic;
          j.axis = axisOf(jn);
          scalar(jn);
          break;
        case mjJNT_BALL:
          j.type = JointType::Spherical;
          anchor = anchorOf(jn);
          for (int k = 0; k < 4; ++k) coords.qpos.push_back(m_->jnt_qposadr[jn] + k);
          for (int k = 0; k < 3; ++k) coords.dof.push_back(m_->jnt_dofadr[jn] + k);
          coords.ref.assign(4, 0.0);
          break;
        case mjJNT_FREE:
          j.type = JointType::Free;
          // Kinetree's q is (quaternion, position), MuJoCo's (position, quaternion); ν is
          // [ω; v] in body axes in Kinetree, [v in world axes; ω in body axes] in MuJoCo
          for (int k = 0; k < 4; ++k) coords.qpos.push_back(m_->jnt_qposadr[jn] + 3 + k);
          for (int k = 0; k < 3; ++k) coords.qpos.push_back(m_->jnt_qposadr[jn] + k);
          for (int k = 0; k < 3; ++k) coords.dof.push_back(m_->jnt_dofadr[jn] + 3 + k);
          for (int k = 0; k < 3; ++k) coords.dof.push_back(m_->jnt_dofadr[jn] + k);
          coords.ref.assign(7, 0.0);
          break;
        default: fail(bodyLabel(b) + " has a joint of a kind MuJoCo 2.2 does not define");
      }
      j.name = names[0];
      for (int k = first; k < first + n; ++k) jointBody_[static_cast<std::size_t>(k)] = b;
      return j;
    }
    // hinges turn about lines: where the lines of a body's hinges meet in one point, they are
    // joints through that point whatever anchors the file gives along them
    const bool hinges = std::all_of(types.begin(), types.end(), [](int t) { return t == mjJNT_HINGE; });
    std::vector<int> ids(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) ids[static_cast<std::size_t>(k)] = first + k;
    double gap = 0.0;
    const Vec3 meet = hinges ? meetingPoint(ids, axisOf, anchorOf, gap) : Vec3::Zero();
    const bool neighboursTurn = [&] {
      for (int k = first; k + 1 < first + n; ++k)
        if (axisOf(k).cross(axisOf(k + 1)).norm() <= 1e-9) return false;
      return true;
    }();
    const double lengthScale = [&] {
      double s = 1.0;
      for (int k = first; k < first + n; ++k) s = std::max(s, anchorOf(k).norm());
      return s;
    }();
    const bool concurrent = hinges && neighboursTurn && gap <= 1e-10 * lengthScale;
    // two or three hinges whose axes do not meet (a humanoid's ankle): a universal or gimbal joint
    // with offset axes, each hinge through its own anchor (JointModel::offset)
    const bool offsetHinges = hinges && neighboursTurn && !concurrent && (n == 2 || n == 3);
    // three hinges whose axes lie in one plane where the file puts the body (q = ref) are a gimbal
    // locked from the start: its angles would not describe every turn, and Kinetree refuses it
    if ((concurrent || offsetHinges) && n == 3 &&
        std::abs(axisOf(first).normalized().dot(axisOf(first + 1).normalized().cross(axisOf(first + 2).normalized()))) <
            1e-9)
      fail(bodyLabel(b) + " has 3 joints (" + kinds + ")" + (concurrent ? " through one point" : "") +
           " whose axes lie in one plane where the body starts (gimbal lock): a Kinetree gimbal joint needs them to "
           "span the rotations there");
    if (concurrent && (n == 2 || n == 3)) {
      // two hinges through one point: a universal joint; three: a gimbal, turning in the order written
      j.type = n == 2 ? JointType::Universal : JointType::Gimbal;
      j.axis = axisOf(first);
      j.axis2 = axisOf(first + 1);
      if (n == 3) j.axis3 = axisOf(first + 2);
      anchor = meet;
      for (int k = first; k < first + n; ++k) scalar(k);
    } else if (offsetHinges) {
      // the body frame at the first hinge's anchor; the others pass through theirs, in its axes
      j.type = n == 2 ? JointType::Universal : JointType::Gimbal;
      j.axis = axisOf(first);
      j.axis2 = axisOf(first + 1);
      anchor = anchorOf(first);
      j.point2 = anchorOf(first + 1) - anchor;
      if (n == 3) {
        j.axis3 = axisOf(first + 2);
        j.point3 = anchorOf(first + 2) - anchor;
      }
      for (int k = first; k < first + n; ++k) scalar(k);
    } else if (n == 2 &&
               ((types[0] == mjJNT_HINGE && types[1] == mjJNT_SLIDE) ||
                (types[0] == mjJNT_SLIDE && types[1] == mjJNT_HINGE)) &&
               axisOf(first).cross(axisOf(first + 1)).norm() <= 1e-12 && axisOf(first).dot(axisOf(first + 1)) > 0) {
      // a rotation and a translation along one axis commute: the order in the file does not
      // matter, Kinetree's coordinates are (angle, distance)
      const int hinge = types[0] == mjJNT_HINGE ? first : first + 1, slide = hinge == first ? first + 1 : first;
      j.type = JointType::Cylindrical;
      j.axis = axisOf(hinge);
      anchor = anchorOf(hinge);
      scalar(hinge);
      scalar(slide);
    } else {
      const std::string why =
          "Kinetree joins two or three hinges, neighbours not parallel, whether their axes meet or not "
          "(universal and gimbal joints), and a hinge with a slide along the same axis (a cylindrical "
          "joint), and has no joint for this combination";
      fail(bodyLabel(b) + " has " + std::to_string(n) + " joints (" + kinds + "): " + why);
    }
    j.name.clear();
    bool named = true;
    for (const std::string& name : names) {
      named = named && !name.empty();
      j.name += (j.name.empty() ? "" : "_") + name;
    }
    if (!named) j.name.clear();
    for (int k = first; k < first + n; ++k) jointBody_[static_cast<std::size_t>(k)] = b;
    return j;
  }

  // Body b's inertia about its centre of mass in its own axes (the inertia ellipsoid turned by
  // body_iquat), symmetric.
  Mat3 inertiaOf(int b) const {
    const Mat3 Ri = rotationOf(m_->body_iquat + 4 * b);
    const Vec3 d(m_->body_inertia[3 * b], m_->body_inertia[3 * b + 1], m_->body_inertia[3 * b + 2]);
    const Mat3 I = Ri * d.asDiagonal() * Ri.transpose();
    return withoutResidue(Mat3(0.5 * (I + I.transpose())));
  }

  static std::string moments(const Vec3& p) {
    return "[" + formatSignificant(p[0], 6) + ", " + formatSignificant(p[1], 6) + ", " + formatSignificant(p[2], 6) +
           "] kg·m²";
  }
  std::string notPhysical(int b, double mass, const Vec3& principal, bool moves = false) const {
    return bodyLabel(b) + " (mass " + formatSignificant(mass, 6) + (moves ? " kg" : " kg, no joint") +
           ") has an inertia that is not physical (principal moments " + moments(principal) + ")";
  }

  // A welded body (no joints) whose inertia is not physical, which MuJoCo accepts where nothing
  // turns it alone (a point-mass finger tip, a sensor's mass), on a body that moves: its mass
  // properties go into the body it is welded to, exact for the motion, as URDF import lumps such a
  // link (docs/mjcf.md, "Repairs"); its geoms and children follow. Refused with `strict`.
  void lumpIntoParent(int b, const MjcfPose& local, MjcfImport& out) {
    const int parent = m_->body_parentid[b];
    const int host = host_[static_cast<std::size_t>(parent)];
    const MjcfPose pose = hostPose_[static_cast<std::size_t>(parent)] * local;
    const double mass = m_->body_mass[b];
    const Mat3 I = inertiaOf(b);
    const std::string what = notPhysical(b, mass, nearestPhysicalInertia(I, mass).before);
    const std::string carrierName = out.model.bodies[static_cast<std::size_t>(host)].name;
    if (options_.strict) fail(what + "; without --strict it is merged into '" + carrierName + "', welded to it");
    Inertial& carrier = out.model.bodies[static_cast<std::size_t>(host)].inertial;
    const Vec3 ipos(m_->body_ipos[3 * b], m_->body_ipos[3 * b + 1], m_->body_ipos[3 * b + 2]);
    const MassProperties lumped = combineMassProperties(
        {carrier.mass, carrier.com, carrier.inertia}, {mass, pose.R * ipos + pose.p, pose.R * I * pose.R.transpose()});
    carrier.mass = lumped.mass;
    carrier.com = withoutResidue(lumped.com);
    carrier.inertia = withoutResidue(lumped.inertia);
    warn(what + ": merged into '" + carrierName +
         "' (lumped: exact for the motion; the loads between the two are not reported) (kinetree-cli import "
         "--strict refuses it)");
    host_[static_cast<std::size_t>(b)] = host;
    hostPose_[static_cast<std::size_t>(b)] = pose;
  }

  void addBody(int b, MjcfImport& out) {
    Model& model = out.model;
    const int parent = m_->body_parentid[b];
    const MjcfPose local = poseOf(m_->body_pos + 3 * b, m_->body_quat + 4 * b);
    const bool hasJoints = m_->body_jntnum[b] > 0;
    const double mass = m_->body_mass[b];
    // a frame without joints and mass carries only geoms and bodies: merged into its parent
    if (!hasJoints && mass <= 0.0) {
      host_[static_cast<std::size_t>(b)] = host_[static_cast<std::size_t>(parent)];
      hostPose_[static_cast<std::size_t>(b)] = hostPose_[static_cast<std::size_t>(parent)] * local;
      return;
    }
    // a welded body whose inertia is not physical: lumped into the body it is welded to; welded
    // to the world (nothing moves it), or a moving one, its inertia is repaired below
    const bool physical = isPhysicalInertia(inertiaOf(b));
    if (!hasJoints && !physical && host_[static_cast<std::size_t>(parent)] >= 0) {
      lumpIntoParent(b, local, out);
      return;
    }
    MjcfCoordinates coords;
    Vec3 anchor;
    BodySpec body;
    body.joint = jointOf(b, anchor, coords);
    body.name = bodyNames_.take(mjName(m_, mjOBJ_BODY, b), "body" + std::to_string(b), renamed_);
    const int hostParent = host_[static_cast<std::size_t>(parent)];
    body.parent = hostParent < 0 ? "world" : model.bodies[static_cast<std::size_t>(hostParent)].name;
    const MjcfPose shift{Mat3::Identity(), anchor};
    if (body.joint.type == JointType::Free) {
      // MuJoCo's free joint places the body in the world by its coordinates alone (body_pos and
      // body_quat are where qpos0 starts): the joint frame is the parent's
      if (hostParent >= 0 || parent != 0) fail(bodyLabel(b) + " has a free joint but is not a child of the world");
      const mjtNum* q = m_->qpos0 + m_->jnt_qposadr[m_->body_jntadr[b]];
      body.joint.q0 = {q[3], q[4], q[5], q[6], q[0], q[1], q[2]};
    } else {
      body.joint.origin = placementOf(hostPose_[static_cast<std::size_t>(parent)] * local * shift);
    }
    body.joint.name = jointNames_.take(body.joint.name, "j_" + body.name, renamed_);
    // MuJoCo's body_pos/quat are the pose at qpos0 = ref: Kinetree's q counts from there
    if (body.joint.type == JointType::Spherical) {
      const mjtNum* q = m_->qpos0 + coords.qpos[0];
      body.joint.q0 = {q[0], q[1], q[2], q[3]};
    }
    // limits (hinge and slide, where every coordinate of the joint has one): MuJoCo's range,
    // from the reference position
    if (body.joint.type == JointType::Revolute || body.joint.type == JointType::Prismatic ||
        body.joint.type == JointType::Universal || body.joint.type == JointType::Cylindrical ||
        body.joint.type == JointType::Gimbal) {
      std::vector<Limit> limits;
      bool someLimited = false;
      for (std::size_t k = 0; k < coords.qpos.size(); ++k) {
        int jn = -1;
        for (int t = 0; t < m_->njnt; ++t)
          if (m_->jnt_qposadr[t] == coords.qpos[k]) jn = t;
        if (jn < 0 || !m_->jnt_limited[jn]) continue;
        someLimited = true;
        if (limits.size() == k)
          limits.push_back({m_->jnt_range[2 * jn] - coords.ref[k], m_->jnt_range[2 * jn + 1] - coords.ref[k]});
      }
      if (limits.size() == coords.qpos.size()) {
        body.joint.limits = limits;
        rangesKept_ += static_cast<int>(limits.size());
      } else if (someLimited) {
        partialRanges_.push_back(body.name);
      }
    } else if (m_->body_jntnum[b] > 0 && m_->jnt_limited[m_->body_jntadr[b]]) {
      limitedBall_.push_back(body.name);
    }
    // inertia about the centre of mass, body axes (the inertia ellipsoid turned by body_iquat)
    body.inertial.mass = mass;
    body.inertial.com =
        withoutResidue(Vec3(Vec3(m_->body_ipos[3 * b], m_->body_ipos[3 * b + 1], m_->body_ipos[3 * b + 2]) - anchor));
    body.inertial.inertia = inertiaOf(b);
    if (!physical) {  // welded to the world (above), or a moving body MuJoCo's checks let through
      const InertiaRepair r = nearestPhysicalInertia(body.inertial.inertia, mass);
      const std::string what = notPhysical(b, mass, r.before, hasJoints);
      if (options_.strict) fail(what + "; without --strict it is replaced by the nearest physical one");
      body.inertial.inertia = r.inertia;
      warn(what + ": replaced by the nearest physical one, principal moments " + moments(r.after) + ", a change of " +
           formatSignificant(100.0 * r.relativeChange, 3) + " %" +
           (hasJoints ? "; the dynamics of this body are an approximation"
                      : " (welded to the world, it does not move: the motion is exact)") +
           " (kinetree-cli import --strict refuses it)");
    }
    host_[static_cast<std::size_t>(b)] = static_cast<int>(model.bodies.size());
    hostPose_[static_cast<std::size_t>(b)] = MjcfPose{Mat3::Identity(), -anchor};
    if (!coords.qpos.empty()) {
      coords.body = static_cast<int>(model.bodies.size());
      coordinates_.push_back(coords);
    }
    model.bodies.push_back(std::move(body));
  }

  void addGeoms(Model& model) {
    std::set<std::string> dropped;
    std::map<int, std::string> meshFiles;
    for (int g = 0; g < m_->ngeom; ++g) {
      const int b = m_->geom_bodyid[g];
      const int host = host_[static_cast<std::size_t>(b)];
      if (host < 0) {
        ++worldGeoms_;
        continue;
      }
      // groups 3 to 5 are hidden in MuJoCo's viewer unless asked for: models keep their collision
      // geometry there, beside the visual meshes of groups 0 to 2
      if (m_->geom_group[g] >= 3) {
        ++hiddenGeoms_;
        continue;
      }
      const MjcfPose pose =
          hostPose_[static_cast<std::size_t>(b)] * poseOf(m_->geom_pos + 3 * g, m_->geom_quat + 4 * g);
      const mjtNum* size = m_->geom_size + 3 * g;
      Shape s;
      s.origin = placementOf(pose);
      const int mat = m_->geom_matid[g];
      const float* rgba = mat >= 0 ? m_->mat_rgba + 4 * mat : m_->geom_rgba + 4 * g;
      s.color = Eigen::Vector4d(asWritten(rgba[0]), asWritten(rgba[1]), asWritten(rgba[2]), asWritten(rgba[3]));
      switch (m_->geom_type[g]) {
        case mjGEOM_SPHERE:
          s.type = ShapeType::Sphere;
          s.radius = size[0];
          break;
        case mjGEOM_CAPSULE:
          s.type = ShapeType::Capsule;
          s.radius = size[0];
          s.length = 2 * size[1];
          break;
        case mjGEOM_CYLINDER:
          s.type = ShapeType::Cylinder;
          s.radius = size[0];
          s.length = 2 * size[1];
          break;
        case mjGEOM_BOX:
          s.type = ShapeType::Box;
          s.size = 2 * Vec3(size[0], size[1], size[2]);
          break;
        case mjGEOM_ELLIPSOID: {
          // drawn as a unit sphere mesh scaled by the semi-axes
          const std::string path = ellipsoidMesh();
          if (path.empty()) {
            dropped.insert("ellipsoid geoms (no mesh directory to write their surface into)");
            continue;
          }
          s.type = ShapeType::Mesh;
          s.mesh = path;
          s.meshScale = Vec3(size[0], size[1], size[2]);
          break;
        }
        case mjGEOM_MESH: {
          const int mesh = m_->geom_dataid[g];
          if (!meshFiles.count(mesh)) meshFiles[mesh] = writeMesh(mesh);
          if (meshFiles[mesh].empty()) {
            dropped.insert("mesh geoms (no mesh directory to write them into)");
            continue;
          }
          s.type = ShapeType::Mesh;
          s.mesh = meshFiles[mesh];
          break;
        }
        default: dropped.insert("plane and height-field geoms"); continue;
      }
      model.bodies[static_cast<std::size_t>(host)].shapes.push_back(s);
    }
    for (const std::string& what : dropped) warn("not drawn: " + what);
  }

  // A path for the model file: relative to meshBaseDirectory when one is given.
  std::string modelPath(const fs::path& file) const {
    if (options_.meshBaseDirectory.empty()) return file.string();
    return fs::relative(file, options_.meshBaseDirectory).generic_string();
  }

  std::string writeMesh(int mesh) {
    if (options_.meshDirectory.empty()) return {};
    fs::create_directories(options_.meshDirectory);
    std::string name = mjName(m_, mjOBJ_MESH, mesh);
    MjcfNames n;
    std::vector<std::string> ignored;
    name = n.take(name, "mesh" + std::to_string(mesh), ignored);
    const fs::path file = fs::path(options_.meshDirectory) / (name + ".obj");
    std::ofstream os(file);
    os.precision(9);
    os << "# mesh '" << name << "' as MuJoCo compiled it (centred and aligned on its inertia)\n";
    const int v0 = m_->mesh_vertadr[mesh], nv = m_->mesh_vertnum[mesh];
    for (int v = 0; v < nv; ++v) {
      const float* x = m_->mesh_vert + 3 * (v0 + v);
      os << "v " << x[0] << ' ' << x[1] << ' ' << x[2] << '\n';
    }
    const int f0 = m_->mesh_faceadr[mesh], nf = m_->mesh_facenum[mesh];
    for (int f = 0; f < nf; ++f) {
      const int* t = m_->mesh_face + 3 * (f0 + f);
      os << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
    }
    if (!os) fail("cannot write the mesh file " + file.string());
    return modelPath(file);
  }

  std::string ellipsoidMesh() {
    if (!ellipsoid_.empty() || options_.meshDirectory.empty()) return ellipsoid_;
    fs::create_directories(options_.meshDirectory);
    const fs::path file = fs::path(options_.meshDirectory) / "unit_sphere.obj";
    std::ofstream os(file);
    os.precision(9);
    os << "# unit sphere (MJCF ellipsoid geoms scale it by their semi-axes)\n";
    const int rings = 16, segments = 32;
    const double pi = 3.14159265358979323846;
    os << "v 0 0 1\n";
    for (int r = 1; r < rings; ++r)
      for (int s = 0; s < segments; ++s) {
        const double th = pi * r / rings, ph = 2 * pi * s / segments;
        os << "v " << std::sin(th) * std::cos(ph) << ' ' << std::sin(th) * std::sin(ph) << ' ' << std::cos(th) << '\n';
      }
    os << "v 0 0 -1\n";
    const auto ring = [&](int r, int s) { return 2 + (r - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) os << "f 1 " << ring(1, s) << ' ' << ring(1, s + 1) << '\n';
    for (int r = 1; r + 1 < rings; ++r)
      for (int s = 0; s < segments; ++s) {
        os << "f " << ring(r, s) << ' ' << ring(r + 1, s) << ' ' << ring(r + 1, s + 1) << '\n';
        os << "f " << ring(r, s) << ' ' << ring(r + 1, s + 1) << ' ' << ring(r, s + 1) << '\n';
      }
    const int last = 2 + (rings - 1) * segments;
    for (int s = 0; s < segments; ++s)
      os << "f " << ring(rings - 1, s) << ' ' << last << ' ' << ring(rings - 1, s + 1) << '\n';
    if (!os) fail("cannot write the mesh file " + file.string());
    ellipsoid_ = modelPath(file);
    return ellipsoid_;
  }

  // The actuators that map to Kinetree drives (docs/mjcf.md): on a joint's coordinates, motors only
  // (a constant drive, zero until set) or position servos on every coordinate with one kp and kv
  // (a PD drive); one drive a joint.
  void addActuators(Model& model) {
    std::vector<std::string> dropped, motorsTaken, ranges;
    struct Actuated {
      int coordinate = 0;  // in the Kinetree joint's coordinates
      int actuator = 0;
      std::string label;
    };
    std::map<int, std::vector<Actuated>> byHost;
    for (int u = 0; u < m_->nu; ++u) {
      // unnamed: counted from 1 in the order of the file's <actuator> element; with its joint
      const int jn = m_->actuator_trnid[2 * u];
      const bool onJoint = m_->actuator_trntype[u] == mjTRN_JOINT && jn >= 0;
      std::string label = mjName(m_, mjOBJ_ACTUATOR, u).empty()
                              ? "actuator " + std::to_string(u + 1) + " of " + std::to_string(m_->nu)
                              : "'" + mjName(m_, mjOBJ_ACTUATOR, u) + "'";
      if (onJoint && !mjName(m_, mjOBJ_JOINT, jn).empty()) label += " on joint '" + mjName(m_, mjOBJ_JOINT, jn) + "'";
      const int b = onJoint ? jointBody_[static_cast<std::size_t>(jn)] : -1;
      const int host = b >= 0 ? host_[static_cast<std::size_t>(b)] : -1;
      if (!onJoint || host < 0) {
        dropped.push_back(label + " (it acts on a tendon, site or body, not on a joint Kinetree keeps)");
        continue;
      }
      if (m_->actuator_dyntype[u] != mjDYN_NONE || m_->actuator_gaintype[u] != mjGAIN_FIXED) {
        dropped.push_back(label + " (activation dynamics or a gain that is not fixed)");
        continue;
      }
      const JointType type = model.bodies[static_cast<std::size_t>(host)].joint.type;
      if (type == JointType::Spherical || type == JointType::Free) {
        dropped.push_back(label + " (on a ball or free joint)");
        continue;
      }
      // the joint's coordinates follow the file's order but for a cylindrical joint's (angle, distance)
      int k = jn - m_->body_jntadr[b];
      if (type == JointType::Cylindrical) k = m_->jnt_type[jn] == mjJNT_HINGE ? 0 : 1;
      std::vector<Actuated>& list = byHost[host];
      if (std::any_of(list.begin(), list.end(), [&](const Actuated& a) { return a.coordinate == k; })) {
        dropped.push_back(label +
                          " (a second actuator on its joint's coordinate; Kinetree drives a joint by one drive)");
        continue;
      }
      list.push_back({k, u, label});
    }
    for (const auto& [host, list] : byHost) {
      BodySpec& body = model.bodies[static_cast<std::size_t>(host)];
      const int nv = jointNv(body.joint.type);
      std::vector<int> seen(static_cast<std::size_t>(nv), 0);
      bool motors = true, servos = true, sameGains = true;
      double kp = 0.0, kd = 0.0;
      std::vector<double> offset(static_cast<std::size_t>(nv), 0.0);
      for (const Actuated& a : list) {
        const int u = a.actuator;
        ++seen[static_cast<std::size_t>(a.coordinate)];
        const double gear = m_->actuator_gear[6 * u];
        const mjtNum* gain = m_->actuator_gainprm + mjNGAIN * u;
        const mjtNum* bias = m_->actuator_biasprm + mjNBIAS * u;
        const bool motor = m_->actuator_biastype[u] == mjBIAS_NONE;
        // position servo: force kp (ctrl − gear q) − kv gear q̇ on the actuator, gear times it on the
        // joint: τ = gear² kp (ctrl/gear − q) − gear² kv q̇, holding q = 0 (ctrl = 0) from MuJoCo's zero
        const bool servo = m_->actuator_biastype[u] == mjBIAS_AFFINE && bias[0] == 0.0 && bias[1] == -gain[0];
        motors = motors && motor;
        servos = servos && servo;
        if (servo) {
          const double p = gear * gear * gain[0], d = 0.0 - gear * gear * bias[2];  // +0 for no kv
          sameGains = sameGains && (&a == &list.front() || (p == kp && d == kd));
          kp = p;
          kd = d;
          const int jn = m_->actuator_trnid[2 * u];
          offset[static_cast<std::size_t>(a.coordinate)] = 0.0 - m_->qpos0[m_->jnt_qposadr[jn]];
        }
      }
      const bool everyCoordinate = std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; });
      std::string why;
      if (motors) {  // motor: τ = gear · gain · ctrl, ctrl = 0 until the user sets it
        body.joint.drive.type = DriveType::Constant;
        body.joint.drive.value.assign(static_cast<std::size_t>(nv), 0.0);
        for (const Actuated& a : list) {
          const int u = a.actuator;
          const double factor = m_->actuator_gear[6 * u] * m_->actuator_gainprm[mjNGAIN * u];
          if (factor != 1.0) motorsTaken.push_back(a.label + " (τ = " + formatSignificant(factor, 6) + " ctrl)");
        }
      } else if (servos && everyCoordinate && sameGains) {
        Drive& d = body.joint.drive;
        d.type = DriveType::PdSinusoid;
        d.kp = kp;
        d.kd = kd;
        d.amplitude.assign(static_cast<std::size_t>(nv), 0.0);
        d.frequency.assign(static_cast<std::size_t>(nv), 0.0);
        d.phase.assign(static_cast<std::size_t>(nv), 0.0);
        d.offset = offset;
        for (const Actuated& a : list) {
          const int u = a.actuator;
          if (m_->actuator_ctrllimited[u] || m_->actuator_forcelimited[u]) ranges.push_back(a.label);
        }
      } else if (nv == 1) {
        const int u = list.front().actuator;
        const mjtNum* gain = m_->actuator_gainprm + mjNGAIN * u;
        const mjtNum* bias = m_->actuator_biasprm + mjNBIAS * u;
        const bool velocity =
            m_->actuator_biastype[u] == mjBIAS_AFFINE && bias[0] == 0.0 && bias[1] == 0.0 && bias[2] == -gain[0];
        why = velocity ? "a velocity servo: Kinetree drives take motors and position servos"
                       : "neither a motor nor a position servo";
      } else {
        why =
            "a Kinetree drive takes the coordinates of one joint together: motors, or position servos on "
            "all of them with one kp and kv";
      }
      if (!why.empty()) {
        std::vector<std::string> labels;
        for (const Actuated& a : list) labels.push_back(a.label);
        dropped.push_back(joinNames(labels) + " (" + why + ")");
      }
    }
    if (!dropped.empty()) warn("actuators not carried over: " + joinNames(dropped));
    // a motor's control is not the joint's torque: say how one becomes the other
    if (!motorsTaken.empty())
      warn(
          "motors come in as constant drives whose value is the joint's torque or force, not MuJoCo's control "
          "(gear and gain times it): " +
          joinNames(motorsTaken));
    for (const auto& [host, list] : byHost)
      if (model.bodies[static_cast<std::size_t>(host)].joint.drive.type == DriveType::Constant)
        for (const Actuated& a : list)
          if (m_->actuator_ctrllimited[a.actuator] || m_->actuator_forcelimited[a.actuator]) ranges.push_back(a.label);
    if (!ranges.empty())
      warn("control and force ranges of actuators are not applied (a Kinetree drive's torque is not clipped): " +
           joinNames(ranges));
  }

  void warnDropped() {
    int contacts = 0;
    for (int g = 0; g < m_->ngeom; ++g)
      if (m_->geom_contype[g] != 0 || m_->geom_conaffinity[g] != 0) ++contacts;
    if (contacts > 0 && !(m_->opt.disableflags & mjDSBL_CONTACT))
      warn(count(contacts, "geom") + (contacts == 1 ? " takes" : " take") +
           " part in contacts: Kinetree does not simulate contacts");
    if (hiddenGeoms_ > 0)
      warn(count(hiddenGeoms_, "geom") + " of groups 3 to 5 (which MuJoCo's viewer hides: collision geometry)" +
           are(hiddenGeoms_) + " not drawn");
    if (worldGeoms_ > 0)
      warn(count(worldGeoms_, "geom") + " of the world body (floor, scenery)" + are(worldGeoms_) + " not drawn");
    if (m_->ntendon > 0) warn(count(m_->ntendon, "tendon") + are(m_->ntendon) + " left out");
    if (m_->neq > 0) warn(count(m_->neq, "equality constraint") + are(m_->neq) + " left out (loops and couplings)");
    if (m_->nsite > 0) warn(count(m_->nsite, "site") + are(m_->nsite) + " left out");
    if (m_->nsensor > 0) warn(count(m_->nsensor, "sensor") + are(m_->nsensor) + " left out");
    if (m_->nkey > 0) warn(count(m_->nkey, "keyframe") + are(m_->nkey) + " left out");
    int damping = 0, armature = 0, friction = 0, stiffness = 0;
    for (int v = 0; v < m_->nv; ++v) {
      damping += m_->dof_damping[v] != 0.0;
      armature += m_->dof_armature[v] != 0.0;
      friction += m_->dof_frictionloss[v] != 0.0;
    }
    for (int j = 0; j < m_->njnt; ++j) stiffness += m_->jnt_stiffness[j] != 0.0;
    if (damping + armature + friction + stiffness > 0) {
      std::vector<std::string> parts;
      if (damping) parts.push_back("damping on " + std::to_string(damping) + " degrees of freedom");
      if (armature) parts.push_back("armature on " + std::to_string(armature));
      if (friction) parts.push_back("friction loss on " + std::to_string(friction));
      if (stiffness) parts.push_back("springs on " + std::to_string(stiffness) + " joints");
      warn("joint properties left out, so the dynamics differ from MuJoCo's where they act: " + joinNames(parts));
    }
    if (rangesKept_ > 0)
      warn(count(rangesKept_, "joint range") + are(rangesKept_) +
           " kept as limits to show, not enforced: MuJoCo's limit forces are left out, so a joint that reaches its "
           "range moves on where MuJoCo's stops");
    if (!partialRanges_.empty())
      warn(
          "ranges are left out where only some of the hinges and slides making one Kinetree joint have one "
          "(Kinetree's limits are for every coordinate of a joint, or none): " +
          joinNames(partialRanges_));
    if (!limitedBall_.empty())
      warn("ball-joint ranges are left out (limits are for one-coordinate axes): " + joinNames(limitedBall_));
  }

  const mjModel* m_;
  std::string file_;
  const MjcfImportOptions& options_;
  std::vector<int> host_;           ///< (nbody) the Kinetree body a MuJoCo body's geoms and children go to; −1: world
  std::vector<MjcfPose> hostPose_;  ///< (nbody) the MuJoCo body frame in that Kinetree body's frame
  std::vector<int> jointBody_;      ///< (njnt) the MuJoCo body of each joint
  std::vector<MjcfCoordinates> coordinates_;
  std::vector<Diagnostic> warnings_;
  std::vector<std::string> renamed_, limitedBall_, partialRanges_;
  int rangesKept_ = 0;  ///< joint ranges kept as limits (hinges and slides)
  MjcfNames bodyNames_, jointNames_;
  std::string ellipsoid_;
  int worldGeoms_ = 0, hiddenGeoms_ = 0;
};

// Line `line` (1-based) of a file, empty when it has fewer lines.
std::string lineOfFile(const std::string& file, int line) {
  std::ifstream in(file, std::ios::binary);
  std::string text;
  for (int k = 0; k < line && std::getline(in, text); ++k) {
  }
  return in ? text : std::string();
}

// The column (1-based, in characters) on `text`, a line of the file, of what MuJoCo's message is
// about, 0 when it cannot be told: the element it names ("Element 'joint'", TinyXML's "XMLElement
// name=body", or the compiler's "Object name = a", found by its name attribute), and within it the
// attribute or the value the message quotes ("unrecognized attribute: 'foo'", "invalid keyword:
// 'spiral'"). MuJoCo gives a line and no column.
int columnOnLine(const std::string& text, const std::string& message) {
  const auto column = [&](std::size_t at) {
    int c = 1;
    for (std::size_t k = 0; k < at; ++k)
      if ((static_cast<unsigned char>(text[k]) & 0xC0) != 0x80) ++c;  // not a UTF-8 continuation byte
    return c;
  };
  // `<tag` followed by a space, '/' or '>'
  const auto element = [&](const std::string& tag) {
    for (std::size_t at = text.find('<' + tag); at != std::string::npos; at = text.find('<' + tag, at + 1)) {
      const std::size_t after = at + 1 + tag.size();
      if (after >= text.size() || std::isspace(static_cast<unsigned char>(text[after])) || text[after] == '/' ||
          text[after] == '>')
        return at;
    }
    return std::string::npos;
  };
  std::smatch match;
  std::size_t at = std::string::npos;
  if (std::regex_search(message, match, std::regex(R"(Element '([^']+)')")) ||
      std::regex_search(message, match, std::regex(R"(XMLElement name=([A-Za-z_][\w.-]*))")))
    at = element(match[1].str());
  else if (std::regex_search(message, match, std::regex(R"(Object name = ([^,]+),)")))
    for (const char quote : {'"', '\''})
      if (const std::size_t named = text.find("name=" + (quote + match[1].str()) + quote); named != std::string::npos) {
        at = text.rfind('<', named);
        break;
      }
  if (at == std::string::npos) return 0;
  // the attribute or the value quoted, within the element
  if (std::regex_search(message, match, std::regex(R"(: '([^']+)')"))) {
    const std::string word = match[1].str();
    const std::size_t end = text.find('>', at);
    for (std::size_t k = text.find(word, at); k != std::string::npos && k < end; k = text.find(word, k + 1)) {
      const std::size_t after = k + word.size();
      const bool attribute = std::isspace(static_cast<unsigned char>(text[k - 1])) && after < text.size() &&
                             (text[after] == '=' || std::isspace(static_cast<unsigned char>(text[after])));
      const bool value =
          (text[k - 1] == '"' || text[k - 1] == '\'') && after < text.size() && text[after] == text[k - 1];
      if (attribute || value) return column(value ? k - 1 : k);
    }
  }
  return column(at);
}

// The files <include>d by `file`, and theirs, as MuJoCo reads them (relative to the main file's
// directory), the main file first; each once.
std::vector<std::string> withIncludes(const std::string& file) {
  std::vector<std::string> files{file};
  const fs::path base = fs::path(file).parent_path();
  const std::regex include(R"(<include\s[^>]*file\s*=\s*["']([^"']+)["'])");
  for (std::size_t k = 0; k < files.size() && files.size() < 64; ++k) {
    std::ifstream in(files[k], std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include); it != std::sregex_iterator(); ++it) {
      const std::string path = (base / (*it)[1].str()).lexically_normal().string();
      if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
    }
  }
  return files;
}

// MuJoCo's message as a diagnostic at the XML line it names: "Element 'x', line 12" (schema),
// "Line number=3" (XML syntax, from TinyXML) or "line = 9, column = -1" (the compiler's own), and
// the column of what it names on that line (columnOnLine). Of several, the last line given that is
// not 0 (an include error quotes the included file's parse error, at line 0, then names the
// <include>). MuJoCo 2.2 gives line 0 for a schema error in an included file: the element and
// attribute or value it quotes are then looked for in the files included, to name the file and line.
Diagnostic compilerError(const std::string& file, const std::string& text) {
  Diagnostic d;
  d.file = file;
  std::string message = text;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  message = std::regex_replace(message, std::regex(R"(, column = -1)"), "");  // no column known
  const std::regex lineNumber(R"([Ll]ine(?: number)? *=? *(\d+))");
  for (auto it = std::sregex_iterator(message.begin(), message.end(), lineNumber); it != std::sregex_iterator(); ++it)
    if (const int line = std::stoi((*it)[1].str()); line > 0) d.line = line;
  if (d.line > 0) {
    d.column = columnOnLine(lineOfFile(file, d.line), message);
  } else if (std::smatch element; std::regex_search(message, element, std::regex(R"(Element '([^']+)')")) &&
                                  std::regex_search(message, std::regex(R"(: '([^']+)')"))) {
    const std::string bare = "Element '" + element[1].str() + "'";
    for (const std::string& candidate : withIncludes(file)) {
      std::ifstream in(candidate, std::ios::binary);
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        // the quoted attribute or value found within the element, not the element alone
        const int column = columnOnLine(line, message);
        if (column > 0 && column != columnOnLine(line, bare)) {
          d.file = candidate;
          d.line = n;
          d.column = column;
          break;
        }
      }
      if (d.line > 0) break;
    }
  }
  for (char& c : message)
    if (c == '\n') c = ' ';
  if (message.rfind("Error: ", 0) == 0) message.erase(0, 7);
  d.message = "MuJoCo's compiler: " + replaceInvalidUtf8(message);
  return d;
}

}  // namespace

bool isMjcfFile(const std::string& path) {
  // the name of the root element: past a byte order mark, the XML declaration, comments,
  // processing instructions and the document type, within the first 64 KiB
  std::ifstream in(path, std::ios::binary);
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  std::size_t i = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  for (;;) {
    while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
    if (i >= head.size() || head[i] != '<') return false;  // text that is not XML (a YAML model)
    const auto skipPast = [&](const char* end) {
      const std::size_t at = head.find(end, i);
      i = at == std::string::npos ? head.size() : at + std::strlen(end);
    };
    if (head.compare(i, 4, "<!--") == 0) {
      skipPast("-->");
    } else if (head.compare(i, 2, "<?") == 0) {
      skipPast("?>");
    } else if (head.compare(i, 2, "<!") == 0) {
      skipPast(">");
    } else {
      const std::size_t name = i + 1;
      std::size_t end = name;
      while (end < head.size() && !std::isspace(static_cast<unsigned char>(head[end])) && head[end] != '>' &&
             head[end] != '/')
        ++end;
      return head.compare(name, end - name, "mujoco") == 0;
    }
  }
}

MjcfImport importMjcfFile(const std::string& path, const MjcfImportOptions& options) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    Diagnostic d;
    d.file = path;
    d.message = "cannot open the file (it does not exist or is not a regular file)";
    throw ModelLoadError({d});
  }
  std::vector<std::string> compilerWarnings;
  mjModel* m = nullptr;
  char error[1024] = "";
  {
    const std::lock_guard<std::mutex> lock(compilerMutex());
    gCompilerWarnings = &compilerWarnings;
    void (*previous)(const char*) = mju_user_warning;
    mju_user_warning = collectWarning;
    m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    mju_user_warning = previous;
    gCompilerWarnings = nullptr;
  }
  if (!m) throw ModelLoadError({compilerError(path, error[0] ? error : "the file could not be compiled")});
  struct Release {
    mjModel* m;
    ~Release() { mj_deleteModel(m); }
  } release{m};
  if (error[0]) compilerWarnings.emplace_back(error);
  MjcfImporter importer(m, path, options);
  MjcfImport out = importer.run(compilerWarnings);
  if (out.model.bodies.empty()) {
    Diagnostic d;
    d.file = path;
    d.message = "the model has no body with mass or joints (only the world and frames)";
    throw ModelLoadError({d});
  }
  std::vector<Diagnostic> problems;
  Tree tree;
  if (!finalize(out.model, meshFiles(), tree, problems)) {
    for (Diagnostic& d : problems) d.file = path;
    throw ModelLoadError(problems);
  }
  return out;
}

}  // namespace kt
