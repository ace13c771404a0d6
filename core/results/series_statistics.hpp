// SPDX-License-Identifier: BSD-3-Clause
// Statistics of a recorded signal over a time range (docs/reports.md): what a plot pane shows
// for its visible range. Over the samples k with t0 ≤ t_k ≤ t1 (uniformly spaced: a run's
// outputs), x_k the recorded values:
//   min, max, peak-to-peak = max − min, mean = Σ x_k / n, RMS = √(Σ x_k² / n),
//   the time of the maximum (the first sample that reaches it).
#pragma once

#include <cstddef>
#include <limits>

namespace kt {

class Recorder;

struct SeriesStatistics {
  std::size_t samples = 0;  ///< n; the rest is NaN when 0
  double min = std::numeric_limits<double>::quiet_NaN();
  double max = std::numeric_limits<double>::quiet_NaN();
  double mean = std::numeric_limits<double>::quiet_NaN();
  double rms = std::numeric_limits<double>::quiet_NaN();
  double timeOfMax = std::numeric_limits<double>::quiet_NaN();
  double peakToPeak() const { return max - min; }
};

/// The statistics of `recorder`'s column `column` over [t0, t1]; non-finite values are skipped
/// (a failed run's last row).
SeriesStatistics seriesStatistics(const Recorder& recorder, int column, double t0, double t1);

}  // namespace kt
