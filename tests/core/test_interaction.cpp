// SPDX-License-Identifier: BSD-3-Clause
// Interactions (docs/interaction.md): the effective mass and the drag law against hand
// computations, a push in the joint loads, the events file, a replay from the CLI byte for byte,
// and energy conservation once a drag is released.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <numbers>

#include "core/dynamics/kinematics.hpp"
#include "core/io/interaction_events.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/results/recording_csv.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"

using namespace kt;
using Eigen::VectorXd;

namespace {

constexpr double kMass = 2.0;
const Vec3 kCom(0.5, 0.0, 0.0);
const Mat3 kInertia = Eigen::Vector3d(0.01, 0.02, 0.03).asDiagonal();  // about the centre of mass

// One body on a revolute joint about z at the world origin, gravity along −y: a pendulum in the
// xy plane whose inertia about the hinge is M = Izz + m |c|².
Model pendulum(double q0, double v0) {
  Model m;
  m.gravity = Vec3(0.0, -9.81, 0.0);
  BodySpec b;
  b.name = "arm";
  b.joint.name = "hinge";
  b.joint.type = JointType::Revolute;
  b.joint.axis = Vec3::UnitZ();
  b.joint.q0 = {q0};
  b.joint.v0 = {v0};
  b.inertial.mass = kMass;
  b.inertial.com = kCom;
  b.inertial.inertia = kInertia;
  m.bodies.push_back(b);
  return m;
}

double hingeInertia() { return kInertia(2, 2) + kMass * kCom.squaredNorm(); }

Mat3 rotZ(double q) { return Eigen::AngleAxisd(q, Vec3::UnitZ()).toRotationMatrix(); }

InteractionEvent drag(int id, int body, const Vec3& point, const Vec3& target, double k, double c) {
  InteractionEvent e;
  e.kind = InteractionKind::Drag;
  e.id = id;
  e.body = body;
  e.point = point;
  e.target = target;
  e.stiffness = k;
  e.damping = c;
  return e;
}

InteractionEvent release(int id) {
  InteractionEvent e;
  e.kind = InteractionKind::Release;
  e.id = id;
  return e;
}

}  // namespace

class TestInteraction : public QObject {
  Q_OBJECT

 private slots:
  // m_eff = 3 / trace(J M⁻¹ Jᵀ): for a point at distance d on the pendulum's x axis, J = d e_y
  // (at q = 0) and M the hinge inertia, so m_eff = 3 M / d²; turning it, J_ω = e_z: 3 M.
  void effectiveMassOfAPendulum() {
    const Tree tree = finalizeOrThrow(pendulum(0.0, 0.0));
    const VectorXd q = VectorXd::Zero(1);
    const double M = hingeInertia(), d = 0.8;
    QVERIFY(std::abs(effectiveMass(tree, q, 0, Vec3(d, 0, 0), DragMode::Force) - 3.0 * M / (d * d)) < 1e-12);
    QVERIFY(std::abs(effectiveMass(tree, q, 0, Vec3::Zero(), DragMode::Torque) - 3.0 * M) < 1e-12);
    // any angle: the point's velocity Jacobian keeps its length d
    const VectorXd q1 = VectorXd::Constant(1, 1.1);
    QVERIFY(std::abs(effectiveMass(tree, q1, 0, Vec3(d, 0, 0), DragMode::Force) - 3.0 * M / (d * d)) < 1e-12);
    // gains: a mass–spring–damper of 10 rad/s and damping ratio 0.5 around m_eff
    const SpringGains g = dragGains(tree, q, 0, Vec3(d, 0, 0), DragMode::Force);
    QVERIFY(std::abs(g.stiffness - 100.0 * g.effectiveMass) < 1e-12 * g.stiffness);
    QVERIFY(std::abs(g.damping - 10.0 * g.effectiveMass) < 1e-12 * g.damping);
  }

  // A free body: a force F at p accelerates that point by F/m + α × r, α = I_c⁻¹ (r × F),
  // r = p − c, so J M⁻¹ Jᵀ = I/m − [r] I_c⁻¹ [r]; a moment turns it by I_c⁻¹ M.
  void effectiveMassOfAFreeBody() {
    Model m;
    m.gravity = Vec3(0, 0, -9.81);
    BodySpec b;
    b.name = "block";
    b.joint.name = "float";
    b.joint.type = JointType::Free;
    b.inertial.mass = 3.0;
    b.inertial.com = Vec3(0.1, -0.2, 0.05);
    b.inertial.inertia << 0.4, 0.05, 0.0, 0.05, 0.5, 0.02, 0.0, 0.02, 0.6;
    m.bodies.push_back(b);
    const Tree tree = finalizeOrThrow(m);
    const Vec3 p(0.3, 0.1, -0.2), r = p - b.inertial.com;
    const Mat3 Ic_inv = b.inertial.inertia.inverse();
    const Mat3 W = Mat3::Identity() / 3.0 - skew(r) * Ic_inv * skew(r);
    const double expected = 3.0 / W.trace();
    QVERIFY(std::abs(effectiveMass(tree, tree.initialQ, 0, p, DragMode::Force) - expected) < 1e-12 * expected);
    // at its centre of mass, the mass itself
    QVERIFY(std::abs(effectiveMass(tree, tree.initialQ, 0, b.inertial.com, DragMode::Force) - 3.0) < 1e-12);
    const double turning = 3.0 / Ic_inv.trace();
    QVERIFY(std::abs(effectiveMass(tree, tree.initialQ, 0, p, DragMode::Torque) - turning) < 1e-12 * turning);
  }

  // The drag law at a known state, against F = k (x* − x) − c ẋ by hand; the run records it as
  // applied:, and the joint loads carry it in the very sample: the hinge force is m a_c − m g − F.
  void dragLawAtAKnownState() {
    const double q0 = 0.3, v0 = 1.2, k = 50.0, c = 4.0;
    const Vec3 p(0.8, 0.0, 0.0), target(0.2, 0.9, 0.0);
    const Tree tree = finalizeOrThrow(pendulum(q0, v0));
    // the law itself
    Interactions interactions;
    interactions.apply(drag(1, 0, p, target, k, c), tree);
    Kinematics kin;
    kin.resize(tree);
    computeKinematics(tree, tree.initialQ, tree.initialV, kin);
    std::vector<Vec6> fext(1);
    interactions.wrenches(0.0, &kin, fext);
    const Mat3 R = rotZ(q0);
    const Vec3 x = R * p, xdot = Vec3(0, 0, v0).cross(x);
    const Vec3 F = k * (target - x) - c * xdot;
    const Vec6 world = wrenchInWorldAxes(kin, 0, fext[0]);
    QVERIFY((world.tail<3>() - F).norm() < 1e-13 * F.norm());
    QVERIFY((world.head<3>() - x.cross(F)).norm() < 1e-13 * F.norm());

    // in a run: the drag starts at t = 0, the sample at t = h shows it at that sample's state
    SimulatorOptions o;
    o.interactions = true;
    o.step = 0.001;
    Simulator sim(pendulum(q0, v0), o);
    sim.interact(drag(1, 0, p, target, k, c));
    QVERIFY(sim.step());
    const SignalLayout& layout = sim.signalLayout();
    const auto value = [&](const char* name) {
      const int column = layout.find(name);
      if (column < 0) qFatal("no signal %s", name);
      return sim.sample()[static_cast<std::size_t>(column)];
    };
    const double q = value("q:hinge[0]"), w = value("qd:hinge[0]"), qdd = value("qdd:hinge[0]");
    const Vec3 x1 = rotZ(q) * p, x1dot = Vec3(0, 0, w).cross(x1);
    const Vec3 F1 = k * (target - x1) - c * x1dot;
    QVERIFY(std::abs(value("applied:arm.fx") - F1.x()) < 1e-12 * F1.norm());
    QVERIFY(std::abs(value("applied:arm.fy") - F1.y()) < 1e-12 * F1.norm());
    QVERIFY(std::abs(value("applied:arm.mz") - x1.cross(F1).z()) < 1e-12 * F1.norm());
    // q̈ = (τ_gravity + τ_drag) / M
    const Vec3 g(0.0, -9.81, 0.0), cw = rotZ(q) * kCom;
    const double expectedQdd = (cw.cross(kMass * g).z() + x1.cross(F1).z()) / hingeInertia();
    QVERIFY(std::abs(qdd - expectedQdd) < 1e-12 * std::abs(expectedQdd));
    // hinge force on the arm, world axes: m a_c − m g − F
    const Vec3 ac = Vec3(0, 0, qdd).cross(cw) + Vec3(0, 0, w).cross(Vec3(0, 0, w).cross(cw));
    const Vec3 hinge = kMass * ac - kMass * g - F1;
    QVERIFY(std::abs(value("load_world:hinge.fx") - hinge.x()) < 1e-12 * hinge.norm());
    QVERIFY(std::abs(value("load_world:hinge.fy") - hinge.y()) < 1e-12 * hinge.norm());
  }

  // A half-sine push of peak P over T gives the body the impulse 2 P T / π, whatever else moves.
  void halfSinePushGivesItsImpulse() {
    SimulatorOptions o;
    o.interactions = true;
    o.step = 0.001;
    Model model = loadModelFromFile(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    Simulator sim(std::move(model), o);
    InteractionEvent push;
    push.id = 7;
    push.body = 0;  // the base
    push.force = Vec3(0.0, 0.0, 300.0);
    push.start = 0.05;
    push.duration = 0.1;
    push.shape = PushShape::HalfSine;
    QVERIFY(sim.advanceTo(0.02));
    sim.interact(push);
    QVERIFY(sim.advanceTo(0.2));
    const int pz = sim.signalLayout().find("momentum.pz");
    const double expected = 2.0 * 300.0 * 0.1 / std::numbers::pi;
    QVERIFY2(std::abs(sim.sample()[static_cast<std::size_t>(pz)] - expected) < 1e-6 * expected,
             qPrintable(QString::number(sim.sample()[static_cast<std::size_t>(pz)], 'g', 17)));
    QCOMPARE(sim.events().size(), std::size_t{1});
    QCOMPARE(sim.events().front().t, 0.02);
    // a pulse whose start has passed when it is applied starts then, whole: the same impulse again
    push.id = 8;
    push.start = 0.1;
    sim.interact(push);
    QCOMPARE(sim.events().back().start, sim.time());
    QVERIFY(sim.advanceTo(0.4));
    QVERIFY2(std::abs(sim.sample()[static_cast<std::size_t>(pz)] - 2.0 * expected) < 1e-6 * expected,
             qPrintable(QString::number(sim.sample()[static_cast<std::size_t>(pz)], 'g', 17)));
    // a replay takes the events as written: an earlier start stays
    Simulator replay(sim.model(), o);
    push.t = 0.1;
    push.start = 0.05;
    replay.scheduleEvents({push});
    QVERIFY(replay.advanceTo(0.12));
    QCOMPARE(replay.events().front().start, 0.05);
  }

  // Interactions applied by hand at step boundaries, written as an events file and replayed by
  // `kinetree-cli simulate --events`, give the same CSV bytes.
  void replayFromTheCliIsByteIdentical() {
    QTemporaryDir dir;
    const std::string modelPath = KINETREE_SOURCE_DIR "/examples/space_robot.yaml";
    Model model = loadModelFromFile(modelPath);
    SimulatorOptions o = SimulatorOptions::fromSettings(model.simulation);
    o.interactions = true;
    Simulator sim(std::move(model), o);
    const Tree& tree = sim.tree();
    const double duration = 0.3;
    const long outputs = runOutputCount(duration, sim.outputInterval());
    InteractionEvent push;
    push.id = 1;
    push.body = 3;
    push.point = Vec3(0.1, 0.0, 0.0);
    push.force = Vec3(0.0, 20.0, 5.0);
    push.moment = Vec3(0.0, 0.0, 1.5);
    push.worldAxes = false;
    push.start = 0.03;
    push.duration = 0.04;
    push.shape = PushShape::HalfSine;
    // posed while paused: at t = 0 the base a little higher and turned, later the elbow J12
    InteractionEvent pose;
    pose.kind = InteractionKind::Pose;
    pose.id = 5;
    pose.body = 0;
    pose.position.assign(sim.q().data(), sim.q().data() + 7);
    pose.position[1] += 0.2;  // not a unit quaternion: normalized
    pose.position[6] += 0.5;
    sim.interact(pose);
    QCOMPARE(sim.recorder().size(), std::size_t{1});
    for (long k = 0; k < outputs; ++k) {
      if (k == 130) {
        InteractionEvent elbow;
        elbow.kind = InteractionKind::Pose;
        elbow.id = 6;
        elbow.body = 2;
        elbow.position = {sim.q()[tree.qOffset[2]] + 0.4};
        sim.interact(elbow);
      }
      if (k == 10) sim.interact(push);
      if (k == 40) {
        // grab the tip of the first arm and pull it along a line, one target per step
        const SpringGains g = dragGains(tree, sim.q(), 6, Vec3(0.05, 0, 0), DragMode::Force);
        QVERIFY(g.stiffness > 0.0);
        sim.interact(drag(2, 6, Vec3(0.05, 0, 0), Vec3(1.0, 0.5, 0.2), g.stiffness, g.damping));
      }
      if (k > 40 && k < 70)
        sim.interact(drag(2, 6, Vec3(0.05, 0, 0), Vec3(1.0, 0.5 + 0.01 * (k - 40), 0.2), 50.0, 3.0));
      if (k == 70) sim.interact(release(2));
      if (k == 80) {
        InteractionEvent turn = drag(3, 0, Vec3::Zero(), Vec3::Zero(), 400.0, 40.0);
        turn.mode = DragMode::Torque;
        turn.targetRotation = Quat(Eigen::AngleAxisd(0.3, Vec3(0.0, 0.6, 0.8)));
        sim.interact(turn);
      }
      if (k == 110) sim.interact(release(3));
      if (k == 120) {
        // the live drive panel: J11 holds 0.5 rad instead of tracking its sinusoid
        InteractionEvent hold;
        hold.kind = InteractionKind::Drive;
        hold.id = 4;
        hold.body = 1;
        hold.drive = sim.drives().drive(1);
        hold.drive.type = DriveType::PdSinusoid;
        hold.drive.amplitude = {0.0};
        hold.drive.offset = {0.5};
        hold.drive.kp = 800.0;
        sim.interact(hold);
      }
      QVERIFY2(sim.step(), sim.error().c_str());
    }
    const QString interactive = dir.filePath("interactive.csv"), replayed = dir.filePath("replayed.csv");
    const QString events = dir.filePath("run.events.json");
    writeRecordingCsv(sim.recorder(), sim.signalLayout(), {}, interactive.toStdString());
    const EventsRun run{o.solver, o.integrator, o.step};
    QVERIFY(kt::test::writeFile(events, QByteArray::fromStdString(formatInteractionEvents(sim.events(), tree, run))));
    // the file reads back to the same events
    const std::vector<InteractionEvent> back = readInteractionEvents(events.toStdString(), tree);
    QCOMPARE(back.size(), sim.events().size());
    for (std::size_t k = 0; k < back.size(); ++k) {
      QCOMPARE(back[k].t, sim.events()[k].t);
      QVERIFY(back[k].target == sim.events()[k].target && back[k].stiffness == sim.events()[k].stiffness);
      QVERIFY(back[k].targetRotation.coeffs() == sim.events()[k].targetRotation.coeffs());
    }
    const kt::test::CliRun cli = kt::test::runCli({"simulate", QString::fromStdString(modelPath), "--events", events,
                                                   "--duration", QString::number(duration), "-o", replayed});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QVERIFY2(cli.err.isEmpty(), qPrintable(cli.err));
    const QByteArray a = kt::test::readAll(interactive), b = kt::test::readAll(replayed);
    QVERIFY(a.size() > 1000 && a.contains("applied:L16.fx"));
    QVERIFY2(a == b, "the replay differs from the interactive run");
    const QByteArray driveEvent =
        "\"kind\": \"drive\", \"id\": 4, \"joint\": \"J11\", \"drive\": \"{type: pd_sinusoid, kp: 800";
    QVERIFY(kt::test::readAll(events).contains(driveEvent));
    QVERIFY(kt::test::readAll(events).contains("\"kind\": \"pose\", \"id\": 6, \"joint\": \"J12\", \"position\": ["));
    // the drive change acted: J11 heads for 0.5 rad; a reset gives the model's drive back
    QVERIFY(sim.drives().drive(1).kp == 800.0);
    sim.reset();
    const Simulator fresh(sim.model(), o);
    QVERIFY(sim.drives().drive(1) == fresh.drives().drive(1));
    // and a different step is warned about
    const kt::test::CliRun other = kt::test::runCli({"simulate", QString::fromStdString(modelPath), "--events", events,
                                                     "--duration", "0.01", "--step", "0.001", "-o", replayed});
    QCOMPARE(other.code, 0);
    QVERIFY2(other.err.contains("warning: the events were recorded with solver aba, integrator rk4, step 0.002 s"),
             qPrintable(other.err));
  }

  // A pose sets a joint's position between steps and keeps every velocity: the sample at that
  // time is replaced by the posed state's (a new recorder generation), and the run goes on as a
  // run started there would, for the velocity and the impulse forms alike. A prescribed joint
  // cannot be posed.
  void poseSetsThePositionAndKeepsTheVelocities() {
    for (const char* solver : {"aba", "poisson-ldl", "cfa-tree"}) {
      const Model model = makeChain(3, JointType::Revolute);
      SimulatorOptions o;
      o.interactions = true;
      o.step = 0.001;
      o.solver = solver;
      Simulator sim(model, o);
      for (int k = 0; k < 50; ++k) QVERIFY(sim.step());
      const VectorXd v = sim.v();
      const std::size_t rows = sim.recorder().size();
      const std::uint64_t generation = sim.recorder().generation();
      InteractionEvent pose;
      pose.kind = InteractionKind::Pose;
      pose.id = 1;
      pose.body = 1;
      pose.position = {0.7};
      sim.interact(pose);
      QCOMPARE(sim.recorder().size(), rows);
      QVERIFY(sim.recorder().generation() != generation);
      QCOMPARE(sim.q()[1], 0.7);
      QVERIFY2((sim.v() - v).norm() <= 1e-12 * (1.0 + v.norm()), solver);
      const int qColumn = sim.signalLayout().find("q:" + sim.tree().jointNames[1] + "[0]");
      QVERIFY(qColumn >= 0);
      std::vector<double> last(static_cast<std::size_t>(sim.recorder().width()));
      QCOMPARE(sim.recorder().copyRows(rows - 1, rows, last.data()), std::size_t{1});
      QCOMPARE(last[static_cast<std::size_t>(qColumn)], 0.7);
      QVERIFY(last == sim.sample());
      // the run from here is the run of the model started in that state
      Model there = model;
      for (std::size_t i = 0; i < there.bodies.size(); ++i) {
        there.bodies[i].joint.q0 = {sim.q()[static_cast<Eigen::Index>(i)]};
        there.bodies[i].joint.v0 = {sim.v()[static_cast<Eigen::Index>(i)]};
      }
      Simulator fresh(there, o);
      for (int k = 0; k < 100; ++k) QVERIFY(sim.step() && fresh.step());
      QVERIFY2((sim.q() - fresh.q()).norm() < 1e-10, qPrintable(QString::number((sim.q() - fresh.q()).norm())));
    }
    // a joint that follows a motion is refused, with its name
    Model moving = makeChain(2, JointType::Revolute);
    moving.bodies[0].joint.motion.type = MotionType::Sinusoid;
    moving.bodies[0].joint.motion.amplitude = {0.3};
    moving.bodies[0].joint.motion.frequency = {1.0};
    moving.bodies[0].joint.motion.phase = {0.0};
    moving.bodies[0].joint.motion.offset = {0.0};
    SimulatorOptions o;
    o.interactions = true;
    Simulator sim(moving, o);
    InteractionEvent pose;
    pose.kind = InteractionKind::Pose;
    pose.body = 0;
    pose.position = {0.1};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.interact(pose));
    try {
      sim.scheduleEvents({pose});
      QFAIL("a scheduled pose of a prescribed joint was taken");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("follows a prescribed motion") != std::string::npos, e.what());
    }
    pose.position = {0.1, 0.2};
    QCOMPARE(checkInteractionEvent(pose, sim.tree()), std::string("the position needs 1 number for this joint, not 2"));
  }

  // Moving a floating body with the mouse while paused: its origin moves by the world shift and
  // it turns about its origin by the world rotation, whatever its joint's placement.
  void movedFreeJointMovesTheBodyInTheWorld() {
    Model m;
    BodySpec base;
    base.name = "base";
    base.joint.type = JointType::Revolute;
    base.joint.axis = Vec3::UnitZ();
    base.joint.q0 = {0.4};
    base.inertial.mass = 1.0;
    base.inertial.inertia = Mat3::Identity();
    BodySpec floating = base;
    floating.name = "float";
    floating.parent = "base";
    floating.joint.name = "free";
    floating.joint.type = JointType::Free;
    floating.joint.origin.xyz = Vec3(0.3, -0.2, 0.5);
    floating.joint.origin.rpy = Vec3(0.2, -0.5, 1.1);
    const Quat q0 = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    floating.joint.q0 = {q0.w(), q0.x(), q0.y(), q0.z(), 0.1, 0.2, 0.3};
    base.joint.name = "hinge";
    m.bodies = {base, floating};
    const Tree tree = finalizeOrThrow(m);
    const Vec3 shift(0.25, -0.5, 0.75);
    const Mat3 turn = Eigen::AngleAxisd(0.6, Vec3(0.0, 0.6, 0.8)).toRotationMatrix();
    Kinematics before, after;
    before.resize(tree);
    after.resize(tree);
    computePositionKinematics(tree, tree.initialQ, before);
    VectorXd q = tree.initialQ;
    const std::vector<double> moved = movedFreeJoint(tree, q, 1, shift, turn);
    std::copy(moved.begin(), moved.end(), q.data() + tree.qOffset[1]);
    computePositionKinematics(tree, q, after);
    QVERIFY((after.X_0[1].r - (before.X_0[1].r + shift)).norm() < 1e-14);
    QVERIFY((after.X_0[1].E.transpose() - turn * before.X_0[1].E.transpose()).norm() < 1e-14);
    QVERIFY((after.X_0[0].r - before.X_0[0].r).norm() == 0.0);
  }

  // The spans of a run's interactions: a drag from its grab to its release (its moves inside),
  // a push from its start to its end or release; the sample at the grab is the state before it.
  void spansOfTheInteractions() {
    std::vector<InteractionEvent> events;
    InteractionEvent d = drag(1, 2, Vec3::Zero(), Vec3::Zero(), 1.0, 0.0);
    d.t = 0.2;
    events.push_back(d);
    d.t = 0.3;
    events.push_back(d);  // a new target
    InteractionEvent p;
    p.t = 0.25;
    p.id = 2;
    p.body = 0;
    p.start = 0.5;
    p.duration = 0.1;
    events.push_back(p);
    InteractionEvent off = release(1);
    off.t = 0.4;
    events.push_back(off);
    const std::vector<InteractionSpan> spans = interactionSpans(events);
    QCOMPARE(spans.size(), std::size_t{2});
    QCOMPARE(spans[0].kind, InteractionKind::Drag);
    QVERIFY(!spans[0].covers(0.2) && spans[0].covers(0.202) && spans[0].covers(0.4) && !spans[0].covers(0.402));
    QCOMPARE(spans[1].kind, InteractionKind::Push);
    QVERIFY(!spans[1].covers(0.45) && spans[1].covers(0.5) && spans[1].covers(0.6) && !spans[1].covers(0.61));
  }

  // Bad events files: the message names the file, line, column and what was expected.
  void badEventsFilesAreExplained() {
    const Tree tree = finalizeOrThrow(pendulum(0.0, 0.0));
    const auto message = [&](const std::string& text) {
      try {
        parseInteractionEvents(text, "e.json", tree);
      } catch (const EventsFileError& e) {
        return std::string(e.what());
      }
      return std::string("(accepted)");
    };
    const std::string head = "{\"format\": \"kinetree-events\", \"version\": 1, \"events\": [\n";
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"push\", \"id\": 1, \"body\": \"amr\"}]}"),
             std::string("e.json:2:43: error: events[0].body: expected the name of a body of the model, got 'amr' "
                         "(did you mean 'arm'?)"));
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"release\", \"id\": 4}]}"),
             std::string("e.json:2:35: error: events[0].id: no push or drag with id 4 before it"));
    QCOMPARE(message(head + "{\"t\": \"soon\", \"kind\": \"push\", \"id\": 1, \"body\": \"arm\"}]}"),
             std::string("e.json:2:7: error: events[0].t: expected a finite number, got the quoted text 'soon'"));
    QCOMPARE(
        message(head + "{\"t\": 0, \"kind\": \"pull\", \"id\": 1}]}"),
        std::string("e.json:2:18: error: events[0].kind: expected push, drag, release, drive or pose, got 'pull'"));
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"pose\", \"id\": 1, \"joint\": \"hinge\", \"position\": [1, 2]}]}"),
             std::string("e.json:2:65: error: events[0].position: expected the joint's 1 position coordinates, got 2 "
                         "numbers"));
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"drive\", \"id\": 1, \"joint\": \"hinge\", \"drive\": "
                            "\"{type: constant, value: 1}\"},\n{\"t\": 1, \"kind\": \"release\", \"id\": 1}]}"),
             std::string("e.json:3:35: error: events[1].id: no push or drag with id 1 before it"));
    QCOMPARE(message(head + "{\"t\": +1, \"kind\": \"release\", \"id\": 1}]}"),
             std::string("e.json:2:7: error: events[0].t: expected a finite number, got '+1'"));
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"drag\", \"id\": 1, \"body\": \"arm\", \"point\": [0, 0], "
                            "\"target\": [1, 0, 0], \"stiffness\": 1, \"damping\": 0}]}"),
             std::string("e.json:2:59: error: events[0].point: expected a list of 3 numbers, got 2 of them"));
    QCOMPARE(message(head + "{\"t\": 0, \"kind\": \"push\", \"id\": 1, \"body\": \"arm\", \"forse\": [1, 0, 0]}]}"),
             std::string("e.json:2:50: error: events[0]: unknown key 'forse' (did you mean 'force'?)"));
    QCOMPARE(message("{\"format\": \"csv\"}"), std::string("e.json:1:12: error: format: expected \"kinetree-events\""));
    QVERIFY(message(head + "{\"t\": 0, \"kind\": \"push\", \"id\": 1, \"body\": \"arm\", \"force\": [1, 0, 0]}]}") ==
            "(accepted)");
    // the CLI says the same and writes nothing
    QTemporaryDir dir;
    const QString bad = dir.filePath("bad.events.json");
    QVERIFY(kt::test::writeFile(bad, QByteArray::fromStdString(head + "{\"t\": 0, \"kind\": \"push\"}]}")));
    const kt::test::CliRun cli =
        kt::test::runCli({"simulate", kt::test::example("pendulum.yaml"), "--events", bad, "--duration", "0.1"});
    QCOMPARE(cli.code, 1);
    QVERIFY2(cli.err.contains("bad.events.json:2:1: error: events[0]: expected the key 'id'"), qPrintable(cli.err));
    QVERIFY(cli.out.isEmpty());
    // an event the run cannot take: a pose of a joint that follows a motion
    QVERIFY(kt::test::writeFile(
        bad, QByteArray::fromStdString(head + "{\"t\": 0.5, \"kind\": \"pose\", \"id\": 1, \"joint\": \"J11\", "
                                              "\"position\": [0.3]}]}")));
    const kt::test::CliRun posed = kt::test::runCli(
        {"simulate", kt::test::example("space_robot_motion.yaml"), "--events", bad, "--duration", "1"});
    QCOMPARE(posed.code, 1);
    QVERIFY2(posed.err.contains("bad.events.json: error: the event at t = 0.5 s: joint 'J11' follows a prescribed "
                                "motion: its position cannot be set"),
             qPrintable(posed.err));
    QVERIFY(posed.out.isEmpty());
    // a dopri5 run names its tolerance, and another one is warned about
    QVERIFY(kt::test::writeFile(
        bad,
        QByteArray::fromStdString("{\"format\": \"kinetree-events\", \"version\": 1, \"solver\": \"aba\", "
                                  "\"integrator\": \"dopri5\", \"step\": 0.01, \"tolerance\": 1e-6, \"events\": []}")));
    const kt::test::CliRun loose =
        kt::test::runCli({"simulate", kt::test::example("pendulum.yaml"), "--events", bad, "--duration", "0.1",
                          "--solver", "aba", "--integrator", "dopri5", "--step", "0.01", "--tolerance", "1e-9"});
    QCOMPARE(loose.code, 0);
    QVERIFY2(loose.err.contains("recorded with solver aba, integrator dopri5, step 0.01 s, tolerance 1e-06; this run "
                                "uses aba, dopri5, 0.01 s, tolerance 1e-09"),
             qPrintable(loose.err));
  }

  // Once a drag is released the run is the run of the untouched model from the state it left
  // (to rounding: the steps from t = 0.4 s are not the bits of those from 0), and its energy
  // drifts no more than that run's: nothing of the drag lingers in the integrator.
  void releasedRunIsAnUntouchedRun() {
    Model model = makeChain(3, JointType::Revolute);
    SimulatorOptions o;
    o.interactions = true;
    o.step = 0.001;
    Simulator touched(model, o);
    for (int k = 0; k < 400; ++k) {
      if (k == 100) touched.interact(drag(1, 2, Vec3(0.1, 0, 0), Vec3(0.3, 0.4, 0.2), 200.0, 5.0));
      QVERIFY2(touched.step(), touched.error().c_str());
    }
    touched.interact(release(1));
    // the untouched model, started where the drag left it
    for (std::size_t i = 0; i < model.bodies.size(); ++i) {
      model.bodies[i].joint.q0 = {touched.q()[static_cast<Eigen::Index>(i)]};
      model.bodies[i].joint.v0 = {touched.v()[static_cast<Eigen::Index>(i)]};
    }
    QVERIFY(touched.v().norm() > 1.0);  // it swings
    Simulator untouched(model, o);
    const int energy = untouched.signalLayout().find("energy.total");
    const auto energyOf = [&](const Simulator& s) { return s.sample()[static_cast<std::size_t>(energy)]; };
    const double e0 = energyOf(untouched);
    double driftTouched = 0.0, driftUntouched = 0.0, apart = 0.0;
    for (int k = 0; k < 1000; ++k) {
      QVERIFY(touched.step() && untouched.step());
      driftTouched = std::max(driftTouched, std::abs(energyOf(touched) - e0));
      driftUntouched = std::max(driftUntouched, std::abs(energyOf(untouched) - e0));
      apart = std::max(apart, (touched.q() - untouched.q()).norm());
      QCOMPARE(touched.sample()[static_cast<std::size_t>(untouched.signalLayout().find("applied:link3.fx"))], 0.0);
    }
    QVERIFY2(apart < 1e-9, qPrintable(QString::number(apart)));
    QVERIFY2(std::abs(driftTouched - driftUntouched) < 1e-3 * driftUntouched + 1e-12,
             qPrintable(QString("%1 vs %2").arg(driftTouched).arg(driftUntouched)));
    QVERIFY2(driftUntouched < 1e-6 * std::abs(e0), qPrintable(QString::number(driftUntouched)));
  }
};

QTEST_GUILESS_MAIN(TestInteraction)
#include "test_interaction.moc"
