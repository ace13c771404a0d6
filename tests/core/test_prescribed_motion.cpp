// SPDX-License-Identifier: BSD-3-Clause
// Runs with prescribed joint motions (docs/motion.md): inverse dynamics against M q̈ + h from the
// composite-rigid-body mass matrix, an independent path; the space robot's arms on prescribed
// moves with the base free (momentum conserved, every solver that computes hybrid dynamics
// agreeing); the required efforts fed back as a tabulated drive reproducing the motion; the
// tables and the model's motion: block refusing what they cannot take, each with its message.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dynamics/rnea.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/motion_table.hpp"
#include "core/model/generators.hpp"
#include "core/sim/prescribed_motion.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"

using namespace kt;

namespace {

// The column of `name` in every recorded row.
std::vector<double> column(const Simulator& sim, const std::string& name) {
  const int c = sim.signalLayout().find(name);
  std::vector<double> out;
  if (c < 0) return out;
  sim.recorder().read([&](const Recorder::Rows& rows) {
    rows.forEachRow(0, rows.size(), [&](std::size_t, const double* row) { out.push_back(row[c]); });
  });
  return out;
}

Motion restToRest(std::vector<Move> moves) {
  Motion m;
  m.type = MotionType::RestToRest;
  m.moves = {std::move(moves)};
  return m;
}

// The space robot with both arms on rest-to-rest moves, their drives removed, the base free.
Model spaceRobotWithPrescribedArms() {
  Model model = loadModelFromFile(std::string(KINETREE_SOURCE_DIR) + "/examples/space_robot.yaml");
  int k = 0;
  for (BodySpec& b : model.bodies) {
    if (b.joint.type != JointType::Revolute) continue;
    b.joint.drive = Drive{};
    b.joint.q0.clear();
    const double target = (k % 2 == 0 ? 0.6 : -0.4) * (1.0 + 0.1 * k);
    b.joint.motion = restToRest({{0.2, 1.2, 0.0, target}, {1.5, 2.4, target, 0.3 * target}});
    ++k;
  }
  model.simulation.duration = 2.5;
  return model;
}

}  // namespace

class TestPrescribedMotion : public QObject {
  Q_OBJECT

 private slots:
  // Every joint prescribed: no integration, and the recorded efforts are τ = M(q) q̈ + h(q, ν),
  // with M from the composite-rigid-body algorithm and h = ID(q, ν, 0): not the RNEA that gave τ.
  void inverseDynamicsIsMqddPlusH() {
    Model model = makeChain(5);
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      Motion m;
      m.type = MotionType::Sinusoid;
      m.amplitude = {0.4 + 0.1 * static_cast<double>(b)};
      m.frequency = {0.7 + 0.2 * static_cast<double>(b)};
      m.phase = {0.3 * static_cast<double>(b)};
      m.offset = {0.1};
      model.bodies[b].joint.drive = Drive{};
      model.bodies[b].joint.motion = m;
    }
    SimulatorOptions options;
    options.step = 0.01;
    Simulator sim(model, options);
    QVERIFY(sim.motions().all());
    QVERIFY(sim.advanceTo(2.0));
    const Tree& tree = sim.tree();
    RneaWorkspace ws(tree);
    MatrixX M;
    VectorX h(tree.nv), q(tree.nq), v(tree.nv), qdd(tree.nv), tau(tree.nv);
    const SignalLayout& layout = sim.signalLayout();
    int rows = 0;
    double worst = 0.0;
    sim.recorder().read([&](const Recorder::Rows& recorded) {
      recorded.forEachRow(0, recorded.size(), [&](std::size_t, const double* row) {
        layout.positionsFromRow(row, q);
        layout.velocityVectorFromRow(SignalKind::Qd, row, v);
        layout.velocityVectorFromRow(SignalKind::Qdd, row, qdd);
        layout.velocityVectorFromRow(SignalKind::Tau, row, tau);
        massMatrix(tree, ws, q, M);
        inverseDynamics(tree, ws, q, v, VectorX::Zero(tree.nv), {}, h);
        const VectorX expected = M * qdd + h;
        worst = std::max(worst, (tau - expected).norm() / (1.0 + expected.norm()));
        // the motion itself, exactly: q of joint 0 is its sinusoid
        const double t = row[0];
        QCOMPARE(q[0], 0.1 + 0.4 * std::sin(2.0 * std::numbers::pi * 0.7 * t));
        ++rows;
      });
    });
    QCOMPARE(rows, 201);
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
    // power = τ·ν of each joint
    const std::vector<double> power = column(sim, "power:" + tree.jointNames[2]);
    const std::vector<double> tau2 = column(sim, "tau:" + tree.jointNames[2] + "[0]");
    const std::vector<double> qd2 = column(sim, "qd:" + tree.jointNames[2] + "[0]");
    for (std::size_t k = 0; k < power.size(); ++k) QCOMPARE(power[k], tau2[k] * qd2[k]);
  }

  // The arms on prescribed moves, the base free: the base turns in reaction while the total
  // momentum stays what it was (zero); every solver that computes hybrid dynamics gives the
  // same run; the solvers that cannot are refused before the run, naming those that can.
  void spaceRobotArmsPrescribedConserveMomentum() {
    const Model model = spaceRobotWithPrescribedArms();
    SimulatorOptions options = SimulatorOptions::fromSettings(model.simulation);
    std::vector<std::vector<double>> yaw;
    for (const std::string& solver : hybridSolverNames()) {
      options.solver = solver;
      Simulator sim(model, options);
      QVERIFY(sim.advanceTo(model.simulation.duration));
      // relative to the momentum the bodies carry: √(2 m E) of the whole mass at the largest
      // kinetic energy (about 60 kg m/s here)
      double largestEnergy = 0.0;
      for (double e : column(sim, "energy.kinetic")) largestEnergy = std::max(largestEnergy, e);
      const double scale = std::sqrt(2.0 * sim.tree().totalMass() * largestEnergy);
      double worst = 0.0;
      for (const char* c : {"px", "py", "pz", "lx", "ly", "lz"})
        for (double x : column(sim, std::string("momentum.") + c)) worst = std::max(worst, std::abs(x));
      // (angular momentum is not linear in the state: RK4 keeps it to its truncation error)
      QVERIFY2(scale > 1.0 && worst < 1e-10 * scale,
               qPrintable(QString("%1: %2 of %3").arg(solver.c_str()).arg(worst).arg(scale)));
      yaw.push_back(column(sim, "attitude:base.yaw"));
      // the base did turn (the arms' moves are not a null motion for it)
      double turned = 0.0;
      for (double a : yaw.back()) turned = std::max(turned, std::abs(a));
      QVERIFY2(turned > 1e-3, qPrintable(QString::number(turned)));
      // the joints followed their moves: J11 ends its second move at 0.3 · 0.6
      const std::vector<double> q11 = column(sim, "q:J11[0]");
      QVERIFY(std::abs(q11.back() - 0.18) < 1e-12);
    }
    QVERIFY(yaw.size() >= 2);
    for (std::size_t s = 1; s < yaw.size(); ++s)
      for (std::size_t k = 0; k < yaw[0].size(); ++k) QVERIFY(std::abs(yaw[s][k] - yaw[0][k]) < 1e-9);
    const std::vector<std::string> hybrid = hybridSolverNames();
    for (const SolverInfo& info : solverRegistry()) {
      if (std::find(hybrid.begin(), hybrid.end(), info.name) != hybrid.end()) continue;
      options.solver = info.name;
      try {
        Simulator sim(model, options);
        QFAIL(qPrintable(QString("%1 ran a prescribed motion").arg(info.name.c_str())));
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("cannot compute prescribed motions") != std::string::npos &&
                     what.find("use aba, crba") != std::string::npos,
                 e.what());
      }
    }
  }

  // The required efforts of a prescribed run, written as a table and fed back as tabulated
  // drives of a free run, give back the motion to the accuracy of the table's spline (O(h⁴) for a
  // smooth motion; a rest-to-rest move's jerk jumps, and there the spline errs by O(h²)).
  void requiredEffortsReproduceTheMotion() {
    Model model = makeChain(3);
    for (std::size_t b = 0; b < 3; ++b) {
      Motion m;
      m.type = MotionType::Sinusoid;
      m.amplitude = {0.5 - 0.1 * static_cast<double>(b)};
      m.frequency = {0.8 + 0.3 * static_cast<double>(b)};
      m.phase = {0.4 * static_cast<double>(b)};
      m.offset = {0.2};
      const MotionSample start = JointMotion(m, 1).at(0, 0.0);
      model.bodies[b].joint.drive = Drive{};
      model.bodies[b].joint.q0 = {start.q};  // the driven run starts where the motion does
      model.bodies[b].joint.v0 = {start.qd};
      model.bodies[b].joint.motion = m;
    }
    SimulatorOptions options;
    options.step = 0.001;
    Simulator prescribed(model, options);
    QVERIFY(prescribed.advanceTo(1.2));
    QTemporaryDir dir;
    const std::string file = dir.filePath("efforts.csv").toStdString();
    {
      std::ofstream out(file);
      out.precision(17);
      out << "time";
      for (int i = 0; i < 3; ++i) out << ",tau:" << prescribed.tree().jointNames[i] << "[0]";
      out << "\n";
      std::vector<std::vector<double>> tau;
      for (int i = 0; i < 3; ++i) tau.push_back(column(prescribed, "tau:" + prescribed.tree().jointNames[i] + "[0]"));
      const std::vector<double> time = column(prescribed, "time");
      for (std::size_t k = 0; k < time.size(); ++k) {
        out << time[k];
        for (int i = 0; i < 3; ++i) out << "," << tau[i][k];
        out << "\n";
      }
    }
    Model driven = model;
    for (BodySpec& b : driven.bodies) {
      b.joint.motion = Motion{};
      b.joint.drive.type = DriveType::Table;
      b.joint.drive.file = file;
    }
    Simulator forward(driven, options);
    QVERIFY(forward.motions().empty());
    QVERIFY(forward.advanceTo(1.2));
    double worst = 0.0;
    for (int i = 0; i < 3; ++i) {
      const std::string q = "q:" + forward.tree().jointNames[i] + "[0]";
      const std::vector<double> a = column(prescribed, q), b = column(forward, q);
      QCOMPARE(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
    }
    qInfo("largest |q difference| of the run driven by the required efforts: %.3g rad", worst);
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    QCOMPARE(forward.tableEnd(), column(prescribed, "time").back());
  }

  // A table's spline takes the data's own curvature at its ends (not-a-knot): it reproduces any
  // cubic exactly, ends included, on uneven samples; a natural end would force q̈ = 0 there.
  void tableSplineReproducesACubic() {
    const auto cubic = [](double t) { return 0.3 - 1.2 * t + 2.5 * t * t - 0.7 * t * t * t; };
    const std::vector<double> t = {0.0, 0.13, 0.3, 0.42, 0.7, 0.81, 1.0};
    for (std::size_t n : {std::size_t{3}, std::size_t{4}, t.size()}) {
      std::vector<double> tt(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n)), q;
      for (double x : tt) q.push_back(n == 3 ? 1.0 + x * x : cubic(x));  // three knots: a parabola
      const CubicSpline s = CubicSpline::notAKnot(tt, q);
      for (double x : {0.0, 0.05, 0.21, 0.5, tt.back()}) {
        if (x > tt.back()) continue;
        const MotionSample m = s.at(x);
        const double qdd = n == 3 ? 2.0 : 5.0 - 4.2 * x;
        QVERIFY2(std::abs(m.qdd - qdd) < 1e-9, qPrintable(QString("n %1 t %2: %3").arg(n).arg(x).arg(m.qdd)));
      }
    }
  }

  // load_parent: is the joint wrench in the joint frame on the parent side: for the pendulum's
  // hinge about y at angle q, R_y(q) applied to load:, moment and force alike (the origins are
  // the same point); for the fixed support, load: itself.
  void parentFrameLoads() {
    Model model = loadModelFromFile(std::string(KINETREE_SOURCE_DIR) + "/examples/pendulum.yaml");
    SimulatorOptions options = SimulatorOptions::fromSettings(model.simulation);
    Simulator sim(model, options);
    QVERIFY(sim.advanceTo(0.37));
    const SignalLayout& layout = sim.signalLayout();
    const std::vector<double>& row = sim.sample();
    const auto wrench = [&](const std::string& prefix, const std::string& joint) {
      Vec6 f;
      const char* names[6] = {"mx", "my", "mz", "fx", "fy", "fz"};
      for (int c = 0; c < 6; ++c) f[c] = row[static_cast<std::size_t>(layout.find(prefix + joint + "." + names[c]))];
      return f;
    };
    const double q = row[static_cast<std::size_t>(layout.find("q:hinge[0]"))];
    const Mat3 R = Eigen::AngleAxisd(q, Vec3::UnitY()).toRotationMatrix();
    const Vec6 child = wrench("load:", "hinge"), parent = wrench("load_parent:", "hinge");
    QVERIFY(std::abs(q) > 0.1);
    QVERIFY((parent.head<3>() - R * child.head<3>()).norm() < 1e-12 * (1.0 + child.norm()));
    QVERIFY((parent.tail<3>() - R * child.tail<3>()).norm() < 1e-12 * (1.0 + child.norm()));
    QCOMPARE(wrench("load_parent:", "support"), wrench("load:", "support"));
  }

  // A motion whose lists do not fit the joint (a file being edited) is an error of the
  // validator; the warnings, which the application computes for such a model too, pass it by.
  void warningsPassByAMotionThatDoesNotFit() {
    Model model = makeChain(2, JointType::Universal);
    Motion m;
    m.type = MotionType::Spline;
    m.knots = {{{0.0, 0.0}, {1.0, 0.5}}};  // one list for two coordinates
    model.bodies[0].joint.motion = m;
    model.bodies[0].joint.drive = Drive{};
    QVERIFY(!validate(model).empty());
    for (const Diagnostic& d : modelWarnings(model)) QVERIFY(d.path.find("motion") == std::string::npos);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, JointMotion(m, 2));
  }

  // q0 and v0 of a prescribed joint come from its motion; a different written q0 is a warning.
  void prescribedJointStartsOnItsMotion() {
    Model model = makeChain(2);
    model.bodies[0].joint.q0 = {0.3};
    Motion m;
    m.type = MotionType::Spline;
    m.knots = {{{0.0, -0.2}, {1.0, 0.4}, {2.0, 0.1}}};
    model.bodies[0].joint.motion = m;
    const std::vector<Diagnostic> warnings = modelWarnings(model);
    QCOMPARE(warnings.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(warnings[0].path), QString("bodies[0].joint.q0[0]"));
    QVERIFY(warnings[0].message.find("starts at position -0.2, not 0.3") != std::string::npos);
    Simulator sim(model, SimulatorOptions{});
    QCOMPARE(sim.q()[0], -0.2);
    QCOMPARE(sim.v()[0], JointMotion(m, 1).at(0, 0.0).qd);
  }

  // A table that is not where the model says (saved to another folder, moved) is a warning at its
  // field before any run: the path is relative to the model's folder.
  void missingTableFileIsAWarning() {
    QTemporaryDir dir;
    Model model = makeChain(1);
    model.sourceDirectory = dir.path().toStdString();
    model.bodies[0].joint.drive = Drive{};
    model.bodies[0].joint.motion.type = MotionType::Table;
    model.bodies[0].joint.motion.file = "motions/swing.csv";
    std::vector<Diagnostic> warnings = modelWarnings(model);
    QCOMPARE(warnings.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(warnings[0].path), QString("bodies[0].joint.motion.file"));
    QVERIFY2(
        warnings[0].message.find("motions/swing.csv (the path is relative to the model's folder)") != std::string::npos,
        warnings[0].message.c_str());
    QVERIFY(QDir(dir.path()).mkpath("motions"));
    std::ofstream(dir.filePath("motions/swing.csv").toStdString()) << "time,q:x[0]\n0,0\n1,1\n";
    QVERIFY(modelWarnings(model).empty());
  }

  // The motion: block: each mistake with its message, at its line and column.
  void motionBlockErrors_data() {
    QTest::addColumn<QString>("motion");
    QTest::addColumn<QString>("message");
    QTest::newRow("type")
        << "{type: splne, knots: [[0, 0], [1, 1]]}"
        << "unknown motion type 'splne'; expected one of: none, spline, rest_to_rest, sinusoid, table "
           "(did you mean 'spline'?)";
    QTest::newRow("key") << "{type: sinusoid, amplitude: 1, frequency: 1, knots: []}"
                         << "'knots' is not used by a sinusoid motion";
    QTest::newRow("one knot") << "{type: spline, knots: [[0, 0]]}"
                              << "a spline needs at least two [time, position] knots, got 1";
    QTest::newRow("times") << "{type: spline, knots: [[0, 0], [1, 1], [0.5, 2]]}"
                           << "knot times must increase strictly, got 0.5 after 1";
    QTest::newRow("backwards") << "{type: rest_to_rest, moves: [[1, 0.5, 0, 1]]}"
                               << "a move must end after it starts: t_b = 0.5 is not after t_a = 1";
    QTest::newRow("overlap") << "{type: rest_to_rest, moves: [[0, 1, 0, 1], [0.5, 2, 1, 0]]}"
                             << "moves must follow one another: this one starts at 0.5 s, before the previous one "
                                "ends (1 s)";
    QTest::newRow("jump") << "{type: rest_to_rest, moves: [[0, 1, 0, 1], [1, 2, 0.5, 0]]}"
                          << "a move starts where the previous one ended (1), got 0.5";
    QTest::newRow("move size") << "{type: rest_to_rest, moves: [[0, 1, 0]]}"
                               << "expected a list of 4 numbers";
    QTest::newRow("table file") << "{type: table, cutoff: 5}"
                                << "missing required key 'file'";
    QTest::newRow("cutoff") << "{type: table, file: a.csv, cutoff: -1}"
                            << "must be ≥ 0, got -1";
    QTest::newRow("and drive")
        << "{type: sinusoid, amplitude: 1, frequency: 1}\n      drive: {type: constant, value: 1}"
        << "a joint follows either a motion or a drive";
  }
  void motionBlockErrors() {
    QFETCH(QString, motion);
    QFETCH(QString, message);
    const std::string text =
        "kinetree: 1\nbodies:\n  - name: link\n    parent: world\n    joint:\n      type: revolute\n      motion: " +
        motion.toStdString() + "\n    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    try {
      loadModelFromString(text, "m.yaml");
      QFAIL("loaded");
    } catch (const ModelLoadError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find(message.toStdString()) != std::string::npos, e.what());
      QVERIFY2(what.rfind("m.yaml:7:", 0) == 0, e.what());
    }
  }

  // A free or spherical joint cannot follow a motion: the validator says which joints can.
  void freeJointRefusesAMotion() {
    const std::string text =
        "kinetree: 1\nbodies:\n  - name: base\n    parent: world\n    joint:\n      type: free\n      motion: {type: "
        "sinusoid, "
        "amplitude: 1, frequency: 1}\n    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    try {
      loadModelFromString(text, "m.yaml");
      QFAIL("loaded");
    } catch (const ModelLoadError& e) {
      QVERIFY2(std::string(e.what()).find("a free joint cannot follow a prescribed motion") != std::string::npos,
               e.what());
    }
  }

  // Tables: each problem with its file, line and column.
  void tableErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("header") << "t,q:J[0]\n0,0\n1,1\n"
                            << "t.csv:1:1: error: expected a header row starting with the column 'time'";
    QTest::newRow("semicolons") << "time;q:J[0]\n0;0\n1;1\n"
                                << "t.csv:1:1: error: the fields are separated by ';'; expected commas";
    QTest::newRow("nan") << "time,q:J[0]\n0,0\n1,nan\n"
                         << "t.csv:3:3: error: expected a finite number in column 'q:J[0]', got 'nan'";
    QTest::newRow("text") << "time,q:J[0]\n0,0\n1,abc\n"
                          << "t.csv:3:3: error: expected a finite number in column 'q:J[0]', got 'abc'";
    QTest::newRow("order") << "time,q:J[0]\n0,0\n1,1\n1,2\n"
                           << "t.csv:4:1: error: the times must increase: t = 1 s follows t = 1 s";
    QTest::newRow("few") << "time,q:J[0]\n0,0\n"
                         << "t.csv:2:1: error: too few samples: 1 row(s)";
    QTest::newRow("fields") << "time,q:J[0]\n0,0,5\n"
                            << "t.csv:2:5: error: the row has 3 fields, the header 2";
    QTest::newRow("twice") << "time,q:J[0],q:J[0]\n0,0,0\n"
                           << "t.csv:1:13: error: the column 'q:J[0]' appears twice";
    QTest::newRow("quote") << "time,\"q:J[0]\n0,0\n"
                           << "t.csv:1:6: error: a quoted field is not closed";
    QTest::newRow("empty") << ""
                           << "t.csv:1:1: error: the file is empty";
  }
  void tableErrors() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
      parseMotionTable(text.toStdString(), "t.csv");
      QFAIL("parsed");
    } catch (const TableError& e) {
      QVERIFY2(std::string(e.what()).rfind(message.toStdString(), 0) == 0, e.what());
    }
  }

  // A table read as Export Results writes it: quoted names, units, degrees converted, blank lines
  // and a byte-order mark tolerated.
  void tableReadsAnExport() {
    const MotionTable t = parseMotionTable(
        "\xEF\xBB\xBFtime,\"q:J,1[0] (deg)\",q:K[0] (m),qd:J[0] (deg/s)\r\n0,90,1,0\r\n\r\n0.5,45,2,3\r\n", "t.csv");
    QCOMPARE(t.time, (std::vector<double>{0.0, 0.5}));
    const MotionTable::Column* j = t.find("q:J,1[0]");
    QVERIFY(j && j->degrees);
    QCOMPARE(j->values[0], std::numbers::pi / 2);
    QCOMPARE(t.find("q:K[0]")->values[1], 2.0);
    QVERIFY(!t.find("q:K[0]")->degrees);
    QCOMPARE(t.rowLines, (std::vector<int>{2, 4}));
  }

  // A table applied to a model (kinetree-cli --motion, File ▸ Import Motion): the joints it
  // names, columns that name none, joints that cannot follow a motion, coordinates out of range.
  void applyingATableToAModel() {
    Model model = makeChain(2);
    model.bodies[0].joint.drive.type = DriveType::Constant;
    model.bodies[0].joint.drive.value = {1.0};
    const std::string j0 = model.bodies[0].joint.name, j1 = model.bodies[1].joint.name;
    const MotionTable good =
        parseMotionTable("time,q:" + j0 + "[0],qd:" + j0 + "[0],load:" + j1 + ".fx\n0,0,0,0\n1,1,1,1\n", "t.csv");
    MotionTableMatch match = applyMotionTable(model, good, "/data/t.csv", 5.0);
    QCOMPARE(match.joints, std::vector<std::string>{j0});
    QVERIFY(match.unmatched.empty() && match.problems.empty());
    QCOMPARE(model.bodies[0].joint.motion.type, MotionType::Table);
    QCOMPARE(model.bodies[0].joint.motion.file, std::string("/data/t.csv"));
    QCOMPARE(model.bodies[0].joint.motion.cutoff, 5.0);
    QCOMPARE(model.bodies[0].joint.drive.type, DriveType::None);  // a motion replaces the drive
    QCOMPARE(model.bodies[1].joint.motion.type, MotionType::None);

    Model other = makeChain(2);
    const Model before = other;
    const MotionTable bad =
        parseMotionTable("time,q:" + j0 + "[0],q:" + j0 + "_x[0],q:" + j1 + "[1]\n0,0,0,0\n1,1,1,1\n", "t.csv");
    match = applyMotionTable(other, bad, "t.csv", 0.0);
    QCOMPARE(match.unmatched.size(), std::size_t{1});
    QVERIFY(match.unmatched[0].message.find("names no joint of the model (did you mean '" + j0 + "'?)") !=
            std::string::npos);
    QCOMPARE(match.unmatched[0].column, static_cast<int>(("time,q:" + j0 + "[0],").size()) + 1);
    QCOMPARE(match.problems.size(), std::size_t{1});
    QVERIFY(match.problems[0].message.find("has 1 coordinate") != std::string::npos);
    QVERIFY(other == before);  // nothing changed
  }

  // A table too short for the run, or one that starts late, is refused before anything runs; a
  // missing coordinate column names what the file has.
  void tableCoverageIsChecked() {
    QTemporaryDir dir;
    Model model = makeChain(1);
    const std::string j = model.bodies[0].joint.name;
    const auto write = [&](const char* name, const std::string& text) {
      const std::string path = dir.filePath(name).toStdString();
      std::ofstream(path) << text;
      return path;
    };
    model.bodies[0].joint.drive = Drive{};
    model.bodies[0].joint.motion.type = MotionType::Table;
    model.bodies[0].joint.motion.file = write("short.csv", "time,q:" + j + "[0]\n0,0\n0.5,1\n1,0\n");
    Simulator sim(model, SimulatorOptions{});
    QCOMPARE(sim.tableEnd(), 1.0);
    QVERIFY(sim.tableEndMessage().find("ends at t = 1 s") != std::string::npos ||
            sim.tableEndMessage().find("end at t = 1 s") != std::string::npos);
    model.bodies[0].joint.motion.file = write("late.csv", "time,q:" + j + "[0]\n0.5,0\n1,1\n");
    try {
      Simulator late(model, SimulatorOptions{});
      QFAIL("ran");
    } catch (const TableError& e) {
      QVERIFY2(std::string(e.what()).find("late.csv:2:1: error: the samples start at t = 0.5 s") != std::string::npos,
               e.what());
    }
    model.bodies[0].joint.motion.file = write("other.csv", "time,q:nothing[0]\n0,0\n1,1\n");
    try {
      Simulator missing(model, SimulatorOptions{});
      QFAIL("ran");
    } catch (const TableError& e) {
      QVERIFY2(std::string(e.what()).find("no column 'q:" + j + "[0]'") != std::string::npos, e.what());
    }
    // a misspelt column (a3 written a33) among the model's other joints: the hint names the column
    // no joint of the model owns, at its place in the header, not the model's joint a1 or a2
    {
      Model three = makeChain(3);
      const std::string a = three.bodies[0].joint.name, b = three.bodies[1].joint.name, c = three.bodies[2].joint.name;
      three.bodies[2].joint.drive = Drive{};
      three.bodies[2].joint.motion.type = MotionType::Table;
      const std::string header = "time,q:" + a + "[0],q:" + b + "[0],";
      three.bodies[2].joint.motion.file = write("misspelt.csv", header + "q:" + c + "3[0]\n0,0,0,0\n1,1,1,1\n");
      Tree tree;
      std::vector<Diagnostic> problems;
      QVERIFY(finalize(three, tree, problems));
      QVERIFY(readsTables(three));
      const std::vector<Diagnostic> found = checkRunTables(three, tree);
      QCOMPARE(found.size(), std::size_t{1});
      QVERIFY2(found[0].message.find("was the joint '" + c + "3' renamed?") != std::string::npos,
               found[0].message.c_str());
      QCOMPARE(found[0].line, 1);
      QCOMPARE(found[0].column, static_cast<int>(header.size()) + 1);
      QVERIFY(checkRunTables(makeChain(3), tree).empty());  // no tables: nothing read
    }
    // a joint of two coordinates with one column: at the column it has
    {
      Model universal = makeChain(1, JointType::Universal);
      const std::string u = universal.bodies[0].joint.name;
      universal.bodies[0].joint.drive = Drive{};
      universal.bodies[0].joint.motion.type = MotionType::Table;
      universal.bodies[0].joint.motion.file = write("half.csv", "time,q:" + u + "[0]\n0,0\n1,1\n");
      Tree tree;
      std::vector<Diagnostic> problems;
      QVERIFY(finalize(universal, tree, problems));
      const std::vector<Diagnostic> found = checkRunTables(universal, tree);
      QCOMPARE(found.size(), std::size_t{1});
      QVERIFY2(found[0].message.find("no column 'q:" + u + "[1]'") != std::string::npos, found[0].message.c_str());
      QCOMPARE(found[0].column, 6);
    }
    model.bodies[0].joint.motion.file = write("deg.csv", "time,q:" + j + "[0] (deg)\n0,0\n1,90\n");
    Simulator degrees(model, SimulatorOptions{});
    QVERIFY(degrees.advanceTo(1.0));
    QVERIFY(std::abs(degrees.q()[0] - std::numbers::pi / 2) < 1e-12);
    // degrees as the application labels them
    model.bodies[0].joint.motion.file = write("sign.csv", "time,q:" + j + "[0] (°)\n0,0\n1,90\n");
    Simulator sign(model, SimulatorOptions{});
    QVERIFY(sign.advanceTo(1.0));
    QCOMPARE(sign.q()[0], degrees.q()[0]);
  }
};

QTEST_GUILESS_MAIN(TestPrescribedMotion)
#include "test_prescribed_motion.moc"
