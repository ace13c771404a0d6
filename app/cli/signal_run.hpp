// SPDX-License-Identifier: BSD-3-Clause
// The run of the commands that analyse whole signals (spectrum, fatigue): the model run as
// `simulate` runs it, the signals that --signals names kept in memory, one column each.
#pragma once

#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"

namespace kt::cli {

struct SignalRun {
  std::vector<std::string> names;           ///< the chosen signals, in layout order
  std::vector<std::vector<double>> values;  ///< one column per name, one value per output time
  double interval = 0.0;                    ///< s between samples
  double duration = 0.0;                    ///< s, the time of the last sample
};

/// Runs `modelPath` with `choices` and keeps the signals matching `patterns` (globs, as
/// `simulate --signals`; time is never one). Returns 0, or the exit status with the message on
/// stderr: 1 for the model or a failed run, 2 for the command line (no pattern, none matches).
int runForSignals(const char* command, const char* usage, const std::string& modelPath,
                  const std::vector<std::string>& packagePaths, const RunChoices& choices, const std::string& patterns,
                  SignalRun& out);

}  // namespace kt::cli
