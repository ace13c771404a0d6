// The plots dock and the joint-load arrows after a run: the panes follow the selected joint and
// draw every recorded sample; a 10⁵-sample run is drawn decimated with its exact envelope; each
// pane exports as valid PNG, SVG and PDF; the arrows show each joint's wrench (full: the recorded
// load; reaction only: as long as the recorded λ) and the selected joint's numbers. A screenshot
// of the main window after the space robot has run is saved as screenshot_simulation.png.
// Runs under xvfb-run.
#include <vtkChartXY.h>
#include <vtkDataArray.h>
#include <vtkPlot.h>
#include <vtkTable.h>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSurfaceFormat>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <cmath>
#include <memory>

#include "render/load_arrows.hpp"
#include "render/scene_view.hpp"
#include "render/vtk_widget.hpp"
#include "resources/resources.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/joint_load_view.hpp"
#include "ui/main_window.hpp"
#include "ui/plots_dock.hpp"
#include "ui/simulation_controller.hpp"

using kt::ui::MainWindow;
using kt::ui::PlotsDock;
using kt::ui::SimulationController;

namespace {

std::unique_ptr<MainWindow> openWindow(const QString& model) {
  auto w = std::make_unique<MainWindow>();
  w->resize(1280, 900);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get())) qFatal("main window not exposed");
  QString error;
  if (!w->loadModel(model, error)) qFatal("cannot load %s: %s", qPrintable(model), qPrintable(error));
  w->plotsDock()->show();  // hidden by default
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

double pixelVariance(const QImage& image) {
  double sum = 0, sum2 = 0;
  const int n = image.width() * image.height();
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const double g = qGray(image.pixel(x, y));
      sum += g;
      sum2 += g * g;
    }
  const double mean = sum / n;
  return sum2 / n - mean * mean;
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
    plots->fetch(true);
    QCOMPARE(plots->sampleCount(), sim->recorder()->size());
    // Base attitude: roll, pitch, yaw of the free-floating base.
    const QStringList attitude = plots->paneSignals(0);
    QCOMPARE(attitude.size(), 3);
    for (const QString& s : attitude) QVERIFY2(s.startsWith(QStringLiteral("attitude:")), qPrintable(s));
    QVERIFY(plots->paneSignals(1).isEmpty());
    // Without a selected joint its panes say how to get one (VTK draws nothing for an empty chart).
    plots->redraw();
    auto* hint = plots->findChild<QLabel*>(QStringLiteral("plotPaneHint1"));
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    QVERIFY(hint->text().contains(QStringLiteral("Select a body")));
    QVERIFY(!plots->findChild<QLabel*>(QStringLiteral("plotPaneHint0"))->isVisible());

    // Select the last joint in the model tree: its coordinates and its six load components.
    const kt::Tree& tree = w->tree();
    const int joint = tree.nb - 1;
    w->selectBody(w->bodyOfTreeIndex(joint));
    QTRY_COMPARE(plots->paneSignals(2).size(), 6);
    const QString name = QString::fromStdString(tree.jointNames[static_cast<std::size_t>(joint)]);
    QCOMPARE(plots->paneSignals(2).front(), QStringLiteral("load:%1.fx").arg(name));
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
  }

  // 10⁵ samples: drawn as ≤ 2 points per pixel column, with the exact minimum and maximum.
  void decimatedDrawing() {
    auto w = openWindow(QStringLiteral(":/examples/pendulum.yaml"));
    SimulationController* sim = controllerOf(w.get());
    sim->setStepSize(1e-4);
    sim->reset();
    QVERIFY(runFor(sim, 10.0));
    PlotsDock* plots = w->plotsDock();
    plots->fetch(true);
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
    QCOMPARE(range[0], *std::min_element(q.begin(), q.end()));
    QCOMPARE(range[1], *std::max_element(q.begin(), q.end()));
    vtkDataArray::SafeDownCast(table->GetColumn(0))->GetRange(range);
    QCOMPARE(range[0], 0.0);
    QCOMPARE(range[1], sim->simulationTime());
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
      QVERIFY(pixelVariance(image) > 1.0);  // a drawn chart, not a blank rectangle

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
    }
    QString error;
    QVERIFY(!plots->exportPane(0, dir.filePath(QStringLiteral("pane.bmpx")), &error));
    QVERIFY(!error.isEmpty());
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
    arrows->setOptions(o);
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
    w->selectBody(w->bodyOfTreeIndex(joint));
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
    QVERIFY(pixelVariance(shot) > 10.0);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestPlots>(argc, argv, "test_plots"); }

#include "test_plots.moc"
