// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/signal_run.hpp"

#include <cstdio>
#include <memory>

#include "core/model/text_util.hpp"
#include "core/results/signals.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {

int runForSignals(const char* command, const char* usage, const std::string& modelPath,
                  const std::vector<std::string>& packagePaths, const RunChoices& choices, const std::string& patterns,
                  SignalRun& out) {
  if (patterns.empty()) {
    std::fprintf(stderr, "kinetree-cli %s: --signals PATTERN is required (for example 'reaction:J11.*')\n%s", command,
                 usage);
    return 2;
  }
  std::unique_ptr<Simulator> sim;
  double duration = 0.0;
  if (const int failed = streamingRun(command, usage, modelPath, packagePaths, choices, sim, duration)) return failed;
  std::vector<int> columns;
  std::string error;
  if (!selectSignals(sim->signalLayout().names(), patterns, columns, error)) {
    std::fprintf(stderr, "kinetree-cli %s: %s\n", command, error.c_str());
    return 2;
  }
  std::erase(columns, 0);  // time is the axis, not a signal
  if (columns.empty()) {
    std::fprintf(stderr, "kinetree-cli %s: --signals '%s' names no signal but time\n", command,
                 printable(patterns).c_str());
    return 2;
  }
  const long outputs = runOutputCount(duration, sim->outputInterval());
  out.names.clear();
  for (int c : columns) out.names.push_back(sim->signalLayout().names()[static_cast<std::size_t>(c)]);
  out.values.assign(columns.size(), {});
  for (std::vector<double>& v : out.values) v.reserve(static_cast<std::size_t>(outputs) + 1);
  const auto take = [&] {
    const std::vector<double>& sample = sim->sample();
    for (std::size_t k = 0; k < columns.size(); ++k)
      out.values[k].push_back(sample[static_cast<std::size_t>(columns[k])]);
  };
  take();
  for (long k = 0; k < outputs; ++k) {
    if (!sim->step()) {
      std::fprintf(stderr, "%s: simulation stopped: %s\n", printable(modelPath).c_str(), sim->error().c_str());
      return 1;
    }
    take();
  }
  out.interval = sim->outputInterval();
  out.duration = sim->time();  // the time of the last sample
  return 0;
}

}  // namespace kt::cli
