// SPDX-License-Identifier: BSD-3-Clause
// Shared first pass of every algorithm (base to tip): joint transforms, body poses, motion
// subspaces, velocities and velocity-product accelerations.
//   ⁱX_p = X_J(q_i) X_T(i)               v_i = ⁱX_p v_p + S_i ν_i
//   c_i  = v_i × S_i ν_i + S̊_i ν_i       (Featherstone 2008, eq. 7.35; docs/dynamics.md §3)
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

struct Kinematics {
  std::vector<Xform> X_p;  ///< (nb) ⁱX_parent (from the world for roots)
  std::vector<Xform> X_0;  ///< (nb) ⁱX_0, world to body
  std::vector<Mat6N> S;    ///< (nb) motion subspace, body coordinates (constant ones set by resize)
  std::vector<Vec6> v;     ///< (nb) body velocity, body coordinates
  std::vector<Vec6> c;     ///< (nb) velocity-product acceleration v_i × S_i ν_i + S̊_i ν_i
  /// (nb) cos q and sin q of a revolute joint, kept with the world poses: the joint's X_J again
  /// without another sine (JointModel::revoluteTransform; the parent-side loads of a run's output)
  std::vector<std::array<double, 2>> cosSin;
  /// (nb) k for a revolute joint along e_k whose placement X_T does not rotate, else −1: its ⁱX_0
  /// is composed from cos q and sin q (kernels::composeTurned), set by resize
  std::vector<std::int8_t> turnAxis;

  void resize(const Tree& tree);
};

/// Positions only: X_p, X_0 and cosSin (unless `worldPoses` is false) and S.
void computePositionKinematics(const Tree& tree, const Eigen::VectorXd& q, Kinematics& kin, bool worldPoses = true);
/// Positions and velocities: everything in Kinematics (X_0 only when `worldPoses`: the dynamics
/// themselves need the relative transforms alone).
void computeKinematics(const Tree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Kinematics& kin,
                       bool worldPoses = true);

/// Gravity as a fictitious base acceleration, a_0 = −g, as a spatial motion vector in world coordinates.
inline Vec6 baseAcceleration(const Tree& tree) { return spatial(Vec3::Zero(), -tree.gravity); }

/// Total applied wrench on body i: the tree's constant one plus fext[i] (if any).
inline Vec6 appliedWrench(const Tree& tree, std::span<const Vec6> fext, int i) {
  return fext.empty() ? tree.appliedWrench[i] : Vec6(tree.appliedWrench[i] + fext[i]);
}

}  // namespace kt
