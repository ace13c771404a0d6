// SPDX-License-Identifier: BSD-3-Clause
// Constraint Force Algorithm, serialized form with block odd-even elimination
// (Liu, Hu & Zhang 2016, §3, eqs. 30–44; the elimination is the one Featherstone & Fijany 1999
// use for their O(log N) parallel CFA, run serially here as the paper does).
// in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
//
// Chains and nodes on an arbitrary tree (Liu et al. §2.3 and §3.1). A node is a body with two or
// more children (Liu et al. Fig. 3); the world is not a node (it couples nothing). A chain segment
// is a maximal run of joints i₀ → i₁ → … where each body i_k (k < last) has exactly one child
// i_{k+1}; it starts at a root joint or at a child of a node and ends at a leaf or at a node
// (the node's joint is the segment's nominal "last" body, Liu et al. eq. 21). Bodies are numbered
// depth-first, so a segment is a contiguous index range. Within a segment A is block tridiagonal
// (eq. 30; B_k = A_{k,k+1}, eqs. 31–32, 34, 38); every other nonzero block is a node coupling:
// the node joint j with each child o(j_m) (D, eq. 35) and the children with each other (b,
// eq. 36). These sit only in the rows of a segment's first joint (towards its parent node and
// its siblings) and its last joint (towards the children of its node).
//
// Rounds (eqs. 39–40). Each segment of length L gets K = ⌈log₂ L⌉ rounds. In round r (s = 2^{r−1})
// every row k of the segment, from the previous round's values, does
//   E_k = B_k A_{k+s}⁻¹,   G_k = B_{k−s}ᵀ A_{k−s}⁻¹                         (eq. 39)
//   A_k ← A_k − E_k B_kᵀ − G_k B_{k−s},   B_k ← −E_k B_{k+s}
//   C_k ← C_k − E_k C_{k+s} − G_k C_{k−s},   Ẋ_k ← Ẋ_k − E_k Ẋ_{k+s} − G_k Ẋ_{k−s}   (eq. 40)
// (terms whose row k ± s lies outside the segment are absent). C_k is the row's block of node
// couplings (Liu et al.'s D and b): a dense 6 × 6|U| block over the segment's node columns U (its
// parent node, its first joint's siblings, its last joint's children). Row operations spread
// those couplings along the segment but never outside U, as the paper observes below eq. 38.
// After K rounds the band is gone: every row holds its diagonal block and its node couplings.
// (Eq. 40 writes the D and b updates for the couplings of a segment's inboard end, through G;
// the couplings of its outboard end, the node's own row, travel the same way through E.)
// The products are evaluated in factored form, A = L Lᵀ, without forming A⁻¹ (see eliminate()).
//
// Reordering (eqs. 41–44). The node rows are the joints of node bodies and of their children
// (those with constraint coordinates). Their equations now involve node columns only, so they
// form the small dense system Ā_node λ_node = Ẋ_node (non-symmetric after the row operations:
// LU with partial pivoting). Every other row is Ā_k λ_k = Ẋ_k − C_k λ_U, block diagonal.
//
// Cost: O(N log L) for the rounds (Liu et al. and F–F: O(N log N) serial on a chain) plus the
// cube of the node system; not O(N) on chains, and not O(N) on bushy trees (cfa-tree is).
// Every row is updated in every round (eq. 40 is odd-even elimination, not reduction): a row with
// both neighbours costs one 6×6 Cholesky factor, three triangular solves with six columns and four
// 6×6 products, about 1,050 multiply-adds. Summed over the rounds that is about 5,900
// multiply-adds per body on a 100-body chain (K = 7), 9,300 at 1,000 (K = 10) and 12,900 at
// 10,000 (K = 14): the per-body cost grows about 2.2× from 100 to 10,000 bodies by operation
// count alone.
//
// Iterative refinement. Every row's final diagonal block is a Schur complement formed on its own,
// so λ is not backward stable: where light bodies make A far worse conditioned than M, the
// residual b − A λ stays at about 1e-8 relative, and q̈ = Dᵀ Φ (D τ' + T λ) multiplies it by the
// light bodies' inverse inertias (3e-8 relative in q̈ on a two-body chain with κ(M) = 44). One
// step of iterative refinement in working precision (Skeel 1980; Higham 2002, ch. 12) repairs
// that: r = b − A λ as a pass over the tree (A = Tᵀ Φ T,
// eq. 29), the same rounds replayed on r with the factors stored in eliminate() (eq. 40's
// right-hand-side update only), the node system and chain rows solved again (eq. 44), and
// λ += δ. It costs the factors' storage, O(N log L) (9 MB on a 1,000-body chain), and time, most
// where the stored factors leave the cache (docs/benchmarks.md).
// Then q̈ is refined once against RNEA's residual, as in every CFA solver (cfa_common.hpp): the
// refined λ keeps that step convergent on the spread-mass trees of the tests, where q̈ refined
// alone stayed 6e-5 off on two of them.
// Blocks are the 6×6 padded ones of CfaCommon. Workspaces are sized in the constructor.
#pragma once

#include <array>

#include <Eigen/LU>

#include "core/dynamics/cfa/cfa_common.hpp"

namespace kt {

class CfaOddEvenSolver final : public Solver {
 public:
  explicit CfaOddEvenSolver(const Tree& tree);
  std::string_view name() const override { return "cfa-oddeven"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;

  /// Number of chain segments and of node rows (for tests and the header's claims).
  int segmentCount() const { return static_cast<int>(segments_.size()); }
  int nodeRowCount() const { return static_cast<int>(nodeRows_.size()); }

 private:
  struct Segment {
    int first = 0;             ///< joint index of the inboard end; rows are first … first + length − 1
    int length = 0;            ///< L
    int rounds = 0;            ///< K = ⌈log₂ L⌉
    int store = 0;             ///< start of its rows' per-round factors (round r, row k: store + (r − 1) L + k)
    std::vector<int> cols;     ///< U: node columns (joint indices) the segment's rows couple to
    std::array<MatrixX, 2> C;  ///< (6L × 6|U|) node couplings, double-buffered by round
    MatrixX LC;                ///< (6L × 6|U|) L_k⁻¹ C_k of the current round
  };

  CfaCommon cfa_;
  std::vector<Segment> segments_;
  std::vector<int> segmentOf_;          ///< (nb) segment of each joint
  std::vector<int> nodeIndex_;          ///< (nb) position in the node system, −1 for chain rows
  std::vector<int> nodeRows_;           ///< joints of the node system, in order
  std::array<std::vector<Mat6>, 2> A_;  ///< (nb) diagonal blocks, double-buffered
  std::array<std::vector<Mat6>, 2> B_;  ///< (nb) B_k = A_{k,k+s}, double-buffered
  std::array<std::vector<Vec6>, 2> X_;  ///< (nb) right-hand sides Ẋ, double-buffered
  std::vector<Cholesky6> cholR_;        ///< (Σ L K) A_k = L_k L_kᵀ of every round
  std::vector<Mat6> VR_;                ///< (Σ L K) (L_k⁻¹ B_k)ᵀ of every round
  std::vector<Mat6> WR_;                ///< (Σ L K) (L_{k+s}⁻¹ B_kᵀ)ᵀ of every round
  std::vector<Cholesky6> chol_;         ///< (nb) factors of the chain rows' final blocks
  std::vector<Vec6> z_;                 ///< (nb) L_k⁻¹ Ẋ_k in the current round
  std::vector<Vec6> b_;                 ///< (nb) initial right-hand side
  std::vector<Vec6> r_;                 ///< (nb) residual b − A λ
  std::vector<Vec6> lambda_;            ///< (nb) λ per joint slot
  std::vector<Vec6> delta_;             ///< (nb) refinement of λ
  VectorX dqdd_;                        ///< (nv) the refinement's correction of q̈
  MatrixX Anode_;                       ///< (6 n_node)² Ā_node
  VectorX rnode_;                       ///< (6 n_node) Ẋ_node
  VectorX xnode_;                       ///< (6 n_node) λ_node
  Eigen::PartialPivLU<MatrixX> lu_;     ///< storage sized once

  void initialRows();
  void eliminate(Segment& seg);
  void factorReduced();
  void substitute(const Segment& seg, const std::vector<Vec6>& rhs);
  void solveReduced(std::vector<Vec6>& x);
};

std::unique_ptr<Solver> makeCfaOddEvenSolver(const Tree& tree);

}  // namespace kt
