// SPDX-License-Identifier: BSD-3-Clause
#include "core/motion/motion_profile.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/model/text_util.hpp"

namespace kt {

namespace {

std::string number(double x) { return formatSignificant(x, 6); }

void checkKnots(std::span<const double> t, std::span<const double> q) {
  if (t.size() != q.size()) throw std::invalid_argument("the times and the positions differ in count");
  if (t.size() < 2) throw std::invalid_argument("a spline needs at least 2 knots, got " + std::to_string(t.size()));
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t[i]) || !std::isfinite(q[i]))
      throw std::invalid_argument("knot " + std::to_string(i) + " is not a finite number");
    if (i > 0 && !(t[i] > t[i - 1]))
      throw std::invalid_argument("the knot times must increase: knot " + std::to_string(i) +
                                  " at t = " + number(t[i]) + " s follows t = " + number(t[i - 1]) + " s");
  }
}

}  // namespace

// The second derivatives Mᵢ of the interpolating cubic solve the tridiagonal system
//   h_{i−1} M_{i−1} + 2 (h_{i−1} + hᵢ) Mᵢ + hᵢ M_{i+1} = 6 (δᵢ − δ_{i−1}),  δᵢ = (q_{i+1} − qᵢ) / hᵢ,
// closed by M₀ = Mₙ = 0 (natural), by 2h₀M₀ + h₀M₁ = 6(δ₀ − v₀) and
// h_{n−1}M_{n−1} + 2h_{n−1}Mₙ = 6(vₙ − δ_{n−1}) (clamped), or (not-a-knot) by a third derivative
// continuous across t₁ and t_{n−1}: M₀ = ((h₀ + h₁) M₁ − h₀ M₂) / h₁ and its mirror at the end,
// eliminated from the first and last interior rows. Solved by the Thomas algorithm, which is
// stable here because the matrix is diagonally dominant.
CubicSpline CubicSpline::solve(std::span<const double> t, std::span<const double> q, Ends ends, double v0, double vn) {
  checkKnots(t, q);
  if (ends == Ends::Clamped && (!std::isfinite(v0) || !std::isfinite(vn)))
    throw std::invalid_argument("the end velocities must be finite numbers");
  const std::size_t n = t.size() - 1;
  std::vector<double> h(n), delta(n);
  for (std::size_t i = 0; i < n; ++i) {
    h[i] = t[i + 1] - t[i];
    delta[i] = (q[i + 1] - q[i]) / h[i];
  }
  CubicSpline s;
  s.t_.assign(t.begin(), t.end());
  s.q_.assign(q.begin(), q.end());
  s.m_.assign(n + 1, 0.0);
  if (ends == Ends::NotAKnot && n < 3) {
    // two knots: the straight line; three: the one parabola through them (q'' = 2 × its divided difference)
    if (n == 2) s.m_.assign(3, 2.0 * (delta[1] - delta[0]) / (h[0] + h[1]));
    return s;
  }
  std::vector<double> lower(n + 1, 0.0), diag(n + 1, 1.0), upper(n + 1, 0.0), rhs(n + 1, 0.0);
  for (std::size_t i = 1; i < n; ++i) {
    lower[i] = h[i - 1];
    diag[i] = 2.0 * (h[i - 1] + h[i]);
    upper[i] = h[i];
    rhs[i] = 6.0 * (delta[i] - delta[i - 1]);
  }
  std::size_t first = 0, last = n;  // the rows solved
  if (ends == Ends::Clamped) {
    diag[0] = 2.0 * h[0];
    upper[0] = h[0];
    rhs[0] = 6.0 * (delta[0] - v0);
    lower[n] = h[n - 1];
    diag[n] = 2.0 * h[n - 1];
    rhs[n] = 6.0 * (vn - delta[n - 1]);
  } else if (ends == Ends::NotAKnot) {
    first = 1;
    last = n - 1;
    diag[1] = (h[0] + h[1]) * (h[0] + 2.0 * h[1]) / h[1];
    upper[1] = (h[1] - h[0]) * (h[1] + h[0]) / h[1];
    lower[n - 1] = (h[n - 2] - h[n - 1]) * (h[n - 2] + h[n - 1]) / h[n - 2];
    diag[n - 1] = (h[n - 2] + h[n - 1]) * (2.0 * h[n - 2] + h[n - 1]) / h[n - 2];
  }
  for (std::size_t i = first + 1; i <= last; ++i) {
    const double w = lower[i] / diag[i - 1];
    diag[i] -= w * upper[i - 1];
    rhs[i] -= w * rhs[i - 1];
  }
  s.m_[last] = rhs[last] / diag[last];
  for (std::size_t i = last; i-- > first;) s.m_[i] = (rhs[i] - upper[i] * s.m_[i + 1]) / diag[i];
  if (ends == Ends::NotAKnot) {
    s.m_[0] = ((h[0] + h[1]) * s.m_[1] - h[0] * s.m_[2]) / h[1];
    s.m_[n] = ((h[n - 1] + h[n - 2]) * s.m_[n - 1] - h[n - 1] * s.m_[n - 2]) / h[n - 2];
  }
  return s;
}

CubicSpline CubicSpline::natural(std::span<const double> t, std::span<const double> q) {
  return solve(t, q, Ends::Natural, 0.0, 0.0);
}

CubicSpline CubicSpline::clamped(std::span<const double> t, std::span<const double> q, double v0, double vn) {
  return solve(t, q, Ends::Clamped, v0, vn);
}

CubicSpline CubicSpline::notAKnot(std::span<const double> t, std::span<const double> q) {
  return solve(t, q, Ends::NotAKnot, 0.0, 0.0);
}

MotionSample CubicSpline::at(double t) const {
  // On [tᵢ, tᵢ₊₁] with a = tᵢ₊₁ − t, b = t − tᵢ, h = tᵢ₊₁ − tᵢ:
  //   q = Mᵢ a³/6h + Mᵢ₊₁ b³/6h + (qᵢ/h − Mᵢh/6) a + (qᵢ₊₁/h − Mᵢ₊₁h/6) b
  const std::size_t last = t_.size() - 1;
  auto segment = [&](std::size_t i, double tt) {
    const double h = t_[i + 1] - t_[i];
    const double a = t_[i + 1] - tt, b = tt - t_[i];
    const double ci = q_[i] / h - m_[i] * h / 6.0, cj = q_[i + 1] / h - m_[i + 1] * h / 6.0;
    MotionSample s;
    s.q = (m_[i] * a * a * a + m_[i + 1] * b * b * b) / (6.0 * h) + ci * a + cj * b;
    s.qd = (m_[i + 1] * b * b - m_[i] * a * a) / (2.0 * h) - ci + cj;
    s.qdd = (m_[i] * a + m_[i + 1] * b) / h;
    return s;
  };
  if (t < t_.front() || t > t_.back()) {
    // the straight line of the end's position and velocity
    const bool before = t < t_.front();
    const double tEnd = before ? t_.front() : t_.back();
    MotionSample end = segment(before ? 0 : last - 1, tEnd);
    end.q += end.qd * (t - tEnd);
    end.qdd = 0.0;
    return end;
  }
  const auto it = std::upper_bound(t_.begin(), t_.end(), t);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(it - t_.begin()), last) - 1;
  return segment(i, t);
}

RestToRest::RestToRest(std::vector<Move> segments) : segments_(std::move(segments)) {
  if (segments_.empty()) throw std::invalid_argument("a rest-to-rest motion needs at least one segment");
  for (std::size_t k = 0; k < segments_.size(); ++k) {
    const Move& s = segments_[k];
    const std::string which = "segment " + std::to_string(k);
    if (!std::isfinite(s.ta) || !std::isfinite(s.tb) || !std::isfinite(s.qa) || !std::isfinite(s.qb))
      throw std::invalid_argument(which + " holds a value that is not a finite number");
    if (!(s.tb > s.ta))
      throw std::invalid_argument(which + ": the end time t_b = " + number(s.tb) +
                                  " s must be later than the start t_a = " + number(s.ta) + " s");
    if (k == 0) continue;
    const Move& p = segments_[k - 1];
    if (s.ta < p.tb)
      throw std::invalid_argument(which + " starts at t_a = " + number(s.ta) + " s, before segment " +
                                  std::to_string(k - 1) + " ends at t_b = " + number(p.tb) + " s");
    // the validator's tolerance (core/model/validate.cpp): a position written with one digit less
    // than the previous move's end is the same position
    if (std::abs(s.qa - p.qb) > 1e-12 * std::max(1.0, std::abs(p.qb)))
      throw std::invalid_argument(which + " starts at q_a = " + formatRoundTrip(s.qa) + " where segment " +
                                  std::to_string(k - 1) + " ended at q_b = " + formatRoundTrip(p.qb) +
                                  " (a jump in position needs an infinite velocity)");
  }
}

MotionSample RestToRest::at(double t) const {
  // the first segment not yet finished at t; before it (or after the last) the motion rests
  const auto it =
      std::lower_bound(segments_.begin(), segments_.end(), t, [](const Move& s, double tt) { return s.tb < tt; });
  if (it == segments_.end()) return {segments_.back().qb, 0.0, 0.0};
  const Move& s = *it;
  if (t <= s.ta) return {s.qa, 0.0, 0.0};
  const double T = s.tb - s.ta, d = s.qb - s.qa;
  const double u = (t - s.ta) / T;
  const double u2 = u * u, u3 = u2 * u;
  // s(u) = 10u³ − 15u⁴ + 6u⁵, s' = 30u² − 60u³ + 30u⁴, s'' = 60u − 180u² + 120u³
  const double shape = u3 * (10.0 + u * (-15.0 + 6.0 * u));
  const double slope = 30.0 * u2 * (1.0 + u * (-2.0 + u));
  const double curve = 60.0 * u * (1.0 + u * (-3.0 + 2.0 * u));
  return {s.qa + d * shape, d * slope / T, d * curve / (T * T)};
}

MotionSample SinusoidMotion::at(double t) const {
  const double w = 2.0 * std::numbers::pi * frequency;
  const double angle = w * t + phase;
  const double sn = std::sin(angle), cs = std::cos(angle);
  return {offset + amplitude * sn, amplitude * w * cs, -amplitude * w * w * sn};
}

std::vector<double> lowPassZeroPhase(std::span<const double> x, double dt, double cutoffHz) {
  if (!(dt > 0.0) || !std::isfinite(dt)) throw std::invalid_argument("the sampling interval must be positive");
  const double nyquist = 0.5 / dt;
  if (!(cutoffHz > 0.0) || !(cutoffHz < nyquist))
    throw std::invalid_argument("cutoff: must lie between 0 and the Nyquist frequency " + number(nyquist) +
                                " Hz of samples " + number(dt) + " s apart, got " + number(cutoffHz) + " Hz");
  const std::size_t n = x.size();
  if (n < 10) throw std::invalid_argument("a low-pass filter needs at least 10 samples, got " + std::to_string(n));
  // Second-order Butterworth by the bilinear transform with prewarping.
  const double k = std::tan(std::numbers::pi * cutoffHz * dt);
  const double norm = 1.0 / (1.0 + std::numbers::sqrt2 * k + k * k);
  const double b0 = k * k * norm, b1 = 2.0 * b0, b2 = b0;
  const double a1 = 2.0 * (k * k - 1.0) * norm, a2 = (1.0 - std::numbers::sqrt2 * k + k * k) * norm;
  // Transposed direct form II: y = b₀x + z₀, z₀ ← b₁x − a₁y + z₁, z₁ ← b₂x − a₂y. Each pass
  // starts from the filter's steady state for the straight line through its first two samples
  // (x_k = u + s k gives y_k = α + β k with β = g s, g the DC gain, and
  // α = g u + s (b₀ − b₂ − g (1 − a₂)) / (1 + a₁ + a₂)), so a signal that starts as a line, as
  // the odd padding makes it, passes without a start-up transient.
  const double den = 1.0 + a1 + a2;
  const double dcGain = (b0 + b1 + b2) / den;
  const std::size_t pad = std::min<std::size_t>(n - 1, 9);
  std::vector<double> ext(n + 2 * pad);
  for (std::size_t i = 0; i < pad; ++i) {
    ext[i] = 2.0 * x[0] - x[pad - i];
    ext[n + pad + i] = 2.0 * x[n - 1] - x[n - 2 - i];
  }
  std::copy(x.begin(), x.end(), ext.begin() + static_cast<std::ptrdiff_t>(pad));
  auto run = [&](std::vector<double>& v) {
    const double u = v[0], slope = v[1] - v[0];
    const double beta = dcGain * slope, alpha = dcGain * u + slope * (b0 - b2 - dcGain * (1.0 - a2)) / den;
    double z0 = alpha - b0 * u, z1 = b2 * (u - slope) - a2 * (alpha - beta);
    for (double& s : v) {
      const double in = s;
      const double out = b0 * in + z0;
      z0 = b1 * in - a1 * out + z1;
      z1 = b2 * in - a2 * out;
      s = out;
    }
  };
  run(ext);
  std::reverse(ext.begin(), ext.end());
  run(ext);
  std::reverse(ext.begin(), ext.end());
  return {ext.begin() + static_cast<std::ptrdiff_t>(pad), ext.begin() + static_cast<std::ptrdiff_t>(pad + n)};
}

}  // namespace kt
