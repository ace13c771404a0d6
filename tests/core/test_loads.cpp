// SPDX-License-Identifier: BSD-3-Clause
// Joint loads as the simulator reports them (issue: engine, tests; docs/dynamics.md §3, §9):
// static weight through a hanging chain, zero wrench through a free joint, τ_i = S_iᵀ f_i and
// f_i = D_i τ_i + T_i λ_i, and the load signals' mapping of f = [moment; force].
#include <QTest>

#include <cmath>

#include "core/analysis/analysis.hpp"
#include "core/model/generators.hpp"
#include "core/sim/simulator.hpp"

using namespace kt;
using Eigen::VectorXd;

namespace {

// Subtree mass and mass-weighted centre (Σ m c, world) of every body.
void subtreeMass(const Tree& tree, const Kinematics& kin, std::vector<double>& mass, std::vector<Vec3>& moment) {
  mass.assign(tree.nb, 0.0);
  moment.assign(tree.nb, Vec3::Zero());
  for (int i = tree.nb - 1; i >= 0; --i) {
    mass[i] += tree.I[i].m;
    moment[i] += tree.I[i].m * bodyComWorld(tree, kin, i);
    if (tree.parent[i] >= 0) {
      mass[tree.parent[i]] += mass[i];
      moment[tree.parent[i]] += moment[i];
    }
  }
}

// A driven random tree with every joint type.
Model drivenRandomTree(std::uint64_t seed) {
  RandomTreeOptions opt;
  opt.minBodies = 10;
  opt.maxBodies = 20;
  Model m = makeRandomTree(seed, opt);
  for (std::size_t i = 0; i < m.bodies.size(); ++i) {
    JointSpec& j = m.bodies[i].joint;
    const int nv = jointNv(j.type);
    if (nv == 0 || j.type == JointType::Free) continue;
    j.drive.type = i % 2 ? DriveType::Sinusoid : DriveType::Constant;
    j.drive.value.assign(nv, 0.7);
    j.drive.amplitude.assign(nv, 1.5);
    j.drive.frequency.assign(nv, 0.8);
    j.drive.phase.assign(nv, 0.1);
    j.drive.offset.assign(nv, -0.2);
  }
  return m;
}

}  // namespace

class TestLoads : public QObject {
  Q_OBJECT

 private slots:
  // A chain hanging straight down at rest: joint i carries exactly the weight of its subtree,
  // and the moment of that weight about the joint origin, in world and in joint axes.
  void hangingChainTransmitsSubtreeWeight_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("solver");
    for (const SolverInfo& info : solverRegistry()) {
      QTest::newRow(("revolute/" + info.name).c_str()) << int(JointType::Revolute) << QString::fromStdString(info.name);
      QTest::newRow(("spherical/" + info.name).c_str())
          << int(JointType::Spherical) << QString::fromStdString(info.name);
    }
  }
  void hangingChainTransmitsSubtreeWeight() {
    QFETCH(int, type);
    QFETCH(QString, solver);
    Model model = makeChain(8, JointType(type));
    // gravity off the world axes, the first joint frame turned so that the chain (along −z of
    // its frames) hangs along it, the others turned about the chain (spherical joints too): an
    // equilibrium in which every frame is skewed against the world axes
    model.gravity = Vec3(1.3, -0.7, -9.6);
    const Mat3 R0 = Eigen::Quaterniond::FromTwoVectors(-Vec3::UnitZ(), model.gravity.normalized()).toRotationMatrix();
    for (BodySpec& b : model.bodies) {
      const double k = double(&b - model.bodies.data());
      const Mat3 Rk = Eigen::AngleAxisd(0.3 * k + 0.2, Vec3::UnitZ()).toRotationMatrix();
      b.joint.origin.rpy = rpyFromRotation(k == 0 ? Mat3(R0 * Rk) : Rk);
      b.joint.q0.assign(jointNq(JointType(type)), 0.0);
      if (JointType(type) == JointType::Spherical) {
        b.joint.q0[0] = std::cos(0.35 * k);
        b.joint.q0[3] = std::sin(0.35 * k);
      }
      b.inertial.mass = 0.5 + 0.25 * k;
    }
    SimulatorOptions o;
    o.solver = solver.toStdString();
    o.step = 0.01;
    Simulator sim(model, o);
    QVERIFY(sim.advanceTo(1.0));  // at rest it stays at rest
    const Tree& tree = sim.tree();
    Kinematics kin;
    kin.resize(tree);
    computeKinematics(tree, sim.q(), sim.v(), kin);
    std::vector<double> mass;
    std::vector<Vec3> moment;
    subtreeMass(tree, kin, mass, moment);
    const double weightScale = tree.totalMass() * tree.gravity.norm();
    double worst = 0.0;
    for (int i = 0; i < tree.nb; ++i) {
      const Vec3 o_i = bodyPositionWorld(kin, i);
      // the support force and its moment about the joint origin: Σ_j (c_j − o_i) × (−m_j g)
      const Vec3 force = -mass[i] * tree.gravity;
      const Vec3 torque = (moment[i] - mass[i] * o_i).cross(-tree.gravity);
      const Vec6 expectedWorld = spatial(torque, force);
      worst = std::max(worst, (sim.loads().fWorld[i] - expectedWorld).norm() / weightScale);
      const Mat3 R = bodyRotationWorld(kin, i);
      const Vec6 expectedBody = spatial(R.transpose() * torque, R.transpose() * force);
      worst = std::max(worst, (sim.loads().f[i] - expectedBody).norm() / weightScale);
      // the signals: load_world:<joint>.fz is f[5] in world
      const int fz = sim.signalLayout().find("load_world:" + tree.jointNames[i] + ".fz");
      QCOMPARE(sim.sample()[fz], sim.loads().fWorld[i][5]);
    }
    qInfo("max |f − subtree weight| / total weight = %.3g", worst);
    QVERIFY(worst <= 1e-12);
    QVERIFY(sim.qdd().norm() <= 1e-12);
  }

  // A free joint transmits nothing (no reaction, no drive): its wrench is zero while the rest moves.
  void freeJointTransmitsNothing_data() {
    QTest::addColumn<QString>("solver");
    for (const SolverInfo& info : solverRegistry())
      QTest::newRow(info.name.c_str()) << QString::fromStdString(info.name);
  }
  void freeJointTransmitsNothing() {
    QFETCH(QString, solver);
    RandomTreeOptions opt;
    opt.minBodies = 8;
    opt.maxBodies = 16;
    opt.floatingBaseProbability = 1.0;
    const Model model = makeRandomTree(21, opt);
    SimulatorOptions o;
    o.solver = solver.toStdString();
    o.step = 0.005;
    Simulator sim(model, o);
    const Tree& tree = sim.tree();
    QCOMPARE(tree.joints[0].type, JointType::Free);
    for (int k = 0; k < 20; ++k) {
      QVERIFY(sim.step());
      double scale = 0.0;
      for (int i = 0; i < tree.nb; ++i) scale = std::max(scale, sim.loads().f[i].norm());
      QVERIFY(scale > 1.0);
      for (int i = 0; i < tree.nb; ++i)
        if (tree.joints[i].type == JointType::Free) QVERIFY(sim.loads().f[i].norm() <= 1e-12 * scale);
    }
    // and it has no reaction signals
    for (const std::string& name : sim.signalLayout().names())
      QVERIFY(name.rfind("reaction:" + tree.jointNames[0] + ".", 0) != 0);
  }

  // τ_i = S_iᵀ f_i (the drive forces) and f_i = D_i τ_i + T_i λ_i for every joint and solver.
  void actuationAndReactionSplit_data() {
    QTest::addColumn<QString>("solver");
    for (const SolverInfo& info : solverRegistry())
      QTest::newRow(info.name.c_str()) << QString::fromStdString(info.name);
  }
  void actuationAndReactionSplit() {
    QFETCH(QString, solver);
    for (std::uint64_t seed : {3, 4, 5}) {
      SimulatorOptions o;
      o.solver = solver.toStdString();
      o.step = 0.01;
      Simulator sim(drivenRandomTree(seed), o);
      QVERIFY(sim.advanceTo(0.2));
      const Tree& tree = sim.tree();
      const JointLoads& L = sim.loads();
      Kinematics kin;
      kin.resize(tree);
      computeKinematics(tree, sim.q(), sim.v(), kin);
      double scale = 1.0;
      for (int i = 0; i < tree.nb; ++i) scale = std::max(scale, L.f[i].norm());
      QVERIFY(sim.tau().norm() > 0.1);
      QVERIFY((L.tau - sim.tau()).norm() <= 1e-12 * scale);
      for (int i = 0; i < tree.nb; ++i) {
        const JointModel& joint = tree.joints[i];
        const double* qi = sim.q().data() + tree.qOffset[i];
        Mat6N T, D;
        joint.constraintSubspace(qi, T);
        joint.actuationSubspace(qi, D);
        Vec6 rebuilt = Vec6::Zero();
        if (joint.nv > 0) {
          const VectorXd tau_i = sim.tau().segment(tree.vOffset[i], joint.nv);
          QVERIFY((kin.S[i].transpose() * L.f[i] - tau_i).norm() <= 1e-12 * scale);
          rebuilt += D * tau_i;
        }
        if (joint.nv < 6) rebuilt += T * L.lambda.segment(tree.lambdaOffset[i], 6 - joint.nv);
        QVERIFY((rebuilt - L.f[i]).norm() <= 1e-12 * scale);
        // world-axes copy of the same wrench
        const Mat3 R = bodyRotationWorld(kin, i);
        QVERIFY((L.fWorld[i] - spatial(R * L.f[i].head<3>(), R * L.f[i].tail<3>())).norm() <= 1e-12 * scale);
      }
      // the signals follow f = [moment; force]: load:<joint>.mx = f[0], .fx = f[3]
      const std::string& j = tree.jointNames[tree.nb - 1];
      QCOMPARE(sim.sample()[sim.signalLayout().find("load:" + j + ".mx")], L.f[tree.nb - 1][0]);
      QCOMPARE(sim.sample()[sim.signalLayout().find("load:" + j + ".fx")], L.f[tree.nb - 1][3]);
      QCOMPARE(sim.sample()[sim.signalLayout().find("load:" + j + ".mz")], L.f[tree.nb - 1][2]);
      QCOMPARE(sim.sample()[sim.signalLayout().find("load:" + j + ".fz")], L.f[tree.nb - 1][5]);
    }
  }
};

QTEST_GUILESS_MAIN(TestLoads)
#include "test_loads.moc"
