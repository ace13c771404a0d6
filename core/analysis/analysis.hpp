// SPDX-License-Identifier: BSD-3-Clause
// What users read off a run (docs/dynamics.md §8): energy, whole-system momentum, attitude angles and
// positions of free-joint bodies. Every function takes the body poses and velocities of a
// Kinematics pass (computeKinematics) so that one pass serves them all; none allocates.
//
//   kinetic    T = ½ Σ v_iᵀ I_i v_i            (= ½ νᵀ M ν = ½ νᵀ p, without forming M)
//   potential  U = −Σ m_i gᵀ c_i               (c_i the centre of mass of body i in world, U = 0 at
//                                               the world origin)
//   momentum   h = Σ ⁰X*_i I_i v_i = [L_O; P]  (world axes, angular part about the world origin)
#pragma once

#include <span>

#include "core/dynamics/kinematics.hpp"

namespace kt {

struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double total() const { return kinetic + potential; }
};

struct SystemTotals {
  Energy energy;                 ///< kinetic and potential
  Vec6 momentum = Vec6::Zero();  ///< [L_O; P] in world axes about the world origin
};

/// Energy and whole-system spatial momentum from body poses and velocities (kin after
/// computeKinematics), in one pass: I_i v_i serves both. `com`: each body's centre of mass in its
/// own coordinates (Inertia::com(), constant: a caller that asks per sample keeps it).
SystemTotals systemTotals(const Tree& tree, const Kinematics& kin, std::span<const Vec3> com);

/// Centre of mass of body i in world coordinates.
Vec3 bodyComWorld(const Tree& tree, const Kinematics& kin, int i);

/// Rotation taking body-i coordinates to world coordinates, and the body origin in world.
inline Mat3 bodyRotationWorld(const Kinematics& kin, int i) { return kin.X_0[i].E.transpose(); }
inline Vec3 bodyPositionWorld(const Kinematics& kin, int i) { return kin.X_0[i].r; }

/// ZYX (yaw–pitch–roll) angles (roll φ, pitch θ, yaw ψ) of R = Rz(ψ) Ry(θ) Rx(φ), made continuous
/// over time: each angle is the raw atan2 value plus the multiple of 2π closest to the previous
/// one. Near θ = ±90° (gimbal lock) roll and yaw are ill-defined and may jump there.
class AttitudeUnwrapper {
 public:
  /// Angles for this rotation, continuous with the previous call (reset() forgets the history).
  Vec3 update(const Mat3& R);
  void reset() { started_ = false; }
  /// Continues from angles an earlier update() returned (the previous sample's).
  void resume(const Vec3& previous) {
    previous_ = previous;
    started_ = true;
  }

 private:
  Vec3 previous_ = Vec3::Zero();
  bool started_ = false;
};

/// Adds the multiple of 2π to `angle` that brings it closest to `previous`.
double unwrapAngle(double angle, double previous);

/// Tree indices of the bodies attached by free joints, in tree order.
std::vector<int> freeJointBodies(const Tree& tree);

}  // namespace kt
