// SPDX-License-Identifier: BSD-3-Clause
// Time integrators for the state x = (q, y) of a multibody system (docs/dynamics.md §7):
// y = ν (velocity-form solvers) or y = p (Poisson-impulse solvers). The integrators see only
// a derivative function ẋ = f(t, x) and a projection that renormalizes quaternion coordinates:
// quaternions follow q̇ = G(q) ν (JointModel::positionDerivative) in the embedding space and are
// renormalized after every accepted step (JointModel::normalize).
//
//   euler   explicit Euler, fixed step (first order; for teaching how bad it is)
//   rk4     classical Runge–Kutta, fixed step (fourth order)
//   dopri5  Dormand–Prince 5(4), adaptive step with error control and the 4th-order continuous
//           extension for output at fixed times (Hairer, Nørsett, Wanner, Solving ODEs I,
//           2nd ed. 1993, §II.5 Table 5.2, §II.6 eq. 6.12, §II.4 step-size control and
//           starting step; the PI controller as in Hairer's DOPRI5 code, §IV.2)
//
// Every integrator sizes its stage buffers once (resize) and allocates nothing in step().
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

namespace kt {

/// The system the integrators advance. Implemented by the simulator (core/sim/simulator.cpp);
/// tests implement it directly for analytic ODEs.
class OdeSystem {
 public:
  virtual ~OdeSystem() = default;
  /// Length of x.
  virtual int stateSize() const = 0;
  /// ẋ = f(t, x). Must not allocate. Non-finite results are allowed (the integrators report them).
  virtual void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) = 0;
  /// Projects x back onto the state manifold (unit quaternions) in place. Default: nothing.
  virtual void normalize(Eigen::VectorXd& /*x*/) {}
};

struct IntegratorSettings {
  double step = 1e-3;          ///< fixed step (euler, rk4); first-step hint for dopri5 (0 = automatic)
  double relTolerance = 1e-8;  ///< dopri5: relative tolerance
  double absTolerance = 1e-8;  ///< dopri5: absolute tolerance
  double minStep = 0.0;        ///< dopri5: a step below this fails (0 = 1e-12 · max(1, |t|))
  double maxStep = 0.0;        ///< dopri5: 0 = unbounded
  double safety = 0.9;         ///< dopri5: safety factor of the step-size controller
  double minFactor = 0.2;      ///< dopri5: bounds on the step-size ratio h_new / h
  double maxFactor = 10.0;
  double beta = 0.04;  ///< dopri5: PI control exponent on the previous error (0 = standard control)
};

enum class StepStatus {
  Accepted,      ///< t and x advanced
  NonFinite,     ///< the derivative at the start of the step is not finite (NaN/Inf); nothing changed
  StepTooSmall,  ///< dopri5: the error test needed a step below the minimum; nothing changed
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string_view name() const = 0;
  virtual bool adaptive() const = 0;

  /// Sizes the stage buffers for states of length n and takes the settings.
  virtual void resize(int n, const IntegratorSettings& settings) = 0;
  /// Starts (or restarts) integration at (t, x): forgets cached derivatives and step sizes.
  virtual void start(OdeSystem& system, double t, const Eigen::VectorXd& x) = 0;
  /// One step from (t, x), never beyond tEnd. On Accepted, t and x hold the new point (x normalized).
  /// Adaptive integrators may reject trial steps on the way (counted in rejectedSteps).
  virtual StepStatus step(OdeSystem& system, double& t, Eigen::VectorXd& x, double tEnd) = 0;

  /// After an accepted step from t0 to t1: the state at s ∈ [t0, t1] (not normalized). The
  /// fixed-step integrators interpolate linearly (they are stepped onto the output times instead).
  virtual void interpolate(double s, Eigen::VectorXd& xOut) const = 0;
  /// The state the last step computed (accepted or not): where a non-finite value shows up.
  virtual const Eigen::VectorXd& trialState() const = 0;
  /// Start of the last accepted step.
  double lastStepStart() const { return t0_; }
  /// Size of the last accepted step (or the next trial step of an adaptive integrator).
  double stepSize() const { return h_; }

  long acceptedSteps = 0;
  long rejectedSteps = 0;
  long evaluations = 0;

 protected:
  double t0_ = 0.0;
  double h_ = 0.0;
};

/// The registry names, in menu order: euler, rk4, dopri5 (what simulation.integrator may be).
const std::vector<std::string>& integratorNames();
/// True when `name` is an integrator name.
bool isIntegratorName(std::string_view name);
/// One line per integrator for menus and --help.
std::string_view integratorDescription(std::string_view name);
/// Builds an integrator. Throws std::invalid_argument for an unknown name.
std::unique_ptr<Integrator> makeIntegrator(std::string_view name);

std::unique_ptr<Integrator> makeEulerIntegrator();   // core/integrate/fixed_step.cpp
std::unique_ptr<Integrator> makeRk4Integrator();     // core/integrate/fixed_step.cpp
std::unique_ptr<Integrator> makeDopri5Integrator();  // core/integrate/dopri5.cpp

}  // namespace kt
