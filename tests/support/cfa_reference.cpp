// SPDX-License-Identifier: BSD-3-Clause
// The reference CFA of cfa_reference.hpp, compiled once for the tests that use it.
#include "support/cfa_reference.hpp"

#include <Eigen/Cholesky>

#include "core/dynamics/rnea.hpp"

namespace kt::test {

void cfaReferenceSolve(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau, CfaBias form,
                       VectorX& qdd, JointLoads& loads) {
  using MatrixX = Eigen::MatrixXd;
  const int nb = t.nb;
  const bool perBody = form == CfaBias::PerBody;

  // 1. Kinematics: ⁱX_p, v_i, c_i. At rest: the bias pass, RNEA with q̈ = 0, gives f^bias_i, and
  //    what is left to move the system (no velocity, no gravity) is τ' = τ − Sᵀ f^bias (Liu et al.
  //    eq. 22). Per body: p_i, c_i and the world's acceleration a_0 = −g stay in the equations.
  RneaWorkspace ws(t);
  computeKinematics(t, q, v, ws.kin);
  std::vector<Vec6> fBias(nb, Vec6::Zero());  // f°_i: f^bias_i at rest, zero per body
  std::vector<Vec6> ownWrench(nb);            // −p_i per body, zero at rest
  std::vector<Vec6> c(nb);                    // c_i per body, zero at rest
  const Vec6 a0 = perBody ? baseAcceleration(t) : Vec6::Zero();
  if (!perBody) {
    bodyAccelerations(t, ws.kin, VectorX::Zero(t.nv), ws.a);
    jointWrenchesFromAccelerations(t, ws.kin, ws.a, {}, fBias);
  }
  for (int i = 0; i < nb; ++i) {
    const Vec6& vi = ws.kin.v[i];
    ownWrench[i] = perBody ? Vec6(-(crossForce(vi, t.I[i] * vi) - appliedWrench(t, {}, i))) : Vec6::Zero();
    c[i] = perBody ? ws.kin.c[i] : Vec6::Zero();
  }

  // 2. Each joint's subspaces at q: S_i (motion), T_i (constraint forces), D_i = S_i (S_iᵀ S_i)⁻¹,
  //    and its actuation wrench u_i = D_i τ°_i (τ' at rest, τ per body). X[i] = ⁱX_p as a 6 × 6
  //    motion transform; its transpose carries a force from body i to its parent.
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
    const VectorX tau_i = tau.segment(t.vOffset[i], t.joints[i].nv) - S[i].transpose() * fBias[i];
    u[i] = D[i] * tau_i;
    X[i] = ws.kin.X_p[i].matrix();
  }

  // 3. Tip to base. Ψ_i: the apparent inverse inertia of body i once the joints of its subtree are
  //    eliminated; α_i: its acceleration with its own joint's λ_i still unknown. Eliminating child
  //    c's joint: A_cc λ_c = b_c + B_c F_i, where F_i are the forces on body i still unknown then.
  std::vector<Mat6> Psi(nb);
  std::vector<Vec6> alpha(nb);
  std::vector<Eigen::LLT<MatrixX>> Acc(nb);  // A_cc = T_cᵀ (Ψ_c + ᶜX_i Ψ_i ᶜX_iᵀ) T_c   (eqs. 32, 37)
  std::vector<MatrixX> B(nb);                // B_c = T_cᵀ ᶜX_i Ψ_i                     (eqs. 34, 36)
  std::vector<VectorX> b(nb);                // b_c = T_cᵀ (ᶜX_i α_i + c_c − α_c)       (eq. 29)
  for (int i = nb - 1; i >= 0; --i) {
    Vec6 known = u[i] + ownWrench[i];  // per body: u_i − p_i
    for (int ch : t.children[i]) known -= X[ch].transpose() * u[ch];
    Psi[i] = t.I[i].matrix().inverse();
    alpha[i] = Psi[i] * known;
    for (int ch : t.children[i]) {
      Acc[ch].compute(T[ch].transpose() * (Psi[ch] + X[ch] * Psi[i] * X[ch].transpose()) * T[ch]);
      B[ch] = T[ch].transpose() * X[ch] * Psi[i];
      b[ch] = T[ch].transpose() * (X[ch] * alpha[i] + c[ch] - alpha[ch]);  // per body: c_c
      Psi[i] -= B[ch].transpose() * Acc[ch].solve(B[ch]);
      alpha[i] -= B[ch].transpose() * Acc[ch].solve(b[ch]);
    }
    if (t.parent[i] < 0) {  // a root joint: T_iᵀ (a_i − ⁱX_0 a_0 − c_i) = 0
      Acc[i].compute(T[i].transpose() * Psi[i] * T[i]);
      b[i] = T[i].transpose() * (X[i] * a0 + c[i] - alpha[i]);  // per body: a_0 = −g and c_i
    }
  }

  // 4. Base to tip: λ (back substitution, the children in the reverse order of their elimination),
  //    the accelerations a_i = α_i + Ψ_i T_i λ_i, q̈_i = D_iᵀ (a_i − ⁱX_p a_p − c_i) (eq. 28), and
  //    the joint loads f_i = f°_i + D_i τ°_i + T_i λ_i.
  std::vector<VectorX> lambda(nb);
  std::vector<Vec6> a(nb);
  qdd.resize(t.nv);
  for (int i = 0; i < nb; ++i) {
    const int p = t.parent[i];
    if (p < 0) lambda[i] = Acc[i].solve(b[i]);
    Vec6 F = T[i] * lambda[i];
    for (auto ch = t.children[i].rbegin(); ch != t.children[i].rend(); ++ch) {
      lambda[*ch] = Acc[*ch].solve(b[*ch] + B[*ch] * F);
      F -= X[*ch].transpose() * T[*ch] * lambda[*ch];
    }
    a[i] = alpha[i] + Psi[i] * T[i] * lambda[i];
    const Vec6 relative = a[i] - X[i] * (p < 0 ? a0 : a[p]) - c[i];
    qdd.segment(t.vOffset[i], t.joints[i].nv) = D[i].transpose() * relative;
    loads.f[i] = fBias[i] + u[i] + T[i] * lambda[i];
  }
  completeJointLoads(t, ws.kin, q, loads);
}

}  // namespace kt::test
