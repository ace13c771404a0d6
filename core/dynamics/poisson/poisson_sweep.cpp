// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/poisson/poisson_sweep.hpp"

#include "core/dynamics/kernels/small_spd.hpp"

namespace kt {

PoissonSweepSolver::PoissonSweepSolver(const Tree& tree)
    : PoissonSolverBase(tree),
      dOffset_(tree.nb),
      Upool_(6 * static_cast<std::size_t>(tree.nv), 0.0),
      u_(VectorX::Zero(tree.nv)),
      w_(VectorX::Zero(tree.nv)) {
  int n2 = 0;
  for (int i = 0; i < tree.nb; ++i) {
    dOffset_[i] = n2;
    n2 += tree.joints[i].nv * tree.joints[i].nv;
  }
  Dpool_.assign(n2, 0.0);
}

template <int NV>
void PoissonSweepSolver::backwardBody(int i, const ArticulatedSums& sums, const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = sums.Mi;
  if constexpr (NV == 0) {
    // fixed joint: H_i = 1, the body's articulated inertia passes whole into the parent
    if (par < 0) return;
    addSymmetricCongruence(X_[i], Ms, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phi_[i]);
    if (tau) psi_[par] += X_[i].inverseForce(psi_[i] + Ms * cvp_[i]);
  } else if constexpr (NV == 6) {
    // free joint, S_i = 1: D_i = M*_i⁻¹ and H_i = 1 − M*_i D_i = 0 exactly. Nothing of the body's
    // articulated inertia passes to the parent, and what its right-hand sides pass up is p_i and
    // τ_i themselves (M*_i D_i p_i + H_i φ*_i = p_i). Evaluating H_i M*_i = M*_i − M*_i M*_i⁻¹ M*_i
    // in floating point instead sent the parent a residue of about κ(M*_i) ε ‖M*_i‖: on a light
    // body carrying heavy ones, larger than the parent's own inertia. D_i from the Cholesky factor
    // of the symmetric positive definite M*_i (Ivanov §3 inverts S_iᵀ M*_i S_i; LU would not
    // keep it symmetric).
    const int o = t.vOffset[i];
    Eigen::Map<MatNN<6>> D(Dpool_.data() + dOffset_[i]);
    D = inverseSpd<6>(Ms);
    if (p) u_.segment<6>(o).noalias() = D * (p->segment<6>(o) - phi_[i]);
    if (tau) w_.segment<6>(o).noalias() = D * (tau->segment<6>(o) - (psi_[i] + Ms * cvp_[i]));
    if (par < 0) return;
    if (sums.start) *sums.Mp = Ibody_[par];  // M*_p starts here, and this child adds nothing
    if (p) phi_[par] += X_[i].inverseForce(p->segment<6>(o));
    if (tau) psi_[par] += X_[i].inverseForce(tau->segment<6>(o));
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    // U_i = M*_i S_i; the row block S_iᵀ M*_i is U_iᵀ, since M*_i is symmetric
    Eigen::Map<Mat6x<NV>> U(Upool_.data() + 6 * o);
    U.noalias() = Ms * S;
    // D_i = (S_iᵀ M*_i S_i)⁻¹ = L_i⁻ᵀ L_i⁻¹ with S_iᵀ M*_i S_i = L_i L_iᵀ: Ivanov (§3) notes that
    // the matrices the sweep inverts are symmetric positive definite, and an LU inverse used
    // neither the symmetry nor the definiteness
    MatNN<NV> Y;
    for (int c = 0; c < NV; ++c)
      for (int r = 0; r <= c; ++r) Y(r, c) = Y(c, r) = S.col(r).dot(U.col(c));
    const MatNN<NV> Li = inverseCholeskyFactor<NV>(Y);
    Eigen::Map<MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    D.noalias() = Li.transpose() * Li;
    Vec6 phiUp, psiUp;
    if (p) {
      // M*_i S_i D_i p_i + H_i φ*_i = φ*_i + U_i u_i,  u_i = D_i (p_i − S_iᵀ φ*_i)
      auto u = u_.segment<NV>(o);
      u.noalias() = D * (p->segment<NV>(o) - S.transpose() * phi_[i]);
      phiUp.noalias() = phi_[i] + U * u;
    }
    if (tau) {
      const Vec6 psic = psi_[i] + Ms * cvp_[i];
      auto w = w_.segment<NV>(o);
      w.noalias() = D * (tau->segment<NV>(o) - S.transpose() * psic);
      psiUp.noalias() = psic + U * w;
    }
    if (par < 0) return;
    // M*_p += ⁱX_pᵀ H_i M*_i ⁱX_p with H_i M*_i = M*_i − U_i D_i U_iᵀ = M*_i − V_iᵀ V_i, V_i = L_i⁻¹ U_iᵀ:
    // symmetric and, as a Schur complement formed from the factor, positive semidefinite up to
    // rounding (U_i (D_i U_iᵀ) in floating point is not, and loses κ(S_iᵀ M*_i S_i) ε ‖M*_i‖)
    const MatXx6<NV> V = Li * U.transpose();
    Mat6 A;
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) A(r, c) = A(c, r) = Ms(r, c) - V.col(r).dot(V.col(c));
    addSymmetricCongruence(X_[i], A, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phiUp);
    if (tau) psi_[par] += X_[i].inverseForce(psiUp);
  }
}

void PoissonSweepSolver::backwardPass(const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i) {
    const ArticulatedSums sums = articulatedSums(i, /*keep=*/p != nullptr);
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardBody<NV>(i, sums, p, tau); });
    const int par = t.parent[i];
    if (p && par >= 0) Fsub_[par] += X_[i].inverseForce(Fsub_[i]);
  }
}

template <int NV>
void PoissonSweepSolver::forwardVelocityBody(int i, const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 vp = par < 0 ? Vec6::Zero() : X_[i].applyMotion(vel_[par]);
  const double* qi = q_->data() + t.qOffset[i];
  if constexpr (NV == 0) {
    vel_[i] = vp;
    if (wantAcceleration_) velocityProducts(i, Vec6::Zero(), qi, nullptr);
  } else if constexpr (NV == 6) {
    // free joint, S_i = 1: D_i M*_i = 1, so v_i = u_i exactly and ν_i = u_i − ⁱX_p v_p
    const int o = t.vOffset[i];
    auto nu = v.segment<6>(o);
    vel_[i] = u_.segment<6>(o);
    nu = vel_[i] - vp;
    const Vec6 mu = Mstar_[i] * vel_[i] + phi_[i];
    pdot.segment<6>(o) = tau.segment<6>(o) + Fsub_[i] - crossForce(vel_[i], mu);
    if (wantAcceleration_) velocityProducts(i, Vec6(nu), qi, nu.data());
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const Eigen::Map<const MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    // ν_i = D_i (p_i − S_iᵀ (φ*_i + M*_i ⁱX_p v_p)) = u_i − D_i U_iᵀ ⁱX_p v_p
    const VecNV<NV> Rv = U.transpose() * vp;
    auto nu = v.segment<NV>(o);
    nu.noalias() = u_.segment<NV>(o) - D * Rv;
    const Vec6 vJ = S * nu;
    vel_[i] = vp + vJ;
    // μ_i = M*_i v_i + φ*_i;  ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i
    const Vec6 mu = Mstar_[i] * vel_[i] + phi_[i];
    pdot.segment<NV>(o) = tau.segment<NV>(o) + S.transpose() * (Fsub_[i] - crossForce(vel_[i], mu)) +
                          motionSubspaceRateTransposeTimes<NV>(t.joints[i], S, nu.data(), mu);
    if (wantAcceleration_) velocityProducts(i, vJ, qi, nu.data());
  }
}

void PoissonSweepSolver::forwardVelocityPass(const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardVelocityBody<NV>(i, tau, v, pdot); });
}

template <int NV>
void PoissonSweepSolver::backwardAccelerationBody(int i, const VectorX& tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = Mstar_[i];
  const Vec6 psic = psi_[i] + Ms * cvp_[i];
  if constexpr (NV == 0) {
    if (par >= 0) psi_[par] += X_[i].inverseForce(psic);
  } else if constexpr (NV == 6) {
    // free joint (S_i = 1): τ_i passes to the parent (see backwardBody)
    const int o = t.vOffset[i];
    const Eigen::Map<const MatNN<6>> D(Dpool_.data() + dOffset_[i]);
    w_.segment<6>(o).noalias() = D * (tau.segment<6>(o) - psic);
    if (par >= 0) psi_[par] += X_[i].inverseForce(tau.segment<6>(o));
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const Eigen::Map<const MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    // M*_i S_i D_i τ_i + H_i (ψ_i + M*_i c_i) = ψc_i + U_i w_i,  w_i = D_i (τ_i − S_iᵀ ψc_i)
    auto w = w_.segment<NV>(o);
    w.noalias() = D * (tau.segment<NV>(o) - S.transpose() * psic);
    if (par >= 0) psi_[par] += X_[i].inverseForce(psic + U * w);
  }
}

void PoissonSweepSolver::backwardAccelerationPass(const VectorX& tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardAccelerationBody<NV>(i, tau); });
}

template <int NV>
void PoissonSweepSolver::forwardAccelerationBody(int i, VectorX& qdd) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 ap = X_[i].applyMotion(par < 0 ? baseAcceleration(t) : acc_[par]);
  if constexpr (NV == 0) {
    acc_[i] = ap + cvp_[i];
  } else if constexpr (NV == 6) {
    // free joint, S_i = 1: D_i M*_i = 1, so a_i = w_i + c_i and q̈_i = a_i − c_i − ⁱX_p a_p
    const int o = t.vOffset[i];
    acc_[i] = w_.segment<6>(o) + cvp_[i];
    qdd.segment<6>(o) = w_.segment<6>(o) - ap;
  } else {
    const int o = t.vOffset[i];
    const Eigen::Map<const MatNN<NV>> D(Dpool_.data() + dOffset_[i]);
    const Eigen::Map<const Mat6x<NV>> U(Upool_.data() + 6 * o);
    // q̈_i = D_i (τ_i − S_iᵀ (ψ_i + M*_i (c_i + ⁱX_p a_p))) = w_i − D_i U_iᵀ ⁱX_p a_p
    const VecNV<NV> Ra = U.transpose() * ap;
    auto a = qdd.segment<NV>(o);
    a.noalias() = w_.segment<NV>(o) - D * Ra;
    acc_[i] = ap + cvp_[i] + Smap<NV>(i) * a;
  }
}

void PoissonSweepSolver::forwardAccelerationPass(VectorX& qdd) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i) dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardAccelerationBody<NV>(i, qdd); });
}

std::unique_ptr<Solver> makePoissonSweepSolver(const Tree& tree) { return std::make_unique<PoissonSweepSolver>(tree); }

}  // namespace kt
