// SPDX-License-Identifier: BSD-3-Clause
// Poisson-impulse solver, sweep ("метод прогонки") form: Ivanov (2017), §3 "Алгоритм метода
// прогонки". O(N) for every tree; state (q, p), p = M(q) ν (docs/dynamics.md §6).
// in:  q (nq), p (nv), τ (nv)     out: ν (nv), ṗ (nv); q̈ (nv) and joint loads when asked
//
//   for i = N … 1 (tip to base)
//     D_i = (S_iᵀ M*_i S_i)⁻¹                        explicit inverse (n_i × n_i)
//     H_i = 1 − M*_i S_i D_i S_iᵀ
//     M*_p += ⁱX_pᵀ H_i M*_i ⁱX_p                    (H_i M*_i = M*_i − (M*_i S_i) D_i (M*_i S_i)ᵀ)
//     φ*_p += ⁱX_pᵀ (M*_i S_i D_i p_i + H_i φ*_i),  F*_p += ⁱX_pᵀ F*_i
//   for i = 1 … N (base to tip)
//     ν_i = D_i (p_i − S_iᵀ (φ*_i + M*_i ⁱX_p v_p))
//     v_i = ⁱX_p v_p + S_i ν_i,  μ_i = M*_i v_i + φ*_i,  ṗ_i (poisson_common.hpp)
//
// A free joint (S_i = 1) takes the same steps with H_i = 0 and D_i M*_i = 1 written exactly
// (D_i from the Cholesky factor of M*_i): evaluated in floating point they leave a residue of
// κ(M*_i) ε ‖M*_i‖ in the parent, which ruins a light parent of heavy bodies.
//
// M*_i is symmetric positive definite and is carried so: the row block S_iᵀ M*_i is the transpose
// of the stored column block U_i = M*_i S_i, D_i = L_i⁻ᵀ L_i⁻¹ from the Cholesky factor
// L_i L_iᵀ = S_iᵀ M*_i S_i (Ivanov §3: the matrices the sweep inverts are symmetric positive
// definite), and the update is M*_i − V_iᵀ V_i with V_i = L_i⁻¹ U_iᵀ, one triangle formed. On a
// random tree with mass ratios of 1e3, q̈ was 1.8e-8 from an extended-precision solve with the LU
// inverse and the unsymmetric update M*_i − (U_i D_i) R_i, 1.1e-7 with a symmetric M*_i but the
// update (U_i D_i) U_iᵀ through the explicit inverse, and is 3.0e-11 from the factor
// (4 κ(M) ε = 2.8e-9).
#pragma once

#include "core/dynamics/poisson/poisson_common.hpp"

namespace kt {

class PoissonSweepSolver final : public PoissonSolverBase {
 public:
  explicit PoissonSweepSolver(const Tree& tree);
  std::string_view name() const override { return "poisson-sweep"; }

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

  std::vector<int> dOffset_;   ///< (nb) start of D_i in Dpool_ (Σ n_j²)
  std::vector<double> Dpool_;  ///< D_i = (S_iᵀ M*_i S_i)⁻¹, n_i × n_i column-major
  std::vector<double> Upool_;  ///< U_i = M*_i S_i, 6 × n_i column-major at 6·vOffset[i]
  VectorX u_;                  ///< (nv) D_i (p_i − S_iᵀ φ*_i)
  VectorX w_;                  ///< (nv) D_i (τ_i − S_iᵀ (ψ_i + M*_i c_i))
};

std::unique_ptr<Solver> makePoissonSweepSolver(const Tree& tree);

}  // namespace kt
