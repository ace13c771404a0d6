#include "core/dynamics/aba.hpp"

#include "core/dynamics/rnea.hpp"

namespace kt {

AbaSolver::AbaSolver(const Tree& tree)
    : Solver(tree), IA_(tree.nb), pA_(tree.nb), U_(tree.nb), Dinv_(tree.nb), u_(tree.nb), a_(tree.nb) {
  kin_.resize(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const int nv = tree.joints[i].nv;
    U_[i].setZero(6, nv);
    Dinv_[i].setZero(nv, nv);
    u_[i].setZero(nv);
  }
}

void AbaSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;

  // pass 1, base to tip: transforms, velocities, velocity products; IA_i = I_i, pA_i = v ×* I v − f^ext
  computeKinematics(t, q, v, kin_);
  for (int i = 0; i < t.nb; ++i) {
    IA_[i] = t.I[i].matrix();
    pA_[i] = crossForce(kin_.v[i], t.I[i] * kin_.v[i]) - appliedWrench(t, fext, i);
  }

  // pass 2, tip to base: U_i = IA_i S_i, D_i = S_iᵀ U_i, u_i = τ_i − S_iᵀ pA_i;
  // Ia = IA_i − U_i D_i⁻¹ U_iᵀ, pa = pA_i + Ia c_i + U_i D_i⁻¹ u_i; project both into the parent
  for (int i = t.nb - 1; i >= 0; --i) {
    const int nv = t.joints[i].nv;
    Mat6& Ia = IA_[i];
    Vec6& pa = pA_[i];
    if (nv == 1) {  // the common case, in fixed-size arithmetic
      const Vec6 s = kin_.S[i].col(0);
      const Vec6 U = Ia * s;
      const double Dinv = 1.0 / s.dot(U);
      const double u = tau[t.vOffset[i]] - s.dot(pa);
      U_[i].col(0) = U;
      Dinv_[i](0, 0) = Dinv;
      u_[i](0) = u;
      Ia.noalias() -= (Dinv * U) * U.transpose();
      pa += Ia * kin_.c[i] + (Dinv * u) * U;
    } else if (nv > 1) {
      U_[i].noalias() = Ia * kin_.S[i];
      const MatN D = kin_.S[i].transpose() * U_[i];
      Dinv_[i] = D.llt().solve(MatN::Identity(nv, nv));
      u_[i] = tau.segment(t.vOffset[i], nv) - kin_.S[i].transpose() * pa;
      const Mat6N UDinv = U_[i] * Dinv_[i];
      Ia.noalias() -= UDinv * U_[i].transpose();
      pa += Ia * kin_.c[i] + UDinv * u_[i];
    } else {
      pa += Ia * kin_.c[i];
    }
    const int p = t.parent[i];
    if (p >= 0) {
      IA_[p] += transformInertiaToParent(kin_.X_p[i], Ia);
      pA_[p] += kin_.X_p[i].inverseForce(pa);
    }
  }

  // pass 3, base to tip: accelerations and q̈
  const Vec6 a0 = baseAcceleration(t);
  for (int i = 0; i < t.nb; ++i) {
    const int p = t.parent[i];
    const int nv = t.joints[i].nv;
    a_[i] = kin_.X_p[i].applyMotion(p < 0 ? a0 : a_[p]) + kin_.c[i];
    if (nv == 1) {
      const double qdd_i = Dinv_[i](0, 0) * (u_[i](0) - U_[i].col(0).dot(a_[i]));
      qdd[t.vOffset[i]] = qdd_i;
      a_[i] += kin_.S[i].col(0) * qdd_i;
    } else if (nv > 1) {
      auto qdd_i = qdd.segment(t.vOffset[i], nv);
      qdd_i.noalias() = Dinv_[i] * (u_[i] - U_[i].transpose() * a_[i]);
      a_[i] += kin_.S[i] * qdd_i;
    }
  }

  // joint loads: the RNEA backward pass on the accelerations just found
  if (loads) {
    jointWrenchesFromAccelerations(t, kin_, a_, fext, loads->f);
    completeJointLoads(t, kin_, q, *loads);
  }
}

std::unique_ptr<Solver> makeAbaSolver(const Tree& tree) { return std::make_unique<AbaSolver>(tree); }

}  // namespace kt
