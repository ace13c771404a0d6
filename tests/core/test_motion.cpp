// SPDX-License-Identifier: BSD-3-Clause
// Prescribed motions (core/motion/motion_profile.hpp): the shapes against their analytic
// properties, their q̇ and q̈ against finite differences of q, and the zero-phase low-pass; the
// hybrid dynamics of a tree with some joints prescribed (Solver::hybridDynamics) against forward
// and inverse dynamics, independent paths.
#include <QTest>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"
#include "core/io/model_files.hpp"
#include "core/model/generators.hpp"
#include "core/motion/motion_profile.hpp"
#include "support/random_state.hpp"

using namespace kt;

Q_DECLARE_METATYPE(kt::Move)

namespace {

// Central differences of q and q̇ at points off the knots (where q''' jumps, and a difference
// across one would err by O(h)); their error is O(h²) times the third/fourth derivative.
template <class Motion>
double worstDerivativeError(const Motion& m, double t0, double t1, int points) {
  const double h = 1e-5;
  double worst = 0.0;
  for (int k = 0; k <= points; ++k) {
    const double t = t0 + (t1 - t0) * (k + 0.37) / (points + 1);
    const MotionSample s = m.at(t), lo = m.at(t - h), hi = m.at(t + h);
    const double qd = (hi.q - lo.q) / (2.0 * h), qdd = (hi.qd - lo.qd) / (2.0 * h);
    worst = std::max(
        {worst, std::abs(qd - s.qd) / (1.0 + std::abs(s.qd)), std::abs(qdd - s.qdd) / (1.0 + std::abs(s.qdd))});
  }
  qInfo("worst relative difference to central differences: %.3g", worst);
  return worst;
}

double amplitudeAfterFilter(double frequency, double dt, double cutoff) {
  const int n = 4000;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = std::sin(2.0 * std::numbers::pi * frequency * i * dt);
  const std::vector<double> y = lowPassZeroPhase(x, dt, cutoff);
  // amplitude and phase from the projection on sin and cos over whole periods in the middle
  double s = 0.0, c = 0.0;
  const int i0 = n / 4, i1 = 3 * n / 4;
  for (int i = i0; i < i1; ++i) {
    const double w = 2.0 * std::numbers::pi * frequency * i * dt;
    s += y[i] * std::sin(w);
    c += y[i] * std::cos(w);
  }
  const double m = 2.0 / (i1 - i0);
  if (std::abs(c * m) > 0.01 * std::hypot(s * m, c * m) + 1e-3) return -1.0;  // a phase shift
  return std::hypot(s * m, c * m);
}

VectorX flatten(const std::vector<Vec6>& f) {
  VectorX out(6 * static_cast<Eigen::Index>(f.size()));
  for (std::size_t i = 0; i < f.size(); ++i) out.segment<6>(6 * static_cast<Eigen::Index>(i)) = f[i];
  return out;
}

}  // namespace

class TestMotion : public QObject {
  Q_OBJECT

 private slots:
  // A clamped cubic spline reproduces any cubic polynomial exactly, given its end slopes.
  void splineReproducesACubic() {
    auto p = [](double t) { return 0.3 - 1.2 * t + 0.7 * t * t - 0.25 * t * t * t; };
    auto dp = [](double t) { return -1.2 + 1.4 * t - 0.75 * t * t; };
    auto ddp = [](double t) { return 1.4 - 1.5 * t; };
    const std::vector<double> t = {0.0, 0.4, 0.5, 1.3, 2.0, 3.1};
    std::vector<double> q;
    for (double x : t) q.push_back(p(x));
    const CubicSpline s = CubicSpline::clamped(t, q, dp(t.front()), dp(t.back()));
    for (int k = 0; k <= 62; ++k) {
      const double x = 3.1 * k / 62.0;
      const MotionSample m = s.at(x);
      QVERIFY(std::abs(m.q - p(x)) < 1e-13);
      QVERIFY(std::abs(m.qd - dp(x)) < 1e-12);
      QVERIFY(std::abs(m.qdd - ddp(x)) < 1e-11);
    }
  }

  // Natural ends have q̈ = 0; the spline passes through its knots and is C² across them.
  void naturalSplineIsC2ThroughItsKnots() {
    SplitMix64 rng(5);
    std::vector<double> t = {0.0}, q = {0.0};
    for (int i = 1; i < 12; ++i) {
      t.push_back(t.back() + 0.05 + rng.uniform());
      q.push_back(rng.uniform() * 2.0 - 1.0);
    }
    const CubicSpline s = CubicSpline::natural(t, q);
    QCOMPARE(s.at(t.front()).qdd, 0.0);
    QVERIFY(std::abs(s.at(t.back()).qdd) < 1e-12);
    for (std::size_t i = 0; i < t.size(); ++i) {
      QVERIFY(std::abs(s.at(t[i]).q - q[i]) < 1e-14);
      if (i == 0 || i + 1 == t.size()) continue;
      const MotionSample l = s.at(std::nextafter(t[i], -1e300)), r = s.at(std::nextafter(t[i], 1e300));
      QVERIFY(std::abs(l.q - r.q) < 1e-12);
      QVERIFY(std::abs(l.qd - r.qd) < 1e-10);
      QVERIFY(std::abs(l.qdd - r.qdd) < 1e-9);
    }
    QVERIFY(worstDerivativeError(s, t.front(), t.back(), 400) < 1e-5);
    // outside the knots: the straight line of the end's position and velocity
    const MotionSample end = s.at(t.back()), after = s.at(t.back() + 2.0);
    QVERIFY(std::abs(after.q - (end.q + 2.0 * end.qd)) < 1e-12);
    QCOMPARE(after.qdd, 0.0);
  }

  void clampedSplineHasItsEndVelocities() {
    const std::vector<double> t = {0.0, 1.0, 2.5, 3.0}, q = {0.0, 1.0, -0.5, 0.2};
    const CubicSpline s = CubicSpline::clamped(t, q, 0.0, 0.0);
    QVERIFY(std::abs(s.at(0.0).qd) < 1e-14);
    QVERIFY(std::abs(s.at(3.0).qd) < 1e-14);
    // with zero end velocities the motion rests outside the knots
    QVERIFY(std::abs(s.at(5.0).q - 0.2) < 1e-14);
    QVERIFY(worstDerivativeError(s, -0.5, 3.5, 400) < 1e-5);
  }

  void splineInputIsChecked_data() {
    QTest::addColumn<std::vector<double>>("t");
    QTest::addColumn<std::vector<double>>("q");
    QTest::addColumn<QString>("message");
    QTest::newRow("one knot") << std::vector<double>{0.0} << std::vector<double>{1.0} << "at least 2 knots";
    QTest::newRow("times repeat") << std::vector<double>{0.0, 1.0, 1.0} << std::vector<double>{1.0, 2.0, 3.0}
                                  << "knot times must increase: knot 2 at t = 1 s follows t = 1 s";
    QTest::newRow("NaN") << std::vector<double>{0.0, NAN} << std::vector<double>{1.0, 2.0}
                         << "knot 1 is not a finite number";
    QTest::newRow("counts differ") << std::vector<double>{0.0, 1.0} << std::vector<double>{1.0} << "differ in count";
  }
  void splineInputIsChecked() {
    QFETCH(std::vector<double>, t);
    QFETCH(std::vector<double>, q);
    QFETCH(QString, message);
    try {
      CubicSpline::natural(t, q);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
  }

  // The quintic: rest at both ends, the midpoint halfway, the peak velocity 15/8 of the mean.
  void restToRestQuintic() {
    const RestToRest m({{0.5, 2.5, 0.2, 1.4}, {3.0, 3.5, 1.4, -0.6}});
    for (double t : {0.0, 0.5, 2.5, 2.7, 3.0, 3.5, 9.0}) {
      const MotionSample s = m.at(t);
      QVERIFY2(std::abs(s.qd) < 1e-14 && std::abs(s.qdd) < 1e-12, qPrintable(QString::number(t)));
    }
    QCOMPARE(m.at(0.0).q, 0.2);
    QCOMPARE(m.at(2.5).q, 1.4);
    QCOMPARE(m.at(2.8).q, 1.4);
    QCOMPARE(m.at(9.0).q, -0.6);
    QVERIFY(std::abs(m.at(1.5).q - 0.8) < 1e-15);
    QVERIFY(std::abs(m.at(1.5).qd - 15.0 / 8.0 * 1.2 / 2.0) < 1e-14);
    QVERIFY(std::abs(m.at(1.5).qdd) < 1e-14);
    // the largest acceleration of s'' = 60u − 180u² + 120u³ is 10/√3 at u = (3 − √3)/6
    const double u = (3.0 - std::sqrt(3.0)) / 6.0;
    QVERIFY(std::abs(m.at(0.5 + 2.0 * u).qdd - 10.0 / std::sqrt(3.0) * 1.2 / 4.0) < 1e-13);
    QVERIFY(worstDerivativeError(m, 0.0, 4.0, 800) < 1e-5);
  }

  void restToRestInputIsChecked_data() {
    QTest::addColumn<std::vector<Move>>("segments");
    QTest::addColumn<QString>("message");
    QTest::newRow("none") << std::vector<Move>{} << "at least one segment";
    QTest::newRow("backwards") << std::vector<Move>{{2.0, 1.0, 0.0, 1.0}}
                               << "t_b = 1 s must be later than the start t_a = 2 s";
    QTest::newRow("overlap") << std::vector<Move>{{0.0, 2.0, 0.0, 1.0}, {1.5, 3.0, 1.0, 0.0}}
                             << "segment 1 starts at t_a = 1.5 s, before segment 0 ends at t_b = 2 s";
    QTest::newRow("jump") << std::vector<Move>{{0.0, 1.0, 0.0, 1.0}, {2.0, 3.0, 0.5, 0.0}}
                          << "segment 1 starts at q_a = 0.5 where segment 0 ended at q_b = 1";
  }
  void restToRestInputIsChecked() {
    QFETCH(std::vector<Move>, segments);
    QFETCH(QString, message);
    try {
      RestToRest m(segments);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
  }

  void sinusoidDerivatives() {
    const SinusoidMotion m{0.4, 1.7, 0.3, -0.2};
    QVERIFY(std::abs(m.at(0.0).q - (-0.2 + 0.4 * std::sin(0.3))) < 1e-15);
    QVERIFY(worstDerivativeError(m, 0.0, 2.0, 400) < 1e-5);
  }

  // filtfilt of a 2nd-order Butterworth: DC gain 1, gain 1/2 at the cutoff (|H|² twice over),
  // zero phase, and a constant or a straight line passes unchanged, ends included (odd padding and
  // the line's steady state as the start).
  void zeroPhaseLowPass() {
    const double dt = 0.002, cutoff = 10.0;
    QVERIFY(std::abs(amplitudeAfterFilter(1.0, dt, cutoff) - 1.0) < 1e-3);
    QVERIFY(std::abs(amplitudeAfterFilter(cutoff, dt, cutoff) - 0.5) < 5e-3);
    const double high = amplitudeAfterFilter(100.0, dt, cutoff);
    QVERIFY(high >= 0.0 && high < 2e-4);  // (10/100)^4
    std::vector<double> line(200);
    for (std::size_t i = 0; i < line.size(); ++i) line[i] = 0.5 + 0.25 * static_cast<double>(i) * dt;
    const std::vector<double> y = lowPassZeroPhase(line, dt, cutoff);
    double ends = 0.0, middle = 0.0;
    for (std::size_t i = 0; i < line.size(); ++i)
      (i < 50 || i >= 150 ? ends : middle) = std::max(i < 50 || i >= 150 ? ends : middle, std::abs(y[i] - line[i]));
    qInfo("a straight line through the filter: %.3g at the ends, %.3g in the middle", ends, middle);
    QVERIFY(middle < 1e-9);
    QVERIFY(ends < 1e-9);  // each pass starts from the line's own steady state
    const std::vector<double> flat = lowPassZeroPhase(std::vector<double>(50, 1.5), dt, cutoff);
    for (double v : flat) QVERIFY(std::abs(v - 1.5) < 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lowPassZeroPhase(line, dt, 250.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lowPassZeroPhase(std::vector<double>(5, 0.0), dt, cutoff));
  }

  // Some joints prescribed (q̈ given), the others free (τ given): the q̈ and τ found satisfy
  // forward dynamics (another solver, τ → q̈) and the loads' τ = Sᵀ f (the RNEA's backward pass);
  // all prescribed is inverse dynamics. Random trees of every joint type, masses over six decades.
  void hybridDynamicsOnRandomTrees() {
    int cases = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      RandomTreeOptions opt;
      opt.minBodies = 3;
      opt.maxBodies = 24;
      const Model model = test::withSpreadMasses(makeRandomTree(seed, opt), seed);
      const Tree tree = finalizeOrThrow(model);
      const test::RandomState s = test::randomState(tree, seed);
      SplitMix64 rng(seed * 7919);
      std::vector<char> prescribed(static_cast<std::size_t>(tree.nb));
      for (char& p : prescribed) p = rng.uniform() < 0.5;
      VectorX qddGiven(tree.nv);
      for (Eigen::Index k = 0; k < tree.nv; ++k) qddGiven[k] = rng.uniform(-2.0, 2.0);
      const double tol = test::conditionedTolerance(test::massMatrixCondition(tree, s.q));
      for (const SolverInfo& info : solverRegistry()) {
        auto solver = makeSolver(info.name, tree);
        VectorX tau = s.tau, qdd = qddGiven;
        if (!solver->supportsHybrid()) {
          QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                   solver->hybridDynamics(s.q, s.v, tau, {}, prescribed, qdd, nullptr));
          continue;
        }
        JointLoads loads;
        loads.resize(tree);
        solver->hybridDynamics(s.q, s.v, tau, {}, prescribed, qdd, &loads);
        for (int i = 0; i < tree.nb; ++i)
          for (int k = 0; k < tree.joints[i].nv; ++k) {
            const int c = tree.vOffset[i] + k;
            if (prescribed[static_cast<std::size_t>(i)]) {
              QCOMPARE(qdd[c], qddGiven[c]);  // followed exactly
            } else {
              QCOMPARE(tau[c], s.tau[c]);  // the given force
            }
          }
        // forward dynamics with the required efforts gives back the same motion and joint loads
        auto aba = makeSolver("aba", tree);
        VectorX qddForward(tree.nv);
        JointLoads loadsForward;
        loadsForward.resize(tree);
        aba->forwardDynamics(s.q, s.v, tau, {}, qddForward, &loadsForward);
        QVERIFY2(test::relativeError(qddForward, qdd) < 100 * tol,
                 qPrintable(QStringLiteral("%1 seed %2: %3")
                                .arg(info.name.c_str())
                                .arg(seed)
                                .arg(test::relativeError(qddForward, qdd))));
        QVERIFY2(test::relativeError(loads.tau, tau) < 100 * tol, info.name.c_str());
        QVERIFY2(test::relativeError(flatten(loads.f), flatten(loadsForward.f)) < 100 * tol, info.name.c_str());
        // and every solver that computes it agrees with the partitioned M of crba, loads included
        VectorX tauCrba = s.tau, qddCrba = qddGiven;
        JointLoads loadsCrba;
        loadsCrba.resize(tree);
        makeSolver("crba", tree)->hybridDynamics(s.q, s.v, tauCrba, {}, prescribed, qddCrba, &loadsCrba);
        QVERIFY2(test::relativeError(qdd, qddCrba) < 100 * tol && test::relativeError(tau, tauCrba) < 100 * tol &&
                     test::relativeError(flatten(loads.f), flatten(loadsCrba.f)) < 100 * tol,
                 info.name.c_str());
        // a solver that ran another set of prescribed joints and forward dynamics in between gives
        // the same, and its forward dynamics is a fresh solver's (cfa-tree keeps per-set joint data)
        VectorX tauAll(tree.nv), qddAll = qddGiven, qddFresh(tree.nv), qddAfter(tree.nv);
        solver->hybridDynamics(s.q, s.v, tauAll, {}, std::vector<char>(prescribed.size(), 1), qddAll, nullptr);
        solver->forwardDynamics(s.q, s.v, s.tau, {}, qddAfter, nullptr);
        makeSolver(info.name, tree)->forwardDynamics(s.q, s.v, s.tau, {}, qddFresh, nullptr);
        QCOMPARE(qddAfter, qddFresh);
        VectorX tauAgain = s.tau, qddAgain = qddGiven;
        solver->hybridDynamics(s.q, s.v, tauAgain, {}, prescribed, qddAgain, nullptr);
        QCOMPARE(qddAgain, qdd);
        QCOMPARE(tauAgain, tau);
        ++cases;
      }
      // every joint prescribed: inverse dynamics, τ and the joint wrenches of the RNEA
      std::vector<char> all(static_cast<std::size_t>(tree.nb), 1);
      VectorX tauRnea(tree.nv);
      JointLoads loadsRnea;
      loadsRnea.resize(tree);
      RneaWorkspace ws(tree);
      inverseDynamics(tree, ws, s.q, s.v, qddGiven, {}, tauRnea, &loadsRnea);
      for (const char* name : {"aba", "crba", "cfa-tree"}) {
        VectorX tau(tree.nv), qdd = qddGiven;
        JointLoads loads;
        loads.resize(tree);
        makeSolver(name, tree)->hybridDynamics(s.q, s.v, tau, {}, all, qdd, &loads);
        QVERIFY2(test::relativeError(tau, tauRnea) < 100 * tol &&
                     test::relativeError(flatten(loads.f), flatten(loadsRnea.f)) < 100 * tol,
                 qPrintable(QStringLiteral("%1 seed %2: τ %3, f %4")
                                .arg(name)
                                .arg(seed)
                                .arg(test::relativeError(tau, tauRnea))
                                .arg(test::relativeError(flatten(loads.f), flatten(loadsRnea.f)))));
        QCOMPARE(qdd, qddGiven);
      }
    }
    QVERIFY(cases >= 36);  // aba, crba and cfa-tree on each tree
  }
};

QTEST_GUILESS_MAIN(TestMotion)
#include "test_motion.moc"
