// SPDX-License-Identifier: BSD-3-Clause
// What a run can do: a known solver and integrator, and the limits on step, duration and tolerance
// that every front end checks the same way: a model's simulation: block (checkSimulationSettings,
// reported by the loader at the value's line and column) and kinetree-cli (reported with the
// option's name). A run outside them would overflow the count of output samples, never finish,
// or ask the arithmetic for more than a double holds. And whether a run can read the motion and
// drive tables a model names (checkRunTables), which validation of the model file alone does not.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"

namespace kt {

/// Most output samples (⌈duration / step⌉) one run may have: 10⁹ rows are some 100 GB of CSV
/// for a single body, and far beyond what the recorder or compare can hold.
constexpr double kMaxRunOutputs = 1e9;
/// Smallest step (and output interval), s: dopri5's own smallest step at t ≤ 1 s.
constexpr double kMinRunStep = 1e-12;
/// Smallest relative tolerance an adaptive integrator is given: some 45 ε. Below about 10 ε the
/// error test cannot pass (Hairer, Nørsett, Wanner, Solving ODEs I, §II.4, as their DOPRI5 code
/// refuses RTOL ≤ 10 UROUND), and the step would shrink to nothing.
constexpr double kMinRunTolerance = 1e-14;

struct RunSettingsIssue {
  std::string field;    ///< "step", "duration" or "tolerance"
  std::string message;  ///< what is wrong and what is expected ("must be > 0, got -1")
};

/// Every problem of these settings, each tied to one field (none when the run can go ahead).
std::vector<RunSettingsIssue> checkRunSettings(double step, double duration, double tolerance);

/// Every problem of a model's simulation: block, each with the YAML path of its field
/// ("simulation.solver"): an unknown solver or integrator name (with a "did you mean"), then
/// what checkRunSettings finds. Empty when a run with these settings can go ahead.
std::vector<Diagnostic> checkSimulationSettings(const SimulationSettings& settings);

/// Output samples after t = 0 of a run of `duration` at output interval `interval`:
/// ⌈duration / interval − 1e-9⌉, for settings that checkRunSettings accepts.
long runOutputCount(double duration, double interval);

/// True when every output of a run of `duration` (t_k = k · interval up to the first at or past
/// the duration, runOutputCount) lies within tables that end at `tableEnd` (+∞: no tables).
bool outputsWithin(double duration, double interval, double tableEnd);

struct Tree;

/// True when a joint of `model` follows a motion table or has a table drive (a CSV file).
bool readsTables(const Model& model);

/// Reads the tables of `model`'s motions and drives (relative to its source directory) and matches
/// them to its joints as a run does (Simulator): the first problem, at its file, line and column
/// (TableError), or none. `tree` is the model's (finalize).
std::vector<Diagnostic> checkRunTables(const Model& model, const Tree& tree);

}  // namespace kt
