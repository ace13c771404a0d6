// SPDX-License-Identifier: BSD-3-Clause
// Prescribed motions of one coordinate: q(t) with its analytic q̇(t) and q̈(t), never finite
// differences (docs/model-format.md, "Prescribed motion"). Three shapes, all defined for every t:
//
//   CubicSpline   C² cubic through knots (tᵢ, qᵢ), natural (q̈ = 0 at both ends), clamped
//                 (q̇ given at both ends), as Adams' CUBSPL, or not-a-knot (sampled data). Outside the knots it
//                 continues as the straight line of its end position and velocity (C¹, q̈ = 0).
//   RestToRest    moves q_a → q_b over [t_a, t_b] by the quintic
//                   q = q_a + (q_b − q_a) s(τ),  s = 10τ³ − 15τ⁴ + 6τ⁵,  τ = (t − t_a)/(t_b − t_a),
//                 zero velocity and acceleration at both ends, held outside; a sequence of such
//                 segments in time order, each starting where the previous one ended.
//   Sinusoid      q = offset + amplitude sin(2π f t + phase), as the drive's.
//
// Evaluation allocates nothing (binary search over the knots): the simulator calls it at every
// derivative evaluation. Construction checks its input and throws std::invalid_argument with a
// message that says what was expected; the model loader places it at the file's line.
#pragma once

#include <span>
#include <vector>

namespace kt {

/// Position, velocity and acceleration of one coordinate at one time.
struct MotionSample {
  double q = 0.0;
  double qd = 0.0;
  double qdd = 0.0;
};

class CubicSpline {
 public:
  CubicSpline() = default;
  /// Natural spline through (t[i], q[i]); t strictly increasing, at least 2 knots, all finite.
  static CubicSpline natural(std::span<const double> t, std::span<const double> q);
  /// Spline with q̇(t₀) = v0 and q̇(tₙ) = vn.
  static CubicSpline clamped(std::span<const double> t, std::span<const double> q, double v0, double vn);
  /// Not-a-knot spline (de Boor): the third derivative continuous across the second and the
  /// last-but-one knot, so that the ends take the data's own curvature. For sampled histories,
  /// whose ends are rarely at rest: a natural end would force q̈ = 0 there.
  static CubicSpline notAKnot(std::span<const double> t, std::span<const double> q);

  MotionSample at(double t) const;
  double firstTime() const { return t_.front(); }
  double lastTime() const { return t_.back(); }
  int knots() const { return static_cast<int>(t_.size()); }

 private:
  enum class Ends { Natural, Clamped, NotAKnot };
  static CubicSpline solve(std::span<const double> t, std::span<const double> q, Ends ends, double v0, double vn);
  std::vector<double> t_, q_, m_;  ///< knots and the second derivative at each (Mᵢ)
};

/// One rest-to-rest move of a coordinate: from qa at ta to qb at tb.
struct Move {
  double ta = 0.0, tb = 1.0;  ///< s, ta < tb
  double qa = 0.0, qb = 0.0;  ///< position at ta and tb
  bool operator==(const Move&) const = default;
};

class RestToRest {
 public:
  RestToRest() = default;
  /// Segments in time order, not overlapping (tb of one ≤ ta of the next), each starting at the
  /// position the previous one reached (a jump would be an infinite velocity).
  explicit RestToRest(std::vector<Move> segments);

  MotionSample at(double t) const;
  const std::vector<Move>& segments() const { return segments_; }

 private:
  std::vector<Move> segments_;
};

struct SinusoidMotion {
  double amplitude = 0.0, frequency = 0.0, phase = 0.0, offset = 0.0;
  MotionSample at(double t) const;
};

/// Zero-phase low-pass of uniformly sampled data: a second-order Butterworth filter with cutoff
/// `cutoffHz` run forward and backward (so its gain at the cutoff is 1/2 and the phase is zero),
/// the ends padded by odd reflection and started from the filter's steady state, as SciPy's
/// filtfilt does. `dt` is the sampling interval; cutoffHz must lie in (0, 1/(2 dt)). At least
/// 10 samples.
std::vector<double> lowPassZeroPhase(std::span<const double> x, double dt, double cutoffHz);

}  // namespace kt
