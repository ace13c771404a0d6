// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/series_statistics.hpp"

#include <algorithm>
#include <cmath>

#include "core/results/recorder.hpp"

namespace kt {

SeriesStatistics seriesStatistics(const Recorder& recorder, int column, double t0, double t1) {
  SeriesStatistics s;
  double sum = 0.0, sumSquares = 0.0;
  recorder.read([&](const Recorder::Rows& rows) {
    // the rows of the range, found by binary search
    const std::size_t first = rows.firstRowWhere([t0](double t) { return t >= t0; });
    const std::size_t end = rows.firstRowWhere([t1](double t) { return t > t1; });
    rows.forEachRow(first, end, [&](std::size_t, const double* row) {
      const double x = row[column];
      if (!std::isfinite(x)) return;
      if (s.samples == 0 || x > s.max) {
        s.max = x;
        s.timeOfMax = row[0];
      }
      s.min = s.samples == 0 ? x : std::min(s.min, x);
      sum += x;
      sumSquares += x * x;
      ++s.samples;
    });
  });
  if (s.samples > 0) {
    s.mean = sum / static_cast<double>(s.samples);
    s.rms = std::sqrt(sumSquares / static_cast<double>(s.samples));
  }
  return s;
}

}  // namespace kt
