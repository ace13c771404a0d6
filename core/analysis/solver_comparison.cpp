// SPDX-License-Identifier: BSD-3-Clause
#include "core/analysis/solver_comparison.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

namespace {

using Clock = std::chrono::steady_clock;

// q ⊕ ν ε, joint by joint (the exponential map for quaternions).
void displaced(const Tree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double eps, Eigen::VectorXd& out) {
  out.resize(q.size());
  for (int i = 0; i < tree.nb; ++i) {
    const auto k = static_cast<std::size_t>(i);
    tree.joints[k].integrate(q.data() + tree.qOffset[k], v.data() + tree.vOffset[k], eps, out.data() + tree.qOffset[k]);
  }
}

// The reference values of the impulse form at one state: p = M ν and ṗ = M q̈ + Ṁ ν.
struct ImpulseReference {
  explicit ImpulseReference(const Tree& tree) : tree_(tree), ws_(tree) {}

  /// p and ṗ at `s`; `error`: an estimate of ṗ's error, the change of the last extrapolation.
  void evaluate(const ComparisonState& s, const Eigen::VectorXd& qdd, Eigen::VectorXd& p, Eigen::VectorXd& pdot,
                double& error) {
    massMatrix(tree_, ws_, s.q, M_);
    p = M_ * s.v;
    // Ṁ ν: central differences D(ε) = (M(q ⊕ εν) − M(q ⊖ εν)) ν / 2ε, extrapolated twice
    // (Richardson: R(ε) = (4 D(ε/2) − D(ε)) / 3, then (16 R(ε/2) − R(ε)) / 15; truncation O(ε⁶))
    const auto central = [&](double eps) {
      displaced(tree_, s.q, s.v, eps, qe_);
      massMatrix(tree_, ws_, qe_, Me_);
      Eigen::VectorXd d = Me_ * s.v;
      displaced(tree_, s.q, s.v, -eps, qe_);
      massMatrix(tree_, ws_, qe_, Me_);
      d -= Me_ * s.v;
      return Eigen::VectorXd(d / (2.0 * eps));
    };
    const double eps = 1e-2 / std::max(1.0, s.v.cwiseAbs().maxCoeff());  // a displacement of 1e-2 at most
    const Eigen::VectorXd d1 = central(eps), d2 = central(0.5 * eps), d4 = central(0.25 * eps);
    const Eigen::VectorXd r1 = (4.0 * d2 - d1) / 3.0, r2 = (4.0 * d4 - d2) / 3.0;
    pdot = M_ * qdd + (16.0 * r2 - r1) / 15.0;
    error = (r2 - r1).cwiseAbs().maxCoeff() / 15.0;
  }

 private:
  const Tree& tree_;
  RneaWorkspace ws_;
  Eigen::MatrixXd M_, Me_;
  Eigen::VectorXd qe_;
};

Eigen::Map<const Eigen::VectorXd> flat(const std::vector<Vec6>& f) {
  return {f.empty() ? nullptr : f.front().data(), static_cast<Eigen::Index>(6 * f.size())};
}

}  // namespace

void DifferenceMeasure::add(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::Ref<const Eigen::VectorXd>& b) {
  measured = true;
  const double d = a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
  at.push_back(d);
  if (a.size() == 0) return;
  abs = std::max(abs, d);
  scale = std::max(scale, b.cwiseAbs().maxCoeff());
}

double SolverDifference::worst() const {
  double w = 0.0;
  for (const DifferenceMeasure* m : {&qdd, &load, &p, &v, &pdot})
    if (m->measured) w = std::max(w, m->beyondReference());
  return w;
}

std::vector<SolverDifference> compareAtStates(const Tree& tree, const std::vector<std::string>& solvers,
                                              const std::vector<ComparisonState>& states) {
  std::vector<SolverDifference> out;
  if (solvers.empty()) return out;
  const auto n = states.size();
  std::vector<Eigen::VectorXd> qddRef(n), loadRef(n), pRef, pdotRef;
  double pdotError = 0.0;  // the finite differences' error estimate, largest over the states
  Eigen::VectorXd qdd(tree.nv), p(tree.nv), v(tree.nv), pdot(tree.nv);
  JointLoads loads;
  loads.resize(tree);

  // the reference solver's q̈ and loads at every state
  const auto evaluate = [&](Solver& solver, const ComparisonState& x) {
    if (solver.stateForm() == StateForm::Impulse) {
      solver.impulseFromVelocity(x.q, x.v, p);
      solver.impulseDynamics(x.q, p, x.tau, {}, v, pdot, &qdd, &loads);
    } else {
      solver.forwardDynamics(x.q, x.v, x.tau, {}, qdd, &loads);
    }
  };
  {
    std::unique_ptr<Solver> reference = makeSolver(solvers.front(), tree);
    for (std::size_t k = 0; k < n; ++k) {
      evaluate(*reference, states[k]);
      qddRef[k] = qdd;
      loadRef[k] = flat(loads.f);
    }
  }

  for (const std::string& name : solvers) {
    std::unique_ptr<Solver> solver = makeSolver(name, tree);
    SolverDifference d;
    d.solver = name;
    d.impulse = solver->stateForm() == StateForm::Impulse;
    const bool checkImpulse = d.impulse && tree.nv <= kComparisonMaxMassMatrix;
    if (checkImpulse && pRef.empty()) {  // once, with the reference solver's q̈
      pRef.resize(n);
      pdotRef.resize(n);
      ImpulseReference reference(tree);
      for (std::size_t k = 0; k < n; ++k) {
        double error = 0.0;
        reference.evaluate(states[k], qddRef[k], pRef[k], pdotRef[k], error);
        pdotError = std::max(pdotError, error);
      }
    }
    double seconds = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      const ComparisonState& x = states[k];
      const auto t0 = Clock::now();
      evaluate(*solver, x);
      seconds += std::chrono::duration<double>(Clock::now() - t0).count();
      d.qdd.add(qdd, qddRef[k]);
      d.load.add(flat(loads.f), loadRef[k]);
      if (checkImpulse) {
        d.p.add(p, pRef[k]);
        d.v.add(v, x.v);
        d.pdot.add(pdot, pdotRef[k]);
      }
    }
    d.pdot.referenceError = pdotError;
    d.secondsPerCall = n > 0 ? seconds / static_cast<double>(n) : 0.0;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace kt
