// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/rnea.hpp"

#include "core/dynamics/kernels/spatial_kernels.hpp"

namespace kt {

namespace {

using kernels::addInverseForce;
using kernels::applyMotion;
using kernels::cross;
using kernels::netWrench;

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

// A revolute or prismatic joint along the coordinate axis e_j has perp1 = e_P1 and perp2 = ±e_P2
// (JointModel::make: perpendicularTo(e_j), then e_j × perp1; RneaWorkspace's constructor checks it).
struct AxisPerpendiculars {
  int p1, p2;
  bool negated2;  // perp2 = −e_P2
};
constexpr AxisPerpendiculars axisPerpendiculars(int j) {
  if (j == 0) return {1, 2, false};
  if (j == 1) return {0, 2, true};
  return {0, 1, false};
}

// λ = Tᵀ f for a joint along e_K (K < 3 revolute, K ≥ 3 prismatic) as reactionByAxes gives it: the
// components of f that T's signed coordinate axes pick.
template <int K>
inline void axisReaction(const Vec6& f, double* lambda) {
  constexpr AxisPerpendiculars P = axisPerpendiculars(K % 3);
  constexpr int o = K < 3 ? 0 : 3;  // the perpendiculars take moments (revolute) or forces (prismatic)
  const double x1 = f[o + P.p1], x2 = P.negated2 ? -f[o + P.p2] : f[o + P.p2];
  const int rest = K < 3 ? 3 : 0;  // the three components T keeps whole
  if constexpr (K < 3) {
    lambda[0] = x1 + 0.0;
    lambda[1] = x2 + 0.0;
    for (int k = 0; k < 3; ++k) lambda[2 + k] = f[rest + k] + 0.0;
  } else {
    for (int k = 0; k < 3; ++k) lambda[k] = f[rest + k] + 0.0;
    lambda[3] = x1 + 0.0;
    lambda[4] = x2 + 0.0;
  }
}

// f in world axes, ⁱE_0ᵀ f, from G = ⁱE_0ᵀ (RneaWorkspace::bodyAxes): the same sums as Eigen's
// ⁱE_0ᵀ f (kernels::rotateBackFormed on ⁱE_0), on contiguous columns.
inline void worldAxes(const Mat3& G, const Vec6& f, Vec6& out) {
  out.head<3>().noalias() = G * f.head<3>();
  out.tail<3>().noalias() = G * f.tail<3>();
}

// A joint along e_K whose X_T does not rotate (RneaWorkspace::AxisPose): ⁱX_p = [E 0; −E r̃ E] with
// E as kernels::turn<K>.
template <int K>
inline void turn(const RneaWorkspace::AxisPose& X, const double* u, double* o) {
  kernels::turn<K>(X.c, X.s, u, o);
}
template <int K>
inline void turnBack(const RneaWorkspace::AxisPose& X, const double* u, double* o) {
  kernels::turnBack<K>(X.c, X.s, u, o);
}

// ⁱX_p m = [E ω; E (v_O − r × ω)].
template <int K>
inline void applyMotion(const RneaWorkspace::AxisPose& X, const Vec6& m, Vec6& out) {
  double rw[3], t[3];
  cross(X.r.data(), m.data(), rw);
  for (int k = 0; k < 3; ++k) t[k] = m[3 + k] - rw[k];
  turn<K>(X, m.data(), out.data());
  turn<K>(X, t, out.data() + 3);
}

// out += ᵖX*_i f = [Eᵀ n + r × Eᵀ f; Eᵀ f].
template <int K>
inline void addInverseForce(const RneaWorkspace::AxisPose& X, const Vec6& f, Vec6& out) {
  double fl[3], n[3], rf[3];
  turnBack<K>(X, f.data() + 3, fl);
  turnBack<K>(X, f.data(), n);
  cross(X.r.data(), fl, rf);
  for (int k = 0; k < 3; ++k) {
    out[k] += n[k] + rf[k];
    out[3 + k] += fl[k];
  }
}

// The pose of a joint along e_K at q: E's cos and sin (revolute) or r_T + q e_K (prismatic).
template <int K>
inline void axisPose(double q, const Vec3& r_T, RneaWorkspace::AxisPose& X) {
  if constexpr (K < 3) {
    X.c = std::cos(q);
    X.s = std::sin(q);
    X.r = r_T;
  } else {
    X.c = 1.0;
    X.s = 0.0;
    X.r = r_T;
    X.r[K - 3] += q;
  }
}

// ⁱE_0ᵀ = ᵖE_0ᵀ Eᵀ for ⁱX_p = {E, r} along e_K (RneaWorkspace::AxisPose): column K of ᵖE_0ᵀ,
// c a + s b and c b − s a for its columns a and b (A, B as in kernels::turn), each entry summed as
// (E ᵖE_0)ᵀ's (kernels::composeTurned).
template <int K>
inline void turnAxes(const RneaWorkspace::AxisPose& X, const Mat3& G_p, Mat3& G) {
  if constexpr (K >= 3) {
    G = G_p;
  } else {
    constexpr int A = (K + 1) % 3, B = (K + 2) % 3;
    const Vec3 a = G_p.col(A), b = G_p.col(B);
    G.col(K) = G_p.col(K);
    G.col(A) = X.c * a + X.s * b;
    G.col(B) = X.c * b - X.s * a;
  }
}

// Base to tip for body i along e_K, not a root: its pose, then
//   v_i = ⁱX_p v_p + e_K ν_i,  a_i = ⁱX_p a_p + v_i × e_K ν_i + e_K q̈_i.
template <int K>
inline void axisStep(double q, double nu, double qdd, const Vec3& r_T, const Vec6& vp, const Vec6& ap,
                     RneaWorkspace::AxisPose& X, Vec6& v, Vec6& a) {
  axisPose<K>(q, r_T, X);
  Vec6 vel, acc;
  applyMotion<K>(X, vp, vel);
  applyMotion<K>(X, ap, acc);
  vel[K] += nu;
  kernels::addCrossUnit(vel, K, nu, acc);
  acc[K] += qdd;
  v = vel;
  a = acc;
}

}  // namespace

RneaWorkspace::RneaWorkspace(const Tree& tree)
    : a(tree.nb),
      f(tree.nb),
      Ic(tree.nb),
      F(tree.nb),
      unitAxis(tree.nb),
      axisStep(tree.nb),
      axisPose(tree.nb),
      bodyAxes(tree.nb) {
  kin.resize(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    F[i].setZero(6, joint.nv);
    const int k = joint.unitMotionAxis();
    unitAxis[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(k);
    // exactly no rotation: the identity's entries are exact, and so are the products with them
    const bool turns = tree.X_T[i].E != Mat3::Identity();
    bool picked = false;  // the perpendiculars axisReaction takes
    if (k >= 0) {
      const AxisPerpendiculars P = axisPerpendiculars(k % 3);
      picked = joint.perp1 == Vec3::Unit(P.p1) && joint.perp2 == (P.negated2 ? -1.0 : 1.0) * Vec3::Unit(P.p2);
    }
    axisStep[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(k >= 0 && !turns && picked ? k : -1);
  }
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

namespace {

// λ_i = T_iᵀ f_i.
inline void jointReaction(const Tree& tree, const VectorX& q, int i, Mat6N& T, JointLoads& loads) {
  const JointModel& joint = tree.joints[i];
  if (joint.nv == 6) return;
  const Vec6& fi = loads.f[i];
  if (!reactionByAxes(joint, fi, loads.lambda.data() + tree.lambdaOffset[i])) {
    joint.constraintSubspace(q.data() + tree.qOffset[i], T);
    loads.lambda.segment(tree.lambdaOffset[i], 6 - joint.nv).noalias() = T.transpose() * fi;
  }
}

// completeJointLoad, inlined into completeJointLoads' loop.
[[gnu::always_inline]] inline void completeLoad(const Tree& tree, const Kinematics& kin, const VectorX& q, int i,
                                                Mat6N& T, JointLoads& loads, bool worldAxes = true) {
  const JointModel& joint = tree.joints[i];
  const Vec6& fi = loads.f[i];
  if (const int k = joint.unitMotionAxis(); k >= 0) {
    loads.tau[tree.vOffset[i]] = fi[k];  // S_i = e_k (S itself is not read)
  } else if (joint.nv > 0) {
    loads.tau.segment(tree.vOffset[i], joint.nv).noalias() = kin.S[i].transpose() * fi;
  }
  jointReaction(tree, q, i, T, loads);
  if (!worldAxes) return;
  // body axes → world axes, ⁱE_0ᵀ
  kernels::rotateBackFormed(kin.X_0[i].E.data(), fi.data(), loads.fWorld[i].data());
  kernels::rotateBackFormed(kin.X_0[i].E.data(), fi.data() + 3, loads.fWorld[i].data() + 3);
}

// The way back's arrays, held in locals: Eigen's SSE2 stores may alias any object, so through the
// vectors every store would have the next access load the vector's start again.
struct WayBack {
  Vec6* f;
  double* tau;
  const int* vOffset;
  const RneaWorkspace::AxisPose* pose;
  double* loadsTau = nullptr;  // the loads' own
  double* lambda = nullptr;
  const int* lambdaOffset = nullptr;
  Vec6* fWorld = nullptr;
  const Mat3* bodyAxes = nullptr;
};

// The RNEA's way back for body i along e_K (RneaWorkspace::axisStep): τ_i = f_i[K], the loads'
// λ_i and world axes, and ᵖX*_i f_i handed to the parent.
template <int K, bool kLoads>
inline void axisBackward(const WayBack& b, int i, int p) {
  const Vec6& fi = b.f[i];
  const int o = b.vOffset[i];
  b.tau[o] = fi[K];
  if constexpr (kLoads) {
    b.loadsTau[o] = fi[K];
    axisReaction<K>(fi, b.lambda + b.lambdaOffset[i]);
    worldAxes(b.bodyAxes[i], fi, b.fWorld[i]);
  }
  if (p >= 0) addInverseForce<K>(b.pose[i], fi, b.f[p]);
}

}  // namespace

void completeJointLoad(const Tree& tree, const Kinematics& kin, const VectorX& q, int i, Mat6N& T, JointLoads& loads,
                       bool worldAxes) {
  completeLoad(tree, kin, q, i, T, loads, worldAxes);
}

void completeJointLoads(const Tree& tree, const Kinematics& kin, const VectorX& q, JointLoads& loads) {
  Mat6N T;
  for (int i = 0; i < tree.nb; ++i) completeLoad(tree, kin, q, i, T, loads);
}

namespace {

// One pass base to tip gives each body's velocity, acceleration and net wrench, one pass tip to
// base sums the wrenches into the joint loads (RBDA Table 5.1). A joint along a coordinate axis
// whose X_T does not rotate (most: RneaWorkspace::AxisPose) takes axisStep<k>: ⁱX_p is applied as
// the translation and then the joint's turn about e_k, v_i and q̈_i add to one component, c_i =
// v_i × e_k ν_i is two products per row and τ_i = f_i[k]; every index is fixed at compile time.
// The others take ⁱX_p = X_J X_T as an Xform (kin.X_p). With the loads (kLoads), each body's axes in
// world coordinates as well, for the wrenches in world axes.
template <bool kLoads>
void rnea(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, const VectorX& qdd,
          ExternalWrenches fext, VectorX& tau, JointLoads* loads, std::vector<Vec6>* netWrenches) {
  Kinematics& kin = ws.kin;
  std::vector<Vec6>& f = kLoads ? loads->f : ws.f;
  const Vec6 a0 = baseAcceleration(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int p = tree.parent[i];
    const Vec6& ap = p < 0 ? a0 : ws.a[p];
    const double* qi = q.data() + tree.qOffset[i];
    // a root takes the Xform path: its v_p is an exact zero there, where ⁱX_p applied to a zero
    // vector may give −0 entries
    const int k = p < 0 ? -1 : ws.axisStep[n];
    if (k >= 0) {
      const Vec6& vp = kin.v[p];
      const int o = tree.vOffset[i];
      const Vec3& r_T = tree.X_T[i].r;
      RneaWorkspace::AxisPose& X = ws.axisPose[n];
      switch (k) {
        case 0: axisStep<0>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
        case 1: axisStep<1>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
        case 2: axisStep<2>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
        case 3: axisStep<3>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
        case 4: axisStep<4>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
        default: axisStep<5>(*qi, v[o], qdd[o], r_T, vp, ap, X, kin.v[i], ws.a[i]); break;
      }
      if constexpr (kLoads) {
        switch (k) {
          case 0: turnAxes<0>(X, ws.bodyAxes[p], ws.bodyAxes[i]); break;
          case 1: turnAxes<1>(X, ws.bodyAxes[p], ws.bodyAxes[i]); break;
          case 2: turnAxes<2>(X, ws.bodyAxes[p], ws.bodyAxes[i]); break;
          default: turnAxes<3>(X, ws.bodyAxes[p], ws.bodyAxes[i]); break;
        }
      }
    } else {
      const JointModel& joint = tree.joints[i];
      const double* vi = v.data() + tree.vOffset[i];
      const Xform& X = kin.X_p[i] = joint.placement(qi, tree.X_T[i]);
      Vec6 vel = Vec6::Zero(), acc;
      if (p >= 0) applyMotion(X, kin.v[p], vel);
      applyMotion(X, ap, acc);
      if (const int u = ws.unitAxis[n]; u >= 0) {
        vel[u] += vi[0];
        kernels::addCrossUnit(vel, u, vi[0], acc);
        acc[u] += qdd[tree.vOffset[i]];
      } else if (joint.nv > 0) {
        if (joint.subspacesDependOnQ()) joint.motionSubspace(qi, kin.S[i]);
        const Vec6 vJ = joint.jointVelocity(qi, vi);
        vel += vJ;
        acc += crossMotion(vel, vJ) + joint.velocityProduct(qi, vi);
        acc.noalias() += kin.S[i] * qdd.segment(tree.vOffset[i], joint.nv);
      }
      kin.v[i] = vel;
      ws.a[i] = acc;
      if constexpr (kLoads) {
        if (p < 0) {
          ws.bodyAxes[i] = X.E.transpose();
        } else {  // ⁱE_0 = E ᵖE_0 as Xform::operator* forms it
          const Mat3 E_p0 = ws.bodyAxes[p].transpose();
          const Mat3 E_i0 = X.E * E_p0;
          ws.bodyAxes[i] = E_i0.transpose();
        }
      }
    }
    netWrench(tree.I[i], kin.v[i], ws.a[i], f[i]);
    f[i] -= appliedWrench(tree, fext, i);
  }
  if (netWrenches) *netWrenches = f;
  // tip to base: τ_i = S_iᵀ f_i, and each joint also carries what its children transmit; f_i is
  // whole here, so the loads take τ_i, λ_i and the world axes in the same pass
  WayBack b{f.data(), tau.data(), tree.vOffset.data(), ws.axisPose.data()};
  if constexpr (kLoads) {
    b.loadsTau = loads->tau.data();
    b.lambda = loads->lambda.data();
    b.lambdaOffset = tree.lambdaOffset.data();
    b.fWorld = loads->fWorld.data();
    b.bodyAxes = ws.bodyAxes.data();
  }
  const int* parent = tree.parent.data();
  const std::int8_t* axisStep = ws.axisStep.data();
  Mat6N T;
  for (int i = tree.nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    const int p = parent[i];
    switch (axisStep[i]) {
      case 0: axisBackward<0, kLoads>(b, i, p); break;
      case 1: axisBackward<1, kLoads>(b, i, p); break;
      case 2: axisBackward<2, kLoads>(b, i, p); break;
      case 3: axisBackward<3, kLoads>(b, i, p); break;
      case 4: axisBackward<4, kLoads>(b, i, p); break;
      case 5: axisBackward<5, kLoads>(b, i, p); break;
      default: {
        const int o = tree.vOffset[i], nv = tree.joints[i].nv;
        if (const int k = ws.unitAxis[n]; k >= 0) {
          tau[o] = f[i][k];
        } else if (nv > 0) {
          tau.segment(o, nv).noalias() = kin.S[i].transpose() * f[i];
        }
        if constexpr (kLoads) {
          loads->tau.segment(o, nv) = tau.segment(o, nv);
          jointReaction(tree, q, i, T, *loads);
          worldAxes(ws.bodyAxes[n], f[i], loads->fWorld[i]);
        }
        if (p >= 0) addInverseForce(kin.X_p[i], f[i], f[p]);
        break;
      }
    }
  }
}

}  // namespace

void inverseDynamics(const Tree& tree, RneaWorkspace& ws, const VectorX& q, const VectorX& v, const VectorX& qdd,
                     ExternalWrenches fext, VectorX& tau, JointLoads* loads, std::vector<Vec6>* netWrenches) {
  if (loads)
    rnea<true>(tree, ws, q, v, qdd, fext, tau, loads, netWrenches);
  else
    rnea<false>(tree, ws, q, v, qdd, fext, tau, nullptr, netWrenches);
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
