// SPDX-License-Identifier: BSD-3-Clause
// Starting the application: --help and --version print without a display; a saved window
// layout (valid, the one that crashed every start after a session made smaller than its minimum
// and then maximised, truncated, garbage, random) restores into a window that shows, and one
// that cannot be restored gives the default layout and says so; the saved crash layout starts
// the real binary under a window manager (openbox on a private Xvfb, skipped where they are not
// installed); the "Cannot open model" box with a hundred diagnostics fits the screen; the
// smallest window fits a 1366 × 768 screen with every default dock open; View ▸ Reset Layout and a
// window that grows give squeezed docks their room back. Runs under xvfb-run.
#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QRandomGenerator>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <limits>
#include <memory>

#include "core/version.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/scene/scene_view.hpp"
#include "support/window_test_main.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/peak_loads_dock.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/window_layout.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/teaching/mathematics_dock.hpp"

using kt::ui::MainWindow;

namespace {

QString layoutData(const QString& name) { return QStringLiteral(KINETREE_TEST_DATA "/window_layout/") + name; }

struct SavedLayout {
  QByteArray geometry;
  QByteArray state;
};

SavedLayout savedLayout(const QString& conf) {
  QSettings s(conf, QSettings::IniFormat);
  return {s.value(QStringLiteral("mainWindow/geometry")).toByteArray(),
          s.value(QStringLiteral("mainWindow/state")).toByteArray()};
}

// A window that restored `layout` at its start, shown.
std::unique_ptr<MainWindow> startWith(const SavedLayout& layout) {
  {
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), layout.geometry);
    settings.setValue(QStringLiteral("mainWindow/state"), layout.state);
  }
  auto w = std::make_unique<MainWindow>();
  w->show();
  return w;
}

// The checks of a clean start: the window is shown, on the screen, and its docks have room.
void checkStartedCleanly(MainWindow& w) {
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QTest::qWait(200);  // the maximising resizes, if any
  QVERIFY(w.isVisible());
  const QRect screen = w.screen()->availableGeometry();
  QVERIFY2(screen.intersects(w.frameGeometry()), qPrintable(QStringLiteral("window at %1,%2 %3x%4")
                                                                .arg(w.frameGeometry().x())
                                                                .arg(w.frameGeometry().y())
                                                                .arg(w.width())
                                                                .arg(w.height())));
  QVERIFY(w.centralWidget()->isVisible());
  QVERIFY(w.centralWidget()->width() > 0 && w.centralWidget()->height() > 0);
}

// What a saved layout should give: restored, refused (the default layout), or either.
constexpr int kRestored = 0;
constexpr int kRefused = 1;
constexpr int kEither = 2;

bool found(const QString& program) { return !QStandardPaths::findExecutable(program).isEmpty(); }

// The smallest plot pane's height.
int lowestPane(MainWindow& w) {
  int lowest = std::numeric_limits<int>::max();
  for (int p = 0; p < kt::ui::PlotsDock::kPaneCount; ++p)
    lowest = std::min(lowest, w.plotsDock()->paneWidget(p)->height());
  return lowest;
}

QString sizes(MainWindow& w) {
  return QStringLiteral("window %1x%2: Model dock %3 wide, Problems %4, Plots %5 high, lowest pane %6")
      .arg(w.width())
      .arg(w.height())
      .arg(w.modelTreeDock()->width())
      .arg(w.problemsDock()->width())
      .arg(w.plotsDock()->height())
      .arg(lowestPane(w));
}

}  // namespace

class TestStartup : public QObject {
  Q_OBJECT

 private slots:
  void helpAndVersionNeedNoDisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(QString::fromLatin1(name));
    auto run = [&](const QString& option, QByteArray* out) {
      QProcess p;
      p.setProcessEnvironment(env);
      p.start(QStringLiteral(KINETREE_GUI), {option});
      if (!p.waitForFinished(30'000)) return -1;
      *out = p.readAllStandardOutput();
      return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    };
    QByteArray out;
    QCOMPARE(run(QStringLiteral("--version"), &out), 0);
    QVERIFY2(out.contains(kt::kVersion), out.constData());
    QCOMPARE(run(QStringLiteral("-V"), &out), 0);  // as kinetree-cli spells it
    QVERIFY2(out.contains(kt::kVersion), out.constData());
    QCOMPARE(run(QStringLiteral("--help"), &out), 0);
    QVERIFY2(out.contains("--screenshot") && out.contains("model.yaml"), out.constData());
    QCOMPARE(run(QStringLiteral("-h"), &out), 0);
    QVERIFY(out.contains("--export-plots") && out.contains("--video"));
  }

  void validLayoutIsRestored() {
    SavedLayout layout;
    {
      MainWindow w;
      w.resize(900, 700);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      w.plotsDock()->show();
      QTest::qWait(50);
      layout = {w.saveGeometry(), w.saveState()};
    }
    auto w = startWith(layout);
    checkStartedCleanly(*w);
    QCOMPARE(w->size(), QSize(900, 700));
    QVERIFY(w->plotsDock()->isVisible());
    QVERIFY(w->layout().layoutMessage().isEmpty());
  }

  void savedLayoutsStartCleanly_data() {
    QTest::addColumn<QByteArray>("geometry");
    QTest::addColumn<QByteArray>("state");
    QTest::addColumn<int>("expected");
    const SavedLayout crash = savedLayout(layoutData(QStringLiteral("maximised_after_too_small.conf")));
    QVERIFY(!crash.geometry.isEmpty() && !crash.state.isEmpty());
    QTest::newRow("maximised after too small") << crash.geometry << crash.state << kRestored;
    QTest::newRow("its state alone") << QByteArray() << crash.state << kRestored;
    QTest::newRow("its geometry alone") << crash.geometry << QByteArray() << kRestored;
    QTest::newRow("state truncated") << crash.geometry << crash.state.left(crash.state.size() / 2) << kRefused;
    QTest::newRow("geometry truncated") << crash.geometry.left(20) << crash.state << kRefused;
    QTest::newRow("garbage") << QByteArray("not a geometry") << QByteArray("not a state") << kRefused;
    QByteArray zeros(crash.state.size(), '\0');
    QTest::newRow("zeros") << crash.geometry << zeros << kRefused;
    // Random changes of the real bytes and random bytes: they start and show, whatever they say.
    QRandomGenerator random(21);
    for (int k = 0; k < 12; ++k) {
      QByteArray g = crash.geometry;
      QByteArray s = crash.state;
      for (int flips = 0; flips < 3; ++flips) {
        g[random.bounded(static_cast<int>(g.size()))] = static_cast<char>(random.bounded(256));
        s[random.bounded(static_cast<int>(s.size()))] = static_cast<char>(random.bounded(256));
      }
      QTest::newRow(qPrintable(QStringLiteral("flipped bytes %1").arg(k))) << g << s << kEither;
    }
    for (int k = 0; k < 4; ++k) {
      QByteArray g(static_cast<int>(random.bounded(8, 80)), '\0');
      QByteArray s(static_cast<int>(random.bounded(8, 400)), '\0');
      for (char& c : g) c = static_cast<char>(random.bounded(256));
      for (char& c : s) c = static_cast<char>(random.bounded(256));
      QTest::newRow(qPrintable(QStringLiteral("random bytes %1").arg(k))) << g << s << kEither;
    }
  }

  void savedLayoutsStartCleanly() {
    QFETCH(QByteArray, geometry);
    QFETCH(QByteArray, state);
    QFETCH(int, expected);
    auto w = startWith({geometry, state});
    checkStartedCleanly(*w);
    if (expected == kRestored) QVERIFY2(w->layout().layoutMessage().isEmpty(), qPrintable(w->layout().layoutMessage()));
    if (expected == kRefused) QVERIFY(!w->layout().layoutMessage().isEmpty());
    if (!w->layout().layoutMessage().isEmpty()) {
      // The default layout, and the status bar says so.
      QTRY_VERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("default layout")));
      QVERIFY(!w->plotsDock()->isHidden());  // the default layout shows the plots
      QVERIFY(!w->modelTreeDock()->isHidden());
    }
    // Whatever it restored, the layout saves and restores again.
    const SavedLayout again{w->saveGeometry(), w->saveState()};
    w.reset();
    auto second = startWith(again);
    checkStartedCleanly(*second);
    QVERIFY2(second->layout().layoutMessage().isEmpty(), qPrintable(second->layout().layoutMessage()));
  }

  void unreadableLayoutFallsBackToTheDefault() {
    const SavedLayout crash = savedLayout(layoutData(QStringLiteral("maximised_after_too_small.conf")));
    auto w = startWith({crash.geometry, QByteArray("\x00\x00\x00\xff garbage", 12)});
    checkStartedCleanly(*w);
    QVERIFY(!w->layout().layoutMessage().isEmpty());
    QTRY_VERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("default layout")));
    QVERIFY(!w->isMaximized());
    QVERIFY(!w->plotsDock()->isHidden());  // the default layout shows the plots
  }

  // The real binary, the saved layout of the report, a real window manager: before the fix every
  // start crashed in QLayoutPrivate::doResize (a bare X server without a window manager did not).
  void crashLayoutStartsUnderAWindowManager() {
    if (!found(QStringLiteral("Xvfb")) || !found(QStringLiteral("openbox")))
      QSKIP("needs Xvfb and openbox (installer/debian-packages.txt)");
    QTemporaryDir home;
    QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".config/Kinetree")));
    const QString conf = home.filePath(QStringLiteral(".config/Kinetree/Kinetree.conf"));
    QVERIFY(QFile::copy(layoutData(QStringLiteral("maximised_after_too_small.conf")), conf));

    // A private X server of the size the layout was saved on, and openbox on it.
    int display = 0;
    for (display = 140 + QRandomGenerator::global()->bounded(300);
         QFile::exists(QStringLiteral("/tmp/.X%1-lock").arg(display)); ++display) {
    }
    const QString name = QStringLiteral(":%1").arg(display);
    QProcess xvfb;
    xvfb.start(QStringLiteral("Xvfb"),
               {name, QStringLiteral("-screen"), QStringLiteral("0"), QStringLiteral("1280x1024x24"),
                QStringLiteral("-nolisten"), QStringLiteral("tcp")});
    QVERIFY(xvfb.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(display)), 10'000);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("DISPLAY"), name);
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral(".config")));
    QProcess openbox;
    openbox.setProcessEnvironment(env);
    openbox.start(QStringLiteral("openbox"), {});
    QVERIFY(openbox.waitForStarted());
    QTest::qWait(1000);  // openbox takes the screen

    for (int run = 0; run < 2; ++run) {
      QProcess app;
      app.setProcessEnvironment(env);
      app.start(QStringLiteral(KINETREE_GUI), {QStringLiteral("--screenshot"), home.filePath(QStringLiteral("s.png"))});
      QVERIFY(app.waitForFinished(120'000));
      QVERIFY2(app.exitStatus() == QProcess::NormalExit && app.exitCode() == 0,
               qPrintable(QStringLiteral("run %1: exit status %2, code %3: %4")
                              .arg(run)
                              .arg(app.exitStatus())
                              .arg(app.exitCode())
                              .arg(QString::fromLocal8Bit(app.readAllStandardError()))));
      QVERIFY(QFile::exists(home.filePath(QStringLiteral("s.png"))));
    }
    openbox.terminate();
    openbox.waitForFinished();
    xvfb.terminate();
    xvfb.waitForFinished();
  }

  // The smallest window, with everything open that opens by default or from the View menu and a
  // run's long labels, fits a 1366 × 768 laptop with room for the window frame and a task bar.
  void minimumWindowFitsASmallScreen() {
    const QFont font = QApplication::font();
    for (const double points : {font.pointSizeF(), 11.0}) {  // the default font, and a larger desktop font
      QFont larger = font;
      larger.setPointSizeF(points);
      QApplication::setFont(larger);
      MainWindow w;
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      QString error;
      QVERIFY2(w.files().loadModel(QStringLiteral(":/examples/space_robot.yaml"), error), qPrintable(error));
      w.selection().selectBody(3);  // the longest Properties page
      w.mathematicsDock()->show();
      w.peakLoadsDock()->show();
      kt::ui::SimulationController* sim = w.simulation();
      sim->setDuration(0.2);
      sim->setSpeed(0.0);
      sim->run();
      QVERIFY(
          QTest::qWaitFor([&] { return sim->runState() == kt::ui::SimulationController::RunState::Finished; }, 60000));
      QTest::qWait(100);
      const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
      QVERIFY2(minimum.width() <= 1280 && minimum.height() <= 700,
               qPrintable(QStringLiteral("%1 pt: the window cannot be smaller than %2x%3")
                              .arg(points)
                              .arg(minimum.width())
                              .arg(minimum.height())));
      // and made that small, it still shows the 3D view and every dock
      w.resize(1280, 700);
      QTest::qWait(100);
      checkStartedCleanly(w);
      QVERIFY(w.plotsDock()->isVisible() && w.modelTreeDock()->isVisible());
    }
    QApplication::setFont(font);
  }

  // View ▸ Reset Layout: docks squeezed, hidden or dropped come back where they start, at sizes
  // that suit the window (plot panes of 160 px or more at 1600 × 1000); the saved layout goes.
  void resetLayoutRestoresTheDocks() {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(100);
    QVERIFY2(lowestPane(w) >= 160, qPrintable(sizes(w)));  // the default layout
    w.resizeDocks({w.modelTreeDock(), w.problemsDock()}, {40, 40}, Qt::Horizontal);
    w.resizeDocks({w.plotsDock()}, {60}, Qt::Vertical);
    w.problemsDock()->hide();
    w.mathematicsDock()->show();
    QTest::qWait(100);
    QVERIFY2(w.modelTreeDock()->width() < 120 && lowestPane(w) < 160, qPrintable(sizes(w)));
    {
      QSettings settings;
      settings.setValue(QStringLiteral("mainWindow/state"), QByteArray("a broken layout"));
    }

    auto* reset = w.findChild<QAction*>(QStringLiteral("resetLayoutAction"));
    QVERIFY(reset);
    reset->trigger();
    QTest::qWait(100);
    QVERIFY2(w.modelTreeDock()->width() >= 280 && w.problemsDock()->width() >= 280, qPrintable(sizes(w)));
    QVERIFY2(lowestPane(w) >= 160, qPrintable(sizes(w)));
    QVERIFY(w.problemsDock()->isVisible());
    QVERIFY(!w.mathematicsDock()->isVisible());
    QVERIFY(w.sceneView()->width() >= 600 && w.sceneView()->height() >= 200);
    QVERIFY(!QSettings().contains(QStringLiteral("mainWindow/state")));
  }

  // A window made small squeezes its docks to their minimum; made large again (maximised), the
  // docks get their room back instead of staying 60 px wide.
  void growingWindowGivesSqueezedDocksRoom() {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::qWait(100);
    w.resize(w.minimumSizeHint());
    QTest::qWait(200);
    QVERIFY2(w.modelTreeDock()->width() < 120, qPrintable(sizes(w)));
    w.resize(1600, 1000);
    QTRY_VERIFY2(w.modelTreeDock()->width() >= 240 && w.problemsDock()->width() >= 240, qPrintable(sizes(w)));
    QTRY_VERIFY2(lowestPane(w) >= 120, qPrintable(sizes(w)));
    // a dock the user narrowed, but not squeezed, keeps its width when the window grows
    w.resizeDocks({w.modelTreeDock()}, {200}, Qt::Horizontal);
    QTest::qWait(50);
    const int narrowed = w.modelTreeDock()->width();
    w.resize(1640, 1000);
    QTest::qWait(100);
    QCOMPARE(w.modelTreeDock()->width(), narrowed);
  }

  void openFailureBoxFitsTheScreen() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many_errors.yaml"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("kinetree: 1\nname: many\nbodies:\n");
      // a name that looks like markup: the box must show it as written, not render it
      f.write("  - {\"<b>bold</b>\": 1, name: first, parent: world, joint: {type: fixed}}\n");
      for (int i = 0; i < 300; ++i)
        f.write(QStringLiteral("  - {name: b%1, parent: world, joint: {type: revolute, name: j%1, axis: [0, 0, 1]}, "
                               "mass: heavy, inertia: [1, 1, 1]}\n")
                    .arg(i)
                    .toUtf8());
    }
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY(!w.files().loadModel(path, error));
    QVERIFY2(error.count(QLatin1Char('\n')) >= 50, qPrintable(error));

    const QRect screen = w.screen()->availableGeometry();
    bool checked = false;
    QString failure;
    auto check = [&](QMessageBox* box, const char* when) {
      const QRect frame = box->frameGeometry();
      if (frame.height() > screen.height() || frame.width() > screen.width())
        failure += QStringLiteral("%1: the box is %2x%3 on a %4x%5 screen; ")
                       .arg(QLatin1String(when))
                       .arg(frame.width())
                       .arg(frame.height())
                       .arg(screen.width())
                       .arg(screen.height());
      QAbstractButton* ok = box->button(QMessageBox::Ok);
      if (ok == nullptr || !ok->isVisible() || !box->rect().contains(QRect(ok->mapTo(box, QPoint(0, 0)), ok->size())))
        failure += QStringLiteral("%1: its OK button is not visible; ").arg(QLatin1String(when));
    };
    QTimer::singleShot(300, this, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (box == nullptr) return;
      checked = true;
      if (!box->text().contains(QStringLiteral("many_errors.yaml"))) failure += QStringLiteral("no file name; ");
      const auto* info = box->findChild<QLabel*>(QStringLiteral("qt_msgbox_informativelabel"));
      if (info == nullptr || !info->text().contains(QStringLiteral("&lt;b&gt;bold&lt;/b&gt;")))
        failure += QStringLiteral("markup in a diagnostic is rendered instead of shown: %1; ")
                       .arg(info ? info->text().left(400) : QStringLiteral("no label"));
      check(box, "summary");
      // All the diagnostics are one click away, in a scrolling area.
      for (QAbstractButton* b : box->buttons()) {
        if (box->buttonRole(b) == QMessageBox::ActionRole) b->click();
      }
      QApplication::processEvents();
      if (!box->detailedText().contains(QStringLiteral("many_errors.yaml:"))) failure += QStringLiteral("no details; ");
      check(box, "details");
      box->button(QMessageBox::Ok)->click();
    });
    QVERIFY(!w.files().openModel(path));
    QVERIFY(checked);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestStartup>(argc, argv, "test_startup"); }
#include "test_startup.moc"
