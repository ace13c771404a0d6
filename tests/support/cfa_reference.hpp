// SPDX-License-Identifier: BSD-3-Clause
// The Constraint Force Algorithm in its plainest form, as a lecturer would write it (docs/dynamics.md
// §5): Featherstone & Fijany (1999, §4)'s body-by-body elimination of Liu, Hu & Zhang (2016)'s
// system A λ = b (eqs. 25–37), in body coordinates, with explicit T_i and D_i and 6 × 6 matrices.
// It allocates and is slow; the tuned cfa-tree (core/dynamics/cfa/cfa_tree.cpp) is tested against it.
// This is the papers' form, on the system at rest (τ' = τ − h); cfa-tree keeps each body's bias
// terms in its own equation instead, and on long chains keeps digits this form loses
// (test_accuracy, cfaDigitsFollowItsOwnConditioning).
// Header-only: only the CFA tests include it.
#pragma once

#include <Eigen/Cholesky>

#include "core/dynamics/rnea.hpp"

namespace kt::test {

/// q̈ and the joint loads of the tree at (q, ν, τ), no applied wrenches beyond the tree's own.
inline void cfaReference(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau, VectorX& qdd,
                         JointLoads& loads) {
  using MatrixX = Eigen::MatrixXd;
  const int nb = t.nb;

  // 1. The bias pass, RNEA with q̈ = 0: f^bias_i. What is left to move the system "at rest" (no
  //    velocity, no gravity) is τ' = τ − Sᵀ f^bias (Liu et al. eq. 22).
  RneaWorkspace ws(t);
  computeKinematics(t, q, v, ws.kin);
  bodyAccelerations(t, ws.kin, VectorX::Zero(t.nv), ws.a);
  std::vector<Vec6> fBias(nb);
  jointWrenchesFromAccelerations(t, ws.kin, ws.a, {}, fBias);

  // 2. Each joint's subspaces at q: S_i (motion), T_i (constraint forces), D_i = S_i (S_iᵀ S_i)⁻¹,
  //    and its actuation wrench u_i = D_i τ'_i. X[i] = ⁱX_p as a 6 × 6 motion transform; its
  //    transpose carries a force from body i to its parent.
  std::vector<MatrixX> S(nb), T(nb), D(nb);
  std::vector<Vec6> u(nb);
  std::vector<Mat6> X(nb);
  for (int i = 0; i < nb; ++i) {
    const double* qi = q.data() + t.qOffset[i];
    Mat6N m;
    t.joints[i].motionSubspace(qi, m);
    S[i] = m;
    t.joints[i].constraintSubspace(qi, m);
    T[i] = m;
    t.joints[i].actuationSubspace(qi, m);
    D[i] = m;
    const VectorX tauPrime = tau.segment(t.vOffset[i], t.joints[i].nv) - S[i].transpose() * fBias[i];
    u[i] = D[i] * tauPrime;
    X[i] = ws.kin.X_p[i].matrix();
  }

  // 3. Tip to base. Ψ_i: the apparent inverse inertia of body i once the joints of its subtree are
  //    eliminated; α_i: its acceleration with its own joint's λ_i still unknown. Eliminating child
  //    c's joint: A_cc λ_c = b_c + B_c F_i, where F_i are the forces on body i still unknown then.
  std::vector<Mat6> Psi(nb);
  std::vector<Vec6> alpha(nb);
  std::vector<Eigen::LLT<MatrixX>> Acc(nb);  // A_cc = T_cᵀ (Ψ_c + ᶜX_i Ψ_i ᶜX_iᵀ) T_c   (eqs. 32, 37)
  std::vector<MatrixX> B(nb);                // B_c = T_cᵀ ᶜX_i Ψ_i                     (eqs. 34, 36)
  std::vector<VectorX> b(nb);                // b_c = T_cᵀ (ᶜX_i α_i − α_c)              (eq. 29)
  for (int i = nb - 1; i >= 0; --i) {
    Vec6 known = u[i];
    for (int c : t.children[i]) known -= X[c].transpose() * u[c];
    Psi[i] = t.I[i].matrix().inverse();
    alpha[i] = Psi[i] * known;
    for (int c : t.children[i]) {
      Acc[c].compute(T[c].transpose() * (Psi[c] + X[c] * Psi[i] * X[c].transpose()) * T[c]);
      B[c] = T[c].transpose() * X[c] * Psi[i];
      b[c] = T[c].transpose() * (X[c] * alpha[i] - alpha[c]);
      Psi[i] -= B[c].transpose() * Acc[c].solve(B[c]);
      alpha[i] -= B[c].transpose() * Acc[c].solve(b[c]);
    }
    if (t.parent[i] < 0) {  // a root joint: the world does not move, T_iᵀ a_i = 0
      Acc[i].compute(T[i].transpose() * Psi[i] * T[i]);
      b[i] = -T[i].transpose() * alpha[i];
    }
  }

  // 4. Base to tip: λ (back substitution, the children in the reverse order of their elimination),
  //    the at-rest accelerations a_i = α_i + Ψ_i T_i λ_i, q̈_i = D_iᵀ (a_i − ⁱX_p a_p) (eq. 28), and
  //    the joint loads f_i = f^bias_i + D_i τ'_i + T_i λ_i.
  std::vector<VectorX> lambda(nb);
  std::vector<Vec6> a(nb);
  qdd.resize(t.nv);
  for (int i = 0; i < nb; ++i) {
    const int p = t.parent[i];
    if (p < 0) lambda[i] = Acc[i].solve(b[i]);
    Vec6 F = T[i] * lambda[i];
    for (auto c = t.children[i].rbegin(); c != t.children[i].rend(); ++c) {
      lambda[*c] = Acc[*c].solve(b[*c] + B[*c] * F);
      F -= X[*c].transpose() * T[*c] * lambda[*c];
    }
    a[i] = alpha[i] + Psi[i] * T[i] * lambda[i];
    const Vec6 relative = p < 0 ? a[i] : Vec6(a[i] - X[i] * a[p]);
    qdd.segment(t.vOffset[i], t.joints[i].nv) = D[i].transpose() * relative;
    loads.f[i] = fBias[i] + u[i] + T[i] * lambda[i];
  }
  completeJointLoads(t, ws.kin, q, loads);
}

}  // namespace kt::test
