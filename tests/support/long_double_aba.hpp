// SPDX-License-Identifier: BSD-3-Clause
// A reference for long chains: the articulated-body algorithm and the RNEA backward pass in long
// double (64-bit significand on x86, 11 bits more than double), for trees of one-degree-of-freedom
// joints. Plain 6×6 matrices, as Featherstone (2008) Table 7.1 writes the algorithm; the joint
// transforms and motion subspaces come from the double-precision kinematics, so what it resolves
// is the solvers' own rounding, not the model's. Header-only: only the accuracy tests include it.
#pragma once

#include <cassert>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"

namespace kt::test {

using LongVec6 = Eigen::Matrix<long double, 6, 1>;
using LongMat6 = Eigen::Matrix<long double, 6, 6>;

/// q̈ and the joint loads f (body coordinates) at (q, ν, τ), gravity and the tree's applied wrenches.
inline void longDoubleAba(const Tree& t, const VectorX& q, const VectorX& v, const VectorX& tau,
                          std::vector<long double>& qdd, std::vector<LongVec6>& f) {
  Kinematics kin;
  kin.resize(t);
  computeKinematics(t, q, v, kin);
  const int nb = t.nb;
  std::vector<LongMat6> X(nb), IA(nb);
  std::vector<LongVec6> S(nb), vel(nb), c(nb), pA(nb), U(nb), a(nb);
  std::vector<long double> D(nb), u(nb);
  for (int i = 0; i < nb; ++i) {
    assert(t.joints[i].nv == 1);
    const Xform& Xp = kin.X_p[i];  // ⁱX_p = [E 0; −E r̃ E]
    X[i].setZero();
    X[i].topLeftCorner<3, 3>() = Xp.E.cast<long double>();
    X[i].bottomRightCorner<3, 3>() = Xp.E.cast<long double>();
    X[i].bottomLeftCorner<3, 3>() = -(Xp.E * skew(Xp.r)).cast<long double>();
    S[i] = kin.S[i].col(0).cast<long double>();
    const int p = t.parent[i];
    const LongVec6 vJ = S[i] * static_cast<long double>(v[t.vOffset[i]]);
    vel[i] = (p < 0 ? LongVec6(LongVec6::Zero()) : LongVec6(X[i] * vel[p])) + vJ;
    c[i] = crossMotion<long double>(vel[i], vJ);
    IA[i] = t.I[i].matrix().cast<long double>();
    pA[i] = crossForce<long double>(vel[i], IA[i] * vel[i]) - t.appliedWrench[i].cast<long double>();
  }
  for (int i = nb - 1; i >= 0; --i) {
    U[i] = IA[i] * S[i];
    D[i] = S[i].dot(U[i]);
    u[i] = static_cast<long double>(tau[t.vOffset[i]]) - S[i].dot(pA[i]);
    const LongMat6 Ia = IA[i] - U[i] * U[i].transpose() / D[i];
    const LongVec6 pa = pA[i] + Ia * c[i] + U[i] * (u[i] / D[i]);
    const int p = t.parent[i];
    if (p >= 0) {
      IA[p] += X[i].transpose() * Ia * X[i];
      pA[p] += X[i].transpose() * pa;
    }
  }
  qdd.assign(static_cast<std::size_t>(nb), 0.0L);
  f.assign(static_cast<std::size_t>(nb), LongVec6::Zero());
  LongVec6 a0;
  a0 << 0, 0, 0, -t.gravity.cast<long double>();
  for (int i = 0; i < nb; ++i) {
    const int p = t.parent[i];
    const LongVec6 ap = X[i] * (p < 0 ? a0 : a[p]) + c[i];
    qdd[i] = (u[i] - U[i].dot(ap)) / D[i];
    a[i] = ap + S[i] * qdd[i];
    const LongMat6 I = t.I[i].matrix().cast<long double>();
    f[i] = I * a[i] + crossForce<long double>(vel[i], I * vel[i]) - t.appliedWrench[i].cast<long double>();
  }
  for (int i = nb - 1; i >= 0; --i)
    if (t.parent[i] >= 0) f[t.parent[i]] += X[i].transpose() * f[i];
}

}  // namespace kt::test
