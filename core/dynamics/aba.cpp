// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/aba.hpp"

#include <cmath>

#include "core/dynamics/kernels/small_spd.hpp"
#include "core/dynamics/kernels/spatial_kernels.hpp"
#include "core/dynamics/rnea.hpp"

namespace kt {
namespace {

// Pass 2 for a joint of N > 1 degrees of freedom, in fixed-size arithmetic (the dynamic-size
// kernels Eigen picks for Mat6N/MatN cost more than the arithmetic at these sizes):
//   U = IA S,  D = Sᵀ U,  u = τ − Sᵀ pA,  IA −= U D⁻¹ Uᵀ,  pA += IA c + U D⁻¹ u.
// U D⁻¹ Uᵀ is formed as Vᵀ V with V = L⁻¹ Uᵀ, D = L Lᵀ (Featherstone's D_i is symmetric positive
// definite): the update keeps IA symmetric positive semidefinite, where (U D⁻¹) Uᵀ with the
// explicit inverse left an error of about κ(D) ε ‖IA‖, larger than a light parent's inertia.
template <int N>
void articulateJoint(const Mat6N& S_, const double* tau, const Vec6& c, Mat6& Ia, Vec6& pa, Mat6N& U_out,
                     MatN& Dinv_out, VecN& u_out) {
  using Mat6n = Eigen::Matrix<double, 6, N>;
  using Matn = Eigen::Matrix<double, N, N>;
  using Vecn = Eigen::Matrix<double, N, 1>;
  const Mat6n S = S_;
  const Mat6n U = Ia * S;
  Matn D;
  for (int k = 0; k < N; ++k)
    for (int j = k; j < N; ++j) D(j, k) = S.col(j).dot(U.col(k));  // the lower triangle is read
  const Matn Li = inverseCholeskyFactor<N>(D);
  const Matn Dinv = Li.transpose() * Li;
  const Vecn u = Eigen::Map<const Vecn>(tau) - S.transpose() * pa;
  const Eigen::Matrix<double, N, 6> V = Li * U.transpose();
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j <= k; ++j) Ia(k, j) = Ia(j, k) = Ia(j, k) - V.col(j).dot(V.col(k));
  pa += Ia * c + V.transpose() * (Li * u);
  U_out = U;
  Dinv_out = Dinv;
  u_out = u;
}

// I += the rigid inertia's blocks, in place: the sum I_p + ᵖX*_i Ia ᵖX_i without a second 6×6
// temporary that pass 2's next step would read back straight after writing it.
void addRigidInertia(const Inertia& I, Mat6& out) {
  const Mat3 hx = skew(I.h);
  out.topLeftCorner<3, 3>() += I.Io;
  out.topRightCorner<3, 3>() += hx;
  out.bottomLeftCorner<3, 3>() += hx.transpose();
  out.bottomRightCorner<3, 3>().diagonal().array() += I.m;
}

// Pass 3 for the same joint: q̈ = D⁻¹ (u − Uᵀ a),  a += S q̈.
template <int N>
void accelerateJoint(const Mat6N& S_, const Mat6N& U_, const MatN& Dinv_, const VecN& u_, Vec6& a, double* qdd) {
  using Mat6n = Eigen::Matrix<double, 6, N>;
  using Matn = Eigen::Matrix<double, N, N>;
  using Vecn = Eigen::Matrix<double, N, 1>;
  const Mat6n U = U_;
  const Matn Dinv = Dinv_;
  const Vecn qdd_i = Dinv * (Vecn(u_) - U.transpose() * a);
  Eigen::Map<Vecn> out(qdd);
  out = qdd_i;
  a += Mat6n(S_) * qdd_i;
}

// S = [Ŝ; 0] with Ŝ 3×3 and invertible: the joint turns freely about its point (a gimbal's Ŝ is
// singular only at gimbal lock, which validation refuses at the start; a gimbal with offset axes
// has no such point, and takes the general path).
bool spansRotations(const JointModel& joint) {
  return joint.type == JointType::Spherical || (joint.type == JointType::Gimbal && !joint.offset);
}

// Pass 3 for a joint whose S spans the three rotations (spansRotations).
// Its body turns freely about the joint point, so its angular acceleration does not depend on the
// parent's: from Sᵀ (I^A a + p^A) = τ with a = [ω̇; a'_lin],
//   ω̇ = Ŝ D⁻¹ (u − U_linᵀ a'_lin)   (U_lin the lower three rows of U = I^A S),
// and q̈ = Ŝ⁻¹ (ω̇ − a'_ang). The general a' + S D⁻¹ (u − Uᵀ a') forms the same ω̇ as a'_ang less
// its own rounding-level copy: below a light body turning fast (large a'_ang) that rounding, times
// the heavy bodies' inertias, was most of their joint loads (as for free joints, in pass 3).
// A spherical joint has Ŝ = 1 (ν_i is the body's angular velocity relative to the parent's, in
// body axes): ω̇ = D⁻¹ (u − U_linᵀ a'_lin) and q̈ = ω̇ − a'_ang, with no product or solve by Ŝ.
[[gnu::noinline]] void accelerateRotations(bool spherical, const Mat6N& S_, const Mat6N& U_, const MatN& Dinv_,
                                           const VecN& u_, Vec6& a, double* qdd) {
  const Mat3 Dinv = Dinv_.topLeftCorner<3, 3>();
  const Mat3 Ulin = U_.bottomLeftCorner<3, 3>();
  const Vec3 x = Dinv * (Vec3(u_.head<3>()) - Ulin.transpose() * a.tail<3>());
  Eigen::Map<Vec3> out(qdd);
  if (spherical) {
    out = x - a.head<3>();
    a.head<3>() = x;
  } else {
    const Mat3 Shat = S_.topLeftCorner<3, 3>();
    const Vec3 wdot = Shat * x;
    out = Shat.partialPivLu().solve(wdot - a.head<3>());
    a.head<3>() = wdot;
  }
}

}  // namespace

AbaSolver::AbaSolver(const Tree& tree)
    : Solver(tree),
      bias_(tree.nb),
      IA_(tree.nb),
      pA_(tree.nb),
      oneDof_(tree.nb),
      U_(tree.nb),
      Dinv_(tree.nb),
      u_(tree.nb),
      a_(tree.nb) {
  kin_.resize(tree);
  unitAxis_.resize(tree.nb);
  handover_ = SweepHandover(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    const int nv = joint.nv;
    unitAxis_[i] = joint.unitMotionAxis();  // S_i = e_k, constant
    U_[i].setZero(6, nv);
    Dinv_[i].setZero(nv, nv);
    u_[i].setZero(nv);
  }
}

void AbaSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                VectorX& qdd, JointLoads* loads) {
  solve<false>(q, v, tau, fext, {}, qdd, loads);
}

void AbaSolver::hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                               std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  bool every = true;
  for (int i = 0; i < t.nb && every; ++i) every = t.joints[i].nv == 0 || prescribed[static_cast<std::size_t>(i)];
  if (every) {
    if (!rnea_) rnea_ = std::make_unique<RneaWorkspace>(t);
    inverseDynamics(t, *rnea_, q, v, qdd, fext, tau, loads);
    kinWhole_ = false;
    return;
  }
  if (!loads && hybridLoads_.f.size() != static_cast<std::size_t>(t.nb)) hybridLoads_.resize(t);
  JointLoads& out = loads ? *loads : hybridLoads_;
  solve<true>(q, v, tau, fext, prescribed, qdd, &out);
  for (int i = 0; i < t.nb; ++i)
    if (prescribed[static_cast<std::size_t>(i)])
      for (int k = 0; k < t.joints[i].nv; ++k) tau[t.vOffset[i] + k] = out.tau[t.vOffset[i] + k];
}

void AbaSolver::observedForwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                        VectorX& qdd, JointLoads& loads, Pass2Observer& observer) {
  observer_ = &observer;
  solve<false, true>(q, v, tau, fext, {}, qdd, &loads);
  observer_ = nullptr;
}

void AbaSolver::jointRecord(int i, MatrixX& U, MatrixX& Dinv, VectorX& u) const {
  const auto n = static_cast<std::size_t>(i);
  const int nv = tree_->joints[n].nv;
  if (nv == 1) {
    U = oneDof_[n].U;
    Dinv.setConstant(1, 1, oneDof_[n].Dinv);
    u.setConstant(1, oneDof_[n].u);
  } else {
    U = U_[n].leftCols(nv);
    Dinv = Dinv_[n].topLeftCorner(nv, nv);
    u = u_[n].head(nv);
  }
}

template <bool kHybrid, bool kObserved>
void AbaSolver::solve(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                      std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  const auto isPrescribed = [&](int i) { return kHybrid && prescribed[static_cast<std::size_t>(i)]; };

  // pass 1, base to tip: ⁱX_p, v_i, c_i (X_0 only for the loads' world axes)
  kinWhole_ = loads != nullptr && !omitWorld_;
  computeKinematics(t, q, v, kin_, /*worldPoses=*/kinWhole_);

  // pass 2, tip to base: I^A_i, p^A_i summed over the children; I^a_i, p^a_i; handed to the parent
  Mat6 Ia;  // I^A_i, articulated to I^a_i, then handed over as (part of) I^A_p
  Vec6 pa;  // p^A_i, p^a_i, p^A_p likewise
  for (int i = t.nb - 1; i >= 0; --i) {
    const int nv = t.joints[i].nv;
    const Vec6& c = kin_.c[i];
    takeSums(i, fext, Ia, pa);
    if constexpr (kObserved) observer_->reached(i, Ia, pa);
    // I^a_i = I^A_i − U_i D_i⁻¹ U_iᵀ, p^a_i = p^A_i + I^a_i c_i + U_i D_i⁻¹ u_i, in place in Ia and pa;
    // U_i, D_i⁻¹, u_i kept for pass 3
    if (isPrescribed(i)) {
      articulatePrescribed(i, qdd, Ia, pa);
    } else if (nv == 1) {  // the common case, in fixed-size arithmetic
      const int k = unitAxis_[i];
      Vec6 U;
      double Dinv, u;
      if (k >= 0) {  // S = e_k: a column of I^A (and S itself is not read)
        U = Ia.col(k);
        Dinv = 1.0 / U[k];
        u = tau[t.vOffset[i]] - pa[k];
      } else {
        const Vec6 s = kin_.S[i].col(0);
        U = Ia * s;
        Dinv = 1.0 / s.dot(U);
        u = tau[t.vOffset[i]] - s.dot(pa);
      }
      oneDof_[i] = {U, Dinv, u};
      Ia.noalias() -= (Dinv * U) * U.transpose();
      pa += Ia * c + (Dinv * u) * U;
    } else if (t.joints[i].motionSubspaceIsIdentity()) {
      // S = 1: U = I^A, D = I^A, u = τ − p^A. Nothing of the body's inertia passes to the parent
      // (I^A − I^A (I^A)⁻¹ I^A = 0) and the bias that does is p^A + I^A (I^A)⁻¹ u = τ.
      const Eigen::Map<const Vec6> tau_i(tau.data() + t.vOffset[i]);
      U_[i] = Ia;
      Dinv_[i] = inverseSpd<6>(Ia);
      u_[i] = tau_i - pa;
      Ia.setZero();
      pa = tau_i;
    } else if (nv > 1) {
      const double* tau_i = tau.data() + t.vOffset[i];
      switch (nv) {
        case 2: articulateJoint<2>(kin_.S[i], tau_i, c, Ia, pa, U_[i], Dinv_[i], u_[i]); break;
        case 3: articulateJoint<3>(kin_.S[i], tau_i, c, Ia, pa, U_[i], Dinv_[i], u_[i]); break;
        case 4: articulateJoint<4>(kin_.S[i], tau_i, c, Ia, pa, U_[i], Dinv_[i], u_[i]); break;
        case 5: articulateJoint<5>(kin_.S[i], tau_i, c, Ia, pa, U_[i], Dinv_[i], u_[i]); break;
        default: articulateJoint<6>(kin_.S[i], tau_i, c, Ia, pa, U_[i], Dinv_[i], u_[i]); break;
      }
    } else {  // a fixed joint: I^a_i = I^A_i
      pa += Ia * c;
    }
    if constexpr (kObserved) observer_->articulated(i, Ia, pa);
    handToParent(i, fext, Ia, pa);
    if constexpr (kObserved)
      if (t.parent[i] >= 0) observer_->handed(i, t.parent[i], Ia, pa);
  }

  // pass 3, base to tip: a'_i = ⁱX_p a_p + c_i, q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i), a_i = a'_i + S_i q̈_i
  const Vec6 a0 = baseAcceleration(t);
  for (int i = 0; i < t.nb; ++i) {
    const int p = t.parent[i];
    const int nv = t.joints[i].nv;
    Vec6& a = a_[i];
    double* qdd_i = qdd.data() + t.vOffset[i];
    a = kin_.X_p[i].applyMotion(p < 0 ? a0 : a_[p]) + kin_.c[i];  // a'_i
    if (isPrescribed(i)) {
      a += kin_.S[i] * Eigen::Map<const Eigen::VectorXd>(qdd_i, nv);
    } else if (nv == 1) {
      const OneDof& r = oneDof_[i];
      const double qdd1 = r.Dinv * (r.u - r.U.dot(a));
      *qdd_i = qdd1;
      if (unitAxis_[i] >= 0) {
        a[unitAxis_[i]] += qdd1;
      } else {
        a += kin_.S[i].col(0) * qdd1;
      }
    } else if (t.joints[i].motionSubspaceIsIdentity()) {
      // S = 1: a_i = a'_i + q̈_i with q̈_i = (I^A_i)⁻¹ (u_i − I^A_i a'_i) is a_i = (I^A_i)⁻¹ u_i exactly.
      // Computed that way, a light free body carrying heavy ones keeps its acceleration free of the
      // cancellation a'_i − (I^A_i)⁻¹ I^A_i a'_i (as Featherstone 2008 computes a floating base's
      // acceleration, a_1 = −(I^A_1)⁻¹ p^A_1), whose rounding, multiplied by the heavy bodies'
      // inertias, was most of their joint loads.
      const Vec6 ai = Mat6(Dinv_[i]) * Vec6(u_[i]);
      Eigen::Map<Vec6> out(qdd_i);
      out = ai - a;
      a = ai;
    } else if (spansRotations(t.joints[i])) {
      accelerateRotations(t.joints[i].type == JointType::Spherical, kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i);
    } else if (nv > 1) {
      switch (nv) {
        case 2: accelerateJoint<2>(kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i); break;
        case 3: accelerateJoint<3>(kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i); break;
        case 4: accelerateJoint<4>(kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i); break;
        case 5: accelerateJoint<5>(kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i); break;
        default: accelerateJoint<6>(kin_.S[i], U_[i], Dinv_[i], u_[i], a, qdd_i); break;
      }
    }
  }

  if (loads) jointLoads(q, fext, *loads);
}

void AbaSolver::jointLoads(const VectorX& q, ExternalWrenches fext, JointLoads& loads) {
  const Tree& t = *tree_;
  std::vector<Vec6>& f = loads.f;
  for (int i = 0; i < t.nb; ++i) {
    double Ia[6];
    kernels::inertiaTimes(t.I[i], a_[i].data(), Ia);
    for (int k = 0; k < 6; ++k) f[i][k] = Ia[k] + bias_[i][k];
    f[i] -= appliedWrench(t, fext, i);
  }
  Mat6N T;
  for (int i = t.nb - 1; i >= 0; --i) {
    completeJointLoad(t, kin_, q, i, T, loads, !omitWorld_);  // f_i is whole
    if (const int p = t.parent[i]; p >= 0) kernels::addInverseForce(kin_.X_p[i], f[i], f[p]);
  }
}

Vec6 AbaSolver::biasForce(int i, ExternalWrenches fext) {
  const Tree& t = *tree_;
  bias_[i] = crossForce(kin_.v[i], t.I[i] * kin_.v[i]);
  return bias_[i] - appliedWrench(t, fext, i);
}

void AbaSolver::takeSums(int i, ExternalWrenches fext, Mat6& IA, Vec6& pA) {
  if (handover_.arrivesInLocal(i)) return;  // child i + 1 handed them over in IA, pA
  if (!handover_.isLeaf(i)) {
    IA = IA_[i];
    pA = pA_[i];
  } else {
    IA = tree_->I[i].matrix();
    pA = biasForce(i, fext);
  }
}

void AbaSolver::articulatePrescribed(int i, const VectorX& qdd, const Mat6& Ia, Vec6& pa) const {
  const Eigen::Map<const Eigen::VectorXd> qdd_i(qdd.data() + tree_->vOffset[i], tree_->joints[i].nv);
  const Vec6 ci = kin_.c[i] + kin_.S[i] * qdd_i;
  pa += Ia * ci;
}

void AbaSolver::handToParent(int i, ExternalWrenches fext, Mat6& Ia, Vec6& pa) {
  const int p = tree_->parent[i];
  if (p < 0) return;
  const Mat6 Ip = transformInertiaToParent(kin_.X_p[i], Ia);
  const Vec6 pp = kin_.X_p[i].inverseForce(pa);
  if (handover_.startsParent(i)) {
    Ia = Ip;
    addRigidInertia(tree_->I[p], Ia);
    pa = biasForce(p, fext) + pp;
  } else {
    Ia = IA_[p] + Ip;
    pa = pA_[p] + pp;
  }
  if (!handover_.handsOverInLocal(i)) {
    IA_[p] = Ia;
    pA_[p] = pa;
  }
}

std::unique_ptr<Solver> makeAbaSolver(const Tree& tree) { return std::make_unique<AbaSolver>(tree); }

}  // namespace kt
