// SPDX-License-Identifier: BSD-3-Clause
// Constraint Force Algorithm: what its three solvers (cfa-dense, cfa-oddeven, cfa-tree) share.
// docs/dynamics.md §5; Liu, Hu & Zhang (2016) §2.4, eqs. 22–29; Featherstone & Fijany (1999) §4, eq. 16.
//
// The system "at rest": velocity terms, gravity and applied wrenches move into τ' = τ − h with
// h = Sᵀ f^bias, f^bias the RNEA joint wrenches with q̈ = 0. With P the propagation matrix
// (identity diagonal, P_{i,p} = −ⁱX_p), Φ = P I⁻¹ Pᵀ and the joint-wrench split f = D τ' + T λ:
//
//   A λ = b,   A = Tᵀ Φ T,   b = −Tᵀ Φ D τ'                  (Liu et al. eqs. 25–29; F–F eq. 16)
//   q̈ = Dᵀ Φ (D τ' + T λ)                                     (Liu et al. eq. 28)
//   f_i = f_i^bias + D_i τ'_i + T_i λ_i                       (the physical joint loads)
//
// cfa-dense and cfa-oddeven, which solve this system at rest, then refine q̈ once (docs/dynamics.md
// §5, "Refinement of q̈"; cfa-tree keeps each body's bias terms in its own equation instead and
// refines only where a light body carries a heavy one, cfa_tree.hpp): with
// r = τ − ID(q, ν, q̈) by RNEA, the same system solved for τ' = r gives δq̈ and its joint wrenches,
// and q̈ + δq̈ with the loads f^RNEA(q̈) + D r + T δλ. On long chains h carries each subtree's
// weight and moments, and the net forces left from τ' are small differences of such sums; under
// light bodies carrying heavy ones, q̈ recovered from λ divides net forces by the light body's
// inertia. In both cases the first q̈ keeps far fewer digits than RNEA's residual can check.
//
// Blocks of A (Liu et al. eqs. 31–37), with Z_i = ⁱX_pᵀ T_i (T_i's columns as forces in parent
// coordinates) and Y_i = I_p⁻¹ Z_i:
//   A_ii = T_iᵀ I_i⁻¹ T_i + Z_iᵀ Y_i      A_ip = −Y_iᵀ T_p      A_ij = Y_iᵀ Z_j  (i, j siblings)
//
// Storage: every joint gets a 6-wide slot. T_i (6×(6−n_i)) and D_i (6×n_i) are padded with zero
// columns to 6×6 and A_ii gets 1 on the padded diagonal, so every block is a fixed-size 6×6 and
// the padded λ components come out exactly zero (a free joint is a slot with A_ii = 1 and no
// coupling). Body inertias are constant in body coordinates, so I_i⁻¹, I_i⁻¹ T_i and
// T_iᵀ I_i⁻¹ T_i are computed once, except for the q-dependent T of universal joints.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include "core/dynamics/kernels/small_spd.hpp"
#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

/// Cholesky factor of a 6×6 symmetric positive definite block, A = L Lᵀ (the small-SPD kernel at
/// n = 6: the CFA solvers factor one such block per joint, or per joint and round).
struct Cholesky6 {
  Mat6 L = Mat6::Identity();
  Vec6 invDiag = Vec6::Ones();  ///< 1 / L_jj

  void compute(const Mat6& A) {
    L = A;
    choleskyInPlace<6>(L, invDiag.data());
  }
  /// X ← L⁻¹ X (forward substitution, every column).
  template <typename Derived>
  void solveL(Eigen::MatrixBase<Derived>& X) const {
    solveLower<6>(L, invDiag.data(), X);
  }
  /// X ← L⁻ᵀ X (back substitution, every column).
  template <typename Derived>
  void solveLt(Eigen::MatrixBase<Derived>& X) const {
    solveLowerTransposed<6>(L, invDiag.data(), X);
  }
  /// A⁻¹ b.
  Vec6 solve(Vec6 b) const {
    solveL(b);
    solveLt(b);
    return b;
  }
};

class CfaCommon {
 public:
  explicit CfaCommon(const Tree& tree);

  /// Pass 1 and the bias pass: kinematics, f^bias (RNEA with q̈ = 0), τ' = τ − h, u_i = D_i τ'_i.
  void prepare(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext);

  /// The residual r = b − A λ (one 6-slot per joint), with A λ = Tᵀ Φ T λ as a pass over the tree
  /// and 1 on the padded diagonal: what iterative refinement of λ solves for next.
  void residual(const std::vector<Vec6>& lambda, const std::vector<Vec6>& b, std::vector<Vec6>& r);

  /// Refinement of q̈ (after finish): f^bias becomes RNEA's joint wrench at q̈ and τ' the residual
  /// r = τ − ID(q, ν, q̈), so that rhs(), the solve and finish() give the correction δq̈, and the
  /// joint loads f^RNEA + D r + T δλ (iterative refinement: Higham 2002, ch. 12).
  void refinementActuation(const VectorX& qdd, const VectorX& tau, ExternalWrenches fext);

  /// The right-hand side b_i = −T_iᵀ (Φ u)_i, one 6-slot per joint (zero in padded slots).
  void rhs(std::vector<Vec6>& b);

  /// Z_i, Y_i, the diagonal blocks A_ii and the parent blocks A_ip (zero for roots).
  void blocks();

  /// A_ij for siblings i, j (same parent body; zero when they hang from the world).
  Mat6 siblingBlock(int i, int j) const { return Y_[i].transpose() * Z_[j]; }

  /// From λ (one 6-slot per joint): q̈ = Dᵀ Φ (u + T λ), and the joint loads when asked.
  void finish(const std::vector<Vec6>& lambda, const VectorX& q, VectorX& qdd, JointLoads* loads);

  /// y = Φ x for one force vector per body: tip to base Pᵀ x, then I⁻¹, then base to tip P.
  void applyPhi(const std::vector<Vec6>& x, std::vector<Vec6>& y);

  const Tree& tree() const { return *tree_; }
  int constraintDim(int i) const { return m_[i]; }            ///< 6 − n_i
  const Mat6& diagonalBlock(int i) const { return Aii_[i]; }  ///< A_ii (padded)
  const Mat6& parentBlock(int i) const { return Aip_[i]; }    ///< A_ip (padded), zero for roots

 private:
  const Tree* tree_;
  Kinematics kin_;
  std::vector<int> m_;           ///< (nb) 6 − n_i
  std::vector<int> qDependent_;  ///< joints whose T and D depend on q (universal)
  std::vector<Mat6> T_;          ///< (nb) constraint subspace, zero-padded to 6 columns
  std::vector<Mat6> D_;          ///< (nb) actuation subspace, zero-padded to 6 columns
  std::vector<Mat6> Iinv_;       ///< (nb) I_i⁻¹, body coordinates
  std::vector<Mat6> IinvT_;      ///< (nb) I_i⁻¹ T_i
  std::vector<Mat6> K_;          ///< (nb) T_iᵀ I_i⁻¹ T_i + 1 on the padded diagonal
  std::vector<Mat6> Z_;          ///< (nb) ⁱX_pᵀ T_i
  std::vector<Mat6> Y_;          ///< (nb) I_p⁻¹ Z_i
  std::vector<Mat6> Aii_;        ///< (nb) diagonal blocks of A
  std::vector<Mat6> Aip_;        ///< (nb) blocks A_{i,parent(i)}
  std::vector<Vec6> aRnea_;      ///< (nb) RNEA's body accelerations at the q̈ of f^bias
  std::vector<Vec6> aPhi_;       ///< (nb) I_i⁻¹ (Pᵀ x)_i, the body accelerations inside Φ x (applyPhi)
  std::vector<Vec6> fBias_;      ///< (nb) f^bias: RNEA's joint wrenches at q̈ = 0 (refinement: at q̈)
  std::vector<Vec6> u_;          ///< (nb) u_i = D_i τ'_i
  std::vector<Vec6> fAtRest_;    ///< (nb) D_i τ'_i + T_i λ_i, the joint wrenches of the system at rest (finish)
  std::vector<Vec6> w_;          ///< (nb) (Pᵀ x)_i, each body's net wrench inside Φ x (applyPhi)
  std::vector<Vec6> x_;          ///< (nb) T_i λ_i (residual)
  std::vector<Vec6> y_;          ///< (nb) Φ products
  Mat6N scratch_;                ///< T or D of a q-dependent joint

  void updateQDependent(const VectorX& q);
  /// u_i = D_i (τ_i − S_iᵀ f^bias_i).
  void actuation(const VectorX& tau);
};

}  // namespace kt
