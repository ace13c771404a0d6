// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/cfa/cfa_odd_even.hpp"

namespace kt {
namespace {

bool isNode(const Tree& t, int body) { return body >= 0 && t.children[body].size() >= 2; }

/// (L⁻¹ M)ᵀ from Mᵀ: the forward substitution on M's rows, which are Mᵀ's contiguous columns.
template <typename Derived>
Mat6 solveLTransposed(const Cholesky6& c, const Eigen::MatrixBase<Derived>& Mt) {
  Mat6 out = Mt;
  solveLower<6>(c.L, c.invDiag.data(), out.transpose());
  return out;
}

}  // namespace

CfaOddEvenSolver::CfaOddEvenSolver(const Tree& tree)
    : Solver(tree),
      cfa_(tree),
      segmentOf_(tree.nb, -1),
      nodeIndex_(tree.nb, -1),
      chol_(tree.nb),
      z_(tree.nb, Vec6::Zero()),
      b_(tree.nb),
      r_(tree.nb, Vec6::Zero()),
      lambda_(tree.nb, Vec6::Zero()),
      delta_(tree.nb, Vec6::Zero()),
      dqdd_(tree.nv) {
  for (int k = 0; k < 2; ++k) {
    A_[k].assign(tree.nb, Mat6::Zero());
    B_[k].assign(tree.nb, Mat6::Zero());
    X_[k].assign(tree.nb, Vec6::Zero());
  }
  // chain segments: a joint continues its parent's segment when the parent body has one child
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    if (p < 0 || tree.children[p].size() != 1) {
      segmentOf_[i] = static_cast<int>(segments_.size());
      Segment seg;
      seg.first = i;
      seg.length = 1;
      segments_.push_back(std::move(seg));
    } else {
      segmentOf_[i] = segmentOf_[p];
      ++segments_[segmentOf_[p]].length;  // depth-first numbering: i == p + 1
    }
  }
  // node rows: joints (with constraint coordinates) of node bodies and of their children
  for (int i = 0; i < tree.nb; ++i) {
    if (6 - tree.joints[i].nv == 0) continue;
    if (isNode(tree, i) || isNode(tree, tree.parent[i])) {
      nodeIndex_[i] = static_cast<int>(nodeRows_.size());
      nodeRows_.push_back(i);
    }
  }
  auto hasLambda = [&](int j) { return 6 - tree.joints[j].nv > 0; };
  std::size_t stored = 0;
  for (Segment& seg : segments_) {
    while ((1 << seg.rounds) < seg.length) ++seg.rounds;
    seg.store = static_cast<int>(stored);
    stored += static_cast<std::size_t>(seg.length) * static_cast<std::size_t>(seg.rounds);
    const int f = seg.first, l = seg.first + seg.length - 1, p = tree.parent[f];
    if (isNode(tree, p)) {
      if (hasLambda(p)) seg.cols.push_back(p);
      for (int j : tree.children[p])
        if (j != f && hasLambda(j)) seg.cols.push_back(j);
    }
    if (isNode(tree, l))
      for (int c : tree.children[l])
        if (hasLambda(c)) seg.cols.push_back(c);
    const Eigen::Index w = 6 * static_cast<Eigen::Index>(seg.cols.size());
    if (w > 0) {
      for (MatrixX& C : seg.C) C.setZero(6 * seg.length, w);
      seg.LC.setZero(6 * seg.length, w);
    }
  }
  cholR_.resize(stored);
  VR_.assign(stored, Mat6::Zero());
  WR_.assign(stored, Mat6::Zero());
  const Eigen::Index nn = 6 * static_cast<Eigen::Index>(nodeRows_.size());
  Anode_.setZero(nn, nn);
  rnode_.setZero(nn);
  xnode_.setZero(nn);
  lu_ = Eigen::PartialPivLU<MatrixX>(nn);
}

void CfaOddEvenSolver::initialRows() {
  const Tree& t = *tree_;
  for (Segment& seg : segments_) {
    const int f = seg.first, l = seg.first + seg.length - 1;
    for (int i = f; i <= l; ++i) {
      A_[0][i] = cfa_.diagonalBlock(i);
      // B_k = A_{k,k+1}: the joint with its only child (Liu et al. eqs. 32, 38)
      if (i < l) B_[0][i] = cfa_.parentBlock(i + 1).transpose();
      X_[0][i] = b_[i];
    }
    if (seg.cols.empty()) continue;
    MatrixX& C = seg.C[0];
    C.setZero();
    for (std::size_t c = 0; c < seg.cols.size(); ++c) {
      const int u = seg.cols[c];
      auto block = [&](int k) { return C.block<6, 6>(6 * k, 6 * static_cast<Eigen::Index>(c)); };
      if (u == t.parent[f])
        block(0) = cfa_.parentBlock(f);  // D_{j,o(j_m)}ᵀ, eq. 35
      else if (t.parent[u] == t.parent[f])
        block(0) = cfa_.siblingBlock(f, u);  // b_{o(j_a),o(j_b)}, eq. 36
      else
        block(l - f) = cfa_.parentBlock(u).transpose();  // D_{j,o(j_m)}, eq. 35
    }
  }
}

// One round in the factored form of eqs. 39–40: with A_r = L_r L_rᵀ, V_r = L_r⁻¹ B_r, z_r = L_r⁻¹ Ẋ_r
// and W = L_{k+s}⁻¹ B_kᵀ,
//   E_k B_kᵀ = Wᵀ W,  E_k Ẋ_{k+s} = Wᵀ z_{k+s},  E_k B_{k+s} = Wᵀ V_{k+s},  E_k C_{k+s} = Wᵀ L⁻¹ C_{k+s}
//   G_k B_{k−s} = V_{k−s}ᵀ V_{k−s},  G_k Ẋ_{k−s} = V_{k−s}ᵀ z_{k−s},  G_k C_{k−s} = V_{k−s}ᵀ L⁻¹ C_{k−s}
// so the updated A_k stays exactly symmetric and no inverse is formed. Every round's L, V and W
// are kept for substitute().
void CfaOddEvenSolver::eliminate(Segment& seg) {
  const int f = seg.first, L = seg.length;
  const bool hasC = !seg.cols.empty();
  for (int r = 1; r <= seg.rounds; ++r) {
    const int s = 1 << (r - 1);
    const int cur = (r - 1) % 2, nxt = r % 2;
    const std::size_t base = static_cast<std::size_t>(seg.store) + static_cast<std::size_t>((r - 1) * L);
    const std::vector<Mat6>& A = A_[cur];
    const std::vector<Mat6>& B = B_[cur];
    const std::vector<Vec6>& X = X_[cur];
    // factors of this round's diagonal blocks, and what the neighbours need of them
    for (int k = 0; k < L; ++k) {
      const int i = f + k;
      Cholesky6& chol = cholR_[base + k];
      chol.compute(A[i]);
      z_[i] = X[i];
      chol.solveL(z_[i]);
      if (k + s < L) VR_[base + k] = solveLTransposed(chol, B[i].transpose());  // Vᵀ
      if (hasC) {
        auto rows = seg.LC.middleRows<6>(6 * k);
        rows = seg.C[cur].middleRows<6>(6 * k);
        chol.solveL(rows);
      }
    }
    for (int k = 0; k < L; ++k) {
      const int i = f + k;
      Mat6& An = A_[nxt][i];
      Mat6& Bn = B_[nxt][i];
      Vec6& Xn = X_[nxt][i];
      An = A[i];
      Xn = X[i];
      // B_k of the next round is read only where k + 2s < L (the next round's k + s' < L), so it is
      // written there and nowhere else
      if (hasC) seg.C[nxt].middleRows<6>(6 * k) = seg.C[cur].middleRows<6>(6 * k);
      if (k + s < L) {
        // eq. 40 with E_k = B_k A_{k+s}⁻¹ (eq. 39): remove the coupling to row k + s
        Mat6& Wt = WR_[base + k];  // Wᵀ
        Wt = solveLTransposed(cholR_[base + k + s], B[i]);
        An.noalias() -= Wt * Wt.transpose();
        Xn.noalias() -= Wt * z_[i + s];
        if (k + 2 * s < L) Bn.noalias() = -Wt * VR_[base + k + s].transpose();
        if (hasC) seg.C[nxt].middleRows<6>(6 * k).noalias() -= Wt * seg.LC.middleRows<6>(6 * (k + s));
      }
      if (k - s >= 0) {
        // eq. 40 with G_k = B_{k−s}ᵀ A_{k−s}⁻¹ (eq. 39): remove the coupling to row k − s
        const Mat6& Vt = VR_[base + k - s];  // V_{k−s}ᵀ
        An.noalias() -= Vt * Vt.transpose();
        Xn.noalias() -= Vt * z_[i - s];
        if (hasC) seg.C[nxt].middleRows<6>(6 * k).noalias() -= Vt * seg.LC.middleRows<6>(6 * (k - s));
      }
    }
  }
}

// Eq. 40's right-hand-side update, Ẋ_k ← Ẋ_k − E_k Ẋ_{k+s} − G_k Ẋ_{k−s}, replayed round by round with
// the factors eliminate() kept, for another right-hand side: its reduced rows end in X_[K mod 2].
void CfaOddEvenSolver::substitute(const Segment& seg, const std::vector<Vec6>& rhs) {
  const int f = seg.first, L = seg.length;
  for (int k = 0; k < L; ++k) X_[0][f + k] = rhs[f + k];
  for (int r = 1; r <= seg.rounds; ++r) {
    const int s = 1 << (r - 1);
    const int cur = (r - 1) % 2, nxt = r % 2;
    const std::size_t base = static_cast<std::size_t>(seg.store) + static_cast<std::size_t>((r - 1) * L);
    const std::vector<Vec6>& X = X_[cur];
    for (int k = 0; k < L; ++k) {
      z_[f + k] = X[f + k];
      cholR_[base + k].solveL(z_[f + k]);
    }
    for (int k = 0; k < L; ++k) {
      const int i = f + k;
      Vec6& Xn = X_[nxt][i];
      Xn = X[i];
      if (k + s < L) Xn.noalias() -= WR_[base + k] * z_[i + s];
      if (k - s >= 0) Xn.noalias() -= VR_[base + k - s] * z_[i - s];
    }
  }
}

// Step (2)③ (eqs. 41–43): the dense node system Ā_node from the node rows' final blocks and their
// couplings, factored (LU with partial pivoting); the chain rows' final diagonal blocks (Cholesky).
void CfaOddEvenSolver::factorReduced() {
  if (!nodeRows_.empty()) {
    Anode_.setZero();
    for (std::size_t n = 0; n < nodeRows_.size(); ++n) {
      const int i = nodeRows_[n];
      const Segment& seg = segments_[segmentOf_[i]];
      const int fin = seg.rounds % 2, k = i - seg.first;
      const Eigen::Index row = 6 * static_cast<Eigen::Index>(n);
      Anode_.block<6, 6>(row, row) = A_[fin][i];
      for (std::size_t c = 0; c < seg.cols.size(); ++c)
        Anode_.block<6, 6>(row, 6 * static_cast<Eigen::Index>(nodeIndex_[seg.cols[c]])) +=
            seg.C[fin].block<6, 6>(6 * k, 6 * static_cast<Eigen::Index>(c));
    }
    lu_.compute(Anode_);
  }
  for (const Segment& seg : segments_) {
    const int fin = seg.rounds % 2;
    for (int k = 0; k < seg.length; ++k) {
      const int i = seg.first + k;
      if (nodeIndex_[i] < 0) chol_[i].compute(A_[fin][i]);
    }
  }
}

// Step (2)④ (eq. 44): x from the reduced right-hand sides in X_, the node system first, then the
// block-diagonal chain rows.
void CfaOddEvenSolver::solveReduced(std::vector<Vec6>& x) {
  if (!nodeRows_.empty()) {
    for (std::size_t n = 0; n < nodeRows_.size(); ++n) {
      const int i = nodeRows_[n];
      rnode_.segment<6>(6 * static_cast<Eigen::Index>(n)) = X_[segments_[segmentOf_[i]].rounds % 2][i];
    }
    xnode_.noalias() = lu_.solve(rnode_);
    for (std::size_t n = 0; n < nodeRows_.size(); ++n)
      x[nodeRows_[n]] = xnode_.segment<6>(6 * static_cast<Eigen::Index>(n));
  }
  for (const Segment& seg : segments_) {
    const int fin = seg.rounds % 2;
    for (int k = 0; k < seg.length; ++k) {
      const int i = seg.first + k;
      if (nodeIndex_[i] >= 0) continue;
      Vec6 r = X_[fin][i];
      for (std::size_t c = 0; c < seg.cols.size(); ++c)
        r.noalias() -= seg.C[fin].block<6, 6>(6 * k, 6 * static_cast<Eigen::Index>(c)) * x[seg.cols[c]];
      x[i] = chol_[i].solve(r);
    }
  }
}

void CfaOddEvenSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                       VectorX& qdd, JointLoads* loads) {
  // step (1) and (2)①: equivalent control forces, Ẋ and the blocks of A
  cfa_.prepare(q, v, tau, fext);
  cfa_.rhs(b_);
  cfa_.blocks();
  initialRows();
  // step (2)②: K rounds of block odd-even elimination on every chain segment (eqs. 39–40)
  for (Segment& seg : segments_) eliminate(seg);
  // step (2)③④: node rows, then chain rows
  factorReduced();
  solveReduced(lambda_);
  // one step of iterative refinement of λ (header): A δ = b − A λ with the same factors, λ += δ
  cfa_.residual(lambda_, b_, r_);
  for (const Segment& seg : segments_) substitute(seg, r_);
  solveReduced(delta_);
  for (int i = 0; i < tree_->nb; ++i) lambda_[i] += delta_[i];
  // step (3): q̈ (eq. 28), refined against RNEA's residual with the same factors (header), and
  // the joint loads
  cfa_.finish(lambda_, q, qdd, nullptr);
  cfa_.refinementActuation(qdd, tau, fext);
  cfa_.rhs(b_);
  for (const Segment& seg : segments_) substitute(seg, b_);
  solveReduced(lambda_);
  cfa_.finish(lambda_, q, dqdd_, loads);
  qdd += dqdd_;
}

std::unique_ptr<Solver> makeCfaOddEvenSolver(const Tree& tree) { return std::make_unique<CfaOddEvenSolver>(tree); }

}  // namespace kt
