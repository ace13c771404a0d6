// SPDX-License-Identifier: BSD-3-Clause
// The spatial products of the recursive passes (RNEA, the ABA's loads, cfa-tree) on 3-vectors of doubles,
// written out so that each inlines into its loop as scalar arithmetic: through Xform, Inertia and
// Eigen's 3-vectors (two lanes and one), a third of the instructions moved numbers between
// registers. Each sums in the order Xform::applyMotion, Xform::inverseForce, Inertia::operator*
// and crossForce do (rotate, below), so the results are the same to the last bit.
#pragma once

#include "core/spatial/spatial.hpp"

namespace kt::kernels {

// o = E w and o = Eᵀ w (E column-major), o = a × b; o never aliases an input. Each sums as Eigen
// does on SSE2 (this build's target), so that results do not move when a pass changes hands: E w's
// rows 0 and 1 in one pair of lanes, left to right, row 2 as E_20 w_0 + (E_21 w_1 + E_22 w_2) (its
// three-term reduction splits one and two); a row of Eᵀ w, a column of E, left to right.
inline void rotate(const double* E, const double* w, double* o) {
  for (int r = 0; r < 2; ++r) o[r] = E[r] * w[0] + E[3 + r] * w[1] + E[6 + r] * w[2];
  o[2] = E[2] * w[0] + (E[5] * w[1] + E[8] * w[2]);
}
inline void rotateBack(const double* E, const double* w, double* o) {
  for (int r = 0; r < 3; ++r) o[r] = E[3 * r] * w[0] + E[3 * r + 1] * w[1] + E[3 * r + 2] * w[2];
}
// o = Eᵀ w as Eigen computes it with Eᵀ formed first (Mat3(E.transpose()) * w): rotate()'s sums on
// the transposed entries.
inline void rotateBackFormed(const double* E, const double* w, double* o) {
  for (int r = 0; r < 2; ++r) o[r] = E[3 * r] * w[0] + E[3 * r + 1] * w[1] + E[3 * r + 2] * w[2];
  o[2] = E[6] * w[0] + (E[7] * w[1] + E[8] * w[2]);
}
inline void cross(const double* a, const double* b, double* o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

// ᴮX_A m = [E ω; E (v_O − r × ω)].
inline void applyMotion(const Xform& X, const Vec6& m, Vec6& out) {
  double rw[3], t[3];
  cross(X.r.data(), m.data(), rw);
  for (int k = 0; k < 3; ++k) t[k] = m[3 + k] - rw[k];
  rotate(X.E.data(), m.data(), out.data());
  rotate(X.E.data(), t, out.data() + 3);
}

// out += ᴬX*_B f = [Eᵀ n + r × Eᵀ f; Eᵀ f].
inline void addInverseForce(const Xform& X, const Vec6& f, Vec6& out) {
  double fl[3], n[3], rf[3];
  rotateBack(X.E.data(), f.data() + 3, fl);
  rotateBack(X.E.data(), f.data(), n);
  cross(X.r.data(), fl, rf);
  for (int k = 0; k < 3; ++k) {
    out[k] += n[k] + rf[k];
    out[3 + k] += fl[k];
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

// I m = [Ī_O ω + h × v_O; m v_O − h × ω].
inline void inertiaTimes(const Inertia& I, const double* m, double* o) {
  double hv[3], hw[3];
  rotate(I.Io.data(), m, o);
  cross(I.h.data(), m + 3, hv);
  cross(I.h.data(), m, hw);
  for (int k = 0; k < 3; ++k) {
    o[k] += hv[k];
    o[3 + k] = I.m * m[3 + k] - hw[k];
  }
}

// A joint along e_K whose placement X_T does not rotate has ⁱX_p = {E, r}, E the joint's rotation:
// rows K, A, B (A = K + 1, B = K + 2 mod 3) e_K, c e_A + s e_B, c e_B − s e_A for a revolute joint
// (K < 3; c = cos q, s = sin q), E = 1 for a prismatic one (K ≥ 3). o = E u and o = Eᵀ u in two
// products a row where the 3 × 3 product has three: the third is by an exact zero, so the sums
// are the same.
template <int K>
inline void turn(double c, double s, const double* u, double* o) {
  if constexpr (K >= 3) {
    for (int j = 0; j < 3; ++j) o[j] = u[j];
  } else {
    constexpr int A = (K + 1) % 3, B = (K + 2) % 3;
    o[K] = u[K];
    o[A] = c * u[A] + s * u[B];
    o[B] = c * u[B] - s * u[A];
  }
}
template <int K>
inline void turnBack(double c, double s, const double* u, double* o) {
  if constexpr (K >= 3) {
    for (int j = 0; j < 3; ++j) o[j] = u[j];
  } else {
    constexpr int A = (K + 1) % 3, B = (K + 2) % 3;
    o[K] = u[K];
    o[A] = c * u[A] - s * u[B];
    o[B] = s * u[A] + c * u[B];
  }
}

// ⁱX_0 = ⁱX_p ᵖX_0 = {E E_p, r_p + E_pᵀ r} (Xform::operator*) for such an ⁱX_p = {E, r}: E's rows
// mix two of E_p's.
template <int K>
inline void composeTurned(double c, double s, const Vec3& r, const Xform& X_p0, Xform& out) {
  for (int j = 0; j < 3; ++j) {
    const double col[3] = {X_p0.E(0, j), X_p0.E(1, j), X_p0.E(2, j)};
    turn<K>(c, s, col, out.E.col(j).data());
  }
  double Er[3];
  rotateBack(X_p0.E.data(), r.data(), Er);
  for (int k = 0; k < 3; ++k) out.r[k] = X_p0.r[k] + Er[k];
}

// f = I a + v ×* (I v): the net wrench the body's motion needs (the RNEA's I a + v ×* I v).
inline void netWrench(const Inertia& I, const Vec6& v, const Vec6& a, Vec6& f) {
  double Iv[6], Ia[6], wn[3], vf[3], wf[3];
  inertiaTimes(I, v.data(), Iv);
  inertiaTimes(I, a.data(), Ia);
  cross(v.data(), Iv, wn);
  cross(v.data() + 3, Iv + 3, vf);
  cross(v.data(), Iv + 3, wf);
  for (int k = 0; k < 3; ++k) {
    f[k] = Ia[k] + (wn[k] + vf[k]);
    f[3 + k] = Ia[3 + k] + wf[k];
  }
}

// f = v ×* (I v) (crossForce(v, I * v)): the bias wrench of a body's own motion.
inline void velocityWrench(const Inertia& I, const Vec6& v, Vec6& f) {
  double Iv[6], wn[3], vf[3], wf[3];
  inertiaTimes(I, v.data(), Iv);
  cross(v.data(), Iv, wn);
  cross(v.data() + 3, Iv + 3, vf);
  cross(v.data(), Iv + 3, wf);
  for (int k = 0; k < 3; ++k) {
    f[k] = wn[k] + vf[k];
    f[3 + k] = wf[k];
  }
}

}  // namespace kt::kernels
