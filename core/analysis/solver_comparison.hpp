// SPDX-License-Identifier: BSD-3-Clause
// Solvers compared at the same states (docs/signals.md, "Comparing solvers"): what differs is
// the solver alone, not the integration.
//
// The states are the output samples (t, q, ν, τ) of one reference run. At each, every solver
// gives q̈ and the joint loads f; an impulse-form solver (Ivanov 2017) also gives p = M(q) ν and,
// from p, ν again and ṗ. Each is measured against a reference value:
//   q̈, f       the reference solver's (the first compared);
//   p          M(q) ν, M from the composite-rigid-body algorithm (docs/dynamics.md §4);
//   ν          the state's ν (the impulse solver's ν = M⁻¹ p, from its own p);
//   ṗ          d/dt (M ν) = M q̈ + Ṁ ν, Ṁ ν by Richardson-extrapolated central differences of
//              M(q ⊕ εν) ν, ε ‖ν‖∞ = 1e-2, extrapolated to O(ε⁶); the change of the last
//              extrapolation estimates its error, and a difference within 10 times that
//              estimate is not counted against the solver.
// A difference is reported absolute, max |a − b| over the run, and relative to the scale of the
// run, max |b| over the run (so a quantity that passes through zero is not divided by it).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/model/tree.hpp"

namespace kt {

/// One state of the reference run.
struct ComparisonState {
  double t = 0.0;
  Eigen::VectorXd q, v, tau;  ///< (nq), (nv), (nv) drive forces at that state
};

/// The largest difference of one quantity over the states.
struct DifferenceMeasure {
  double abs = 0.0;    ///< max |a − b|
  double scale = 0.0;  ///< max |b|
  bool measured = false;
  double referenceError = 0.0;  ///< how far the reference itself may be off (ṗ's finite differences)
  std::vector<double> at;       ///< max |a − b| at each state, in the order add() saw them
  double rel() const { return scale > 0.0 ? abs / scale : abs; }
  /// The relative difference beyond the reference's own error (10 times its estimate).
  double beyondReference() const {
    const double d = std::max(0.0, abs - 10.0 * referenceError);
    return scale > 0.0 ? d / scale : d;
  }
  void add(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b);
};

struct SolverDifference {
  std::string solver;
  bool impulse = false;
  DifferenceMeasure qdd, load;   ///< against the reference solver
  DifferenceMeasure p, v, pdot;  ///< impulse form only, against M ν, ν and d/dt (M ν)
  double secondsPerCall = 0.0;   ///< wall time of one evaluation (forward or impulse dynamics with loads)
  /// The largest relative difference of the measured quantities beyond their reference's error.
  double worst() const;
};

/// The largest relative difference (DifferenceMeasure::beyondReference) at which solvers agree,
/// by default (kinetree-cli compare, the application's comparison).
inline constexpr double kPointwiseTolerance = 1e-10;

/// The largest nv for which p and ṗ are checked against M(q) (M is nv × nv).
inline constexpr int kComparisonMaxMassMatrix = 2000;

/// Compares `solvers` at `states` of `tree`; the first solver is the reference for q̈ and the
/// loads (its own row is measured against itself: zero). Throws std::invalid_argument for an
/// unknown solver name.
std::vector<SolverDifference> compareAtStates(const Tree& tree, const std::vector<std::string>& solvers,
                                              const std::vector<ComparisonState>& states);

}  // namespace kt
