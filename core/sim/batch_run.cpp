// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/batch_run.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/model/text_util.hpp"
#include "core/results/signals.hpp"
#include "core/sim/run_limits.hpp"

namespace kt {
namespace {

// The numbers a run may keep in memory (16 GB of doubles); a longer run is refused before it starts.
constexpr double kMaxBatchValues = 2e9;

}  // namespace

BatchRun runBatch(const Model& model, const BatchRunOptions& options) {
  const double duration = options.duration > 0.0 ? options.duration : model.simulation.duration;
  SimulatorOptions simOptions = options.simulator;
  simOptions.record = false;
  std::string problems;
  for (const RunSettingsIssue& issue : checkRunSettings(simOptions.step, duration, simOptions.tolerance))
    problems += (problems.empty() ? "" : "; ") + issue.field + ": " + issue.message;
  if (!problems.empty()) throw std::invalid_argument(problems);
  if (options.every < 1) throw std::invalid_argument("every: must be a positive integer");

  Simulator sim(model, simOptions);
  if (!sim.tablesCover(duration))
    throw std::invalid_argument("the run of " + formatRoundTrip(duration) +
                                " s runs past the data: " + sim.tableEndMessage());
  const SignalLayout& layout = sim.signalLayout();
  std::vector<int> columns;
  std::string error;
  if (!selectSignals(layout.names(), options.signals, columns, error)) throw std::invalid_argument(error);
  if (columns.empty() || columns.front() != 0) {  // time first
    std::erase(columns, 0);
    columns.insert(columns.begin(), 0);
  }
  BatchRun run;
  for (int c : columns) run.columns.push_back(layout.names()[c]);
  const int energy = layout.find("energy.total");
  PeakLoads peaks(sim.tree(), layout, PeakLoads::ratingsOf(sim.model(), sim.tree()));

  const long outputs = runOutputCount(duration, sim.outputInterval());
  const long keptRows = outputs / options.every + 2;  // at most: every k-th output, the first, the last
  const double values = static_cast<double>(columns.size()) * static_cast<double>(keptRows);
  if (options.keepRows && values > kMaxBatchValues)
    throw std::invalid_argument("the run would keep " + std::to_string(static_cast<long long>(values)) +
                                " numbers (more than " +
                                std::to_string(static_cast<long long>(kMaxBatchValues) / 125'000'000) +
                                " GB): keep fewer signals or every k-th step");
  if (options.keepRows) run.rows.reserve(static_cast<std::size_t>(std::min(values, 1e7)));
  bool keptLast = true;  // the current output is in the rows
  const auto keep = [&] {
    const std::vector<double>& sample = sim.sample();
    for (int c : columns) run.rows.push_back(sample[static_cast<std::size_t>(c)]);
  };
  peaks.add(sim.sample().data());
  if (options.keepRows) keep();
  run.energyStart = energy >= 0 ? sim.sample()[static_cast<std::size_t>(energy)] : 0.0;
  for (long k = 0; k < outputs; ++k) {
    if (options.stop && options.stop->load(std::memory_order_relaxed)) {
      run.error = kBatchRunStopped;
      if (options.keepRows && !keptLast) keep();
      break;
    }
    if (!sim.step()) {
      run.error = sim.error();
      if (options.keepRows && !keptLast) keep();  // the last good state ends the rows
      break;
    }
    peaks.add(sim.sample().data());
    keptLast = (k + 1) % options.every == 0 || k + 1 == outputs;
    if (options.keepRows && keptLast) keep();
  }
  run.peaks = peaks.joints();
  run.energyEnd = energy >= 0 ? sim.sample()[static_cast<std::size_t>(energy)] : 0.0;
  run.finalTime = sim.time();
  run.finalQ.assign(sim.q().data(), sim.q().data() + sim.q().size());
  for (const SignalInfo& s : layout.infos())  // in the order of q
    if (s.kind == SignalKind::Q) run.coordinateNames.push_back(s.name);
  return run;
}

}  // namespace kt
