// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/test_perturbation.hpp"

#include <cstdlib>
#include <mutex>

namespace kt {
namespace {

struct Perturbation {
  std::string name;
  double relative = 0.0;
};

std::mutex& perturbationMutex() {
  static std::mutex m;
  return m;
}

// Off until set programmatically. The library never reads the environment: only a test build
// of a tool (kinetree-cli-test) passes KINETREE_TEST_PERTURB_SOLVER on.
Perturbation& perturbation() {
  static Perturbation p;
  return p;
}

class PerturbedSolver final : public Solver {
 public:
  PerturbedSolver(std::unique_ptr<Solver> inner, double relative)
      : Solver(inner->tree()), inner_(std::move(inner)), scale_(1.0 + relative) {}
  std::string_view name() const override { return inner_->name(); }
  StateForm stateForm() const override { return inner_->stateForm(); }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override {
    inner_->forwardDynamics(q, v, tau, fext, qdd, loads);
    qdd *= scale_;
  }
  void impulseFromVelocity(const VectorX& q, const VectorX& v, VectorX& p) override {
    inner_->impulseFromVelocity(q, v, p);
  }
  void impulseDynamics(const VectorX& q, const VectorX& p, const VectorX& tau, ExternalWrenches fext, VectorX& v,
                       VectorX& pdot, VectorX* qdd, JointLoads* loads) override {
    inner_->impulseDynamics(q, p, tau, fext, v, pdot, qdd, loads);
    pdot *= scale_;
    if (qdd) *qdd *= scale_;
  }

 private:
  std::unique_ptr<Solver> inner_;
  double scale_;
};

}  // namespace

void setSolverPerturbationForTesting(const std::string& name, double relative) {
  const std::lock_guard<std::mutex> lock(perturbationMutex());
  perturbation() = Perturbation{name, relative};
}

bool setSolverPerturbationForTesting(const std::string& spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  char* end = nullptr;
  const double relative = std::strtod(spec.c_str() + colon + 1, &end);
  if (end == spec.c_str() + colon + 1 || *end != '\0') return false;
  setSolverPerturbationForTesting(spec.substr(0, colon), relative);
  return true;
}

std::unique_ptr<Solver> applySolverPerturbationForTesting(std::unique_ptr<Solver> solver) {
  const std::lock_guard<std::mutex> lock(perturbationMutex());
  const Perturbation& p = perturbation();
  if (p.name.empty() || p.name != solver->name()) return solver;
  return std::make_unique<PerturbedSolver>(std::move(solver), p.relative);
}

}  // namespace kt
