// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/poisson/poisson_common.hpp"

#include <algorithm>

#include "core/dynamics/rnea.hpp"

namespace kt {

// X = ᶜX_p = [E 0; −E r̃ E] = blkdiag(E, E) · T with T = [1 0; −r̃ 1], so
//   Xᵀ A X = Tᵀ B T,  B = blkdiag(E, E)ᵀ A blkdiag(E, E)  (blockwise B_kl = Eᵀ A_kl E),
//   Tᵀ B T = [B11 + r̃ B21 − C12 r̃,  C12;  B21 − B22 r̃,  B22]   with C12 = B12 + r̃ B22.
// Columns of r̃ M are r × (columns of M); rows of M r̃ are (rows of M) × r.

void addSymmetricCongruence(const Xform& X, const Mat6& A, Mat6& Mp, const Inertia* start) {
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  const Mat3 A11E = A.topLeftCorner<3, 3>() * E;
  const Mat3 A22E = A.bottomRightCorner<3, 3>() * E;
  const Mat3 B12 = E.transpose() * (A.topRightCorner<3, 3>() * E);
  // B11, B22 symmetric: one triangle, then mirrored
  Mat3 B11, B22;
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k <= c; ++k) {
      B11(k, c) = B11(c, k) = E.col(k).dot(A11E.col(c));
      B22(k, c) = B22(c, k) = E.col(k).dot(A22E.col(c));
    }
  Mat3 C12;
  for (int c = 0; c < 3; ++c) C12.col(c) = B12.col(c) + r.cross(B22.col(c));
  // C11 = B11 + r̃ B12ᵀ − C12 r̃, symmetric: (r̃ B12ᵀ)(k, c) = (r × B12.row(c))_k, (C12 r̃)(k, c) = (C12.row(k) × r)_c
  Mat3 RB, CR;
  for (int c = 0; c < 3; ++c) {
    RB.col(c) = r.cross(B12.row(c).transpose());
    CR.row(c) = C12.row(c).cross(r.transpose());
  }
  if (start) {
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k <= c; ++k) {
        const double v = B11(k, c) + RB(k, c) - CR(k, c);
        Mp(k, c) = start->Io(k, c) + v;
        if (k != c) Mp(c, k) = start->Io(c, k) + v;
      }
    const Mat3 hx = skew(start->h);
    Mp.topRightCorner<3, 3>() = hx + C12;
    Mp.bottomLeftCorner<3, 3>() = hx.transpose() + C12.transpose();
    Mp.bottomRightCorner<3, 3>() = start->m * Mat3::Identity() + B22;
    return;
  }
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k <= c; ++k) {
      const double v = B11(k, c) + RB(k, c) - CR(k, c);
      Mp(k, c) += v;
      if (k != c) Mp(c, k) += v;
    }
  Mp.topRightCorner<3, 3>() += C12;
  Mp.bottomLeftCorner<3, 3>() += C12.transpose();
  Mp.bottomRightCorner<3, 3>() += B22;
}

void addGeneralCongruence(const Xform& X, const Mat6& A, Mat6& Mp) {
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  const Mat3 B11 = E.transpose() * (A.topLeftCorner<3, 3>() * E);
  const Mat3 B12 = E.transpose() * (A.topRightCorner<3, 3>() * E);
  const Mat3 B21 = E.transpose() * (A.bottomLeftCorner<3, 3>() * E);
  const Mat3 B22 = E.transpose() * (A.bottomRightCorner<3, 3>() * E);
  Mat3 C12, C21, C11;
  for (int c = 0; c < 3; ++c) C12.col(c) = B12.col(c) + r.cross(B22.col(c));
  for (int k = 0; k < 3; ++k) C21.row(k) = B21.row(k) - B22.row(k).cross(r.transpose());
  for (int c = 0; c < 3; ++c) C11.col(c) = B11.col(c) + r.cross(B21.col(c));
  for (int k = 0; k < 3; ++k) C11.row(k) -= C12.row(k).cross(r.transpose());
  Mp.topLeftCorner<3, 3>() += C11;
  Mp.topRightCorner<3, 3>() += C12;
  Mp.bottomLeftCorner<3, 3>() += C21;
  Mp.bottomRightCorner<3, 3>() += B22;
}

PoissonSolverBase::PoissonSolverBase(const Tree& tree)
    : Solver(tree),
      nb_(tree.nb),
      Spool_(6 * static_cast<std::size_t>(tree.nv), 0.0),
      Ibody_(tree.nb),
      Mstar_(tree.nb),
      phi_(tree.nb),
      mu_(tree.nb),
      psi_(tree.nb),
      Fsub_(tree.nb),
      gBody_(tree.nb),
      acc_(tree.nb),
      qddScratch_(VectorX::Zero(tree.nv)) {
  kin_.resize(tree);
  handover_ = SweepHandover(tree);
  for (int i = 0; i < nb_; ++i) {
    Ibody_[i] = tree.I[i].matrix();
    const JointModel& joint = tree.joints[i];
    if (joint.nv > 0 && !joint.subspacesDependOnQ())
      std::copy(kin_.S[i].data(), kin_.S[i].data() + 6 * joint.nv, Spool_.data() + 6 * tree.vOffset[i]);
  }
}

PoissonSolverBase::ArticulatedSums PoissonSolverBase::articulatedSums(int i, bool keep) {
  const int par = tree_->parent[i];
  const Mat6* Mi = &Mstar_[i];
  if (!keep && handover_.arrivesInLocal(i)) {
    Mi = &carry_[i];
  } else if (handover_.isLeaf(i)) {
    if (keep) {
      Mstar_[i] = Ibody_[i];
    } else {
      Mi = &Ibody_[i];
    }
  }
  if (par < 0) return {*Mi, nullptr, nullptr};
  const bool inLocal = !keep && handover_.handsOverInLocal(i);
  Mat6* Mp = inLocal ? &carry_[par] : &Mstar_[par];
  if (handover_.startsParent(i)) return {*Mi, Mp, &tree_->I[par]};
  if (inLocal) *Mp = Mstar_[par];  // the sums of the children visited before i
  return {*Mi, Mp, nullptr};
}

void PoissonSolverBase::positionPass(const VectorX& q, const VectorX* v, bool worldPoses) {
  const Tree& t = *tree_;
  Mat6N S;
  for (int i = 0; i < nb_; ++i) {
    const JointModel& joint = t.joints[i];
    const double* qi = q.data() + t.qOffset[i];
    const int p = t.parent[i];
    X_[i] = joint.placement(qi, t.X_T[i]);
    if (worldPoses) kin_.X_0[i] = p < 0 ? X_[i] : X_[i] * kin_.X_0[p];
    if (joint.nv > 0 && joint.subspacesDependOnQ()) {
      joint.motionSubspace(qi, S);
      std::copy(S.data(), S.data() + 6 * joint.nv, Spool_.data() + 6 * t.vOffset[i]);
    }
    if (v) {
      // forwardDynamics: velocities given, acceleration right-hand side
      const double* vi = v->data() + t.vOffset[i];
      const Vec6 vJ = joint.jointVelocity(qi, vi);
      vel_[i] = p < 0 ? vJ : Vec6(X_[i].applyMotion(vel_[p]) + vJ);
      velocityProducts(i, vJ, qi, vi);
    } else {
      // impulse form: gravity in body axes, subtree wrenches start with the body's own
      gBody_[i] = X_[i].E * (p < 0 ? t.gravity : gBody_[p]);
      const Inertia& I = t.I[i];
      Fsub_[i] = appliedWrench(t, fext_, i) + spatial(I.h.cross(gBody_[i]), I.m * gBody_[i]);
      phi_[i].setZero();
    }
  }
}

void PoissonSolverBase::velocityProducts(int i, const Vec6& vJ, const double* qi, const double* vi) {
  const Tree& t = *tree_;
  cvp_[i] = crossMotion(vel_[i], vJ) + t.joints[i].velocityProduct(qi, vi);
  psi_[i] = crossForce(vel_[i], t.I[i] * vel_[i]) - appliedWrench(t, fext_, i);
}

void PoissonSolverBase::computeLoads(const VectorX& q, JointLoads& loads) {
  const Tree& t = *tree_;
  for (int i = 0; i < nb_; ++i) {
    const int nv = t.joints[i].nv;
    if (nv > 0 && t.joints[i].subspacesDependOnQ())  // the constant ones: set by Kinematics::resize
      kin_.S[i] = Eigen::Map<const Eigen::Matrix<double, 6, Eigen::Dynamic>>(Spool_.data() + 6 * t.vOffset[i], 6, nv);
  }
  jointWrenchesFromAccelerations(t, kin_, acc_, fext_, loads.f);
  completeJointLoads(t, kin_, q, loads);
}

void PoissonSolverBase::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                        VectorX& qdd, JointLoads* loads) {
  fext_ = fext;
  q_ = &q;
  wantAcceleration_ = true;
  positionPass(q, &v, /*worldPoses=*/loads != nullptr);
  backwardPass(nullptr, &tau);
  forwardAccelerationPass(qdd);
  if (loads) computeLoads(q, *loads);
}

void PoissonSolverBase::impulseFromVelocity(const VectorX& q, const VectorX& v, VectorX& p) {
  const Tree& t = *tree_;
  // base to tip: v_i = ⁱX_p v_p + S_i ν_i; the body momenta I_i v_i start the subtree sums
  for (int i = 0; i < nb_; ++i) {
    const JointModel& joint = t.joints[i];
    const double* qi = q.data() + t.qOffset[i];
    const int par = t.parent[i];
    X_[i] = joint.placement(qi, t.X_T[i]);
    const Vec6 vJ = joint.jointVelocity(qi, v.data() + t.vOffset[i]);
    vel_[i] = par < 0 ? vJ : Vec6(X_[i].applyMotion(vel_[par]) + vJ);
    mu_[i] = t.I[i] * vel_[i];
  }
  // tip to base: μ_p += ⁱX*ᵀ_p μ_i, p_i = S_iᵀ μ_i
  Mat6N S;
  for (int i = nb_ - 1; i >= 0; --i) {
    const JointModel& joint = t.joints[i];
    if (joint.nv > 0) {
      joint.motionSubspace(q.data() + t.qOffset[i], S);
      p.segment(t.vOffset[i], joint.nv).noalias() = S.transpose() * mu_[i];
    }
    const int par = t.parent[i];
    if (par >= 0) mu_[par] += X_[i].inverseForce(mu_[i]);
  }
}

void PoissonSolverBase::impulseDynamics(const VectorX& q, const VectorX& p, const VectorX& tau, ExternalWrenches fext,
                                        VectorX& v, VectorX& pdot, VectorX* qdd, JointLoads* loads) {
  fext_ = fext;
  q_ = &q;
  wantAcceleration_ = qdd != nullptr || loads != nullptr;
  positionPass(q, nullptr, /*worldPoses=*/loads != nullptr);
  backwardPass(&p, nullptr);
  forwardVelocityPass(tau, v, pdot);
  if (!wantAcceleration_) return;
  VectorX& a = qdd ? *qdd : qddScratch_;
  backwardAccelerationPass(tau);
  forwardAccelerationPass(a);
  if (loads) computeLoads(q, *loads);
}

}  // namespace kt
