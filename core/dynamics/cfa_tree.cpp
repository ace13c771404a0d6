#include "core/dynamics/cfa_tree.hpp"

#include <algorithm>

namespace kt {

CfaTreeSolver::CfaTreeSolver(const Tree& tree)
    : Solver(tree),
      cfa_(tree),
      diag_(tree.nb),
      parent_(tree.nb),
      siblingOffset_(tree.nb, 0),
      childPos_(tree.nb, 0),
      llt_(tree.nb),
      b_(tree.nb),
      lambda_(tree.nb, Vec6::Zero()) {
  int blocks = 0;
  std::size_t maxChildren = 1;
  for (int p = 0; p < tree.nb; ++p) {
    const std::vector<int>& ch = tree.children[p];
    maxChildren = std::max(maxChildren, ch.size());
    for (std::size_t k = 0; k < ch.size(); ++k) {
      childPos_[ch[k]] = static_cast<int>(k);
      siblingOffset_[ch[k]] = blocks;
      blocks += static_cast<int>(k);  // row of child k: blocks against children 0..k−1
    }
  }
  sibling_.assign(blocks, Mat6::Zero());
  V_.assign(maxChildren, Mat6::Zero());
}

void CfaTreeSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                    VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  cfa_.prepare(q, v, tau, fext);
  cfa_.rhs(b_);
  cfa_.blocks();
  for (int i = 0; i < t.nb; ++i) {
    diag_[i] = cfa_.diagonalBlock(i);
    parent_[i] = cfa_.parentBlock(i);
    const int p = t.parent[i];
    if (p < 0) continue;
    const std::vector<int>& ch = t.children[p];
    for (int k = 0; k < childPos_[i]; ++k) siblingBlock(i, k) = cfa_.siblingBlock(i, ch[k]);
  }

  // elimination, tip to base (decreasing index: children and later siblings first)
  for (int i = t.nb - 1; i >= 0; --i) {
    Cholesky6& L = llt_[i];
    L.compute(diag_[i]);
    const int p = t.parent[i];
    if (p < 0) continue;  // roots couple to nothing that is not yet eliminated
    Mat6 Vp = parent_[i];
    L.solveL(Vp);
    Vec6 vb = b_[i];
    L.solveL(vb);
    diag_[p].noalias() -= Vp.transpose() * Vp;
    b_[p].noalias() -= Vp.transpose() * vb;
    const int pos = childPos_[i];
    if (pos == 0) continue;
    const std::vector<int>& ch = t.children[p];
    for (int k = 0; k < pos; ++k) {
      V_[k] = siblingBlock(i, k);
      L.solveL(V_[k]);
    }
    for (int k = 0; k < pos; ++k) {
      const int j = ch[k];
      parent_[j].noalias() -= V_[k].transpose() * Vp;
      b_[j].noalias() -= V_[k].transpose() * vb;
      diag_[j].noalias() -= V_[k].transpose() * V_[k];
      for (int l = 0; l < k; ++l) siblingBlock(j, l).noalias() -= V_[k].transpose() * V_[l];
    }
  }

  // back substitution, base to tip
  for (int i = 0; i < t.nb; ++i) {
    Vec6 r = b_[i];
    const int p = t.parent[i];
    if (p >= 0) {
      r.noalias() -= parent_[i] * lambda_[p];
      const std::vector<int>& ch = t.children[p];
      for (int k = 0; k < childPos_[i]; ++k) r.noalias() -= siblingBlock(i, k) * lambda_[ch[k]];
    }
    lambda_[i] = llt_[i].solve(r);
  }

  cfa_.finish(lambda_, q, qdd, loads);
}

std::unique_ptr<Solver> makeCfaTreeSolver(const Tree& tree) { return std::make_unique<CfaTreeSolver>(tree); }

}  // namespace kt
