// SPDX-License-Identifier: BSD-3-Clause
// Poisson-impulse solver, block LDLᵀ (Cholesky) form: Ivanov (2017), §4 "Алгоритм метода
// Холецкого". O(N) for every tree; state (q, p), p = M(q) ν (docs/dynamics.md §6).
// in:  q (nq), p (nv), τ (nv)     out: ν (nv), ṗ (nv); q̈ (nv) and joint loads when asked
//
//   for i = N … 1 (tip to base)
//     L_i L_iᵀ = S_iᵀ M*_i S_i                       Cholesky factor (n_i × n_i)
//     L_i V_i  = S_iᵀ M*_i                           triangular solve (n_i × 6; Ivanov's V_i is V_i ⁱX_p)
//     L_i x_i  = p_i − S_iᵀ φ*_i                     triangular solve
//     M*_p += ⁱX_pᵀ (M*_i − V_iᵀ V_i) ⁱX_p           symmetric update
//     φ*_p += ⁱX_pᵀ (φ*_i + V_iᵀ x_i),  F*_p += ⁱX_pᵀ F*_i
//   for i = 1 … N (base to tip)
//     L_iᵀ ν_i = x_i − V_i ⁱX_p v_p                  triangular solve
//     v_i = ⁱX_p v_p + S_i ν_i,  μ_i = M*_i v_i + φ*_i,  ṗ_i (poisson_common.hpp)
//
// Every "inverse" is a triangular solve with the stored factor (its reciprocal diagonal kept).
#pragma once

#include "core/dynamics/poisson/poisson_common.hpp"

namespace kt {

class PoissonLdlSolver final : public PoissonSolverBase {
 public:
  explicit PoissonLdlSolver(const Tree& tree);
  std::string_view name() const override { return "poisson-ldl"; }

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

  std::vector<int> lOffset_;   ///< (nb) start of L_i in Lpool_ (Σ n_j²)
  std::vector<double> Lpool_;  ///< L_i, n_i × n_i column-major, lower triangle
  std::vector<double> Vpool_;  ///< V_i, n_i × 6 column-major at 6·vOffset[i]
  VectorX dinv_;               ///< (nv) 1 / diag(L_i)
  VectorX x_;                  ///< (nv) velocity right-hand side after the forward solve
  VectorX y_;                  ///< (nv) acceleration right-hand side after the forward solve
};

std::unique_ptr<Solver> makePoissonLdlSolver(const Tree& tree);

}  // namespace kt
