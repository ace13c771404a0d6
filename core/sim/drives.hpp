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
//   Table:         τ from the file's tau:<joint>[k] column, a not-a-knot C² cubic spline through the
//                  samples (core/sim/prescribed_motion.hpp reads the file)
// PD and spring drives read q_k of joints whose nq == nv (the validator enforces it).
#pragma once

#include <string>
#include <vector>

#include "core/model/tree.hpp"
#include "core/motion/motion_profile.hpp"

namespace kt {

class MotionTables;

class Drives {
 public:
  /// The drives of `model`'s joints, in the tree's order (`tree` = finalize(model)). Table drives
  /// read their files through `tables` (absent: a table drive is an error); throws TableError
  /// (core/io/motion_table.hpp) for a bad file.
  Drives(const Model& model, const Tree& tree, MotionTables* tables = nullptr);

  /// τ (nv, sized by the caller) at (t, q, ν). Allocates nothing.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& tau) const;

  /// True when some drive reads ν (PD with kd ≠ 0, damping ≠ 0).
  bool usesVelocity() const { return usesVelocity_; }
  /// True when no joint has a drive (τ ≡ 0).
  bool empty() const { return active_.empty(); }

  /// Replaces the drive of tree joint `joint` (not in a hot path: may allocate). Throws like the
  /// constructor for a table drive.
  void setDrive(int joint, const Drive& drive);
  /// The end of the shortest table a drive reads (+∞ when none): a run past it would extrapolate.
  double lastTableTime() const;
  /// The joint (tree index, −1 when none) whose table ends at lastTableTime(), its file and the
  /// line of its last sample.
  int lastTableJoint() const;
  const std::string& lastTableFile() const;
  int lastTableLine() const;
  const Drive& drive(int joint) const { return drives_[joint]; }

 private:
  void refresh();

  void loadTable(int joint);

  const Tree* tree_;
  MotionTables* tables_ = nullptr;
  std::vector<Drive> drives_;                        ///< (nb) per tree joint, vectors broadcast to nv entries
  std::vector<std::vector<CubicSpline>> tabulated_;  ///< (nb) table drives: one spline per coordinate
  std::vector<std::string> tableFiles_;              ///< (nb) the file each table drive reads
  std::vector<int> tableLastLines_;                  ///< (nb) the line of its last sample
  std::vector<int> active_;                          ///< tree joints with a drive
  bool usesVelocity_ = false;
};

/// The piecewise-linear target through `knots` at t (held outside the range) and its slope.
void piecewiseLinearTarget(const std::vector<Knot>& knots, double t, double& value, double& slope);

}  // namespace kt
