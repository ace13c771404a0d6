// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/editing/round_values.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <numbers>

namespace kt {

double roundToShortDecimal(double x, int ulps) {
  if (!std::isfinite(x) || x == 0.0) return x;
  const double tolerance = ulps * (std::nextafter(std::abs(x), std::numeric_limits<double>::infinity()) - std::abs(x));
  char buf[64];
  for (int digits = 1; digits <= 12; ++digits) {
    // the decimal of `digits` significant digits nearest to x, read back exactly as it is written
    const auto written = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific, digits - 1);
    double candidate = 0.0;
    std::from_chars(buf, written.ptr, candidate);
    if (std::abs(candidate - x) <= tolerance) return candidate;
  }
  return x;
}

double roundComputed(double x, double scale) {
  if (std::abs(x) <= 64.0 * std::numeric_limits<double>::epsilon() * std::abs(scale)) return 0.0;
  return roundToShortDecimal(x);
}

void roundComputed(MassProperties& mp) {
  mp.mass = roundToShortDecimal(mp.mass);
  const double length = std::max(1.0, mp.com.cwiseAbs().maxCoeff());
  for (int k = 0; k < 3; ++k) mp.com[k] = roundComputed(mp.com[k], length);
  const double inertia = mp.inertia.cwiseAbs().maxCoeff();
  for (int r = 0; r < 3; ++r) {
    for (int c = r; c < 3; ++c) {
      mp.inertia(r, c) = roundComputed(mp.inertia(r, c), inertia);
      mp.inertia(c, r) = mp.inertia(r, c);  // stays exactly symmetric
    }
  }
}

double roundAngle(double x) {
  if (!std::isfinite(x)) return x;
  const double degrees = std::round(x / std::numbers::pi * 180.0);
  const double canonical = std::numbers::pi * (degrees / 180.0);
  const double ulp = std::nextafter(std::abs(canonical), std::numeric_limits<double>::infinity()) - std::abs(canonical);
  if (std::abs(x - canonical) <= 8.0 * std::max(ulp, std::numeric_limits<double>::denorm_min())) return canonical + 0.0;
  return roundComputed(x, std::numbers::pi);
}

void roundComputed(Placement& placement) {
  const double length = std::max(1.0, placement.xyz.cwiseAbs().maxCoeff());
  for (int k = 0; k < 3; ++k) placement.xyz[k] = roundComputed(placement.xyz[k], length);
  if (placement.useQuaternion) {
    for (int k = 0; k < 4; ++k) placement.quat[k] = roundComputed(placement.quat[k], 1.0);
  } else {
    for (int k = 0; k < 3; ++k) placement.rpy[k] = roundAngle(placement.rpy[k]);
  }
}

}  // namespace kt
