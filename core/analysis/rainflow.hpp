// SPDX-License-Identifier: BSD-3-Clause
// Fatigue cycles of a load signal (docs/reports.md): rainflow counting by ASTM E1049-85 (2017),
// §5.4.4, the range–mean histogram of the cycles, and the damage-equivalent load
//
//   DEL = (Σ nᵢ Sᵢᵐ / N_eq)^{1/m},
//
// nᵢ the count (1 or ½) and Sᵢ the range of each cycle, m the Wöhler (S–N curve) exponent, N_eq
// the number of equivalent cycles: the constant-range load that, N_eq times, does the damage of
// the signal under Miner's rule with an S–N curve N ∝ S⁻ᵐ.
//
// Counting (§5.4.4): the signal is first reduced to its peaks and valleys (turningPoints: a
// value that equals the one before it is dropped, and a point between two others on a
// monotonic run; the first and the last sample are kept). Then, reading the reversals in turn,
// with X the range just formed and Y the one before it:
//   X < Y: read on; X ≥ Y and Y holds the starting point: Y is a half cycle, the starting point
//   is discarded; X ≥ Y otherwise: Y is a cycle, its two points are discarded. The ranges left
//   at the end are half cycles.
// A cycle's range is |a − b| and its mean (a + b) / 2 over its two reversals a and b.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace kt {

/// Indices of the peaks and valleys of `x` (see the header comment), in order.
std::vector<std::size_t> turningPoints(std::span<const double> x);

/// One counted cycle: a full cycle (count 1) or a half (count ½).
struct Cycle {
  double range = 0.0;
  double mean = 0.0;
  double count = 1.0;
  std::size_t first = 0, last = 0;  ///< sample indices of its two reversals, first < last
};

/// Rainflow cycles of `x` by ASTM E1049-85 §5.4.4, in the order they are counted (the half
/// cycles left at the end last). Allocates.
std::vector<Cycle> rainflow(std::span<const double> x);

/// Σ nᵢ over the cycles: full cycles, halves as ½.
double cycleCount(std::span<const Cycle> cycles);

/// (Σ nᵢ Sᵢᵐ / nEq)^{1/m}; 0 without cycles. m > 0, nEq > 0.
double damageEquivalentLoad(std::span<const Cycle> cycles, double m, double nEq);

/// What a fatigue table shows of one signal's cycles: Σ nᵢ, the largest range with its mean and the
/// sample of its first reversal, and the DEL for m and nEq.
struct CycleSummary {
  double cycles = 0.0;
  double largestRange = 0.0;
  double largestMean = 0.0;
  std::size_t largestFirst = 0;  ///< sample index of the largest range's first reversal
  double del = 0.0;
};
CycleSummary summarizeCycles(std::span<const Cycle> cycles, double m, double nEq);

/// One row of a fatigue table (kinetree-cli fatigue, the Fatigue dock, the report).
struct FatigueTableRow {
  std::string signal;
  double cycles = 0.0, largestRange = 0.0, largestMean = 0.0;
  double largestTime = 0.0;  ///< s, the largest range's first reversal (0 without cycles)
  double del = 0.0;
};
/// The rows as `kinetree-cli fatigue --csv` writes them: signal, cycles, largest_range,
/// largest_range_mean, largest_range_t, del, wohler_m, n_eq (numbers that read back exactly).
std::string fatigueTableCsv(const std::vector<FatigueTableRow>& rows, double m, double nEq);

/// Cycle counts binned by range (rows) and mean (columns). Range bins split [0, largest range]
/// and mean bins [smallest mean, largest mean] evenly; a value on a bin's upper edge falls in
/// that bin.
struct RangeMeanHistogram {
  std::vector<double> rangeEdges;  ///< rangeBins + 1 edges
  std::vector<double> meanEdges;   ///< meanBins + 1 edges
  std::vector<double> counts;      ///< rangeBins × meanBins, row-major
  double count(std::size_t rangeBin, std::size_t meanBin) const {
    return counts[rangeBin * (meanEdges.size() - 1) + meanBin];
  }
};
RangeMeanHistogram rangeMeanHistogram(std::span<const Cycle> cycles, std::size_t rangeBins, std::size_t meanBins);

}  // namespace kt
