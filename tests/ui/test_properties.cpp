// SPDX-License-Identifier: BSD-3-Clause
// The property editor driven through its widgets on the space robot example: every edit is an
// undo command with the intended effect (degrees in the UI, radians in the file, exact round
// trips), refusals are shown and leave the model alone, the dock follows the document by body id
// without rebuilding its widgets for value changes, focusField finds the editors, "compute from
// shapes" agrees with the mass-properties code, and four pages look like their pictures in
// tests/data/baselines (properties_*.png).
#include <QAction>
#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QStyleOptionFrame>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>
#include <QToolButton>
#include <numbers>

#include "core/dynamics/solver.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "render/charts/figure_view.hpp"
#include "support/baseline.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/properties/motion_preview.hpp"
#include "ui/editor/properties/properties_dock.hpp"

using namespace kt;
using namespace kt::ui;

namespace {

const QString kExample = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");

}  // namespace

class TestProperties : public QObject {
  Q_OBJECT

  std::unique_ptr<Document> doc_;
  std::unique_ptr<PropertiesDock> dock_;

  std::string yaml() const { return saveModelToString(doc_->model()); }
  int body(const char* name) const { return doc_->model().findBody(name); }
  const BodySpec& spec(const char* name) const { return doc_->model().bodies[static_cast<std::size_t>(body(name))]; }

  template <class T = QLineEdit>
  T* field(const QString& name) const {
    const QList<T*> found = dock_->findChildren<T*>(name);
    return found.size() == 1 ? found.front() : nullptr;
  }

  // The message label of the row holding the editor `name`.
  QLabel* errorOf(const QString& name) const {
    for (QWidget* w = field<QWidget>(name); w; w = w->parentWidget())
      for (QLabel* l : w->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly))
        if (l->objectName().startsWith(QLatin1String("error:"))) return l;
    return nullptr;
  }

  // Types `text` into the editor as a user would (select all, type, Return).
  void type(const QString& name, const QString& text) {
    QLineEdit* e = field(name);
    QVERIFY2(e, qPrintable(name));
    e->setFocus();
    e->selectAll();
    QTest::keyClicks(e, text);
    QTest::keyClick(e, Qt::Key_Return);
  }

  void choose(const QString& name, int index) {
    auto* c = field<QComboBox>(name);
    QVERIFY2(c, qPrintable(name));
    c->setCurrentIndex(index);
    emit c->activated(index);
  }

 private slots:
  void init() {
    doc_ = std::make_unique<Document>();
    QString error;
    QVERIFY2(doc_->open(kExample, &error), qPrintable(error));
    dock_ = std::make_unique<PropertiesDock>(doc_.get());
    dock_->resize(360, 900);
    dock_->show();
  }

  void cleanup() {
    dock_.reset();
    doc_.reset();
  }

  void showsBodyAndModelPages() {
    QCOMPARE(dock_->body(), -1);
    QVERIFY(field("gravity"));
    QVERIFY(field<QComboBox>("simulation.solver"));
    dock_->showBody(body("L12"));
    QCOMPARE(dock_->body(), body("L12"));
    QCOMPARE(field("name")->text(), QStringLiteral("L12"));
    QCOMPARE(field("joint.origin.xyz")->text(), QStringLiteral("0, 0, 0.25"));
    QCOMPARE(field("inertial.mass")->text(), QStringLiteral("20"));
    QCOMPARE(field("shapes[1].origin.rpy")->text(), QStringLiteral("0, 90, 0"));
    QCOMPARE(field("joint.drive.kp")->text(), QStringLiteral("3000"));
    QVERIFY(!field("joint.axis2"));  // only universal joints have a second axis
    dock_->showBody(body("base"));   // free joint: quaternion and position, no axis, no limits
    QCOMPARE(field("joint.q0")->text(), QStringLiteral("1, 0, 0, 0"));
    QCOMPARE(field("joint.q0[4]")->text(), QStringLiteral("0, 0, 0"));
    QVERIFY(field("joint.v0[3]"));
    QVERIFY(!field("joint.axis"));
    QVERIFY(!field<QCheckBox>("joint.limits"));
    // Every joint type is offered.
    QCOMPARE(field<QComboBox>("joint.type")->count(), static_cast<int>(kAllJointTypes.size()));
  }

  void editsAreUndoableCommands() {
    dock_->showBody(body("L12"));
    const std::string before = yaml();
    const int steps = doc_->undoStack()->count();
    type("joint.origin.xyz", "0.1, 0, 0.25");
    QCOMPARE(spec("L12").joint.origin.xyz, Vec3(0.1, 0.0, 0.25));
    QCOMPARE(doc_->undoStack()->count(), steps + 1);
    type("inertial.mass", "0.1");  // typed values are stored exactly
    QCOMPARE(spec("L12").inertial.mass, 0.1);
    QVERIFY(yaml().find("mass: 0.1\n") != std::string::npos);
    QCOMPARE(field("inertial.mass")->text(), QStringLiteral("0.1"));
    type("joint.axis", "0 1 0");
    QCOMPARE(spec("L12").joint.axis, Vec3(0, 1, 0));
    type("inertial.inertia.ixy", "0.01");
    QCOMPARE(spec("L12").inertial.inertia(0, 1), 0.01);
    QCOMPARE(spec("L12").inertial.inertia(1, 0), 0.01);
    type("applied_wrench.force", "1, 2, 3");
    QCOMPARE(Vec3(spec("L12").appliedWrench.tail<3>()), Vec3(1, 2, 3));
    type("joint.q0", "15");  // degrees
    QCOMPARE(spec("L12").joint.q0, std::vector<double>{std::numbers::pi * (15.0 / 180.0)});
    type("joint.drive.amplitude", "30");
    QCOMPARE(spec("L12").joint.drive.amplitude, std::vector<double>{std::numbers::pi * (30.0 / 180.0)});
    type("joint.limits[0].upper", "120");
    QCOMPARE(spec("L12").joint.limits[0].upper, std::numbers::pi * (120.0 / 180.0));
    type("shapes[0].radius", "0.07");
    QCOMPARE(spec("L12").shapes[0].radius, 0.07);
    type("joint.name", "shoulder");
    QCOMPARE(spec("L12").joint.name, std::string("shoulder"));
    type("name", "upper_arm");
    QCOMPARE(body("L12"), -1);
    QCOMPARE(spec("L13").parent, std::string("upper_arm"));
    QCOMPARE(dock_->body(), body("upper_arm"));
    QCOMPARE(doc_->undoStack()->count(), steps + 11);
    while (doc_->undoStack()->index() > steps) doc_->undoStack()->undo();
    QCOMPARE(yaml(), before);  // undo restores the file byte for byte
    QCOMPARE(field("name")->text(), QStringLiteral("L12"));
    QCOMPARE(field("inertial.mass")->text(), QStringLiteral("20"));
  }

  // The load rating: force and moment, and one limit per reaction coordinate (one value for all).
  void loadRating() {
    dock_->showBody(body("L12"));
    QCOMPARE(field("joint.rating.force")->text(), QStringLiteral("50"));  // from the example
    QCOMPARE(field("joint.rating.moment")->text(), QStringLiteral("40"));
    type("joint.rating.moment", "450");
    QCOMPARE(spec("L12").joint.rating.moment, 450.0);
    type("joint.rating.reaction", "120");
    QCOMPARE(spec("L12").joint.rating.reaction, std::vector<double>(5, 120.0));
    QVERIFY(yaml().find("rating: {force: 50, moment: 450, reaction: [120, 120, 120, 120, 120]}") != std::string::npos);
    QLineEdit* perAxis = field("joint.rating.reaction");  // emptied: no rating per coordinate
    perAxis->setFocus();
    perAxis->selectAll();
    QTest::keyClick(perAxis, Qt::Key_Delete);
    QTest::keyClick(perAxis, Qt::Key_Return);
    QVERIFY(spec("L12").joint.rating.reaction.empty());
    // another number of reaction coordinates drops the per-coordinate ratings with the type change
    type("joint.rating.reaction", "120");
    choose("joint.type",
           static_cast<int>(std::find(kAllJointTypes.begin(), kAllJointTypes.end(), JointType::Spherical) -
                            kAllJointTypes.begin()));
    QCOMPARE(spec("L12").joint.type, JointType::Spherical);
    QVERIFY(spec("L12").joint.rating.reaction.empty());
    QCOMPARE(spec("L12").joint.rating.force, 50.0);
    dock_->showBody(body("base"));  // a free joint has no reaction to rate
    QVERIFY(field("joint.rating.force"));
    QVERIFY(!field("joint.rating.reaction"));
  }

  void rotationIsInDegrees() {
    dock_->showBody(body("L11"));
    QCOMPARE(field("joint.origin.rpy")->text(), QStringLiteral("-90, 0, 0"));
    const double roll = spec("L11").joint.origin.rpy.x();
    // Change only the yaw: the untouched roll keeps its exact radians.
    type("joint.origin.rpy", "-90, 0, 30");
    QCOMPARE(spec("L11").joint.origin.rpy.x(), roll);
    QCOMPARE(spec("L11").joint.origin.rpy.z(), std::numbers::pi * (30.0 / 180.0));
    QCOMPARE(field("joint.origin.rpy")->text(), QStringLiteral("-90, 0, 30"));
    // Radians from elsewhere show to 12 digits; untouched they stay exact.
    QVERIFY(edit::apply(*doc_, edit::setJointOrigin(*doc_, body("L11"), [&] {
      Placement p = spec("L11").joint.origin;
      p.rpy.y() = 0.3;
      return p;
    }())));
    QCOMPARE(field("joint.origin.rpy")->text(), QStringLiteral("-90, 17.1887338539, 30"));
    type("joint.origin.rpy", "-90, 17.1887338539, 45");
    QCOMPARE(spec("L11").joint.origin.rpy.y(), 0.3);
    type("joint.origin.rpy", "90, 45, 180");
    QCOMPARE(spec("L11").joint.origin.rpy, Vec3(std::numbers::pi / 2, std::numbers::pi / 4, std::numbers::pi));
    QVERIFY(yaml().find("rpy: [1.5707963267948966, 0.7853981633974483, 3.141592653589793]") != std::string::npos);
    QCOMPARE(field("joint.origin.rpy")->text(), QStringLiteral("90, 45, 180"));
    // The quaternion form shows and edits the quaternion; switching converts the rotation.
    choose("joint.origin.form", 1);
    QVERIFY(spec("L11").joint.origin.useQuaternion);
    QVERIFY(spec("L11").joint.origin.rotation().isApprox(
        rotationFromRpy(Vec3(std::numbers::pi / 2, std::numbers::pi / 4, std::numbers::pi)), 1e-12));
    QVERIFY(field("joint.origin.quaternion"));
    QVERIFY(!field("joint.origin.rpy"));
    type("joint.origin.quaternion", "0, 0, 0, 1");
    QCOMPARE(spec("L11").joint.origin.quat, Eigen::Vector4d(0, 0, 0, 1));
  }

  // Joint angles, limits, target positions and phases are shown in degrees and stored in radians;
  // untouched values keep their exact radians, metres stay metres beside them.
  void anglesAreInDegrees() {
    dock_->showBody(body("L13"));
    QCOMPARE(field("joint.q0")->text(), QStringLiteral("57.2957795131"));  // q0: [1]
    QCOMPARE(field("joint.drive.phase")->text(), QStringLiteral("-90"));
    QCOMPARE(field("joint.drive.offset")->text(), QStringLiteral("91.6732472209"));     // 1.6 rad
    QCOMPARE(field("joint.limits[0].upper")->text(), QStringLiteral("179.999847961"));  // 3.14159
    const kt::JointSpec before = spec("L13").joint;
    type("joint.drive.phase", "-45");
    QCOMPARE(spec("L13").joint.drive.phase, std::vector<double>{-std::numbers::pi / 4});
    QCOMPARE(spec("L13").joint.drive.offset, before.drive.offset);  // untouched: exact
    QCOMPARE(spec("L13").joint.q0, before.q0);
    QVERIFY(yaml().find("phase: [-0.7853981633974483]") != std::string::npos);
    type("joint.limits[0].lower", "-135");
    QCOMPARE(spec("L13").joint.limits[0].lower, -std::numbers::pi * (135.0 / 180.0));
    QCOMPARE(spec("L13").joint.limits[0].upper, 3.14159);
    // radians typed with their unit are taken as typed; degrees may carry theirs
    type("joint.limits[0].lower", "-3.14159 rad");
    QCOMPARE(spec("L13").joint.limits[0].lower, -3.14159);
    QCOMPARE(field("joint.limits[0].lower")->text(), QStringLiteral("-179.999847961"));
    type("joint.q0", "0.5rad");
    QCOMPARE(spec("L13").joint.q0, std::vector<double>{0.5});
    type("joint.q0", "45°");
    QCOMPARE(spec("L13").joint.q0, std::vector<double>{std::numbers::pi / 4});
    type("joint.q0", "2 m");
    QVERIFY(errorOf("joint.q0")->isVisible());
    QVERIFY(field("joint.q0")->toolTip().contains(QStringLiteral("rad")));
    // a click into a field selects its value: typing replaces it
    // (the focus event itself: a window under Xvfb without a window manager gets no focus)
    type("joint.q0", "45");
    QLineEdit* q0 = field("joint.q0");
    q0->deselect();
    QFocusEvent byClick(QEvent::FocusIn, Qt::MouseFocusReason);
    QApplication::sendEvent(q0, &byClick);
    QApplication::processEvents();
    QCOMPARE(q0->selectedText(), QStringLiteral("45"));
    // A cylindrical joint: θ in degrees, d in metres, in one field where they share one.
    choose("joint.type", 3);
    QCOMPARE(spec("L13").joint.type, JointType::Cylindrical);
    type("joint.q0", "90");
    type("joint.q0[1]", "0.25");
    QCOMPARE(spec("L13").joint.q0, (std::vector<double>{std::numbers::pi / 2, 0.25}));
    choose("joint.drive.type", 3);  // pd_sinusoid: amplitude and offset are positions
    QCOMPARE(spec("L13").joint.drive.type, DriveType::PdSinusoid);
    type("joint.drive.amplitude", "10, 0.1");
    QCOMPARE(spec("L13").joint.drive.amplitude, (std::vector<double>{std::numbers::pi * (10.0 / 180.0), 0.1}));
    QCOMPARE(field("joint.drive.amplitude")->text(), QStringLiteral("10, 0.1"));
    if (spec("L13").joint.limits.empty()) field<QCheckBox>("joint.limits")->click();
    QCOMPARE(field("joint.limits[0].upper")->text(), QStringLiteral("180"));  // π exactly
    QCOMPARE(field("joint.limits[1].upper")->text(), QStringLiteral("1"));
    type("joint.limits[1].upper", "0.5");
    QCOMPARE(spec("L13").joint.limits[1].upper, 0.5);
  }

  void consecutiveEditsOfOneFieldMerge() {
    dock_->showBody(body("L13"));
    const int steps = doc_->undoStack()->count();
    type("inertial.mass", "16");
    type("inertial.mass", "17");
    type("inertial.mass", "18");
    QCOMPARE(doc_->undoStack()->count(), steps + 1);
    doc_->undoStack()->undo();
    QCOMPARE(spec("L13").inertial.mass, 15.0);
  }

  void refusals_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");  // a word of the reason shown
    QTest::newRow("negative mass") << "L12"
                                   << "inertial.mass"
                                   << "-3"
                                   << "> 0";
    QTest::newRow("zero mass") << "L12"
                               << "inertial.mass"
                               << "0"
                               << "> 0";
    QTest::newRow("NaN mass") << "L12"
                              << "inertial.mass"
                              << "nan"
                              << "finite";
    QTest::newRow("not a number") << "L12"
                                  << "inertial.com"
                                  << "0, x, 0"
                                  << "not a number";
    QTest::newRow("two of three") << "L12"
                                  << "joint.origin.xyz"
                                  << "1, 2"
                                  << "3 numbers";
    QTest::newRow("zero axis") << "L12"
                               << "joint.axis"
                               << "0, 0, 0"
                               << "zero";
    QTest::newRow("duplicate body name") << "L12"
                                         << "name"
                                         << "L13"
                                         << "L13";
    QTest::newRow("world") << "L12"
                           << "name"
                           << "world"
                           << "world";
    QTest::newRow("negative radius") << "L12"
                                     << "shapes[0].radius"
                                     << "-0.1"
                                     << "> 0";
    QTest::newRow("fractional sides") << "base"
                                      << "shapes[0].sides"
                                      << "5.5"
                                      << "whole";
    QTest::newRow("negative inertia") << "L12"
                                      << "inertial.inertia.izz"
                                      << "-1"
                                      << "inertia";
    QTest::newRow("infinite gravity") << ""
                                      << "gravity"
                                      << "0, 0, inf"
                                      << "finite";
    QTest::newRow("negative force rating") << "L12"
                                           << "joint.rating.force"
                                           << "-400"
                                           << "≥ 0";
    QTest::newRow("three of five reaction ratings") << "L13"
                                                    << "joint.rating.reaction"
                                                    << "1, 2, 3"
                                                    << "expected 5";
    QTest::newRow("negative step") << ""
                                   << "simulation.step"
                                   << "-0.001"
                                   << "> 0";
  }

  void refusals() {
    QFETCH(QString, body);
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, reason);
    dock_->showBody(body.isEmpty() ? -1 : this->body(body.toLatin1().constData()));
    const std::string before = yaml();
    const QString shown = field(name)->text();
    QSignalSpy refused(dock_.get(), &PropertiesDock::editRefused);
    type(name, text);
    QCOMPARE(yaml(), before);
    QCOMPARE(refused.count(), 1);
    const QString why = refused.front().front().toString();
    QVERIFY2(why.contains(reason), qPrintable(why));
    QLabel* error = errorOf(name);
    QVERIFY(error);
    QVERIFY(error->isVisible());
    QCOMPARE(error->text(), why);
    QCOMPARE(field(name)->text(), shown);  // the field shows the model's value again
    // A valid value afterwards is taken and clears the message, in that field or another: the
    // refused value was put back, and its reason stayed beside a valid one.
    if (body == QLatin1String("L12")) {
      const QString other = name == QLatin1String("inertial.mass") ? name : QStringLiteral("inertial.mass");
      type(other, QStringLiteral("21"));
      QCOMPARE(spec("L12").inertial.mass, 21.0);
      QVERIFY(!error->isVisible());
    }
  }

  void showsTheModelsProblemsAtTheirFields() {
    Model m = doc_->model();
    m.bodies[static_cast<std::size_t>(m.findBody("L12"))].inertial.mass = -1.0;
    m.simulation.step = 0.0;
    doc_->setModel(m);
    QCOMPARE(dock_->body(), -1);
    QVERIFY(errorOf("simulation.step")->isVisible());
    QVERIFY(errorOf("simulation.step")->text().contains(QStringLiteral("> 0")));
    QVERIFY(!errorOf("gravity")->isVisible());
    dock_->showBody(body("L12"));
    QLabel* mass = errorOf("inertial.mass");
    QVERIFY(mass->isVisible());
    QVERIFY2(mass->text().contains(QStringLiteral("got -1")), qPrintable(mass->text()));
    type("inertial.mass", "20");  // fixing the field clears its message
    QCOMPARE(spec("L12").inertial.mass, 20.0);
    QVERIFY(!errorOf("inertial.mass")->isVisible());
  }

  void comboEditsAndRebuilds() {
    dock_->showBody(body("L12"));
    // Joint type: prismatic keeps one coordinate (state kept), spherical changes the page.
    choose("joint.type", 2);
    QCOMPARE(spec("L12").joint.type, JointType::Prismatic);
    QCOMPARE(field("joint.q0")->text(), QStringLiteral("0"));
    choose("joint.type", 4);
    QCOMPARE(spec("L12").joint.type, JointType::Universal);
    QVERIFY(field("joint.axis2"));
    QCOMPARE(field("joint.q0")->text(), QStringLiteral("0, 0"));
    type("joint.v0", "0.5");
    QVERIFY(errorOf("joint.v0")->isVisible());  // two rates expected
    type("joint.v0", "0.5, -0.5");
    QCOMPARE(spec("L12").joint.v0, (std::vector<double>{0.5, -0.5}));
    // Drive: a spring-damper gets its parameters, a single number applies to both coordinates.
    choose("joint.drive.type", 5);
    QCOMPARE(spec("L12").joint.drive.type, DriveType::SpringDamper);
    type("joint.drive.stiffness", "40");
    QCOMPARE(spec("L12").joint.drive.stiffness, (std::vector<double>{40, 40}));
    choose("joint.drive.type", 4);
    QCOMPARE(spec("L12").joint.drive.type, DriveType::PdPiecewise);
    type("joint.drive.knots[1]", "0, 0; 1, 0.5; 2, -0.25");
    QCOMPARE(spec("L12").joint.drive.knots[1].size(), std::size_t(3));
    QCOMPARE(spec("L12").joint.drive.knots[1][2].value, -0.25);
    type("joint.drive.knots[1]", "0, 0; 0, 1");
    QVERIFY(errorOf("joint.drive.knots[1]")->isVisible());  // times must increase
    // Simulation settings: solver names are the registry's.
    dock_->showBody(-1);
    auto* solver = field<QComboBox>("simulation.solver");
    QCOMPARE(solver->count(), static_cast<int>(solverRegistry().size()));
    choose("simulation.solver", solver->findText(QStringLiteral("crba")));
    QCOMPARE(doc_->model().simulation.solver, std::string("crba"));
    choose("simulation.integrator", field<QComboBox>("simulation.integrator")->findText(QStringLiteral("euler")));
    QCOMPARE(doc_->model().simulation.integrator, std::string("euler"));
    type("simulation.step", "0.001");
    QCOMPARE(doc_->model().simulation.step, 0.001);
  }

  // A prescribed motion replaces the drive section; its fields are checked as the file is, the
  // preview plots it, and undo gives the drive back.
  void prescribedMotion() {
    dock_->showBody(body("L12"));
    QVERIFY(field<QComboBox>("joint.drive.type"));
    const Drive drive = spec("L12").joint.drive;
    choose("joint.motion.type", 2);  // rest_to_rest
    QCOMPARE(spec("L12").joint.motion.type, MotionType::RestToRest);
    QCOMPARE(spec("L12").joint.drive.type, DriveType::None);
    QVERIFY(!field<QComboBox>("joint.drive.type"));  // a joint follows a motion or a drive
    type("joint.motion.moves[0]", "0, 1, 0, 0.5; 1, 2, 0.4, 0");
    QVERIFY(errorOf("joint.motion.moves[0]")->isVisible());  // a jump
    QVERIFY(errorOf("joint.motion.moves[0]")->text().contains("a move starts where the previous one ended"));
    type("joint.motion.moves[0]", "0, 1, 0, 0.5; 1.5, 2, 0.5, 0");
    QCOMPARE(spec("L12").joint.motion.moves[0].size(), std::size_t(2));
    QCOMPARE(spec("L12").joint.motion.moves[0][1].qb, 0.0);
    auto* preview = dock_->findChild<MotionPreview*>();
    QVERIFY(preview && preview->message().isEmpty());
    // the plots in degrees: the legend names the coordinate, the axes give °, °/s and °/s² (the
    // legend said "θ (rad)" over axes in degrees)
    const QList<render::FigureView*> plots = preview->findChildren<render::FigureView*>();
    QCOMPARE(plots.size(), 3);
    const QStringList units{QStringLiteral("°"), QStringLiteral("°/s"), QStringLiteral("°/s²")};
    for (int d = 0; d < 3; ++d) {
      QCOMPARE(plots[d]->figure().series.front().name, QStringLiteral("θ"));
      QCOMPARE(plots[d]->figure().left.label, units[d]);
    }
    choose("joint.motion.type", 3);  // sinusoid: the amplitude of an angle in degrees
    type("joint.motion.amplitude", "30");
    QVERIFY(std::abs(spec("L12").joint.motion.amplitude[0] - std::numbers::pi / 6) < 1e-12);
    while (spec("L12").joint.motion.type != MotionType::None) doc_->undoStack()->undo();
    QCOMPARE(spec("L12").joint.drive, drive);
    QVERIFY(field<QComboBox>("joint.drive.type"));
    // the effort rating: a motor's peak torque
    type("joint.rating.effort", "250");
    QCOMPARE(spec("L12").joint.rating.effort, std::vector<double>{250.0});
    type("joint.rating.effort", "-1");
    QVERIFY(errorOf("joint.rating.effort")->isVisible());
  }

  void followsTheDocumentInPlace() {
    dock_->showBody(body("L21"));
    QPointer<QLineEdit> mass = field("inertial.mass");
    // Undoable changes from elsewhere refresh the values without new widgets.
    QVERIFY(edit::apply(*doc_, edit::setMass(*doc_, body("L21"), 9.5)));
    QCOMPARE(mass->text(), QStringLiteral("9.5"));
    QCOMPARE(field("inertial.mass"), mass.data());
    doc_->undoStack()->undo();
    QCOMPARE(mass->text(), QStringLiteral("8"));
    // Deleting bodies listed before it shifts its index: the dock keeps the same body.
    QVERIFY(edit::apply(*doc_, edit::deleteSubtree(*doc_, body("L11"))));
    QCOMPARE(dock_->body(), body("L21"));
    QCOMPARE(field("name")->text(), QStringLiteral("L21"));
    QCOMPARE(field("inertial.mass"), mass.data());
    doc_->undoStack()->undo();
    QCOMPARE(dock_->body(), body("L21"));
    // Deleting the shown body shows the model page.
    QVERIFY(edit::apply(*doc_, edit::deleteSubtree(*doc_, body("L21"))));
    QCOMPARE(dock_->body(), -1);
    QVERIFY(field("gravity"));
    QVERIFY(!field("inertial.mass"));
    doc_->undoStack()->undo();
    dock_->showBody(body("L21"));
    QCOMPARE(field("name")->text(), QStringLiteral("L21"));
  }

  void focusField_data() {
    QTest::addColumn<QString>("path");  // a YAML path, as the problems list gives it
    QTest::addColumn<QString>("editor");
    QTest::newRow("origin") << "bodies[2].joint.origin.xyz"
                            << "joint.origin.xyz";
    QTest::newRow("placement") << "bodies[2].joint.origin"
                               << "joint.origin.xyz";
    QTest::newRow("mass") << "bodies[5].inertial.mass"
                          << "inertial.mass";
    QTest::newRow("inertia") << "bodies[5].inertial.inertia"
                             << "inertial.inertia.ixx";
    QTest::newRow("shape radius") << "bodies[3].shapes[1].radius"
                                  << "shapes[1].radius";
    QTest::newRow("shape") << "bodies[3].shapes[1]"
                           << "shapes[1].type";
    QTest::newRow("quaternion part of q0") << "bodies[0].joint.q0[2]"
                                           << "joint.q0";
    QTest::newRow("position part of q0") << "bodies[0].joint.q0[5]"
                                         << "joint.q0[4]";
    QTest::newRow("drive gain") << "bodies[1].joint.drive.kp"
                                << "joint.drive.kp";
    QTest::newRow("limit") << "bodies[1].joint.limits[0].lower"
                           << "joint.limits[0].lower";
    QTest::newRow("gravity") << "gravity"
                             << "gravity";
    QTest::newRow("step") << "simulation.step"
                          << "simulation.step";
  }

  void focusField() {
    QFETCH(QString, path);
    QFETCH(QString, editor);
    const FieldLocation where = ProblemsModel::locate(path);
    dock_->focusField(where);
    QCOMPARE(dock_->body(), where.body);
    QWidget* e = dock_->findChild<QWidget*>(editor);
    QVERIFY(e);
    QCOMPARE(dock_->focusWidget(), e);
  }

  void computeFromShapes() {
    dock_->showBody(body("L12"));
    type("inertial.density", "2700");
    QCOMPARE(spec("L12").inertial.mass, 20.0);  // only the density for the computation changed
    auto* compute = field<QPushButton>("inertial.compute");
    QVERIFY(compute && compute->isEnabled());
    compute->click();
    // Two cylinders: r 0.06 m × 1.2 m and r 0.078 m × 0.18 m.
    const double pi = std::numbers::pi;
    const double mass = 2700.0 * (pi * 0.06 * 0.06 * 1.2 + pi * 0.078 * 0.078 * 0.18);
    QVERIFY(std::abs(spec("L12").inertial.mass - mass) < 1e-12 * mass);
    BodySpec probe = spec("L12");
    probe.inertial.fromShapes = true;
    probe.inertial.density = 2700.0;
    const MassProperties expected = bodyMassProperties(probe, {}, meshFiles());
    QVERIFY(spec("L12").inertial.com.isApprox(expected.com, 1e-14));
    QVERIFY(spec("L12").inertial.inertia.isApprox(expected.inertia, 1e-14));
    QVERIFY(!spec("L12").inertial.fromShapes);
    QCOMPARE(field("inertial.mass")->text(), formatNumber(spec("L12").inertial.mass));
    // "From shapes" makes the values computed (shown read-only) and the density the body's.
    field<QCheckBox>("inertial.from_shapes")->click();
    QVERIFY(spec("L12").inertial.fromShapes);
    QVERIFY(field("inertial.mass")->isReadOnly());
    type("inertial.density", "1000");
    QCOMPARE(spec("L12").inertial.density, 1000.0);
    QVERIFY(std::abs(field("inertial.mass")->text().toDouble() - mass / 2.7) < 1e-9 * mass);
    // Nothing to compute from: the button is off.
    dock_->showBody(body("L12"));
    field<QCheckBox>("inertial.from_shapes")->click();
    for (int k = static_cast<int>(spec("L12").shapes.size()); k-- > 0;)
      field<QToolButton>(QStringLiteral("shapes[%1].remove").arg(k))->click();
    QVERIFY(spec("L12").shapes.empty());
    QVERIFY(!field<QPushButton>("inertial.compute")->isEnabled());
  }

  void shapesAddEditRemove() {
    dock_->showBody(body("L14"));
    const std::string before = yaml();
    auto* add = field<QToolButton>("shapes.add");
    QVERIFY(add && add->menu());
    QAction* sphere = add->menu()->findChild<QAction*>(QStringLiteral("shapes.add.sphere"));
    QVERIFY(sphere);
    sphere->trigger();
    QCOMPARE(spec("L14").shapes.size(), std::size_t(3));
    QCOMPARE(spec("L14").shapes[2].type, ShapeType::Sphere);
    type("shapes[2].radius", "0.04");
    QCOMPARE(spec("L14").shapes[2].radius, 0.04);
    type("shapes[2].origin.xyz", "0, 0, 0.2");
    QCOMPARE(spec("L14").shapes[2].origin.xyz, Vec3(0, 0, 0.2));
    choose("shapes[2].type", 0);  // box
    QCOMPARE(spec("L14").shapes[2].type, ShapeType::Box);
    type("shapes[2].size", "0.1, 0.2, 0.3");
    QCOMPARE(spec("L14").shapes[2].size, Vec3(0.1, 0.2, 0.3));
    type("shapes[2].size", "0.1, 0, 0.3");
    QVERIFY(errorOf("shapes[2].size")->isVisible());
    field<QToolButton>("shapes[0].remove")->click();
    QCOMPARE(spec("L14").shapes.size(), std::size_t(2));
    QCOMPARE(spec("L14").shapes[1].type, ShapeType::Box);
    QVERIFY(field("shapes[1].size"));
    QVERIFY(!field("shapes[2].size"));
    while (doc_->undoStack()->canUndo()) doc_->undoStack()->undo();
    QCOMPARE(yaml(), before);
  }

  void meshShapeAndColour() {
    // A unit cube mesh (outward triangles) added to L16.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cube.stl"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Text));
      QTextStream out(&f);
      const double v[8][3] = {{-.5, -.5, -.5}, {.5, -.5, -.5}, {.5, .5, -.5}, {-.5, .5, -.5},
                              {-.5, -.5, .5},  {.5, -.5, .5},  {.5, .5, .5},  {-.5, .5, .5}};
      const int faces[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                {2, 3, 7}, {2, 7, 6}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
      out << "solid cube\n";
      for (const auto& t : faces) {
        out << "facet normal 0 0 0\nouter loop\n";
        for (int k : t) out << "vertex " << v[k][0] << ' ' << v[k][1] << ' ' << v[k][2] << '\n';
        out << "endloop\nendfacet\n";
      }
      out << "endsolid cube\n";
    }
    Shape mesh;
    mesh.type = ShapeType::Mesh;
    mesh.mesh = path.toStdString();
    QVERIFY(edit::apply(*doc_, edit::addShape(*doc_, body("L16"), mesh)));
    dock_->showBody(body("L16"));
    const int k = static_cast<int>(spec("L16").shapes.size()) - 1;
    const QString base = QStringLiteral("shapes[%1]").arg(k);
    QCOMPARE(field(base + ".file")->text(), path);
    type(base + ".scale", "2, 1, 1");
    QCOMPARE(spec("L16").shapes[k].meshScale, Vec3(2, 1, 1));
    type(base + ".scale", "2, 0, 1");
    QVERIFY(errorOf(base + ".scale")->isVisible());
    type(base + ".file", dir.filePath(QStringLiteral("missing.stl")));
    QVERIFY2(errorOf(base + ".file")->text().contains(QStringLiteral("missing.stl")),
             qPrintable(errorOf(base + ".file")->text()));
    QCOMPARE(spec("L16").shapes[k].mesh, path.toStdString());
    // Compute from shapes includes the scaled cube (2 m³ at 1 kg/m³).
    type("inertial.density", "1");
    const double cylinders = kt::bodyMassProperties(
                                 [&] {
                                   BodySpec b = spec("L16");
                                   b.shapes.pop_back();
                                   b.inertial.fromShapes = true;
                                   b.inertial.density = 1.0;
                                   return b;
                                 }(),
                                 {}, kt::meshFiles())
                                 .mass;
    field<QPushButton>("inertial.compute")->click();
    QVERIFY(std::abs(spec("L16").inertial.mass - (2.0 + cylinders)) < 1e-9);

    // Colour: the dialog's choice is stored as RGBA in [0, 1].
    QTimer::singleShot(0, this, [] {
      auto* dialog = qobject_cast<QColorDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      dialog->setCurrentColor(QColor(255, 0, 0, 128));
      dialog->accept();
    });
    field<QPushButton>(base + ".color")->click();
    QCOMPARE(spec("L16").shapes[k].color, Eigen::Vector4d(1, 0, 0, 0.502));
    QVERIFY(field<QPushButton>(base + ".color")->toolTip().contains(QStringLiteral("#ff0000")));
  }

  void typingIsNotOverwrittenByOtherChanges() {
    dock_->showBody(body("L13"));
    dock_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dock_.get()));
    QLineEdit* mass = field("inertial.mass");
    mass->setFocus();
    QVERIFY(mass->hasFocus());
    mass->selectAll();
    QTest::keyClicks(mass, "17");
    QVERIFY(edit::apply(*doc_, edit::setCenterOfMass(*doc_, body("L13"), Vec3(0, 0, 0.4))));
    QCOMPARE(field("inertial.com")->text(), QStringLiteral("0, 0, 0.4"));
    QCOMPARE(mass->text(), QStringLiteral("17"));  // still being typed
    // Selecting another body commits what was typed to the body it was typed for.
    dock_->showBody(body("L14"));
    QCOMPARE(spec("L13").inertial.mass, 17.0);
    QCOMPARE(field("name")->text(), QStringLiteral("L14"));
  }

  // At the width the main window gives the dock, every field shows its whole number: two limits
  // side by side cut "-179.999847961" to "-179.99984".
  void fieldsShowTheirWholeText() {
    dock_->resize(285, 900);
    for (const char* name : {"base", "L12", "L13", "L22"}) {
      dock_->showBody(body(name));
      QApplication::processEvents();
      for (QLineEdit* e : dock_->findChildren<QLineEdit*>()) {
        if (!e->isVisible() || e->text().isEmpty()) continue;
        QStyleOptionFrame option;  // as QLineEdit::initStyleOption, which is protected
        option.initFrom(e);
        option.rect = e->contentsRect();
        option.lineWidth = e->hasFrame() ? e->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, e) : 0;
        const int room = e->style()->subElementRect(QStyle::SE_LineEditContents, &option, e).width() - 4;
        QVERIFY2(e->fontMetrics().horizontalAdvance(e->text()) <= room,
                 qPrintable(QStringLiteral("%1: %2 '%3' in %4 px").arg(name, e->objectName(), e->text()).arg(room)));
      }
    }
  }

  // Three pages and an edit in progress look as they did: a lost or moved field, a changed
  // layout or a refusal no longer shown fails here.
  void pagesLookLikeTheirBaselines() {
    const auto compare = [&](const QString& name, int width) {
      auto* area = dock_->findChild<QScrollArea*>();
      QVERIFY(area && area->widget());
      dock_->resize(width, area->widget()->sizeHint().height() + 40);
      QApplication::processEvents();
      const QString difference = kt::test::differenceFromBaseline(dock_->grab().toImage(), name);
      QVERIFY2(difference.isEmpty(), qPrintable(difference));
    };
    dock_->showBody(body("base"));
    compare(QStringLiteral("properties_base"), 340);
    dock_->showBody(body("L12"));
    compare(QStringLiteral("properties_arm"), 340);
    dock_->showBody(-1);
    compare(QStringLiteral("properties_model"), 340);
    // A universal joint with limits, a piecewise drive and a refused value, 300 px wide.
    dock_->showBody(body("L22"));
    choose("joint.type", 4);
    field<QCheckBox>("joint.limits")->click();
    choose("joint.drive.type", 4);
    type("joint.drive.knots[0]", "0, 0; 2, 0.5; 4, 0");
    type("inertial.mass", "-2");
    QVERIFY(errorOf("inertial.mass")->isVisible());
    compare(QStringLiteral("properties_edit"), 300);
  }
};

QTEST_MAIN(TestProperties)
#include "test_properties.moc"
