// Small symmetric positive definite blocks (a joint's n × n articulated block, n ≤ 6), in plain
// loops the compiler unrolls (Eigen's solve with a matrix right-hand side takes its blocked path
// even at these sizes, and its generic inverse for n > 4 is an unsymmetric LU).
#pragma once

#include <cmath>

#include <Eigen/Core>

namespace kt {

/// L⁻¹ (lower triangular) for the Cholesky factor D = L Lᵀ of a symmetric positive definite N×N
/// matrix; only D's lower triangle is read.
template <int N>
Eigen::Matrix<double, N, N> inverseCholeskyFactor(const Eigen::Matrix<double, N, N>& D) {
  Eigen::Matrix<double, N, N> L = Eigen::Matrix<double, N, N>::Zero();
  for (int j = 0; j < N; ++j) {
    double d = D(j, j);
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    L(j, j) = std::sqrt(d);
    const double inv = 1.0 / L(j, j);
    for (int i = j + 1; i < N; ++i) {
      double x = D(i, j);
      for (int k = 0; k < j; ++k) x -= L(i, k) * L(j, k);
      L(i, j) = x * inv;
    }
  }
  Eigen::Matrix<double, N, N> Li = Eigen::Matrix<double, N, N>::Zero();  // L⁻¹, lower triangular
  for (int j = 0; j < N; ++j) {
    Li(j, j) = 1.0 / L(j, j);
    for (int i = j + 1; i < N; ++i) {
      double x = 0.0;
      for (int k = j; k < i; ++k) x -= L(i, k) * Li(k, j);
      Li(i, j) = x / L(i, i);
    }
  }
  return Li;
}

/// D⁻¹ of a symmetric positive definite N×N matrix: D = L Lᵀ, D⁻¹ = L⁻ᵀ L⁻¹ (exactly symmetric).
template <int N>
Eigen::Matrix<double, N, N> inverseSpd(const Eigen::Matrix<double, N, N>& D) {
  const Eigen::Matrix<double, N, N> Li = inverseCholeskyFactor<N>(D);
  return Li.transpose() * Li;
}

}  // namespace kt
