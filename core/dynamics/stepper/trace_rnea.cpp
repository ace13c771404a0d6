// SPDX-License-Identifier: BSD-3-Clause
// The recursive Newton–Euler algorithm's steps (Featherstone 2008, Table 5.1; docs/dynamics.md §3),
// from kt::inverseDynamics itself: its velocities, accelerations, the bodies' own wrenches and the loads.
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/stepper/trace_building.hpp"

namespace kt::stepper {

AlgorithmTrace traceRnea(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& qdd,
                         ExternalWrenches fext) {
  AlgorithmTrace trace;
  trace.algorithm = TracedAlgorithm::Rnea;
  trace.passes = {"Pass 1, base to tip: velocities, accelerations, each body's own wrench"};
  trace.qdd = qdd;
  trace.tau.setZero(tree.nv);
  trace.loads.resize(tree);
  RneaWorkspace ws(tree);
  std::vector<Vec6> net;
  inverseDynamics(tree, ws, q, v, qdd, fext, trace.tau, &trace.loads, &net);
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsTips(tree, 0, i);
    s.handed = "v_i, a_i";
    s.equation =
        "v_i = ⁱX_p v_p + S_i ν_i    a_i = ⁱX_p a_p + S_i q̈_i + c_i  (a_0 = −g)\n"
        "f^B_i = I_i a_i + v_i ×* I_i v_i − f_i^app";
    s.values.push_back(motion("v_i", "the velocity of " + tree.bodyNames[n], ws.kin.v[n], i));
    s.values.push_back(
        motion("a_i", "its acceleration (with the world's −g)", ws.a[n], i, TracedValue::Quantity::Acceleration));
    s.values.push_back(force("f^B_i",
                             "the wrench that moves it alone: the rate of change of its momentum less the "
                             "applied wrench",
                             net[n], i));
    if (tree.joints[n].nv == 1)
      s.filled = "ν_i = " + number(v[tree.vOffset[n]]) + "    q̈_i = " + number(qdd[tree.vOffset[n]]);
    trace.steps.push_back(std::move(s));
  }
  // ⁱX_p for the wrenches handed on (inverseDynamics keeps it only for some joints)
  Kinematics kin;
  kin.resize(tree);
  computePositionKinematics(tree, q, kin, false);
  appendLoadsPass(trace, tree, kin, "Pass 2, tip to base: joint loads and joint forces");
  return trace;
}

}  // namespace kt::stepper
