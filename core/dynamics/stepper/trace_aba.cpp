// SPDX-License-Identifier: BSD-3-Clause
// The articulated-body algorithm's steps (Featherstone 2008, Table 7.1; docs/dynamics.md §4), from
// AbaSolver itself: pass 2's locals through its observer, the rest from its records.
#include "core/dynamics/aba.hpp"
#include "core/dynamics/stepper/trace_building.hpp"

namespace kt::stepper {

namespace {

// Pass 2's quantities per body, as AbaSolver forms them.
class Pass2Recorder final : public AbaSolver::Pass2Observer {
 public:
  explicit Pass2Recorder(int nb)
      : IA(static_cast<std::size_t>(nb)),
        Ia(static_cast<std::size_t>(nb)),
        IAp(static_cast<std::size_t>(nb)),
        pA(static_cast<std::size_t>(nb)),
        pa(static_cast<std::size_t>(nb)),
        pAp(static_cast<std::size_t>(nb)) {}
  void reached(int i, const Mat6& IA_i, const Vec6& pA_i) override {
    IA[static_cast<std::size_t>(i)] = IA_i;
    pA[static_cast<std::size_t>(i)] = pA_i;
  }
  void articulated(int i, const Mat6& Ia_i, const Vec6& pa_i) override {
    Ia[static_cast<std::size_t>(i)] = Ia_i;
    pa[static_cast<std::size_t>(i)] = pa_i;
  }
  void handed(int i, int, const Mat6& IA_p, const Vec6& pA_p) override {
    IAp[static_cast<std::size_t>(i)] = IA_p;
    pAp[static_cast<std::size_t>(i)] = pA_p;
  }
  std::vector<Mat6> IA, Ia, IAp;  ///< I^A_i, I^a_i, and I^A_p as summed after body i handed over
  std::vector<Vec6> pA, pa, pAp;
};

}  // namespace

AlgorithmTrace traceAba(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                        ExternalWrenches fext) {
  AlgorithmTrace trace;
  trace.algorithm = TracedAlgorithm::Aba;
  trace.passes = {"Pass 1, base to tip: velocities", "Pass 2, tip to base: articulated inertias and bias forces",
                  "Pass 3, base to tip: accelerations"};
  trace.tau = tau;
  trace.qdd.setZero(tree.nv);
  trace.loads.resize(tree);
  AbaSolver aba(tree);
  Pass2Recorder rec(tree.nb);
  aba.observedForwardDynamics(q, v, tau, fext, trace.qdd, trace.loads, rec);
  const Kinematics& kin = *aba.kinematics();
  const auto name = [&](int i) { return tree.bodyNames[static_cast<std::size_t>(i)]; };

  // pass 1
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsTips(tree, 0, i);
    s.equation = "ⁱX_p = X_J(q_i) X_T(i)    v_i = ⁱX_p v_p + S_i ν_i    c_i = v_i × S_i ν_i + S̊_i ν_i";
    s.handed = "v_i";
    s.values.push_back(motion("v_i", "the velocity of " + name(i), kin.v[n], i));
    s.values.push_back(
        motion("c_i", "its velocity-product acceleration", kin.c[n], i, TracedValue::Quantity::Acceleration));
    if (tree.joints[n].nv > 0) s.values.push_back(coordinates("ν_i", "its joint's velocity", jointPart(tree, v, i), i));
    if (tree.joints[n].nv == 1) s.filled = "ν_i = " + number(v[tree.vOffset[n]]);
    trace.steps.push_back(std::move(s));
  }

  // pass 2
  for (int i = tree.nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    const int nv = tree.joints[n].nv;
    const int p = tree.parent[n];
    TracedStep s = towardsBase(tree, 1, i);
    s.values.push_back(
        matrix("I^A_i", "the articulated inertia of " + name(i) + ": its own and its children's", rec.IA[n], i));
    s.values.push_back(force("p^A_i", "its articulated bias force", rec.pA[n], i));
    if (nv > 0) {
      MatrixX U, Dinv;
      VectorX u;
      aba.jointRecord(i, U, Dinv, u);
      s.equation =
          "U_i = I^A_i S_i    D_i = S_iᵀ U_i    u_i = τ_i − S_iᵀ p^A_i\n"
          "I^a_i = I^A_i − U_i D_i⁻¹ U_iᵀ    p^a_i = p^A_i + I^a_i c_i + U_i D_i⁻¹ u_i";
      s.values.push_back(matrix("U_i", "I^A_i S_i", U, i));
      s.values.push_back(matrix("D_i⁻¹", "the inverse of the inertia its joint moves, (S_iᵀ I^A_i S_i)⁻¹", Dinv, i));
      s.values.push_back(coordinates("u_i", "τ_i − S_iᵀ p^A_i", u, i));
      if (nv == 1) {
        const double tau_i = tau[tree.vOffset[n]];
        s.filled = "D_i = " + number(1.0 / Dinv(0, 0)) + "    u_i = τ_i − S_iᵀ p^A_i = " + number(tau_i) + " − (" +
                   number(tau_i - u[0]) + ") = " + number(u[0]);
      }
    } else {
      s.equation = "a fixed joint: I^a_i = I^A_i    p^a_i = p^A_i + I^a_i c_i";
    }
    s.values.push_back(
        matrix("I^a_i", "what " + name(i) + " passes on: the inertia its joint does not move", rec.Ia[n], i));
    s.values.push_back(force("p^a_i", "the bias force it passes on", rec.pa[n], i));
    if (p >= 0) {
      s.handed = "I^A_p += ⁱX_pᵀ I^a_i ⁱX_p    p^A_p += ⁱX_pᵀ p^a_i";
      s.values.push_back(matrix("I^A_p", "the articulated inertia of " + name(p) + " as summed so far", rec.IAp[n], p));
      s.values.push_back(force("p^A_p", "its bias force as summed so far", rec.pAp[n], p));
    }
    trace.steps.push_back(std::move(s));
  }

  // pass 3
  const Vec6 a0 = baseAcceleration(tree);
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int p = tree.parent[n];
    const int nv = tree.joints[n].nv;
    TracedStep s = towardsTips(tree, 2, i);
    s.handed = "a_i";
    // a'_i as pass 3 forms it, from the stored a_p
    const Vec6 aPrime = kin.X_p[n].applyMotion(p < 0 ? a0 : aba.bodyAcceleration(p)) + kin.c[n];
    s.equation = nv > 0 ? "a'_i = ⁱX_p a_p + c_i  (a_0 = −g)    q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i)    a_i = a'_i + S_i q̈_i"
                        : "a fixed joint: a_i = ⁱX_p a_p + c_i  (a_0 = −g)";
    s.values.push_back(motion("a'_i", "the acceleration of " + name(i) + " with its joint at rest", aPrime, i,
                              TracedValue::Quantity::Acceleration));
    if (nv > 0) s.values.push_back(coordinates("q̈_i", "its joint's acceleration", jointPart(tree, trace.qdd, i), i));
    s.values.push_back(motion("a_i", "its acceleration (with the world's −g)", aba.bodyAcceleration(i), i,
                              TracedValue::Quantity::Acceleration));
    if (nv == 1) {
      MatrixX U, Dinv;
      VectorX u;
      aba.jointRecord(i, U, Dinv, u);
      const double Ua = U.col(0).dot(aPrime);
      s.filled = "q̈_i = D_i⁻¹ (u_i − U_iᵀ a'_i) = " + number(Dinv(0, 0)) + " × (" + number(u[0]) + " − (" + number(Ua) +
                 ")) = " + number(trace.qdd[tree.vOffset[n]]);
    }
    trace.steps.push_back(std::move(s));
  }

  appendLoadsPass(trace, tree, kin, "Joint loads, tip to base (RNEA's backward pass on pass 3's a_i)");
  return trace;
}

}  // namespace kt::stepper
