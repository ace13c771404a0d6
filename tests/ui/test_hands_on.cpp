// SPDX-License-Identifier: BSD-3-Clause
// Hands on the running model (docs/interaction.md): a scripted Ctrl+drag in the 3D view, with
// mouse events at a body's projected position, pulls that body while the run steps: the drag's
// gains come from the effective mass, the spring is drawn with its force, the pull shows in the
// applied: signals and in the momentum of the floating robot, and Export Results writes the
// events that `kinetree-cli simulate --events` replays into the same CSV bytes.
// Runs under xvfb-run.
#include <QAbstractItemModel>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <optional>

#include "render/overlays/spring_marker.hpp"
#include "render/scene/scene_view.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"
#include "support/scene_fixture.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/selection.hpp"
#include "ui/results/export/results_export.hpp"
#include "ui/results/peak_loads_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/body_grab.hpp"
#include "ui/simulation/drive_panel.hpp"
#include "ui/simulation/pose_panel.hpp"
#include "ui/simulation/push_dialog.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/timeline_bar.hpp"

using kt::ui::MainWindow;
using kt::ui::SimulationController;

namespace {

// One output step of the paused run, and the poll that shows it.
void stepOnce(SimulationController* sim) {
  const std::size_t rows = sim->recorder()->size();
  sim->step();
  QTRY_COMPARE(sim->recorder()->size(), rows + 1);
  sim->poll();
}

// Export Results writes the run and its events; `kinetree-cli simulate --events` replays them
// into the same CSV bytes.
void exportedRunReplays(SimulationController* sim, const QString& modelPath, const QString& name) {
  QTemporaryDir dir;
  const QString csv = dir.filePath(name);
  QString error;
  QVERIFY2(kt::ui::ResultsExport::write(*sim, {}, csv, &error), qPrintable(error));
  const QString replayed = dir.filePath(QStringLiteral("replayed.csv"));
  const kt::test::CliRun cli =
      kt::test::runCli({"simulate", modelPath, "--events", kt::ui::ResultsExport::eventsPath(csv), "--duration",
                        QString::number(sim->simulationTime(), 'g', 17), "-o", replayed});
  QVERIFY2(cli.code == 0 && cli.err.isEmpty(), qPrintable(cli.err));
  QVERIFY2(kt::test::readAll(csv) == kt::test::readAll(replayed), "the replay differs");
}

}  // namespace

class TestHandsOn : public QObject {
  Q_OBJECT

 private slots:
  void ctrlDragPullsABodyAndReplays() {
    const QString modelPath = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    auto w = kt::test::openWindow(modelPath, QSize(1280, 800));
    SimulationController* sim = w->simulation();
    kt::render::SceneView* view = w->sceneView();
    QVERIFY(sim->hasSimulator());
    QVERIFY(view->grabEnabled());
    for (int k = 0; k < 20; ++k) stepOnce(sim);
    view->renderToImage();
    const kt::Tree& tree = *sim->tree();
    // a body of the first arm that shows in the view where it is now
    int body = -1;
    std::optional<QPoint> spot;
    for (const char* name : {"L13", "L14", "L12", "L15"}) {
      const auto it = std::find(tree.bodyNames.begin(), tree.bodyNames.end(), name);
      const int b = static_cast<int>(it - tree.bodyNames.begin());
      if ((spot = kt::test::bodySpot(*view, b))) {
        body = b;
        break;
      }
    }
    QVERIFY2(spot, "a link of the first arm shows in the default view");

    // Ctrl+press on the link, then move the cursor 120 px to the right in steps while the run steps
    QTest::mousePress(view, Qt::LeftButton, Qt::ControlModifier, *spot);
    QVERIFY(!view->grabbing());  // a press alone is not a grab (a Ctrl+click toggles the selection)
    for (int k = 1; k <= 12; ++k) {
      QTest::mouseMove(view, *spot + QPoint(10 * k, -3 * k));
      if (k == 1) {
        QTRY_VERIFY(view->grabbing() && w->bodyGrab()->active());
        // no step since the grab: the spring says what it will pull with, not "0 N"
        const std::string& pending = view->spring().label();
        QVERIFY2(pending.ends_with("N from the next step") && !pending.starts_with("0 N"), pending.c_str());
      }
      stepOnce(sim);
      stepOnce(sim);
    }
    // the spring is drawn with the force the run applies
    QVERIFY(view->spring().visible());
    QVERIFY2(view->spring().label().ends_with("N") && view->spring().label() != "0 N", view->spring().label().c_str());
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/hands-on-drag.png")));
    QVERIFY(view->grab().save(QStringLiteral("/tmp/kinetree-shots/hands-on-view.png")));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ControlModifier, *spot + QPoint(120, -36));
    QVERIFY(!view->grabbing() && !w->bodyGrab()->active());
    QVERIFY(!view->spring().visible());
    for (int k = 0; k < 20; ++k) stepOnce(sim);

    // the events: a drag with gains from the effective mass, moves, a release
    const std::vector<kt::InteractionEvent> events = sim->events();
    QVERIFY2(events.size() >= 5, qPrintable(QString::number(events.size())));
    QCOMPARE(events.front().kind, kt::InteractionKind::Drag);
    QCOMPARE(events.front().body, body);
    const kt::SpringGains gains = kt::dragGains(tree, tree.initialQ, body, events.front().point, kt::DragMode::Force);
    QVERIFY(events.front().stiffness > 0.1 * gains.stiffness && events.front().stiffness < 10.0 * gains.stiffness);
    QCOMPARE(events.back().kind, kt::InteractionKind::Release);
    QVERIFY((events[events.size() - 2].target - events.front().target).norm() > 0.05);

    // the pull is in the run: applied: signals while it lasted, momentum of the floating robot
    const kt::SignalLayout& layout = *sim->signalLayout();
    const std::vector<double> fx = sim->recorder()->column(layout.find("applied:" + tree.bodyNames[body] + ".fx"));
    const std::vector<double> fy = sim->recorder()->column(layout.find("applied:" + tree.bodyNames[body] + ".fy"));
    double peak = 0.0;
    for (std::size_t k = 0; k < fx.size(); ++k) peak = std::max(peak, std::hypot(fx[k], fy[k]));
    QVERIFY2(peak > 1.0, qPrintable(QString::number(peak)));
    QCOMPARE(fx.back(), 0.0);  // released
    const std::vector<double> px = sim->recorder()->column(layout.find("momentum.px"));
    const std::vector<double> py = sim->recorder()->column(layout.find("momentum.py"));
    QVERIFY(std::abs(px.front()) < 1e-9 && std::hypot(px.back(), py.back()) > 1e-3);

    // Export Results writes the events beside the CSV; the CLI replays them into the same bytes
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("pulled.csv"));
    QString error;
    QVERIFY2(kt::ui::ResultsExport::write(*sim, {}, csv, &error), qPrintable(error));
    const QString eventsFile = kt::ui::ResultsExport::eventsPath(csv);
    QVERIFY(QFileInfo::exists(eventsFile));
    QFile meta(kt::ui::ResultsExport::metadataPath(csv));
    QVERIFY(meta.open(QIODevice::ReadOnly));
    const QJsonObject run = QJsonDocument::fromJson(meta.readAll()).object().value(QStringLiteral("run")).toObject();
    QCOMPARE(run.value(QStringLiteral("events_file")).toString(), QStringLiteral("pulled.events.json"));
    QCOMPARE(run.value(QStringLiteral("interactions")).toInt(), static_cast<int>(events.size()));
    const QString replayed = dir.filePath(QStringLiteral("replayed.csv"));
    const kt::test::CliRun cli = kt::test::runCli({"simulate", modelPath, "--events", eventsFile, "--duration",
                                                   QString::number(sim->simulationTime(), 'g', 17), "-o", replayed});
    QVERIFY2(cli.code == 0 && cli.err.isEmpty(), qPrintable(cli.err));
    const QByteArray a = kt::test::readAll(csv), b = kt::test::readAll(replayed);
    QVERIFY(a.contains("applied:L13.fx"));
    QVERIFY2(a == b, "the CLI's replay differs from the exported run");

    // the timeline marks the grab and the release
    w->timeline()->update();
    sim->poll();
    QCOMPARE(w->timeline()->eventTimes().size(), std::size_t{2});
    QCOMPARE(w->timeline()->eventTimes().front(), events.front().t);
    QVERIFY(w->timeline()->slider()->grab().save(QStringLiteral("/tmp/kinetree-shots/hands-on-timeline.png")));
  }

  // View ▸ Drives: a setpoint slid to 0.9 rad holds J11 there from the next step (τ = kp (0.9 − q)
  // − kd q̇), off removes the drive, a double click gives the model's back; the export replays.
  void drivePanelChangesTheDrivesOfTheRun() {
    const QString modelPath = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    auto w = kt::test::openWindow(modelPath, QSize(1280, 800));
    SimulationController* sim = w->simulation();
    kt::ui::DrivePanelDock* panel = w->drivesDock();
    panel->toggleViewAction()->trigger();
    QVERIFY(panel->isVisible());
    QCOMPARE(panel->rows().size(), std::size_t{12});                // the twelve arm joints
    const kt::ui::DrivePanelDock::JointRow* row = panel->rowOf(1);  // J11
    QVERIFY(row && row->controls.size() == 3);
    QCOMPARE(row->controls[0].what, kt::ui::DrivePanelDock::Control::What::Setpoint);
    for (int k = 0; k < 10; ++k) stepOnce(sim);
    const kt::SignalLayout& layout = *sim->signalLayout();
    const auto shown = [&](const char* name) { return sim->shownRow()[static_cast<std::size_t>(layout.find(name))]; };
    const double kp = row->model.kp, kd = row->model.kd;
    row->controls[0].number->setValue(0.9);  // as typed, or slid
    // the slider follows the number within its range (the joint's limits)
    const QSlider* slider = row->controls[0].slider;
    const double lo = slider->property("lo").toDouble(), hi = slider->property("hi").toDouble();
    QVERIFY(lo < 0.9 && 0.9 < hi);
    QCOMPARE(slider->value(), static_cast<int>(std::lround((0.9 - lo) / (hi - lo) * 1000)));
    for (int k = 0; k < 3; ++k) {
      stepOnce(sim);
      const double expected = kp * (0.9 - shown("q:J11[0]")) - kd * shown("qd:J11[0]");
      QVERIFY2(std::abs(shown("tau:J11[0]") - expected) < 1e-9 * std::max(1.0, std::abs(expected)),
               qPrintable(QString("%1 vs %2").arg(shown("tau:J11[0]")).arg(expected)));
    }
    QVERIFY(panel->grab().save(QStringLiteral("/tmp/kinetree-shots/drives-dock.png")));
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/drives-window.png")));
    row->on->setChecked(false);
    stepOnce(sim);
    QCOMPARE(shown("tau:J11[0]"), 0.0);
    row->on->setChecked(true);
    panel->restoreModelDrive(1);
    stepOnce(sim);
    const std::vector<kt::InteractionEvent> events = sim->events();
    QCOMPARE(events.back().kind, kt::InteractionKind::Drive);
    QVERIFY(events.back().drive == row->model);
    QCOMPARE(events.front().drive.offset, std::vector<double>{0.9});
    QCOMPARE(events.front().drive.amplitude, std::vector<double>{0.0});
    // the model is untouched
    QVERIFY(!w->document().isModified());
    // exported and replayed: the same bytes
    exportedRunReplays(sim, modelPath, QStringLiteral("driven.csv"));
    if (QTest::currentTestFailed()) return;
  }

  // The dialog opens on the selected body. A push on a run that has ended is refused with what to
  // do: queued for a step that never came, it was lost when the next run started from t = 0, after
  // "applied" had been said.
  void pushOnAFinishedRunIsRefused() {
    auto w = kt::test::openWindow(QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"), QSize(1280, 800));
    SimulationController* sim = w->simulation();
    sim->setDuration(0.02);
    sim->setUntilStopped(false);
    sim->setSpeed(0.0);
    sim->run();
    QTRY_VERIFY(sim->runState() == SimulationController::RunState::Finished);
    w->selection().selectBody(w->document().model().findBody("L26"));
    w->pushAction()->trigger();
    kt::ui::PushDialog* dialog = w->pushDialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->bodyBox()->currentText(), QStringLiteral("L26"));  // the selected body, not the first
    dialog->forceFields()[0]->setValue(400.0);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("pushApply")), Qt::LeftButton);
    QVERIFY2(dialog->statusLabel()->text().startsWith(QStringLiteral("The run has ended (finished at t = ")) &&
                 dialog->statusLabel()->text().endsWith(QStringLiteral("Run again (F5), then push.")),
             qPrintable(dialog->statusLabel()->text()));
    QVERIFY(sim->events().empty());
  }

  // The Drives tab on a run that has ended: its controls are off and say why, as a push is
  // refused (a drive change was sent for a step that never came). The Pose tab is not: an end state
  // can be posed and kept as the initial state, and its note says so.
  void drivesOnAFinishedRunAreOff() {
    auto w = kt::test::openWindow(QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"), QSize(1280, 800));
    SimulationController* sim = w->simulation();
    kt::ui::DrivePanelDock* dock = w->drivesDock();
    dock->toggleViewAction()->trigger();
    const kt::ui::DrivePanelDock::JointRow* row = dock->rowOf(1);  // J11
    QVERIFY(row && row->controls[0].number->isEnabled());
    const auto note = [&] {
      for (QLabel* label : dock->findChildren<QLabel*>())
        if (label->isVisible() && label->text().startsWith(QStringLiteral("The run has ended"))) return label->text();
      return QString();
    };
    QVERIFY(note().isEmpty());
    sim->setDuration(0.02);
    sim->setUntilStopped(false);
    sim->setSpeed(0.0);
    sim->run();
    QTRY_VERIFY(sim->runState() == SimulationController::RunState::Finished);
    QTRY_VERIFY(!row->controls[0].number->isEnabled());
    QVERIFY2(note().endsWith(QStringLiteral("Run again (F5), then change them.")), qPrintable(note()));
    const double setpoint = row->controls[0].number->value();
    dock->setValue(1, kt::ui::DrivePanelDock::Control::What::Setpoint, 0, 0.9);  // as if it were typed
    QCOMPARE(row->controls[0].number->value(), setpoint);                        // what the run has
    QVERIFY(dock->grab().save(QStringLiteral("/tmp/kinetree-shots/drives-finished.png")));
    QTest::qWait(50);
    QVERIFY(sim->events().empty());  // nothing reached the run
    kt::ui::PosePanel* pose = dock->posePanel();
    QVERIFY(pose->canPose());
    dock->showPoseTab(true);
    QVERIFY2(note().endsWith(QStringLiteral("keeps the positions shown as the model's start.")), qPrintable(note()));
    // a new run: the drives are on again
    sim->reset();
    QTRY_VERIFY(dock->rowOf(1) && dock->rowOf(1)->controls[0].number->isEnabled());
    dock->showPoseTab(false);
    QVERIFY(note().isEmpty());
  }

  // Simulation ▸ Push a Body…: an exact push, applied at the next step, recorded as applied:, and
  // released; the joint loads carry it, and Peak Loads says a peak came from it.
  void pushDialogAppliesAnExactPush() {
    auto w = kt::test::openWindow(QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"), QSize(1280, 800));
    SimulationController* sim = w->simulation();
    for (int k = 0; k < 5; ++k) stepOnce(sim);
    w->pushAction()->trigger();
    kt::ui::PushDialog* dialog = w->pushDialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->startField()->value(), sim->simulationTime());
    dialog->bodyBox()->setCurrentText(QStringLiteral("base"));
    // nothing to push: refused, no event
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("pushApply")), Qt::LeftButton);
    QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("both zero")),
             qPrintable(dialog->statusLabel()->text()));
    QVERIFY(sim->events().empty());
    dialog->forceFields()[2]->setValue(2500.0);
    dialog->momentFields()[0]->setValue(40.0);
    dialog->untilReleasedBox()->setChecked(true);
    QVERIFY(dialog->grab().save(QStringLiteral("/tmp/kinetree-shots/push-dialog.png")));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("pushApply")), Qt::LeftButton);
    QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("applied")),
             qPrintable(dialog->statusLabel()->text()));
    for (int k = 0; k < 10; ++k) stepOnce(sim);
    const kt::SignalLayout& layout = *sim->signalLayout();
    const auto shown = [&](const char* name) { return sim->shownRow()[static_cast<std::size_t>(layout.find(name))]; };
    QCOMPARE(shown("applied:base.fz"), 2500.0);
    QCOMPARE(shown("applied:base.mx"), 40.0);
    QCOMPARE(shown("applied:base.fx"), 0.0);
    // the arms' joints feel it at once: the base accelerates, the arms follow through their joints
    QVERIFY(std::abs(shown("load_world:J11.fz")) > 1.0);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("pushRelease")), Qt::LeftButton);
    for (int k = 0; k < 5; ++k) stepOnce(sim);
    QCOMPARE(shown("applied:base.fz"), 0.0);
    const std::vector<kt::InteractionEvent> events = sim->events();
    QCOMPARE(events.size(), std::size_t{2});
    QCOMPARE(events[0].kind, kt::InteractionKind::Push);
    QCOMPARE(events[0].force, Eigen::Vector3d(0.0, 0.0, 2500.0));
    QVERIFY(std::isinf(events[0].duration));
    QCOMPARE(events[1].kind, kt::InteractionKind::Release);
    // Peak Loads: the peak of J11's force came while the base was pushed
    kt::ui::PeakLoadsDock* peaks = w->peakLoadsDock();
    peaks->refresh();
    QAbstractItemModel* model = peaks->table()->model();
    int row = -1;
    for (int r = 0; r < model->rowCount(); ++r)
      if (model->index(r, kt::ui::PeakLoadsDock::Joint).data().toString() == QStringLiteral("J11")) row = r;
    QVERIFY(row >= 0);
    const QString tip = model->index(row, kt::ui::PeakLoadsDock::ForceTime).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("during push 1 on base")), qPrintable(tip));
    QVERIFY(model->index(row, kt::ui::PeakLoadsDock::ForceTime).data(Qt::ForegroundRole).isValid());
    // and the Problems dock's rating warning, once the run stops, says the push did it
    sim->run();
    sim->pause();
    QTRY_VERIFY(!sim->isRunning());
    const auto& warnings = w->document().problems()->warnings();
    const auto j11 = std::find_if(warnings.begin(), warnings.end(),
                                  [](const kt::Diagnostic& d) { return d.message.starts_with("J11 reached "); });
    QVERIFY(j11 != warnings.end());
    QVERIFY2(j11->message.ends_with("; at that time the user applied push 1 on base"), j11->message.c_str());
  }

  // Posing while paused: the Pose section of View ▸ Drives moves a joint, Ctrl+drag moves the
  // floating base (no spring: the state itself), the run goes on from there and replays, and
  // "Use as Initial State" writes q0 in one undo step.
  void posingWhilePausedSetsTheStartState() {
    const QString modelPath = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    auto w = kt::test::openWindow(modelPath, QSize(1280, 800));
    SimulationController* sim = w->simulation();
    kt::render::SceneView* view = w->sceneView();
    kt::ui::DrivePanelDock* dock = w->drivesDock();
    QAction* poseAction = w->findChild<QAction*>(QStringLiteral("poseModelAction"));
    QVERIFY(poseAction);
    poseAction->trigger();  // Simulation ▸ Pose the Model…: the dock on its Pose tab
    QVERIFY(dock->isVisible());
    kt::ui::PosePanel* pose = dock->posePanel();
    QVERIFY(pose->isVisible());
    QVERIFY(pose->canPose());
    const kt::Tree& tree = *sim->tree();
    using What = kt::ui::PosePanel::Control::What;
    // the free base: x, y, z, roll, pitch, yaw; the twelve arm joints: one angle each
    QCOMPARE(pose->controls().size(), std::size_t{18});
    const auto j12 =
        static_cast<int>(std::find(tree.jointNames.begin(), tree.jointNames.end(), "J12") - tree.jointNames.begin());
    const Eigen::VectorXd start = sim->shownPositions();
    pose->setValue(j12, What::Coordinate, 0, 0.8);
    QTRY_COMPARE(sim->shownPositions()[tree.qOffset[static_cast<std::size_t>(j12)]], 0.8);
    QCOMPARE(sim->recorder()->size(), std::size_t{1});  // the t = 0 sample is the posed state's
    // nothing else moved, to the last digit (the numbers show four decimals)
    for (Eigen::Index k = 0; k < start.size(); ++k)
      if (k != tree.qOffset[static_cast<std::size_t>(j12)]) QCOMPARE(sim->shownPositions()[k], start[k]);
    // the base turned by its yaw control: the quaternion of a 0.5 rad turn about z
    pose->setValue(0, What::Angle, 2, 0.5);
    QTRY_VERIFY(std::abs(sim->shownPositions()[3] - std::sin(0.25)) < 1e-12);

    // Ctrl+drag on the base while paused moves the whole robot with the cursor
    view->renderToImage();
    const std::optional<QPoint> spot = kt::test::bodySpot(*view, 0);
    QVERIFY2(spot, "the base shows in the default view");
    const Eigen::Vector3d before = view->bodyPointWorld(0, Eigen::Vector3d::Zero());
    QTest::mousePress(view, Qt::LeftButton, Qt::ControlModifier, *spot);
    for (int k = 1; k <= 8; ++k) {
      QTest::mouseMove(view, *spot + QPoint(12 * k, 0));
      if (k == 1) QTRY_VERIFY(w->bodyGrab()->posing());
    }
    QTRY_VERIFY((view->bodyPointWorld(0, Eigen::Vector3d::Zero()) - before).norm() > 0.05);
    QVERIFY(!view->spring().visible());  // no spring: nothing pulls
    QTest::mouseRelease(view, Qt::LeftButton, Qt::ControlModifier, *spot + QPoint(96, 0));
    QVERIFY(!w->bodyGrab()->active());
    const Eigen::VectorXd posed = sim->shownPositions();
    QVERIFY(dock->grab().save(QStringLiteral("/tmp/kinetree-shots/pose-dock.png")));
    QVERIFY(view->renderToImage().save(QStringLiteral("/tmp/kinetree-shots/pose-view.png")));
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/pose-window.png")));

    // the run goes on from the posed state; while it runs the pose is not offered
    for (int k = 0; k < 10; ++k) stepOnce(sim);
    const std::vector<kt::InteractionEvent> events = sim->events();
    QVERIFY(events.size() >= 3);
    QVERIFY(std::all_of(events.begin(), events.end(),
                        [](const auto& e) { return e.kind == kt::InteractionKind::Pose && e.t == 0.0; }));
    QCOMPARE(events.back().body, 0);
    QVERIFY(std::abs(sim->recorder()->column(sim->signalLayout()->find("q:J12[0]")).front() - 0.8) < 1e-15);
    QVERIFY(std::abs(sim->recorder()->column(sim->signalLayout()->find("applied:base.fx")).back()) == 0.0);
    // exported and replayed: the same bytes
    exportedRunReplays(sim, modelPath, QStringLiteral("posed.csv"));
    if (QTest::currentTestFailed()) return;

    // Use as Initial State: back to t = 0, then q0 of the moved joints in one undo step
    sim->reset();  // a new session: its own tree
    QTRY_VERIFY(pose->canPose());
    QVERIFY((sim->shownPositions() - posed).norm() > 0.05);  // Reset: the model's start again
    pose->setValue(j12, What::Coordinate, 0, 0.8);
    QTRY_COMPARE(sim->shownPositions()[sim->tree()->qOffset[static_cast<std::size_t>(j12)]], 0.8);
    const int undoBefore = w->document().undoStack()->count();
    QVERIFY(pose->useAsInitialState());
    QCOMPARE(w->document().undoStack()->count(), undoBefore + 1);
    const auto specOf = [&](const char* joint) -> const kt::JointSpec& {
      for (const kt::BodySpec& b : w->document().model().bodies)
        if (b.joint.name == joint) return b.joint;
      return w->document().model().bodies.front().joint;
    };
    QCOMPARE(specOf("J12").q0, std::vector<double>{0.8});
    QVERIFY(specOf("J11").q0 != std::vector<double>{0.8});
    // the session starts over from the edited model: it is posed at t = 0 without an event
    QTRY_VERIFY(sim->hasSimulator() && sim->events().empty());
    QCOMPARE(sim->tree()->initialQ[sim->tree()->qOffset[static_cast<std::size_t>(j12)]], 0.8);
    w->document().undoStack()->undo();
    QVERIFY(specOf("J12").q0 != std::vector<double>{0.8});
  }

  // A run without interactions exports what `kinetree-cli simulate` writes: no applied: columns.
  void untouchedRunExportsWithoutAppliedSignals() {
    auto w = kt::test::openWindow(QStringLiteral(KINETREE_SOURCE_DIR "/examples/pendulum.yaml"), QSize(900, 600));
    SimulationController* sim = w->simulation();
    for (int k = 0; k < 5; ++k) stepOnce(sim);
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("still.csv"));
    QString error;
    QVERIFY2(kt::ui::ResultsExport::write(*sim, {}, csv, &error), qPrintable(error));
    QVERIFY(!QFileInfo::exists(kt::ui::ResultsExport::eventsPath(csv)));
    // over an earlier export with events, their file goes: it would replay another run
    QVERIFY(kt::test::writeFile(kt::ui::ResultsExport::eventsPath(csv),
                                "{\"format\": \"kinetree-events\", \"version\": 1, \"events\": []}\n"));
    QVERIFY2(kt::ui::ResultsExport::write(*sim, {}, csv, &error), qPrintable(error));
    QVERIFY(!QFileInfo::exists(kt::ui::ResultsExport::eventsPath(csv)));
    const QByteArray a = kt::test::readAll(csv);
    QVERIFY(!a.contains("applied:"));
    const kt::test::CliRun cli =
        kt::test::runCli({"simulate", QStringLiteral(KINETREE_SOURCE_DIR "/examples/pendulum.yaml"), "--duration",
                          QString::number(sim->simulationTime(), 'g', 17)});
    QCOMPARE(cli.code, 0);
    QCOMPARE(a, cli.out.toUtf8());
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestHandsOn>(argc, argv, "test_hands_on"); }
#include "test_hands_on.moc"
