// SPDX-License-Identifier: BSD-3-Clause
// Constraint Force Algorithm, general (dense) form: A = Tᵀ Φ T assembled densely over the
// constraint coordinates, Cholesky, then q̈ (Liu, Hu & Zhang 2016, §2.4, eqs. 25–29), O(N_S³),
// refined once against RNEA's residual with the same factor (cfa_common.hpp).
// in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
// uses A_ (nλ × nλ), llt_, b_ sized once in the constructor.
#pragma once

#include <Eigen/Cholesky>

#include "core/dynamics/cfa/cfa_common.hpp"

namespace kt {

class CfaDenseSolver final : public Solver {
 public:
  explicit CfaDenseSolver(const Tree& tree);
  std::string_view name() const override { return "cfa-dense"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;
  /// A = Tᵀ Φ T (nλ × nλ, Liu et al. eq. 26) as the last forwardDynamics assembled it, both
  /// triangles; rows in the order of the reaction coordinates (Tree::lambdaOffset).
  MatrixX constraintMatrix() const { return A_.selfadjointView<Eigen::Lower>(); }

 private:
  CfaCommon cfa_;
  MatrixX A_;                 ///< (nλ × nλ) Liu et al. eq. 26
  VectorX x_;                 ///< (nλ) right-hand side, then λ (F_S)
  Eigen::LLT<MatrixX> llt_;   ///< storage sized once
  std::vector<Vec6> b_;       ///< (nb) right-hand side per joint slot
  std::vector<Vec6> lambda_;  ///< (nb) λ per joint slot
  VectorX dqdd_;              ///< (nv) the refinement's correction of q̈

  /// λ from the right-hand side in x_, with the factor of A.
  void solve();
};

std::unique_ptr<Solver> makeCfaDenseSolver(const Tree& tree);

}  // namespace kt
