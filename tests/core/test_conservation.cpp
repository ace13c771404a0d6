// SPDX-License-Identifier: BSD-3-Clause
// Invariants of whole runs (issue: engine, tests; docs/dynamics.md §9): energy without actuation or
// damping, angular momentum of a torque-free body, momentum of a floating robot in zero gravity.
#include <QFile>
#include <QTest>

#include <cmath>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/sim/simulator.hpp"
#include "support/sim_options.hpp"

using namespace kt;

namespace {

using kt::test::dopri;

// Largest |x_k − x_0| over the run of a recorded signal.
double maxDrift(const Simulator& sim, const std::string& signal) {
  const int col = sim.signalLayout().find(signal);
  const std::vector<double> x = sim.recorder().column(col);
  double worst = 0.0;
  for (double xi : x) worst = std::max(worst, std::abs(xi - x.front()));
  return worst;
}

}  // namespace

class TestConservation : public QObject {
  Q_OBJECT

 private slots:
  // Torque-free asymmetric body tumbling about (nearly) its intermediate axis (Dzhanibekov):
  // energy and angular momentum about the world origin stay constant.
  void torqueFreeRigidBody() {
    Model model;
    model.gravity = Vec3::Zero();
    BodySpec b;
    b.name = "tumbler";
    b.joint.name = "float";
    b.joint.type = JointType::Free;
    b.joint.q0 = {std::cos(0.2), std::sin(0.2), 0.0, 0.0, 0.5, -0.3, 1.0};
    b.joint.v0 = {0.02, 3.0, 0.01, 0.3, -0.1, 0.2};  // mostly about the intermediate (y) axis
    b.inertial.mass = 3.0;
    b.inertial.com = Vec3(0.05, -0.02, 0.03);
    b.inertial.inertia = Vec3(1.0, 2.0, 3.0).asDiagonal();
    model.bodies.push_back(b);
    Simulator sim(model, dopri(1e-12, 0.01));
    QVERIFY2(sim.advanceTo(10.0), sim.error().c_str());
    const double E0 = sim.recorder().value(0, sim.signalLayout().find("energy.total"));
    Vec3 L0;
    for (int k = 0; k < 3; ++k)
      L0[k] = sim.recorder().value(0, sim.signalLayout().find(std::string("momentum.l") + "xyz"[k]));
    const double dE = maxDrift(sim, "energy.total") / std::abs(E0);
    double dL = 0.0;
    for (const char* c : {"lx", "ly", "lz"}) dL = std::max(dL, maxDrift(sim, std::string("momentum.") + c));
    dL /= L0.norm();
    // the body really tumbles: the y-component of ω reverses
    const std::vector<double> wy = sim.recorder().column(sim.signalLayout().find("qd:float[1]"));
    const double wyMin = *std::min_element(wy.begin(), wy.end());
    qInfo("torque-free body over 10 s (dopri5, tol 1e-12): |ΔE|/E = %.3g, |ΔL|/|L| = %.3g, min ω_y = %.3f", dE, dL,
          wyMin);
    QVERIFY(wyMin < -2.0);
    QVERIFY(dE <= 1e-10);
    QVERIFY(dL <= 1e-10);
  }

  // 10-link pendulum, no damping, 10 s, dopri5 tolerance 1e-10: |ΔE|/E₀ ≤ 1e-7.
  void chainEnergy_data() {
    QTest::addColumn<QString>("solver");
    // the reference solver and an impulse-form solver (integrated in (q, p))
    for (const char* s : {"aba", "poisson-ldl"})
      if (isSolverName(s)) QTest::newRow(s) << s;
  }
  void chainEnergy() {
    QFETCH(QString, solver);
    Model model = makeChain(10);
    for (std::size_t i = 0; i < model.bodies.size(); ++i) model.bodies[i].joint.q0 = {0.3 * std::cos(double(i))};
    Simulator sim(model, dopri(1e-10, 0.01, solver.toStdString()));
    QVERIFY2(sim.advanceTo(10.0), sim.error().c_str());
    const double E0 = sim.recorder().value(0, sim.signalLayout().find("energy.total"));
    const double dE = maxDrift(sim, "energy.total") / std::abs(E0);
    const double swing = maxDrift(sim, "energy.kinetic");
    qInfo("10-link chain, %s: |ΔE|/|E0| = %.3g over 10 s (E0 = %.6g J, kinetic energy up to %.4g J, %ld steps)",
          qPrintable(solver), dE, E0, swing, sim.integrator().acceptedSteps);
    QVERIFY(swing > 1.0);  // the chain really moves
    QVERIFY(dE <= 1e-7);
  }

  // Space robot: arms driven, zero gravity; linear and angular momentum stay at their initial
  // value (zero: the robot starts at rest) to 1e-9 over 10 s.
  void spaceRobotMomentum_data() {
    QTest::addColumn<QString>("solver");
    // the reference solver and an impulse-form solver (integrated in (q, p))
    for (const char* s : {"aba", "poisson-ldl"})
      if (isSolverName(s)) QTest::newRow(s) << s;
  }
  void spaceRobotMomentum() {
    QFETCH(QString, solver);
    const QString path = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    QVERIFY2(QFile::exists(path), "examples/space_robot.yaml is missing");
    const Model model = loadModelFromFile(path.toStdString());
    QVERIFY(model.gravity.norm() == 0.0);
    Simulator sim(model, dopri(1e-11, 0.01, solver.toStdString()));
    QVERIFY2(sim.advanceTo(10.0), sim.error().c_str());
    double worst = 0.0, scale = 0.0;
    for (const char* c : {"px", "py", "pz", "lx", "ly", "lz"}) {
      const int col = sim.signalLayout().find(std::string("momentum.") + c);
      const double h0 = sim.recorder().value(0, col);
      scale = std::max(scale, std::abs(h0));
      worst = std::max(worst, maxDrift(sim, std::string("momentum.") + c));
    }
    // relative to the initial momentum, or absolute when it is zero
    const double drift = scale > 0.0 ? worst / scale : worst;
    // the base really turns in reaction to the arms
    const double yawSwing =
        maxDrift(sim, "attitude:" + sim.tree().bodyNames[sim.signalLayout().freeBodies().at(0)] + ".yaw") +
        maxDrift(sim, "attitude:" + sim.tree().bodyNames[sim.signalLayout().freeBodies().at(0)] + ".roll");
    qInfo("space robot (%s): momentum drift %.3g (%s) over 10 s, base attitude swing %.3g rad", qPrintable(solver),
          drift, scale > 0.0 ? "relative" : "absolute", yawSwing);
    QVERIFY(yawSwing > 1e-3);
    QVERIFY(drift <= 1e-9);
  }
};

QTEST_GUILESS_MAIN(TestConservation)
#include "test_conservation.moc"
