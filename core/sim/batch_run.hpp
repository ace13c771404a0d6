// SPDX-License-Identifier: BSD-3-Clause
// One run of a model from its initial state to a duration, headless, collected in memory: the
// selected signals at every K-th output step (and the last), the peak joint loads over every
// output step (core/results/peak_loads.hpp, as `kinetree-cli peaks` computes them), the energy at the
// start and the end, and the final state. What the Python module's simulate() returns and what a
// parameter sweep summarizes per case (docs/python.md).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/results/peak_loads.hpp"
#include "core/sim/simulator.hpp"

namespace kt {

struct BatchRunOptions {
  SimulatorOptions simulator;  ///< solver, integrator, step, tolerance
  double duration = 0.0;       ///< s; 0: the model's simulation.duration
  std::string signals;         ///< comma-separated glob patterns (docs/signals.md); empty: every signal
  long every = 1;              ///< keep every K-th output step (and the last)
  bool keepRows = true;        ///< false: peaks, energy and final state only (a sweep's case)
  /// Set by another thread to end the run after the current output step (Ctrl+C in Python);
  /// the run then returns with `error` = kBatchRunStopped.
  const std::atomic<bool>* stop = nullptr;
};

/// The `error` of a run ended through BatchRunOptions::stop.
inline constexpr const char* kBatchRunStopped = "stopped on request";

struct BatchRun {
  std::vector<std::string> columns;          ///< the kept signals, time first
  std::vector<double> rows;                  ///< row-major, columns.size() values per kept output step
  std::vector<JointPeaks> peaks;             ///< over every output step up to the last good one
  double energyStart = 0.0;                  ///< energy.total at t = 0 (J)
  double energyEnd = 0.0;                    ///< energy.total at the last good output
  double finalTime = 0.0;                    ///< s
  std::vector<std::string> coordinateNames;  ///< q:<joint>[k], the names of finalQ's entries
  std::vector<double> finalQ;                ///< (nq) at the last good output
  std::string error;                         ///< why the run stopped before the duration; empty when it did not
  std::size_t rowCount() const { return columns.empty() ? 0 : rows.size() / columns.size(); }
};

/// Runs `model` with `options`. Throws std::invalid_argument for an invalid model, settings that
/// cannot run (core/sim/run_limits.hpp), or signal patterns that match nothing; a run that stops
/// (NaN, a failed adaptive step) is returned with `error` set and what it recorded until then.
BatchRun runBatch(const Model& model, const BatchRunOptions& options);

}  // namespace kt
