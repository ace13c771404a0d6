// SPDX-License-Identifier: BSD-3-Clause
// The passes of PoissonSolver (poisson_solver.hpp), defined once for both factors. Included only by
// poisson_sweep.cpp and poisson_ldl.cpp, which instantiate it with one factor each: with both
// instantiations in one translation unit, GCC inlined fewer of the small Eigen kernels into the
// passes.
#pragma once

#include "core/dynamics/poisson/poisson_solver.hpp"

namespace kt {

template <class Factor>
PoissonSolver<Factor>::PoissonSolver(const Tree& tree)
    : PoissonSolverBase(tree), factor_(tree), kv_(VectorX::Zero(tree.nv)), ka_(VectorX::Zero(tree.nv)) {}

template <class Factor>
template <int NV>
void PoissonSolver<Factor>::backwardBody(int i, const ArticulatedSums& sums, const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = sums.Mi;
  if constexpr (NV == 0) {
    // fixed joint: H_i = 1, the body's articulated inertia passes whole into the parent
    if (par < 0) return;
    addSymmetricCongruence(X_[i], Ms, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phi_[i]);
    if (tau) psi_[par] += X_[i].inverseForce(psi_[i] + Ms * cvp_[i]);
  } else if constexpr (NV == 6 && Factor::kExactFreeJoint) {
    // free joint, S_i = 1: D_i = M*_i⁻¹ and H_i = 1 − M*_i D_i = 0 exactly. Nothing of the body's
    // articulated inertia passes to the parent, and what its right-hand sides pass up is p_i and
    // τ_i themselves (M*_i D_i p_i + H_i φ*_i = p_i). Evaluating H_i M*_i = M*_i − M*_i M*_i⁻¹ M*_i
    // in floating point instead sent the parent a residue of about κ(M*_i) ε ‖M*_i‖: on a light
    // body carrying heavy ones, larger than the parent's own inertia.
    const int o = t.vOffset[i];
    factor_.factorFreeJoint(i, Ms);
    if (p) factor_.template solveTowardsBase<6>(i, o, p->segment<6>(o) - phi_[i], kv_.segment<6>(o));
    if (tau)
      factor_.template solveTowardsBase<6>(i, o, tau->segment<6>(o) - (psi_[i] + Ms * cvp_[i]), ka_.segment<6>(o));
    if (par < 0) return;
    if (sums.start) *sums.Mp = Ibody_[par];  // M*_p starts here, and this child adds nothing
    if (p) phi_[par] += X_[i].inverseForce(p->segment<6>(o));
    if (tau) psi_[par] += X_[i].inverseForce(tau->segment<6>(o));
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const auto f = factor_.template factor<NV>(i, o, Ms, S);
    Vec6 phiUp, psiUp;
    if (p) {
      auto k = kv_.segment<NV>(o);
      factor_.template solveTowardsBase<NV>(i, o, p->segment<NV>(o) - S.transpose() * phi_[i], k);
      phiUp = factor_.template handedUp<NV>(o, phi_[i], k);
    }
    if (tau) {
      const Vec6 psic = psi_[i] + Ms * cvp_[i];
      auto k = ka_.segment<NV>(o);
      factor_.template solveTowardsBase<NV>(i, o, tau->segment<NV>(o) - S.transpose() * psic, k);
      psiUp = factor_.template handedUp<NV>(o, psic, k);
    }
    if (par < 0) return;
    // M*_p += ⁱX_pᵀ (M*_i − V_iᵀ V_i) ⁱX_p: one triangle of the symmetric update
    const auto V = factor_.template schurRows<NV>(o, f);
    Mat6 A;
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) A(r, c) = A(c, r) = Ms(r, c) - V.col(r).dot(V.col(c));
    addSymmetricCongruence(X_[i], A, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phiUp);
    if (tau) psi_[par] += X_[i].inverseForce(psiUp);
  }
}

template <class Factor>
void PoissonSolver<Factor>::backwardPass(const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i) {
    const ArticulatedSums sums = articulatedSums(i, /*keep=*/p != nullptr);
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardBody<NV>(i, sums, p, tau); });
    const int par = t.parent[i];
    if (p && par >= 0) Fsub_[par] += X_[i].inverseForce(Fsub_[i]);
  }
}

template <class Factor>
template <int NV>
void PoissonSolver<Factor>::forwardVelocityBody(int i, const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 vp = par < 0 ? Vec6::Zero() : X_[i].applyMotion(vel_[par]);
  const double* qi = q_->data() + t.qOffset[i];
  if constexpr (NV == 0) {
    vel_[i] = vp;
    if (wantAcceleration_) velocityProducts(i, Vec6::Zero(), qi, nullptr);
  } else if constexpr (NV == 6 && Factor::kExactFreeJoint) {
    // free joint, S_i = 1: D_i M*_i = 1, so v_i = u_i exactly and ν_i = u_i − ⁱX_p v_p
    const int o = t.vOffset[i];
    auto nu = v.segment<6>(o);
    vel_[i] = kv_.segment<6>(o);
    nu = vel_[i] - vp;
    const Vec6 mu = Mstar_[i] * vel_[i] + phi_[i];
    pdot.segment<6>(o) = tau.segment<6>(o) + Fsub_[i] - crossForce(vel_[i], mu);
    if (wantAcceleration_) velocityProducts(i, Vec6(nu), qi, nu.data());
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    auto nu = v.segment<NV>(o);
    factor_.template solveTowardsTips<NV>(i, o, kv_.segment<NV>(o), vp, nu);
    const Vec6 vJ = S * nu;
    vel_[i] = vp + vJ;
    // μ_i = M*_i v_i + φ*_i;  ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i
    const Vec6 mu = Mstar_[i] * vel_[i] + phi_[i];
    pdot.segment<NV>(o) = tau.segment<NV>(o) + S.transpose() * (Fsub_[i] - crossForce(vel_[i], mu)) +
                          motionSubspaceRateTransposeTimes<NV>(t.joints[i], S, nu.data(), mu);
    if (wantAcceleration_) velocityProducts(i, vJ, qi, nu.data());
  }
}

template <class Factor>
void PoissonSolver<Factor>::forwardVelocityPass(const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardVelocityBody<NV>(i, tau, v, pdot); });
}

template <class Factor>
template <int NV>
void PoissonSolver<Factor>::backwardAccelerationBody(int i, const VectorX& tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = Mstar_[i];
  const Vec6 psic = psi_[i] + Ms * cvp_[i];
  if constexpr (NV == 0) {
    if (par >= 0) psi_[par] += X_[i].inverseForce(psic);
  } else if constexpr (NV == 6 && Factor::kExactFreeJoint) {
    // free joint (S_i = 1): τ_i passes to the parent (see backwardBody)
    const int o = t.vOffset[i];
    factor_.template solveTowardsBase<6>(i, o, tau.segment<6>(o) - psic, ka_.segment<6>(o));
    if (par >= 0) psi_[par] += X_[i].inverseForce(tau.segment<6>(o));
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    // k_i from τ_i − S_iᵀ ψc_i, ψc_i = ψ_i + M*_i c_i; ψ_p += ⁱX_pᵀ (ψc_i + U_i D_i k_i)
    auto k = ka_.segment<NV>(o);
    factor_.template solveTowardsBase<NV>(i, o, tau.segment<NV>(o) - S.transpose() * psic, k);
    if (par >= 0) psi_[par] += X_[i].inverseForce(factor_.template handedUp<NV>(o, psic, k));
  }
}

template <class Factor>
void PoissonSolver<Factor>::backwardAccelerationPass(const VectorX& tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardAccelerationBody<NV>(i, tau); });
}

template <class Factor>
template <int NV>
void PoissonSolver<Factor>::forwardAccelerationBody(int i, VectorX& qdd) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 ap = X_[i].applyMotion(par < 0 ? baseAcceleration(t) : acc_[par]);
  if constexpr (NV == 0) {
    acc_[i] = ap + cvp_[i];
  } else if constexpr (NV == 6 && Factor::kExactFreeJoint) {
    // free joint, S_i = 1: D_i M*_i = 1, so a_i = w_i + c_i and q̈_i = a_i − c_i − ⁱX_p a_p
    const int o = t.vOffset[i];
    acc_[i] = ka_.segment<6>(o) + cvp_[i];
    qdd.segment<6>(o) = ka_.segment<6>(o) - ap;
  } else {
    const int o = t.vOffset[i];
    // q̈_i from k_i and ⁱX_p a_p;  a_i = ⁱX_p a_p + c_i + S_i q̈_i
    auto a = qdd.segment<NV>(o);
    factor_.template solveTowardsTips<NV>(i, o, ka_.segment<NV>(o), ap, a);
    acc_[i] = ap + cvp_[i] + Smap<NV>(i) * a;
  }
}

template <class Factor>
void PoissonSolver<Factor>::forwardAccelerationPass(VectorX& qdd) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i) dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardAccelerationBody<NV>(i, qdd); });
}

}  // namespace kt
