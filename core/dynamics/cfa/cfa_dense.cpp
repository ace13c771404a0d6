// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/cfa/cfa_dense.hpp"

namespace kt {

CfaDenseSolver::CfaDenseSolver(const Tree& tree)
    : Solver(tree),
      cfa_(tree),
      A_(tree.nlambda, tree.nlambda),
      x_(tree.nlambda),
      llt_(tree.nlambda),
      b_(tree.nb),
      lambda_(tree.nb, Vec6::Zero()),
      dqdd_(tree.nv) {}

void CfaDenseSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                     VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  // (1) the equivalent control force τ' and the right-hand side Ẋ = −Tᵀ Φ D τ' (Liu et al. eq. 29)
  cfa_.prepare(q, v, tau, fext);
  cfa_.rhs(b_);
  cfa_.blocks();
  // (2) A assembled densely from its blocks (eqs. 31–37) over the compact constraint coordinates
  A_.setZero();
  for (int i = 0; i < t.nb; ++i) {
    const int mi = cfa_.constraintDim(i);
    if (mi == 0) continue;
    const int oi = t.lambdaOffset[i];
    x_.segment(oi, mi) = b_[i].head(mi);
    A_.block(oi, oi, mi, mi) = cfa_.diagonalBlock(i).topLeftCorner(mi, mi);
    const int p = t.parent[i];
    if (p < 0) continue;
    const int mp = cfa_.constraintDim(p);
    if (mp > 0) A_.block(oi, t.lambdaOffset[p], mi, mp) = cfa_.parentBlock(i).topLeftCorner(mi, mp);
    for (int j : t.children[p]) {
      if (j >= i) break;  // children are stored in increasing index order
      const int mj = cfa_.constraintDim(j);
      if (mj > 0) A_.block(oi, t.lambdaOffset[j], mi, mj) = cfa_.siblingBlock(i, j).topLeftCorner(mi, mj);
    }
  }
  // A is symmetric: the Cholesky factor reads the lower triangle only
  llt_.compute(A_);
  solve();
  // (3) q̈ (eq. 28), refined once against RNEA's residual (cfa_common.hpp), and the joint loads
  cfa_.finish(lambda_, q, qdd, nullptr);
  cfa_.refinementActuation(qdd, tau, fext);
  cfa_.rhs(b_);
  for (int i = 0; i < t.nb; ++i) {
    const int mi = cfa_.constraintDim(i);
    if (mi > 0) x_.segment(t.lambdaOffset[i], mi) = b_[i].head(mi);
  }
  solve();
  cfa_.finish(lambda_, q, dqdd_, loads);
  qdd += dqdd_;
}

void CfaDenseSolver::solve() {
  const Tree& t = *tree_;
  llt_.solveInPlace(x_);
  for (int i = 0; i < t.nb; ++i) {
    const int mi = cfa_.constraintDim(i);
    if (mi > 0) lambda_[i].head(mi) = x_.segment(t.lambdaOffset[i], mi);
  }
}

std::unique_ptr<Solver> makeCfaDenseSolver(const Tree& tree) { return std::make_unique<CfaDenseSolver>(tree); }

}  // namespace kt
