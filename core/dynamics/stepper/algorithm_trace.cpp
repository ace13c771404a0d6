// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/stepper/algorithm_trace.hpp"

#include <cstdio>

#include "core/dynamics/stepper/trace_building.hpp"

namespace kt {

int AlgorithmTrace::passStart(int pass) const {
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (steps[k].pass >= pass) return static_cast<int>(k);
  return static_cast<int>(steps.size());
}

AlgorithmTrace traceAlgorithm(TracedAlgorithm algorithm, const Tree& tree, const VectorX& q, const VectorX& v,
                              const VectorX& tau, const VectorX& qddForRnea, ExternalWrenches fext,
                              EliminationOrder order) {
  switch (algorithm) {
    case TracedAlgorithm::Aba: return stepper::traceAba(tree, q, v, tau, fext);
    case TracedAlgorithm::Rnea: return stepper::traceRnea(tree, q, v, qddForRnea, fext);
    case TracedAlgorithm::CrbaCholesky: return stepper::traceCrbaCholesky(tree, q, v, tau, fext);
    case TracedAlgorithm::PoissonSweep: return stepper::tracePoissonSweep(tree, q, v, tau, fext);
    case TracedAlgorithm::Cfa: break;
  }
  return stepper::traceCfa(tree, q, v, tau, fext, order);
}

std::string tracedAlgorithmName(TracedAlgorithm algorithm) {
  switch (algorithm) {
    case TracedAlgorithm::Aba: return "ABA (articulated-body algorithm)";
    case TracedAlgorithm::Rnea: return "RNEA (recursive Newton–Euler)";
    case TracedAlgorithm::CrbaCholesky: return "CRBA + Cholesky";
    case TracedAlgorithm::PoissonSweep: return "Poisson-impulse sweep (poisson-sweep)";
    case TracedAlgorithm::Cfa: break;
  }
  return "CFA on a tree (cfa-tree)";
}

SpatialUnits spatialUnits(TracedValue::Quantity quantity) {
  switch (quantity) {
    case TracedValue::Quantity::Velocity: return {"rad/s", "m/s"};
    case TracedValue::Quantity::Acceleration: return {"rad/s²", "m/s²"};
    case TracedValue::Quantity::Wrench: return {"N·m", "N"};
    case TracedValue::Quantity::Momentum: return {"N·m·s", "N·s"};
  }
  return {"", ""};
}

namespace stepper {

TracedValue motion(std::string symbol, std::string meaning, const Vec6& m, int body, TracedValue::Quantity quantity) {
  return {std::move(symbol), std::move(meaning), TracedValue::Kind::Motion, m, body, quantity};
}
TracedValue force(std::string symbol, std::string meaning, const Vec6& f, int body, TracedValue::Quantity quantity) {
  return {std::move(symbol), std::move(meaning), TracedValue::Kind::Force, f, body, quantity};
}
TracedValue matrix(std::string symbol, std::string meaning, const Eigen::MatrixXd& m, int body) {
  return {std::move(symbol), std::move(meaning), TracedValue::Kind::Matrix, m, body};
}
TracedValue coordinates(std::string symbol, std::string meaning, const Eigen::VectorXd& x, int body) {
  return {std::move(symbol), std::move(meaning), TracedValue::Kind::Coordinates, x, body};
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return text;
}

std::vector<int> children(const Tree& tree, int i) { return tree.children[static_cast<std::size_t>(i)]; }

std::vector<int> parentOf(const Tree& tree, int i) {
  const int p = tree.parent[static_cast<std::size_t>(i)];
  return p >= 0 ? std::vector<int>{p} : std::vector<int>{};
}

TracedStep towardsTips(const Tree& tree, int pass, int i) {
  TracedStep s;
  s.pass = pass;
  s.body = i;
  s.targets = children(tree, i);
  return s;
}

TracedStep towardsBase(const Tree& tree, int pass, int i) {
  TracedStep s;
  s.pass = pass;
  s.body = i;
  s.targets = parentOf(tree, i);
  return s;
}

Eigen::VectorXd jointPart(const Tree& tree, const Eigen::VectorXd& x, int i) {
  return x.segment(tree.vOffset[static_cast<std::size_t>(i)], tree.joints[static_cast<std::size_t>(i)].nv);
}

Eigen::VectorXd reactionPart(const Tree& tree, const Eigen::VectorXd& lambda, int i) {
  return lambda.segment(tree.lambdaOffset[static_cast<std::size_t>(i)],
                        6 - tree.joints[static_cast<std::size_t>(i)].nv);
}

void coordinateLabels(const Tree& tree, std::vector<std::string>& labels, std::vector<int>& starts) {
  labels.clear();
  starts.clear();
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int nv = tree.joints[n].nv;
    if (nv > 0 && tree.vOffset[n] > 0) starts.push_back(tree.vOffset[n]);
    for (int k = 0; k < nv; ++k) labels.push_back(tree.jointNames[n] + "[" + std::to_string(k) + "]");
  }
}

void appendLoadsPass(AlgorithmTrace& trace, const Tree& tree, const Kinematics& kin, std::string passName) {
  const int pass = static_cast<int>(trace.passes.size());
  trace.passes.push_back(std::move(passName));
  for (int i = tree.nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsBase(tree, pass, i);
    s.equation = "f_i = I_i a_i + v_i ×* I_i v_i − f_i^app + Σ_c ⁱX*_c f_c    τ_i = S_iᵀ f_i    λ_i = T_iᵀ f_i";
    const Vec6& f = trace.loads.f[n];
    s.values.push_back(force("f_i",
                             "the load of joint " + tree.jointNames[n] + ": what it transmits into " +
                                 tree.bodyNames[n] + " and the bodies it carries",
                             f, i));
    if (tree.joints[n].nv > 0)
      s.values.push_back(coordinates("τ_i", "its drive part (joint forces)", jointPart(tree, trace.loads.tau, i), i));
    if (tree.joints[n].nv < 6)
      s.values.push_back(
          coordinates("λ_i", "its reaction part (constraint forces)", reactionPart(tree, trace.loads.lambda, i), i));
    if (const int p = tree.parent[n]; p >= 0) {
      s.handed = "f_p += ᵖX*_i f_i";
      s.values.push_back(force(
          "ᵖX*_i f_i",
          "the same load in " + tree.bodyNames[static_cast<std::size_t>(p)] + "'s axes, added to its joint's load",
          kin.X_p[n].inverseForce(f), p));
    }
    if (tree.joints[n].nv == 1) s.filled = "τ_i = S_iᵀ f_i = " + number(trace.loads.tau[tree.vOffset[n]]);
    trace.steps.push_back(std::move(s));
  }
}

}  // namespace stepper
}  // namespace kt
