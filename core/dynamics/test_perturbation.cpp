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

// From KINETREE_TEST_PERTURB_SOLVER="NAME:EPSILON" at first use, then as set programmatically.
Perturbation& perturbation() {
  static Perturbation p = [] {
    Perturbation init;
    if (const char* env = std::getenv("KINETREE_TEST_PERTURB_SOLVER")) {
      const std::string text(env);
      const std::size_t colon = text.rfind(':');
      if (colon != std::string::npos && colon > 0) {
        init.name = text.substr(0, colon);
        init.relative = std::strtod(text.c_str() + colon + 1, nullptr);
      }
    }
    return init;
  }();
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

std::unique_ptr<Solver> applySolverPerturbationForTesting(std::unique_ptr<Solver> solver) {
  const std::lock_guard<std::mutex> lock(perturbationMutex());
  const Perturbation& p = perturbation();
  if (p.name.empty() || p.name != solver->name()) return solver;
  return std::make_unique<PerturbedSolver>(std::move(solver), p.relative);
}

}  // namespace kt
