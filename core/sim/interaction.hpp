// SPDX-License-Identifier: BSD-3-Clause
// Wrenches a user applies to a running model (docs/interaction.md): a push of given force and
// moment over a time profile, and a drag, a spring-damper pulling a point of a body toward a
// target (or turning the body toward a target orientation). Each change is an InteractionEvent
// the Simulator takes at an output step boundary and keeps in its run, so that a run with
// interactions can be replayed exactly from its events (core/io/interaction_events.hpp). A third
// kind of event changes a joint's drive during the run (the live drive panel): it applies no
// wrench; the Simulator gives the joint that drive. A fourth sets a joint's position while the
// run is paused (posing the model): the state jumps there, velocities kept, and the sample at
// that time is the posed state.
//
// Wrench of a push at time t, point p on body i (body coordinates), F and M its force and moment:
//   s(t) = 1 on [start, start + duration) (constant) or sin(π (t − start) / duration) there
//          (half-sine), 0 outside;  F_b = F and M_b = M (body axes) or ⁱE_0 F, ⁱE_0 M (world axes);
//   f_i  = s(t) [M_b + p × F_b; F_b]  at the body origin, body coordinates.
// Drag of point p toward the world point x*, stiffness k, damping c (Force mode):
//   x = ⁰r_i + ⁱE_0ᵀ p,  ẋ = ⁱE_0ᵀ (v_O + ω × p),  F = k (x* − x) − c ẋ  (world),
//   f_i = [p × F_b; F_b] with F_b = ⁱE_0 F.
// Turn toward the world orientation R* (Torque mode): φ the rotation vector of R* ⁱE_0 (world),
//   M = k φ − c ⁱE_0ᵀ ω,  f_i = [ⁱE_0 M; 0].
// The gains a drag starts with scale with the effective mass at the point (effectiveMass), so
// that a light link and a heavy base both follow at about the same natural frequency.
#pragma once

#include <limits>
#include <span>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

enum class InteractionKind { Push, Drag, Release, Drive, Pose };
enum class PushShape { Constant, HalfSine };
enum class DragMode { Force, Torque };

/// One change of what the user applies, taking effect at time t (an output time of the run).
/// Push and Drag start the interaction `id`, or replace the one of that id (a drag's new target);
/// Release ends it. Drive gives joint `body` (its tree index: the joint into that body) `drive`;
/// Pose sets its position coordinates to `position`.
struct InteractionEvent {
  double t = 0.0;  ///< s
  InteractionKind kind = InteractionKind::Push;
  int id = 0;
  int body = -1;              ///< tree index (Push, Drag; the joint's for Drive, Pose)
  Vec3 point = Vec3::Zero();  ///< point of application, body coordinates, m (Push, Drag in Force mode)
  // Push
  Vec3 force = Vec3::Zero();   ///< N
  Vec3 moment = Vec3::Zero();  ///< N·m
  bool worldAxes = true;       ///< force and moment along world axes; false: body axes, turning with the body
  double start = 0.0;          ///< s; one before the time the push is applied at becomes that time
  double duration = std::numeric_limits<double>::infinity();  ///< s; ∞ = until released
  PushShape shape = PushShape::Constant;
  // Drag
  DragMode mode = DragMode::Force;
  Vec3 target = Vec3::Zero();              ///< world point the body's point is pulled toward (Force)
  Quat targetRotation = Quat::Identity();  ///< world orientation the body is turned toward (Torque)
  double stiffness = 0.0;                  ///< N/m (Force) or N·m/rad (Torque)
  double damping = 0.0;                    ///< N·s/m (Force) or N·m·s/rad (Torque)
  // Drive
  kt::Drive drive;  ///< the joint's drive from t on (not a table: nothing is read during a run)
  // Pose
  std::vector<double> position;  ///< the joint's nq position coordinates (a quaternion need not be unit)
};

/// Why an event cannot be applied to `tree` ("body 7 does not exist", "the stiffness must be …"),
/// empty when it can. Release events are checked against the ids in force by Interactions.
std::string checkInteractionEvent(const InteractionEvent& event, const Tree& tree);

/// Half-sine and constant profiles: the factor s(t) of a push (see the header comment).
double pushProfile(const InteractionEvent& push, double t);

/// The interactions in force during a run.
class Interactions {
 public:
  /// Starts, replaces or ends an interaction. Throws std::invalid_argument when
  /// checkInteractionEvent finds a problem, or for a Release of an id not in force. Drive and
  /// Pose events are checked and change nothing here.
  void apply(const InteractionEvent& event, const Tree& tree);
  void clear() { active_.clear(); }
  bool empty() const { return active_.empty(); }
  /// True when a wrench needs the body poses or velocities (a drag, or a push along world axes).
  bool needsKinematics() const;
  /// The wrench on every body at time t (fext: nb entries, body coordinates, [moment; force] at
  /// the body origin; bodies without one get zero). `kin`: poses and velocities of the state
  /// (computeKinematics with world poses); may be null when !needsKinematics().
  void wrenches(double t, const Kinematics* kin, std::vector<Vec6>& fext) const;
  const std::vector<InteractionEvent>& active() const { return active_; }

 private:
  std::vector<InteractionEvent> active_;
};

/// When an interaction acted on the run: after the output time it was applied at (that sample is
/// the state before it), from a push's start, to its release or its end (+∞ while in force).
struct InteractionSpan {
  int id = 0;
  InteractionKind kind = InteractionKind::Push;  ///< Push or Drag
  int body = -1;
  double after = 0.0, from = 0.0, to = std::numeric_limits<double>::infinity();
  /// The sample at time t felt it.
  bool covers(double t) const { return t > after && t >= from && t <= to; }
};
/// The spans of the interactions of a run's events (in order of their first event).
std::vector<InteractionSpan> interactionSpans(const std::vector<InteractionEvent>& events);

/// Effective mass at point p of body i (Force) or effective moment of inertia of body i (Torque)
/// at q: m_eff = 3 / trace(J M⁻¹ Jᵀ), J the point's linear (or the body's angular) velocity
/// Jacobian. Each column of M⁻¹ Jᵀ comes from the forward dynamics of a unit force (moment) at
/// rest without gravity; J M⁻¹ Jᵀ from the point's acceleration then. Allocates (one solver).
double effectiveMass(const Tree& tree, const VectorX& q, int body, const Vec3& point, DragMode mode);

struct SpringGains {
  double effectiveMass = 0.0;  ///< kg (Force) or kg·m² (Torque)
  double stiffness = 0.0;      ///< m_eff ω²
  double damping = 0.0;        ///< 2 ζ m_eff ω
};
/// Gains of a drag starting at q: a mass–spring–damper of natural frequency ω (rad/s) and
/// damping ratio ζ around the effective mass (10 rad/s and 0.5 by default).
SpringGains dragGains(const Tree& tree, const VectorX& q, int body, const Vec3& point, DragMode mode,
                      double omega = 10.0, double zeta = 0.5);

/// The position of free joint `joint` (its 7 coordinates, docs/dynamics.md) that moves its body
/// from where it is at q by the world translation `shift` of its origin and turns it about its
/// origin by the world rotation `turn`: posing a floating base with the mouse. The joint's
/// placement is taken into account (its position is in the joint frame).
std::vector<double> movedFreeJoint(const Tree& tree, const VectorX& q, int joint, const Vec3& shift, const Mat3& turn);

/// The wrench `fext` (body coordinates at the body origin) in world axes at the body origin:
/// [ⁱE_0ᵀ m; ⁱE_0ᵀ f], what the applied: signals record.
Vec6 wrenchInWorldAxes(const Kinematics& kin, int body, const Vec6& fext);

}  // namespace kt
