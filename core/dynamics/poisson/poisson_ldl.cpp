// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/poisson/poisson_ldl.hpp"

#include "core/dynamics/kernels/small_spd.hpp"

namespace kt {

PoissonLdlSolver::PoissonLdlSolver(const Tree& tree)
    : PoissonSolverBase(tree),
      lOffset_(tree.nb),
      Vpool_(6 * static_cast<std::size_t>(tree.nv), 0.0),
      dinv_(VectorX::Zero(tree.nv)),
      x_(VectorX::Zero(tree.nv)),
      y_(VectorX::Zero(tree.nv)) {
  int n2 = 0;
  for (int i = 0; i < tree.nb; ++i) {
    lOffset_[i] = n2;
    n2 += tree.joints[i].nv * tree.joints[i].nv;
  }
  Lpool_.assign(n2, 0.0);
}

template <int NV>
void PoissonLdlSolver::backwardBody(int i, const ArticulatedSums& sums, const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = sums.Mi;
  if constexpr (NV == 0) {
    // fixed joint: the body's articulated inertia passes whole into the parent
    if (par < 0) return;
    addSymmetricCongruence(X_[i], Ms, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phi_[i]);
    if (tau) psi_[par] += X_[i].inverseForce(psi_[i] + Ms * cvp_[i]);
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const Mat6x<NV> U = Ms * S;  // M*_i S_i
    // L_i L_iᵀ = S_iᵀ M*_i S_i
    Eigen::Map<MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    MatNN<NV> Y = S.transpose() * U;
    double* dinv = dinv_.data() + o;
    choleskyInPlace<NV>(Y, dinv);
    L = Y;
    // L_i V_i = S_iᵀ M*_i
    Eigen::Map<MatXx6<NV>> V(Vpool_.data() + 6 * o);
    V = U.transpose();
    solveLower<NV>(Y, dinv, V);
    Vec6 phiUp, psiUp;
    if (p) {
      // L_i x_i = p_i − S_iᵀ φ*_i
      auto x = x_.segment<NV>(o);
      x = p->segment<NV>(o) - S.transpose() * phi_[i];
      solveLower<NV>(Y, dinv, x);
      phiUp.noalias() = phi_[i] + V.transpose() * x;
    }
    if (tau) {
      // L_i y_i = τ_i − S_iᵀ (ψ_i + M*_i c_i)
      const Vec6 psic = psi_[i] + Ms * cvp_[i];
      auto y = y_.segment<NV>(o);
      y = tau->segment<NV>(o) - S.transpose() * psic;
      solveLower<NV>(Y, dinv, y);
      psiUp.noalias() = psic + V.transpose() * y;
    }
    if (par < 0) return;
    // M*_p += ⁱX_pᵀ (M*_i − V_iᵀ V_i) ⁱX_p: one triangle of the symmetric update
    Mat6 A;
    for (int c = 0; c < 6; ++c)
      for (int r = 0; r <= c; ++r) A(r, c) = A(c, r) = Ms(r, c) - V.col(r).dot(V.col(c));
    addSymmetricCongruence(X_[i], A, *sums.Mp, sums.start);
    if (p) phi_[par] += X_[i].inverseForce(phiUp);
    if (tau) psi_[par] += X_[i].inverseForce(psiUp);
  }
}

void PoissonLdlSolver::backwardPass(const VectorX* p, const VectorX* tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i) {
    const ArticulatedSums sums = articulatedSums(i, /*keep=*/p != nullptr);
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardBody<NV>(i, sums, p, tau); });
    const int par = t.parent[i];
    if (p && par >= 0) Fsub_[par] += X_[i].inverseForce(Fsub_[i]);
  }
}

template <int NV>
void PoissonLdlSolver::forwardVelocityBody(int i, const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 vp = par < 0 ? Vec6::Zero() : X_[i].applyMotion(vel_[par]);
  const double* qi = q_->data() + t.qOffset[i];
  if constexpr (NV == 0) {
    vel_[i] = vp;
    if (wantAcceleration_) velocityProducts(i, Vec6::Zero(), qi, nullptr);
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const Eigen::Map<const MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    const Eigen::Map<const MatXx6<NV>> V(Vpool_.data() + 6 * o);
    // L_iᵀ ν_i = x_i − V_i ⁱX_p v_p
    auto nu = v.segment<NV>(o);
    nu = x_.segment<NV>(o) - V * vp;
    solveLowerTransposed<NV>(L, dinv_.data() + o, nu);
    const Vec6 vJ = S * nu;
    vel_[i] = vp + vJ;
    // μ_i = M*_i v_i + φ*_i;  ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i
    const Vec6 mu = Mstar_[i] * vel_[i] + phi_[i];
    pdot.segment<NV>(o) = tau.segment<NV>(o) + S.transpose() * (Fsub_[i] - crossForce(vel_[i], mu)) +
                          motionSubspaceRateTransposeTimes<NV>(t.joints[i], S, nu.data(), mu);
    if (wantAcceleration_) velocityProducts(i, vJ, qi, nu.data());
  }
}

void PoissonLdlSolver::forwardVelocityPass(const VectorX& tau, VectorX& v, VectorX& pdot) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardVelocityBody<NV>(i, tau, v, pdot); });
}

template <int NV>
void PoissonLdlSolver::backwardAccelerationBody(int i, const VectorX& tau) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Mat6& Ms = Mstar_[i];
  const Vec6 psic = psi_[i] + Ms * cvp_[i];
  if constexpr (NV == 0) {
    if (par >= 0) psi_[par] += X_[i].inverseForce(psic);
  } else {
    const int o = t.vOffset[i];
    const auto S = Smap<NV>(i);
    const Eigen::Map<const MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    const Eigen::Map<const MatXx6<NV>> V(Vpool_.data() + 6 * o);
    // L_i y_i = τ_i − S_iᵀ (ψ_i + M*_i c_i)
    auto y = y_.segment<NV>(o);
    y = tau.segment<NV>(o) - S.transpose() * psic;
    solveLower<NV>(L, dinv_.data() + o, y);
    if (par >= 0) psi_[par] += X_[i].inverseForce(psic + V.transpose() * y);
  }
}

void PoissonLdlSolver::backwardAccelerationPass(const VectorX& tau) {
  const Tree& t = *tree_;
  for (int i = nb_ - 1; i >= 0; --i)
    dispatchSize(t.joints[i].nv, [&]<int NV>() { backwardAccelerationBody<NV>(i, tau); });
}

template <int NV>
void PoissonLdlSolver::forwardAccelerationBody(int i, VectorX& qdd) {
  const Tree& t = *tree_;
  const int par = t.parent[i];
  const Vec6 ap = X_[i].applyMotion(par < 0 ? baseAcceleration(t) : acc_[par]);
  if constexpr (NV == 0) {
    acc_[i] = ap + cvp_[i];
  } else {
    const int o = t.vOffset[i];
    const Eigen::Map<const MatNN<NV>> L(Lpool_.data() + lOffset_[i]);
    const Eigen::Map<const MatXx6<NV>> V(Vpool_.data() + 6 * o);
    // L_iᵀ q̈_i = y_i − V_i ⁱX_p a_p
    auto a = qdd.segment<NV>(o);
    a = y_.segment<NV>(o) - V * ap;
    solveLowerTransposed<NV>(L, dinv_.data() + o, a);
    acc_[i] = ap + cvp_[i] + Smap<NV>(i) * a;
  }
}

void PoissonLdlSolver::forwardAccelerationPass(VectorX& qdd) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i) dispatchSize(t.joints[i].nv, [&]<int NV>() { forwardAccelerationBody<NV>(i, qdd); });
}

std::unique_ptr<Solver> makePoissonLdlSolver(const Tree& tree) { return std::make_unique<PoissonLdlSolver>(tree); }

}  // namespace kt
