// SPDX-License-Identifier: BSD-3-Clause
// The simulation thread behind the main window: every embedded example runs 1 s of simulated
// time and pauses with its samples recorded; the speed setting paces the run; a duration ends it;
// the model file's solver and integrator are the defaults and the user's choice applies at the
// next Reset; a diverging run pauses with the simulator's message; and a seeded script of
// start/pause/step/reset/reload/close-while-running cycles finishes without a crash.
// Runs under xvfb-run.
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QValidator>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/timeline_bar.hpp"

using kt::ui::MainWindow;
using kt::ui::SimulationController;

namespace {

std::unique_ptr<MainWindow> openWindow(const QString& model, QSize size = QSize(900, 600)) {
  return kt::test::openWindow(model, size);
}

SimulationController* controllerOf(MainWindow* w) { return w->simulation(); }

// The pendulum example in `dir` with its hinge following the table swing.csv of `csv`: the
// model file's path.
QString pendulumFollowing(const QTemporaryDir& dir, const QByteArray& csv) {
  QFile table(dir.filePath("swing.csv"));
  if (table.open(QIODevice::WriteOnly)) table.write(csv);
  QFile source(QStringLiteral(":/examples/pendulum.yaml"));
  QByteArray yaml = source.open(QIODevice::ReadOnly) ? source.readAll() : QByteArray();
  yaml.replace("      q0: [0.8]\n", "      motion: {type: table, file: swing.csv}\n");
  QFile model(dir.filePath("pendulum.yaml"));
  if (model.open(QIODevice::WriteOnly)) model.write(yaml);
  return dir.filePath("pendulum.yaml");
}

}  // namespace

class TestSimulation : public QObject {
  Q_OBJECT

 private slots:
  void examplesRun_data() {
    QTest::addColumn<QString>("model");
    for (const QString& path : kt::resources::exampleModels()) QTest::newRow(qPrintable(path)) << path;
  }

  // Run 1 s of simulated time as fast as possible, pause: time advanced, the recorder holds one
  // row per output interval, the time column increases, and a paused run stays put.
  void examplesRun() {
    QFETCH(QString, model);
    auto w = openWindow(model);
    SimulationController* sim = controllerOf(w.get());
    QVERIFY(sim->hasSimulator());
    QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
    QCOMPARE(sim->simulationTime(), 0.0);
    sim->setUntilStopped(true);
    sim->setSpeed(0.0);
    sim->run();
    QVERIFY(sim->isRunning());
    // Generous: the Debug + AddressSanitizer build runs the cardan chain ~50× slower than Release.
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() >= 1.0, 300000);
    sim->pause();
    QVERIFY(!sim->isRunning());
    QTest::qWait(50);  // a step under way when the pause arrived completes
    sim->poll();
    const double t = sim->simulationTime();
    QVERIFY(t >= 1.0);
    QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));

    const kt::Recorder* rec = sim->recorder();
    QVERIFY(rec);
    const double h = sim->activeOptions().step;
    QVERIFY(rec->size() >= static_cast<std::size_t>(1.0 / h));
    const std::vector<double> time = rec->column(sim->signalLayout()->find("time"));
    QCOMPARE(time.size(), rec->size());
    for (std::size_t k = 1; k < time.size(); ++k) QVERIFY(time[k] > time[k - 1]);
    QCOMPARE(time.back(), t);
    // The newest row shown belongs to the newest state.
    QCOMPARE(sim->shownRow().size(), static_cast<std::size_t>(rec->width()));
    QCOMPARE(sim->shownRow()[0], t);

    // Paused means paused.
    const std::size_t rows = rec->size();
    QTest::qWait(100);
    QCOMPARE(rec->size(), rows);
    // One step advances one output.
    sim->step();
    QTRY_COMPARE(rec->size(), rows + 1);
    QTRY_VERIFY(sim->simulationTime() > t);
  }

  // The views show the sample at a chosen time: the controller reads that row of the recording
  // (its q from the q:* columns), and back to the newest with showLive().
  void showsARecordedTime() {
    auto w = openWindow(QStringLiteral(":/examples/double_pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    sim->setSpeed(0.0);
    sim->setDuration(0.5);
    sim->setUntilStopped(false);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 20000);
    sim->poll();
    const double end = sim->simulationTime();
    QVERIFY(std::abs(end - 0.5) < 1e-9);
    QVERIFY(sim->showsLive());
    QCOMPARE(sim->shownTime(), end);

    const kt::Recorder* rec = sim->recorder();
    const kt::SignalLayout& layout = *sim->signalLayout();
    const double h = sim->activeOptions().step;
    QSignalSpy frames(sim, &SimulationController::shownSampleChanged);
    sim->showTime(0.2 + 0.3 * h);  // between two samples: the one at or before
    QCOMPARE(frames.count(), 1);
    QVERIFY(!sim->showsLive());
    const std::size_t k = static_cast<std::size_t>(std::llround(0.2 / h));
    std::vector<double> row(static_cast<std::size_t>(rec->width()));
    QCOMPARE(rec->copyRows(k, k + 1, row.data()), std::size_t{1});
    QCOMPARE(sim->shownTime(), row[0]);
    QVERIFY(std::abs(sim->shownTime() - 0.2) < 1e-9);
    QCOMPARE(sim->shownRow(), row);
    for (int c = 0; c < layout.size(); ++c) {
      const kt::SignalInfo& info = layout.infos()[static_cast<std::size_t>(c)];
      if (info.kind == kt::SignalKind::Q) QCOMPARE(sim->shownPositions()[info.index], row[static_cast<std::size_t>(c)]);
    }
    sim->poll();  // nothing new: the chosen time stays
    QCOMPARE(sim->shownTime(), row[0]);
    sim->showTime(-1.0);  // before the run: its first sample
    QCOMPARE(sim->shownTime(), 0.0);
    sim->showLive();
    QCOMPARE(sim->shownTime(), end);
  }

  // The speed factor paces the run (×0.1: 300 ms of wall time give at most ~0.03 s, never
  // more than 0.1 s); a duration stops the run by itself at that time.
  void pacingAndDuration() {
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    sim->setSpeed(0.1);
    sim->setUntilStopped(true);
    sim->run();
    QTest::qWait(300);
    sim->pause();
    sim->poll();
    QVERIFY(sim->simulationTime() > 0.0);
    QVERIFY2(sim->simulationTime() < 0.1, qPrintable(QString::number(sim->simulationTime())));

    sim->reset();
    QCOMPARE(sim->simulationTime(), 0.0);
    sim->setSpeed(0.0);
    sim->setDuration(0.25);
    sim->setUntilStopped(false);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 20000);
    sim->poll();
    QVERIFY(std::abs(sim->simulationTime() - 0.25) <= 0.5 * sim->activeOptions().step);
    // Run at the end of the duration starts over.
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 20000);
    sim->poll();
    QVERIFY(std::abs(sim->simulationTime() - 0.25) <= 0.5 * sim->activeOptions().step);
    QCOMPARE(sim->recorder()->size(), std::size_t(0.25 / sim->activeOptions().step + 1.5));
  }

  // The model file's settings are the defaults; the user's choice applies at the next Reset.
  void settingsApplyAtReset() {
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    const kt::SimulationSettings& file = w->document().model().simulation;
    QCOMPARE(sim->activeOptions().solver, file.solver);
    QCOMPARE(sim->activeOptions().integrator, file.integrator);
    QCOMPARE(sim->activeOptions().step, file.step);
    for (const kt::SolverInfo& info : kt::solverRegistry()) {
      sim->setSolver(QString::fromStdString(info.name));
      sim->setIntegrator(QStringLiteral("dopri5"));
      sim->setStepSize(0.01);
      QCOMPARE(sim->activeOptions().solver, file.solver);  // not yet
      sim->reset();
      QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
      QCOMPARE(sim->activeOptions().solver, info.name);
      QCOMPARE(sim->activeOptions().integrator, std::string("dopri5"));
      sim->setSpeed(0.0);
      sim->setDuration(0.2);
      sim->run();
      QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 20000);
      sim->poll();
      QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
      QCOMPARE(sim->recorder()->size(), std::size_t(21));
      sim->setSolver(QString::fromStdString(file.solver));  // back, for the next row
      sim->reset();
    }
    // Opening the file again restores its settings.
    sim->setSolver(QStringLiteral("crba"));
    QString error;
    QVERIFY(w->files().loadModel(QStringLiteral(":/examples/pendulum.yaml"), error));
    QCOMPARE(sim->pendingOptions().solver, file.solver);
  }

  // A diverging run (a stiff spring drive integrated by explicit Euler, h ω ≈ 12) pauses with the
  // simulator's message in the status bar and a message box; Run starts over.
  void divergencePauses() {
    QFile in(QStringLiteral(KINETREE_SOURCE_DIR "/examples/pendulum.yaml"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    QVERIFY(text.contains(QStringLiteral("      q0: [0.8]\n")));
    text.replace(QStringLiteral("      q0: [0.8]\n"),
                 QStringLiteral("      q0: [0.8]\n      drive: {type: spring_damper, stiffness: 1.0e7}\n"));
    text.replace(QStringLiteral("integrator: rk4"), QStringLiteral("integrator: euler"));
    text.replace(QStringLiteral("step: 0.001"), QStringLiteral("step: 0.01"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stiff.yaml"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();

    auto w = openWindow(path);
    SimulationController* sim = controllerOf(w.get());
    QSignalSpy failed(sim, &SimulationController::failed);
    sim->setSpeed(0.0);
    sim->setUntilStopped(true);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 20000);
    sim->poll();
    QCOMPARE(failed.count(), 1);
    QVERIFY(sim->errorMessage().contains(QStringLiteral("solver aba")));
    QVERIFY(sim->errorMessage().contains(QStringLiteral("NaN")) || sim->errorMessage().contains(QStringLiteral("Inf")));
    auto* box = w->findChild<QMessageBox*>(QStringLiteral("simulationFailedBox"));
    QVERIFY(box);
    QVERIFY(box->text().contains(sim->errorMessage()));
    box->close();
    // Stepping a failed run does nothing; Run starts over from t = 0 and fails again.
    const double t = sim->simulationTime();
    sim->step();
    QTest::qWait(50);
    sim->poll();
    QCOMPARE(sim->simulationTime(), t);
    // (the new run may diverge within the poll that run() makes, so what shows that it started
    // over is a new session, not an empty error message)
    QSignalSpy started(sim, &SimulationController::sessionStarted);
    sim->run();
    QCOMPARE(started.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 2, 20000);
    for (auto* b : w->findChildren<QMessageBox*>()) b->close();
  }

  // A run stops recording at the memory limit (here 1 MB, through KINETREE_RECORDING_LIMIT_MB)
  // instead of growing without bound: it pauses with every sample kept, says so in the status bar
  // and a message box, Run and Step are off, and Reset starts a new recording.
  void recordingLimitPauses() {
    struct LimitGuard {  // unset however the test ends: the cycles below must not inherit it
      LimitGuard() { qputenv("KINETREE_RECORDING_LIMIT_MB", "1"); }
      ~LimitGuard() { qunsetenv("KINETREE_RECORDING_LIMIT_MB"); }
    } guard;
    QCOMPARE(SimulationController::recordingLimitBytes(), std::size_t{1} << 20);
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    sim->setSpeed(0.0);
    sim->setUntilStopped(true);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(!sim->isRunning(), 60000);
    sim->poll();
    QVERIFY(sim->recordingFull());
    QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
    const kt::Recorder* rec = sim->recorder();
    // Exactly the limit, in whole chunks of the recorder: no step past it, no chunk beyond 1 MB.
    const std::size_t limitRows = kt::recordingLimitRows(std::size_t{1} << 20, *rec);
    QCOMPARE(rec->size(), limitRows);
    QVERIFY(limitRows * rec->width() * sizeof(double) <= std::size_t{1} << 20);
    QVERIFY(limitRows >= rec->chunkRows());
    const std::vector<double> time = rec->column(sim->signalLayout()->find("time"));
    QCOMPARE(time.back(), sim->simulationTime());  // the newest sample is the one shown
    QVERIFY(w->statusBar()->currentMessage().startsWith(QStringLiteral("Recording full")));
    auto* box = w->findChild<QMessageBox*>(QStringLiteral("recordingFullBox"));
    QVERIFY(box);
    QVERIFY(box->text().contains(QString::number(rec->size()) + QStringLiteral(" samples")));
    QVERIFY(box->grab().save(QDir::current().filePath(QStringLiteral("recording_full_box.png"))));  // test artifact
    box->close();
    auto* runAction = w->findChild<QAction*>(QStringLiteral("actionRun"));
    QVERIFY(runAction);
    QVERIFY(!runAction->isEnabled());
    // Neither Run nor Step add a sample; Reset starts over and runs again.
    const double t = sim->simulationTime();
    sim->run();
    sim->step();
    QTest::qWait(100);
    sim->poll();
    QCOMPARE(sim->simulationTime(), t);
    QCOMPARE(rec->size(), limitRows);
    sim->reset();
    QVERIFY(!sim->recordingFull());
    QVERIFY(w->statusBar()->currentMessage().isEmpty());  // the old run's news is gone
    QCOMPARE(sim->simulationTime(), 0.0);
    QVERIFY(runAction->isEnabled());
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() > 0.0, 20000);
    sim->pause();
  }

  // A tolerance the arithmetic cannot meet is refused in the window as in a model file, and the
  // toolbar field does not accept it either.
  void toleranceOutsideTheRunLimitsIsRefused() {
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    QVERIFY(sim->setTolerance(1e-10));
    QCOMPARE(sim->pendingOptions().tolerance, 1e-10);
    for (double bad : {1e-300, 0.0, -1.0, 1.0, 2.0, std::numeric_limits<double>::quiet_NaN()}) {
      QVERIFY2(!sim->setTolerance(bad), qPrintable(QString::number(bad)));
      QCOMPARE(sim->pendingOptions().tolerance, 1e-10);
    }
    auto* edit = w->findChild<QLineEdit*>(QStringLiteral("toleranceEdit"));
    QVERIFY(edit != nullptr);
    QString text = QStringLiteral("1e-300");
    int pos = 0;
    QVERIFY(edit->validator()->validate(text, pos) != QValidator::Acceptable);
    // 1 passes the validator but not the limits: the field goes back to the value in use
    edit->setText(QStringLiteral("1"));
    emit edit->editingFinished();
    QCOMPARE(sim->pendingOptions().tolerance, 1e-10);
    QCOMPARE(edit->text().toDouble(), 1e-10);
  }

  // A run longer than the motion table it follows is refused with the table's end; "until stopped"
  // ends there.
  void runPastAMotionTableIsRefused() {
    QTemporaryDir dir;
    auto w = openWindow(pendulumFollowing(dir, "time,q:hinge[0]\n0,0\n0.5,0.2\n1,0\n"));
    SimulationController* sim = controllerOf(w.get());
    sim->run();
    QVERIFY2(sim->errorMessage().contains("runs past the data") && sim->errorMessage().contains("t = 1 s"),
             qPrintable(sim->errorMessage()));
    sim->setUntilStopped(true);
    sim->setSpeed(0.0);
    sim->run();
    QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(sim->runState() == SimulationController::RunState::Finished, 10000);
    kt::RecordedState last;
    QVERIFY(sim->recorder()->latest(last));
    QVERIFY2(std::abs(last.t - 1.0) < 1e-9, qPrintable(QString::number(last.t)));

    // A run of 1 s that has ended, then a longer duration and Run: refused, as a new run would be,
    // and the run that ended stays. It used to resume and extrapolate the table to 1.5 s.
    sim->setUntilStopped(false);
    sim->setDuration(1.0);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(sim->runState() == SimulationController::RunState::Finished, 10000);
    const std::size_t rows = sim->recorder()->size();
    QSignalSpy said(sim, &SimulationController::statusMessage);
    sim->setDuration(1.5);
    QCOMPARE(sim->runState(), SimulationController::RunState::Finished);  // at the table's end
    sim->run();
    QVERIFY(!said.isEmpty());
    const QString message = said.back().at(0).toString();
    QVERIFY2(message.contains("the run of 1.5 s runs past the data") && message.contains("t = 1 s"),
             qPrintable(message));
    QTest::qWait(100);
    QCOMPARE(sim->recorder()->size(), rows);
    QVERIFY(sim->recorder()->latest(last));
    QVERIFY2(std::abs(last.t - 1.0) < 1e-9, qPrintable(QString::number(last.t)));
    // Reset with that duration: no run, and the timeline says why rather than blame the model
    sim->reset();
    QTRY_VERIFY2(w->timeline()->runText().startsWith(QStringLiteral("No run. Cannot simulate: the run of 1.5 s")),
                 qPrintable(w->timeline()->runText()));
    // lengthened while it runs: it stops at the table's end
    sim->setDuration(1.0);
    sim->run();  // a new run from t = 0
    sim->setDuration(1.5);
    QTRY_VERIFY_WITH_TIMEOUT(sim->runState() == SimulationController::RunState::Finished, 10000);
    QTest::qWait(100);
    QVERIFY(sim->recorder()->latest(last));
    QVERIFY2(std::abs(last.t - 1.0) < 1e-9, qPrintable(QString::number(last.t)));
  }

  // A motion table the run cannot read (a misspelt column) is a problem when the model opens, at
  // its place in the table, and Run waits for it: it used to show "No problems" and refuse on Run.
  void unreadableTableIsAProblem() {
    QTemporaryDir dir;
    auto w = openWindow(pendulumFollowing(dir, "time,q:hinge1[0]\n0,0\n0.5,0.2\n1,0\n"));
    QAbstractItemView* problems = w->problemsDock()->view();
    QCOMPARE(problems->model()->rowCount(), 1);
    QCOMPARE(problems->model()->index(0, kt::ui::ProblemsModel::PathColumn).data().toString(),
             QStringLiteral("swing.csv:1:6"));
    QVERIFY2(problems->model()->index(0, 1).data().toString().contains("was the joint 'hinge1' renamed?"),
             qPrintable(problems->model()->index(0, 1).data().toString()));
    QVERIFY(!w->isRunnable());
    // the model itself is drawn: only the run waits for the table
    QCOMPARE(w->sceneView()->scene().bodyCount(), 2);
  }

  // A model with a warning (a joint started in degrees) opens with the warning in the problems
  // dock, and Run stays enabled, with its ordinary tooltip, and runs.
  void warningDoesNotBlockRun() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("degrees.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: degrees\nbodies:\n  - name: a\n    parent: world\n"
        "    joint: {type: revolute, q0: [90], limits: [{lower: -2, upper: 2}]}\n"
        "    inertial: {mass: 1, com: [0, 0, -0.5], inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}}\n"
        "    shapes: [{type: sphere, radius: 0.1}]\n");
    file.close();
    auto w = openWindow(path);
    QAbstractItemView* problems = w->problemsDock()->view();
    QCOMPARE(problems->model()->rowCount(), 1);
    QVERIFY(problems->model()->index(0, 0).data(kt::ui::ProblemsModel::WarningRole).toBool());
    QVERIFY(w->problemsDock()->summary().startsWith(QStringLiteral("1 warning")));
    QVERIFY(w->isRunnable());
    auto* runAction = w->findChild<QAction*>(QStringLiteral("actionRun"));
    QVERIFY(runAction);
    QVERIFY(runAction->isEnabled());
    QCOMPARE(runAction->toolTip(), QStringLiteral("Run the simulation (F5)"));
    SimulationController* sim = controllerOf(w.get());
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() > 0.0, 20000);
    sim->pause();
    QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
  }

  // A seeded script of 240 cycles: run, then pause / step / reset / speed change / reload of
  // another example / close-while-running (the window is closed and destroyed with the worker
  // stepping). Afterwards a fresh run still advances.
  void commandCycles() {
    const QSize kSmall(480, 360);  // rendering under llvmpipe is the cost here, not the commands
    const QStringList examples = kt::resources::exampleModels();
    std::mt19937 rng(20261122);
    auto w = openWindow(kt::resources::kDefaultModel, kSmall);
    SimulationController* sim = controllerOf(w.get());
    int counts[6] = {};
    for (int cycle = 0; cycle < 240; ++cycle) {
      sim->run();
      QTest::qWait(static_cast<int>(rng() % 3));
      const int op = cycle % 40 == 39 ? 5 : static_cast<int>(rng() % 5);
      ++counts[op];
      switch (op) {
        case 0:
          sim->pause();
          QVERIFY(!sim->isRunning());
          break;
        case 1:
          sim->step();
          QVERIFY(!sim->isRunning());
          break;
        case 2:
          sim->reset();
          QVERIFY(!sim->isRunning());
          QCOMPARE(sim->simulationTime(), 0.0);
          break;
        case 3:
          sim->setSpeed(SimulationController::speedChoices()[rng() % SimulationController::speedChoices().size()]);
          break;
        case 4: {
          QString error;
          QVERIFY(w->files().loadModel(examples[static_cast<int>(rng() % examples.size())], error));
          QVERIFY(!sim->isRunning());
          break;
        }
        case 5:
          w->close();
          QVERIFY(!sim->hasSimulator());
          w.reset();
          w = openWindow(examples[static_cast<int>(rng() % examples.size())], kSmall);
          sim = controllerOf(w.get());
          sim->run();
          QTest::qWait(1);
          w.reset();  // destroyed while running
          w = openWindow(kt::resources::kDefaultModel, kSmall);
          sim = controllerOf(w.get());
          break;
      }
      sim->poll();
      QVERIFY2(sim->errorMessage().isEmpty(), qPrintable(sim->errorMessage()));
    }
    for (int op = 0; op < 5; ++op) QVERIFY(counts[op] >= 10);
    QCOMPARE(counts[5], 6);
    sim->reset();
    sim->setSpeed(0.0);
    sim->setUntilStopped(true);
    sim->run();
    QTRY_VERIFY_WITH_TIMEOUT(sim->simulationTime() > 0.1, 20000);
    sim->pause();
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestSimulation>(argc, argv, "test_simulation"); }
#include "test_simulation.moc"
