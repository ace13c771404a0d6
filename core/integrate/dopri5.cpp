// SPDX-License-Identifier: BSD-3-Clause
// Dormand–Prince 5(4) with step-size control and dense output.
// Hairer, Nørsett, Wanner, Solving Ordinary Differential Equations I (2nd ed., 1993):
//   coefficients      Table 5.2 (§II.5), FSAL: the 7th stage is the next step's first
//   error estimate    err = ‖x̂₁ − x₁‖ in the scaled RMS norm of eq. (4.11),
//                     sc_i = atol + rtol · max(|x₀ᵢ|, |x₁ᵢ|)
//   step control      h_new = h · min(facmax, max(facmin, fac · err^(−α) · err_prev^β)),
//                     α = 1/5 − 0.75 β (PI control, §IV.2 eq. (2.43c) as in the DOPRI5 code;
//                     β = 0 gives the standard controller of eq. (4.13)); no growth right
//                     after a rejection
//   starting step     the algorithm of §II.4 ("Starting step size")
//   dense output      the 4th-order continuous extension of §II.6 (eq. 6.12 with Shampine's
//                     coefficients d₁…d₇ as in the DOPRI5 code)
// A step smaller than the minimum fails (StepTooSmall); a non-finite derivative at the start
// of a step fails at once (NonFinite); non-finite later stages count as a rejection.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/integrate/integrator.hpp"

namespace kt {
namespace {

using Eigen::VectorXd;

// Butcher tableau (Table 5.2)
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176, a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784, a76 = 11.0 / 84;
// error coefficients b − b̂
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                 e7 = -1.0 / 40;
// dense output (Shampine)
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799, d4 = -10690763975.0 / 1880347072,
                 d5 = 701980252875.0 / 199316789632, d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

class Dopri5Integrator final : public Integrator {
 public:
  std::string_view name() const override { return "dopri5"; }
  bool adaptive() const override { return true; }

  void resize(int n, const IntegratorSettings& settings) override {
    s_ = settings;
    for (VectorXd* v :
         {&k1_, &k2_, &k3_, &k4_, &k5_, &k6_, &k7_, &xStage_, &xNew_, &err_, &r1_, &r2_, &r3_, &r4_, &r5_})
      v->setZero(n);
  }

  void start(OdeSystem& system, double t, const VectorXd& x) override {
    system.derivative(t, x, k1_);
    ++evaluations;
    haveK1_ = k1_.allFinite();
    t0_ = t;
    h_ = s_.step > 0.0 ? s_.step : 0.0;
    if (haveK1_ && h_ == 0.0) h_ = startingStep(system, t, x);
    errOld_ = 1e-4;
    lastRejected_ = false;
    r1_ = x;
    r2_.setZero();
    r3_.setZero();
    r4_.setZero();
    r5_.setZero();
  }

  StepStatus step(OdeSystem& system, double& t, VectorXd& x, double tEnd) override {
    if (!haveK1_) return StepStatus::NonFinite;
    const double alpha = 0.2 - 0.75 * s_.beta;
    const double hMax = s_.maxStep > 0.0 ? s_.maxStep : std::numeric_limits<double>::infinity();
    for (;;) {
      const double hMin = s_.minStep > 0.0 ? s_.minStep : 1e-12 * std::max(1.0, std::abs(t));
      double h = std::min(h_, hMax);
      // also a step that is not a number (an unmeetable tolerance can drive the controller to
      // 0 · ∞): without this every trial would be rejected forever
      if (!(h >= hMin)) return StepStatus::StepTooSmall;
      bool last = false;
      if (t + 1.01 * h >= tEnd) {  // avoid a sliver of a last step
        h = tEnd - t;
        last = true;
        if (!(h > 0.0)) return StepStatus::StepTooSmall;
      }
      stages(system, t, x, h);
      const double err = errorNorm(x);
      if (err <= 1.0) {
        // accepted: dense output, FSAL, new step size (PI control)
        const double fac = std::pow(err, alpha) / std::pow(errOld_, s_.beta) / s_.safety;
        double hNew = h / std::clamp(fac, 1.0 / s_.maxFactor, 1.0 / s_.minFactor);
        if (lastRejected_) hNew = std::min(hNew, h);
        errOld_ = std::max(err, 1e-4);
        prepareDenseOutput(x, h);
        system.normalize(xNew_);
        t0_ = t;
        x = xNew_;
        k1_.swap(k7_);
        t = last ? tEnd : t + h;
        hDone_ = h;
        h_ = hNew;
        lastRejected_ = false;
        ++acceptedSteps;
        return StepStatus::Accepted;
      }
      // rejected: shrink (a non-finite error shrinks by the largest factor)
      const double fac = std::isfinite(err) ? std::pow(err, alpha) / s_.safety : 1.0 / s_.minFactor;
      h_ = h / std::min(fac, 1.0 / s_.minFactor);
      lastRejected_ = true;
      ++rejectedSteps;
    }
  }

  const VectorXd& trialState() const override { return xNew_; }

  void interpolate(double s, VectorXd& xOut) const override {
    // x(t₀ + θh) = r₁ + θ (r₂ + (1−θ) (r₃ + θ (r₄ + (1−θ) r₅)))
    const double theta = hDone_ > 0.0 ? (s - t0_) / hDone_ : 1.0;
    const double theta1 = 1.0 - theta;
    xOut = r1_ + theta * (r2_ + theta1 * (r3_ + theta * (r4_ + theta1 * r5_)));
  }

 private:
  // Stages 2…7 from k1 (known at (t, x)); x̂ in xNew_, the error estimate in err_.
  void stages(OdeSystem& system, double t, const VectorXd& x, double h) {
    xStage_ = x + h * a21 * k1_;
    system.derivative(t + c2 * h, xStage_, k2_);
    xStage_ = x + h * (a31 * k1_ + a32 * k2_);
    system.derivative(t + c3 * h, xStage_, k3_);
    xStage_ = x + h * (a41 * k1_ + a42 * k2_ + a43 * k3_);
    system.derivative(t + c4 * h, xStage_, k4_);
    xStage_ = x + h * (a51 * k1_ + a52 * k2_ + a53 * k3_ + a54 * k4_);
    system.derivative(t + c5 * h, xStage_, k5_);
    xStage_ = x + h * (a61 * k1_ + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_);
    system.derivative(t + h, xStage_, k6_);
    xNew_ = x + h * (a71 * k1_ + a73 * k3_ + a74 * k4_ + a75 * k5_ + a76 * k6_);
    system.derivative(t + h, xNew_, k7_);
    evaluations += 6;
    err_ = h * (e1 * k1_ + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7_);
  }

  // Scaled RMS norm of the error estimate (eq. 4.11); +∞ when anything is not finite.
  double errorNorm(const VectorXd& x) const {
    double sum = 0.0;
    const Eigen::Index n = x.size();
    for (Eigen::Index i = 0; i < n; ++i) {
      const double sc = s_.absTolerance + s_.relTolerance * std::max(std::abs(x[i]), std::abs(xNew_[i]));
      const double e = err_[i] / sc;
      sum += e * e;
    }
    const double err = n > 0 ? std::sqrt(sum / static_cast<double>(n)) : 0.0;
    if (!std::isfinite(err) || !k7_.allFinite()) return std::numeric_limits<double>::infinity();
    return err;
  }

  void prepareDenseOutput(const VectorXd& x, double h) {
    r1_ = x;
    r2_ = xNew_ - x;
    r3_ = h * k1_ - r2_;
    r4_ = r2_ - h * k7_ - r3_;
    r5_ = h * (d1 * k1_ + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7_);
  }

  // §II.4: h from ‖x‖/‖f‖, one explicit Euler trial to estimate the second derivative.
  double startingStep(OdeSystem& system, double t, const VectorXd& x) {
    double dnf = 0.0, dny = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double sc = s_.absTolerance + s_.relTolerance * std::abs(x[i]);
      dnf += (k1_[i] / sc) * (k1_[i] / sc);
      dny += (x[i] / sc) * (x[i] / sc);
    }
    const double hMax = s_.maxStep > 0.0 ? s_.maxStep : std::numeric_limits<double>::infinity();
    double h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : std::sqrt(dny / dnf) * 0.01;
    if (!std::isfinite(h) || !(h > 0.0)) h = 1e-6;
    h = std::min(h, hMax);
    xStage_ = x + h * k1_;
    system.derivative(t + h, xStage_, k2_);
    ++evaluations;
    double der2 = 0.0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double sc = s_.absTolerance + s_.relTolerance * std::abs(x[i]);
      const double d = (k2_[i] - k1_[i]) / sc;
      der2 += d * d;
    }
    der2 = std::sqrt(der2) / h;
    const double der12 = std::max(std::abs(der2), std::sqrt(dnf));
    const double h1 =
        der12 <= 1e-15 || !std::isfinite(der12) ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / der12, 1.0 / 5.0);
    const double h0 = std::min({100.0 * h, h1, hMax});
    // a tolerance so small that the scaled norms overflow gives no estimate: start small and
    // let the error control (and the minimum step) decide
    return std::isfinite(h0) && h0 > 0.0 ? h0 : std::min(1e-6, hMax);
  }

  IntegratorSettings s_;
  VectorXd k1_, k2_, k3_, k4_, k5_, k6_, k7_;  ///< (n) stage derivatives; k1 is FSAL
  VectorXd xStage_, xNew_, err_;               ///< (n) stage state, 5th-order result, error estimate
  VectorXd r1_, r2_, r3_, r4_, r5_;            ///< (n) dense-output coefficients of the last step
  double errOld_ = 1e-4;
  double hDone_ = 0.0;  ///< size of the last accepted step
  bool lastRejected_ = false;
  bool haveK1_ = false;
};

}  // namespace

std::unique_ptr<Integrator> makeDopri5Integrator() { return std::make_unique<Dopri5Integrator>(); }

}  // namespace kt
