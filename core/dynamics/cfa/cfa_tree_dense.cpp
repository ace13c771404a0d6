// SPDX-License-Identifier: BSD-3-Clause
// cfa-tree's steps for dense joints: universal and gimbal joints with offset axes (JointModel::
// offset), whose S has translational rows, so that no joint frame makes it a selection of
// coordinates (cfa_tree.hpp, "Structure"; docs/dynamics.md §5, "Joint frames"). Their joint frame
// is the body frame, and each step the passes make by selecting coordinates is made here with S,
// T and D as matrices found at each q: A_cc = T_cᵀ Q T_c, V = L⁻¹ T_cᵀ ᶜX_p Ψ_p, z = L⁻¹ T_cᵀ b_c,
// the constraint wrench T_c λ_c, D τ and Sᵀ f, and q̈ = Dᵀ (a_i − ⁱX_p a_p − c_i). Kept out of
// cfa_tree.cpp so that the compiler's inlining of the passes is what it was without them.
#include "core/dynamics/cfa/cfa_tree.hpp"

namespace kt {

void CfaTreeSolver::updateDense(int i, const double* qi) {
  const JointModel& joint = tree_->joints[i];
  Mat6N M;
  joint.motionSubspace(qi, M);
  Sdense_[i].leftCols(joint.nv) = M;
  joint.actuationSubspace(qi, M);
  Ddense_[i].leftCols(joint.nv) = M;
  joint.constraintSubspace(qi, M);
  Tphys_[i].leftCols(6 - joint.nv) = M;
}

void CfaTreeSolver::eliminateDense(int c, const Mat6& PsiC, Mat6& Psi, Vec6& alpha) {
  dispatchSize(frames_[c].nc, [&]<int NC>() {
    if constexpr (NC > 0) {
      using Mat6c = Eigen::Matrix<double, 6, NC>;
      using Veccc = Eigen::Matrix<double, NC, 1>;
      BodyWork& C = w_[c];
      const Xform& X = jointTransform(c);
      const Mat6c T = Tphys_[c].leftCols<NC>();
      const Mat6 Xm = X.matrix();
      const Mat6 Bt = Psi * Xm.transpose();  // Ψ_p ᶜX_pᵀ
      const Mat6c B = Bt * T;                // (T_cᵀ ᶜX_p Ψ_p)ᵀ: −A_cp, −A_cj with the parent's columns
      const Mat6 Q = Xm * Bt + PsiC;         // Ψ_c + ᶜX_p Ψ_p ᶜX_pᵀ
      const Eigen::Matrix<double, NC, NC> A = T.transpose() * Q * T;
      PackedLower& L = C.L;
      for (int j = 0; j < NC; ++j)
        for (int r = j; r < NC; ++r) L(r, j) = A(r, j);
      ldltInPlace<NC>(L, C.invDiag.data());
      const Vec6 b = X.applyMotion(alpha) + C.c - C.alpha;
      Mat6c Vt = B;
      Veccc z = T.transpose() * b;
      schurUpdate<NC>(C, &Vt_[c], Vt, z, Psi, alpha);
    }
  });
}

void CfaTreeSolver::eliminateRhsDense(int c, Vec6& alpha) {
  dispatchSize(frames_[c].nc, [&]<int NC>() {
    if constexpr (NC > 0) {
      using Veccc = Eigen::Matrix<double, NC, 1>;
      BodyWork& C = w_[c];
      const Vec6 b = jointTransform(c).applyMotion(alpha) - C.alpha;
      Veccc z = Tphys_[c].leftCols<NC>().transpose() * b;
      solveUnitLower<NC>(C.L, z);
      C.z.template head<NC>() = z;
      z.array() *= Eigen::Map<const Veccc>(C.invDiag.data()).array();
      alpha.noalias() -= Vt_[c].template leftCols<NC>() * z;
    }
  });
}

void CfaTreeSolver::factorRootDense(int i, const Mat6& Psi) {
  dispatchSize(frames_[i].nc, [&]<int NC>() {
    if constexpr (NC > 0) {
      const Eigen::Matrix<double, 6, NC> T = Tphys_[i].leftCols<NC>();
      const Eigen::Matrix<double, NC, NC> A = T.transpose() * Psi * T;
      BodyWork& W = w_[i];
      for (int j = 0; j < NC; ++j)
        for (int r = j; r < NC; ++r) W.L(r, j) = A(r, j);
      ldltInPlace<NC>(W.L, W.invDiag.data());
    }
  });
  rootRhsDense(i, true);
}

void CfaTreeSolver::rootRhsDense(int i, bool withBias) {
  dispatchSize(frames_[i].nc, [&]<int NC>() {
    if constexpr (NC > 0) {
      BodyWork& W = w_[i];
      const Vec6 b = withBias ? Vec6(W.c - W.alpha) : Vec6(-W.alpha);
      W.z.template head<NC>() = Tphys_[i].leftCols<NC>().transpose() * b;
      solveUnitLower<NC>(W.L, W.z.template head<NC>());
    }
  });
}

void CfaTreeSolver::constraintForceDense(int i, const Vec6* Fp, Vec6& lambda) const {
  dispatchSize(frames_[i].nc, [&]<int NC>() {
    if constexpr (NC > 0) {
      using Veccc = Eigen::Matrix<double, NC, 1>;
      const BodyWork& W = w_[i];
      Veccc y = W.z.template head<NC>();
      if (Fp) y.noalias() += Vt_[i].template leftCols<NC>().transpose() * *Fp;
      y.array() *= Eigen::Map<const Veccc>(W.invDiag.data()).array();
      solveUnitLowerTransposed<NC>(W.L, y);
      lambda.noalias() = Tphys_[i].leftCols<NC>() * y;  // T_i λ_i, the constraint wrench
    }
  });
}

Vec6 CfaTreeSolver::denseMotion(int i, const double* qdd) const {
  Vec6 m = Vec6::Zero();
  for (int k = 0; k < frames_[i].nv; ++k) m += Sdense_[i].col(k) * qdd[k];
  return m;
}

Vec6 CfaTreeSolver::denseActuation(int i, const double* tau, const Vec6& f) const {
  Vec6 u = Vec6::Zero();
  for (int k = 0; k < frames_[i].nv; ++k) u += Ddense_[i].col(k) * (tau[k] - Sdense_[i].col(k).dot(f));
  return u;
}

void CfaTreeSolver::denseGeneralizedForce(int i, const Vec6& f, double* out) const {
  for (int k = 0; k < frames_[i].nv; ++k) out[k] = Sdense_[i].col(k).dot(f);
}

void CfaTreeSolver::denseAcceleration(int i, const Vec6& lambda, Vec6& a, double* qdd) const {
  const Vec6 ai = w_[i].alpha + Psi_[i] * lambda;  // Ψ_i is symmetric
  const Vec6 rel = ai - a;                         // S_i q̈_i
  for (int k = 0; k < frames_[i].nv; ++k) qdd[k] = Ddense_[i].col(k).dot(rel);
  a = ai;
}

}  // namespace kt
