// Constraint Force Algorithm, tree form: a block LDLᵀ of A = Tᵀ Φ T eliminating joints
// leaves-first, O(N) on every tree with bounded branching (DYNAMICS.md §5, variant 3).
// in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
//
// A couples a joint only to its parent joint and to its siblings (Liu et al. eqs. 31–37). Joints
// are numbered so that parent(i) < i, so eliminating them in decreasing index order removes a
// joint after all of its children and after its later siblings. At that moment its remaining
// neighbours are its parent joint p and its earlier siblings, and these are already coupled to
// each other (A_pj ≠ 0, A_jk ≠ 0): the Schur-complement update
//   A_rs ← A_rs − A_ri A_ii⁻¹ A_is,   b_r ← b_r − A_ri A_ii⁻¹ b_i   (r, s ∈ {p, earlier siblings})
// creates no fill-in. With A_ii = L_i L_iᵀ and V_r = L_i⁻¹ A_ir, v = L_i⁻¹ b_i, it reads
// A_rs −= V_rᵀ V_s and b_r −= V_rᵀ v. Back substitution, base to tip:
//   λ_i = A_ii⁻¹ (b_i − A_ip λ_p − Σ_{earlier siblings j} A_ij λ_j).
// Cost per body O((1 + children²) 6³). The blocks are the 6×6 padded ones of CfaCommon.
// uses diag_, parent_, sibling_, llt_, b_, lambda_ (sized once in the constructor)
#pragma once

#include "core/dynamics/cfa_common.hpp"

namespace kt {

class CfaTreeSolver final : public Solver {
 public:
  explicit CfaTreeSolver(const Tree& tree);
  std::string_view name() const override { return "cfa-tree"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;

 private:
  CfaCommon cfa_;
  std::vector<Mat6> diag_;          ///< (nb) A_ii, updated by the elimination
  std::vector<Mat6> parent_;        ///< (nb) A_{i,parent(i)}, updated by the elimination
  std::vector<Mat6> sibling_;       ///< A_ij for siblings j < i, Σ_p k_p (k_p − 1) / 2 blocks
  std::vector<int> siblingOffset_;  ///< (nb) first block of joint i's row in sibling_
  std::vector<int> childPos_;       ///< (nb) position of i among its parent's children
  std::vector<Cholesky6> llt_;      ///< (nb) factors of the eliminated A_ii
  std::vector<Mat6> V_;             ///< (max children) L_i⁻¹ A_ij for the earlier siblings
  std::vector<Vec6> b_;             ///< (nb) right-hand side, updated by the elimination
  std::vector<Vec6> lambda_;        ///< (nb) λ per joint slot

  Mat6& siblingBlock(int i, int pos) { return sibling_[siblingOffset_[i] + pos]; }
};

std::unique_ptr<Solver> makeCfaTreeSolver(const Tree& tree);

}  // namespace kt
