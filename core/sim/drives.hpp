// SPDX-License-Identifier: BSD-3-Clause
// Joint drives: the generalized force τ (nv) that each joint's Drive applies at (t, q, ν).
// Types and formulas in core/model/model.hpp (Drive). Gravity comes from the tree and constant
// applied wrenches from Tree::appliedWrench: the solvers add both, not the drives.
//
// Per velocity coordinate k of joint i (vectors in the Drive have one entry per coordinate;
// a single entry is broadcast, a missing one is 0):
//   Constant:      τ = value
//   Sinusoid:      τ = offset + amplitude sin(2π f t + phase)
//   PdSinusoid:    τ = kp (q* − q) + kd (q̇* − ν),  q* = offset + amplitude sin(2π f t + phase)
//   PdPiecewise:   τ = kp (q* − q) + kd (q̇* − ν),  q* piecewise linear through the knots
//                  (held outside them), q̇* its slope (0 outside the knots)
//   SpringDamper:  τ = −stiffness (q − rest) − damping ν
// PD and spring drives read q_k of joints whose nq == nv (the validator enforces it).
#pragma once

#include <vector>

#include "core/model/tree.hpp"

namespace kt {

class Drives {
 public:
  /// The drives of `model`'s joints, in the tree's order (`tree` = finalize(model)).
  Drives(const Model& model, const Tree& tree);

  /// τ (nv, sized by the caller) at (t, q, ν). Allocates nothing.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& tau) const;

  /// True when some drive reads ν (PD with kd ≠ 0, damping ≠ 0).
  bool usesVelocity() const { return usesVelocity_; }
  /// True when no joint has a drive (τ ≡ 0).
  bool empty() const { return active_.empty(); }

  /// Replaces the drive of tree joint `joint` (not in a hot path: may allocate).
  void setDrive(int joint, const Drive& drive);
  const Drive& drive(int joint) const { return drives_[joint]; }

 private:
  void refresh();

  const Tree* tree_;
  std::vector<Drive> drives_;  ///< (nb) per tree joint, vectors broadcast to nv entries
  std::vector<int> active_;    ///< tree joints with a drive
  bool usesVelocity_ = false;
};

/// The piecewise-linear target through `knots` at t (held outside the range) and its slope.
void piecewiseLinearTarget(const std::vector<Knot>& knots, double t, double& value, double& slope);

}  // namespace kt
