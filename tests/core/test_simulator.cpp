// SPDX-License-Identifier: BSD-3-Clause
// Simulator, drives, signals and recorder (issue: engine, items 6–8; docs/dynamics.md §7–9).
#include <QDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numbers>
#include <regex>
#include <thread>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/sim/simulator.hpp"
#include "support/sim_options.hpp"

#include "support/allocation_counter.hpp"

using kt::test::gAllocations;

using namespace kt;
using Eigen::VectorXd;

namespace {

using kt::test::dopri;

// A body on a prismatic joint along x, no gravity: a mass–spring–damper.
Model massSpring(double mass, double k, double c, double x0) {
  Model m;
  m.gravity = Vec3::Zero();
  BodySpec b;
  b.name = "cart";
  b.joint.name = "slide";
  b.joint.type = JointType::Prismatic;
  b.joint.axis = Vec3::UnitX();
  b.joint.q0 = {x0};
  b.inertial.mass = mass;
  b.inertial.inertia = Mat3::Identity() * 0.01;
  b.joint.drive.type = DriveType::SpringDamper;
  b.joint.drive.stiffness = {k};
  b.joint.drive.damping = {c};
  b.joint.drive.restPosition = {0.0};
  m.bodies.push_back(b);
  return m;
}

// Time of the k-th downward zero crossing of column `col`, by linear interpolation.
std::vector<double> zeroCrossings(const Recorder& rec, int col) {
  const std::vector<double> t = rec.column(0), x = rec.column(col);
  std::vector<double> out;
  for (std::size_t k = 1; k < x.size(); ++k)
    if (x[k - 1] > 0.0 && x[k] <= 0.0) out.push_back(t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]));
  return out;
}

}  // namespace

class TestSimulator : public QObject {
  Q_OBJECT

 private slots:
  // Small-amplitude compound pendulum: T = 2π √(I_O / (m g d)).
  void pendulumPeriod() {
    Model model = makeChain(1);
    model.bodies[0].joint.q0 = {1e-3};
    Simulator sim(model, dopri(1e-12, 1e-3));
    const BodySpec& b = model.bodies[0];
    const double m = b.inertial.mass, d = -b.inertial.com.z(), g = 9.81;
    const double I_O = b.inertial.inertia(1, 1) + m * d * d;
    const double expected = 2 * std::numbers::pi * std::sqrt(I_O / (m * g * d));
    QVERIFY(sim.advanceTo(6 * expected));
    const int col = sim.signalLayout().find("q:j_link1[0]");
    QVERIFY(col > 0);
    const std::vector<double> crossings = zeroCrossings(sim.recorder(), col);
    QVERIFY(crossings.size() >= 5);
    const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    const double relErr = std::abs(period - expected) / expected;
    qInfo("pendulum period %.12f s, formula %.12f s, relative error %.3g", period, expected, relErr);
    // amplitude correction θ₀²/16 = 6e-8
    QVERIFY(relErr < 5e-7);
  }

  // Mass–spring–damper against the closed-form underdamped solution.
  void springDamperAnalytic() {
    const double m = 2.0, k = 50.0, c = 2.0, x0 = 0.1;
    Simulator sim(massSpring(m, k, c, x0), dopri(1e-12, 0.01));
    QVERIFY(sim.advanceTo(3.0));
    const double zeta = c / (2 * std::sqrt(k * m)), w0 = std::sqrt(k / m), wd = w0 * std::sqrt(1 - zeta * zeta);
    const std::vector<double> t = sim.recorder().column(0),
                              x = sim.recorder().column(sim.signalLayout().find("q:slide[0]"));
    const std::vector<double> tau = sim.recorder().column(sim.signalLayout().find("tau:slide[0]"));
    const std::vector<double> v = sim.recorder().column(sim.signalLayout().find("qd:slide[0]"));
    double worst = 0.0, worstTau = 0.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double e = std::exp(-zeta * w0 * t[i]);
      const double exact = x0 * e * (std::cos(wd * t[i]) + zeta * w0 / wd * std::sin(wd * t[i]));
      worst = std::max(worst, std::abs(x[i] - exact));
      worstTau = std::max(worstTau, std::abs(tau[i] - (-k * x[i] - c * v[i])));
    }
    qInfo("mass-spring-damper: max |x − x_exact| = %.3g m over %zu samples", worst, t.size());
    QCOMPARE(t.size(), std::size_t(301));
    QVERIFY(worst < 1e-10);
    QVERIFY(worstTau < 1e-12);
  }

  // RK4: halving the step shrinks the end-state error ≥ 12× (10-link chain, fine reference).
  void rk4StepHalving() {
    const Model model = makeChain(10);
    const double T = 1.0;
    auto endState = [&](const SimulatorOptions& o) {
      Simulator sim(model, o);
      sim.recorder().reserve(1);
      if (!sim.advanceTo(T)) qWarning("%s", sim.error().c_str());
      VectorXd x(sim.q().size() + sim.v().size());
      x << sim.q(), sim.v();
      return x;
    };
    const VectorXd ref = endState(dopri(1e-13, 0.5));
    SimulatorOptions o;
    o.integrator = "rk4";
    o.step = 0.004;
    const double e1 = (endState(o) - ref).norm();
    o.step = 0.002;
    const double e2 = (endState(o) - ref).norm();
    qInfo("rk4 end-state error: %.4g (h = 4 ms), %.4g (h = 2 ms), ratio %.2f", e1, e2, e1 / e2);
    QVERIFY(e1 / e2 >= 12.0);
  }

  // Every solver of the registry (velocity and impulse forms) gives the same signals.
  void everySolverSameSignals() {
    RandomTreeOptions opt;
    opt.minBodies = 8;
    opt.maxBodies = 14;
    Model model = makeRandomTree(11, opt);
    // drives that read ν (PD, spring-damper): the impulse form gets ν from p before τ
    int driven = 0;
    for (BodySpec& b : model.bodies) {
      const int nv = jointNv(b.joint.type);
      if (nv == 0 || jointNq(b.joint.type) != nv) continue;
      Drive& d = b.joint.drive;
      d.type = driven % 2 ? DriveType::SpringDamper : DriveType::PdSinusoid;
      d.kp = 5.0;
      d.kd = 0.5;
      d.amplitude.assign(nv, 0.3);
      d.frequency.assign(nv, 1.0);
      d.phase.assign(nv, 0.0);
      d.offset.assign(nv, 0.1);
      d.stiffness.assign(nv, 3.0);
      d.damping.assign(nv, 0.4);
      d.restPosition.assign(nv, 0.0);
      ++driven;
    }
    QVERIFY(driven >= 2);
    Simulator ref(model, dopri(1e-11, 0.05));
    QVERIFY(ref.drives().usesVelocity());
    QVERIFY2(ref.advanceTo(0.5), ref.error().c_str());
    const std::vector<std::string> kinds = {"q:", "qd:", "qdd:", "tau:", "load_world:", "energy.", "momentum."};
    for (const SolverInfo& info : solverRegistry()) {
      Simulator sim(model, dopri(1e-11, 0.05, info.name));
      // the impulse form integrates p = M ν₀ but records ν₀ itself at t = 0
      QVERIFY2(sim.v() == sim.tree().initialV, info.name.c_str());
      QVERIFY2(sim.advanceTo(0.5), sim.error().c_str());
      QCOMPARE(sim.recorder().size(), ref.recorder().size());
      double worst = 0.0;
      for (int s = 0; s < sim.signalLayout().size(); ++s) {
        const std::string& name = sim.signalLayout().names()[s];
        bool check = false;
        for (const std::string& k : kinds) check |= name.rfind(k, 0) == 0;
        if (!check) continue;
        for (std::size_t r = 0; r < sim.recorder().size(); ++r) {
          const double a = sim.recorder().value(r, s), b = ref.recorder().value(r, s);
          worst = std::max(worst, std::abs(a - b) / std::max(1.0, std::abs(b)));
        }
      }
      qInfo("%-14s (%s form): max relative difference to aba %.3g", info.name.c_str(),
            info.form == StateForm::Impulse ? "impulse" : "velocity", worst);
      QVERIFY2(worst < 1e-7, info.name.c_str());
    }
  }

  // The first row is the initial state bit for bit with every solver: the impulse form must not
  // record M⁻¹(M ν₀), which a badly conditioned tree (masses over six decades) spoils by κ(M)ε.
  void firstRowIsInitialStateExactly() {
    RandomTreeOptions opt;
    opt.minBodies = 10;
    opt.maxBodies = 16;
    opt.floatingBaseProbability = 1.0;
    Model model = makeRandomTree(23, opt);
    double scale = 1.0;
    for (BodySpec& b : model.bodies) {
      b.inertial.mass *= scale;
      b.inertial.inertia *= scale;
      scale = scale > 1e5 ? 1e-1 : scale * 10.0;
    }
    bool anyVelocity = false;
    for (const BodySpec& b : model.bodies)
      for (double v : b.joint.v0) anyVelocity |= v != 0.0;
    QVERIFY(anyVelocity);
    for (const SolverInfo& info : solverRegistry()) {
      Simulator sim(model, dopri(1e-9, 0.05, info.name));
      const Tree& tree = sim.tree();
      QCOMPARE(sim.recorder().size(), std::size_t{1});
      int checked = 0;
      for (const SignalInfo& s : sim.signalLayout().infos()) {
        const int column = static_cast<int>(&s - sim.signalLayout().infos().data());
        if (s.kind == SignalKind::Q) {
          QVERIFY2(sim.recorder().value(0, column) == tree.initialQ[s.index], (info.name + " " + s.name).c_str());
          ++checked;
        } else if (s.kind == SignalKind::Qd) {
          QVERIFY2(sim.recorder().value(0, column) == tree.initialV[s.index], (info.name + " " + s.name).c_str());
          ++checked;
        }
      }
      QCOMPARE(checked, tree.nq + tree.nv);
      QVERIFY2(sim.v() == tree.initialV, info.name.c_str());
      // and the tree's initial state is the file's where the file's quaternions are unit already
      for (int i = 0; i < tree.nb; ++i) {
        const JointSpec& j = model.bodies[static_cast<std::size_t>(tree.specIndex[i])].joint;
        for (std::size_t k = 0; k < j.v0.size(); ++k)
          QVERIFY(tree.initialV[tree.vOffset[i] + static_cast<int>(k)] == j.v0[k]);
      }
    }
  }

  // Drive formulas (model.hpp) at a given (t, q, ν).
  void driveFormulas() {
    Model model = makeChain(3);
    Drive& pd = model.bodies[0].joint.drive;
    pd.type = DriveType::PdSinusoid;
    pd.kp = 40;
    pd.kd = 3;
    pd.amplitude = {0.5};
    pd.frequency = {0.7};
    pd.phase = {0.2};
    pd.offset = {0.1};
    Drive& pw = model.bodies[1].joint.drive;
    pw.type = DriveType::PdPiecewise;
    pw.kp = 10;
    pw.kd = 2;
    pw.knots = {{{0.0, 0.0}, {1.0, 1.0}, {2.0, -1.0}}};
    Drive& sn = model.bodies[2].joint.drive;
    sn.type = DriveType::Sinusoid;
    sn.amplitude = {2.0};
    sn.frequency = {1.5};
    sn.phase = {0.0};
    sn.offset = {-0.5};
    const Tree tree = finalizeOrThrow(model);
    const Drives drives(model, tree);
    QVERIFY(drives.usesVelocity());
    VectorXd q(3), v(3), tau(3);
    q << 0.3, -0.2, 0.0;
    v << 1.0, 0.5, 0.0;
    const double t = 1.25, w = 2 * std::numbers::pi * 0.7;
    drives.evaluate(t, q, v, tau);
    const double target = 0.1 + 0.5 * std::sin(w * t + 0.2), rate = 0.5 * w * std::cos(w * t + 0.2);
    QVERIFY(std::abs(tau[tree.jointIndex("j_link1")] - (40 * (target - 0.3) + 3 * (rate - 1.0))) < 1e-13);
    // piecewise: between (1, 1) and (2, −1): target 0.5, slope −2
    QVERIFY(std::abs(tau[tree.jointIndex("j_link2")] - (10 * (0.5 + 0.2) + 2 * (-2.0 - 0.5))) < 1e-13);
    QVERIFY(std::abs(tau[tree.jointIndex("j_link3")] - (-0.5 + 2.0 * std::sin(2 * std::numbers::pi * 1.5 * t))) <
            1e-13);
    double value, slope;
    piecewiseLinearTarget(pw.knots[0], 5.0, value, slope);
    QCOMPARE(value, -1.0);
    QCOMPARE(slope, 0.0);
  }

  // RK4 in the simulator takes the first stage of each step from the output evaluation at the
  // same (t, x). The trajectory must be the one of textbook RK4 on q̈ = FD(q, ν, τ(t, q, ν)),
  // also across a live drive change (which must not reuse a derivative of the old drive).
  void rk4MatchesTextbookSteps() {
    Model model = makeChain(3);
    Drive& pd = model.bodies[0].joint.drive;
    pd.type = DriveType::PdSinusoid;
    pd.kp = 20;
    pd.kd = 2;
    pd.amplitude = {0.6};
    pd.frequency = {1.3};
    pd.phase = {0.0};
    pd.offset = {0.0};
    Drive& sn = model.bodies[2].joint.drive;
    sn.type = DriveType::Sinusoid;
    sn.amplitude = {1.5};
    sn.frequency = {2.0};
    sn.phase = {0.3};
    sn.offset = {0.0};
    model.bodies[1].joint.q0 = {0.4};
    SimulatorOptions o;
    o.solver = "aba";
    o.integrator = "rk4";
    o.step = 0.01;
    Simulator sim(model, o);

    Tree tree = finalizeOrThrow(model);
    Drives drives(model, tree);
    const auto solver = makeSolver("aba", tree);
    const int n = tree.nv;  // revolute chain: q̇ = ν
    VectorXd tau(n), acc(n);
    const auto f = [&](double t, const VectorXd& q, const VectorXd& v) -> VectorXd {
      drives.evaluate(t, q, v, tau);
      solver->forwardDynamics(q, v, tau, {}, acc, nullptr);
      return acc;
    };
    VectorXd q = tree.initialQ, v = tree.initialV;
    Drive constant;
    constant.type = DriveType::Constant;
    constant.value = {-2.0};
    const int switched = tree.jointIndex("j_link2");
    double worst = 0.0;
    for (int k = 0; k < 60; ++k) {
      if (k == 25) {
        sim.setDrive(switched, constant);
        drives.setDrive(switched, constant);
      }
      const double h = 0.01, t = k * h;
      const VectorXd a1 = f(t, q, v), v1 = v;
      const VectorXd v2 = v + 0.5 * h * a1, a2 = f(t + 0.5 * h, q + 0.5 * h * v1, v2);
      const VectorXd v3 = v + 0.5 * h * a2, a3 = f(t + 0.5 * h, q + 0.5 * h * v2, v3);
      const VectorXd v4 = v + h * a3, a4 = f(t + h, q + h * v3, v4);
      q += h / 6.0 * (v1 + 2.0 * v2 + 2.0 * v3 + v4);
      v += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
      QVERIFY(sim.step());
      worst = std::max({worst, (sim.q() - q).cwiseAbs().maxCoeff() / (1.0 + q.cwiseAbs().maxCoeff()),
                        (sim.v() - v).cwiseAbs().maxCoeff() / (1.0 + v.cwiseAbs().maxCoeff())});
    }
    qInfo("simulator rk4 vs textbook rk4 over 60 steps with a drive change: %.3g", worst);
    QVERIFY(worst <= 1e-13);
  }

  // A diverging run stops with time, solver and the first bad quantity, keeping the last good state.
  void divergenceStops() {
    SimulatorOptions o;
    o.integrator = "euler";
    o.step = 0.01;  // h ω = 10: explicit Euler grows by ≈ 10 per step
    Simulator sim(massSpring(1.0, 1e6, 0.0, 0.1), o);
    QVERIFY(!sim.advanceTo(100.0));
    QVERIFY(!sim.ok());
    const std::string& msg = sim.error();
    qInfo("%s", msg.c_str());
    QVERIFY(std::regex_search(msg, std::regex(R"(^t = [0-9.e+-]+ s, solver aba: \S+ is (NaN|Inf))")));
    QVERIFY(sim.time() < 100.0);
    QVERIFY(sim.q().allFinite() && sim.v().allFinite());
    QCOMPARE(sim.recorder().size(), std::size_t(sim.outputIndex() + 1));
    QCOMPARE(sim.recorder().value(sim.recorder().size() - 1, 0), sim.time());
    QVERIFY(!sim.step());
    sim.reset();
    QVERIFY(sim.ok());
    QCOMPARE(sim.time(), 0.0);
    QCOMPARE(sim.recorder().size(), std::size_t(1));
  }

  // A NaN drive force set while running: the message names τ (the cause), not the q̈ it spoils.
  void nanDriveNamed_data() {
    QTest::addColumn<QString>("integrator");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void nanDriveNamed() {
    QFETCH(QString, integrator);
    SimulatorOptions o;
    o.integrator = integrator.toStdString();
    o.step = 0.01;
    Simulator sim(massSpring(1.0, 10.0, 0.1, 0.1), o);
    QVERIFY(sim.advanceTo(0.5));
    const VectorXd q = sim.q();
    Drive bad;
    bad.type = DriveType::Constant;
    bad.value = {std::nan("")};
    sim.setDrive(0, bad);
    QVERIFY(!sim.step());
    qInfo("%s", sim.error().c_str());
    QCOMPARE(sim.error(), std::string("t = 0.5 s, solver aba: tau:slide[0] is NaN"));
    QCOMPARE(sim.time(), 0.5);
    QCOMPARE(sim.q(), q);
  }

  void failedAdaptiveStepStops() {
    SimulatorOptions o = dopri(1e-12, 0.01);
    o.minStep = 0.5;  // any step the error control accepts is smaller
    Simulator sim(makeChain(3), o);
    QVERIFY(!sim.step());
    qInfo("%s", sim.error().c_str());
    QVERIFY(std::regex_search(
        sim.error(),
        std::regex(R"(^t = 0 s, solver aba: step size too small at t = 0 s: the dopri5 step fell below)")));
    QCOMPARE(sim.time(), 0.0);
    QCOMPARE(sim.q(), sim.tree().initialQ);
  }

  // A tolerance the arithmetic cannot meet stops the run at once with "step size too small"
  // (it used to hang, the step size turning into NaN).
  void unmeetableToleranceStops() {
    Simulator sim(makeChain(3), dopri(1e-300, 0.01));
    QVERIFY(!sim.step());
    qInfo("%s", sim.error().c_str());
    QVERIFY(std::regex_search(sim.error(), std::regex(R"(step size too small at t = 0 s)")));
    QCOMPARE(sim.time(), 0.0);
  }

  // Output times t_k = k·h exactly, one row per output, for every integrator.
  void outputTimes_data() {
    QTest::addColumn<QString>("integrator");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void outputTimes() {
    QFETCH(QString, integrator);
    SimulatorOptions o;
    o.integrator = integrator.toStdString();
    o.step = 0.01;
    o.outputInterval = 0.05;  // 5 fixed steps per output
    Simulator sim(makeChain(2), o);
    QVERIFY(sim.advanceTo(1.0));
    QCOMPARE(sim.recorder().size(), std::size_t(21));
    QCOMPARE(sim.outputIndex(), 20L);
    for (std::size_t k = 0; k < sim.recorder().size(); ++k) QCOMPARE(sim.recorder().value(k, 0), double(k) * 0.05);
    if (integrator == "rk4") QCOMPARE(sim.integrator().acceptedSteps, 100L);
  }

  // Reaction signals are named after what they are (docs/signals.md, "Coordinates per joint
  // type"), and each is the component of the reaction part T Tᵀ f along its axis, sign included.
  void reactionComponentsAreNamedAndSigned() {
    const auto names = [](JointType type, Vec3 axis) {
      std::string s;
      for (const ReactionComponent& c : reactionComponents(JointModel::make(type, axis, Vec3::UnitY())))
        s += (s.empty() ? "" : " ") + c.name + (c.sign < 0 ? "-" : "");
      return s;
    };
    QCOMPARE(names(JointType::Revolute, Vec3::UnitZ()), std::string("mx my fx fy fz"));
    QCOMPARE(names(JointType::Revolute, Vec3::UnitX()), std::string("my mz fx fy fz"));
    QCOMPARE(names(JointType::Revolute, Vec3::UnitY()), std::string("mx mz- fx fy fz"));
    QCOMPARE(names(JointType::Revolute, Vec3(1, 1, 0).normalized()), std::string("m1 m2 fx fy fz"));
    QCOMPARE(names(JointType::Prismatic, Vec3::UnitZ()), std::string("mx my mz fx fy"));
    QCOMPARE(names(JointType::Cylindrical, Vec3::UnitZ()), std::string("mx my fx fy"));
    QCOMPARE(names(JointType::Universal, Vec3::UnitX()), std::string("m1 fx fy fz"));
    QCOMPARE(names(JointType::Spherical, Vec3::UnitZ()), std::string("fx fy fz"));
    QCOMPARE(names(JointType::Planar, Vec3::UnitZ()), std::string("mx my fz"));
    QCOMPARE(names(JointType::Fixed, Vec3::UnitZ()), std::string("mx my mz fx fy fz"));
    QCOMPARE(names(JointType::Free, Vec3::UnitZ()), std::string());
    // the values: a revolute joint about y, recorded, against T Tᵀ f of its recorded wrench
    Model model = makeChain(2);
    for (BodySpec& b : model.bodies) b.joint.axis = Vec3::UnitY();
    model.bodies[0].joint.q0 = {0.7};
    Simulator sim(model, SimulatorOptions::fromSettings(model.simulation));
    QVERIFY(sim.step());
    const SignalLayout& layout = sim.signalLayout();
    const std::vector<double>& row = sim.sample();
    for (int i = 0; i < sim.tree().nb; ++i) {
      const std::string j = sim.tree().jointNames[static_cast<std::size_t>(i)];
      const Vec6 f = sim.loads().f[static_cast<std::size_t>(i)];  // [moment; force], joint frame
      Mat6N T;
      sim.tree().joints[static_cast<std::size_t>(i)].constraintSubspace(sim.q().data() + sim.tree().qOffset[i], T);
      const Vec6 reaction = T * (T.transpose() * f);
      const struct {
        const char* name;
        int index;
      } expected[] = {{"mx", 0}, {"mz", 2}, {"fx", 3}, {"fy", 4}, {"fz", 5}};
      for (const auto& e : expected) {
        const int c = layout.find("reaction:" + j + "." + e.name);
        QVERIFY2(c >= 0, e.name);
        QVERIFY(std::abs(row[static_cast<std::size_t>(c)] - reaction[e.index]) <= 1e-12 * (1.0 + f.norm()));
      }
    }
  }

  // Signal names exactly as documented (docs/signals.md).
  void signalNames() {
    Model model = makeChain(1);
    BodySpec free;
    free.name = "drone";
    free.joint.name = "float";
    free.joint.type = JointType::Free;
    model.bodies.push_back(free);
    const Tree tree = finalizeOrThrow(model);
    const SignalLayout layout(tree);
    std::vector<std::string> expected = {"time", "q:j_link1[0]"};
    for (int k = 0; k < 7; ++k) expected.push_back("q:float[" + std::to_string(k) + "]");
    for (const char* p : {"qd:", "qdd:", "tau:"}) {
      expected.push_back(std::string(p) + "j_link1[0]");
      for (int k = 0; k < 6; ++k) expected.push_back(std::string(p) + "float[" + std::to_string(k) + "]");
    }
    for (const char* j : {"j_link1", "float"}) expected.push_back(std::string("power:") + j);
    for (const char* p : {"load:", "load_world:", "load_parent:"})
      for (const char* j : {"j_link1", "float"})
        for (const char* c : {"fx", "fy", "fz", "mx", "my", "mz"}) expected.push_back(std::string(p) + j + "." + c);
    // the chain's joints turn about y: moments about x and z (the latter the component along +z)
    for (const char* c : {"mx", "mz", "fx", "fy", "fz"}) expected.push_back(std::string("reaction:j_link1.") + c);
    for (const char* c : {"roll", "pitch", "yaw"}) expected.push_back(std::string("attitude:drone.") + c);
    for (const char* c : {"x", "y", "z"}) expected.push_back(std::string("position:drone.") + c);
    for (const char* c : {"kinetic", "potential", "total"}) expected.push_back(std::string("energy.") + c);
    for (const char* c : {"px", "py", "pz", "lx", "ly", "lz"}) expected.push_back(std::string("momentum.") + c);
    QCOMPARE(layout.names(), expected);
    QCOMPARE(layout.find("energy.total"), int(expected.size()) - 7);
    QCOMPARE(layout.find("nope"), -1);

    std::vector<int> sel;
    std::string err;
    QVERIFY(selectSignals(layout.names(), "energy.*, q:*", sel, err));
    QCOMPARE(int(sel.size()), 3 + 8);
    QCOMPARE(layout.names()[sel[0]], std::string("energy.kinetic"));
    QCOMPARE(layout.names()[sel[3]], std::string("q:j_link1[0]"));
    QVERIFY(selectSignals(layout.names(), "q:float[?],q:*", sel, err));
    QCOMPARE(int(sel.size()), 8);
    QCOMPARE(layout.names()[sel[0]], std::string("q:float[0]"));
    QVERIFY(selectSignals(layout.names(), "", sel, err));
    QCOMPARE(sel.size(), expected.size());
    QVERIFY(!selectSignals(layout.names(), "q:*,torque:*", sel, err));
    QVERIFY(err.find("torque:*") != std::string::npos);
    // what a pattern that matches nothing may have meant: its stem's signals, or the kind's owners
    QVERIFY(!selectSignals(layout.names(), "energy.kinetik", sel, err));
    QCOMPARE(err, std::string("no signal matches 'energy.kinetik'; energy.* is kinetic, potential, total (see "
                              "docs/signals.md)"));
    QVERIFY(!selectSignals(layout.names(), "q:float[9]", sel, err));
    QVERIFY2(err.find("; q: signals are of j_link1, float (see") != std::string::npos, err.c_str());
    QVERIFY(!selectSignals(layout.names(), "load:j_link1.fw", sel, err));
    QVERIFY2(err.find("; load:j_link1.* is fx, fy, fz, mx, my, mz (see") != std::string::npos, err.c_str());
    QVERIFY(globMatch("load*.f?", "load_world:float.fz"));
    QVERIFY(!globMatch("load:*.f?", "load_world:float.fz"));
    QVERIFY(globMatch("*", ""));
    QVERIFY(!globMatch("a*b", "acbd"));
  }

  // Attitude angles are unwrapped: a free body spinning about z has a yaw growing without jumps.
  void attitudeUnwrapped() {
    Model model;
    model.gravity = Vec3::Zero();
    BodySpec b;
    b.name = "top";
    b.joint.name = "float";
    b.joint.type = JointType::Free;
    b.joint.v0 = {0, 0, 3.0, 0.2, 0, 0};  // ω_z = 3 rad/s, moving along body x
    b.inertial.inertia = Vec3(1, 1, 2).asDiagonal();
    model.bodies.push_back(b);
    Simulator sim(model, dopri(1e-12, 0.01));
    QVERIFY(sim.advanceTo(5.0));
    const std::vector<double> yaw = sim.recorder().column(sim.signalLayout().find("attitude:top.yaw"));
    const std::vector<double> t = sim.recorder().column(0);
    const std::vector<double> x = sim.recorder().column(sim.signalLayout().find("position:top.x"));
    const std::vector<double> y = sim.recorder().column(sim.signalLayout().find("position:top.y"));
    for (std::size_t k = 0; k < t.size(); ++k) {
      QVERIFY(std::abs(yaw[k] - 3.0 * t[k]) < 1e-9);
      // the centre of mass (the body origin) moves on a straight line along world x
      QVERIFY(std::abs(x[k] - 0.2 * t[k]) < 1e-9);
      QVERIFY(std::abs(y[k]) < 1e-9);
    }
    QVERIFY(yaw.back() > 14.9);
  }

  // After reserve(), a simulation step allocates nothing (solver, integrator, drives, signals).
  void noAllocationPerStep_data() {
    QTest::addColumn<QString>("integrator");
    for (const std::string& n : integratorNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
  }
  void noAllocationPerStep() {
    QFETCH(QString, integrator);
    RandomTreeOptions opt;
    opt.minBodies = opt.maxBodies = 12;
    Model model = makeRandomTree(5, opt);
    for (BodySpec& b : model.bodies)
      if (jointNv(b.joint.type) == 1) {
        b.joint.drive.type = DriveType::Constant;
        b.joint.drive.value = {0.3};
        break;
      }
    SimulatorOptions o;
    o.integrator = integrator.toStdString();
    o.step = 0.001;
    Simulator sim(model, o);
    sim.recorder().reserve(200);
    QVERIFY(sim.step());
    const long before = gAllocations.load();
    for (int k = 0; k < 100; ++k) QVERIFY(sim.step());
    QCOMPARE(gAllocations.load() - before, 0L);
  }

  // A recording run leaves the derived signals to the recorder, which computes them when a row is
  // first read; a run that records nothing computes them at each output. Both give every signal,
  // and the loads' world axes, bit for bit alike, on every example and with every solver that runs it, with a push (the
  // applied: signals) and a pose between steps (the newest row replaced).
  void recordedRowsEqualStreamedSamples() {
    const QDir examples(QStringLiteral(KINETREE_SOURCE_DIR "/examples"));
    int compared = 0;
    for (const QString& file : examples.entryList({QStringLiteral("*.yaml")}, QDir::Files)) {
      const Model model = loadModelFromFile(examples.filePath(file).toStdString());
      for (const SolverInfo& info : solverRegistry())
        for (const bool interactions : {false, true}) {
          const auto run = [&](bool record, std::vector<std::vector<double>>& rows) {
            SimulatorOptions o;
            o.solver = info.name;
            o.record = record;
            o.interactions = interactions;
            Simulator sim(model, o);
            const Tree& tree = sim.tree();
            int posed = -1;  // the last joint whose position a pose may set
            for (int i = tree.nb - 1; i >= 0 && posed < 0; --i)
              if (tree.joints[i].nq > 0 &&
                  (sim.motions().empty() || !sim.motions().mask()[static_cast<std::size_t>(i)]))
                posed = i;
            rows.assign(1, sim.sample());
            for (int k = 1; k <= 120; ++k) {
              if (interactions && k == 20) {
                InteractionEvent push;
                push.kind = InteractionKind::Push;
                push.body = tree.nb - 1;
                push.force = Vec3(3.0, -2.0, 5.0);
                push.moment = Vec3(0.1, 0.2, 0.3);
                push.duration = 0.05;
                sim.interact(push);
              }
              if (interactions && k == 60 && posed >= 0) {
                InteractionEvent pose;
                pose.kind = InteractionKind::Pose;
                pose.body = posed;
                const double* q = sim.q().data() + tree.qOffset[posed];
                pose.position.assign(q, q + tree.joints[posed].nq);
                pose.position[0] += 0.1;
                sim.interact(pose);
                rows.back() = sim.sample();
              }
              if (!sim.step()) return false;
              rows.push_back(sim.sample());
              // the loads' world axes, which a recording run's aba leaves to the recorder
              for (const Vec6& f : sim.loads().fWorld) rows.back().insert(rows.back().end(), f.data(), f.data() + 6);
            }
            if (record) {  // the recorder's rows, read afresh, are the samples
              for (std::size_t r = 0; r < rows.size(); ++r) {
                std::vector<double> row(static_cast<std::size_t>(sim.recorder().width()));
                sim.recorder().copyRows(r, r + 1, row.data());
                if (!std::equal(row.begin(), row.end(), rows[r].begin())) return false;
              }
            }
            return true;
          };
          std::vector<std::vector<double>> streamed, recorded;
          try {
            QVERIFY2(run(false, streamed), qPrintable(file + " " + QString::fromStdString(info.name)));
          } catch (const std::invalid_argument&) {
            continue;  // a solver that cannot run the model (prescribed motions)
          }
          QVERIFY2(run(true, recorded), qPrintable(file + " " + QString::fromStdString(info.name)));
          QCOMPARE(recorded.size(), streamed.size());
          for (std::size_t r = 0; r < streamed.size(); ++r)
            QVERIFY2(std::memcmp(recorded[r].data(), streamed[r].data(), sizeof(double) * streamed[r].size()) == 0,
                     qPrintable(file + " " + QString::fromStdString(info.name) + " row " + QString::number(r)));
          ++compared;
        }
    }
    QVERIFY(compared >= 40);
  }

  // The recorder derives each row once, in order, when a reader first reads it (not before), from
  // the row before it; a replaced newest row is derived again; clear() starts over at row 0.
  void recorderDerivesRowsWhenRead() {
    Recorder rec(3, 1, 1, 4);  // columns: time, x, and x's running sum (derived); 4 rows a chunk
    std::vector<std::size_t> calls;
    rec.setDeriver([&](double* row, const double* previous) {
      calls.push_back(static_cast<std::size_t>(row[0]));
      row[2] = row[1] + (previous ? previous[2] : 0.0);
    });
    const VectorXd q = VectorXd::Zero(1);
    for (int k = 0; k < 6; ++k) {
      const double row[3] = {double(k), double(k + 1), -1.0};
      rec.append(row, row[0], q, q);
    }
    QVERIFY(calls.empty());  // nothing read yet
    QCOMPARE(rec.column(2), (std::vector<double>{1, 3, 6, 10, 15, 21}));
    QCOMPARE(calls, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(rec.column(2).back(), 21.0);  // read again: not derived again
    QCOMPARE(calls.size(), std::size_t(6));
    // a row written in place: nextRow(), then publish()
    double* next = rec.nextRow();
    next[0] = 6.0;
    next[1] = 7.0;
    rec.publish(6.0, q, q);
    QCOMPARE(rec.value(6, 2), 28.0);
    // the newest row replaced: derived again from the row before it
    const double replaced[3] = {6.0, 100.0, -1.0};
    rec.replaceLatest(replaced, 6.0, q, q);
    QCOMPARE(rec.read([](const Recorder::Rows& rows) { return rows.value(6, 2); }), 121.0);
    QCOMPARE(calls.size(), std::size_t(8));
    rec.clear();
    const double first[3] = {0.0, 5.0, -1.0};
    rec.append(first, 0.0, q, q);
    std::vector<double> copy(3);
    QCOMPARE(rec.copyRows(0, 1, copy.data()), std::size_t(1));
    QCOMPARE(copy[2], 5.0);  // no row before it
  }

  // A reader thread copies rows while the writer runs: every copied row is complete and consistent.
  void recorderConcurrentReader() {
    SimulatorOptions o;
    o.step = 0.001;
    Simulator sim(makeChain(4), o);
    const Recorder& rec = sim.recorder();
    const int width = rec.width();
    const int kinetic = sim.signalLayout().find("energy.kinetic"), total = sim.signalLayout().find("energy.total"),
              potential = sim.signalLayout().find("energy.potential");
    std::atomic<bool> done{false};
    std::atomic<long> checkedRows{0}, badRows{0};
    std::thread reader([&] {
      std::vector<double> buf;
      RecordedState state;
      std::size_t next = 0;
      while (!done.load()) {
        const std::size_t n = rec.size();
        if (n > next) {
          buf.resize((n - next) * width);
          const std::size_t got = rec.copyRows(next, n, buf.data());
          for (std::size_t r = 0; r < got; ++r) {
            const double* row = buf.data() + r * width;
            if (row[0] != double(next + r) * 0.001 || row[total] != row[kinetic] + row[potential]) ++badRows;
          }
          checkedRows += long(got);
          next += got;
        }
        if (rec.latest(state) && (state.q.size() != 4 || state.row >= rec.size())) ++badRows;
      }
    });
    for (int k = 0; k < 3000; ++k) QVERIFY(sim.step());
    done = true;
    reader.join();
    qInfo("reader checked %ld rows concurrently", checkedRows.load());
    QCOMPARE(badRows.load(), 0L);
    QVERIFY(checkedRows.load() > 0);
    RecordedState state;
    QVERIFY(rec.latest(state));
    QCOMPARE(state.t, sim.time());
    QCOMPARE(state.q, sim.q());
    QCOMPARE(state.row, rec.size() - 1);
    const std::uint64_t gen = rec.generation();
    sim.reset();
    QCOMPARE(rec.generation(), gen + 1);
    QCOMPARE(rec.size(), std::size_t(1));
  }

  // read() visits the published rows in place: every row of a range crossing chunk boundaries,
  // in order, equal to what copyColumn() copies; rows beyond size() are never visited; a reader
  // thread scanning while the writer appends sees complete rows only.
  void recorderReadInPlace() {
    Recorder rec(3, 1, 1, 4);  // 4 rows per chunk: ranges below cross chunks
    const VectorXd q = VectorXd::Zero(1);
    for (int k = 0; k < 11; ++k) {
      const double row[3] = {0.5 * k, double(k * k), -double(k)};
      rec.append(row, row[0], q, q);
    }
    const std::vector<double> squares = rec.column(1);
    for (const auto& [k0, k1] :
         {std::pair<std::size_t, std::size_t>{0, 11}, {3, 9}, {4, 8}, {7, 20}, {5, 5}, {12, 30}}) {
      std::vector<std::size_t> visited;
      std::vector<double> values;
      const std::size_t size = rec.read([&](const Recorder::Rows& rows) {
        rows.forEachRow(k0, k1, [&](std::size_t k, const double* row) {
          visited.push_back(k);
          values.push_back(row[1]);
          QCOMPARE(row[0], rows.value(k, 0));
        });
        return rows.size();
      });
      QCOMPARE(size, std::size_t(11));
      const std::size_t end = std::min<std::size_t>(k1, 11);
      QCOMPARE(visited.size(), end > k0 ? end - k0 : 0);
      for (std::size_t i = 0; i < visited.size(); ++i) {
        QCOMPARE(visited[i], k0 + i);
        QCOMPARE(values[i], squares[k0 + i]);
      }
    }

    SimulatorOptions o;
    o.step = 0.001;
    Simulator sim(makeChain(4), o);
    const Recorder& live = sim.recorder();
    const int kinetic = sim.signalLayout().find("energy.kinetic"), total = sim.signalLayout().find("energy.total"),
              potential = sim.signalLayout().find("energy.potential");
    std::atomic<bool> done{false};
    std::atomic<long> checkedRows{0}, badRows{0};
    std::thread reader([&] {
      while (!done.load()) {
        live.read([&](const Recorder::Rows& rows) {
          rows.forEachRow(0, rows.size(), [&](std::size_t k, const double* row) {
            if (row[0] != double(k) * 0.001 || row[total] != row[kinetic] + row[potential]) ++badRows;
          });
          checkedRows += long(rows.size());
        });
      }
    });
    for (int k = 0; k < 3000; ++k) QVERIFY(sim.step());
    done = true;
    reader.join();
    QCOMPARE(badRows.load(), 0L);
    QVERIFY(checkedRows.load() > 0);
  }

  void invalidOptionsThrow() {
    SimulatorOptions o;
    o.solver = "nope";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator(makeChain(2), o));
    o = SimulatorOptions();
    o.integrator = "rk45";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator(makeChain(2), o));
    o = SimulatorOptions();
    o.step = 0.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator(makeChain(2), o));
    Model bad = makeChain(2);
    bad.bodies[1].inertial.mass = -1.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Simulator(bad, SimulatorOptions()));
  }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "test_simulator.moc"
