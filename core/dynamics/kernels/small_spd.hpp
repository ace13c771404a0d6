// SPDX-License-Identifier: BSD-3-Clause
// The small-matrix kernel of the solvers: symmetric positive definite blocks of n ≤ 6 rows (a
// joint's articulated block S_iᵀ IA_i S_i, a CFA constraint block A_ii = T_iᵀ Ψ_i T_i), and the one
// dispatch from a run-time size to these compile-time sizes.
//
//   factor   A = L Lᵀ in place (Cholesky), with 1/L_jj kept for the solves; or A = L D Lᵀ, with 1/D_j
//   solve    B ← L⁻¹ B, B ← L⁻ᵀ B (forward and back substitution on B's rows; L unit or not)
//   inverse  L⁻¹, A⁻¹ = L⁻ᵀ L⁻¹ (exactly symmetric)
//
// Plain loops with compile-time bounds, unrolled (GCC leaves the triangular loop nests rolled
// without the pragma, with run-time packed indices): Eigen's solve with a matrix
// right-hand side takes its blocked path even at these sizes, and its generic inverse for n > 4
// is an unsymmetric LU. A lower triangle is anything with `L(i, j)` (an Eigen matrix or map, or
// PackedLower below); only entries with i ≥ j are read or written.
#pragma once

#include <array>
#include <cmath>

#include <Eigen/Core>

namespace kt {

/// Calls f.template operator()<N>() with N = n ∈ {0, …, 6}: per-joint blocks of fixed size (a
/// joint's n_v motion or 6 − n_v constraint coordinates).
template <class F>
inline void dispatchSize(int n, F&& f) {
  switch (n) {
    case 0: f.template operator()<0>(); break;
    case 1: f.template operator()<1>(); break;
    case 2: f.template operator()<2>(); break;
    case 3: f.template operator()<3>(); break;
    case 4: f.template operator()<4>(); break;
    case 5: f.template operator()<5>(); break;
    default: f.template operator()<6>(); break;
  }
}

/// The lower triangle of an N × N matrix (N ≤ 6) packed row by row: 21 doubles instead of 36.
struct PackedLower {
  std::array<double, 21> v{};
  static constexpr int index(int i, int j) { return i * (i + 1) / 2 + j; }
  double& operator()(int i, int j) { return v[static_cast<std::size_t>(index(i, j))]; }
  double operator()(int i, int j) const { return v[static_cast<std::size_t>(index(i, j))]; }
};

/// A = L Lᵀ in place: L(i, j), i ≥ j, holds A's lower triangle on entry and the factor on return;
/// invDiag[j] = 1 / L_jj. A must be symmetric positive definite (a non-positive pivot gives NaN).
template <int N, class Lower>
void choleskyInPlace(Lower& L, double* invDiag) {
#pragma GCC unroll 6
  for (int j = 0; j < N; ++j) {
    double d = L(j, j);
#pragma GCC unroll 6
    for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    const double ljj = std::sqrt(d);
    L(j, j) = ljj;
    invDiag[j] = 1.0 / ljj;
#pragma GCC unroll 6
    for (int i = j + 1; i < N; ++i) {
      double x = L(i, j);
#pragma GCC unroll 6
      for (int k = 0; k < j; ++k) x -= L(i, k) * L(j, k);
      L(i, j) = x * invDiag[j];
    }
  }
}

/// A = L D Lᵀ in place, L unit lower triangular: L(i, j), i > j, holds A's strict lower triangle on
/// entry and L's on return; L(j, j) holds A_jj on entry and D_j on return; invD[j] = 1 / D_j. No
/// square roots: where one factor waits for the last (cfa-tree along a chain), the N square roots
/// of the Cholesky factor are latency on the critical path. A must be symmetric positive definite.
template <int N, class Lower>
void ldltInPlace(Lower& L, double* invD) {
#pragma GCC unroll 6
  for (int j = 0; j < N; ++j) {
    std::array<double, N> w{};  // w_k = L_jk D_k
    double d = L(j, j);
#pragma GCC unroll 6
    for (int k = 0; k < j; ++k) {
      w[static_cast<std::size_t>(k)] = L(j, k) * L(k, k);
      d -= L(j, k) * w[static_cast<std::size_t>(k)];
    }
    L(j, j) = d;
    invD[j] = 1.0 / d;
#pragma GCC unroll 6
    for (int i = j + 1; i < N; ++i) {
      double x = L(i, j);
#pragma GCC unroll 6
      for (int k = 0; k < j; ++k) x -= L(i, k) * w[static_cast<std::size_t>(k)];
      L(i, j) = x * invD[j];
    }
  }
}

/// B ← L⁻¹ B for the unit lower triangular L of ldltInPlace (its diagonal is not read).
template <int N, class Lower, class Rows>
void solveUnitLower(const Lower& L, Rows&& B) {
#pragma GCC unroll 6
  for (int k = 1; k < N; ++k) {
#pragma GCC unroll 6
    for (int j = 0; j < k; ++j) B.row(k) -= L(k, j) * B.row(j);
  }
}

/// B ← L⁻ᵀ B for the unit lower triangular L of ldltInPlace.
template <int N, class Lower, class Rows>
void solveUnitLowerTransposed(const Lower& L, Rows&& B) {
#pragma GCC unroll 6
  for (int k = N - 2; k >= 0; --k) {
#pragma GCC unroll 6
    for (int j = k + 1; j < N; ++j) B.row(k) -= L(j, k) * B.row(j);
  }
}

/// B ← L⁻¹ B (forward substitution), B with N rows: a vector, a matrix, or the transpose of one
/// (B.row(k) is then a column, contiguous in memory).
template <int N, class Lower, class Rows>
void solveLower(const Lower& L, const double* invDiag, Rows&& B) {
#pragma GCC unroll 6
  for (int k = 0; k < N; ++k) {
#pragma GCC unroll 6
    for (int j = 0; j < k; ++j) B.row(k) -= L(k, j) * B.row(j);
    B.row(k) *= invDiag[k];
  }
}

/// B ← L⁻ᵀ B (back substitution), B with N rows.
template <int N, class Lower, class Rows>
void solveLowerTransposed(const Lower& L, const double* invDiag, Rows&& B) {
#pragma GCC unroll 6
  for (int k = N - 1; k >= 0; --k) {
#pragma GCC unroll 6
    for (int j = k + 1; j < N; ++j) B.row(k) -= L(j, k) * B.row(j);
    B.row(k) *= invDiag[k];
  }
}

/// L⁻¹ (lower triangular) for the Cholesky factor D = L Lᵀ of a symmetric positive definite N×N
/// matrix; only D's lower triangle is read.
template <int N>
Eigen::Matrix<double, N, N> inverseCholeskyFactor(const Eigen::Matrix<double, N, N>& D) {
  Eigen::Matrix<double, N, N> L = D;
  std::array<double, N> invDiag;
  choleskyInPlace<N>(L, invDiag.data());
  Eigen::Matrix<double, N, N> Li = Eigen::Matrix<double, N, N>::Zero();  // L⁻¹, lower triangular
  for (int j = 0; j < N; ++j) {
    Li(j, j) = invDiag[static_cast<std::size_t>(j)];
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
