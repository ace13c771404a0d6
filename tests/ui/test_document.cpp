// SPDX-License-Identifier: BSD-3-Clause
// The editor's document layer: undo commands (do → undo → redo give byte-identical YAML), the
// body tree item model under a long random session (QAbstractItemModelTester), drag and drop,
// merging and the clean state, refusals, the problems list, atomic saving and crash recovery.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QMimeData>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <functional>
#include <random>
#include <regex>

#include "core/io/atomic_file.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "core/model/generators.hpp"
#include "core/sim/simulator.hpp"
#include "support/files.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/document/recovery.hpp"

using namespace kt;
using namespace kt::ui;

namespace {

std::string yamlOf(const Document& d) { return saveModelToString(d.model()); }

using kt::test::readAll;

// Every item of the tree model is a body whose parent item is its parent body, children in
// model order, and every body appears exactly once.
void checkTreeMatchesModel(Document& doc) {
  BodyTreeModel* tree = doc.bodyTree();
  const Model& m = doc.model();
  std::vector<int> seen(m.bodies.size(), 0);
  std::function<void(const QModelIndex&, const std::string&)> walk = [&](const QModelIndex& parent,
                                                                         const std::string& parentName) {
    int last = -1;
    for (int r = 0; r < tree->rowCount(parent); ++r) {
      const QModelIndex i = tree->index(r, 0, parent);
      const int k = tree->bodyOf(i);
      QVERIFY(k >= 0);
      QVERIFY(k > last);
      last = k;
      ++seen[k];
      QCOMPARE(m.bodies[k].parent, parentName);
      QCOMPARE(tree->data(i).toString().toStdString(), m.bodies[k].name);
      QCOMPARE(tree->indexOfBody(k), i);
      walk(i, m.bodies[k].name);
    }
  };
  walk({}, "world");
  for (int s : seen) QCOMPARE(s, 1);
}

// A small two-arm robot with every kind of field filled in.
Model fixture() {
  Model m;
  m.name = "fixture";
  PrismBaseTemplate base;
  insertPrismBase(m, "world", base);
  ArmTemplate arm;
  arm.links.assign(3, ArmLink{});
  arm.prefix = "left_";
  arm.base.xyz = Vec3(0.0, 0.5, 0.0);
  insertArm(m, "base", arm);
  m.bodies[2].joint.drive.type = DriveType::PdSinusoid;
  m.bodies[2].joint.drive.kp = 10;
  m.bodies[2].joint.drive.kd = 1;
  m.bodies[2].joint.drive.amplitude = {0.5};
  m.bodies[2].joint.drive.frequency = {0.2};
  m.bodies[2].joint.drive.phase = {0.0};
  m.bodies[2].joint.drive.offset = {0.1};
  m.bodies[3].joint.limits = {{-1.0, 1.0}};
  addBody(m, "left_3", JointType::Universal, "wrist");
  m.bodies[4].inertial.fromShapes = true;
  m.bodies[4].inertial.density = 500.0;
  return m;
}

int body(const Document& d, const char* name) { return d.model().findBody(name); }

// Equal up to number formatting: the same text between numbers, numbers equal within `tol`
// (relative to max(1, |x|)). Sets `why` to the first difference.
bool sameWithinFloat(const std::string& a, const std::string& b, double tol, std::string& why) {
  static const std::regex number(R"(-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)");
  std::sregex_iterator ia(a.begin(), a.end(), number), ib(b.begin(), b.end(), number), end;
  std::size_t pa = 0, pb = 0;
  for (; ia != end && ib != end; ++ia, ++ib) {
    const std::string ta = a.substr(pa, ia->position() - pa), tb = b.substr(pb, ib->position() - pb);
    if (ta != tb) {
      why = "text differs: '" + ta + "' vs '" + tb + "'";
      return false;
    }
    const double x = std::stod(ia->str()), y = std::stod(ib->str());
    if (std::abs(x - y) > tol * std::max(1.0, std::abs(x))) {
      why = "number differs after '" + a.substr(ia->position() > 60 ? ia->position() - 60 : 0, 60) + "': " + ia->str() +
            " vs " + ib->str();
      return false;
    }
    pa = ia->position() + ia->length();
    pb = ib->position() + ib->length();
  }
  if (ia != end || ib != end || a.substr(pa) != b.substr(pb)) {
    why = "different number of values or trailing text";
    return false;
  }
  return true;
}

}  // namespace

class TestDocument : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(validate(fixture()).empty());
  }

  void cleanup() { kt::setWriteFailureForTesting(0); }

  void everyCommandUndoesExactly_data() {
    using Make = std::function<QUndoCommand*(Document&, QString*)>;
    QTest::addColumn<Make>("make");
    auto row = [](const char* name, Make make) { QTest::newRow(name) << make; };
    row("add body", [](Document& d, QString* e) { return edit::addBody(d, "left_2", JointType::Prismatic, {}, e); });
    row("add prepared body", [](Document& d, QString* e) {
      return edit::addBody(d, defaultBody("extra", "base", JointType::Spherical), e);
    });
    row("delete body", [](Document& d, QString* e) { return edit::deleteBody(d, body(d, "left_2"), e); });
    row("delete subtree", [](Document& d, QString* e) { return edit::deleteSubtree(d, body(d, "left_1"), e); });
    row("reparent", [](Document& d, QString* e) { return edit::reparent(d, body(d, "left_3"), "base", false, e); });
    row("reparent keeping pose",
        [](Document& d, QString* e) { return edit::reparent(d, body(d, "wrist"), "world", true, e); });
    row("duplicate", [](Document& d, QString* e) { return edit::duplicateSubtree(d, body(d, "left_1"), "_copy", e); });
    row("mirror copy", [](Document& d, QString* e) {
      MirrorOptions o;
      o.renames = {{"left", "right"}};
      return edit::mirrorSubtree(d, body(d, "left_1"), o, e);
    });
    row("mirror in place", [](Document& d, QString* e) {
      MirrorOptions o;
      o.copy = false;
      o.plane = MirrorPlane::YZ;
      return edit::mirrorSubtree(d, body(d, "left_2"), o, e);
    });
    row("rename body", [](Document& d, QString* e) { return edit::renameBody(d, body(d, "left_2"), "elbow", e); });
    row("rename joint", [](Document& d, QString* e) { return edit::renameJoint(d, body(d, "left_2"), "j_elbow", e); });
    row("insert arm", [](Document& d, QString* e) { return edit::insertArm(d, "base", ArmTemplate{}, e); });
    row("insert chain", [](Document& d, QString* e) { return edit::insertChain(d, "wrist", ChainTemplate{}, e); });
    row("insert prism base",
        [](Document& d, QString* e) { return edit::insertPrismBase(d, "world", PrismBaseTemplate{}, e); });
    row("joint type",
        [](Document& d, QString* e) { return edit::setJointType(d, body(d, "left_2"), JointType::Spherical, e); });
    row("joint origin", [](Document& d, QString* e) {
      Placement p;
      p.xyz = Vec3(0.1, 0.2, 0.3);
      p.rpy = Vec3(0.5, -0.25, 1.0);
      return edit::setJointOrigin(d, body(d, "left_3"), p, e);
    });
    row("joint axis",
        [](Document& d, QString* e) { return edit::setJointAxis(d, body(d, "left_1"), Vec3(1, 0, 0), e); });
    row("joint axis2",
        [](Document& d, QString* e) { return edit::setJointAxis2(d, body(d, "wrist"), Vec3(1, 0, 0), e); });
    row("q0", [](Document& d, QString* e) { return edit::setInitialPosition(d, body(d, "left_1"), {0.3}, e); });
    row("v0", [](Document& d, QString* e) { return edit::setInitialVelocity(d, body(d, "wrist"), {0.1, -0.2}, e); });
    row("limits", [](Document& d, QString* e) {
      return edit::setLimits(d, body(d, "wrist"), {{-0.5, 0.5}, {-1.0, 2.0}}, e);
    });
    row("drive", [](Document& d, QString* e) {
      Drive dr;
      dr.type = DriveType::SpringDamper;
      dr.stiffness = {5.0};
      dr.damping = {0.5};
      dr.restPosition = {0.2};
      return edit::setDrive(d, body(d, "left_1"), dr, e);
    });
    row("inertial", [](Document& d, QString* e) {
      Inertial in;
      in.mass = 3.0;
      in.com = Vec3(0.0, 0.0, 0.2);
      in.inertia = Mat3(Vec3(0.2, 0.3, 0.4).asDiagonal());
      return edit::setInertial(d, body(d, "left_1"), in, e);
    });
    row("mass", [](Document& d, QString* e) { return edit::setMass(d, body(d, "left_1"), 2.5, e); });
    row("com",
        [](Document& d, QString* e) { return edit::setCenterOfMass(d, body(d, "left_1"), Vec3(0.01, 0, 0.2), e); });
    row("inertia", [](Document& d, QString* e) {
      Mat3 I = Mat3(Vec3(0.05, 0.05, 0.01).asDiagonal());
      I(0, 1) = I(1, 0) = 0.001;
      return edit::setInertiaTensor(d, body(d, "left_2"), I, e);
    });
    row("from shapes", [](Document& d, QString* e) { return edit::setFromShapes(d, body(d, "left_3"), true, e); });
    row("density", [](Document& d, QString* e) { return edit::setDensity(d, body(d, "wrist"), 2700.0, e); });
    row("compute from shapes",
        [](Document& d, QString* e) { return edit::computeInertialFromShapes(d, body(d, "left_2"), 2700.0, e); });
    row("add shape", [](Document& d, QString* e) {
      Shape s;
      s.type = ShapeType::Sphere;
      s.radius = 0.07;
      s.color = Eigen::Vector4d(1.0, 0.2, 0.2, 1.0);
      return edit::addShape(d, body(d, "left_3"), s, e);
    });
    row("remove shape", [](Document& d, QString* e) { return edit::removeShape(d, body(d, "left_3"), 0, e); });
    row("edit shape", [](Document& d, QString* e) {
      Shape s = d.model().bodies[body(d, "base")].shapes[0];
      s.sides = 8;
      s.color = Eigen::Vector4d(0.1, 0.2, 0.9, 0.5);
      return edit::setShape(d, body(d, "base"), 0, s, e);
    });
    row("applied wrench", [](Document& d, QString* e) {
      Vec6 w;
      w << 0.1, 0, 0, 0, 0, -2;
      return edit::setAppliedWrench(d, body(d, "base"), w, e);
    });
    row("model name", [](Document& d, QString* e) { return edit::setModelName(d, "renamed robot", e); });
    row("description", [](Document& d, QString* e) { return edit::setDescription(d, "two arms\nand a base", e); });
    row("gravity", [](Document& d, QString* e) { return edit::setGravity(d, Vec3(0, 0, 0), e); });
    row("simulation", [](Document& d, QString* e) {
      SimulationSettings s;
      s.solver = "crba";
      s.integrator = "dopri5";
      s.step = 0.01;
      s.duration = 3.0;
      s.tolerance = 1e-6;
      return edit::setSimulation(d, s, e);
    });
  }

  void everyCommandUndoesExactly() {
    using Make = std::function<QUndoCommand*(Document&, QString*)>;
    QFETCH(Make, make);
    Document doc;
    doc.setModel(fixture());
    QAbstractItemModelTester tester(doc.bodyTree(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::string before = yamlOf(doc);
    QString error;
    QUndoCommand* command = make(doc, &error);
    QVERIFY2(command, qPrintable(error));
    QVERIFY(!doc.isModified());
    doc.push(command);
    QVERIFY(doc.isModified());
    const std::string after = yamlOf(doc);
    QVERIFY(after != before);
    QVERIFY2(doc.problems()->isEmpty(), formatDiagnostics(doc.problems()->diagnostics()).c_str());
    checkTreeMatchesModel(doc);
    // The saved text reads back as the same model.
    QCOMPARE(saveModelToString(loadModelFromString(after)), after);
    doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);
    QVERIFY(!doc.isModified());
    checkTreeMatchesModel(doc);
    doc.undoStack()->redo();
    QCOMPARE(yamlOf(doc), after);
    checkTreeMatchesModel(doc);
    doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);
  }

  // ≥ 100 random edits (every kind), random undo/redo in between, the item model checked by
  // QAbstractItemModelTester throughout; every edit undoes and redoes byte-exactly.
  void randomSessionKeepsTreeModelConsistent_data() {
    QTest::addColumn<quint64>("seed");
    QTest::newRow("seed 11") << quint64(11);
    QTest::newRow("seed 2024") << quint64(2024);
  }

  void randomSessionKeepsTreeModelConsistent() {
    QFETCH(quint64, seed);
    Document doc;
    RandomTreeOptions opt;
    opt.maxBodies = 10;
    doc.setModel(makeRandomTree(seed, opt));
    QAbstractItemModelTester tester(doc.bodyTree(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const std::string initial = yamlOf(doc);
    SplitMix64 rng(seed * 7919 + 1);
    const auto n = [&] { return int(doc.model().bodies.size()); };
    const auto anyBody = [&] { return n() ? rng.uniformInt(0, n() - 1) : -1; };
    const auto anyParent = [&]() -> QString {
      const int k = rng.uniformInt(-1, n() - 1);
      return k < 0 ? QStringLiteral("world") : QString::fromStdString(doc.model().bodies[k].name);
    };
    // A persistent index on one body must follow it through every edit that keeps it.
    int edits = 0, refused = 0, undos = 0;
    for (int step = 0; edits < 120 && step < 2000; ++step) {
      const int op = rng.uniformInt(0, 17);
      if (op >= 16) {  // undo or redo a few steps
        const int k = rng.uniformInt(1, 3);
        for (int i = 0; i < k; ++i) op == 16 ? doc.undoStack()->undo() : doc.undoStack()->redo();
        ++undos;
        checkTreeMatchesModel(doc);
        if (QTest::currentTestFailed()) return;
        continue;
      }
      const std::string before = yamlOf(doc);
      QString error;
      QUndoCommand* c = nullptr;
      const int b = anyBody();
      switch (op) {
        case 0: c = edit::addBody(doc, anyParent(), kAllJointTypes[rng.uniformInt(0, 7)], {}, &error); break;
        case 1: c = n() > 2 ? edit::deleteBody(doc, b, &error) : nullptr; break;
        case 2: c = n() > 4 ? edit::deleteSubtree(doc, b, &error) : nullptr; break;
        case 3: c = edit::reparent(doc, b, anyParent(), rng.uniformInt(0, 1) == 1, &error); break;
        case 4: c = n() < 30 ? edit::duplicateSubtree(doc, b, QStringLiteral("_copy"), &error) : nullptr; break;
        case 5: {
          MirrorOptions o;
          o.plane = MirrorPlane(rng.uniformInt(0, 2));
          o.copy = n() < 30 && rng.uniformInt(0, 1) == 1;
          c = edit::mirrorSubtree(doc, b, o, &error);
          break;
        }
        case 6:
          c = edit::renameBody(doc, b,
                               rng.uniformInt(0, 3) == 0 && n() > 0
                                   ? QString::fromStdString(doc.model().bodies[anyBody()].name)
                                   : QStringLiteral("part_%1").arg(step),
                               &error);
          break;
        case 7: c = edit::renameJoint(doc, b, QStringLiteral("j_%1").arg(step), &error); break;
        case 8: {
          ArmTemplate t;
          t.links.assign(static_cast<std::size_t>(rng.uniformInt(1, 3)), ArmLink{});
          c = n() < 30 ? edit::insertArm(doc, anyParent(), t, &error) : nullptr;
          break;
        }
        case 9: {
          Placement p;
          p.xyz = Vec3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
          p.rpy = Vec3(rng.uniform(-3, 3), rng.uniform(-1.5, 1.5), rng.uniform(-3, 3));
          c = edit::setJointOrigin(doc, b, p, &error);
          break;
        }
        case 10: c = edit::setMass(doc, b, rng.uniform(-1.0, 5.0), &error); break;
        case 11: c = edit::setJointType(doc, b, kAllJointTypes[rng.uniformInt(0, 7)], &error); break;
        case 12: {
          Shape s;
          s.type = ShapeType::Capsule;
          s.radius = rng.uniform(0.01, 0.2);
          c = rng.uniformInt(0, 1) ? edit::addShape(doc, b, s, &error) : edit::removeShape(doc, b, 0, &error);
          break;
        }
        case 13: c = edit::setGravity(doc, Vec3(0, 0, -rng.uniform(0, 20)), &error); break;
        case 14: {  // drag and drop in the tree
          const int target = rng.uniformInt(-1, n() - 1);
          BodyTreeModel* tree = doc.bodyTree();
          std::unique_ptr<QMimeData> data(tree->mimeData({tree->indexOfBody(b)}));
          const QModelIndex parent = tree->indexOfBody(target);
          const bool can = tree->canDropMimeData(data.get(), Qt::MoveAction, -1, 0, parent);
          const bool cycle = target >= 0 && isInSubtree(doc.model(), target, b);
          if (cycle) QVERIFY(!can);
          const int index = doc.undoStack()->index();
          QCOMPARE(tree->dropMimeData(data.get(), Qt::MoveAction, -1, 0, parent), can);
          if (can) {
            QCOMPARE(doc.undoStack()->index(), index + 1);
            QCOMPARE(doc.undoStack()->count(), index + 1);
            const std::string after = yamlOf(doc);
            doc.undoStack()->undo();
            QCOMPARE(yamlOf(doc), before);
            doc.undoStack()->redo();
            QCOMPARE(yamlOf(doc), after);
            ++edits;
          } else {
            QCOMPARE(yamlOf(doc), before);
            ++refused;
          }
          checkTreeMatchesModel(doc);
          continue;
        }
        case 15: {
          ChainTemplate t;
          t.bodies = rng.uniformInt(1, 3);
          t.joint = kAllJointTypes[rng.uniformInt(0, 7)];
          c = n() < 30 ? edit::insertChain(doc, anyParent(), t, &error) : nullptr;
          break;
        }
      }
      if (!c) {
        QCOMPARE(yamlOf(doc), before);  // a refused edit changes nothing
        ++refused;
        continue;
      }
      const int index = doc.undoStack()->index();
      doc.push(c);
      const std::string after = yamlOf(doc);
      checkTreeMatchesModel(doc);
      if (QTest::currentTestFailed()) return;
      if (doc.undoStack()->index() == index + 1) {  // not merged into the previous step
        doc.undoStack()->undo();
        QCOMPARE(yamlOf(doc), before);
        checkTreeMatchesModel(doc);
        doc.undoStack()->redo();
        QCOMPARE(yamlOf(doc), after);
      }
      ++edits;
    }
    QVERIFY(edits >= 100);
    QVERIFY(refused > 0);
    QVERIFY(undos > 0);
    qInfo("%d edits, %d refused, %d undo/redo runs, %d bodies at the end", edits, refused, undos, n());
    doc.undoStack()->setIndex(doc.undoStack()->count());
    const std::string last = yamlOf(doc);
    doc.undoStack()->setIndex(0);
    QCOMPARE(yamlOf(doc), initial);
    checkTreeMatchesModel(doc);
    doc.undoStack()->setIndex(doc.undoStack()->count());
    QCOMPARE(yamlOf(doc), last);
    checkTreeMatchesModel(doc);
  }

  // Bodies of a parent cycle (an invalid model, opened to be fixed): in body order, a body whose
  // ancestors never reach the world shows at the top level, which breaks each cycle at one body
  // and keeps the rest. Against that rule written out directly (O(n · depth)) on random parent
  // links with cycles, and a 20,000-body chain shows as one chain (an O(n²) walk took seconds).
  void parentCyclesShowAtTheTopLevel() {
    const auto expected = [](std::vector<int> parent) {
      const std::size_t n = parent.size();
      for (std::size_t k = 0; k < n; ++k) {
        int a = parent[k];
        for (std::size_t steps = 0; a >= 0 && steps <= n; ++steps) a = parent[static_cast<std::size_t>(a)];
        if (a >= 0) parent[k] = -1;
      }
      return parent;
    };
    const auto shown = [](Document& doc) {
      const BodyTreeModel* tree = doc.bodyTree();
      std::vector<int> parent;
      for (int b = 0; b < static_cast<int>(doc.model().bodies.size()); ++b)
        parent.push_back(tree->bodyOf(tree->parent(tree->indexOfBody(b))));
      return parent;
    };
    const auto modelOf = [](const std::vector<int>& parent) {
      kt::Model m;
      for (std::size_t k = 0; k < parent.size(); ++k) {
        kt::BodySpec b;
        b.name = "b" + std::to_string(k);
        b.parent = parent[k] < 0 ? std::string("world") : "b" + std::to_string(parent[k]);
        m.bodies.push_back(b);
      }
      return m;
    };
    std::mt19937 rng(7);
    for (int trial = 0; trial < 300; ++trial) {
      const int n = 1 + static_cast<int>(rng() % 12);
      std::vector<int> parent(static_cast<std::size_t>(n));
      for (int& p : parent) p = static_cast<int>(rng() % static_cast<unsigned>(n + 1)) - 1;
      for (std::size_t k = 0; k < parent.size(); ++k)
        if (parent[k] == static_cast<int>(k)) parent[k] = -1;  // a self-parent is refused by name
      Document doc;
      doc.setModel(modelOf(parent));
      QCOMPARE(shown(doc), expected(parent));
    }
    std::vector<int> chain(20000);
    for (std::size_t k = 0; k < chain.size(); ++k) chain[k] = static_cast<int>(k) - 1;
    Document doc;
    doc.setModel(modelOf(chain));
    QCOMPARE(shown(doc), chain);
  }

  void persistentIndexesFollowTheirBody() {
    Document doc;
    doc.setModel(fixture());
    QAbstractItemModelTester tester(doc.bodyTree(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    BodyTreeModel* tree = doc.bodyTree();
    const QPersistentModelIndex wrist(tree->indexOfBody(body(doc, "wrist")));
    QVERIFY(edit::apply(doc, edit::deleteBody(doc, body(doc, "left_1"))));
    QVERIFY(edit::apply(doc, edit::reparent(doc, body(doc, "left_3"), "world")));
    QVERIFY(edit::apply(doc, edit::renameBody(doc, body(doc, "wrist"), "hand")));
    QVERIFY(edit::apply(doc, edit::insertArm(doc, "hand", ArmTemplate{})));
    QVERIFY(wrist.isValid());
    QCOMPARE(wrist.data().toString(), QStringLiteral("hand"));
    QCOMPARE(tree->bodyOf(wrist), body(doc, "hand"));
    doc.undoStack()->setIndex(0);
    QCOMPARE(wrist.data().toString(), QStringLiteral("wrist"));
    QVERIFY(edit::apply(doc, edit::deleteSubtree(doc, body(doc, "left_3"))));
    QVERIFY(!wrist.isValid());
  }

  void renameThroughTheTreeModel() {
    Document doc;
    doc.setModel(fixture());
    BodyTreeModel* tree = doc.bodyTree();
    QSignalSpy refused(tree, &BodyTreeModel::editRefused);
    const QModelIndex i = tree->indexOfBody(body(doc, "left_2"));
    QVERIFY(!tree->setData(i, QStringLiteral("left_3")));
    QCOMPARE(refused.count(), 1);
    QVERIFY(!tree->setData(i, QStringLiteral("world")));
    QVERIFY(!tree->setData(i, QStringLiteral("two words")));
    QVERIFY(tree->setData(i, QStringLiteral("elbow")));
    QCOMPARE(doc.model().bodies[body(doc, "left_3")].parent, std::string("elbow"));
    QCOMPARE(doc.undoStack()->count(), 1);
  }

  void dropRefusesCycles() {
    Document doc;
    doc.setModel(fixture());
    BodyTreeModel* tree = doc.bodyTree();
    std::unique_ptr<QMimeData> data(tree->mimeData({tree->indexOfBody(body(doc, "left_1"))}));
    QVERIFY(!tree->canDropMimeData(data.get(), Qt::MoveAction, -1, 0, tree->indexOfBody(body(doc, "wrist"))));
    QVERIFY(!tree->dropMimeData(data.get(), Qt::MoveAction, -1, 0, tree->indexOfBody(body(doc, "wrist"))));
    QVERIFY(!tree->dropMimeData(data.get(), Qt::MoveAction, -1, 0, tree->indexOfBody(body(doc, "left_1"))));
    QVERIFY(!tree->dropMimeData(data.get(), Qt::MoveAction, -1, 0, tree->indexOfBody(body(doc, "base"))));
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(tree->dropMimeData(data.get(), Qt::MoveAction, -1, 0, QModelIndex()));
    QCOMPARE(doc.model().bodies[body(doc, "left_1")].parent, std::string("world"));
    // Mime data from another document is refused.
    Document other;
    other.setModel(fixture());
    QVERIFY(!other.bodyTree()->canDropMimeData(data.get(), Qt::MoveAction, -1, 0, QModelIndex()));
    QVERIFY(!tree->removeRows(0, 1, QModelIndex()));
  }

  void consecutiveFieldEditsMerge() {
    Document doc;
    doc.setModel(fixture());
    const int b = body(doc, "left_1");
    const std::string start = yamlOf(doc);
    for (double m : {1.5, 2.0, 2.5, 3.0}) QVERIFY(edit::apply(doc, edit::setMass(doc, b, m)));
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(edit::apply(doc, edit::setMass(doc, body(doc, "left_2"), 4.0)));  // other body: new step
    QCOMPARE(doc.undoStack()->count(), 2);
    QVERIFY(edit::apply(doc, edit::setCenterOfMass(doc, b, Vec3(0, 0, 0.1))));  // other field: new step
    QCOMPARE(doc.undoStack()->count(), 3);
    doc.undoStack()->setIndex(0);
    QCOMPARE(yamlOf(doc), start);

    // A merge back to the original value leaves no step.
    Document d2;
    d2.setModel(fixture());
    const double m0 = d2.model().bodies[b].inertial.mass;
    QVERIFY(edit::apply(d2, edit::setMass(d2, b, 7.0)));
    QVERIFY(edit::apply(d2, edit::setMass(d2, b, m0)));
    QCOMPARE(d2.undoStack()->count(), 0);
    QVERIFY(!d2.isModified());
  }

  void undoAfterSaveMarksModified() {
    QTemporaryDir dir;
    Document doc;
    doc.setModel(fixture());
    QSignalSpy modified(&doc, &Document::modifiedChanged);
    const int b = body(doc, "left_1");
    QVERIFY(edit::apply(doc, edit::setMass(doc, b, 2.0)));
    QVERIFY(doc.isModified());
    QVERIFY(doc.title().endsWith(QLatin1Char('*')));
    QString error;
    QVERIFY2(doc.saveAs(dir.filePath("robot.yaml"), &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.title(), QStringLiteral("robot.yaml"));
    // The edit after the save does not merge into the saved step.
    QVERIFY(edit::apply(doc, edit::setMass(doc, b, 3.0)));
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    QVERIFY(!doc.isModified());
    doc.undoStack()->undo();
    QVERIFY(doc.isModified());
    QVERIFY(modified.count() >= 4);
    doc.undoStack()->redo();
    QVERIFY(!doc.isModified());
    QCOMPARE(readAll(dir.filePath("robot.yaml")).toStdString(), yamlOf(doc));
  }

  // Save As into another folder keeps every file the model names: a mesh and a motion table by
  // relative path lead to the same files from there; a path that leads nowhere stays as written.
  void saveAsElsewhereKeepsTheModelsFiles() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("robot/meshes")) && QDir(dir.path()).mkpath(QStringLiteral("out")));
    QVERIFY(QFile::copy(QStringLiteral(KINETREE_SOURCE_DIR "/tests/data/meshes/box_cm_zup.dae"),
                        dir.filePath(QStringLiteral("robot/meshes/box.dae"))));
    {
      QFile table(dir.filePath(QStringLiteral("robot/swing.csv")));
      QVERIFY(table.open(QIODevice::WriteOnly));
      table.write("time,q:j[0]\n0,0\n1,0.5\n2,0\n");
    }
    const QString original = dir.filePath(QStringLiteral("robot/robot.yaml"));
    {
      QFile file(original);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(
          "kinetree: 1\nname: robot\nbodies:\n  - name: a\n    parent: world\n"
          "    joint: {type: revolute, name: j, motion: {type: table, file: swing.csv}}\n"
          "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
          "    shapes:\n      - {type: mesh, file: meshes/box.dae}\n      - {type: mesh, file: meshes/gone.stl}\n");
    }
    Document doc;
    QString error;
    QVERIFY2(doc.open(original, &error), qPrintable(error));
    const QString moved = dir.filePath(QStringLiteral("out/copy.yaml"));
    QVERIFY2(doc.saveAs(moved, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    const kt::BodySpec& a = doc.model().bodies.front();
    QCOMPARE(a.shapes[0].mesh, std::string("../robot/meshes/box.dae"));
    QCOMPARE(a.shapes[1].mesh, std::string("meshes/gone.stl"));
    QCOMPARE(a.joint.motion.file, std::string("../robot/swing.csv"));
    // the saved file reads from its own folder, the missing mesh its one problem, as before
    std::vector<kt::Diagnostic> problems;
    const kt::Model reread = kt::loadModelForEditing(QFile::encodeName(moved).toStdString(), problems);
    QCOMPARE(reread.bodies.front().shapes[0].mesh, std::string("../robot/meshes/box.dae"));
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY(problems.front().message.find("gone.stl") != std::string::npos);
    QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("out/../robot/swing.csv"))));
    // saved back where it came from, the paths are as they were written
    QVERIFY2(doc.saveAs(original, &error), qPrintable(error));
    QCOMPARE(doc.model().bodies.front().shapes[0].mesh, std::string("meshes/box.dae"));
    QCOMPARE(doc.model().bodies.front().joint.motion.file, std::string("swing.csv"));
  }

  void invalidValuesAreRefusedWithTheReason() {
    Document doc;
    doc.setModel(fixture());
    const std::string before = yamlOf(doc);
    QString error;
    QVERIFY(!edit::setMass(doc, 1, -2.0, &error));
    QVERIFY2(error.contains(QStringLiteral("> 0")), qPrintable(error));
    QVERIFY(!edit::setJointAxis(doc, 1, Vec3::Zero(), &error));
    QVERIFY2(error.contains(QStringLiteral("zero")), qPrintable(error));
    QVERIFY(!edit::setInitialPosition(doc, 1, {1.0, 2.0}, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!edit::setGravity(doc, Vec3(0, std::nan(""), 0), &error));
    QVERIFY(!error.isEmpty());
    SimulationSettings s;
    s.solver = "abba";
    QVERIFY(!edit::setSimulation(doc, s, &error));
    QVERIFY2(error.contains(QStringLiteral("aba")), qPrintable(error));
    QVERIFY(!edit::removeShape(doc, body(doc, "wrist"), 0, &error));  // its mass comes from that shape
    QVERIFY(!error.isEmpty());
    QVERIFY(!edit::reparent(doc, body(doc, "left_1"), "wrist", false, &error));
    QVERIFY(error.contains(QStringLiteral("cycle")));
    QVERIFY(!edit::setMass(doc, 1, doc.model().bodies[1].inertial.mass, &error));  // no change: nothing to do
    QVERIFY(error.isEmpty());
    QCOMPARE(yamlOf(doc), before);
    QCOMPARE(doc.undoStack()->count(), 0);
  }

  void problemsListAndLocations() {
    Document doc;
    QCOMPARE(doc.problems()->rowCount(), 1);  // a new document has no bodies
    QVERIFY(!doc.runBlocker().isEmpty());
    QVERIFY(edit::apply(doc, edit::addBody(doc, "world", JointType::Free)));
    QCOMPARE(doc.problems()->rowCount(), 0);
    QVERIFY(doc.runBlocker().isEmpty());

    Model bad = fixture();
    bad.bodies[2].inertial.mass = -1.0;
    bad.bodies[0].shapes[0].radius = 0.0;
    bad.gravity.x() = std::nan("");
    doc.setModel(bad);
    QCOMPARE(doc.problems()->diagnostics().size(), validate(bad).size());
    QVERIFY(doc.runBlocker().contains(QStringLiteral("cannot run")));
    bool sawMass = false;
    for (int r = 0; r < doc.problems()->rowCount(); ++r) {
      const FieldLocation loc = doc.problems()->locationOf(r);
      const QString path = doc.problems()->data(doc.problems()->index(r, 0), ProblemsModel::PathRole).toString();
      if (path == QStringLiteral("bodies[2].inertial.mass")) {
        sawMass = true;
        QCOMPARE(loc.body, 2);
        QCOMPARE(loc.field, QStringLiteral("inertial.mass"));
        QCOMPARE(loc.topField, QStringLiteral("inertial"));
      }
    }
    QVERIFY(sawMass);
    const FieldLocation shape = ProblemsModel::locate(QStringLiteral("bodies[0].shapes[0].radius"));
    QCOMPARE(shape.body, 0);
    QCOMPARE(shape.shape, 0);
    QCOMPARE(shape.topField, QStringLiteral("shapes"));
    const FieldLocation g = ProblemsModel::locate(QStringLiteral("gravity[0]"));
    QCOMPARE(g.body, -1);
    QCOMPARE(g.topField, QStringLiteral("gravity"));
    QCOMPARE(ProblemsModel::locate(QStringLiteral("simulation.step")).topField, QStringLiteral("simulation"));
    // Fixing the mass through a command removes its problem.
    QVERIFY(edit::apply(doc, edit::setMass(doc, 2, 1.0)));
    QCOMPARE(doc.problems()->diagnostics().size(), validate(bad).size() - 1);
  }

  // The two-arm space robot of examples/space_robot.yaml, built from an empty document with the
  // editor's commands only: the prism-base template, field edits for the base and the first arm
  // (the values a user would type, read from the example), then the second arm as a mirrored
  // copy of the first (mount mirrored across the base's zx plane, the arm itself identical) with
  // its own drive settings. The result equals the example within float formatting and simulates
  // the same.
  void buildSpaceRobotWithCommands() {
    const QString path = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    if (!QFile::exists(path)) QSKIP("examples/space_robot.yaml is not in the tree");
    const Model ex = loadModelFromFile(path.toStdString());
    Document doc;
    QString error;
    // A command that must be accepted (or is a no-op because the value is already the default).
    const auto must = [&](QUndoCommand* c) {
      if (!c && error.isEmpty()) return true;
      if (!c) qWarning("refused: %s", qPrintable(error));
      return edit::apply(doc, c);
    };
    QVERIFY(must(edit::setModelName(doc, QString::fromStdString(ex.name), &error)));
    QVERIFY(must(edit::setDescription(doc, QString::fromStdString(ex.description), &error)));
    QVERIFY(must(edit::setGravity(doc, Vec3::Zero(), &error)));
    QVERIFY(must(edit::setSimulation(doc, ex.simulation, &error)));

    // Base: hexagonal prism, 1.2 m long, 0.8 m sides (circumradius), 400 kg, free-floating.
    PrismBaseTemplate base;
    base.sides = 6;
    base.radius = 0.8;
    base.height = 1.2;
    base.mass = 400.0;
    base.joint = JointType::Free;
    base.name = "base";
    QVERIFY(must(edit::insertPrismBase(doc, "world", base, &error)));
    QVERIFY(must(edit::renameJoint(doc, 0, "base_joint", &error)));
    QVERIFY(must(edit::setShape(doc, 0, 0, ex.bodies[0].shapes[0], &error)));
    for (std::size_t s = 1; s < ex.bodies[0].shapes.size(); ++s)
      QVERIFY(must(edit::addShape(doc, 0, ex.bodies[0].shapes[s], &error)));

    // First arm: six revolute links, each added under the previous one and filled in.
    const int firstArm = ex.findBody("L11");
    QVERIFY(firstArm == 1);
    for (int k = 1; k <= 6; ++k) {
      const BodySpec& b = ex.bodies[k];
      QVERIFY(must(edit::addBody(doc, QString::fromStdString(b.parent), JointType::Revolute,
                                 QString::fromStdString(b.name), &error)));
      QCOMPARE(doc.model().bodies[k].name, b.name);
      QVERIFY(must(edit::renameJoint(doc, k, QString::fromStdString(b.joint.name), &error)));
      QVERIFY(must(edit::setJointOrigin(doc, k, b.joint.origin, &error)));
      QVERIFY(must(edit::setJointAxis(doc, k, b.joint.axis, &error)));
      QVERIFY(must(edit::setInitialPosition(doc, k, b.joint.q0, &error)));
      QVERIFY(must(edit::setLimits(doc, k, b.joint.limits, &error)));
      QVERIFY(must(edit::setDrive(doc, k, b.joint.drive, &error)));
      if (!b.joint.rating.empty()) QVERIFY(must(edit::setRating(doc, k, b.joint.rating, &error)));
      QVERIFY(must(edit::setInertial(doc, k, b.inertial, &error)));
      QVERIFY(must(edit::setShape(doc, k, 0, b.shapes[0], &error)));
      for (std::size_t s = 1; s < b.shapes.size(); ++s) QVERIFY(must(edit::addShape(doc, k, b.shapes[s], &error)));
    }
    QVERIFY(doc.problems()->isEmpty());

    // Second arm: the first one mirrored onto the opposite face.
    MirrorOptions mirror;
    mirror.plane = MirrorPlane::ZX;
    mirror.mountOnly = true;
    mirror.renames = {{"L1", "L2"}, {"J1", "J2"}};
    QVERIFY(must(edit::mirrorSubtree(doc, firstArm, mirror, &error)));
    for (int k = 7; k <= 12; ++k) {
      QCOMPARE(doc.model().bodies[k].name, ex.bodies[k].name);
      QVERIFY(must(edit::setDrive(doc, k, ex.bodies[k].joint.drive, &error)));
      if (!ex.bodies[k].joint.rating.empty()) QVERIFY(must(edit::setRating(doc, k, ex.bodies[k].joint.rating, &error)));
    }
    QVERIFY(doc.problems()->isEmpty());
    qInfo("%d undo steps", doc.undoStack()->count());

    std::string why;
    QVERIFY2(sameWithinFloat(yamlOf(doc), saveModelToString(ex), 1e-12, why), why.c_str());

    // The same motion: 1 s of the example's settings on both.
    Simulator a(ex, SimulatorOptions::fromSettings(ex.simulation));
    Simulator b(doc.model(), SimulatorOptions::fromSettings(doc.model().simulation));
    QVERIFY(a.advanceTo(1.0));
    QVERIFY(b.advanceTo(1.0));
    QCOMPARE(a.q().size(), b.q().size());
    const double dq = (a.q() - b.q()).lpNorm<Eigen::Infinity>();
    const double dv = (a.v() - b.v()).lpNorm<Eigen::Infinity>();
    const double baseTurn = 2.0 * std::acos(std::min(1.0, std::abs(a.q()[0])));
    qInfo("after 1 s: max |dq| = %.3g, max |dv| = %.3g, base turned %.3g rad", dq, dv, baseTurn);
    QVERIFY(dq < 1e-9);
    QVERIFY(dv < 1e-9);
    // And the run is not trivial: the base turned in reaction to the arms.
    QVERIFY(baseTurn > 1e-4);

    // Undoing every command gives the empty document back.
    doc.undoStack()->setIndex(0);
    QCOMPARE(yamlOf(doc), saveModelToString(Model{}));
  }

  void newAndOpen() {
    Document doc;
    QSignalSpy replaced(&doc, &Document::modelReplaced);
    QAbstractItemModelTester tester(doc.bodyTree(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTemporaryDir dir;
    const QString path = dir.filePath("fixture.yaml");
    QVERIFY(Document::writeModelFile(fixture(), path, nullptr));
    QString error;
    QVERIFY2(doc.open(path, &error), qPrintable(error));
    QCOMPARE(replaced.count(), 1);
    QCOMPARE(doc.filePath(), path);
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.bodyTree()->rowCount(), 1);  // the base; the arm hangs below it
    checkTreeMatchesModel(doc);
    QVERIFY(edit::apply(doc, edit::deleteSubtree(doc, 1)));
    QVERIFY(doc.isModified());
    doc.newDocument();
    QCOMPARE(replaced.count(), 2);
    QVERIFY(doc.filePath().isEmpty());
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.undoStack()->count(), 0);
    QCOMPARE(doc.bodyTree()->rowCount(), 0);
    QCOMPARE(yamlOf(doc), saveModelToString(Model{}));
    // A file that does not load leaves the document as it was.
    QFile broken(dir.filePath("broken.yaml"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("kinetree: 1\nbodies: [\n");
    broken.close();
    QVERIFY(!doc.open(broken.fileName(), &error));
    QVERIFY(error.contains(QStringLiteral("broken.yaml")));
    QVERIFY(doc.filePath().isEmpty());
  }

  // A save that fails at any point (here: a full disk after a random number of bytes, or at the
  // commit) leaves the previous file byte for byte, the document modified and its path unchanged.
  void interruptedSavesKeepThePreviousFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("robot.yaml");
    Document doc;
    RandomTreeOptions opt;
    opt.minBodies = 60;
    opt.maxBodies = 80;  // a file of several write chunks
    doc.setModel(makeRandomTree(5, opt));
    QVERIFY(doc.saveAs(path));
    const QByteArray saved = readAll(path);
    QCOMPARE(saved.toStdString(), yamlOf(doc));
    QVERIFY(edit::apply(doc, edit::setModelName(doc, "edited")));
    const QByteArray next = QByteArray::fromStdString(yamlOf(doc));
    QVERIFY(next.size() > 3 * 4096);
    SplitMix64 rng(99);
    std::vector<qint64> points = {0, 1, 4095, 4096, 4097, next.size() - 1, next.size()};
    for (int i = 0; i < 20; ++i) points.push_back(rng.uniformInt(0, int(next.size())));
    for (qint64 p : points) {
      kt::setWriteFailureForTesting(1, p);  // from the next file on, the disk is full after p bytes
      QString error;
      QVERIFY(!doc.save(&error));
      QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
      QCOMPARE(readAll(path), saved);
      QVERIFY(doc.isModified());
      QVERIFY(!doc.saveAs(dir.filePath("other.yaml")));
      QVERIFY(!QFile::exists(dir.filePath("other.yaml")));
      QCOMPARE(doc.filePath(), path);
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("robot.yaml")});
    kt::setWriteFailureForTesting(0);
    QVERIFY(doc.save());
    QCOMPARE(readAll(path), next);
    QVERIFY(!doc.isModified());
    // And the file opens as the same model.
    Document reopened;
    QString error;
    QVERIFY2(reopened.open(path, &error), qPrintable(error));
    QCOMPARE(yamlOf(reopened), yamlOf(doc));
    QVERIFY(!reopened.open(dir.filePath("missing.yaml"), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(yamlOf(reopened), yamlOf(doc));
  }

  void autosaveAndRecovery() {
    QTemporaryDir dir;
    const QString recoveryDir = dir.filePath("recovery");
    const QString original = dir.filePath("robot.yaml");
    std::string edited;
    QString recoveryFile;
    {
      auto* doc = new Document;
      doc->autosaver()->setDirectory(recoveryDir);
      doc->autosaver()->setInterval(20);
      doc->setModel(fixture());
      QVERIFY(doc->saveAs(original));
      QTest::qWait(60);
      QVERIFY(!QFile::exists(doc->autosaver()->recoveryFile()));  // nothing unsaved: no recovery copy
      QVERIFY(edit::apply(*doc, edit::setMass(*doc, 1, 4.25)));
      QVERIFY(edit::apply(*doc, edit::insertArm(*doc, "base", ArmTemplate{})));
      recoveryFile = doc->autosaver()->recoveryFile();
      QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(recoveryFile), 5000);
      edited = yamlOf(*doc);
      // The copy is a readable model file.
      QCOMPARE(saveModelToString(loadModelFromString(readAll(recoveryFile).toStdString())), edited);
      // A crash: the document disappears without its normal close.
      doc->autosaver()->setInterval(1'000'000);
      doc->autosaver()->autosaveNow();
      // The file of a document that is open is not offered: its session holds the lock.
      QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 0);
      QFile::copy(recoveryFile, recoveryFile + ".crash");
      delete doc;
      QVERIFY(!QFile::exists(recoveryFile));  // a normal close removes it
      QVERIFY(QFile::rename(recoveryFile + ".crash", recoveryFile));
    }
    // Nobody holds its lock any more: offered, although the pid it records (this process) lives.
    QList<RecoveryEntry> found = Autosaver::findRecoveries(recoveryDir);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].originalPath, original);
    QCOMPARE(found[0].modelName, QStringLiteral("fixture"));
    QVERIFY(found[0].saved.isValid());

    Document restored;
    restored.autosaver()->setDirectory(recoveryDir);
    QString error;
    QVERIFY2(Autosaver::restore(restored, found[0], &error), qPrintable(error));
    QCOMPARE(yamlOf(restored), edited);
    QVERIFY(restored.isModified());
    QCOMPARE(restored.filePath(), original);
    QVERIFY(!QFile::exists(recoveryFile));                         // replaced by the document's own copy
    QVERIFY(QFile::exists(restored.autosaver()->recoveryFile()));  // …which is not offered while open
    QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 0);
    QVERIFY(restored.save());
    QVERIFY(!QFile::exists(restored.autosaver()->recoveryFile()));
    QCOMPARE(readAll(original).toStdString(), edited);
  }

  // A session records its pid, but pids say nothing: in a pid namespace every session is pid 1,
  // and pids are reused. What counts is the lock, which dies with its process.
  void recoveryIsOfferedUnlessItsLockIsHeld() {
    QTemporaryDir dir;
    const QString recoveryDir = dir.filePath("recovery");
    QString recoveryFile;
    {
      Document doc;
      doc.autosaver()->setDirectory(recoveryDir);
      doc.setModel(fixture());
      QVERIFY(edit::apply(doc, edit::setMass(doc, 1, 4.25)));
      QVERIFY(doc.autosaver()->autosaveNow());
      recoveryFile = doc.autosaver()->recoveryFile();
      QVERIFY(QFile::exists(recoveryFile + ".lock"));
      QVERIFY(QFile::copy(recoveryFile, recoveryFile + ".crash"));
    }
    QVERIFY(QFile::rename(recoveryFile + ".crash", recoveryFile));
    // The pid of a process that is certainly alive (init, or the container's first process).
    QByteArray text = readAll(recoveryFile);
    const qsizetype at = text.indexOf("# pid: ");
    QVERIFY(at >= 0);
    text.replace(at, text.indexOf('\n', at) - at, "# pid: 1");
    {
      QFile f(recoveryFile);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    }
    QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 1);

    // A live session holds the lock (here another lock object of this process): not offered.
    {
      QLockFile held(recoveryFile + ".lock");
      QVERIFY(held.tryLock(0));
      QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 0);
    }
    QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 1);

    // A lock left behind by a crash (the file exists, nobody holds it): offered.
    {
      QFile stale(recoveryFile + ".lock");
      QVERIFY(stale.open(QIODevice::WriteOnly));
      stale.write("12345\n");
    }
    QCOMPARE(Autosaver::findRecoveries(recoveryDir).size(), 1);

    // Another process holds it; once that process is killed, the file is offered.
    const QString flock = QStandardPaths::findExecutable("flock");
    if (!flock.isEmpty()) {
      // The shell opens the lock file, flock(1) locks it, and the process that stays (sleep)
      // holds the descriptor: the lock lives exactly as long as that process.
      QProcess holder;
      holder.start("sh", {"-c", "exec 9>>\"$0\" && flock 9 && exec sleep 60", recoveryFile + ".lock"});
      QVERIFY(holder.waitForStarted());
      QTRY_COMPARE_WITH_TIMEOUT(Autosaver::findRecoveries(recoveryDir).size(), 0, 10'000);
      holder.kill();
      QVERIFY(holder.waitForFinished());
      QTRY_COMPARE_WITH_TIMEOUT(Autosaver::findRecoveries(recoveryDir).size(), 1, 10'000);
    }

    // Discarding it removes the lock file too.
    Autosaver::discardRecovery(Autosaver::findRecoveries(recoveryDir).front());
    QVERIFY(!QFile::exists(recoveryFile));
    QVERIFY(!QFile::exists(recoveryFile + ".lock"));
  }

  // Sessions in different pid namespaces can have the same pid and so the same file name: the
  // file another session left is never overwritten.
  void recoveryNeverOverwritesAnotherSessionsFile() {
    QTemporaryDir dir;
    const QString recoveryDir = dir.filePath("recovery");
    Document doc;
    doc.autosaver()->setDirectory(recoveryDir);
    doc.setModel(fixture());
    const QString planned = doc.autosaver()->recoveryFile();
    QVERIFY(QDir().mkpath(recoveryDir));
    const QByteArray theirs = "# kinetree recovery file\n# original: /elsewhere/their.yaml\n# pid: 1\n";
    {
      QFile f(planned);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(theirs);
    }
    QVERIFY(edit::apply(doc, edit::setMass(doc, 1, 4.25)));
    QVERIFY(doc.autosaver()->autosaveNow());
    QVERIFY(doc.autosaver()->recoveryFile() != planned);
    QCOMPARE(readAll(planned), theirs);
    QCOMPARE(readAll(doc.autosaver()->recoveryFile()).toStdString().find(yamlOf(doc)) != std::string::npos, true);
    // Theirs is offered (nobody holds its lock); ours is not (this session holds it).
    const QList<RecoveryEntry> found = Autosaver::findRecoveries(recoveryDir);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].recoveryFile, QFileInfo(planned).absoluteFilePath());
  }

  // Started as "kinetree p.yaml" in one directory and recovered in another: the recovered work
  // goes back to the file it came from, never to a file of the same name in the new directory.
  void recoveryKeepsTheAbsolutePath() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("a") && QDir(dir.path()).mkpath("b"));
    const QString inA = dir.filePath("a/p.yaml");
    const QString inB = dir.filePath("b/p.yaml");
    QVERIFY(Document::writeModelFile(fixture(), inA, nullptr));
    kt::Model unrelated = fixture();
    unrelated.name = "unrelated";
    QVERIFY(Document::writeModelFile(unrelated, inB, nullptr));
    const QByteArray unrelatedBytes = readAll(inB);
    const QString recoveryDir = dir.filePath("recovery");
    const QString start = QDir::currentPath();
    struct Back {
      QString dir;
      ~Back() { QDir::setCurrent(dir); }
    } back{start};

    std::string edited;
    QString recoveryFile;
    QVERIFY(QDir::setCurrent(dir.filePath("a")));
    {
      Document doc;
      doc.autosaver()->setDirectory(recoveryDir);
      QVERIFY(doc.open("p.yaml"));
      QCOMPARE(doc.filePath(), QFileInfo(inA).absoluteFilePath());  // documents hold absolute paths
      QCOMPARE(doc.title(), QStringLiteral("p.yaml"));
      QVERIFY(edit::apply(doc, edit::setMass(doc, 1, 4.25)));
      edited = yamlOf(doc);
      QVERIFY(doc.autosaver()->autosaveNow());
      recoveryFile = doc.autosaver()->recoveryFile();
      QVERIFY(readAll(recoveryFile)
                  .contains("# original: " + QUrl::toPercentEncoding(QFileInfo(inA).absoluteFilePath(), "/")));
      QVERIFY(QFile::copy(recoveryFile, recoveryFile + ".crash"));
    }
    QVERIFY(QFile::rename(recoveryFile + ".crash", recoveryFile));

    QVERIFY(QDir::setCurrent(dir.filePath("b")));
    QList<RecoveryEntry> found = Autosaver::findRecoveries(recoveryDir);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].originalPath, QFileInfo(inA).absoluteFilePath());
    Document restored;
    restored.autosaver()->setDirectory(recoveryDir);
    QString error;
    QVERIFY2(Autosaver::restore(restored, found[0], &error), qPrintable(error));
    QVERIFY2(restored.save(&error), qPrintable(error));
    QCOMPARE(readAll(inA).toStdString(), edited);
    QCOMPARE(readAll(inB), unrelatedBytes);  // the file of the same name here is untouched

    // A record of an older version with a relative path: recovered as unsaved (Save As asks
    // where), never written to "p.yaml" of the current directory.
    QVERIFY(edit::apply(restored, edit::setMass(restored, 1, 5.5)));
    QVERIFY(restored.autosaver()->autosaveNow());
    recoveryFile = restored.autosaver()->recoveryFile();
    QByteArray text = readAll(recoveryFile);
    const qsizetype at = text.indexOf("# original: ");
    QVERIFY(at >= 0);
    text.replace(at, text.indexOf('\n', at) - at, "# original: p.yaml");
    QVERIFY(QFile::copy(recoveryFile, recoveryFile + ".crash"));
    restored.autosaver()->discard();
    QVERIFY(QFile::rename(recoveryFile + ".crash", recoveryFile));
    {
      QFile f(recoveryFile);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    }
    found = Autosaver::findRecoveries(recoveryDir);
    QCOMPARE(found.size(), 1);
    QVERIFY(found[0].originalPath.isEmpty());
    Document legacy;
    legacy.autosaver()->setDirectory(recoveryDir);
    QVERIFY2(Autosaver::restore(legacy, found[0], &error), qPrintable(error));
    QVERIFY(legacy.filePath().isEmpty());
    QVERIFY(!legacy.save(&error));
    QCOMPARE(readAll(inB), unrelatedBytes);
  }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "test_document.moc"
