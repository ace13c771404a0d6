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

  // pass 2, tip to base: U_i, D_i, u_i; project IA_i, pA_i into the parent
  for (int i = t.nb - 1; i >= 0; --i) {
    const int nv = t.joints[i].nv;
    Mat6 Ia = IA_[i];
    Vec6 pa = pA_[i] + Ia * kin_.c[i];
    if (nv > 0) {
      U_[i].noalias() = IA_[i] * kin_.S[i];
      const MatN D = kin_.S[i].transpose() * U_[i];
      Dinv_[i] = D.llt().solve(MatN::Identity(nv, nv));
      u_[i] = tau.segment(t.vOffset[i], nv) - kin_.S[i].transpose() * pA_[i];
      const Mat6N UDinv = U_[i] * Dinv_[i];
      Ia.noalias() -= UDinv * U_[i].transpose();
      pa = pA_[i] + Ia * kin_.c[i] + UDinv * u_[i];
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
    if (nv > 0) {
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
