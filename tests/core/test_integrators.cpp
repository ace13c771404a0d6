// SPDX-License-Identifier: BSD-3-Clause
// Integrators on ODEs with known solutions (issue: engine, item 5; docs/dynamics.md §7).
#include <QTest>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

#include "core/integrate/integrator.hpp"
#include "core/model/tree.hpp"

#include "support/allocation_counter.hpp"

using kt::test::gAllocations;

using namespace kt;
using Eigen::VectorXd;

namespace {

// x = (position, velocity) of x'' = −ω² x; exact: x = cos ωt, v = −ω sin ωt.
struct Oscillator final : OdeSystem {
  double omega = 2.0;
  int stateSize() const override { return 2; }
  void derivative(double, const VectorXd& x, VectorXd& xdot) override {
    xdot[0] = x[1];
    xdot[1] = -omega * omega * x[0];
  }
  VectorXd exact(double t) const {
    VectorXd x(2);
    x << std::cos(omega * t), -omega * std::sin(omega * t);
    return x;
  }
};

// A unit quaternion rotating at a constant body rate: q̇ = ½ q ⊗ (0, ω); normalize() renormalizes.
struct Spinner final : OdeSystem {
  Eigen::Vector3d w{0.3, -1.1, 2.0};
  int normalizations = 0;
  int stateSize() const override { return 4; }
  void derivative(double, const VectorXd& q, VectorXd& qdot) override {
    const Eigen::Vector3d qv(q[1], q[2], q[3]);
    qdot[0] = -0.5 * qv.dot(w);
    const Eigen::Vector3d d = 0.5 * (q[0] * w + qv.cross(w));
    qdot[1] = d.x();
    qdot[2] = d.y();
    qdot[3] = d.z();
  }
  void normalize(VectorXd& q) override {
    q.normalize();
    ++normalizations;
  }
};

// x' = x², x(0) = 1: blows up at t = 1.
struct BlowUp final : OdeSystem {
  int stateSize() const override { return 1; }
  void derivative(double, const VectorXd& x, VectorXd& xdot) override { xdot[0] = x[0] * x[0]; }
};

// Finite until t = 0.5, NaN afterwards.
struct Poisoned final : OdeSystem {
  int stateSize() const override { return 1; }
  void derivative(double t, const VectorXd&, VectorXd& xdot) override {
    xdot[0] = t < 0.5 ? 1.0 : std::numeric_limits<double>::quiet_NaN();
  }
};

// Integrates with a fixed-step integrator from 0 to T; returns the end state.
VectorXd runFixed(const char* name, OdeSystem& sys, const VectorXd& x0, double h, double T) {
  auto integ = makeIntegrator(name);
  IntegratorSettings s;
  s.step = h;
  integ->resize(sys.stateSize(), s);
  VectorXd x = x0;
  double t = 0.0;
  integ->start(sys, t, x);
  while (t < T)
    if (integ->step(sys, t, x, T) != StepStatus::Accepted) return VectorXd::Constant(x.size(), NAN);
  return x;
}

}  // namespace

class TestIntegrators : public QObject {
  Q_OBJECT

 private slots:
  void registry() {
    // the validator's list and the factory agree
    QCOMPARE(integratorNames().size(), std::size_t(3));
    for (const std::string& n : integratorNames()) {
      QVERIFY(isIntegratorName(n));
      auto integ = makeIntegrator(n);
      QCOMPARE(std::string(integ->name()), n);
      QVERIFY(!integratorDescription(n).empty());
    }
    QVERIFY(!isIntegratorName("rk45"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeIntegrator("rk45"));
    QVERIFY(makeIntegrator("dopri5")->adaptive());
    QVERIFY(!makeIntegrator("rk4")->adaptive());
  }

  // Global error at T: Euler O(h), RK4 O(h⁴).
  void convergenceOrder_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("minRatio");
    QTest::addColumn<double>("maxRatio");
    QTest::newRow("euler") << "euler" << 1.8 << 2.2;
    QTest::newRow("rk4") << "rk4" << 14.0 << 18.0;
  }
  void convergenceOrder() {
    QFETCH(QString, name);
    QFETCH(double, minRatio);
    QFETCH(double, maxRatio);
    Oscillator sys;
    VectorXd x0(2);
    x0 << 1.0, 0.0;
    const double T = 2.0;
    const QByteArray n = name.toUtf8();
    const double h = name == "euler" ? 1e-4 : 1e-2;
    const double e1 = (runFixed(n.constData(), sys, x0, h, T) - sys.exact(T)).norm();
    const double e2 = (runFixed(n.constData(), sys, x0, h / 2, T) - sys.exact(T)).norm();
    const double ratio = e1 / e2;
    qInfo("%s: error %.3g at h, %.3g at h/2, ratio %.3f", n.constData(), e1, e2, ratio);
    QVERIFY2(ratio > minRatio && ratio < maxRatio, qPrintable(QString::number(ratio)));
  }

  // The fixed-step integrators land exactly on tEnd and count their steps.
  void fixedStepLandsOnEnd() {
    Oscillator sys;
    auto integ = makeIntegrator("rk4");
    IntegratorSettings s;
    s.step = 0.1;
    integ->resize(2, s);
    VectorXd x = sys.exact(0.0);
    double t = 0.0;
    integ->start(sys, t, x);
    while (t < 0.35) QCOMPARE(integ->step(sys, t, x, 0.35), StepStatus::Accepted);
    QCOMPARE(t, 0.35);
    QCOMPARE(integ->acceptedSteps, 4L);
    QCOMPARE(integ->evaluations, 16L);
    QVERIFY((x - sys.exact(0.35)).norm() < 1e-4);
  }

  // DOPRI5: the global error follows the tolerance; the dense output is as accurate as the steps.
  void dopri5Tolerance_data() {
    QTest::addColumn<double>("tol");
    QTest::newRow("1e-6") << 1e-6;
    QTest::newRow("1e-9") << 1e-9;
    QTest::newRow("1e-12") << 1e-12;
  }
  void dopri5Tolerance() {
    QFETCH(double, tol);
    Oscillator sys;
    auto integ = makeIntegrator("dopri5");
    IntegratorSettings s;
    s.step = 0.0;
    s.relTolerance = s.absTolerance = tol;
    integ->resize(2, s);
    VectorXd x = sys.exact(0.0), xo(2);
    double t = 0.0;
    integ->start(sys, t, x);
    const double T = 10.0, dtOut = 0.01;
    double worstDense = 0.0, worstStep = 0.0;
    int k = 1;
    while (k * dtOut <= T + 1e-12) {
      QCOMPARE(integ->step(sys, t, x, std::numeric_limits<double>::infinity()), StepStatus::Accepted);
      worstStep = std::max(worstStep, (x - sys.exact(t)).norm());
      for (; k * dtOut <= std::min(t, T + 1e-12); ++k) {
        QVERIFY(k * dtOut >= integ->lastStepStart());
        integ->interpolate(k * dtOut, xo);
        worstDense = std::max(worstDense, (xo - sys.exact(k * dtOut)).norm());
      }
    }
    qInfo("tol %.0e: %ld steps (%ld rejected), max error %.3g at steps, %.3g in the dense output", tol,
          integ->acceptedSteps, integ->rejectedSteps, worstStep, worstDense);
    // global error within a modest multiple of the tolerance (10 s, 3 periods)
    QVERIFY(worstStep < 200 * tol);
    QVERIFY(worstDense < 400 * tol + 1e-14);
    QVERIFY(worstDense > 0.0);
  }

  // The step size adapts: tightening the tolerance by 10⁵ multiplies the steps by ≈ 10^(5/5).
  void dopri5StepsScaleWithTolerance() {
    Oscillator sys;
    long steps[2];
    const double tols[2] = {1e-5, 1e-10};
    for (int r = 0; r < 2; ++r) {
      auto integ = makeIntegrator("dopri5");
      IntegratorSettings s;
      s.step = 0.0;
      s.relTolerance = s.absTolerance = tols[r];
      integ->resize(2, s);
      VectorXd x = sys.exact(0.0);
      double t = 0.0;
      integ->start(sys, t, x);
      while (t < 10.0) QCOMPARE(integ->step(sys, t, x, 10.0), StepStatus::Accepted);
      QCOMPARE(t, 10.0);
      steps[r] = integ->acceptedSteps;
    }
    const double ratio = double(steps[1]) / double(steps[0]);
    qInfo("steps %ld → %ld (ratio %.2f, ideal 10)", steps[0], steps[1], ratio);
    QVERIFY(ratio > 6.0 && ratio < 16.0);
  }

  // A singularity: the step shrinks below the minimum and the step fails, leaving x unchanged.
  void dopri5FailsBelowMinimumStep() {
    BlowUp sys;
    auto integ = makeIntegrator("dopri5");
    IntegratorSettings s;
    s.step = 0.0;
    s.relTolerance = s.absTolerance = 1e-8;
    integ->resize(1, s);
    VectorXd x(1);
    x << 1.0;
    double t = 0.0;
    integ->start(sys, t, x);
    StepStatus status = StepStatus::Accepted;
    int steps = 0;
    while (status == StepStatus::Accepted && steps < 100000) {
      status = integ->step(sys, t, x, 2.0);
      ++steps;
    }
    qInfo("stopped at t = %.15g after %d steps (%ld rejected), x = %.6g", t, steps, integ->rejectedSteps, x[0]);
    QCOMPARE(status, StepStatus::StepTooSmall);
    // the steps shrink towards the singularity until they fall below the minimum there
    QVERIFY(std::abs(t - 1.0) < 1e-6);
    QVERIFY(std::isfinite(x[0]) && x[0] > 1e6);
    QVERIFY(integ->stepSize() < 1e-12);
  }

  // A tolerance no arithmetic can meet (1e-300): the scaled norms overflow, and the step must
  // still collapse to StepTooSmall in a bounded number of trials instead of looping forever.
  void dopri5UnmeetableTolerance_data() {
    QTest::addColumn<double>("tolerance");
    QTest::newRow("1e-300") << 1e-300;
    QTest::newRow("1e-320") << 1e-320;
    QTest::newRow("0") << 0.0;
  }
  void dopri5UnmeetableTolerance() {
    QFETCH(double, tolerance);
    Oscillator sys;
    auto integ = makeIntegrator("dopri5");
    IntegratorSettings s;
    s.step = 0.0;
    s.relTolerance = s.absTolerance = tolerance;
    integ->resize(2, s);
    const VectorXd x0 = sys.exact(0.0);
    VectorXd x = x0;
    double t = 0.0;
    integ->start(sys, t, x);
    QCOMPARE(integ->step(sys, t, x, 1.0), StepStatus::StepTooSmall);
    QCOMPARE(t, 0.0);
    QCOMPARE(x, x0);
    QVERIFY2(integ->rejectedSteps < 1000, qPrintable(QString::number(integ->rejectedSteps)));
  }

  // NaN from the derivative: the step is refused and the state stays at the last good one.
  void nonFiniteDerivative_data() {
    QTest::addColumn<QString>("name");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void nonFiniteDerivative() {
    QFETCH(QString, name);
    Poisoned sys;
    auto integ = makeIntegrator(name.toStdString());
    IntegratorSettings s;
    s.step = 0.1;
    integ->resize(1, s);
    VectorXd x = VectorXd::Zero(1);
    double t = 0.0;
    integ->start(sys, t, x);
    StepStatus status = StepStatus::Accepted;
    for (int k = 0; k < 10000 && status == StepStatus::Accepted; ++k) status = integ->step(sys, t, x, 2.0);
    QVERIFY(status != StepStatus::Accepted);
    QVERIFY(t <= 0.5 + 1e-12);
    QVERIFY(x.allFinite());
    QVERIFY(std::abs(x[0] - t) < 1e-9);  // ẋ = 1 up to there
  }

  // Quaternion states stay unit after every accepted step, and match the exact rotation.
  void quaternionRenormalized_data() {
    QTest::addColumn<QString>("name");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void quaternionRenormalized() {
    QFETCH(QString, name);
    Spinner sys;
    auto integ = makeIntegrator(name.toStdString());
    IntegratorSettings s;
    s.step = name == "dopri5" ? 0.0 : 0.01;
    s.relTolerance = s.absTolerance = 1e-10;
    integ->resize(4, s);
    VectorXd q(4);
    q << 1, 0, 0, 0;
    double t = 0.0;
    integ->start(sys, t, q);
    while (t < 2.0) {
      QCOMPARE(integ->step(sys, t, q, 2.0), StepStatus::Accepted);
      QVERIFY(std::abs(q.norm() - 1.0) < 1e-14);
    }
    QCOMPARE(sys.normalizations, int(integ->acceptedSteps));
    const Eigen::Vector3d angle = sys.w * 2.0;
    const Eigen::Quaterniond exact(Eigen::AngleAxisd(angle.norm(), angle.normalized()));
    const Eigen::Vector4d e(exact.w(), exact.x(), exact.y(), exact.z());
    const double err = std::min((q - e).norm(), (q + e).norm());
    qInfo("%s: |q − q_exact| = %.3g", qPrintable(name), err);
    QVERIFY(err < (name == "euler" ? 1e-3 : name == "rk4" ? 1e-7 : 1e-9));
  }

  // Stage buffers are sized once: stepping and interpolating allocate nothing.
  void noAllocationPerStep_data() {
    QTest::addColumn<QString>("name");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void noAllocationPerStep() {
    QFETCH(QString, name);
    Oscillator sys;
    auto integ = makeIntegrator(name.toStdString());
    IntegratorSettings s;
    s.step = 0.01;
    integ->resize(2, s);
    VectorXd x = sys.exact(0.0), xo(2);
    double t = 0.0;
    integ->start(sys, t, x);
    const long before = gAllocations.load();
    for (int k = 0; k < 200; ++k) {
      QCOMPARE(integ->step(sys, t, x, 100.0), StepStatus::Accepted);
      integ->interpolate(t, xo);
    }
    const long allocations = gAllocations.load() - before;
    QCOMPARE(allocations, 0L);
  }
};

QTEST_GUILESS_MAIN(TestIntegrators)
#include "test_integrators.moc"
