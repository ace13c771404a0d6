// SPDX-License-Identifier: BSD-3-Clause
// kinetree: opens the embedded default model, or the model file given on the command line.
//   kinetree [MODEL.yaml] [--screenshot FILE.png]
//   kinetree [MODEL.yaml | --chain N] --measure SECONDS [--speed F] [--solver NAME] [--integrator NAME]
//            [--step H] [--follow] [--trails] [--statistics] [--loads] [--screenshot FILE.png]
//   kinetree [MODEL.yaml] --measure-results SAMPLES
// The results measurement runs the model until it has recorded SAMPLES samples, then shows 200
// recorded times picked at random (as the timeline does) and times each until the window has
// repainted (3D view, plots with their cursor), then times the export of the whole recording as
// CSV, and prints the figures (docs/application.md, "Getting results out").
//   kinetree [MODEL.yaml] --run T --export-plots DIR [--formats png,svg,pdf] [--solver …]
// The plot export runs the model for T simulated seconds and writes each plot pane (and the three
// stacked, plots.<format>) into DIR, named after the panes' titles, then quits. The old figures in
// DIR are replaced only once every new one was written; a write failure exits with status 1.
//   kinetree [MODEL.yaml | --chain N] --video FILE.mp4 [--duration T] [--size WxH] [--fps N]
//            [--playback F] [--plots] [--solver NAME] [--integrator NAME] [--step H]
// The video mode runs the model for T seconds of simulated time (the model's duration by
// default) as fast as possible, renders the recording off screen into FILE (MP4, or a numbered
// PNG sequence for FILE.png), prints its progress on stderr and quits.
// The measurement mode runs the simulation (as fast as possible by default) with the window open
// and, after SECONDS of wall time (following a 1 s warm-up), prints the real-time factor, the
// frames per second and the frame times to stdout, then quits (docs/application.md, "Measured frame rates").
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <future>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "core/io/atomic_file.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/results/recorder.hpp"
#include "core/version.hpp"
#include "render/output/atomic_write.hpp"
#include "render/charts/chart_figure.hpp"
#include "render/scene/scene_view.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "resources/resources.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/results/export/results_export.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/results/export/video_export.hpp"

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
    connect(controller_, &kt::ui::SimulationController::frame, this, [this] {
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
      std::fprintf(stderr, "kinetree: the run failed: %s\n", qPrintable(controller_->errorMessage()));
      exitCode_ = 1;
    }
    QString error;
    if (!screenshot_.isEmpty() && !kt::render::saveImage(window_.grab().toImage(), screenshot_, &error)) {
      std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
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

// The command line's options; the parser is built before any application object exists.
struct Options {
  const QCommandLineOption screenshot{
      QStringLiteral("screenshot"),
      QStringLiteral("Save a PNG of the window once it is shown (after --measure: at its end), then quit."),
      QStringLiteral("file.png")};
  const QCommandLineOption measure{QStringLiteral("measure"),
                                   QStringLiteral("Run the simulation for this many seconds of wall time (after a 1 s "
                                                  "warm-up), print the real-time factor and frame times, then quit."),
                                   QStringLiteral("seconds")};
  const QCommandLineOption speed{QStringLiteral("speed"),
                                 QStringLiteral("With --measure: factor of real time, 0 = as fast as possible "
                                                "(default 0)."),
                                 QStringLiteral("factor"), QStringLiteral("0")};
  const QCommandLineOption chain{QStringLiteral("chain"),
                                 QStringLiteral("Open a generated chain of N revolute links instead of a file."),
                                 QStringLiteral("N")};
  const QCommandLineOption solver{QStringLiteral("solver"), QStringLiteral("With --measure: the solver to run."),
                                  QStringLiteral("name")};
  const QCommandLineOption integrator{QStringLiteral("integrator"),
                                      QStringLiteral("With --measure: the integrator to run."), QStringLiteral("name")};
  const QCommandLineOption step{QStringLiteral("step"), QStringLiteral("With --measure: the step (s) to run."),
                                QStringLiteral("seconds")};
  const QCommandLineOption follow{QStringLiteral("follow"), QStringLiteral("Follow the floating base.")};
  const QCommandLineOption trails{QStringLiteral("trails"), QStringLiteral("Show the motion trails.")};
  const QCommandLineOption statistics{QStringLiteral("statistics"),
                                      QStringLiteral("Show the frame statistics in the 3D view.")};
  const QCommandLineOption loads{QStringLiteral("loads"), QStringLiteral("Show the joint load arrows.")};
  const QCommandLineOption plots{QStringLiteral("plots"),
                                 QStringLiteral("Show the plots dock (with --video: the plot panes beside the view).")};
  const QCommandLineOption run{QStringLiteral("run"),
                               QStringLiteral("With --export-plots: simulated seconds to run (default: the model's)."),
                               QStringLiteral("seconds")};
  const QCommandLineOption exportPlots{
      QStringLiteral("export-plots"),
      QStringLiteral("Run the model, write each plot pane (and all three stacked) into the folder, then quit."),
      QStringLiteral("folder")};
  const QCommandLineOption formats{
      QStringLiteral("formats"), QStringLiteral("With --export-plots: the formats, from png, svg, pdf (default all)."),
      QStringLiteral("list"), QStringLiteral("png,svg,pdf")};
  const QCommandLineOption measureResults{
      QStringLiteral("measure-results"),
      QStringLiteral("Run until SAMPLES samples are recorded, time scrubbing and the CSV export, then quit."),
      QStringLiteral("samples")};
  const QCommandLineOption video{QStringLiteral("video"),
                                 QStringLiteral("Run the model, render the recording as a video (MP4, or PNG frames "
                                                "for a .png name), then quit."),
                                 QStringLiteral("file.mp4")};
  const QCommandLineOption duration{QStringLiteral("duration"),
                                    QStringLiteral("With --video: simulated seconds to run (default: the model's)."),
                                    QStringLiteral("seconds")};
  const QCommandLineOption size{QStringLiteral("size"), QStringLiteral("With --video: frame size (default 1280x720)."),
                                QStringLiteral("WxH"), QStringLiteral("1280x720")};
  const QCommandLineOption fps{QStringLiteral("fps"), QStringLiteral("With --video: frames per second (default 30)."),
                               QStringLiteral("N"), QStringLiteral("30")};
  const QCommandLineOption playback{QStringLiteral("playback"),
                                    QStringLiteral("With --video: simulated seconds per second of video (default 1)."),
                                    QStringLiteral("factor"), QStringLiteral("1")};

  // -V and --version, as kinetree-cli spells them (Qt's own version option would be -v)
  const QCommandLineOption version{{QStringLiteral("V"), QStringLiteral("version")},
                                   QStringLiteral("Displays version information.")};

  void addTo(QCommandLineParser& parser) const {
    parser.setApplicationDescription(
        QStringLiteral("Build, simulate and inspect tree-structured rigid multibody systems."));
    parser.addHelpOption();
    parser.addOption(version);
    parser.addPositionalArgument(
        QStringLiteral("model"),
        QStringLiteral("Model file to open, or a URDF robot (.urdf) to import (default: the embedded space robot)."),
        QStringLiteral("[model.yaml | robot.urdf]"));
    parser.addOptions({screenshot, measure, speed,      chain,          solver, integrator,  step,
                       follow,     trails,  statistics, loads,          plots,  video,       duration,
                       size,       fps,     playback,   measureResults, run,    exportPlots, formats});
  }
};

void setIdentity() {
  QCoreApplication::setOrganizationName(QStringLiteral("Kinetree"));
  QCoreApplication::setApplicationName(QStringLiteral("Kinetree"));
  QCoreApplication::setApplicationVersion(QString::fromLatin1(kt::kVersion));
}

// True when the command line asks only for text (--help, --version): that needs no display, and
// creating the QApplication first would abort where there is none.
bool asksForTextOnly(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    for (std::string_view option : {"-h", "-?", "--help", "-help", "--help-all", "-V", "--version", "-version"})
      if (a == option) return true;
  }
  return false;
}

// Runs the window's model as fast as possible to the controller's duration; false when it did
// not finish (a failure or a full recording: the message is printed).
bool runToEnd(kt::ui::SimulationController* controller) {
  using State = kt::ui::SimulationController::RunState;
  controller->setUntilStopped(false);
  controller->setSpeed(0.0);
  controller->run();
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    const State s = controller->runState();
    if (s == State::Finished || s == State::Failed || s == State::RecordingFull || s == State::None) loop.quit();
  });
  poll.start(50);
  loop.exec();
  if (controller->runState() == State::Finished) return true;
  std::fprintf(stderr, "kinetree: the run stopped: %s\n", qPrintable(controller->errorMessage()));
  return false;
}

// For --export-plots and --video: sets the duration from `durationText` (given as `option`; the
// model's when empty) and runs the model to its end. 0 when there is a recording to use (also a
// failed run's, said on stderr), else the exit code.
int runForExport(kt::ui::SimulationController* controller, const QString& durationText, const char* option) {
  if (!durationText.isEmpty()) {
    bool ok = false;
    const double T = durationText.toDouble(&ok);
    if (!ok || !(T > 0.0) || !std::isfinite(T)) {
      std::fprintf(stderr, "kinetree: %s expects seconds > 0, got '%s'\n", option, qPrintable(durationText));
      return 2;
    }
    controller->setDuration(T);
  }
  if (!controller->canRun()) {
    std::fprintf(stderr, "kinetree: the model cannot run: %s\n", qPrintable(controller->runBlocker()));
    return 1;
  }
  if (runToEnd(controller)) return 0;
  if (controller->runState() != kt::ui::SimulationController::RunState::Failed) return 1;
  std::fprintf(stderr, "kinetree: using what was recorded before the run stopped\n");
  return 0;
}

// --export-plots: runs the model for `durationText` seconds (the model's duration when empty) and
// writes each pane, and the three stacked, into `folder` in every format of `formatList`.
int exportPlots(kt::ui::MainWindow& window, const QString& folder, const QString& durationText,
                const QString& formatList) {
  QStringList formats = formatList.toLower().split(QLatin1Char(','), Qt::SkipEmptyParts);
  for (const QString& f : formats)
    if (f != QLatin1String("png") && f != QLatin1String("svg") && f != QLatin1String("pdf")) {
      std::fprintf(stderr, "kinetree: --formats takes png, svg and pdf, got '%s'\n", qPrintable(f));
      return 2;
    }
  if (formats.isEmpty()) formats = {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
  if (!QDir().mkpath(folder)) {
    std::fprintf(stderr, "kinetree: cannot make the folder %s\n", qPrintable(folder));
    return 1;
  }
  kt::ui::SimulationController* controller = window.simulation();
  if (const int code = runForExport(controller, durationText, "--run")) return code;
  kt::ui::PlotsDock* plots = window.plotsDock();
  plots->show();
  QApplication::processEvents();
  plots->redraw();
  const QString caption = controller->runLabel();
  // All figures go to a temporary folder first and replace the old ones only once every one was
  // written (core/io/atomic_file.hpp): a full disk or a kill leaves the old set, not a mix.
  try {
    kt::StagedFileSet set(QFile::encodeName(folder).toStdString());
    QStringList written;
    for (const QString& format : formats) {
      std::vector<std::pair<std::vector<int>, QString>> figures;
      for (int p = 0; p < kt::ui::PlotsDock::kPaneCount; ++p)
        figures.push_back({{p}, kt::render::safeFileName(plots->paneTitle(p))});
      figures.push_back({{0, 1, 2}, QStringLiteral("plots")});
      for (const auto& [panes, name] : figures) {
        const QString file = name + QLatin1Char('.') + format;
        const QString staged = QFile::decodeName(set.stagingPath(QFile::encodeName(file).toStdString()).c_str());
        QString error;
        const QSizeF size(1600, panes.size() > 1 ? 1800 : 900);
        if (!plots->exportPanes(panes, staged, size, 2.0, caption, &error)) {
          std::fprintf(stderr, "kinetree: %s\n", qPrintable(error.replace(staged, QDir(folder).filePath(file))));
          return 1;
        }
        written << QDir(folder).filePath(file);
      }
    }
    set.commit();
    for (const QString& path : written) std::printf("%s\n", qPrintable(path));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree: %s\n", e.what());
    return 1;
  }
  return 0;
}

// --measure-results: scrubbing and the CSV export on a recording of `samples` samples.
int measureResults(kt::ui::MainWindow& window, long samples) {
  kt::ui::SimulationController* controller = window.simulation();
  window.plotsDock()->show();
  controller->setDuration(static_cast<double>(samples - 1) * controller->pendingOptions().step);
  if (!runToEnd(controller)) return 1;
  const kt::Recorder& rec = *controller->recorder();
  QApplication::processEvents();
  std::mt19937 random(1);
  std::uniform_int_distribution<std::size_t> pick(0, rec.size() - 1);
  std::vector<double> ms;
  QElapsedTimer clock;
  for (int k = 0; k < 200; ++k) {
    double t = 0.0;
    const std::size_t row = pick(random);
    rec.copyColumn(0, row, row + 1, &t);
    clock.start();
    controller->showTime(t);  // the views follow the shown sample (frame)
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
    std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
    return 1;
  }
  const double seconds = 1e-9 * static_cast<double>(clock.nsecsElapsed());
  std::printf("export results (every signal, %zu rows, %.0f MB): %.2f s\n", rec.size(),
              static_cast<double>(QFileInfo(dir.filePath(QStringLiteral("run.csv"))).size()) / 1e6, seconds);
  return 0;
}

// --video: runs the model as fast as possible for its duration (or `durationText`), then renders
// the recording into `path` with the window's views; progress on stderr. The exit status.
int renderVideo(kt::ui::MainWindow& window, const QString& path, const QString& durationText, const QString& sizeText,
                const QString& fpsText, const QString& playbackText, bool plots) {
  kt::ui::SimulationController* controller = window.simulation();
  kt::ui::VideoExportOptions o;
  bool ok = true;
  const QStringList wh = sizeText.toLower().split(QLatin1Char('x'));
  if (wh.size() == 2) {
    bool okW = false, okH = false;
    o.width = wh[0].toInt(&okW);
    o.height = wh[1].toInt(&okH);
    ok = okW && okH;
  } else {
    ok = false;
  }
  if (!ok) {
    std::fprintf(stderr, "kinetree: --size expects WIDTHxHEIGHT, e.g. 1280x720, got '%s'\n", qPrintable(sizeText));
    return 2;
  }
  o.fps = fpsText.toDouble(&ok);
  if (!ok || !(o.fps > 0.0 && o.fps <= 240.0)) {
    std::fprintf(stderr, "kinetree: --fps expects a frame rate in (0, 240], got '%s'\n", qPrintable(fpsText));
    return 2;
  }
  o.speed = playbackText.toDouble(&ok);
  if (!ok || !(o.speed > 0.0 && o.speed <= 1e6)) {
    std::fprintf(stderr, "kinetree: --playback expects a positive factor, got '%s'\n", qPrintable(playbackText));
    return 2;
  }
  o.plots = plots;
  if (const int code = runForExport(controller, durationText, "--duration")) return code;
  QString error;
  QElapsedTimer clock;
  clock.start();
  const bool written = kt::ui::VideoExport::write(window.videoSource(), o, path, &error, [&](int frame, int frames) {
    if (frame == frames || frame % 30 == 0) std::fprintf(stderr, "\rkinetree: frame %d / %d", frame, frames);
    return true;
  });
  std::fprintf(stderr, "\n");
  if (!written) {
    std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
    return 1;
  }
  std::fprintf(stderr, "kinetree: wrote %s (%d frames in %.1f s)\n", qPrintable(path),
               kt::ui::VideoExport::frameCount(*controller, o), 1e-3 * static_cast<double>(clock.elapsed()));
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const Options options;
  if (asksForTextOnly(argc, argv)) {
    QCoreApplication app(argc, argv);
    setIdentity();
    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);                                      // prints the help and exits
    if (parser.isSet(options.version)) parser.showVersion();  // exits
    return 0;
  }
  // Every OpenGL context of the window must suit VTK (3.2 core), so set it before the app exists.
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  setIdentity();
  QApplication::setDesktopFileName(QStringLiteral("io.github.kinetree.Kinetree"));

  QCommandLineParser parser;
  options.addTo(parser);
  parser.process(app);
  const QCommandLineOption& screenshot = options.screenshot;
  const QCommandLineOption& measure = options.measure;
  const QCommandLineOption& speed = options.speed;
  const QCommandLineOption& chain = options.chain;
  const QCommandLineOption& solver = options.solver;
  const QCommandLineOption& integrator = options.integrator;
  const QCommandLineOption& step = options.step;
  const QCommandLineOption& follow = options.follow;
  const QCommandLineOption& trails = options.trails;
  const QCommandLineOption& statistics = options.statistics;
  const QCommandLineOption& loads = options.loads;
  const QCommandLineOption& plots = options.plots;

  const QStringList args = parser.positionalArguments();
  QString model = args.isEmpty() ? kt::resources::kDefaultModel : args.front();
  std::unique_ptr<QTemporaryDir> generated;  // holds the generated chain's file while it is open
  if (parser.isSet(chain)) {
    generated = std::make_unique<QTemporaryDir>();
    bool ok = false;
    const int n = parser.value(chain).toInt(&ok);
    if (!ok || n < 1 || !generated->isValid()) {
      std::fprintf(stderr, "kinetree: --chain needs a positive number of links\n");
      return 2;
    }
    model = generated->filePath(QStringLiteral("chain%1.yaml").arg(n));
    kt::saveModelToFile(kt::makeChain(n), model.toStdString());
  }
  // The model file is read while the window is built (a large model takes a second to read).
  std::future<kt::ui::Document::ReadModel> preread =
      std::async(std::launch::async, [model] { return kt::ui::Document::read(model); });

  kt::ui::MainWindow window;
  window.show();
  // The view options of the command line, once a model is open.
  auto applyViewOptions = [&] {
    kt::render::SceneView* view = window.sceneView();
    if (parser.isSet(follow)) view->setFollowBody(kt::render::SceneView::defaultFollowBody(view->scene().tree()));
    if (parser.isSet(trails)) view->setTrailsVisible(true);
    if (parser.isSet(statistics)) view->setStatisticsVisible(true);
    if (parser.isSet(loads)) window.jointLoadView()->setArrowsVisible(true);
    if (parser.isSet(plots)) window.plotsDock()->show();
  };

  const QCommandLineOption& video = options.video;
  // --solver, --integrator, --step: choices that apply at the next Run (the measurement's, the video's)
  auto applyRunChoices = [&]() -> bool {
    kt::ui::SimulationController* controller = window.simulation();
    if (parser.isSet(solver)) controller->setSolver(parser.value(solver));
    if (parser.isSet(integrator)) controller->setIntegrator(parser.value(integrator));
    if (parser.isSet(step)) {
      bool ok = false;
      const double h = parser.value(step).toDouble(&ok);
      if (!ok || !(h > 0.0)) {
        std::fprintf(stderr, "kinetree: --step needs seconds > 0\n");
        return false;
      }
      controller->setStepSize(h);
    }
    return true;
  };

  const bool batch = parser.isSet(screenshot) || parser.isSet(measure) || parser.isSet(video) ||
                     parser.isSet(options.measureResults) || parser.isSet(options.exportPlots);
  if (!batch) {
    window.openModel(model, std::move(preread));  // a message box explains a failure
    applyViewOptions();
    // After a crash: offer the autosaved work once the window is up.
    QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
    return app.exec();
  }

  // Batch modes: no dialogs; errors go to stderr.
  QString error;
  const bool opened = window.loadModel(model, error, std::move(preread));
  if (!opened) {
    std::fprintf(stderr, "%s\n", qPrintable(error));
    if (parser.isSet(measure) || parser.isSet(video) || parser.isSet(options.measureResults) ||
        parser.isSet(options.exportPlots))
      return 1;
  }
  applyViewOptions();

  if (parser.isSet(options.exportPlots)) {
    if (!opened || !applyRunChoices()) return opened ? 2 : 1;
    return exportPlots(window, parser.value(options.exportPlots),
                       parser.isSet(options.run) ? parser.value(options.run) : QString(),
                       parser.value(options.formats));
  }

  if (parser.isSet(options.measureResults)) {
    bool ok = false;
    const long samples = parser.value(options.measureResults).toLong(&ok);
    if (!ok || samples < 2 || samples > 100'000'000) {
      std::fprintf(stderr, "kinetree: --measure-results needs a number of samples from 2 to 1e8\n");
      return 2;
    }
    if (!opened || !applyRunChoices()) return opened ? 2 : 1;
    return measureResults(window, samples);
  }

  if (parser.isSet(video)) {
    if (!opened || !applyRunChoices()) return opened ? 2 : 1;
    return renderVideo(
        window, parser.value(video), parser.isSet(options.duration) ? parser.value(options.duration) : QString(),
        parser.value(options.size), parser.value(options.fps), parser.value(options.playback), parser.isSet(plots));
  }

  if (parser.isSet(measure)) {
    bool ok = false;
    const double seconds = parser.value(measure).toDouble(&ok);
    bool speedOk = false;
    const double factor = parser.value(speed).toDouble(&speedOk);
    if (!ok || !(seconds > 0.0) || !speedOk || factor < 0.0) {
      std::fprintf(stderr, "kinetree: --measure needs seconds > 0 and --speed a factor ≥ 0\n");
      return 2;
    }
    auto measurement = std::make_unique<Measurement>(window, seconds, factor, parser.value(screenshot));
    // Choices apply at the next Run (the measurement's).
    if (!applyRunChoices()) return 2;
    Measurement* m = measurement.get();
    QTimer::singleShot(300, m, [m] { m->start(); });  // let the window map and paint first
    const int code = app.exec();
    return code != 0 ? code : m->exitCode();
  }

  {
    const QString file = parser.value(screenshot);
    // Let the window map and paint once before grabbing it.
    QTimer::singleShot(300, &window, [&window, &app, file, opened] {
      QString error;
      const bool saved = kt::render::saveImage(window.grab().toImage(), file, &error);
      if (!saved) std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
      app.exit(saved && opened ? 0 : 1);
    });
  }
  return app.exec();
}
