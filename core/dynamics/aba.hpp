// SPDX-License-Identifier: BSD-3-Clause
// Articulated-body algorithm: forward dynamics in O(N).
// Featherstone, Rigid Body Dynamics Algorithms (2008), Table 7.1; Liu et al.'s "recursive
// algorithm" reference. in: q (nq), ν (nv), τ (nv)   out: q̈ (nv), joint loads (optional)
#pragma once

#include <cstdint>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"
#include "core/dynamics/kernels/sweep_handover.hpp"

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
  /// its required effort is S_iᵀ f_i of the loads' backward pass.
  void hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                      std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) override;

 private:
  /// The three passes; with kHybrid the joints marked in `prescribed` take their q̈ from `qdd`.
  template <bool kHybrid>
  void solve(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
             std::span<const char> prescribed, VectorX& qdd, JointLoads* loads);

  Kinematics kin_;
  /// (nb) articulated inertia and bias force of body i, summed over the children whose pass 2 is
  /// done. Written only where the next body pass 2 visits is not the parent: along a chain the
  /// sums are carried from body to body in a local, and a call's memory traffic is the records it
  /// must keep for pass 3.
  std::vector<Mat6> IA_;
  std::vector<Vec6> pA_;
  /// (nb) pass 2's handover of body i's sums to its parent (sweep_handover.hpp): kStartsParent
  /// starts them from I_p and p's own bias force, kCarried keeps them in a local.
  std::vector<std::uint8_t> flags_;
  /// Pass 2's result for a 1-DoF joint, read back in pass 3: one cache line a body (the general
  /// U_, Dinv_, u_ below are sized for six columns and would touch three).
  struct alignas(64) OneDof {
    Vec6 U;       ///< IA_i s_i
    double Dinv;  ///< 1 / (s_iᵀ IA_i s_i)
    double u;     ///< τ_i − s_iᵀ pA_i
  };
  std::vector<OneDof> oneDof_;  ///< (nb) used where n_i = 1
  std::vector<Mat6N> U_;        ///< (nb) IA_i S_i, where n_i > 1
  std::vector<MatN> Dinv_;      ///< (nb) (S_iᵀ U_i)⁻¹, where n_i > 1
  std::vector<VecN> u_;         ///< (nb) τ_i − S_iᵀ pA_i, where n_i > 1
  std::vector<Vec6> a_;         ///< (nb) body accelerations (with −g)
  std::vector<int> unitAxis_;   ///< (nb) k when S_i = e_k (1-DoF joint along a coordinate axis), else −1
  JointLoads hybridLoads_;      ///< the loads of a hybrid call that asks for none (its efforts need f)
};

std::unique_ptr<Solver> makeAbaSolver(const Tree& tree);

}  // namespace kt
