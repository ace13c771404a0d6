// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/cfa/cfa_common.hpp"

#include <Eigen/Cholesky>

#include "core/dynamics/rnea.hpp"

namespace kt {
namespace {

// Copies a 6×k block into a zero-padded 6×6.
void pad(const Mat6N& src, Mat6& dst) {
  dst.setZero();
  dst.leftCols(src.cols()) = src;
}

}  // namespace

CfaCommon::CfaCommon(const Tree& tree)
    : tree_(&tree),
      m_(tree.nb),
      T_(tree.nb),
      D_(tree.nb),
      Iinv_(tree.nb),
      IinvT_(tree.nb),
      K_(tree.nb),
      Z_(tree.nb, Mat6::Zero()),
      Y_(tree.nb, Mat6::Zero()),
      Aii_(tree.nb, Mat6::Zero()),
      Aip_(tree.nb, Mat6::Zero()),
      aRnea_(tree.nb),
      aPhi_(tree.nb),
      fBias_(tree.nb),
      u_(tree.nb),
      fAtRest_(tree.nb),
      w_(tree.nb),
      x_(tree.nb),
      y_(tree.nb) {
  kin_.resize(tree);
  const VectorX q = tree.initialQ;
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    m_[i] = 6 - joint.nv;
    if (joint.subspacesDependOnQ()) qDependent_.push_back(i);
    const double* qi = q.data() + tree.qOffset[i];
    joint.constraintSubspace(qi, scratch_);
    pad(scratch_, T_[i]);
    joint.actuationSubspace(qi, scratch_);
    pad(scratch_, D_[i]);
    Iinv_[i] = tree.I[i].matrix().llt().solve(Mat6::Identity());
    IinvT_[i].noalias() = Iinv_[i] * T_[i];
    K_[i].noalias() = T_[i].transpose() * IinvT_[i];
    for (int c = m_[i]; c < 6; ++c) K_[i](c, c) = 1.0;
  }
}

void CfaCommon::updateQDependent(const VectorX& q) {
  for (int i : qDependent_) {
    const JointModel& joint = tree_->joints[i];
    const double* qi = q.data() + tree_->qOffset[i];
    joint.constraintSubspace(qi, scratch_);
    pad(scratch_, T_[i]);
    joint.actuationSubspace(qi, scratch_);
    pad(scratch_, D_[i]);
    IinvT_[i].noalias() = Iinv_[i] * T_[i];
    K_[i].noalias() = T_[i].transpose() * IinvT_[i];
    for (int c = m_[i]; c < 6; ++c) K_[i](c, c) = 1.0;
  }
}

void CfaCommon::prepare(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext) {
  const Tree& t = *tree_;
  // pass 1 and the bias pass (RNEA with q̈ = 0, a_0 = −g): f^bias, h = Sᵀ f^bias
  computeKinematics(t, q, v, kin_);
  const Vec6 a0 = baseAcceleration(t);
  for (int i = 0; i < t.nb; ++i) {
    const int p = t.parent[i];
    aRnea_[i] = kin_.X_p[i].applyMotion(p < 0 ? a0 : aRnea_[p]) + kin_.c[i];
  }
  jointWrenchesFromAccelerations(t, kin_, aRnea_, fext, fBias_);
  updateQDependent(q);
  actuation(tau);
}

void CfaCommon::refinementActuation(const VectorX& qdd, const VectorX& tau, ExternalWrenches fext) {
  // RNEA at q̈ in one piece: the bias and the acceleration part summed per body before the
  // subtree sums (apart, gravity's and the inertial subtree wrenches grow far larger than their
  // difference, and their rounding would swamp the residual)
  bodyAccelerations(*tree_, kin_, qdd, aRnea_);
  jointWrenchesFromAccelerations(*tree_, kin_, aRnea_, fext, fBias_);
  actuation(tau);
}

void CfaCommon::actuation(const VectorX& tau) {
  const Tree& t = *tree_;
  // τ'_i = τ_i − S_iᵀ f_i and u_i = D_i τ'_i (Liu et al.'s equivalent control force F_T)
  for (int i = 0; i < t.nb; ++i) {
    const int n = t.joints[i].nv;
    if (n == 0) {
      u_[i].setZero();
      continue;
    }
    Vec6 tauPrime = Vec6::Zero();
    tauPrime.head(n) = tau.segment(t.vOffset[i], n) - kin_.S[i].transpose() * fBias_[i];
    u_[i].noalias() = D_[i] * tauPrime;
  }
}

void CfaCommon::applyPhi(const std::vector<Vec6>& x, std::vector<Vec6>& y) {
  const Tree& t = *tree_;
  // Pᵀ x: each body's net wrench, its own joint's minus what its children's joints take away
  for (int i = 0; i < t.nb; ++i) w_[i] = x[i];
  for (int i = t.nb - 1; i >= 0; --i) {
    const int p = t.parent[i];
    if (p >= 0) w_[p] -= kin_.X_p[i].inverseForce(x[i]);
  }
  // I⁻¹ per body, then P: each joint's relative acceleration a_i − ⁱX_p a_p
  for (int i = 0; i < t.nb; ++i) aPhi_[i].noalias() = Iinv_[i] * w_[i];
  for (int i = 0; i < t.nb; ++i) {
    const int p = t.parent[i];
    y[i] = p < 0 ? aPhi_[i] : Vec6(aPhi_[i] - kin_.X_p[i].applyMotion(aPhi_[p]));
  }
}

void CfaCommon::rhs(std::vector<Vec6>& b) {
  applyPhi(u_, y_);
  for (int i = 0; i < tree_->nb; ++i) b[i].noalias() = -T_[i].transpose() * y_[i];
}

void CfaCommon::residual(const std::vector<Vec6>& lambda, const std::vector<Vec6>& b, std::vector<Vec6>& r) {
  const Tree& t = *tree_;
  for (int i = 0; i < t.nb; ++i) x_[i].noalias() = T_[i] * lambda[i];
  applyPhi(x_, y_);
  for (int i = 0; i < t.nb; ++i) {
    r[i] = b[i];
    r[i].noalias() -= T_[i].transpose() * y_[i];
    for (int c = m_[i]; c < 6; ++c) r[i][c] -= lambda[i][c];
  }
}

void CfaCommon::blocks() {
  const Tree& t = *tree_;
  for (int i = 0; i < t.nb; ++i) {
    const int p = t.parent[i];
    if (p < 0) {
      Aii_[i] = K_[i];
      continue;
    }
    // Z_i = ⁱX_pᵀ T_i (only the first m_i columns are nonzero), Y_i = I_p⁻¹ Z_i
    for (int c = 0; c < m_[i]; ++c) Z_[i].col(c) = kin_.X_p[i].inverseForce(T_[i].col(c));
    Y_[i].noalias() = Iinv_[p] * Z_[i];
    // Liu et al. eqs. 32, 37: A_ii = T_iᵀ (I_i⁻¹ + ⁱX_p I_p⁻¹ ⁱX_pᵀ) T_i; eq. 34: A_ip = −T_iᵀ ⁱX_p I_p⁻¹ T_p
    Aii_[i] = K_[i];
    Aii_[i].noalias() += Z_[i].transpose() * Y_[i];
    Aip_[i].noalias() = -Y_[i].transpose() * T_[p];
  }
}

void CfaCommon::finish(const std::vector<Vec6>& lambda, const VectorX& q, VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  if (qdd.size() != t.nv) qdd.resize(t.nv);
  // f_rest = D τ' + T λ; q̈ = Dᵀ Φ f_rest (Liu et al. eq. 28)
  for (int i = 0; i < t.nb; ++i) {
    fAtRest_[i] = u_[i];
    fAtRest_[i].noalias() += T_[i] * lambda[i];
  }
  applyPhi(fAtRest_, y_);
  for (int i = 0; i < t.nb; ++i) {
    const int n = t.joints[i].nv;
    if (n > 0) qdd.segment(t.vOffset[i], n).noalias() = D_[i].leftCols(n).transpose() * y_[i];
  }
  if (loads) {
    for (int i = 0; i < t.nb; ++i) loads->f[i] = fBias_[i] + fAtRest_[i];
    completeJointLoads(t, kin_, q, *loads);
  }
}

}  // namespace kt
