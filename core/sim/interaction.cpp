// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/interaction.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/dynamics/rnea.hpp"

namespace kt {

namespace {

bool finite3(const Vec3& v) { return v.allFinite(); }

}  // namespace

std::string checkInteractionEvent(const InteractionEvent& e, const Tree& tree) {
  if (!std::isfinite(e.t) || e.t < 0.0) return "the time must be a number of seconds ≥ 0";
  if (e.kind == InteractionKind::Release) return {};
  if (e.body < 0 || e.body >= tree.nb) return "body " + std::to_string(e.body) + " does not exist";
  if (e.kind == InteractionKind::Drive) {
    const JointModel& joint = tree.joints[static_cast<std::size_t>(e.body)];
    switch (e.drive.type) {
      case DriveType::Table: return "a table drive cannot be given during a run";
      case DriveType::PdSinusoid:
      case DriveType::PdPiecewise:
      case DriveType::SpringDamper:
        if (joint.nq != joint.nv)
          return "a PD or spring drive needs a joint whose coordinates are the rates of its positions";
        break;
      default: break;
    }
    if (e.drive.type != DriveType::None && joint.nv == 0) return "a fixed joint takes no drive";
    return {};
  }
  if (e.kind == InteractionKind::Pose) {
    const JointModel& joint = tree.joints[static_cast<std::size_t>(e.body)];
    if (joint.nq == 0) return "a fixed joint has no position to set";
    if (static_cast<int>(e.position.size()) != joint.nq)
      return "the position needs " + std::to_string(joint.nq) + " number" + (joint.nq == 1 ? "" : "s") +
             " for this joint, not " + std::to_string(e.position.size());
    if (!std::all_of(e.position.begin(), e.position.end(), [](double x) { return std::isfinite(x); }))
      return "the position must be finite numbers";
    if (joint.type == JointType::Spherical || joint.type == JointType::Free) {
      const double n2 = e.position[0] * e.position[0] + e.position[1] * e.position[1] + e.position[2] * e.position[2] +
                        e.position[3] * e.position[3];
      if (!(n2 > 1e-12)) return "the orientation quaternion (the first four numbers) must not be zero";
    }
    return {};
  }
  if (!finite3(e.point)) return "the point must be three finite numbers";
  if (e.kind == InteractionKind::Push) {
    if (!finite3(e.force) || !finite3(e.moment)) return "the force and the moment must be finite";
    if (!std::isfinite(e.start) || e.start < 0.0) return "the start must be a number of seconds ≥ 0";
    if (!(e.duration > 0.0)) return "the duration must be positive (or absent: until released)";
    if (e.shape == PushShape::HalfSine && !std::isfinite(e.duration)) return "a half-sine push needs a finite duration";
    return {};
  }
  if (!finite3(e.target)) return "the target must be three finite numbers";
  if (!e.targetRotation.coeffs().allFinite() || std::abs(e.targetRotation.norm() - 1.0) > 1e-6)
    return "the target rotation must be a unit quaternion";
  if (!std::isfinite(e.stiffness) || e.stiffness < 0.0 || !std::isfinite(e.damping) || e.damping < 0.0)
    return "the stiffness and the damping must be finite and ≥ 0";
  return {};
}

double pushProfile(const InteractionEvent& push, double t) {
  const double s = t - push.start;
  if (s < 0.0 || !(s < push.duration)) return 0.0;
  if (push.shape == PushShape::Constant) return 1.0;
  return std::sin(std::numbers::pi * s / push.duration);
}

void Interactions::apply(const InteractionEvent& event, const Tree& tree) {
  if (const std::string problem = checkInteractionEvent(event, tree); !problem.empty())
    throw std::invalid_argument(problem);
  const auto same = std::find_if(active_.begin(), active_.end(), [&](const auto& a) { return a.id == event.id; });
  // the Simulator gives the joint its drive, or sets its position
  if (event.kind == InteractionKind::Drive || event.kind == InteractionKind::Pose) return;
  if (event.kind == InteractionKind::Release) {
    if (same == active_.end())
      throw std::invalid_argument("no interaction with id " + std::to_string(event.id) + " is in force");
    active_.erase(same);
    return;
  }
  if (same != active_.end())
    *same = event;
  else
    active_.push_back(event);
}

bool Interactions::needsKinematics() const {
  return std::any_of(active_.begin(), active_.end(),
                     [](const auto& a) { return a.kind == InteractionKind::Drag || a.worldAxes; });
}

void Interactions::wrenches(double t, const Kinematics* kin, std::vector<Vec6>& fext) const {
  for (Vec6& f : fext) f.setZero();
  for (const InteractionEvent& a : active_) {
    const auto b = static_cast<std::size_t>(a.body);
    Vec3 F = Vec3::Zero(), M = Vec3::Zero();  // body coordinates, M about the body origin
    if (a.kind == InteractionKind::Push) {
      const double s = pushProfile(a, t);
      if (s == 0.0) continue;
      const Vec3 F0 = s * a.force, M0 = s * a.moment;
      F = a.worldAxes ? Vec3(kin->X_0[b].E * F0) : F0;
      M = (a.worldAxes ? Vec3(kin->X_0[b].E * M0) : M0) + a.point.cross(F);
    } else if (a.mode == DragMode::Force) {
      const Xform& X = kin->X_0[b];
      const Vec3 omega = kin->v[b].head<3>(), vO = kin->v[b].tail<3>();
      // in body coordinates: x* − x = ⁱE_0 (x* − ⁰r_i) − p, ẋ = v_O + ω × p
      F = a.stiffness * (X.E * (a.target - X.r) - a.point) - a.damping * (vO + omega.cross(a.point));
      M = a.point.cross(F);
    } else {
      const Mat3& E = kin->X_0[b].E;
      const Eigen::AngleAxisd error(a.targetRotation.toRotationMatrix() * E);  // R* (ⁱE_0ᵀ)ᵀ, world
      M = a.stiffness * error.angle() * (E * error.axis()) - a.damping * kin->v[b].head<3>();
    }
    fext[b].head<3>() += M;
    fext[b].tail<3>() += F;
  }
}

std::vector<InteractionSpan> interactionSpans(const std::vector<InteractionEvent>& events) {
  std::vector<InteractionSpan> spans;
  std::vector<std::size_t> open;  // indices into spans of those in force, by id
  const auto find = [&](int id) {
    return std::find_if(open.begin(), open.end(), [&](std::size_t k) { return spans[k].id == id; });
  };
  for (const InteractionEvent& e : events) {
    if (e.kind == InteractionKind::Drive || e.kind == InteractionKind::Pose) continue;  // no wrench
    const auto it = find(e.id);
    if (e.kind == InteractionKind::Release) {
      if (it == open.end()) continue;
      spans[*it].to = std::min(spans[*it].to, e.t);
      open.erase(it);
      continue;
    }
    if (it != open.end()) {
      if (e.kind == InteractionKind::Drag && spans[*it].kind == InteractionKind::Drag) continue;  // a new target
      spans[*it].to = std::min(spans[*it].to, e.t);  // replaced by another of the same id
      open.erase(it);
    }
    InteractionSpan s;
    s.id = e.id;
    s.kind = e.kind;
    s.body = e.body;
    s.after = e.t;
    s.from = e.kind == InteractionKind::Push ? std::max(e.t, e.start) : e.t;
    if (e.kind == InteractionKind::Push) s.to = e.start + e.duration;
    spans.push_back(s);
    open.push_back(spans.size() - 1);
  }
  return spans;
}

double effectiveMass(const Tree& tree, const VectorX& q, int body, const Vec3& point, DragMode mode) {
  // at rest, no gravity and no other applied wrench: q̈ = M⁻¹ Jᵀ u for a unit force (moment) u
  Tree still = tree;
  still.gravity.setZero();
  for (Vec6& w : still.appliedWrench) w.setZero();
  const std::unique_ptr<Solver> solver = makeSolver("aba", still);
  const VectorX zero = VectorX::Zero(still.nv);
  VectorX qdd(still.nv);
  Kinematics kin;
  kin.resize(still);
  computeKinematics(still, q, zero, kin);
  std::vector<Vec6> fext(static_cast<std::size_t>(still.nb), Vec6::Zero()), a(fext);
  const auto b = static_cast<std::size_t>(body);
  double trace = 0.0;
  for (int k = 0; k < 3; ++k) {
    Vec6& f = fext[b];
    f.setZero();
    if (mode == DragMode::Force) {
      f.tail<3>() = Vec3::Unit(k);
      f.head<3>() = point.cross(Vec3::Unit(k));
    } else {
      f.head<3>() = Vec3::Unit(k);
    }
    solver->forwardDynamics(q, zero, zero, fext, qdd, nullptr);
    // J M⁻¹ Jᵀ u: the body's acceleration from q̈ at rest (no velocity products), at the point
    bodyAccelerations(still, kin, qdd, a);
    const Vec3 alpha = a[b].head<3>();
    trace += mode == DragMode::Force ? (a[b].tail<3>() + alpha.cross(point))[k] : alpha[k];
  }
  return trace > 0.0 ? 3.0 / trace : std::numeric_limits<double>::infinity();
}

SpringGains dragGains(const Tree& tree, const VectorX& q, int body, const Vec3& point, DragMode mode, double omega,
                      double zeta) {
  SpringGains g;
  g.effectiveMass = effectiveMass(tree, q, body, point, mode);
  if (!std::isfinite(g.effectiveMass)) return g;  // the body cannot move: no spring
  g.stiffness = g.effectiveMass * omega * omega;
  g.damping = 2.0 * zeta * g.effectiveMass * omega;
  return g;
}

std::vector<double> movedFreeJoint(const Tree& tree, const VectorX& q, int joint, const Vec3& shift, const Mat3& turn) {
  const auto j = static_cast<std::size_t>(joint);
  if (tree.joints[j].type != JointType::Free) throw std::invalid_argument("movedFreeJoint needs a free joint");
  const double* qj = q.data() + tree.qOffset[j];
  // the parent's pose in the world, then the joint frame: ⁰X_J = ᴶX_p ᵖX_0 (a root's parent is the world)
  Xform X0 = tree.X_T[j];
  if (const int p = tree.parent[j]; p >= 0) {
    Kinematics kin;
    kin.resize(tree);
    computePositionKinematics(tree, q, kin);
    X0 = tree.X_T[j] * kin.X_0[static_cast<std::size_t>(p)];
  }
  // the body's origin is ⁰r_J + E_Jᵀ p and its rotation (body → world) E_Jᵀ R(q), R(q) body → joint
  const Mat3& E = X0.E;
  const Mat3 R = E * turn * E.transpose() * Quat(qj[0], qj[1], qj[2], qj[3]).normalized().toRotationMatrix();
  const Quat r(R);
  const Vec3 p = Vec3(qj[4], qj[5], qj[6]) + E * shift;
  return {r.w(), r.x(), r.y(), r.z(), p.x(), p.y(), p.z()};
}

Vec6 wrenchInWorldAxes(const Kinematics& kin, int body, const Vec6& fext) {
  const Mat3& E = kin.X_0[static_cast<std::size_t>(body)].E;
  Vec6 w;
  w.head<3>() = E.transpose() * fext.head<3>();
  w.tail<3>() = E.transpose() * fext.tail<3>();
  return w;
}

}  // namespace kt
