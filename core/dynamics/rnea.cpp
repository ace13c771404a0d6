// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/rnea.hpp"

namespace kt {

RneaWorkspace::RneaWorkspace(const Tree& tree) : a(tree.nb), f(tree.nb), Ic(tree.nb), F(tree.nb) {
  kin.resize(tree);
  for (int i = 0; i < tree.nb; ++i) F[i].setZero(6, tree.joints[i].nv);
}

void JointLoads::resize(const Tree& tree) {
  f.assign(tree.nb, Vec6::Zero());
  fWorld.assign(tree.nb, Vec6::Zero());
  tau.setZero(tree.nv);
  lambda.setZero(tree.nlambda);
}

void bodyAccelerations(const Tree& tree, const Kinematics& kin, const VectorX& qdd, std::vector<Vec6>& a) {
  const Vec6 a0 = baseAcceleration(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    const int nv = tree.joints[i].nv;
    a[i] = kin.X_p[i].applyMotion(p < 0 ? a0 : a[p]) + kin.c[i];
    if (nv > 0) a[i] += kin.S[i] * qdd.segment(tree.vOffset[i], nv);
  }
}

void jointWrenchesFromAccelerations(const Tree& tree, const Kinematics& kin, const std::vector<Vec6>& a,
                                    ExternalWrenches fext, std::vector<Vec6>& f) {
  for (int i = 0; i < tree.nb; ++i)
    f[i] = tree.I[i] * a[i] + crossForce(kin.v[i], tree.I[i] * kin.v[i]) - appliedWrench(tree, fext, i);
  // tip to base: each joint also carries what its children transmit
  for (int i = tree.nb - 1; i >= 0; --i) {
    const int p = tree.parent[i];
    if (p >= 0) f[p] += kin.X_p[i].inverseForce(f[i]);
  }
}

void completeJointLoads(const Tree& tree, const Kinematics& kin, const VectorX& q, JointLoads& loads) {
  Mat6N T;
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    const Vec6& fi = loads.f[i];
    if (const int k = joint.unitMotionAxis(); k >= 0) {
      loads.tau[tree.vOffset[i]] = fi[k];  // S_i = e_k (S itself is not read)
    } else if (joint.nv > 0) {
      loads.tau.segment(tree.vOffset[i], joint.nv).noalias() = kin.S[i].transpose() * fi;
    }
    if (joint.nv < 6) {
      joint.constraintSubspace(q.data() + tree.qOffset[i], T);
      loads.lambda.segment(tree.lambdaOffset[i], 6 - joint.nv).noalias() = T.transpose() * fi;
    }
    const Mat3 R_0_i = kin.X_0[i].E.transpose();  // body axes → world axes
    loads.fWorld[i] = spatial(R_0_i * fi.head<3>(), R_0_i * fi.tail<3>());
  }
}

void inverseDynamics(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, const VectorX& qdd,
                     ExternalWrenches fext, VectorX& tau, JointLoads* loads) {
  computeKinematics(tree, q, v, ws.kin);
  bodyAccelerations(tree, ws.kin, qdd, ws.a);
  std::vector<Vec6>& f = loads ? loads->f : ws.f;
  jointWrenchesFromAccelerations(tree, ws.kin, ws.a, fext, f);
  for (int i = 0; i < tree.nb; ++i) {
    const int nv = tree.joints[i].nv;
    if (nv > 0) tau.segment(tree.vOffset[i], nv).noalias() = ws.kin.S[i].transpose() * f[i];
  }
  if (loads) completeJointLoads(tree, ws.kin, q, *loads);
}

void biasForces(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, ExternalWrenches fext,
                VectorX& h) {
  computeKinematics(tree, q, v, ws.kin);
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    ws.a[i] = ws.kin.X_p[i].applyMotion(p < 0 ? baseAcceleration(tree) : ws.a[p]) + ws.kin.c[i];
  }
  jointWrenchesFromAccelerations(tree, ws.kin, ws.a, fext, ws.f);
  for (int i = 0; i < tree.nb; ++i) {
    const int nv = tree.joints[i].nv;
    if (nv > 0) h.segment(tree.vOffset[i], nv).noalias() = ws.kin.S[i].transpose() * ws.f[i];
  }
}

void massMatrix(const Tree& tree, RneaWorkspace& ws, const VectorX& q, MatrixX& M, bool computePositions) {
  if (computePositions) computePositionKinematics(tree, q, ws.kin);
  // composite inertias, tip to base: Ic_p += ⁱX_pᵀ Ic_i ⁱX_p
  for (int i = 0; i < tree.nb; ++i) ws.Ic[i] = tree.I[i].matrix();
  for (int i = tree.nb - 1; i >= 0; --i) {
    const int p = tree.parent[i];
    if (p >= 0) ws.Ic[p] += transformInertiaToParent(ws.kin.X_p[i], ws.Ic[i]);
  }
  M.setZero(tree.nv, tree.nv);
  for (int i = 0; i < tree.nb; ++i) {
    const int ni = tree.joints[i].nv;
    if (ni == 0) continue;
    Mat6N& F = ws.F[i];
    F.noalias() = ws.Ic[i] * ws.kin.S[i];
    const int oi = tree.vOffset[i];
    M.block(oi, oi, ni, ni).noalias() = ws.kin.S[i].transpose() * F;
    // walk to the root: F ← ʲX*_i F, M_ji = S_jᵀ F
    int j = i;
    while (tree.parent[j] >= 0) {
      for (int c = 0; c < ni; ++c) F.col(c) = ws.kin.X_p[j].inverseForce(F.col(c));
      j = tree.parent[j];
      const int nj = tree.joints[j].nv;
      if (nj == 0) continue;
      const int oj = tree.vOffset[j];
      M.block(oj, oi, nj, ni).noalias() = ws.kin.S[j].transpose() * F;
      M.block(oi, oj, ni, nj) = M.block(oj, oi, nj, ni).transpose();
    }
  }
}

}  // namespace kt
