// SPDX-License-Identifier: BSD-3-Clause
// The two ways the Poisson solvers keep the factor of a joint's block S_iᵀ M*_i S_i (Ivanov 2017,
// §3 and §4; docs/dynamics.md §6): the parameter of PoissonSolver (poisson_solver.hpp), which
// runs the same passes with either. Each answers four questions about joint i (n_i = NV):
//
//   factor              factor S_iᵀ M*_i S_i and keep what the later passes need
//   schurRows           V_i with V_iᵀ V_i = U_i (S_iᵀ M*_i S_i)⁻¹ U_iᵀ, U_i = M*_i S_i, from what
//                       factor returned (the parent's update M*_i − V_iᵀ V_i, one triangle,
//                       symmetric positive semidefinite)
//   solveTowardsBase    k_i from a right-hand side r_i = b_i − S_iᵀ (…) on the tip-to-base pass
//   handedUp            what the right-hand side then hands to the parent: base + U_i D_i k_i, as kept
//   solveTowardsTips    x_i from k_i and the parent's motion y = ⁱX_p v_p (or ⁱX_p a_p) on the
//                       base-to-tip pass
//
// Each is always inlined into the passes: called once per body, a call would cost more than the
// few operations it names.
#pragma once

#include <string_view>
#include <vector>

#include "core/dynamics/kernels/small_spd.hpp"
#include "core/dynamics/poisson/poisson_common.hpp"

namespace kt {

/// Sweep, "метод прогонки" (Ivanov §3, "Алгоритм метода прогонки"), the explicit inverse:
///
///   for i = N … 1 (tip to base)
///     D_i = (S_iᵀ M*_i S_i)⁻¹                        explicit inverse (n_i × n_i)
///     H_i = 1 − M*_i S_i D_i S_iᵀ
///     M*_p += ⁱX_pᵀ H_i M*_i ⁱX_p                    (H_i M*_i = M*_i − U_i D_i U_iᵀ)
///     φ*_p += ⁱX_pᵀ (M*_i S_i D_i p_i + H_i φ*_i)    = ⁱX_pᵀ (φ*_i + U_i u_i),  u_i = D_i (p_i − S_iᵀ φ*_i)
///   for i = 1 … N (base to tip)
///     ν_i = D_i (p_i − S_iᵀ (φ*_i + M*_i ⁱX_p v_p))  = u_i − D_i U_iᵀ ⁱX_p v_p
///
/// Ivanov notes that the matrices the sweep inverts are symmetric positive definite, and the
/// inverse uses it: D_i = L_i⁻ᵀ L_i⁻¹ from the Cholesky factor L_i L_iᵀ = S_iᵀ M*_i S_i (LU would
/// not keep it symmetric), and H_i M*_i = M*_i − V_iᵀ V_i with V_i = L_i⁻¹ U_iᵀ (U_i (D_i U_iᵀ) in
/// floating point is not symmetric, and loses κ(S_iᵀ M*_i S_i) ε ‖M*_i‖; docs/dynamics.md §6 gives
/// the errors of each form). A free joint (S_i = 1) takes H_i = 0 and D_i M*_i = 1 exactly
/// (kExactFreeJoint; PoissonSolver::backwardBody).
class ExplicitInverse {
 public:
  static constexpr std::string_view kName = "poisson-sweep";
  static constexpr bool kExactFreeJoint = true;

  /// D_i of joint i (n × n), as the last factorization left it (the algorithm stepper).
  Eigen::MatrixXd inverseBlock(int i, int n) const {
    return Eigen::Map<const Eigen::MatrixXd>(Dpool_.data() + dOffset_[i], n, n);
  }

  explicit ExplicitInverse(const Tree& tree) : dOffset_(tree.nb), Upool_(6 * static_cast<std::size_t>(tree.nv), 0.0) {
    int n2 = 0;
    for (int i = 0; i < tree.nb; ++i) {
      dOffset_[i] = n2;
      n2 += tree.joints[i].nv * tree.joints[i].nv;
    }
    Dpool_.assign(n2, 0.0);
  }

  /// Keeps D_i and U_i; returns L_i⁻¹.
  template <int NV, class SMap>
  [[gnu::always_inline]] MatNN<NV> factor(int i, int o, const Mat6& Ms, const SMap& S) {
    // U_i = M*_i S_i; the row block S_iᵀ M*_i is U_iᵀ, since M*_i is symmetric
    Eigen::Map<Mat6x<NV>> U(Upool_.data() + 6 * o);
    U.noalias() = Ms * S;
    MatNN<NV> Y;
    for (int c = 0; c < NV; ++c)
      for (int r = 0; r <= c; ++r) Y(r, c) = Y(c, r) = S.col(r).dot(U.col(c));
    MatNN<NV> Li = inverseCholeskyFactor<NV>(Y);
    Eigen::Map<MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    D.noalias() = Li.transpose() * Li;
    return Li;
  }
  /// V_i = L_i⁻¹ U_iᵀ.
  template <int NV>
  [[gnu::always_inline]] MatXx6<NV> schurRows(int o, const MatNN<NV>& Li) const {
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    return Li * U.transpose();
  }
  /// A free joint: D_i = M*_i⁻¹ from the Cholesky factor of M*_i.
  [[gnu::always_inline]] void factorFreeJoint(int i, const Mat6& Ms) {
    Eigen::Map<MatNN<6>> D(Dpool_.data() + dOffset_[i]);
    D = inverseSpd<6>(Ms);
  }
  /// k_i = D_i r_i (u_i, w_i).
  template <int NV, class R, class K>
  [[gnu::always_inline]] void solveTowardsBase(int i, int /*o*/, const R& r, K&& k) const {
    const Eigen::Map<const MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    k.noalias() = D * r;
  }
  /// base + U_i k_i.
  template <int NV, class K>
  [[gnu::always_inline]] Vec6 handedUp(int o, const Vec6& base, const K& k) const {
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    Vec6 up;
    up.noalias() = base + U * k;
    return up;
  }
  /// x_i = k_i − D_i U_iᵀ y.
  template <int NV, class K, class X>
  [[gnu::always_inline]] void solveTowardsTips(int i, int o, const K& k, const Vec6& y, X&& x) const {
    const Eigen::Map<const MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    const VecNV<NV> Uy = U.transpose() * y;
    x.noalias() = k - D * Uy;
  }

 private:
  std::vector<int> dOffset_;   ///< (nb) start of D_i in Dpool_ (Σ n_j²)
  std::vector<double> Dpool_;  ///< D_i = (S_iᵀ M*_i S_i)⁻¹, n_i × n_i column-major
  std::vector<double> Upool_;  ///< U_i = M*_i S_i, 6 × n_i column-major at 6·vOffset[i]
};

/// Block LDLᵀ, Cholesky form (Ivanov §4, "Алгоритм метода Холецкого"), triangular solves:
///
///   for i = N … 1 (tip to base)
///     L_i L_iᵀ = S_iᵀ M*_i S_i                       Cholesky factor (n_i × n_i)
///     L_i V_i  = S_iᵀ M*_i                           triangular solve (n_i × 6; Ivanov's V_i is V_i ⁱX_p)
///     L_i x_i  = p_i − S_iᵀ φ*_i                     triangular solve
///     M*_p += ⁱX_pᵀ (M*_i − V_iᵀ V_i) ⁱX_p           symmetric update
///     φ*_p += ⁱX_pᵀ (φ*_i + V_iᵀ x_i)
///   for i = 1 … N (base to tip)
///     L_iᵀ ν_i = x_i − V_i ⁱX_p v_p                  triangular solve
///
/// Every "inverse" is a triangular solve with the stored factor (its reciprocal diagonal kept).
class CholeskyFactor {
 public:
  static constexpr std::string_view kName = "poisson-ldl";
  static constexpr bool kExactFreeJoint = false;

  explicit CholeskyFactor(const Tree& tree)
      : lOffset_(tree.nb), Vpool_(6 * static_cast<std::size_t>(tree.nv), 0.0), dinv_(VectorX::Zero(tree.nv)) {
    int n2 = 0;
    for (int i = 0; i < tree.nb; ++i) {
      lOffset_[i] = n2;
      n2 += tree.joints[i].nv * tree.joints[i].nv;
    }
    Lpool_.assign(n2, 0.0);
  }

  /// Keeps L_i, its reciprocal diagonal and V_i = L_i⁻¹ S_iᵀ M*_i; returns V_i.
  template <int NV, class SMap>
  [[gnu::always_inline]] Eigen::Map<const MatXx6<NV>> factor(int i, int o, const Mat6& Ms, const SMap& S) {
    const Mat6x<NV> U = Ms * S;  // M*_i S_i
    // L_i L_iᵀ = S_iᵀ M*_i S_i
    Eigen::Map<MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    MatNN<NV> Y = S.transpose() * U;
    double* dinv = dinv_.data() + o;
    choleskyInPlace<NV>(Y, dinv);
    L = Y;
    // L_i V_i = S_iᵀ M*_i
    Eigen::Map<MatXx6<NV>> V(Vpool_.data() + 6 * o);
    V = U.transpose();
    solveLower<NV>(Y, dinv, V);
    return Eigen::Map<const MatXx6<NV>>(Vpool_.data() + 6 * o);
  }
  /// V_i, as factor kept it.
  template <int NV>
  [[gnu::always_inline]] Eigen::Map<const MatXx6<NV>> schurRows(int /*o*/,
                                                                const Eigen::Map<const MatXx6<NV>>& V) const {
    return V;
  }
  /// k_i = L_i⁻¹ r_i (x_i, y_i).
  template <int NV, class R, class K>
  [[gnu::always_inline]] void solveTowardsBase(int i, int o, const R& r, K&& k) const {
    const Eigen::Map<const MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    k = r;
    solveLower<NV>(L, dinv_.data() + o, k);
  }
  /// base + V_iᵀ k_i.
  template <int NV, class K>
  [[gnu::always_inline]] Vec6 handedUp(int o, const Vec6& base, const K& k) const {
    const Eigen::Map<const MatXx6<NV>> V(Vpool_.data() + 6 * o);
    Vec6 up;
    up.noalias() = base + V.transpose() * k;
    return up;
  }
  /// x_i = L_i⁻ᵀ (k_i − V_i y).
  template <int NV, class K, class X>
  [[gnu::always_inline]] void solveTowardsTips(int i, int o, const K& k, const Vec6& y, X&& x) const {
    const Eigen::Map<const MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    const Eigen::Map<const MatXx6<NV>> V(Vpool_.data() + 6 * o);
    x = k - V * y;
    solveLowerTransposed<NV>(L, dinv_.data() + o, x);
  }

 private:
  std::vector<int> lOffset_;   ///< (nb) start of L_i in Lpool_ (Σ n_j²)
  std::vector<double> Lpool_;  ///< L_i, n_i × n_i column-major, lower triangle
  std::vector<double> Vpool_;  ///< V_i, n_i × 6 column-major at 6·vOffset[i]
  VectorX dinv_;               ///< (nv) 1 / diag(L_i)
};

}  // namespace kt
