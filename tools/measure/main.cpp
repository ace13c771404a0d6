// SPDX-License-Identifier: BSD-3-Clause
// kinetree-measure: the application's figures for docs/application.md, measured in the window as
// users see it; a build-tree tool, not installed.
//   kinetree-measure [MODEL | --chain N] --frames SECONDS [--speed F] [--solver NAME] [--integrator NAME]
//                    [--step H] [--follow] [--trails] [--statistics] [--loads] [--plots] [--screenshot FILE.png]
// runs the simulation (as fast as possible by default) with the window open and, after SECONDS of
// wall time (following a 1 s warm-up), prints the real-time factor, the frames per second and the
// frame times ("Measured frame rates").
//   kinetree-measure [MODEL | --chain N] --open [--screenshot FILE.png]
// prints the time from the start of the program to the window showing the model, painted
// ("Large models").
//   kinetree-measure [MODEL] --results SAMPLES
// runs the model until it has recorded SAMPLES samples, then shows 200 recorded times picked at
// random (as the timeline does) and times each until the window has repainted (3D view, plots
// with their cursor), then times the export of the whole recording as CSV ("Getting results out").
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <future>
#include <memory>
#include <random>
#include <vector>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/results/recorder.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/output/atomic_write.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/batch_export.hpp"
#include "ui/results/export/results_export.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/shell/launch.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace {

constexpr int kWarmUpMs = 1000;  // shaders, first chunks of the recorder, window mapping

// CPU time of the whole process (every thread: GUI, worker, the GL rasterizer's threads).
double processCpuSeconds() {
  timespec t{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0.0;
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Summary {
  double median = 0.0;
  double p95 = 0.0;
  double max = 0.0;
};

Summary summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v[v.size() / 2];
  s.p95 = v[std::min(v.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(v.size())))];
  s.max = v.back();
  return s;
}

// Runs the simulation for a warm-up and then `seconds`, collecting per-frame figures.
class Measurement : public QObject {
 public:
  Measurement(kt::ui::MainWindow& window, double seconds, double speed, QString screenshot)
      : window_(window), seconds_(seconds), speed_(speed), screenshot_(std::move(screenshot)) {
    controller_ = window.simulation();
    view_ = window.sceneView();
  }

  void start() {
    controller_->setUntilStopped(true);
    controller_->setSpeed(speed_);
    connect(controller_, &kt::ui::SimulationController::shownSampleChanged, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      if (measuring_ && lastPoll_ >= 0) polls_.push_back(1e-6 * static_cast<double>(now - lastPoll_));
      lastPoll_ = now;
    });
    connect(view_, &kt::render::VtkWidget::frameSwapped, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      if (measuring_) {
        renders_.push_back(view_->lastRenderMilliseconds());
        if (lastSwap_ >= 0) swaps_.push_back(1e-6 * static_cast<double>(now - lastSwap_));
        ++frames_;
      }
      lastSwap_ = now;
    });
    controller_->run();
    clock_.start();
    QTimer::singleShot(kWarmUpMs, this, [this] {
      measuring_ = true;
      simStart_ = controller_->simulationTime();
      stepsStart_ = controller_->steps();
      stepNanosStart_ = controller_->stepNanoseconds();
      wallStart_ = clock_.nsecsElapsed();
      cpuStart_ = processCpuSeconds();
      QTimer::singleShot(static_cast<int>(1000.0 * seconds_), this, [this] { finish(); });
    });
  }

  int exitCode() const { return exitCode_; }

 private:
  void finish() {
    measuring_ = false;
    const double wall = 1e-9 * static_cast<double>(clock_.nsecsElapsed() - wallStart_);
    const double simulated = controller_->simulationTime() - simStart_;
    const std::uint64_t steps = controller_->steps() - stepsStart_;
    const double nsPerStep =
        steps > 0 ? static_cast<double>(controller_->stepNanoseconds() - stepNanosStart_) / static_cast<double>(steps)
                  : 0.0;
    const double cpu = processCpuSeconds() - cpuStart_;
    controller_->pause();
    const kt::Tree* tree = controller_->tree();
    const Summary poll = summarize(polls_);
    const Summary swap = summarize(swaps_);
    const Summary render = summarize(renders_);
    std::printf("model: %s (%d bodies), solver %s, integrator %s, step %g s, speed %s\n",
                qPrintable(window_.windowTitle().remove(QStringLiteral("[*]"))), tree != nullptr ? tree->nb : 0,
                controller_->activeOptions().solver.c_str(), controller_->activeOptions().integrator.c_str(),
                controller_->activeOptions().step, speed_ > 0.0 ? qPrintable(QString::number(speed_)) : "max");
    const int* size = view_->renderWindow()->GetSize();
    std::printf("3D view %d x %d device pixels, %d samples per pixel%s, %s\n", size[0], size[1],
                view_->renderWindow()->GetMultiSamples(), view_->softwareRendering() ? " (software rendering)" : "",
                kt::render::VtkWidget::paintsImages() ? "frames painted as images" : "frames composed by OpenGL");
    std::printf("wall %.2f s, simulated %.3f s: real-time factor %.1f; %.0f ns per output step (worker)\n", wall,
                simulated, wall > 0.0 ? simulated / wall : 0.0, nsPerStep);
    std::printf("process CPU time %.2f s: %.2f cores busy on average (the machine has %d)\n", cpu,
                wall > 0.0 ? cpu / wall : 0.0, QThread::idealThreadCount());
    std::printf("frames per second: %.1f (%d frames)\n", wall > 0.0 ? frames_ / wall : 0.0, frames_);
    std::printf("frame interval (swap to swap) ms: median %.1f, p95 %.1f, max %.1f\n", swap.median, swap.p95, swap.max);
    std::printf("GUI poll interval (new state to new state) ms: median %.1f, p95 %.1f, max %.1f (%zu polls)\n",
                poll.median, poll.p95, poll.max, polls_.size());
    std::printf("render time (paintGL) ms: median %.1f, p95 %.1f, max %.1f\n", render.median, render.p95, render.max);
    std::fflush(stdout);
    if (!controller_->errorMessage().isEmpty()) {
      std::fprintf(stderr, "kinetree-measure: the run failed: %s\n", qPrintable(controller_->errorMessage()));
      exitCode_ = 1;
    }
    QString error;
    if (!screenshot_.isEmpty() && !kt::render::saveImage(window_.grab().toImage(), screenshot_, &error)) {
      std::fprintf(stderr, "kinetree-measure: %s\n", qPrintable(error));
      exitCode_ = 1;
    }
    controller_->shutdown();
    QApplication::exit(exitCode_);
  }

  kt::ui::MainWindow& window_;
  kt::ui::SimulationController* controller_ = nullptr;
  kt::render::SceneView* view_ = nullptr;
  double seconds_;
  double speed_;
  QString screenshot_;
  QElapsedTimer clock_;
  bool measuring_ = false;
  double simStart_ = 0.0;
  std::uint64_t stepsStart_ = 0;
  std::uint64_t stepNanosStart_ = 0;
  qint64 wallStart_ = 0;
  double cpuStart_ = 0.0;
  qint64 lastPoll_ = -1;
  qint64 lastSwap_ = -1;
  int frames_ = 0;
  std::vector<double> polls_, swaps_, renders_;
  int exitCode_ = 0;
};

// --measure-results: scrubbing and the CSV export on a recording of `samples` samples.
int measureResults(kt::ui::MainWindow& window, long samples) {
  kt::ui::SimulationController* controller = window.simulation();
  window.plotsDock()->show();
  controller->setDuration(static_cast<double>(samples - 1) * controller->pendingOptions().step);
  if (!kt::ui::runToEnd(*controller)) return 1;
  const kt::Recorder& rec = *controller->recorder();
  QApplication::processEvents();
  std::mt19937 random(1);
  std::uniform_int_distribution<std::size_t> pick(0, rec.size() - 1);
  std::vector<double> ms;
  QElapsedTimer clock;
  for (int k = 0; k < 200; ++k) {
    const double t = rec.timeOf(pick(random));
    clock.start();
    controller->showTime(t);  // the views follow the shown sample
    window.repaint();         // and the window paints them: 3D view, plots with their cursor
    ms.push_back(1e-6 * static_cast<double>(clock.nsecsElapsed()));
  }
  const Summary s = summarize(ms);
  std::printf(
      "scrub (%zu samples, %d signals, 200 random times, to the repainted window) ms: median %.1f, p95 %.1f, "
      "max %.1f\n",
      rec.size(), rec.width(), s.median, s.p95, s.max);
  QTemporaryDir dir;
  clock.start();
  QString error;
  if (!kt::ui::ResultsExport::write(*controller, {}, dir.filePath(QStringLiteral("run.csv")), &error)) {
    std::fprintf(stderr, "kinetree-measure: %s\n", qPrintable(error));
    return 1;
  }
  const double seconds = 1e-9 * static_cast<double>(clock.nsecsElapsed());
  std::printf("export results (every signal, %zu rows, %.0f MB): %.2f s\n", rec.size(),
              static_cast<double>(QFileInfo(dir.filePath(QStringLiteral("run.csv"))).size()) / 1e6, seconds);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  QElapsedTimer started;
  started.start();
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  kt::ui::setApplicationIdentity();
  using kt::ui::commandLineOption;
  const QCommandLineOption frames =
      commandLineOption("frames", "Measure the frame rate for this many seconds of wall time.", "seconds");
  const QCommandLineOption open = commandLineOption("open", "Measure the time to the window showing the model.");
  const QCommandLineOption results =
      commandLineOption("results", "Measure scrubbing and the CSV export on this many samples.", "samples");
  QCommandLineOption speed =
      commandLineOption("speed", "With --frames: factor of real time, 0 = as fast as possible.", "factor");
  speed.setDefaultValue(QStringLiteral("0"));
  const QCommandLineOption chain =
      commandLineOption("chain", "Open a generated chain of N revolute links instead of a file.", "N");
  const kt::ui::RunAndViewOptions common;
  const QCommandLineOption screenshot =
      commandLineOption("screenshot", "With --frames or --open: save a PNG of the window at the end.", "file.png");
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Measures the application's frame rate and results views."));
  parser.addHelpOption();
  parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("Model file (default: the space robot)."));
  parser.addOptions({frames, open, results, speed, chain, screenshot});
  common.addTo(parser);
  parser.process(app);
  if (int(parser.isSet(frames)) + int(parser.isSet(open)) + int(parser.isSet(results)) != 1) {
    std::fprintf(stderr, "kinetree-measure: give one of --frames SECONDS, --open and --results SAMPLES\n");
    return 2;
  }

  const QStringList args = parser.positionalArguments();
  QString model = args.isEmpty() ? kt::resources::kDefaultModel : args.front();
  QTemporaryDir generated;  // holds the generated chain's file while it is open
  if (parser.isSet(chain)) {
    bool ok = false;
    const int n = parser.value(chain).toInt(&ok);
    if (!ok || n < 1 || !generated.isValid()) {
      std::fprintf(stderr, "kinetree-measure: --chain needs a positive number of links\n");
      return 2;
    }
    model = generated.filePath(QStringLiteral("chain%1.yaml").arg(n));
    kt::saveModelToFile(kt::makeChain(n), model.toStdString());
  }
  kt::ui::MainWindow window;
  window.show();
  QString error;
  if (!window.files().loadModel(model, error)) {
    std::fprintf(stderr, "%s\n", qPrintable(error));
    return 1;
  }
  kt::ui::applyViewChoices(window, common.viewChoices(parser));
  if (!kt::ui::applyRunChoices(*window.simulation(), common.runChoices(parser))) return 2;

  if (parser.isSet(open)) {
    window.repaint();
    const QImage shot = window.grab().toImage();
    std::printf("start to the painted window: %.2f s\n", 1e-3 * static_cast<double>(started.elapsed()));
    if (parser.isSet(screenshot) && !kt::render::saveImage(shot, parser.value(screenshot), &error)) {
      std::fprintf(stderr, "kinetree-measure: %s\n", qPrintable(error));
      return 1;
    }
    return 0;
  }
  if (parser.isSet(results)) {
    bool ok = false;
    const long samples = parser.value(results).toLong(&ok);
    if (!ok || samples < 2 || samples > 100'000'000) {
      std::fprintf(stderr, "kinetree-measure: --results needs a number of samples from 2 to 1e8\n");
      return 2;
    }
    return measureResults(window, samples);
  }
  bool ok = false;
  const double seconds = parser.value(frames).toDouble(&ok);
  bool speedOk = false;
  const double factor = parser.value(speed).toDouble(&speedOk);
  if (!ok || !(seconds > 0.0) || !speedOk || factor < 0.0) {
    std::fprintf(stderr, "kinetree-measure: --frames needs seconds > 0 and --speed a factor >= 0\n");
    return 2;
  }
  Measurement measurement(window, seconds, factor, parser.value(screenshot));
  QTimer::singleShot(300, &measurement, [&measurement] { measurement.start(); });  // let the window map and paint first
  const int code = app.exec();
  return code != 0 ? code : measurement.exitCode();
}
