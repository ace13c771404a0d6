// SPDX-License-Identifier: BSD-3-Clause
// Solvers compared by their own runs (docs/signals.md, "Comparing solvers", trajectory): every
// solver integrates the model with the same integrator, step and duration, as Liu, Hu & Zhang
// (2016) compare their CFA with a recursive algorithm (Figs. 11–12). A velocity-form (q, ν) and
// an impulse-form (q, p) run then differ by the integrator's truncation error as well as by the
// solver, so the reference is run once more with a finer integration (integratorCheckOptions):
// the difference of those two reference runs is the integrator's own, and a solver's difference
// is judged against it.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/solver_comparison.hpp"
#include "core/sim/simulator.hpp"

namespace kt {

/// One run of a trajectory comparison; its simulator's recorder holds every output sample.
struct ComparedRun {
  std::string solver, integrator;
  bool integratorCheck = false;  ///< the reference run again with integratorCheckOptions()
  bool adaptive = false;         ///< the integrator chooses its steps (the check is then tol/32)
  std::unique_ptr<Simulator> sim;
  double secondsPerStep = 0.0;  ///< wall time per output step
  std::string error;            ///< why the run stopped early (empty: it reached the duration)

  /// "aba · rk4", and for the check "aba · rk4, h/2" (or ", tol/32").
  std::string label() const;
};

/// The reference's options with a finer integration and outputs at the same times: half the
/// step for a fixed-step integrator, a 32 times tighter tolerance for an adaptive one.
SimulatorOptions integratorCheckOptions(const SimulatorOptions& options);

/// Runs `model` with `options` for `duration` seconds, recording every output. `stop`, when
/// given, is read between steps: once set, the run ends with error "cancelled". Throws
/// std::invalid_argument as Simulator's constructor does.
ComparedRun runForComparison(const Model& model, const SimulatorOptions& options, double duration,
                             const std::atomic<bool>* stop = nullptr);

/// How far one run is from another of the same model, output by output over their common
/// outputs: the joint coordinates q, the joint velocities ν and the joint loads f (the
/// load:<joint>.* signals), each relative to the largest |value| of `reference`.
struct TrajectoryDifference {
  DifferenceMeasure q, v, load;
  double worst() const { return std::max({q.rel(), v.rel(), load.rel()}); }
};

/// The default tolerance of a run's relative difference, and how many times the integrator's
/// own difference still counts as explained by the integration.
inline constexpr double kTrajectoryTolerance = 1e-9;
inline constexpr double kIntegratorFactor = 10.0;
/// A run agrees with the reference: its difference is within `tolerance`, or within
/// kIntegratorFactor times the integrator's own difference.
inline bool trajectoryAgrees(double difference, double integratorDifference, double tolerance = kTrajectoryTolerance) {
  return difference <= tolerance || difference <= kIntegratorFactor * integratorDifference;
}
TrajectoryDifference trajectoryDifference(const Recorder& run, const Recorder& reference, const SignalLayout& layout);

/// |run − reference| of one recorded signal (`column` of both recordings) at each of their
/// common outputs; `t` gets the reference's times.
void signalDifference(const Recorder& run, const Recorder& reference, int column, std::vector<double>& t,
                      std::vector<double>& difference);

}  // namespace kt
