// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/rnea.hpp"

namespace kt {

namespace {

// λ = Tᵀ f without building T, where T's columns are signed coordinate axes (JointModel::
// constraintSubspace): a fixed or spherical joint, or a revolute, prismatic, cylindrical or planar
// joint whose axis is a coordinate axis (then perp1, perp2 are ± coordinate axes too). Each λ_k is
// then one component of f, exactly what the product gives; + 0.0 makes a −0 the product's +0.
// False for the other joints (T from constraintSubspace).
bool reactionByAxes(const JointModel& joint, const Vec6& f, double* lambda) {
  const auto along = [](const Vec3& u, const Vec3& x) { return u.dot(x) + 0.0; };
  switch (joint.type) {
    case JointType::Fixed:
      for (int k = 0; k < 6; ++k) lambda[k] = f[k] + 0.0;
      return true;
    case JointType::Spherical:
      for (int k = 0; k < 3; ++k) lambda[k] = f[3 + k] + 0.0;
      return true;
    default: break;
  }
  if (joint.unitAxis < 0) return false;
  const Vec3 m = f.head<3>(), F = f.tail<3>();
  switch (joint.type) {
    case JointType::Revolute:
      lambda[0] = along(joint.perp1, m);
      lambda[1] = along(joint.perp2, m);
      for (int k = 0; k < 3; ++k) lambda[2 + k] = F[k] + 0.0;
      return true;
    case JointType::Prismatic:
      for (int k = 0; k < 3; ++k) lambda[k] = m[k] + 0.0;
      lambda[3] = along(joint.perp1, F);
      lambda[4] = along(joint.perp2, F);
      return true;
    case JointType::Cylindrical:
      lambda[0] = along(joint.perp1, m);
      lambda[1] = along(joint.perp2, m);
      lambda[2] = along(joint.perp1, F);
      lambda[3] = along(joint.perp2, F);
      return true;
    case JointType::Planar:
      lambda[0] = along(joint.perp1, m);
      lambda[1] = along(joint.perp2, m);
      lambda[2] = along(joint.axis, F);
      return true;
    default: return false;
  }
}

// out += v × (e_k s), the motion cross product (Featherstone eq. 2.31) with one nonzero
// component: each cross product with a coordinate axis is two products, not six.
inline void addCrossUnit(const Vec6& v, int k, double s, Vec6& out) {
  // u × (e_j s) for j = 0, 1, 2 is (0, u_z s, −u_y s), (−u_z s, 0, u_x s), (u_y s, −u_x s, 0)
  const auto cross = [s](const double* u, int j, double* o) {
    const int a = (j + 1) % 3, b = (j + 2) % 3;
    o[a] += u[b] * s;
    o[b] -= u[a] * s;
  };
  if (k < 3) {  // angular: [ω × e s; v_o × e s]
    cross(v.data(), k, out.data());
    cross(v.data() + 3, k, out.data() + 3);
  } else {  // linear: [0; ω × e s]
    cross(v.data(), k - 3, out.data() + 3);
  }
}

}  // namespace

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
      double* lambda = loads.lambda.data() + tree.lambdaOffset[i];
      if (!reactionByAxes(joint, fi, lambda)) {
        joint.constraintSubspace(q.data() + tree.qOffset[i], T);
        loads.lambda.segment(tree.lambdaOffset[i], 6 - joint.nv).noalias() = T.transpose() * fi;
      }
    }
    const Mat3 R_0_i = kin.X_0[i].E.transpose();  // body axes → world axes
    loads.fWorld[i] = spatial(R_0_i * fi.head<3>(), R_0_i * fi.tail<3>());
  }
}

// One pass base to tip gives each body's velocity, acceleration and net wrench, one pass tip to
// base sums the wrenches into the joint loads (RBDA Table 5.1), with no other stored state than
// ⁱX_p, v_i, a_i and f_i. For a joint along a coordinate axis, S_i = e_k: its velocity and q̈ add
// to one component and τ_i = f_i[k], with no 6 × n_i product. World poses only for the loads.
void inverseDynamics(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, const VectorX& qdd,
                     ExternalWrenches fext, VectorX& tau, JointLoads* loads) {
  Kinematics& kin = ws.kin;
  std::vector<Vec6>& f = loads ? loads->f : ws.f;
  const Vec6 a0 = baseAcceleration(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    const double* qi = q.data() + tree.qOffset[i];
    const double* vi = v.data() + tree.vOffset[i];
    const int p = tree.parent[i];
    const Xform& X = kin.X_p[i] = joint.placement(qi, tree.X_T[i]);
    if (loads) kin.X_0[i] = p < 0 ? X : X * kin.X_0[p];
    Vec6 vel = p < 0 ? Vec6::Zero() : X.applyMotion(kin.v[p]);
    Vec6 acc = X.applyMotion(p < 0 ? a0 : ws.a[p]);
    if (const int k = joint.unitMotionAxis(); k >= 0) {
      vel[k] += vi[0];
      addCrossUnit(vel, k, vi[0], acc);  // c_i = v_i × S_i ν_i (S̊ = 0)
      acc[k] += qdd[tree.vOffset[i]];
    } else if (joint.nv > 0) {
      if (joint.subspacesDependOnQ()) joint.motionSubspace(qi, kin.S[i]);
      const Vec6 vJ = joint.jointVelocity(qi, vi);
      vel += vJ;
      acc += crossMotion(vel, vJ) + joint.velocityProduct(qi, vi);
      acc.noalias() += kin.S[i] * qdd.segment(tree.vOffset[i], joint.nv);
    }
    kin.v[i] = vel;
    ws.a[i] = acc;
    const Inertia& I = tree.I[i];
    f[i] = I * acc + crossForce(vel, I * vel) - appliedWrench(tree, fext, i);
  }
  // tip to base: τ_i = S_iᵀ f_i, and each joint also carries what its children transmit
  for (int i = tree.nb - 1; i >= 0; --i) {
    const JointModel& joint = tree.joints[i];
    if (const int k = joint.unitMotionAxis(); k >= 0) {
      tau[tree.vOffset[i]] = f[i][k];
    } else if (joint.nv > 0) {
      tau.segment(tree.vOffset[i], joint.nv).noalias() = kin.S[i].transpose() * f[i];
    }
    if (const int p = tree.parent[i]; p >= 0) f[p] += kin.X_p[i].inverseForce(f[i]);
  }
  if (loads) completeJointLoads(tree, kin, q, *loads);
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
