// SPDX-License-Identifier: BSD-3-Clause
// The Poisson-impulse sweep's steps (Ivanov 2017, §3; docs/dynamics.md §6), from poisson-sweep
// itself: the impulses p = M(q) ν of the shown state by its impulseFromVelocity, then its
// impulseDynamics, read back from its records (M*_i, φ*_i, F*_i, D_i, u_i, v_i).
#include "core/dynamics/poisson/poisson_solver.hpp"
#include "core/dynamics/stepper/trace_building.hpp"

namespace kt::stepper {

AlgorithmTrace tracePoissonSweep(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                                 ExternalWrenches fext) {
  AlgorithmTrace trace;
  trace.algorithm = TracedAlgorithm::PoissonSweep;
  trace.passes = {"Pass 1, tip to base: articulated inertias M*_i, the joint blocks D_i, the impulses' right-hand side",
                  "Pass 2, base to tip: joint velocities ν from the impulses p, and the impulses' rates ṗ"};
  trace.tau = tau;
  trace.loads.resize(tree);
  const std::unique_ptr<Solver> owner = makePoissonSweepSolver(tree);
  auto& sweep = static_cast<PoissonSolver<ExplicitInverse>&>(*owner);
  VectorX p(tree.nv), nu(tree.nv), pdot(tree.nv);
  trace.qdd.setZero(tree.nv);
  sweep.impulseFromVelocity(q, v, p);
  sweep.impulseDynamics(q, p, tau, fext, nu, pdot, &trace.qdd, &trace.loads);
  trace.impulses = p;
  trace.velocities = nu;
  trace.impulseRates = pdot;
  const Kinematics& kin = sweep.passKinematics();
  const auto name = [&](int i) { return tree.bodyNames[static_cast<std::size_t>(i)]; };

  for (int i = tree.nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    const int nv = tree.joints[n].nv;
    TracedStep s = towardsBase(tree, 0, i);
    s.values.push_back(matrix("M*_i", "the articulated inertia of " + name(i) + " (Ivanov's M*_i; ABA's I^A_i)",
                              sweep.articulatedInertia(i), i));
    s.values.push_back(force("φ*_i", "the momentum its subtree carries at v_i = 0: μ_i = M*_i v_i + φ*_i",
                             sweep.velocityBias(i), i, TracedValue::Quantity::Momentum));
    s.values.push_back(force("F*_i", "the applied and gravity wrenches on its subtree", sweep.subtreeWrench(i), i));
    if (nv > 0) {
      s.equation =
          "U_i = M*_i S_i    D_i = (S_iᵀ U_i)⁻¹    u_i = D_i (p_i − S_iᵀ φ*_i)\n"
          "M*_p += ⁱX_pᵀ (M*_i − U_i D_i U_iᵀ) ⁱX_p    φ*_p += ⁱX_pᵀ (φ*_i + U_i u_i)    F*_p += ⁱX_pᵀ F*_i";
      s.values.push_back(
          coordinates("p_i", "its joint's impulse, S_iᵀ μ_i (the Poisson impulse)", jointPart(tree, p, i), i));
      s.values.push_back(matrix("D_i",
                                "(S_iᵀ M*_i S_i)⁻¹: the inverse inertia its joint moves (Ivanov's D_i is the "
                                "inverse of ABA's: ABA's D_i⁻¹)",
                                sweep.factor().inverseBlock(i, nv), i));
      s.values.push_back(coordinates("u_i", "D_i (p_i − S_iᵀ φ*_i): what joint i's impulse leaves for its own motion",
                                     jointPart(tree, sweep.velocityKey(), i), i));
      if (nv == 1) {
        const double D = sweep.factor().inverseBlock(i, 1)(0, 0);
        const double k = sweep.velocityKey()[tree.vOffset[n]];
        s.filled = "u_i = D_i (p_i − S_iᵀ φ*_i) = " + number(D) + " × (" + number(p[tree.vOffset[n]]) + " − (" +
                   number(p[tree.vOffset[n]] - k / D) + ")) = " + number(k);
      }
    } else {
      s.equation = "a fixed joint: M*_p += ⁱX_pᵀ M*_i ⁱX_p    φ*_p += ⁱX_pᵀ φ*_i    F*_p += ⁱX_pᵀ F*_i";
    }
    if (!s.targets.empty()) s.handed = "M*_p += ⁱX_pᵀ (M*_i − U_i D_i U_iᵀ) ⁱX_p    φ*_p += ⁱX_pᵀ (φ*_i + U_i u_i)";
    trace.steps.push_back(std::move(s));
  }
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int nv = tree.joints[n].nv;
    TracedStep s = towardsTips(tree, 1, i);
    s.handed = "v_i";
    s.equation =
        "ν_i = u_i − D_i U_iᵀ ⁱX_p v_p    v_i = ⁱX_p v_p + S_i ν_i    μ_i = M*_i v_i + φ*_i\n"
        "ṗ_i = τ_i + S_iᵀ (F*_i − v_i ×* μ_i) + S̊_iᵀ μ_i";
    if (nv > 0)
      s.values.push_back(coordinates("ν_i", "its joint's velocity, from the impulses", jointPart(tree, nu, i), i));
    s.values.push_back(motion("v_i", "the velocity of " + name(i), kin.v[n], i));
    s.values.push_back(force("μ_i", "the momentum of its subtree",
                             Vec6(sweep.articulatedInertia(i) * kin.v[n] + sweep.velocityBias(i)), i,
                             TracedValue::Quantity::Momentum));
    if (nv > 0) s.values.push_back(coordinates("ṗ_i", "the rate of its joint's impulse", jointPart(tree, pdot, i), i));
    if (nv == 1) s.filled = "ν_i = " + number(nu[tree.vOffset[n]]) + "    ṗ_i = " + number(pdot[tree.vOffset[n]]);
    trace.steps.push_back(std::move(s));
  }
  appendLoadsPass(trace, tree, kin,
                  "Joint loads, tip to base (q̈ from the same two passes at the acceleration level, Ivanov eq. 8)");
  return trace;
}

}  // namespace kt::stepper
