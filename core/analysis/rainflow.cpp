// SPDX-License-Identifier: BSD-3-Clause
#include "core/analysis/rainflow.hpp"

#include "core/model/text_util.hpp"

#include <algorithm>
#include <cmath>

namespace kt {

std::vector<std::size_t> turningPoints(std::span<const double> x) {
  std::vector<std::size_t> points;
  if (x.empty()) return points;
  points.push_back(0);
  int direction = 0;  // +1 rising, −1 falling, 0 not yet known
  for (std::size_t k = 1; k < x.size(); ++k) {
    const double step = x[k] - x[points.back()];
    if (step == 0.0) continue;  // a plateau: one point
    const int now = step > 0.0 ? 1 : -1;
    if (now == direction)
      points.back() = k;  // the run goes on: its end moves
    else
      points.push_back(k);  // a reversal at the previous point; k ends the new run so far
    direction = now;
  }
  return points;
}

std::vector<Cycle> rainflow(std::span<const double> x) {
  const std::vector<std::size_t> reversals = turningPoints(x);
  std::vector<Cycle> cycles;
  std::vector<std::size_t> stack;  // reversals read and not yet discarded; stack[0] the starting point
  const auto cycleOf = [&](std::size_t a, std::size_t b, double count) {
    Cycle c;
    c.range = std::abs(x[a] - x[b]);
    c.mean = 0.5 * (x[a] + x[b]);
    c.count = count;
    c.first = std::min(a, b);
    c.last = std::max(a, b);
    return c;
  };
  for (const std::size_t r : reversals) {
    stack.push_back(r);  // step 1
    // steps 2–5, while three points form X and Y
    while (stack.size() >= 3) {
      const std::size_t n = stack.size();
      const double X = std::abs(x[stack[n - 1]] - x[stack[n - 2]]);
      const double Y = std::abs(x[stack[n - 2]] - x[stack[n - 3]]);
      if (X < Y) break;
      if (n == 3) {
        // Y holds the starting point: a half cycle, and the start moves to Y's second point
        cycles.push_back(cycleOf(stack[0], stack[1], 0.5));
        stack.erase(stack.begin());
      } else {
        // a full cycle: Y's two points go
        cycles.push_back(cycleOf(stack[n - 3], stack[n - 2], 1.0));
        stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(n - 3),
                    stack.begin() + static_cast<std::ptrdiff_t>(n - 1));
      }
    }
  }
  // step 6: every range left is a half cycle
  for (std::size_t k = 0; k + 1 < stack.size(); ++k) cycles.push_back(cycleOf(stack[k], stack[k + 1], 0.5));
  return cycles;
}

double cycleCount(std::span<const Cycle> cycles) {
  double n = 0.0;
  for (const Cycle& c : cycles) n += c.count;
  return n;
}

double damageEquivalentLoad(std::span<const Cycle> cycles, double m, double nEq) {
  double sum = 0.0;
  for (const Cycle& c : cycles) sum += c.count * std::pow(c.range, m);
  return sum > 0.0 ? std::pow(sum / nEq, 1.0 / m) : 0.0;
}

RangeMeanHistogram rangeMeanHistogram(std::span<const Cycle> cycles, std::size_t rangeBins, std::size_t meanBins) {
  RangeMeanHistogram h;
  rangeBins = std::max<std::size_t>(rangeBins, 1);
  meanBins = std::max<std::size_t>(meanBins, 1);
  double rangeMax = 0.0, meanMin = 0.0, meanMax = 0.0;
  for (std::size_t k = 0; k < cycles.size(); ++k) {
    rangeMax = std::max(rangeMax, cycles[k].range);
    meanMin = k == 0 ? cycles[k].mean : std::min(meanMin, cycles[k].mean);
    meanMax = k == 0 ? cycles[k].mean : std::max(meanMax, cycles[k].mean);
  }
  if (meanMax == meanMin) {  // one mean: a bin of width 1 around it
    meanMin -= 0.5;
    meanMax += 0.5;
  }
  if (rangeMax == 0.0) rangeMax = 1.0;
  for (std::size_t k = 0; k <= rangeBins; ++k)
    h.rangeEdges.push_back(rangeMax * static_cast<double>(k) / static_cast<double>(rangeBins));
  for (std::size_t k = 0; k <= meanBins; ++k)
    h.meanEdges.push_back(meanMin + (meanMax - meanMin) * static_cast<double>(k) / static_cast<double>(meanBins));
  h.counts.assign(rangeBins * meanBins, 0.0);
  const auto bin = [](double v, double lo, double hi, std::size_t bins) {
    // a value on a bin's upper edge belongs to that bin: ceil, then one down
    const double u = (v - lo) / (hi - lo) * static_cast<double>(bins);
    const auto k = static_cast<std::ptrdiff_t>(std::ceil(u)) - 1;
    return static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(k, 0, static_cast<std::ptrdiff_t>(bins) - 1));
  };
  for (const Cycle& c : cycles)
    h.counts[bin(c.range, 0.0, rangeMax, rangeBins) * meanBins + bin(c.mean, meanMin, meanMax, meanBins)] += c.count;
  return h;
}

CycleSummary summarizeCycles(std::span<const Cycle> cycles, double m, double nEq) {
  CycleSummary s;
  s.cycles = cycleCount(cycles);
  s.del = damageEquivalentLoad(cycles, m, nEq);
  for (const Cycle& c : cycles)
    if (c.range > s.largestRange) {
      s.largestRange = c.range;
      s.largestMean = c.mean;
      s.largestFirst = c.first;
    }
  return s;
}

std::string fatigueTableCsv(const std::vector<FatigueTableRow>& rows, double m, double nEq) {
  std::string out = "signal,cycles,largest_range,largest_range_mean,largest_range_t,del,wohler_m,n_eq\n";
  for (const FatigueTableRow& r : rows)
    out += r.signal + "," + formatRoundTrip(r.cycles) + "," + formatRoundTrip(r.largestRange) + "," +
           formatRoundTrip(r.largestMean) + "," + formatRoundTrip(r.largestTime) + "," + formatRoundTrip(r.del) + "," +
           formatRoundTrip(m) + "," + formatRoundTrip(nEq) + "\n";
  return out;
}

}  // namespace kt
