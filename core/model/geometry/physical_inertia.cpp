// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/geometry/physical_inertia.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace kt {

bool isPhysicalInertia(const Mat3& I) {
  if (!I.allFinite()) return false;
  const double scale = I.cwiseAbs().maxCoeff();
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) return false;
  for (int k = 0; k < 3; ++k)
    if (!(I(k, k) > 0.0)) return false;
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
  const Vec3& p = eig.eigenvalues();  // ascending
  return p[0] > kInertiaPdRelTol * p[2] && p[2] <= p[0] + p[1] + kInertiaTriangleRelTol * p.sum();
}

InertiaRepair nearestPhysicalInertia(const Mat3& I, double mass) {
  InertiaRepair r;
  const Mat3 S = 0.5 * (I + I.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(S);
  const Mat3& R = eig.eigenvectors();
  r.before = eig.eigenvalues();
  Vec3 p = r.before;
  // 1. a floor under every moment
  constexpr double kRelativeFloor = 1e-6, kRadiusOfGyration = 1e-3;  // m
  const double floor = std::max(kRelativeFloor * std::max(p[2], 0.0), mass * kRadiusOfGyration * kRadiusOfGyration);
  for (int k = 0; k < 3; ++k) p[k] = std::max(p[k], floor);
  // 2. onto the triangle inequality by the least-squares move (the order is kept: p₂ − δ/3 stays
  // above p₁ + δ/3 since p₂ = p₀ + p₁ + δ)
  const double excess = p[2] - p[0] - p[1];
  if (excess > 0.0) {
    p[0] += excess / 3.0;
    p[1] += excess / 3.0;
    p[2] -= excess / 3.0;
  }
  r.after = p;
  const Mat3 repaired = R * p.asDiagonal() * R.transpose();
  r.inertia = 0.5 * (repaired + repaired.transpose());
  const double norm = S.norm();
  r.relativeChange = norm > 0.0 ? (r.inertia - S).norm() / norm : 1.0;
  return r;
}

}  // namespace kt
