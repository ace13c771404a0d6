// SPDX-License-Identifier: BSD-3-Clause
// Articulated-body algorithm: forward dynamics in O(N).
// Featherstone, Rigid Body Dynamics Algorithms (2008), Table 7.1; Liu et al.'s "recursive
// algorithm" reference (docs/dynamics.md §4).
// in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
//
//   pass 1, base to tip:  ⁱX_p, v_i, c_i;   I^A_i = I_i,   p^A_i = v_i ×* I_i v_i − f_i^ext
//   pass 2, tip to base:  U_i = I^A_i S_i,   D_i = S_iᵀ U_i,   u_i = τ_i − S_iᵀ p^A_i
//                         I^a_i = I^A_i − U_i D_i⁻¹ U_iᵀ,   p^a_i = p^A_i + I^a_i c_i + U_i D_i⁻¹ u_i
//                         I^A_p += ⁱX_pᵀ I^a_i ⁱX_p,   p^A_p += ⁱX_pᵀ p^a_i
//   pass 3, base to tip:  a'_i = ⁱX_p a_p + c_i  (a_0 = −g),   q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i),
//                         a_i = a'_i + S_i q̈_i
//
// Pass 1's I^A_i and p^A_i are started in pass 2, where a body's first child hands over
// (sweep_handover.hpp). The joint loads are the RNEA backward pass on the a_i of pass 3.
#pragma once

#include <memory>

#include "core/dynamics/kernels/sweep_handover.hpp"
#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

class AbaSolver final : public Solver {
 public:
  explicit AbaSolver(const Tree& tree);
  std::string_view name() const override { return "aba"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;
  bool supportsHybrid() const override { return true; }
  /// Featherstone's hybrid form (RBDA §9.2): a prescribed joint passes its body's articulated
  /// inertia to the parent whole, as a fixed joint does, with the bias acceleration c_i + S_i q̈_i;
  /// its required effort is S_iᵀ f_i of the loads' backward pass. With every joint prescribed
  /// nothing is articulated: that is inverse dynamics, and the RNEA gives it (about half the cost).
  void hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                      std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) override;
  const Kinematics* kinematics() const override { return kinWhole_ ? &kin_ : nullptr; }
  /// Pass 1 then computes no world poses and the loads no world axes (a recording run's
  /// SignalDeriver computes both; with every joint prescribed the RNEA still gives them).
  bool omitWorldLoads() override {
    omitWorld_ = true;
    return true;
  }

  /// Pass 2's quantities as it forms them, for the algorithm stepper (core/dynamics/stepper): they
  /// live in locals that the solver keeps for no body.
  class Pass2Observer {
   public:
    virtual ~Pass2Observer() = default;
    /// Pass 2 reaches body i: I^A_i and p^A_i, summed over its children.
    virtual void reached(int i, const Mat6& IA, const Vec6& pA) = 0;
    /// Body i articulated: I^a_i and p^a_i.
    virtual void articulated(int i, const Mat6& Ia, const Vec6& pa) = 0;
    /// Handed to the parent p: I^A_p and p^A_p as summed so far (its own terms and the children
    /// handed over up to body i).
    virtual void handed(int i, int p, const Mat6& IAp, const Vec6& pAp) = 0;
  };
  /// forwardDynamics with the loads, telling `observer` pass 2's quantities (the same arithmetic:
  /// the forward call compiled with the observer's calls added).
  void observedForwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                               VectorX& qdd, JointLoads& loads, Pass2Observer& observer);
  /// The last call's pass 2 record of joint i: U_i (6 × n_i), D_i⁻¹, u_i.
  void jointRecord(int i, MatrixX& U, MatrixX& Dinv, VectorX& u) const;
  /// The last call's acceleration of body i (pass 3, with the world's −g).
  const Vec6& bodyAcceleration(int i) const { return a_[static_cast<std::size_t>(i)]; }

 private:
  /// The three passes; with kHybrid the joints marked in `prescribed` take their q̈ from `qdd`;
  /// with kObserved, observer_ is told pass 2's quantities.
  template <bool kHybrid, bool kObserved = false>
  void solve(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
             std::span<const char> prescribed, VectorX& qdd, JointLoads* loads);

  // Steps of pass 2, one body each (always inlined: a call per body would cost more than the
  // bookkeeping it names).
  /// p^A_i's own term, v_i ×* I_i v_i − f^ext_i (v_i ×* I_i v_i kept in bias_ for the loads).
  [[gnu::always_inline]] inline Vec6 biasForce(int i, ExternalWrenches fext);
  /// Pass 2 reaches body i: I^A_i and p^A_i from the locals, from IA_ and pA_, or a leaf's own terms.
  [[gnu::always_inline]] inline void takeSums(int i, ExternalWrenches fext, Mat6& IA, Vec6& pA);
  /// A prescribed joint: I^a_i = I^A_i, p^a_i = p^A_i + I^A_i (c_i + S_i q̈_i).
  [[gnu::always_inline]] inline void articulatePrescribed(int i, const VectorX& qdd, const Mat6& Ia, Vec6& pa) const;
  /// I^A_p += ⁱX_pᵀ I^a_i ⁱX_p, p^A_p += ⁱX_pᵀ p^a_i (sweep_handover.hpp): the sums of p are left in
  /// Ia, pa, and stored where the next body visited is not p.
  [[gnu::always_inline]] inline void handToParent(int i, ExternalWrenches fext, Mat6& Ia, Vec6& pa);

  /// The joint loads from pass 3's accelerations: the RNEA's backward pass, f_i = I_i a_i + v_i ×* I_i
  /// v_i − f^ext_i with the middle term from pass 2 (bias_), summed tip to base.
  void jointLoads(const VectorX& q, ExternalWrenches fext, JointLoads& loads);

  Kinematics kin_;
  bool kinWhole_ = false;   ///< kin_ holds X_0 too (the last call computed loads): kinematics()
  bool omitWorld_ = false;  ///< omitWorldLoads()
  std::vector<Vec6> bias_;  ///< (nb) v_i ×* I_i v_i, from pass 2
  /// Hybrid dynamics with every joint prescribed (made by the first such call: its Ic and F would
  /// add a third to the solver's memory for a case most runs never meet).
  std::unique_ptr<RneaWorkspace> rnea_;
  /// (nb) I^A_i and p^A_i summed over the children whose pass 2 is done. Written only where the
  /// next body pass 2 visits is not the parent: along a chain the sums are handed over in a local
  /// (handover_), and a call's memory traffic is the records it must keep for pass 3.
  std::vector<Mat6> IA_;
  std::vector<Vec6> pA_;
  SweepHandover handover_;  ///< how pass 2 hands body i's sums to its parent
  /// Pass 2's result for a 1-DoF joint, read back in pass 3: one cache line a body (the general
  /// U_, Dinv_, u_ below are sized for six columns and would touch three).
  struct alignas(64) OneDof {
    Vec6 U;       ///< U_i = I^A_i s_i
    double Dinv;  ///< D_i⁻¹ = 1 / (s_iᵀ I^A_i s_i)
    double u;     ///< u_i = τ_i − s_iᵀ p^A_i
  };
  std::vector<OneDof> oneDof_;         ///< (nb) used where n_i = 1
  std::vector<Mat6N> U_;               ///< (nb) U_i = I^A_i S_i, where n_i > 1
  std::vector<MatN> Dinv_;             ///< (nb) D_i⁻¹ = (S_iᵀ U_i)⁻¹, where n_i > 1
  std::vector<VecN> u_;                ///< (nb) u_i = τ_i − S_iᵀ p^A_i, where n_i > 1
  std::vector<Vec6> a_;                ///< (nb) body accelerations (with −g)
  std::vector<int> unitAxis_;          ///< (nb) k when S_i = e_k (1-DoF joint along a coordinate axis), else −1
  JointLoads hybridLoads_;             ///< the loads of a hybrid call that asks for none (its efforts need f)
  Pass2Observer* observer_ = nullptr;  ///< during observedForwardDynamics
};

std::unique_ptr<Solver> makeAbaSolver(const Tree& tree);

}  // namespace kt
