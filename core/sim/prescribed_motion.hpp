// SPDX-License-Identifier: BSD-3-Clause
// The prescribed motions of a model's joints (docs/motion.md), in the tree's order, and the
// tables they and the tabulated drives read.
//
// A joint with a `motion:` follows q(t), q̇(t), q̈(t) exactly; the solver's hybrid dynamics
// (Solver::hybridDynamics) gives its required effort. Table motions and table drives read their
// CSV files here, once per file (paths relative to the model file): a motion takes the columns
// q:<joint>[k], a drive tau:<joint>[k], one per coordinate; degrees ("(deg)" in the header) are
// accepted for angles only. Every problem with a file is a TableError naming the file, line
// and column.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/io/motion_table.hpp"
#include "core/model/tree.hpp"
#include "core/motion/joint_motion.hpp"

namespace kt {

/// The CSV tables a model's motions and drives name, each read once.
class MotionTables {
 public:
  explicit MotionTables(std::string sourceDirectory) : directory_(std::move(sourceDirectory)) {}
  /// The table `file` (absolute, or relative to the model file's directory). Throws TableError.
  const MotionTable& get(const std::string& file);
  /// Throws TableError when `table` does not start at t = 0, where every run starts.
  static void checkStart(const MotionTable& table);
  /// The columns `<prefix><joint>[k]`, k < nv, of `table` for joint `i` of `tree`, in SI: throws
  /// TableError (at the header) when one is missing or its unit does not fit the coordinate.
  static std::vector<std::span<const double>> jointColumns(const MotionTable& table, const Tree& tree, int i,
                                                           const std::string& prefix);

 private:
  std::string directory_;
  std::map<std::string, std::unique_ptr<MotionTable>> tables_;
};

/// What a table of joint histories gives a model (applyMotionTable): the joints it prescribes and
/// what in it did not fit.
struct MotionTableMatch {
  std::vector<std::string> joints;    ///< joints now following the table, in model order
  std::vector<Diagnostic> unmatched;  ///< q: columns that name no joint of the model
  std::vector<Diagnostic> problems;   ///< q: columns of fixed joints, beyond a joint's coordinates, or of
                                      ///< a joint whose other coordinates the file lacks
  std::vector<Diagnostic> skipped;    ///< warnings, one per joint that cannot follow a motion (a free base):
                                      ///< its columns are not read and it moves under the dynamics
};

/// Prescribes every joint named by q:<joint>[k] columns of `table` (all of its coordinates) with a table motion reading
/// `file` (as the model will store it) and low-pass `cutoff`; a drive of such a joint is set
/// aside (a joint follows a motion or a drive). Columns of other signals are ignored. When the
/// match has unmatched columns or problems nothing is changed, unless `partial` (the
/// application's Import Motion, which lists them): then the joints that fit are prescribed.
MotionTableMatch applyMotionTable(Model& model, const MotionTable& table, const std::string& file, double cutoff,
                                  bool partial = false);

class PrescribedMotions {
 public:
  /// The motions of `model`'s joints (`tree` = its finalized form), tables read through `tables`.
  /// Throws TableError for a bad table and std::invalid_argument for a motion that cannot be
  /// built (a cutoff above the samples' Nyquist frequency, …), naming the joint.
  PrescribedMotions(const Model& model, const Tree& tree, MotionTables& tables);

  /// True when no joint follows a motion.
  bool empty() const { return joints_.empty(); }
  /// True when every joint with coordinates follows a motion: the run is inverse dynamics.
  bool all() const { return all_; }
  /// (nb) 1 for the joints that follow a motion (Solver::hybridDynamics' `prescribed`).
  std::span<const char> mask() const { return mask_; }
  /// The tree joints that follow a motion.
  const std::vector<int>& joints() const { return joints_; }

  /// Writes q, ν and (when given) q̈ of the prescribed coordinates at t; the others are left as
  /// they are. Allocates nothing.
  void apply(double t, double* q, double* v, double* qdd) const;
  /// The end of the shortest table (+∞ when no motion reads a table): a run past it would
  /// extrapolate.
  double lastTime() const { return lastTime_; }
  /// The joint (tree index) whose table ends at lastTime(), −1 when none.
  int lastTimeJoint() const { return lastTimeJoint_; }
  const std::string& lastTimeFile() const { return lastTimeFile_; }
  /// The line of that table's last sample (1-based).
  int lastTimeLine() const { return lastTimeLine_; }

 private:
  const Tree* tree_;
  std::vector<JointMotion> motions_;  ///< (nb), empty profiles where there is no motion
  std::vector<char> mask_;
  std::vector<int> joints_;
  bool all_ = false;
  double lastTime_;
  int lastTimeJoint_ = -1;
  std::string lastTimeFile_;
  int lastTimeLine_ = 0;
};

}  // namespace kt
