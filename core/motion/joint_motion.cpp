// SPDX-License-Identifier: BSD-3-Clause
#include "core/motion/joint_motion.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "core/model/text_util.hpp"

namespace kt {

std::vector<double> filteredSamples(std::span<const double> time, std::span<const double> values, double cutoff) {
  std::vector<double> out(values.begin(), values.end());
  if (!(cutoff > 0.0)) return out;
  const std::size_t n = time.size();
  if (n < 10) throw std::invalid_argument("filtering needs at least 10 samples, the table has " + std::to_string(n));
  const double dt = (time[n - 1] - time[0]) / static_cast<double>(n - 1);
  for (std::size_t i = 1; i < n; ++i)
    if (std::abs((time[i] - time[i - 1]) - dt) > 0.01 * dt)
      throw std::invalid_argument("filtering needs uniformly spaced samples: the interval from t = " +
                                  formatSignificant(time[i - 1], 6) + " s to " + formatSignificant(time[i], 6) +
                                  " s differs from the mean " + formatSignificant(dt, 6) + " s by more than 1 %");
  const double nyquist = 0.5 / dt;
  if (!(cutoff < nyquist))
    throw std::invalid_argument("the cutoff " + formatSignificant(cutoff, 6) +
                                " Hz must lie below the Nyquist frequency of the samples (" +
                                formatSignificant(nyquist, 6) + " Hz)");
  return lowPassZeroPhase(values, dt, cutoff);
}

JointMotion::JointMotion(const Motion& m, int nv, const CoordinateSamples* samples) {
  const auto entry = [](const std::vector<double>& v, int k) {
    return v.empty() ? 0.0 : v[static_cast<std::size_t>(std::min<int>(k, static_cast<int>(v.size()) - 1))];
  };
  // a motion that does not fit the joint is the validator's error; here it must not be read past its end
  const auto lists = [nv](std::size_t n, const char* what) {
    if (static_cast<int>(n) != nv)
      throw std::invalid_argument("has " + std::to_string(n) + " " + what + " lists, expected " + std::to_string(nv) +
                                  " (one per coordinate)");
  };
  if (m.type == MotionType::Spline) lists(m.knots.size(), "knot");
  if (m.type == MotionType::RestToRest) lists(m.moves.size(), "move");
  coordinates_.reserve(static_cast<std::size_t>(nv));
  for (int k = 0; k < nv; ++k) {
    switch (m.type) {
      case MotionType::None: coordinates_.emplace_back(SinusoidMotion{}); break;
      case MotionType::Spline: {
        const std::vector<Knot>& knots = m.knots[static_cast<std::size_t>(k)];
        std::vector<double> t, q;
        for (const Knot& kn : knots) {
          t.push_back(kn.t);
          q.push_back(kn.value);
        }
        if (m.startVelocity.empty() && m.endVelocity.empty())
          coordinates_.emplace_back(CubicSpline::natural(t, q));
        else
          coordinates_.emplace_back(CubicSpline::clamped(t, q, entry(m.startVelocity, k), entry(m.endVelocity, k)));
        break;
      }
      case MotionType::RestToRest: coordinates_.emplace_back(RestToRest(m.moves[static_cast<std::size_t>(k)])); break;
      case MotionType::Sinusoid:
        coordinates_.emplace_back(
            SinusoidMotion{entry(m.amplitude, k), entry(m.frequency, k), entry(m.phase, k), entry(m.offset, k)});
        break;
      case MotionType::Table: {
        if (samples == nullptr || static_cast<int>(samples->values.size()) != nv)
          throw std::invalid_argument("a table motion needs one column per coordinate");
        const std::vector<double> q =
            filteredSamples(samples->time, samples->values[static_cast<std::size_t>(k)], samples->cutoff);
        coordinates_.emplace_back(CubicSpline::notAKnot(samples->time, q));
        first_ = samples->time.front();
        last_ = samples->time.back();
        break;
      }
    }
  }
}

MotionSample JointMotion::at(int k, double t) const {
  return std::visit([t](const auto& profile) { return profile.at(t); }, coordinates_[static_cast<std::size_t>(k)]);
}

}  // namespace kt
