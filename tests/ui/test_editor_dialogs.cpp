// SPDX-License-Identifier: BSD-3-Clause
// The editor's dialogs and the problems dock, driven through their widgets: the template dialog
// builds the same bodies as the core templates with the parameters typed into it and refuses bad
// parameters with a reason; the mirror dialog gives the same model as edit::mirrorSubtree with
// the options its widgets show; the problems dock lists the model's problems, announces where a
// clicked one is, and empties when they are fixed. The dialogs and the dock are compared with
// their pictures in tests/data/baselines (dialog_*.png, problems_dock*.png).
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QTest>
#include <numbers>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "core/sim/simulator.hpp"
#include "support/baseline.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/flat_chain_proxy.hpp"
#include "ui/editor/mirror_dialog.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/properties/property_widgets.hpp"
#include "ui/editor/template_dialog.hpp"

using namespace kt;
using namespace kt::ui;

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
const QString kSpaceRobot = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");

std::string yamlOf(const Document& d) { return saveModelToString(d.model()); }

template <class W>
W* child(QWidget& parent, const char* name) {
  W* w = parent.findChild<W*>(QString::fromLatin1(name));
  if (!w) qWarning("no widget %s", name);
  return w;
}

void setSpin(QWidget& dlg, const char* name, double value) {
  if (auto* d = dlg.findChild<QDoubleSpinBox*>(QString::fromLatin1(name))) {
    d->setValue(value);
    QCOMPARE(d->value(), value);  // accepted as typed, not clamped
    return;
  }
  auto* i = child<QSpinBox>(dlg, name);
  QVERIFY(i);
  i->setValue(static_cast<int>(value));
  QCOMPARE(i->value(), static_cast<int>(value));
}

void setVec(QWidget& dlg, const char* name, const Vec3& v) {
  const QString base = QString::fromLatin1(name);
  for (int k = 0; k < 3; ++k) {
    const QString part = base + QLatin1Char('.') + QLatin1Char("xyz"[k]);
    auto* box = dlg.findChild<QDoubleSpinBox*>(part);
    QVERIFY2(box, qPrintable(part));
    box->setValue(v[k]);
  }
}

void setRpyDegrees(QWidget& dlg, const Vec3& deg) {
  const char* names[3] = {"base.rpy.roll", "base.rpy.pitch", "base.rpy.yaw"};
  for (int k = 0; k < 3; ++k) setSpin(dlg, names[k], deg[k]);
}

void setJoint(QWidget& dlg, const char* name, JointType type) {
  auto* combo = child<QComboBox>(dlg, name);
  QVERIFY(combo);
  const int i = combo->findText(QString::fromUtf8(jointTypeName(type).data()));
  QVERIFY(i >= 0);
  combo->setCurrentIndex(i);
}

void setText(QWidget& dlg, const char* name, const QString& text) {
  auto* edit = child<QLineEdit>(dlg, name);
  QVERIFY(edit);
  edit->setText(text);
}

// A cell of the template's arm table, as typed.
void setArmCell(TemplateDialog& dlg, int row, int column, const QString& text) {
  QTableWidgetItem* item = dlg.armTable()->item(row, column);
  QVERIFY(item);
  item->setText(text);
}

void setParentBody(QWidget& dlg, const QString& parent) {
  auto* combo = child<QComboBox>(dlg, "parent");
  QVERIFY(combo);
  const int i = combo->findText(parent);
  QVERIFY(i >= 0);
  combo->setCurrentIndex(i);
}

// A document holding a floating prism base with one arm (names "base", "left_1" …).
Model smallRobot() {
  Model m;
  m.name = "small";
  PrismBaseTemplate base;
  insertPrismBase(m, "world", base);
  ArmTemplate arm;
  arm.prefix = "left_";
  arm.base.xyz = Vec3(0.0, 0.5, 0.0);
  insertArm(m, "base", arm);
  return m;
}

// The dialog as shown, against its baseline picture (tests/support/baseline.hpp).
void compareWithBaseline(QWidget& w, const QString& name) {
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  const QString difference = kt::test::differenceFromBaseline(w.grab().toImage(), name);
  QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// Runs the dialog's command and the expected core edit on copies of `start`; the YAML of both
// must match, and undo must restore the document's bytes.
void pushAndCompare(Document& doc, QUndoCommand* command, const Model& expected) {
  const std::string before = yamlOf(doc);
  QVERIFY(command);
  doc.push(command);
  QCOMPARE(yamlOf(doc), saveModelToString(expected));
  doc.undoStack()->undo();
  QCOMPARE(yamlOf(doc), before);
  doc.undoStack()->redo();
  QCOMPARE(yamlOf(doc), saveModelToString(expected));
}

}  // namespace

class TestEditorDialogs : public QObject {
  Q_OBJECT

 private slots:
  // ---- template dialog ----

  void templateDefaultsAndParents() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog dlg(&doc, QStringLiteral("left_2"));
    auto* parent = child<QComboBox>(dlg, "parent");
    QVERIFY(parent);
    QCOMPARE(parent->count(), static_cast<int>(doc.model().bodies.size()) + 1);
    QCOMPARE(parent->itemText(0), QStringLiteral("world"));
    for (std::size_t i = 0; i < doc.model().bodies.size(); ++i)
      QCOMPARE(parent->itemText(static_cast<int>(i) + 1).toStdString(), doc.model().bodies[i].name);
    QCOMPARE(dlg.parentBody(), QStringLiteral("left_2"));
    QCOMPARE(dlg.kind(), TemplateDialog::Kind::Arm);
    // The defaults: 3 revolute links about y, 0.5 m, 1 kg each, named link1 … link3.
    auto* preview = child<QLabel>(dlg, "preview");
    QVERIFY(preview);
    QVERIFY2(preview->text().contains(QStringLiteral("3 bodies")), qPrintable(preview->text()));
    QVERIFY2(preview->text().contains(QStringLiteral("link1 … link3")), qPrintable(preview->text()));
    QVERIFY2(preview->text().contains(QStringLiteral("3 kg")), qPrintable(preview->text()));
    QCOMPARE(dlg.armTable()->rowCount(), 3);
    QCOMPARE(dlg.armTable()->item(0, TemplateDialog::AxisCol)->text(), QStringLiteral("y"));
    // Kind switches the page and the preview.
    dlg.setKind(TemplateDialog::Kind::PrismBase);
    QCOMPARE(dlg.kind(), TemplateDialog::Kind::PrismBase);
    QCOMPARE(child<QLineEdit>(dlg, "prism.name")->text(), QStringLiteral("base_2"));  // "base" is taken
    QVERIFY2(preview->text().contains(QStringLiteral("base_2")), qPrintable(preview->text()));
    QVERIFY2(preview->text().contains(QStringLiteral("100 kg")), qPrintable(preview->text()));
  }

  void templateArm() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog dlg(&doc, QStringLiteral("world"));
    dlg.setKind(TemplateDialog::Kind::Arm);
    setParentBody(dlg, QStringLiteral("base"));
    // the first row, then three more copies of it, then one row changed
    setArmCell(dlg, 0, TemplateDialog::JointCol, QStringLiteral("prismatic"));
    setArmCell(dlg, 0, TemplateDialog::AxisCol, QStringLiteral("x"));
    setArmCell(dlg, 0, TemplateDialog::LengthCol, QStringLiteral("0.25"));
    setArmCell(dlg, 0, TemplateDialog::WidthCol, QStringLiteral("0.04"));
    setArmCell(dlg, 0, TemplateDialog::MassCol, QStringLiteral("2.5"));
    setSpin(dlg, "arm.links", 1);
    setSpin(dlg, "arm.links", 4);
    QCOMPARE(dlg.armTable()->rowCount(), 4);
    setArmCell(dlg, 2, TemplateDialog::AxisCol, QStringLiteral("0, 0.6, 0.8"));
    setArmCell(dlg, 2, TemplateDialog::DriveCol,
               QStringLiteral("{type: spring_damper, stiffness: 40, damping: 2, rest_position: 0.1}"));
    setText(dlg, "arm.prefix", QStringLiteral("right_"));
    setVec(dlg, "base.xyz", Vec3(0.1, -0.5, 0.3));
    setRpyDegrees(dlg, Vec3(90.0, 0.0, 45.0));

    ArmTemplate t;
    ArmLink link;
    link.joint = JointType::Prismatic;
    link.axis = Vec3::UnitX();
    link.length = 0.25;
    link.width = 0.04;
    link.mass = 2.5;
    t.links.assign(4, link);
    t.links[2].axis = Vec3(0.0, 0.6, 0.8);
    t.links[2].drive.type = DriveType::SpringDamper;
    t.links[2].drive.stiffness = {40.0};
    t.links[2].drive.damping = {2.0};
    t.links[2].drive.restPosition = {0.1};
    t.prefix = "right_";
    t.base.xyz = Vec3(0.1, -0.5, 0.3);
    t.base.rpy = Vec3(90.0, 0.0, 45.0) * kDegree;
    Model expected = doc.model();
    QVERIFY(!insertArm(expected, "base", t));

    QString error;
    QUndoCommand* command = dlg.makeCommand(&error);
    QVERIFY2(command, qPrintable(error));
    QVERIFY(error.isEmpty());
    const std::size_t first = doc.model().bodies.size();
    pushAndCompare(doc, command, expected);
    if (QTest::currentTestFailed()) return;
    const Model& m = doc.model();
    QCOMPARE(m.bodies.size(), first + 4);
    for (int i = 0; i < 4; ++i) {
      const BodySpec& b = m.bodies[first + static_cast<std::size_t>(i)];
      QCOMPARE(b.name, "right_" + std::to_string(i + 1));
      QCOMPARE(b.parent, i == 0 ? std::string("base") : "right_" + std::to_string(i));
      QCOMPARE(b.joint.type, JointType::Prismatic);
      QCOMPARE(b.inertial.mass, 2.5);
      QCOMPARE(b.shapes.at(0).length, 0.25);
      QCOMPARE(b.shapes.at(0).radius, 0.02);
    }
    QVERIFY(m.bodies[first].joint.origin.rpy.isApprox(Vec3(std::numbers::pi / 2, 0.0, std::numbers::pi / 4)));
    QVERIFY(validate(m).empty());
  }

  void templateChain() {
    Document doc;  // an empty document: the chain hangs from the world
    TemplateDialog dlg(&doc, QStringLiteral("world"));
    dlg.setKind(TemplateDialog::Kind::Chain);
    setSpin(dlg, "chain.bodies", 6);
    setJoint(dlg, "chain.joint", JointType::Universal);
    setVec(dlg, "chain.axis", Vec3(0.0, 0.0, 1.0));
    setSpin(dlg, "chain.spacing", 0.4);
    setSpin(dlg, "chain.mass", 0.7);
    setVec(dlg, "chain.box", Vec3(0.05, 0.06, 0.07));
    setText(dlg, "chain.prefix", QStringLiteral("rope"));
    setVec(dlg, "base.xyz", Vec3(0.0, 0.0, 2.0));
    setRpyDegrees(dlg, Vec3(0.0, -30.0, 0.0));

    ChainTemplate t;
    t.bodies = 6;
    t.joint = JointType::Universal;
    t.axis = Vec3::UnitZ();
    t.spacing = 0.4;
    t.bodyMass = 0.7;
    t.boxSize = Vec3(0.05, 0.06, 0.07);
    t.prefix = "rope";
    t.base.xyz = Vec3(0.0, 0.0, 2.0);
    t.base.rpy = Vec3(0.0, -30.0 * kDegree, 0.0);
    Model expected = doc.model();
    QVERIFY(!insertChain(expected, "world", t));

    QString error;
    pushAndCompare(doc, dlg.makeCommand(&error), expected);
    if (QTest::currentTestFailed()) return;
    const Model& m = doc.model();
    QCOMPARE(m.bodies.size(), std::size_t{6});
    double total = 0.0;
    for (const BodySpec& b : m.bodies) total += b.inertial.mass;
    QCOMPARE(total, 6 * 0.7);
    QCOMPARE(m.bodies.back().name, std::string("rope6"));
    QCOMPARE(m.bodies.back().joint.type, JointType::Universal);
    QVERIFY(doc.problems()->isEmpty());
  }

  void templatePrismBase() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog dlg(&doc, QStringLiteral("left_3"));
    dlg.setKind(TemplateDialog::Kind::PrismBase);
    setSpin(dlg, "prism.sides", 8);
    setSpin(dlg, "prism.radius", 0.7);
    setSpin(dlg, "prism.height", 0.3);
    setSpin(dlg, "prism.mass", 50.0);
    setJoint(dlg, "prism.joint", JointType::Fixed);
    setText(dlg, "prism.name", QStringLiteral("tool_plate"));
    setVec(dlg, "base.xyz", Vec3(0.0, 0.0, 0.5));

    PrismBaseTemplate t;
    t.sides = 8;
    t.radius = 0.7;
    t.height = 0.3;
    t.mass = 50.0;
    t.joint = JointType::Fixed;
    t.name = "tool_plate";
    t.base.xyz = Vec3(0.0, 0.0, 0.5);
    Model expected = doc.model();
    QVERIFY(!insertPrismBase(expected, "left_3", t));

    pushAndCompare(doc, dlg.makeCommand(), expected);
    if (QTest::currentTestFailed()) return;
    const BodySpec& b = doc.model().bodies.back();
    QCOMPARE(b.name, std::string("tool_plate"));
    QCOMPARE(b.parent, std::string("left_3"));
    QCOMPARE(b.inertial.mass, 50.0);
    QCOMPARE(b.shapes.at(0).sides, 8);
  }

  void templateRefusals_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("widget");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("reason");
    const int arm = static_cast<int>(TemplateDialog::Kind::Arm);
    const int chain = static_cast<int>(TemplateDialog::Kind::Chain);
    const int prism = static_cast<int>(TemplateDialog::Kind::PrismBase);
    QTest::newRow("arm with 0 links") << arm << "arm.links" << 0.0 << "number of links";
    QTest::newRow("arm with too many links") << arm << "arm.links" << 20000.0 << "number of links";
    QTest::newRow("arm with negative mass") << arm << "arm.cell.5" << -1.0 << "link 1: the link mass";
    QTest::newRow("arm with zero length") << arm << "arm.cell.3" << 0.0 << "link 1: the link length";
    QTest::newRow("arm with zero axis") << arm << "arm.cell.1" << 0.0 << "link 1: the axis";
    QTest::newRow("chain with 0 bodies") << chain << "chain.bodies" << 0.0 << "number of bodies";
    QTest::newRow("chain with negative mass") << chain << "chain.mass" << -2.0 << "mass";
    QTest::newRow("chain with a flat box") << chain << "chain.box.y" << 0.0 << "box";
    QTest::newRow("prism with 2 sides") << prism << "prism.sides" << 2.0 << "sides";
    QTest::newRow("prism with zero mass") << prism << "prism.mass" << 0.0 << "mass";
    QTest::newRow("prism with negative height") << prism << "prism.height" << -0.1 << "height";
  }

  void templateRefusals() {
    QFETCH(int, kind);
    QFETCH(QString, widget);
    QFETCH(double, value);
    QFETCH(QString, reason);
    Document doc;
    doc.setModel(smallRobot());
    const std::string before = yamlOf(doc);
    TemplateDialog dlg(&doc, QStringLiteral("base"));
    dlg.setKind(static_cast<TemplateDialog::Kind>(kind));
    QString error;
    QUndoCommand* ok = dlg.makeCommand(&error);  // the defaults are accepted
    QVERIFY2(ok, qPrintable(error));
    delete ok;
    if (widget.startsWith(QStringLiteral("arm.cell.")))
      setArmCell(dlg, 0, widget.mid(9).toInt(),
                 value == 0.0 && widget.endsWith(QLatin1Char('1')) ? QStringLiteral("0 0 0") : QString::number(value));
    else if (widget.endsWith(QStringLiteral(".axis")))
      setVec(dlg, widget.toLatin1().constData(), Vec3::Zero());
    else
      setSpin(dlg, widget.toLatin1().constData(), value);
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    // OK keeps the dialog open and shows the reason.
    dlg.show();
    dlg.accept();
    QVERIFY(dlg.isVisible());
    QCOMPARE(dlg.result(), int(QDialog::Rejected));
    QVERIFY(!dlg.takeCommand());
    auto* preview = child<QLabel>(dlg, "preview");
    QVERIFY2(preview->text().contains(error), qPrintable(preview->text()));
    QCOMPARE(yamlOf(doc), before);
    QCOMPARE(doc.undoStack()->count(), 0);
  }

  void templateNameRefusalsAndAccept() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog dlg(&doc, QStringLiteral("base"));
    QString error;
    for (const char* bad : {"my arm", "", "2nd"}) {
      setText(dlg, "arm.prefix", QString::fromLatin1(bad));
      QVERIFY2(!dlg.makeCommand(&error), bad);
      QVERIFY2(error.contains(QStringLiteral("prefix")), qPrintable(error));
    }
    dlg.setKind(TemplateDialog::Kind::PrismBase);
    setText(dlg, "prism.name", QStringLiteral("world"));
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY(error.contains(QStringLiteral("world")));
    // A valid set of parameters: OK closes and hands over the command, once.
    setText(dlg, "prism.name", QStringLiteral("deck"));
    dlg.show();
    dlg.accept();
    QVERIFY(!dlg.isVisible());
    QCOMPARE(dlg.result(), int(QDialog::Accepted));
    QUndoCommand* command = dlg.takeCommand();
    QVERIFY(command);
    QVERIFY(!dlg.takeCommand());
    doc.push(command);
    QCOMPARE(doc.model().bodies.back().name, std::string("deck"));
    QCOMPARE(doc.model().bodies.back().parent, std::string("base"));
  }

  // ---- mirror dialog ----

  void mirrorMatchesEditCommand_data() {
    QTest::addColumn<QString>("plane");
    QTest::addColumn<bool>("copy");
    QTest::addColumn<bool>("mountOnly");
    QTest::newRow("zx copy mount only") << "ZX" << true << true;
    QTest::newRow("zx copy mirror image") << "ZX" << true << false;
    QTest::newRow("yz copy mirror image") << "YZ" << true << false;
    QTest::newRow("xy in place mirror image") << "XY" << false << false;
    QTest::newRow("zx in place mount only") << "ZX" << false << true;
  }

  void mirrorMatchesEditCommand() {
    QFETCH(QString, plane);
    QFETCH(bool, copy);
    QFETCH(bool, mountOnly);
    if (!QFile::exists(kSpaceRobot)) QSKIP("examples/space_robot.yaml is not in the tree");
    Document doc;
    QString error;
    QVERIFY2(doc.open(kSpaceRobot, &error), qPrintable(error));
    const int arm = doc.model().findBody("L11");
    QVERIFY(arm >= 0);
    const std::string before = yamlOf(doc);

    MirrorDialog dlg(&doc, arm);
    // Two replacements typed into the table, then the suffix (while the copy is chosen: the names
    // group is disabled for an in-place mirror).
    auto* table = child<QTableWidget>(dlg, "renames");
    QVERIFY(table);
    while (table->rowCount() > 0) table->removeRow(0);
    for (const auto& [from, to] : {std::pair{"L1", "L3"}, {"J1", "J3"}}) {
      child<QPushButton>(dlg, "addRename")->click();
      const int row = table->rowCount() - 1;
      QVERIFY(row >= 0 && table->item(row, 0) && table->item(row, 1));
      table->item(row, 0)->setText(QString::fromLatin1(from));
      table->item(row, 1)->setText(QString::fromLatin1(to));
    }
    setText(dlg, "suffix", QStringLiteral("_m"));

    auto* planeButton = child<QRadioButton>(dlg, qPrintable(QStringLiteral("plane") + plane));
    QVERIFY(planeButton);
    planeButton->click();
    child<QRadioButton>(dlg, copy ? "copy" : "inPlace")->click();
    child<QRadioButton>(dlg, mountOnly ? "mountOnly" : "mirrorImage")->click();
    MirrorOptions o;
    o.plane = plane == QStringLiteral("XY")   ? MirrorPlane::XY
              : plane == QStringLiteral("YZ") ? MirrorPlane::YZ
                                              : MirrorPlane::ZX;
    o.copy = copy;
    o.mountOnly = mountOnly;
    o.renames = {{"L1", "L3"}, {"J1", "J3"}};
    o.suffix = "_m";
    const MirrorOptions shown = dlg.options();
    QCOMPARE(shown.plane, o.plane);
    QCOMPARE(shown.copy, o.copy);
    QCOMPARE(shown.mountOnly, o.mountOnly);
    QVERIFY(shown.renames == o.renames);
    QCOMPARE(shown.suffix, o.suffix);

    Document reference;
    QVERIFY(reference.open(kSpaceRobot));
    QVERIFY(edit::apply(reference, edit::mirrorSubtree(reference, arm, o, &error)));

    QUndoCommand* command = dlg.makeCommand(&error);
    QVERIFY2(command, qPrintable(error));
    doc.push(command);
    QCOMPARE(yamlOf(doc), yamlOf(reference));
    QVERIFY(yamlOf(doc) != before);
    if (copy) {
      QCOMPARE(doc.model().bodies.size(), std::size_t{19});
      QVERIFY(doc.model().findBody("L31") >= 0);
      QVERIFY(doc.model().findBody("L36") >= 0);
    }
    doc.undoStack()->undo();
    QCOMPARE(yamlOf(doc), before);
    doc.undoStack()->redo();
    QCOMPARE(yamlOf(doc), yamlOf(reference));
  }

  void mirrorDefaultsPreviewAndRefusals() {
    if (!QFile::exists(kSpaceRobot)) QSKIP("examples/space_robot.yaml is not in the tree");
    Document doc;
    QVERIFY(doc.open(kSpaceRobot));
    const int arm = doc.model().findBody("L21");
    MirrorDialog dlg(&doc, arm);
    // The initial plane sends the arm's mount to the other side: its largest offset flips.
    int axis = 0;
    doc.model().bodies[arm].joint.origin.xyz.cwiseAbs().maxCoeff(&axis);
    const MirrorPlane expectedPlane = axis == 0 ? MirrorPlane::YZ : axis == 1 ? MirrorPlane::ZX : MirrorPlane::XY;
    QCOMPARE(dlg.options().plane, expectedPlane);
    QVERIFY(dlg.options().copy);
    QVERIFY(!dlg.options().mountOnly);
    QCOMPARE(dlg.options().suffix, std::string("_mirror"));
    auto* preview = child<QLabel>(dlg, "preview");
    QVERIFY2(preview->text().contains(QStringLiteral("6 bodies")), qPrintable(preview->text()));
    QVERIFY2(preview->text().contains(QStringLiteral("L21_mirror … L26_mirror")), qPrintable(preview->text()));
    // The names group only matters for copies.
    auto* suffix = child<QLineEdit>(dlg, "suffix");
    QVERIFY(suffix->isEnabled());
    child<QRadioButton>(dlg, "inPlace")->click();
    QVERIFY(!suffix->isEnabled());
    QVERIFY2(preview->text().contains(QStringLiteral("in place")), qPrintable(preview->text()));
    child<QRadioButton>(dlg, "copy")->click();

    // Refused names: a replacement of nothing, characters a name cannot hold.
    QString error;
    dlg.addRename({}, QStringLiteral("x"));
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY2(error.contains(QStringLiteral("empty")), qPrintable(error));
    QVERIFY2(preview->text().contains(error), qPrintable(preview->text()));
    auto* table = child<QTableWidget>(dlg, "renames");
    table->removeRow(table->rowCount() - 1);
    setText(dlg, "suffix", QStringLiteral("a copy"));
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY2(error.contains(QStringLiteral("suffix")), qPrintable(error));
    dlg.show();
    dlg.accept();
    QVERIFY(dlg.isVisible());
    QVERIFY(!dlg.takeCommand());
    QCOMPARE(doc.undoStack()->count(), 0);
    setText(dlg, "suffix", QStringLiteral("_b"));
    dlg.accept();
    QCOMPARE(dlg.result(), int(QDialog::Accepted));
    QUndoCommand* command = dlg.takeCommand();
    QVERIFY(command);
    doc.push(command);
    QVERIFY(doc.model().findBody("L26_b") >= 0);
  }

  void mirrorProposesLeftRight() {
    Document doc;
    doc.setModel(smallRobot());
    MirrorDialog dlg(&doc, doc.model().findBody("left_1"));
    const MirrorOptions o = dlg.options();
    QCOMPARE(o.renames.size(), std::size_t{1});
    QCOMPARE(o.renames[0].first, std::string("left"));
    QCOMPARE(o.renames[0].second, std::string("right"));
    QCOMPARE(o.plane, MirrorPlane::ZX);  // the arm is mounted at +y
    QUndoCommand* command = dlg.makeCommand();
    QVERIFY(command);
    doc.push(command);
    QVERIFY(doc.model().findBody("right_3") >= 0);
    QCOMPARE(doc.model().bodies[doc.model().findBody("right_1")].joint.origin.xyz.y(), -0.5);
  }

  // ---- problems dock ----

  void problemsDock() {
    Document doc;
    doc.setModel(smallRobot());
    ProblemsDock dock(&doc);
    QCOMPARE(dock.objectName(), QStringLiteral("problemsDock"));
    QCOMPARE(dock.windowTitle(), QStringLiteral("Problems"));
    QAbstractItemModelTester tester(dock.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(dock.view()->model()->rowCount(), 0);
    QCOMPARE(dock.summary(), QStringLiteral("No problems"));

    // An invalid model: a zero mass, a zero shape radius and a gravity that is not a number.
    Model bad = smallRobot();
    const int massBody = bad.findBody("left_2");
    bad.bodies[static_cast<std::size_t>(massBody)].inertial.mass = 0.0;
    bad.bodies[0].shapes[0].radius = 0.0;
    const Vec3 gravity = bad.gravity;
    bad.gravity.x() = std::nan("");
    const std::size_t expected = validate(bad).size();
    QVERIFY(expected >= 3);
    QSignalSpy count(doc.problems(), &ProblemsModel::countChanged);
    doc.setModel(bad);
    QCOMPARE(count.count(), 1);
    QCOMPARE(dock.view()->model()->rowCount(), static_cast<int>(expected));
    QCOMPARE(dock.summary(), QStringLiteral("%1 problems — the model cannot be run").arg(expected));
    QVERIFY(!dock.view()->model()->data(dock.view()->model()->index(0, 0), Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(dock.view()
                ->model()
                ->data(dock.view()->model()->index(0, 1), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("must be")));

    dock.resize(720, 220);
    compareWithBaseline(dock, QStringLiteral("problems_dock"));

    // Clicking the mass problem announces body and field.
    int massRow = -1;
    for (int r = 0; r < dock.view()->model()->rowCount(); ++r)
      if (dock.view()->model()->index(r, 0).data(ProblemsModel::PathRole).toString() ==
          QStringLiteral("bodies[%1].inertial.mass").arg(massBody))
        massRow = r;
    QVERIFY(massRow >= 0);
    // the Where column names the body: "left_2 · inertial.mass", not its index in the file
    QCOMPARE(dock.view()->model()->index(massRow, 0).data().toString(),
             QStringLiteral("%1 · inertial.mass").arg(QString::fromStdString(doc.model().bodies[massBody].name)));
    QVERIFY(massRow >= 0);
    QVERIFY(
        dock.view()->model()->index(massRow, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("left_2")));
    QSignalSpy activated(&dock, &ProblemsDock::problemActivated);
    const QModelIndex cell = dock.view()->model()->index(massRow, 1);
    dock.view()->scrollTo(cell);
    QTest::mouseClick(dock.view()->viewport(), Qt::LeftButton, {}, dock.view()->visualRect(cell).center());
    QCOMPARE(activated.count(), 1);
    const auto loc = activated.at(0).at(0).value<FieldLocation>();
    QCOMPARE(loc.body, massBody);
    QCOMPARE(loc.field, QStringLiteral("inertial.mass"));
    QCOMPARE(loc.topField, QStringLiteral("inertial"));
    // Keyboard activation of another row (the gravity problem: a model-level field).
    int gravityRow = -1;
    for (int r = 0; r < dock.view()->model()->rowCount(); ++r)
      if (dock.view()->model()->index(r, 0).data().toString().startsWith(QStringLiteral("gravity"))) gravityRow = r;
    QVERIFY(gravityRow >= 0);
    dock.view()->setCurrentIndex(dock.view()->model()->index(gravityRow, 0));
    emit dock.view()->activated(dock.view()->currentIndex());
    QCOMPARE(activated.count(), 2);
    QCOMPARE(activated.at(1).at(0).value<FieldLocation>().body, -1);
    QCOMPARE(activated.at(1).at(0).value<FieldLocation>().topField, QStringLiteral("gravity"));

    // Fixing every problem through edits empties the list.
    QString error;
    QVERIFY2(edit::apply(doc, edit::setMass(doc, massBody, 1.0, &error)), qPrintable(error));
    QCOMPARE(dock.view()->model()->rowCount(), static_cast<int>(expected) - 1);
    Shape shape = doc.model().bodies[0].shapes[0];
    shape.radius = 0.5;
    QVERIFY2(edit::apply(doc, edit::setShape(doc, 0, 0, shape, &error)), qPrintable(error));
    QVERIFY(dock.summary().startsWith(QStringLiteral("1 problem —")));
    QVERIFY2(edit::apply(doc, edit::setGravity(doc, gravity, &error)), qPrintable(error));
    QCOMPARE(dock.view()->model()->rowCount(), 0);
    QCOMPARE(dock.summary(), QStringLiteral("No problems"));
    compareWithBaseline(dock, QStringLiteral("problems_dock_none"));
    // Undo brings the last problem back.
    doc.undoStack()->undo();
    QCOMPARE(dock.view()->model()->rowCount(), 1);
    QCOMPARE(dock.summary(), QStringLiteral("1 problem — the model cannot be run"));
  }

  // A warning (a joint started in degrees) is listed after the errors with a warning icon, and
  // the summary says the model can be run while there are only warnings.
  void problemsDockCountsEveryProblem() {
    // 150 bodies under a parent that does not exist: the validator lists the first 100 and one
    // closing line; the dock and the run blocker count all 150.
    Model m = smallRobot();
    const BodySpec leaf = m.bodies.back();
    for (int i = 0; i < 150; ++i) {
      BodySpec b = leaf;
      b.name = "extra_" + std::to_string(i);
      b.parent = "missing_" + std::to_string(i);
      b.joint.name = "extra_joint_" + std::to_string(i);
      m.bodies.push_back(b);
    }
    Document doc;
    doc.setModel(m);
    ProblemsDock dock(&doc);
    QCOMPARE(dock.view()->model()->rowCount(), 101);
    QCOMPARE(dock.summary(), QStringLiteral("150 problems — the model cannot be run"));
    QVERIFY2(doc.runBlocker().contains(QStringLiteral("(150 problems in all)")), qPrintable(doc.runBlocker()));
  }

  void problemsDockWarnings() {
    Model m = smallRobot();
    const int body = m.findBody("left_2");
    JointSpec& joint = m.bodies[static_cast<std::size_t>(body)].joint;
    QCOMPARE(joint.type, JointType::Revolute);
    joint.q0 = {90.0};
    joint.limits = {{-2.0, 2.0}};
    QVERIFY(validate(m).empty());
    Document doc;
    doc.setModel(m);
    ProblemsDock dock(&doc);
    QAbstractItemModelTester tester(dock.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModel* rows = dock.view()->model();
    QCOMPARE(rows->rowCount(), 1);
    QVERIFY(doc.problems()->isEmpty());  // no errors: nothing blocks a run
    QVERIFY(doc.runBlocker().isEmpty());
    QCOMPARE(dock.summary(), QStringLiteral("1 warning — the model can be run"));
    QCOMPARE(rows->index(0, 0).data(ProblemsModel::PathRole).toString(),
             QStringLiteral("bodies[%1].joint.q0[0]").arg(body));
    QCOMPARE(rows->index(0, 0).data().toString(),
             QStringLiteral("%1 · joint.q0[0]")
                 .arg(QString::fromStdString(doc.model().bodies[static_cast<std::size_t>(body)].name)));
    QVERIFY(rows->index(0, 0).data(ProblemsModel::WarningRole).toBool());
    QVERIFY(rows->index(0, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("warning: ")));
    QVERIFY(rows->index(0, 1).data().toString().contains(QStringLiteral("is it in degrees?")));
    const auto iconImage = [&](int row) {
      return rows->index(row, 0).data(Qt::DecorationRole).value<QIcon>().pixmap(16, 16).toImage();
    };
    const QImage warningIcon = iconImage(0);
    QVERIFY(!warningIcon.isNull());
    QCOMPARE(warningIcon, dock.style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(16, 16).toImage());
    dock.resize(720, 160);
    compareWithBaseline(dock, QStringLiteral("problems_dock_warning"));

    // An error as well: the error first, with the error icon; the model cannot be run.
    Model bad = m;
    bad.bodies[static_cast<std::size_t>(body)].inertial.mass = 0.0;
    doc.setModel(bad);
    QCOMPARE(rows->rowCount(), 2);
    QVERIFY(!doc.problems()->isEmpty());
    QVERIFY(!rows->index(0, 0).data(ProblemsModel::WarningRole).toBool());
    QVERIFY(rows->index(1, 0).data(ProblemsModel::WarningRole).toBool());
    QVERIFY(iconImage(0) != warningIcon);
    QCOMPARE(dock.summary(), QStringLiteral("1 problem — the model cannot be run (and 1 warning)"));
    QVERIFY(doc.runBlocker().contains(QStringLiteral("mass")));
    // clicking the warning announces its joint field
    QSignalSpy activated(&dock, &ProblemsDock::problemActivated);
    dock.view()->setCurrentIndex(rows->index(1, 0));
    emit dock.view()->activated(dock.view()->currentIndex());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).value<FieldLocation>().body, body);
    QCOMPARE(activated.at(0).at(0).value<FieldLocation>().field, QStringLiteral("joint.q0[0]"));

    // Back within the limits: no rows.
    joint.q0 = {1.0};
    doc.setModel(m);
    QCOMPARE(rows->rowCount(), 0);
    QCOMPARE(dock.summary(), QStringLiteral("No problems"));
  }

  // ---- screenshots ----

  // The session: the two-arm space robot from an empty document with the template table,
  // face mounting and a few field edits, in at most 20 commands; it must move as
  // examples/space_robot.yaml does (q within 1e-12 over 1 s).
  void buildTheSpaceRobotWithTheTemplateTable() {
    if (!QFile::exists(kSpaceRobot)) QSKIP("examples/space_robot.yaml is not in the tree");
    const Model ex = loadModelFromFile(kSpaceRobot.toStdString());
    Document doc;
    QString error;
    // 1: no gravity in orbit
    QVERIFY(edit::apply(doc, edit::setGravity(doc, Vec3::Zero(), &error)));
    // 2: the base, Insert Template ▸ Prism Base
    {
      TemplateDialog dlg(&doc, QStringLiteral("world"));
      dlg.setKind(TemplateDialog::Kind::PrismBase);
      setSpin(dlg, "prism.sides", 6);
      setSpin(dlg, "prism.radius", 0.8);
      setSpin(dlg, "prism.height", 1.2);
      setSpin(dlg, "prism.mass", 400);
      setJoint(dlg, "prism.joint", JointType::Free);
      setText(dlg, "prism.jointName", QStringLiteral("base_joint"));
      QUndoCommand* c = dlg.makeCommand(&error);
      QVERIFY2(c, qPrintable(error));
      doc.push(c);
      QCOMPARE(doc.model().bodies[0].joint.name, std::string("base_joint"));
    }
    // 3, 4: each arm, Insert Template ▸ Serial Arm with the space-robot preset, the example's
    // numbers typed into the table, mounted on the base's ±y side
    const auto insertArm = [&](int first, const QString& prefix, const QString& jointPrefix, const char* normal) {
      TemplateDialog dlg(&doc, QStringLiteral("base"));
      dlg.setKind(TemplateDialog::Kind::Arm);
      auto* preset = child<QComboBox>(dlg, "arm.preset");
      QVERIFY(preset);
      emit preset->activated(1);  // the space robot's arm: what the user picks from the list
      QCOMPARE(dlg.armTable()->rowCount(), 6);
      int typed = 0;  // cells where the preset differs from the example
      for (int k = 0; k < 6; ++k) {
        const BodySpec& b = ex.bodies[static_cast<std::size_t>(first + k)];
        const Shape& link = b.shapes.front();
        const auto type = [&](int column, const QString& text) {
          if (dlg.armTable()->item(k, column)->text() == text) return;
          setArmCell(dlg, k, column, text);
          ++typed;
        };
        type(TemplateDialog::LengthCol, formatNumber(link.length));
        type(TemplateDialog::WidthCol, formatNumber(2 * link.radius));
        type(TemplateDialog::MassCol, formatNumber(b.inertial.mass));
        type(TemplateDialog::DriveCol, QString::fromStdString(driveText(b.joint.drive)));
      }
      qInfo("arm %s: %d cells typed", qPrintable(prefix), typed);
      if (first == 1) QCOMPARE(typed, 0);  // the preset is the example's first arm
      setText(dlg, "arm.prefix", prefix);
      setText(dlg, "arm.jointPrefix", jointPrefix);
      int face = -1;
      for (std::size_t f = 0; f < dlg.mountFaces().size(); ++f)
        if (dlg.mountFaces()[f].label.find("side") != std::string::npos &&
            dlg.mountFaces()[f].label.find(normal) != std::string::npos)
          face = static_cast<int>(f);
      QVERIFY(face >= 0);
      dlg.mountOnFace(face);
      QUndoCommand* c = dlg.makeCommand(&error);
      QVERIFY2(c, qPrintable(error));
      doc.push(c);
    };
    insertArm(1, QStringLiteral("L1"), QStringLiteral("J1"), "normal +y");
    if (QTest::currentTestFailed()) return;
    insertArm(7, QStringLiteral("L2"), QStringLiteral("J2"), "normal -y");
    if (QTest::currentTestFailed()) return;
    // the rest by field edits: inertias the example rounds to 6 digits, the non-zero q0
    for (int k = 1; k < 13; ++k) {
      const BodySpec& want = ex.bodies[static_cast<std::size_t>(k)];
      const BodySpec& have = doc.model().bodies[static_cast<std::size_t>(k)];
      QCOMPARE(have.name, want.name);
      QCOMPARE(have.joint.name, want.joint.name);
      QCOMPARE(have.joint.origin, want.joint.origin);  // the face placement, bit for bit
      QCOMPARE(have.joint.axis, want.joint.axis);
      QCOMPARE(have.joint.drive, want.joint.drive);
      if (!(have.inertial == want.inertial))
        QVERIFY(edit::apply(doc, edit::setInertial(doc, k, want.inertial, &error)));
      // (a joint without q0 starts at 0, as the example's q0: [0] says)
      const bool zero = std::all_of(want.joint.q0.begin(), want.joint.q0.end(), [](double x) { return x == 0.0; });
      if (have.joint.q0 != want.joint.q0 && !(have.joint.q0.empty() && zero))
        QVERIFY(edit::apply(doc, edit::setInitialPosition(doc, k, want.joint.q0, &error)));
    }
    const int commands = doc.undoStack()->count();
    qInfo("the space robot in %d commands", commands);
    QVERIFY(commands <= 20);
    QVERIFY(doc.problems()->isEmpty());
    QCOMPARE(doc.model().bodies[0].inertial.mass, 400.0);

    // the same motion over 1 s
    SimulatorOptions o = SimulatorOptions::fromSettings(ex.simulation);
    o.record = false;
    Simulator a(ex, o);
    Simulator b(doc.model(), o);
    double worst = 0.0;
    for (int step = 0; step < 500; ++step) {
      QVERIFY(a.step());
      QVERIFY(b.step());
      worst = std::max(worst, (a.q() - b.q()).lpNorm<Eigen::Infinity>());
    }
    qInfo("largest |q - q_example| over 1 s: %.3g", worst);
    QVERIFY(worst <= 1e-12);
  }

  // The other way to the second arm: Mirror Subtree of the first (mount only, names L1 → L2 and
  // J1 → J2) gives the example's second arm bit for bit but for its drives, which the example
  // chose per arm; with those set the model is the example, byte for byte. (Six drives of three
  // differing fields each make this path longer than a second template table: 18 field edits
  // against one table with six drive cells.)
  void mirrorOfTheFirstArmIsTheSecond() {
    if (!QFile::exists(kSpaceRobot)) QSKIP("examples/space_robot.yaml is not in the tree");
    Document doc;
    QVERIFY(doc.open(kSpaceRobot));
    const Model ex = doc.model();
    QVERIFY(edit::apply(doc, edit::deleteSubtree(doc, ex.findBody("L21"))));
    MirrorDialog dlg(&doc, doc.model().findBody("L11"));
    child<QRadioButton>(dlg, "mountOnly")->click();
    auto* table = child<QTableWidget>(dlg, "renames");
    while (table->rowCount() > 0) table->removeRow(0);
    dlg.addRename(QStringLiteral("L1"), QStringLiteral("L2"));
    dlg.addRename(QStringLiteral("J1"), QStringLiteral("J2"));
    QCOMPARE(dlg.options().plane, MirrorPlane::ZX);
    QString error;
    QUndoCommand* c = dlg.makeCommand(&error);
    QVERIFY2(c, qPrintable(error));
    doc.push(c);
    QCOMPARE(doc.model().bodies.size(), ex.bodies.size());
    int fieldEdits = 0;
    for (int k = 7; k < 13; ++k) {
      const BodySpec& want = ex.bodies[static_cast<std::size_t>(k)];
      BodySpec have = doc.model().bodies[static_cast<std::size_t>(k)];
      QCOMPARE(have.name, want.name);
      QCOMPARE(have.joint.origin, want.joint.origin);  // J21 on the −y face: roll +90°, exactly
      const Drive& a = have.joint.drive;
      const Drive& b = want.joint.drive;
      fieldEdits += (a.amplitude != b.amplitude) + (a.frequency != b.frequency) + (a.phase != b.phase) +
                    (a.offset != b.offset) + (a.kp != b.kp) + (a.kd != b.kd);
      have.joint.drive = want.joint.drive;
      QCOMPARE(saveModelToString([&] {
                 Model one;
                 one.bodies = {have};
                 return one;
               }()),
               saveModelToString([&] {
                 Model one;
                 one.bodies = {want};
                 return one;
               }()));
      QVERIFY(edit::apply(doc, edit::setDrive(doc, k, want.joint.drive, &error)));
    }
    qInfo("the second arm by mirror: 1 command and %d drive field edits", fieldEdits);
    QCOMPARE(yamlOf(doc), saveModelToString(ex));
  }

  // A drive cell reads against its row's joint: the same text refused for one joint type is
  // taken for another (each text is read once per joint type and remembered).
  void armDriveCellsFollowTheirJoint() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog dlg(&doc, QStringLiteral("base"));
    dlg.setKind(TemplateDialog::Kind::Arm);
    setSpin(dlg, "arm.links", 3);
    const QString twoValues = QStringLiteral("{type: constant, value: [1, 2]}");
    setArmCell(dlg, 1, TemplateDialog::DriveCol, twoValues);
    QString error;
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY2(error.startsWith(QStringLiteral("link 2: drive")), qPrintable(error));
    setArmCell(dlg, 1, TemplateDialog::JointCol, QStringLiteral("universal"));
    QUndoCommand* c = dlg.makeCommand(&error);
    QVERIFY2(c, qPrintable(error));
    doc.push(c);
    const int second = static_cast<int>(doc.model().bodies.size()) - 2;
    QCOMPARE(doc.model().bodies[static_cast<std::size_t>(second)].joint.type, JointType::Universal);
    QCOMPARE(doc.model().bodies[static_cast<std::size_t>(second)].joint.drive.value, (std::vector<double>{1, 2}));
    // and back: refused again for a revolute joint
    setArmCell(dlg, 1, TemplateDialog::JointCol, QStringLiteral("revolute"));
    QVERIFY(!dlg.makeCommand(&error));
    QVERIFY2(error.startsWith(QStringLiteral("link 2: drive")), qPrintable(error));
  }

  // The Model dock's layout: a robot's short arm nested, a long chain flat with its levels, a
  // branch off the chain nested under the body it hangs from; consistent through edits.
  void flatChainLayout() {
    Document doc;
    doc.setModel(smallRobot());  // base, left_1 … left_3
    FlatChainProxy layout(doc.bodyTree());
    QAbstractItemModelTester tester(&layout, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ChainTemplate chain;
    chain.bodies = FlatChainProxy::kFlatChain + 4;
    chain.prefix = "c";
    QVERIFY(edit::apply(doc, edit::insertChain(doc, QStringLiteral("base"), chain)));
    const Model& m = doc.model();
    const int arm2 = m.findBody("left_2"), c1 = m.findBody("c1"), c5 = m.findBody("c5"),
              last = m.findBody("c" + std::to_string(chain.bodies));
    // the arm (a chain of 3) nested: left_2 under left_1
    QCOMPARE(layout.bodyOf(layout.indexOfBody(arm2).parent()), m.findBody("left_1"));
    // the long chain flat under base, in order, each with its level
    QCOMPARE(layout.bodyOf(layout.indexOfBody(c5).parent()), m.findBody("base"));
    QCOMPARE(layout.indexOfBody(c5).row(), layout.indexOfBody(c1).row() + 4);
    QCOMPARE(layout.levelOf(c5), 6);
    QCOMPARE(layout.levelOf(last), chain.bodies + 1);
    QCOMPARE(layout.data(layout.indexOfBody(c5, FlatChainProxy::LevelColumn)).toInt(), 6);
    QCOMPARE(layout.data(layout.indexOfBody(c5)).toString(), QStringLiteral("c5"));
    // a branch off the chain: c5 now has two children, the chain splits into shorter ones
    QVERIFY(edit::apply(doc, edit::addBody(doc, QStringLiteral("c5"), JointType::Revolute, QStringLiteral("twig"))));
    const int twig = m.findBody("twig");
    QCOMPARE(layout.bodyOf(layout.indexOfBody(twig).parent()), c5);
    QCOMPARE(layout.levelOf(twig), 7);
    // renames reach the layout
    QVERIFY(edit::apply(doc, edit::renameBody(doc, c5, QStringLiteral("knot"))));
    QCOMPARE(layout.data(layout.indexOfBody(c5)).toString(), QStringLiteral("knot"));
    doc.undoStack()->setIndex(0);
    QCOMPARE(layout.rowCount(), 1);
  }

  // The dialogs look as they did: a changed layout, a lost field or a refusal line no longer
  // shown fails here.
  void dialogsLookLikeTheirBaselines() {
    Document doc;
    doc.setModel(smallRobot());
    TemplateDialog arm(&doc, QStringLiteral("base"));
    child<QComboBox>(arm, "arm.preset")->setCurrentIndex(1);
    emit child<QComboBox>(arm, "arm.preset")->activated(1);
    arm.mountOnFace(1);
    setArmCell(
        arm, 1, TemplateDialog::DriveCol,
        QStringLiteral("{type: pd_sinusoid, kp: 3000, kd: 1000, amplitude: 0.7, frequency: 0.1, phase: 0, offset: 0}"));
    arm.resize(760, arm.sizeHint().height());
    compareWithBaseline(arm, QStringLiteral("dialog_template_arm"));
    TemplateDialog chain(&doc, QStringLiteral("world"));
    chain.setKind(TemplateDialog::Kind::Chain);
    setSpin(chain, "chain.mass", -1.0);  // the refusal line
    compareWithBaseline(chain, QStringLiteral("dialog_template_chain"));
    TemplateDialog prism(&doc, QStringLiteral("world"));
    prism.setKind(TemplateDialog::Kind::PrismBase);
    compareWithBaseline(prism, QStringLiteral("dialog_template_prism"));
    MirrorDialog mirror(&doc, doc.model().findBody("left_1"));
    compareWithBaseline(mirror, QStringLiteral("dialog_mirror"));
  }
};

QTEST_MAIN(TestEditorDialogs)
#include "test_editor_dialogs.moc"
