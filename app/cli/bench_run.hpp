// SPDX-License-Identifier: BSD-3-Clause
// What a whole run costs beyond its dynamics (kinetree-cli bench --simulate): a run at h = 0.002 s
// with rk4 (Liu et al. 2016, Table 1), every step an output as in an interactive run, timed on
// the same model, solver and steps, interleaved:
//   dynamics   a bare RK4 loop: the drives and q̈ alone at every stage, the state update;
//   outputs    a recording run, as the application makes it, less the bare loop of its round: what each output
//              adds on the run's thread (the joint loads, the measured signals written in place in
//              the recorder, the finiteness check);
//   derived    the first read of that recording: the derived signals (load_parent:, attitude:,
//              position:, energy., momentum.) of every row, which a recording run leaves to its
//              readers (core/results/signal_deriver.hpp);
//   streaming  a run that records nothing, less the bare loop: each output derived as it is made,
//              as kinetree-cli simulate and the batch runs take them;
// and, apart from the runs, csv: writing every sample as a CSV row (kinetree-cli simulate's output
// of every signal, to /dev/null).
#pragma once

#include <string>

#include "core/model/model.hpp"

namespace kt::cli {

/// CPU seconds of the calling thread: time spent descheduled on a busy machine is not counted.
double threadSeconds();

struct RunSplit {
  double duration = 0.0;   ///< simulated seconds
  double dynamics = 0.0;   ///< s: the bare RK4 loop
  double recorded = 0.0;   ///< s: the recording run
  double outputs = 0.0;    ///< s: a recording run, less the bare loop of its round
  double derived = 0.0;    ///< s: deriving every recorded row when it is first read
  double streaming = 0.0;  ///< s: a run recording nothing (deriving every output), less the bare loop
  double csv = 0.0;        ///< s: every sample as a CSV row
  /// outputs / dynamics: the run's cost beyond the dynamics.
  double overhead() const { return outputs / dynamics; }
};

/// Times the parts of a run of `duration` simulated seconds of `model` with `solver`, each the
/// median of `repeat` runs (the CSV once). Throws std::runtime_error when a run stops early.
RunSplit timeRunSplit(const Model& model, const std::string& solver, double duration, int repeat);

}  // namespace kt::cli
