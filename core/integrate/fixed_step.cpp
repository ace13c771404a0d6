// SPDX-License-Identifier: BSD-3-Clause
// Fixed-step integrators: explicit Euler and the classical fourth-order Runge–Kutta method
// (Hairer, Nørsett, Wanner, Solving ODEs I, §II.1, Table 1.2 "the" Runge–Kutta method).
//   euler:  x₁ = x₀ + h f(t₀, x₀)
//   rk4:    k₁ = f(t₀, x₀), k₂ = f(t₀ + h/2, x₀ + h/2 k₁), k₃ = f(t₀ + h/2, x₀ + h/2 k₂),
//           k₄ = f(t₀ + h, x₀ + h k₃),   x₁ = x₀ + h/6 (k₁ + 2k₂ + 2k₃ + k₄)
// A step that yields a non-finite stage or state leaves (t, x) unchanged and reports NonFinite.
#include <algorithm>
#include <cmath>

#include "core/integrate/integrator.hpp"

namespace kt {
namespace {

using Eigen::VectorXd;

class FixedStepIntegrator : public Integrator {
 public:
  bool adaptive() const override { return false; }

  void resize(int n, const IntegratorSettings& settings) override {
    settings_ = settings;
    for (VectorXd* v : {&k1_, &k2_, &k3_, &k4_, &xStage_, &xNew_, &x0_}) v->setZero(n);
    h_ = settings.step;
  }

  void start(OdeSystem&, double t, const VectorXd& x) override {
    t0_ = t;
    x0_ = x;
    xNew_ = x;
    h_ = settings_.step;
  }

  StepStatus step(OdeSystem& system, double& t, VectorXd& x, double tEnd) override {
    // land exactly on tEnd when it is within a step (up to rounding of t)
    double h = settings_.step;
    bool last = false;
    if (t + h * (1.0 + 1e-9) >= tEnd) {
      h = tEnd - t;
      last = true;
    }
    if (!(h > 0.0)) return StepStatus::StepTooSmall;
    if (!advance(system, t, x, h)) return StepStatus::NonFinite;
    system.normalize(xNew_);
    if (!xNew_.allFinite()) return StepStatus::NonFinite;
    t0_ = t;
    x0_ = x;
    h_ = h;
    x = xNew_;
    t = last ? tEnd : t + h;
    ++acceptedSteps;
    return StepStatus::Accepted;
  }

  const VectorXd& trialState() const override { return xNew_; }

  void interpolate(double s, VectorXd& xOut) const override {
    const double theta = h_ > 0.0 ? std::clamp((s - t0_) / h_, 0.0, 1.0) : 1.0;
    xOut = (1.0 - theta) * x0_ + theta * xNew_;
  }

 protected:
  /// Writes x(t + h) into xNew_; false when a stage derivative is not finite.
  virtual bool advance(OdeSystem& system, double t, const VectorXd& x, double h) = 0;

  IntegratorSettings settings_;
  VectorXd k1_, k2_, k3_, k4_;  ///< (n) stage derivatives
  VectorXd xStage_;             ///< (n) stage state
  VectorXd xNew_;               ///< (n) result of the last step
  VectorXd x0_;                 ///< (n) state at the start of the last accepted step
};

class EulerIntegrator final : public FixedStepIntegrator {
 public:
  std::string_view name() const override { return "euler"; }

 private:
  bool advance(OdeSystem& system, double t, const VectorXd& x, double h) override {
    system.derivative(t, x, k1_);
    ++evaluations;
    if (!k1_.allFinite()) return false;
    xNew_ = x + h * k1_;
    return true;
  }
};

class Rk4Integrator final : public FixedStepIntegrator {
 public:
  std::string_view name() const override { return "rk4"; }

 private:
  bool advance(OdeSystem& system, double t, const VectorXd& x, double h) override {
    system.derivative(t, x, k1_);
    if (!k1_.allFinite()) return false;
    xStage_ = x + (0.5 * h) * k1_;
    system.derivative(t + 0.5 * h, xStage_, k2_);
    xStage_ = x + (0.5 * h) * k2_;
    system.derivative(t + 0.5 * h, xStage_, k3_);
    xStage_ = x + h * k3_;
    system.derivative(t + h, xStage_, k4_);
    evaluations += 4;
    xNew_ = x + (h / 6.0) * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
    return true;
  }
};

}  // namespace

std::unique_ptr<Integrator> makeEulerIntegrator() { return std::make_unique<EulerIntegrator>(); }
std::unique_ptr<Integrator> makeRk4Integrator() { return std::make_unique<Rk4Integrator>(); }

}  // namespace kt
