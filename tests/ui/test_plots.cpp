// SPDX-License-Identifier: BSD-3-Clause
// The plots dock and the joint-load arrows after a run: the panes follow the selected joint and
// draw every recorded sample; a 10⁵-sample run is drawn decimated with its exact envelope; each
// pane exports as valid PNG, SVG and PDF, and on a full disk keeps the old file and says why
// (the dock's Export… and kinetree --export-plots); the arrows show each joint's wrench (full:
// the recorded load; reaction only: as long as the recorded λ) and the selected joint's numbers.
// A screenshot of the main window after the space robot has run is saved as
// screenshot_simulation.png.
// Runs under xvfb-run.
#include <vtkAxis.h>
#include <vtkChartXY.h>
#include <vtkDataArray.h>
#include <vtkPlot.h>
#include <vtkTable.h>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFontInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSurfaceFormat>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <QXmlStreamReader>
#include <cmath>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "core/analysis/spectrum.hpp"
#include "core/io/atomic_file.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/charts/chart_figure.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/charts/figure_view.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/files.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/export_plots_dialog.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

using kt::ui::MainWindow;
using kt::ui::PlotsDock;
using kt::ui::SimulationController;

namespace {

std::unique_ptr<MainWindow> openWindow(const QString& model) {
  auto w = kt::test::openWindow(model, QSize(1280, 900));
  w->plotsDock()->show();  // shown by default; a test may have hidden it
  QTest::qWait(50);
  return w;
}

SimulationController* controllerOf(MainWindow* w) { return w->simulation(); }

// Runs as fast as possible until t ≥ seconds, then pauses and lets the last samples arrive.
bool runFor(SimulationController* sim, double seconds) {
  sim->setSpeed(0.0);
  sim->setUntilStopped(false);
  sim->setDuration(seconds);
  sim->run();
  if (!QTest::qWaitFor([&] { return !sim->isRunning(); }, 60000)) return false;
  sim->poll();
  return sim->errorMessage().isEmpty();
}

}  // namespace

class TestPlots : public QObject {
  Q_OBJECT

 private slots:
  // Panes follow the selection and draw the whole run.
  void panesFollowSelection() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = controllerOf(w.get());
    PlotsDock* plots = w->plotsDock();
    QVERIFY(plots);
    QVERIFY(runFor(sim, 1.0));
    plots->readNewSamples(true);
    QCOMPARE(plots->sampleCount(), sim->recorder()->size());
    // Base attitude: roll, pitch, yaw of the free-floating base.
    const QStringList attitude = plots->paneSignals(0);
    QCOMPARE(attitude.size(), 3);
    for (const QString& s : attitude) QVERIFY2(s.startsWith(QStringLiteral("attitude:")), qPrintable(s));
    // Without a selected joint: the first arm's coordinates; a pane emptied by the user says how
    // to fill it (VTK draws nothing for an empty chart).
    QCOMPARE(plots->paneSignals(1).size(), 6);
    for (const QString& s : plots->paneSignals(1)) QVERIFY(plots->removeSignal(1, s));
    plots->redraw();
    auto* hint = plots->findChild<QLabel*>(QStringLiteral("plotPaneHint1"));
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY(hint->text().contains(QStringLiteral("Select a body")));
    QVERIFY(!plots->findChild<QLabel*>(QStringLiteral("plotPaneHint0"))->isVisible());

    // Select the last joint in the model tree: its coordinates and its five constraint force and
    // moment components (a revolute joint).
    const kt::Tree& tree = w->tree();
    const int joint = tree.nb - 1;
    w->selection().selectBody(w->selection().bodyOfTreeIndex(joint));
    QTRY_COMPARE(plots->paneSignals(2).size(), 5);
    const QString name = QString::fromStdString(tree.jointNames[static_cast<std::size_t>(joint)]);
    QVERIFY(plots->paneSignals(2).front().startsWith(QStringLiteral("reaction:%1.").arg(name)));
    QVERIFY(plots->paneSignals(1).contains(QStringLiteral("q:%1[0]").arg(name)));
    plots->redraw();
    QVERIFY(!hint->isVisible());
    // Every series drawn over the whole run (fewer samples than pixels: one point each).
    vtkTable* table = plots->chart(2)->GetPlot(0)->GetInput();
    QVERIFY(table);
    QCOMPARE(static_cast<std::size_t>(table->GetNumberOfRows()), plots->sampleCount());

    // Add and remove any signal.
    QVERIFY(plots->addSignal(0, QStringLiteral("energy.total")));
    QVERIFY(plots->paneSignals(0).contains(QStringLiteral("energy.total")));
    QCOMPARE(plots->chart(0)->GetNumberOfPlots(), vtkIdType(4));
    QVERIFY(plots->removeSignal(0, QStringLiteral("energy.total")));
    QCOMPARE(plots->chart(0)->GetNumberOfPlots(), vtkIdType(3));
    QVERIFY(!plots->addSignal(0, QStringLiteral("no such signal")));

    // The signal list: the filter keeps the matching names, a tick draws one, its box says so
    plots->show();
    auto* filter = plots->findChild<QLineEdit*>();
    auto* list = plots->findChild<QListView*>(QStringLiteral("signalList"));
    QVERIFY(filter && list);
    filter->setText(QStringLiteral("load_world:J26"));
    QAbstractItemModel* names = list->model();
    QCOMPARE(names->rowCount(), 6);
    QCOMPARE(names->index(0, 0).data().toString(), QStringLiteral("load_world:J26.fx"));
    QCOMPARE(names->index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("N"));
    QCOMPARE(names->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    QVERIFY(names->setData(names->index(0, 0), Qt::Checked, Qt::CheckStateRole));
    QVERIFY(plots->paneSignals(0).contains(QStringLiteral("load_world:J26.fx")));
    QCOMPARE(names->index(0, 0).data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QVERIFY(names->setData(names->index(0, 0), Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(!plots->paneSignals(0).contains(QStringLiteral("load_world:J26.fx")));
    // every row takes the first row's size: a long name after a short one is still shown whole
    filter->setText(QStringLiteral("J26"));
    QCOMPARE(names->index(0, 0).data().toString(), QStringLiteral("q:J26[0]"));
    int longRow = -1;
    for (int r = 0; r < names->rowCount(); ++r)
      if (names->index(r, 0).data().toString() == QStringLiteral("load_world:J26.fx")) longRow = r;
    QVERIFY(longRow > 0);
    QApplication::processEvents();
    const QRect row = list->visualRect(names->index(longRow, 0));
    QVERIFY2(row.width() >= list->fontMetrics().horizontalAdvance(QStringLiteral("load_world:J26.fx")) + 20,
             qPrintable(QString::number(row.width())));
    filter->clear();
    QVERIFY(names->rowCount() > 300);
  }

  // 10⁵ samples: drawn as ≤ 2 points per pixel column, with the exact minimum and maximum.
  void decimatedDrawing() {
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    sim->setStepSize(1e-4);
    sim->reset();
    QVERIFY(runFor(sim, 10.0));
    PlotsDock* plots = w->plotsDock();
    plots->readNewSamples(true);
    QVERIFY(plots->sampleCount() >= 100000);
    QVERIFY(plots->addSignal(1, QStringLiteral("q:hinge[0]")));
    plots->redraw();
    const int pixels = static_cast<int>(plots->paneWidget(1)->width() * plots->paneWidget(1)->devicePixelRatioF());
    vtkTable* table = plots->chart(1)->GetPlot(0)->GetInput();
    QVERIFY(table->GetNumberOfRows() <= 2 * std::max(pixels, 100));
    QVERIFY(table->GetNumberOfRows() > 0);
    const std::vector<double> q = sim->recorder()->column(sim->signalLayout()->find("q:hinge[0]"));
    QCOMPARE(q.size(), plots->sampleCount());
    double range[2];
    vtkDataArray::SafeDownCast(table->GetColumn(1))->GetRange(range);
    const double degrees = 180.0 / std::numbers::pi;  // angles are shown in degrees
    QCOMPARE(range[0], degrees * *std::min_element(q.begin(), q.end()));
    QCOMPARE(range[1], degrees * *std::max_element(q.begin(), q.end()));
    vtkDataArray::SafeDownCast(table->GetColumn(0))->GetRange(range);
    QCOMPARE(range[0], 0.0);
    QCOMPARE(range[1], sim->simulationTime());
  }

  // A ball joint's quaternion is not drawn as four "coordinates": the first branch's angles leave
  // it out (the humanoid: waist, not the neck's q[0..3] on an axis of "1"), and a ball joint
  // selected shows its angular velocity.
  void ballJointsShowTheirRates() {
    auto w = std::make_unique<MainWindow>();
    w->resize(1280, 900);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QString error;
    QVERIFY2(w->files().loadModel(QStringLiteral(KINETREE_SOURCE_DIR "/examples/humanoid.yaml"), error),
             qPrintable(error));
    QVERIFY(runFor(controllerOf(w.get()), 0.2));
    PlotsDock* plots = w->plotsDock();
    QCOMPARE(plots->paneTitle(1), QStringLiteral("Joint coordinates: waist"));
    QCOMPARE(plots->paneSignals(1), QStringList{"q:waist[0]"});
    const kt::Tree& tree = *w->simulation()->tree();
    const int neck =
        static_cast<int>(std::find(tree.jointNames.begin(), tree.jointNames.end(), "neck") - tree.jointNames.begin());
    plots->setSelectedJoint(neck);
    QCOMPARE(plots->paneTitle(1), QStringLiteral("Angular velocity: neck (body axes)"));
    QCOMPARE(plots->paneSignals(1), (QStringList{"qd:neck[0]", "qd:neck[1]", "qd:neck[2]"}));
  }

  // A free base whose first child is welded to it (MuJoCo's humanoid: the torso's head) still
  // opens on a branch that moves: the first child that moves or carries something that does.
  void firstBranchPassesFixedChildren() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("welded_first.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray inertial = "    inertial: {mass: 1, inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}}\n";
    file.write(
        "kinetree: 1\nname: welded_first\nbodies:\n"
        "  - name: torso\n    parent: world\n    joint: {type: free}\n" +
        inertial + "  - name: head\n    parent: torso\n    joint: {type: fixed}\n" + inertial +
        "  - name: hat\n    parent: head\n    joint: {type: fixed}\n" + inertial +
        "  - name: arm\n    parent: torso\n    joint: {type: revolute, name: shoulder}\n" + inertial +
        "  - name: hand\n    parent: arm\n    joint: {type: revolute, name: wrist}\n" + inertial);
    file.close();
    auto w = std::make_unique<MainWindow>();
    w->resize(1280, 900);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QString error;
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
    QVERIFY(runFor(controllerOf(w.get()), 0.1));
    PlotsDock* plots = w->plotsDock();
    QCOMPARE(plots->paneTitle(1), QStringLiteral("Joint coordinates: shoulder, wrist"));
    QCOMPARE(plots->paneSignals(1), (QStringList{"q:shoulder[0]", "q:wrist[0]"}));
    QCOMPARE(plots->paneSignals(2).front(), QStringLiteral("reaction:shoulder.mx"));
  }

  // The first picture is the paper's (Liu et al. 2016, Figs. 8–10): base attitude, the first
  // arm's joint angles (in degrees), its first joint's constraint forces and moments, every pane
  // drawn after a 1 s run, titled after what it shows, the legend naming signals as the list does.
  void firstPictureIsThePapers() {
    auto w = std::make_unique<MainWindow>();
    w->resize(1280, 900);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QString error;
    QVERIFY(w->files().loadModel(kt::resources::kDefaultModel, error));
    QVERIFY(w->plotsDock()->isVisible());  // shown from the start
    QVERIFY(runFor(controllerOf(w.get()), 1.0));
    PlotsDock* plots = w->plotsDock();
    plots->redraw();
    QCOMPARE(plots->paneTitle(0), QStringLiteral("Base attitude: base"));
    QCOMPARE(plots->paneTitle(1), QStringLiteral("Joint coordinates: J11 … J16"));
    QCOMPARE(plots->paneTitle(2), QStringLiteral("Constraint forces and moments: J11 (joint frame)"));
    QCOMPARE(plots->paneSignals(1),
             (QStringList{"q:J11[0]", "q:J12[0]", "q:J13[0]", "q:J14[0]", "q:J15[0]", "q:J16[0]"}));
    QCOMPARE(plots->paneSignals(2), (QStringList{"reaction:J11.mx", "reaction:J11.my", "reaction:J11.fx",
                                                 "reaction:J11.fy", "reaction:J11.fz"}));
    for (int p = 0; p < PlotsDock::kPaneCount; ++p) {
      auto* pane = static_cast<kt::render::ChartPane*>(plots->paneWidget(p));
      QVERIFY2(pane->drawnSeries() > 0 && pane->rowCount() > 2, qPrintable(plots->paneTitle(p)));
      QVERIFY(!pane->hintLabel()->isVisible());
      QCOMPARE(QString::fromStdString(pane->chart()->GetPlot(0)->GetLabel()), plots->paneSignals(p).front());
      QCOMPARE(pane->legendNames().front().section(QLatin1Char(' '), 0, 0), plots->paneSignals(p).front());
    }
    auto* angles = static_cast<kt::render::ChartPane*>(plots->paneWidget(1));
    QCOMPARE(angles->series().front().unit, QStringLiteral("deg"));
    QCOMPARE(QString::fromStdString(angles->chart()->GetAxis(vtkAxis::LEFT)->GetTitle()), QStringLiteral("deg"));
    // forces and moments on their own axes
    auto* loads = static_cast<kt::render::ChartPane*>(plots->paneWidget(2));
    QCOMPARE(QString::fromStdString(loads->chart()->GetAxis(vtkAxis::LEFT)->GetTitle()), QStringLiteral("N·m"));
    QCOMPARE(QString::fromStdString(loads->chart()->GetAxis(vtkAxis::RIGHT)->GetTitle()), QStringLiteral("N"));
    // radians on request
    plots->setAnglesInDegrees(false);
    QCOMPARE(angles->series().front().unit, QStringLiteral("rad"));
    plots->setAnglesInDegrees(true);
    // the hover readout: the recorded values at the sample under the pointer, with units
    angles->renderToImage();
    int x = 0;
    while (x < angles->width() && angles->timeAt(x) < 0.5) ++x;
    const QString readout = angles->readoutAt(x);
    QVERIFY2(readout.startsWith("t = 0.5") && readout.contains("q:J12[0] = ") && readout.contains(" deg"),
             qPrintable(readout));
    // near the plot's right end the readout opens to the left: the legend there stays in sight
    const double end = angles->xOfTime(angles->visibleTimeRange().second);
    // (sent to the pane: QTest::mouseMove moves the display's pointer, which a busy X server
    // may deliver late or to another window)
    const QPointF at(end - 4.0, angles->height() / 2.0);
    QMouseEvent move(QEvent::MouseMove, at, angles->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(angles, &move);
    auto* box = angles->findChild<QLabel*>(QStringLiteral("readout"));
    QVERIFY(box && box->isVisible());
    QVERIFY2(box->geometry().right() <= end,
             qPrintable(QStringLiteral("%1 > %2").arg(box->geometry().right()).arg(end)));
    QVERIFY(w->grab().save(QStringLiteral("screenshot_plots_first_run.png")));
  }

  // Stacked panes share their time axis: whatever their units, tick labels and legends (the loads
  // pane has a right axis and the longest names), one time falls on one x in all three, as the
  // window paints them, and still does after a signal of another unit is ticked into a pane or
  // taken out again (nothing resized).
  void panesShareTheirTimeAxis() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runFor(controllerOf(w.get()), 1.0));
    PlotsDock* plots = w->plotsDock();
    std::vector<kt::render::ChartPane*> panes;
    for (int p = 0; p < PlotsDock::kPaneCount; ++p)
      panes.push_back(static_cast<kt::render::ChartPane*>(plots->paneWidget(p)));
    QString last;  // the last misalignment seen
    const auto aligned = [&] {
      for (const double t : {0.0, 0.5, 1.0}) {
        const double x = panes.front()->xOfTime(t);
        if (!std::isfinite(x)) return false;
        for (const kt::render::ChartPane* pane : panes)
          if (std::abs(pane->xOfTime(t) - x) > 1.0) {
            last = QStringLiteral("%1 at t = %2: x %3, not %4").arg(pane->title()).arg(t).arg(pane->xOfTime(t)).arg(x);
            return false;
          }
      }
      return true;
    };
    plots->redraw();
    QVERIFY2(QTest::qWaitFor(aligned, 5000), qPrintable(last));
    // the panes' own room differs (so the check is not met by itself)
    QVERIFY(panes[2]->margins().right > panes[0]->margins().right);
    QVERIFY(panes[2]->margins().legend > panes[0]->margins().legend);
    QVERIFY(plots->addSignal(0, QStringLiteral("reaction:J11.fz")));  // N beside deg: a right axis
    QVERIFY(QTest::qWaitFor([&] { return panes[0]->margins().right > panes[1]->margins().right; }, 5000));
    QVERIFY2(QTest::qWaitFor(aligned, 5000), qPrintable(last));
    QVERIFY(plots->removeSignal(0, QStringLiteral("reaction:J11.fz")));
    QVERIFY(QTest::qWaitFor([&] { return panes[0]->margins().right < panes[2]->margins().right; }, 5000));
    QVERIFY2(QTest::qWaitFor(aligned, 5000), qPrintable(last));
  }

  // A model with prescribed joints (docs/motion.md) opens with the efforts they need and the loads
  // of the first of them, the base attitude where the base floats.
  void prescribedModelOpensWithItsEfforts() {
    auto w = std::make_unique<MainWindow>();
    w->resize(1280, 900);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QString error;
    QVERIFY(w->files().loadModel(QStringLiteral(":/examples/space_robot_motion.yaml"), error));
    QVERIFY(runFor(controllerOf(w.get()), 0.5));
    PlotsDock* plots = w->plotsDock();
    plots->redraw();
    QCOMPARE(plots->paneTitle(0), QStringLiteral("Base attitude: base"));
    QCOMPARE(plots->paneTitle(1), QStringLiteral("Required efforts: J11 … J26"));
    QCOMPARE(plots->paneSignals(1).size(), 12);
    QCOMPARE(plots->paneSignals(1).front(), QStringLiteral("tau:J11[0]"));
    QCOMPARE(plots->paneTitle(2), QStringLiteral("Constraint forces and moments: J11 (joint frame)"));
  }

  // The wheel zooms the time axis; with Ctrl the value axis; a zoom is drawn from the recording.
  void wheelZoomsOneAxis() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runFor(controllerOf(w.get()), 2.0));
    auto* pane = static_cast<kt::render::ChartPane*>(w->plotsDock()->paneWidget(0));
    w->plotsDock()->redraw();
    pane->renderToImage();
    vtkAxis* time = pane->chart()->GetAxis(vtkAxis::BOTTOM);
    vtkAxis* value = pane->chart()->GetAxis(vtkAxis::LEFT);
    const double t0 = time->GetMinimum(), t1 = time->GetMaximum(), y0 = value->GetMinimum(), y1 = value->GetMaximum();
    const QPointF at(pane->width() / 2.0, pane->height() / 2.0);
    QWheelEvent in(at, pane->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                   false);
    QApplication::sendEvent(pane, &in);
    QVERIFY(time->GetMaximum() - time->GetMinimum() < 0.9 * (t1 - t0));
    QCOMPARE(value->GetMinimum(), y0);
    QCOMPARE(value->GetMaximum(), y1);
    QVERIFY(!pane->autoscale());
    const double s0 = time->GetMinimum(), s1 = time->GetMaximum();
    QWheelEvent ctrl(at, pane->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                     Qt::NoScrollPhase, false);
    QApplication::sendEvent(pane, &ctrl);
    QCOMPARE(time->GetMinimum(), s0);
    QCOMPARE(time->GetMaximum(), s1);
    QVERIFY(value->GetMaximum() - value->GetMinimum() < 0.9 * (y1 - y0));
  }

  // Statistics under a pane (docs/reports.md): per series over the time range the pane shows,
  // as shown (angles in degrees), against a brute-force scan of the recording; a zoom changes the
  // range and the figures; Copy Table gives them tab-separated, in full.
  void statisticsOfTheVisibleRange() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = controllerOf(w.get());
    PlotsDock* plots = w->plotsDock();
    QVERIFY(runFor(sim, 2.0));
    plots->setCurrentPane(1);  // the joint coordinates, in degrees
    QPushButton* button = plots->findChild<QPushButton*>(QStringLiteral("plotStatisticsButton"));
    QVERIFY(button && !button->isChecked());
    button->click();
    QVERIFY(plots->statisticsShown());
    auto* pane = static_cast<kt::render::ChartPane*>(plots->paneWidget(1));
    const auto drawn = [&] {  // drawn and rendered: the axes are the range shown
      plots->redraw();
      pane->renderToImage();
      plots->redraw();
    };
    drawn();
    const auto check = [&] {
      QTableWidget* table = plots->statisticsTable();
      const std::vector<kt::render::ChartSeries>& series = pane->series();
      QCOMPARE(table->rowCount(), static_cast<int>(series.size()));
      const auto [t0, t1] = pane->visibleTimeRange();
      const std::vector<double> t = sim->recorder()->column(0);
      const QStringList lines = plots->statisticsText().split('\n', Qt::SkipEmptyParts);
      QCOMPARE(lines.size(), table->rowCount() + 1);
      QCOMPARE(lines.front(), QStringLiteral("Signal\tMin\tMax\tMean\tRMS\tPeak-to-peak\tt of max (s)"));
      for (std::size_t r = 0; r < series.size(); ++r) {
        const std::vector<double> x = sim->recorder()->column(series[r].column);
        double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0, squares = 0, at = 0;
        int n = 0;
        for (std::size_t k = 0; k < x.size(); ++k) {
          if (t[k] < t0 || t[k] > t1) continue;
          const double v = series[r].scale * x[k];
          if (v > hi) at = t[k];
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          sum += v;
          squares += v * v;
          ++n;
        }
        QVERIFY(n > 10);
        const QString line = lines[static_cast<qsizetype>(r) + 1];
        const QStringList cells = line.split('\t');
        QCOMPARE(cells[0], series[r].name);
        const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); };
        QVERIFY2(near(cells[1].toDouble(), lo) && near(cells[2].toDouble(), hi), qPrintable(line));
        QVERIFY(near(cells[3].toDouble(), sum / n) && near(cells[4].toDouble(), std::sqrt(squares / n)));
        QVERIFY(near(cells[5].toDouble(), hi - lo));
        QCOMPARE(cells[6].toDouble(), at);
        // the table shows them with the unit
        QVERIFY(table->item(static_cast<int>(r), 2)->text().endsWith(series[r].unit));
      }
    };
    check();
    // zoomed in: the range and the figures follow
    const QPointF at(pane->width() / 2.0, pane->height() / 2.0);
    QWheelEvent in(at, pane->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                   false);
    QApplication::sendEvent(pane, &in);
    drawn();
    QVERIFY(pane->visibleTimeRange().second - pane->visibleTimeRange().first < 1.8);
    check();
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QTest::qWait(50);  // the layout takes the table's height
    QVERIFY(plots->statisticsTable()->isVisible());
    QVERIFY(plots->grab().save(QStringLiteral("/tmp/kinetree-shots/plot-statistics.png")));
    // the table follows the chosen pane; the button hides it
    plots->setCurrentPane(0);
    QCOMPARE(plots->statisticsTable()->rowCount(), 3);
    QCOMPARE(plots->statisticsTable()->item(0, 0)->text(), QStringLiteral("attitude:base.roll"));
    button->click();
    QVERIFY(!plots->statisticsShown());
  }

  // Spectrum under the panes (docs/reports.md): each series of the chosen pane over the range it
  // shows, as drawn (degrees), is kt::welchSpectrum of those samples to the last bit; PSD and a
  // log axis on request; the caption gives the resolution and the largest lines.
  void spectrumOfTheVisibleRange() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = controllerOf(w.get());
    PlotsDock* plots = w->plotsDock();
    QVERIFY(runFor(sim, 4.0));
    plots->setCurrentPane(2);  // the loads of J11: N·m and N
    QPushButton* button = plots->findChild<QPushButton*>(QStringLiteral("plotSpectrumButton"));
    QVERIFY(button);
    button->click();
    QVERIFY(plots->spectrumShown());
    // with the statistics open too, the panes keep a pane's height at the default window size
    plots->findChild<QPushButton*>(QStringLiteral("plotStatisticsButton"))->click();
    QApplication::processEvents();
    auto* panes = plots->findChild<QScrollArea*>(QStringLiteral("plotPanesScroll"));
    QVERIFY(panes);
    QVERIFY2(panes->viewport()->height() >= plots->paneWidget(0)->minimumHeight(),
             qPrintable(QString::number(panes->viewport()->height())));
    // and the pane they are of is the one in sight
    QTRY_VERIFY(plots->paneWidget(2)->visibleRegion().boundingRect().height() >=
                plots->paneWidget(2)->minimumHeight() / 2);
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/plots-statistics-spectrum.png")));
    plots->findChild<QPushButton*>(QStringLiteral("plotStatisticsButton"))->click();
    plots->setSpectrumOptions(false, false, 512);
    auto* pane = static_cast<kt::render::ChartPane*>(plots->paneWidget(2));
    plots->redraw();
    pane->renderToImage();
    plots->redraw();
    const std::vector<kt::render::ChartSeries>& series = pane->series();
    QCOMPARE(plots->spectra().size(), series.size());
    const auto [t0, t1] = pane->visibleTimeRange();
    const std::vector<double> t = sim->recorder()->column(0);
    for (std::size_t r = 0; r < series.size(); ++r) {
      const std::vector<double> all = sim->recorder()->column(series[r].column);
      std::vector<double> x;
      for (std::size_t k = 0; k < all.size(); ++k)
        if (t[k] >= t0 && t[k] <= t1) x.push_back(series[r].scale * all[k]);
      kt::SpectrumOptions o;
      o.segment = 512;
      const kt::Spectrum expected = kt::welchSpectrum(x, 500.0, o);
      QVERIFY(plots->spectra()[r].amplitude == expected.amplitude);
      QVERIFY(plots->spectra()[r].psd == expected.psd);
    }
    const kt::render::ChartFigure& figure = plots->spectrumView()->figure();
    QCOMPARE(figure.series.size(), series.size());
    QCOMPARE(figure.xUnit, QStringLiteral("Hz"));
    QVERIFY(figure.hasRight);  // moments on the left, forces on the right
    QVERIFY2(plots->spectrumCaption()->text().contains(QStringLiteral("resolution 0.9766 Hz")),
             qPrintable(plots->spectrumCaption()->text()));
    QVERIFY(plots->spectrumCaption()->text().contains(series.front().name + QStringLiteral(": ")));
    // the text on screen is the application's size, however small the view
    QCOMPARE(figure.minTextHeight, static_cast<double>(QFontInfo(plots->spectrumView()->font()).pixelSize()));
    QVERIFY(figure.minTextHeight > 8.0);
    // exported: the CSV of kinetree-cli spectrum over the same samples, and the figure
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("spectrum.csv")),
                  pdf = dir.filePath(QStringLiteral("spectrum.pdf"));
    QString error;
    QVERIFY2(plots->exportSpectrum(csv, &error), qPrintable(error));
    QVERIFY2(plots->exportSpectrum(pdf, &error), qPrintable(error));
    QVERIFY(!plots->exportSpectrum(dir.filePath(QStringLiteral("spectrum.txt")), &error));
    const QStringList lines = QString::fromUtf8(kt::test::readAll(csv)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 257);  // the header and L/2 + 1 lines
    QCOMPARE(lines.front(), QStringLiteral("f_Hz,%1.amplitude,%1.psd").arg(series.front().name) +
                                lines.front().mid(lines.front().indexOf(QStringLiteral(",") + series[1].name)));
    QCOMPARE(lines[1].section(QLatin1Char(','), 1, 1).toDouble(), plots->spectra().front().amplitude[0]);
    QVERIFY(kt::test::readAll(pdf).startsWith("%PDF"));
    plots->setSpectrumOptions(true, true, 0);
    QVERIFY(plots->spectrumView()->figure().left.log);
    QVERIFY2(plots->spectrumView()->figure().left.label.endsWith(QStringLiteral("²/Hz")),
             qPrintable(plots->spectrumView()->figure().left.label));
    QTest::qWait(50);
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QVERIFY(plots->grab().save(QStringLiteral("/tmp/kinetree-shots/plot-spectrum.png")));
    plots->setSpectrumOptions(false, false, 0);
    QTest::qWait(50);
    QVERIFY(plots->grab().save(QStringLiteral("/tmp/kinetree-shots/plot-spectrum-amplitude.png")));
  }

  // File ▸ New and Open empty every pane: nothing of the old model stays; each pane says why it
  // is empty; a model without a floating base plots its energy.
  void newAndOpenClearThePanes() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runFor(controllerOf(w.get()), 0.3));
    PlotsDock* plots = w->plotsDock();
    QVERIFY(plots->addSignal(0, QStringLiteral("momentum.lx")));
    QCOMPARE(plots->paneTitle(0), QStringLiteral("attitude:base, momentum"));  // after what it shows
    w->files().setUnsavedChangesAnswerForTesting([] { return QMessageBox::Discard; });
    QVERIFY(w->files().newModel());
    for (int p = 0; p < PlotsDock::kPaneCount; ++p) {
      QVERIFY(plots->paneSignals(p).isEmpty());
      auto* pane = static_cast<kt::render::ChartPane*>(plots->paneWidget(p));
      QCOMPARE(pane->drawnSeries(), std::size_t(0));
      QVERIFY(pane->hintLabel()->isVisible());
      QVERIFY(!pane->hintLabel()->text().isEmpty());
    }
    QString error;
    QVERIFY(w->files().loadModel(QStringLiteral(":/examples/double_pendulum.yaml"), error));
    QVERIFY(plots->paneSignals(0).contains(QStringLiteral("energy.total")));
    QVERIFY(!plots->paneSignals(0).contains(QStringLiteral("momentum.lx")));
    QVERIFY(plots->paneTitle(0).startsWith(QStringLiteral("Energy")));
    QVERIFY(!plots->paneSignals(1).isEmpty());  // the first branch: both joints
    auto* pane = static_cast<kt::render::ChartPane*>(plots->paneWidget(0));
    plots->redraw();
    QVERIFY(pane->hintLabel()->text().contains(QStringLiteral("Run")));  // before the first run
  }

  // kinetree MODEL --run T --export-plots DIR: every pane and the stacked figure, in each format.
  // On a full disk (injected: the third figure fails) it exits with status 1 and the reason and
  // leaves the old figures as they were, not a mix; what a killed export left is removed.
  void exportPlotsFromTheCommandLine() {
    QTemporaryDir dir;
    const QString plotsDir = dir.filePath("plots");
    QVERIFY(QDir().mkpath(plotsDir));
    {
      QFile old(plotsDir + "/plots.pdf");
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old figure");
    }
    QProcess ended;  // a process id that is no longer in use: the killed export's
    ended.start(QStringLiteral("true"));
    QVERIFY(ended.waitForStarted());
    const qint64 deadPid = ended.processId();
    QVERIFY(ended.waitForFinished());
    const QString leftover = QStringLiteral("kinetree-partial-%1-Ab12Cd").arg(deadPid);
    QVERIFY(QDir(plotsDir).mkpath(leftover));
    QFile(plotsDir + "/" + leftover + "/plots.png").open(QIODevice::WriteOnly);
    QFile(plotsDir + "/plots.png." + leftover).open(QIODevice::WriteOnly);
    const auto exportPlots = [&](const QString& failWrites) {
      QProcess gui;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
      if (!failWrites.isEmpty()) env.insert(QStringLiteral("KINETREE_FAIL_WRITES"), failWrites);
      gui.setProcessEnvironment(env);
      gui.start(QStringLiteral(KINETREE_GUI), {QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"),
                                               "--run", "0.5", "--export-plots", plotsDir, "--formats", "png,pdf"});
      gui.waitForFinished(120000);
      return std::make_pair(gui.exitCode(), QString::fromLocal8Bit(gui.readAllStandardError()));
    };
    const auto [failedCode, failedError] = exportPlots(QStringLiteral("3"));
    QCOMPARE(failedCode, 1);
    QVERIFY2(failedError.contains(QStringLiteral("No space left on device")), qPrintable(failedError));
    QCOMPARE(QDir(plotsDir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{"plots.pdf"});
    QFile old(plotsDir + "/plots.pdf");
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("old figure"));
    const auto [code, error] = exportPlots(QString());
    QVERIFY2(code == 0, qPrintable(error));
    const QStringList files =
        QDir(plotsDir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
    QCOMPARE(files, (QStringList{"Base_attitude_base.pdf", "Base_attitude_base.png",
                                 "Constraint_forces_and_moments_J11_(joint_frame).pdf",
                                 "Constraint_forces_and_moments_J11_(joint_frame).png", "Joint_coordinates_J11-J16.pdf",
                                 "Joint_coordinates_J11-J16.png", "plots.pdf", "plots.png"}));
    QCOMPARE(QImage(dir.filePath("plots/plots.png")).size(), QSize(3200, 3600));
  }

  // The loads pane shows what the arrows show, in the same frame.
  void loadsPaneFollowsTheArrows() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runFor(controllerOf(w.get()), 0.3));
    PlotsDock* plots = w->plotsDock();
    QVERIFY(plots->paneSignals(2).front().startsWith(QStringLiteral("reaction:J11.")));
    w->findChild<QAction*>(QStringLiteral("reactionOnlyAction"))->trigger();  // the whole wrench
    QVERIFY(plots->paneSignals(2).front().startsWith(QStringLiteral("load:J11.")));
    w->findChild<QAction*>(QStringLiteral("worldAxesAction"))->trigger();
    QVERIFY(plots->paneSignals(2).front().startsWith(QStringLiteral("load_world:J11.")));
    QVERIFY(plots->paneTitle(2).contains(QStringLiteral("world axes")));
    w->jointLoadView()->setSelectedJoint(2);
    QVERIFY(w->jointLoadView()->arrows()->label().find("world axes") != std::string::npos);
  }

  // PNG, SVG and PDF exports are valid files of their kind.
  void exportFormats() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = controllerOf(w.get());
    QVERIFY(runFor(sim, 0.5));
    PlotsDock* plots = w->plotsDock();
    QTemporaryDir dir;
    for (int pane = 0; pane < PlotsDock::kPaneCount; ++pane) {
      QVERIFY(plots->addSignal(pane, QStringLiteral("energy.kinetic")));
      const QString base = dir.filePath(QStringLiteral("pane%1").arg(pane));
      QString error;
      QVERIFY2(plots->exportPane(pane, base + ".png", &error), qPrintable(error));
      QVERIFY2(plots->exportPane(pane, base + ".svg", &error), qPrintable(error));
      QVERIFY2(plots->exportPane(pane, base + ".pdf", &error), qPrintable(error));

      QFile png(base + ".png");
      QVERIFY(png.open(QIODevice::ReadOnly));
      QCOMPARE(png.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));
      const QImage image(base + ".png");
      QVERIFY(!image.isNull());
      QVERIFY(kt::render::greyVariance(image) > 1.0);  // a drawn chart, not a blank rectangle

      QFile svg(base + ".svg");
      QVERIFY(svg.open(QIODevice::ReadOnly));
      QXmlStreamReader xml(&svg);
      int paths = 0;
      bool root = false;
      while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
          if (xml.name() == QLatin1String("svg")) root = true;
          if (xml.name() == QLatin1String("path")) ++paths;
        }
      }
      QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
      QVERIFY(root);
      QVERIFY(paths >= 1);
      QVERIFY(QSvgRenderer(base + ".svg").isValid());

      QFile pdf(base + ".pdf");
      QVERIFY(pdf.open(QIODevice::ReadOnly));
      const QByteArray bytes = pdf.readAll();
      QVERIFY(bytes.startsWith("%PDF-"));
      QVERIFY(bytes.right(32).contains("%%EOF"));
      QVERIFY(bytes.size() > 1000);
      // the same size on paper: the SVG's width in mm, the PDF page's in points
      const QRegularExpressionMatch mm =
          QRegularExpression(QStringLiteral("<svg[^>]* width=\"([0-9.]+)mm\"")).match(QString::fromUtf8([&] {
            QFile f(base + ".svg");
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
          }()));
      const QRegularExpressionMatch box =
          QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ")).match(QString::fromLatin1(bytes));
      QVERIFY(mm.hasMatch() && box.hasMatch());
      const double svgPoints = mm.captured(1).toDouble() * 72.0 / 25.4, pdfPoints = box.captured(1).toDouble();
      QVERIFY2(std::abs(svgPoints - pdfPoints) < 0.01 * pdfPoints,
               qPrintable(QStringLiteral("SVG %1 pt, PDF %2 pt").arg(svgPoints).arg(pdfPoints)));
    }
    QString error;
    QVERIFY(!plots->exportPane(0, dir.filePath(QStringLiteral("pane.bmpx")), &error));
    QVERIFY(!error.isEmpty());

    // The dock's Export… on a full disk (injected: ENOSPC after 100 bytes or at the commit): the
    // reason for the message box, and the old file as it was.
    kt::ui::ExportPlotsDialog dialog(*plots, *sim, w.get());
    for (const char* suffix : {".png", ".svg", ".pdf"}) {
      const QString path = dir.filePath(QStringLiteral("pane0") + suffix);
      QFile before(path);
      QVERIFY(before.open(QIODevice::ReadOnly));
      const QByteArray old = before.readAll();
      before.close();
      for (long long after : {100LL, 100000000LL}) {
        kt::setWriteFailureForTesting(1, after);
        const bool written = dialog.exportTo(path);
        kt::setWriteFailureForTesting(0);
        QVERIFY(!written);
        QVERIFY2(
            dialog.lastError().contains(QStringLiteral("No space left on device")) && dialog.lastError().contains(path),
            qPrintable(dialog.lastError()));
        QFile kept(path);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QVERIFY(kept.readAll() == old);
      }
      QVERIFY2(dialog.exportTo(path), qPrintable(dialog.lastError()));
    }
    QVERIFY(
        QDir(dir.path()).entryList({QStringLiteral("*kinetree-partial*")}, QDir::AllEntries | QDir::Hidden).isEmpty());
  }

  // The three formats are one drawing: the PDF (rasterized by poppler) and the SVG (rasterized by
  // Qt) agree with the PNG; the PNG has the requested size; "N·m" is text in the PDF; a stacked
  // figure of all panes and the caption line; file names without unsafe characters.
  void exportsAgree() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runFor(controllerOf(w.get()), 1.0));
    PlotsDock* plots = w->plotsDock();
    QTemporaryDir dir;
    const QString base = dir.filePath(QStringLiteral("loads"));
    QString error;
    for (const char* suffix : {".png", ".svg", ".pdf"})
      QVERIFY2(plots->exportPanes({2}, base + suffix, QSizeF(800, 448), 2.0, QStringLiteral("caption ·"), &error),
               qPrintable(error));
    const QImage png = QImage(base + ".png").convertToFormat(QImage::Format_RGB32);
    QCOMPARE(png.size(), QSize(1600, 896));
    // the PDF at 192 dpi: 800 × 448 units of 1/96 in (600 × 336 pt), 1600 × 896 pixels
    QProcess pdftoppm;
    pdftoppm.start(QStringLiteral("pdftoppm"), {"-r", "192", "-png", "-singlefile", base + ".pdf", base + "_pdf"});
    QVERIFY2(pdftoppm.waitForFinished(60000) && pdftoppm.exitCode() == 0, "pdftoppm (poppler-utils) is needed");
    const QImage pdf = QImage(base + "_pdf.png").convertToFormat(QImage::Format_RGB32);
    QCOMPARE(pdf.size(), png.size());
    QImage svg(png.size(), QImage::Format_RGB32);
    svg.fill(Qt::white);
    QPainter painter(&svg);
    QSvgRenderer(base + ".svg").render(&painter);
    painter.end();
    const double pdfDiff = kt::render::meanAbsoluteDifference(png, pdf);
    const double svgDiff = kt::render::meanAbsoluteDifference(png, svg);
    qInfo("mean absolute difference from the PNG: PDF %.2f, SVG %.2f (0-255)", pdfDiff, svgDiff);
    QVERIFY2(pdfDiff < 6.0, qPrintable(QString::number(pdfDiff)));
    QVERIFY2(svgDiff < 6.0, qPrintable(QString::number(svgDiff)));
    QVERIFY(kt::render::greyVariance(png) > 50.0);
    QProcess pdftotext;
    pdftotext.start(QStringLiteral("pdftotext"), {base + ".pdf", "-"});
    QVERIFY(pdftotext.waitForFinished(60000));
    const QString text = QString::fromUtf8(pdftotext.readAllStandardOutput());
    QVERIFY2(text.contains(QStringLiteral("N·m")) && text.contains(QStringLiteral("caption ·")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("reaction:J11.mx")));
    // all panes stacked
    QVERIFY(plots->exportPanes({0, 1, 2}, dir.filePath("all.png"), QSizeF(800, 1200), 1.0, QString(), &error));
    QCOMPARE(QImage(dir.filePath("all.png")).size(), QSize(800, 1200));
    QCOMPARE(kt::render::safeFileName(QStringLiteral("Joint loads: J12 (a/b)")),
             QStringLiteral("Joint_loads_J12_(a_b)"));
    QCOMPARE(kt::render::safeFileName(QStringLiteral("Joint coordinates: J11 … J16 ")),
             QStringLiteral("Joint_coordinates_J11-J16"));
    QCOMPARE(kt::render::safeFileName(QStringLiteral("../..")), QStringLiteral("plot"));
  }

  // Arrows: full wrench as recorded (world axes, same magnitudes), reaction part as long as λ.
  void loadArrows() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = controllerOf(w.get());
    QVERIFY(runFor(sim, 1.0));
    kt::render::LoadArrows* arrows = w->jointLoadView()->arrows();
    QVERIFY(arrows);
    kt::render::LoadArrowOptions o;
    o.visible = true;
    o.reactionOnly = false;  // the whole wrench first
    arrows->setOptions(o);
    sim->showLive();  // a frame: the arrows take the shown sample with these options
    const kt::Tree& tree = w->tree();
    const kt::SignalLayout& layout = *sim->signalLayout();
    sim->poll();
    const std::vector<double> row = sim->shownRow();
    int visible = 0;
    for (int i = 0; i < tree.nb; ++i) {
      const std::string j = tree.jointNames[static_cast<std::size_t>(i)];
      Eigen::Vector3d f, m;
      const char* fc[3] = {"fx", "fy", "fz"};
      const char* mc[3] = {"mx", "my", "mz"};
      for (int k = 0; k < 3; ++k) {
        f[k] = row[static_cast<std::size_t>(layout.find("load:" + j + "." + fc[k]))];
        m[k] = row[static_cast<std::size_t>(layout.find("load:" + j + "." + mc[k]))];
      }
      const kt::Vec6& drawn = arrows->drawnWrench(i);
      QVERIFY(std::abs(drawn.tail<3>().norm() - f.norm()) <= 1e-9 * (1.0 + f.norm()));
      QVERIFY(std::abs(drawn.head<3>().norm() - m.norm()) <= 1e-9 * (1.0 + m.norm()));
      // Drawn when longer than a millionth of the model's size (automatic scale: the largest
      // force seen is 0.3 × that size).
      const bool longEnough = f.norm() * arrows->forceScaleInUse() > 1e-3;
      if (longEnough) {
        QVERIFY2(arrows->forceActor(i)->GetVisibility(), j.c_str());
        ++visible;
      }
    }
    QVERIFY(visible > 0);

    o.reactionOnly = true;
    arrows->setOptions(o);
    const double t = sim->simulationTime();
    sim->step();  // a new sample updates the arrows
    QTRY_VERIFY(sim->simulationTime() > t);
    for (int i = 0; i < tree.nb; ++i) {
      const std::string j = tree.jointNames[static_cast<std::size_t>(i)];
      double lambda2 = 0;
      for (const kt::SignalInfo& info : layout.infos())
        if (info.kind == kt::SignalKind::Reaction && info.body == i) {
          const double l = sim->shownRow()[static_cast<std::size_t>(layout.find(info.name))];
          lambda2 += l * l;
        }
      const double drawn = arrows->drawnWrench(i).norm();
      QVERIFY2(std::abs(drawn - std::sqrt(lambda2)) <= 1e-9 * (1.0 + drawn), j.c_str());
    }

    // The selected joint's numbers; selected-only hides the others.
    const int joint = tree.nb - 1;
    w->selection().selectBody(w->selection().bodyOfTreeIndex(joint));
    QTRY_COMPARE(arrows->selectedJoint(), joint);
    QVERIFY(QString::fromStdString(arrows->label()).contains(QString::fromStdString(tree.jointNames.back())));
    o.selectedOnly = true;
    arrows->setOptions(o);
    for (int i = 0; i + 1 < tree.nb; ++i) QVERIFY(!arrows->forceActor(i)->GetVisibility());

    // A screenshot of the whole window as a test artifact: not blank.
    o.selectedOnly = false;
    o.reactionOnly = false;
    arrows->setOptions(o);
    QTest::qWait(100);
    const QImage shot = w->grab().toImage();
    shot.save(QStringLiteral("screenshot_simulation.png"));
    QVERIFY(kt::render::greyVariance(shot) > 10.0);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestPlots>(argc, argv, "test_plots"); }
#include "test_plots.moc"
