// SPDX-License-Identifier: BSD-3-Clause
// A joint's prescribed motion (Motion, core/model/model.hpp) as one profile per coordinate
// (core/motion/motion_profile.hpp), evaluated for q, q̇ and q̈ at any time without allocating.
// Table motions take their samples from a MotionTable (core/io/motion_table.hpp) read by the
// caller: this folder reads no files.
#pragma once

#include <limits>
#include <span>
#include <variant>
#include <vector>

#include "core/model/model.hpp"

namespace kt {

/// Samples of one joint's coordinates from a table: the times and one column per coordinate (SI).
struct CoordinateSamples {
  std::span<const double> time;
  std::vector<std::span<const double>> values;  ///< (nv) one column per coordinate
  double cutoff = 0.0;                          ///< Hz: zero-phase low-pass before the spline; 0 = none
};

class JointMotion {
 public:
  JointMotion() = default;
  /// The motion `m` of a joint with `nv` coordinates (validated: Model's rules). Table motions
  /// need `samples`. Throws std::invalid_argument when the profile cannot be built (the message
  /// says why: a filter cutoff above the Nyquist frequency, samples too few or not uniform
  /// enough to filter, …).
  JointMotion(const Motion& m, int nv, const CoordinateSamples* samples = nullptr);

  int size() const { return static_cast<int>(coordinates_.size()); }
  /// q, q̇, q̈ of coordinate k at t.
  MotionSample at(int k, double t) const;
  /// The first and last time the motion is defined by data (tables: the samples; ±∞ otherwise).
  double firstTime() const { return first_; }
  double lastTime() const { return last_; }

 private:
  std::vector<std::variant<CubicSpline, RestToRest, SinusoidMotion>> coordinates_;
  double first_ = -std::numeric_limits<double>::infinity();
  double last_ = std::numeric_limits<double>::infinity();
};

/// Samples low-passed at `cutoff` Hz with zero phase (lowPassZeroPhase) when cutoff > 0, else as
/// they are. Throws std::invalid_argument when they cannot be filtered: fewer than 10 samples,
/// intervals that differ from their mean by more than 1 %, or a cutoff at or above the Nyquist
/// frequency.
std::vector<double> filteredSamples(std::span<const double> time, std::span<const double> values, double cutoff);

}  // namespace kt
