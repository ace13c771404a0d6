// SPDX-License-Identifier: BSD-3-Clause
// Tick marks of a value axis, the same on screen (ChartPane) and in exported figures (ChartFigure):
// a step of 1, 2 or 5 × 10^k and labels at its multiples.
#pragma once

#include <QString>
#include <cmath>
#include <vector>

namespace kt::render {

/// A tick step of 1, 2 or 5 × 10^k giving about `count` ticks over `span` (1 for an empty span).
inline double tickStep(double span, int count) {
  if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
  const double raw = span / count;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

/// The ticks at the multiples of `step` from lo to hi, each formed as k × step; none where the step
/// cannot move a value of the range (a range within rounding of a constant) or would give more
/// than 1000.
inline std::vector<double> tickValues(double lo, double hi, double step) {
  std::vector<double> out;
  if (!(step > 0.0) || !(hi >= lo) || !std::isfinite(hi - lo) || !((hi - lo) / step <= 1000.0)) return out;
  if (lo + step == lo || hi + step == hi) return out;  // finer than the numbers of the range can hold
  const double k0 = std::ceil(lo / step), k1 = std::floor(hi / step + 1e-9);
  for (double k = k0; k <= k1; k += 1.0) out.push_back(k * step);
  return out;
}

/// The label of the tick at x on an axis with ticks `step` apart.
inline QString tickText(double x, double step) {
  if (std::abs(x) < 1e-9 * step) x = 0.0;  // no "-1.2e-17" for zero
  return QString::number(x, 'g', 6);
}

}  // namespace kt::render
