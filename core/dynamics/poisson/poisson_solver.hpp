// SPDX-License-Identifier: BSD-3-Clause
// The Poisson-impulse solvers (Ivanov 2017; docs/dynamics.md §6): one set of passes, with the
// factor of each joint's block kept as Ivanov's §3 sweep keeps it (ExplicitInverse,
// "poisson-sweep") or as his §4 Cholesky form does (CholeskyFactor, "poisson-ldl"; both in
// poisson_factor.hpp). O(N) for every tree; state (q, p), p = M(q) ν.
// in:  q (nq), p (nv), τ (nv)     out: ν (nv), ṗ (nv); q̈ (nv) and joint loads when asked
//
//   pass 1, tip to base:  factor S_iᵀ M*_i S_i;  k_i from p_i − S_iᵀ φ*_i;
//                         M*_p += ⁱX_pᵀ (M*_i − V_iᵀ V_i) ⁱX_p,  φ*_p += ⁱX_pᵀ (φ*_i + U_i D_i k_i),
//                         F*_p += ⁱX_pᵀ F*_i
//   pass 2, base to tip:  ν_i from k_i and ⁱX_p v_p;  v_i = ⁱX_p v_p + S_i ν_i,  μ_i = M*_i v_i + φ*_i,
//                         ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i
//
// and, for q̈, the same two passes with ψ_i + M*_i c_i in place of φ*_i, τ_i in place of p_i and
// ⁱX_p a_p in place of ⁱX_p v_p (poisson_common.hpp).
#pragma once

#include "core/dynamics/poisson/poisson_common.hpp"
#include "core/dynamics/poisson/poisson_factor.hpp"

namespace kt {

template <class Factor>
class PoissonSolver final : public PoissonSolverBase {
 public:
  explicit PoissonSolver(const Tree& tree);
  std::string_view name() const override { return Factor::kName; }
  /// The last call's k_i of the velocity right-hand side (u_i in §3, x_i in §4), and the factor.
  const VectorX& velocityKey() const { return kv_; }
  const Factor& factor() const { return factor_; }

 private:
  void backwardPass(const VectorX* p, const VectorX* tau) override;
  void forwardVelocityPass(const VectorX& tau, VectorX& v, VectorX& pdot) override;
  void backwardAccelerationPass(const VectorX& tau) override;
  void forwardAccelerationPass(VectorX& qdd) override;

  template <int NV>
  void backwardBody(int i, const ArticulatedSums& sums, const VectorX* p, const VectorX* tau);
  template <int NV>
  void forwardVelocityBody(int i, const VectorX& tau, VectorX& v, VectorX& pdot);
  template <int NV>
  void backwardAccelerationBody(int i, const VectorX& tau);
  template <int NV>
  void forwardAccelerationBody(int i, VectorX& qdd);

  Factor factor_;
  VectorX kv_;  ///< (nv) k_i of the velocity right-hand side p_i − S_iᵀ φ*_i: u_i (§3), x_i (§4)
  VectorX ka_;  ///< (nv) k_i of the acceleration right-hand side τ_i − S_iᵀ (ψ_i + M*_i c_i): w_i (§3), y_i (§4)
};

std::unique_ptr<Solver> makePoissonSweepSolver(const Tree& tree);
std::unique_ptr<Solver> makePoissonLdlSolver(const Tree& tree);

}  // namespace kt
