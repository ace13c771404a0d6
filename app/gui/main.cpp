// SPDX-License-Identifier: BSD-3-Clause
// kinetree: opens the embedded default model, or the model file (or URDF robot) given on the
// command line (docs/application.md). Four batch modes run without dialogs and quit:
//   kinetree [MODEL] --screenshot FILE.png      the window once it is shown
//   kinetree [MODEL] --export-plots DIR [--run T] [--formats png,svg,pdf]
//   kinetree [MODEL] --report FILE.pdf|FILE.html [--run T] [--segment N] [--wohler M] [--neq N]
//   kinetree [MODEL] --video FILE.mp4 [--run T] [--size WxH] [--fps N] [--playback F] [--plots]
// (--duration T is the same as --run T.)
// (ui/results/export/batch_export.hpp), with --solver, --integrator, --step for the run and
// --follow, --trails, --statistics, --loads, --plots for the views.
#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>
#include <future>

#include "render/bridge/vtk_widget.hpp"
#include "render/output/atomic_write.hpp"
#include "resources/resources.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/batch_export.hpp"
#include "ui/shell/launch.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

int main(int argc, char* argv[]) {
  const QCommandLineOption version({QStringLiteral("V"), QStringLiteral("version")},
                                   QStringLiteral("Displays version information."));  // as kinetree-cli spells it
  const QCommandLineOption screenshot =
      kt::ui::commandLineOption("screenshot", "Save a PNG of the window once it is shown, then quit.", "file.png");
  const QCommandLineOption exportPlots = kt::ui::commandLineOption(
      "export-plots", "Run the model, write each plot pane (and all three stacked) into the folder, then quit.",
      "folder");
  const QCommandLineOption report = kt::ui::commandLineOption(
      "report",
      "Run the model, write its report (model, run, peak table, figures, spectra, fatigue, load cases) as a PDF "
      "or an HTML page, then quit.",
      "file.pdf");
  const QCommandLineOption run = kt::ui::commandLineOption(
      "run", "With --export-plots, --report or --video: simulated seconds to run (default: the model's).", "seconds");
  QCommandLineOption formats =
      kt::ui::commandLineOption("formats", "With --export-plots: the formats, from png, svg, pdf.", "list");
  formats.setDefaultValue(QStringLiteral("png,svg,pdf"));
  const QCommandLineOption video = kt::ui::commandLineOption(
      "video", "Run the model, render the recording as a video (MP4, or PNG frames for a .png name), then quit.",
      "file.mp4");
  const QCommandLineOption duration =
      kt::ui::commandLineOption("duration", "The same as --run (as kinetree-cli spells it).", "seconds");
  const QCommandLineOption size =
      kt::ui::commandLineOption("size", "With --video: frame size (default 1280x720).", "WxH");
  const QCommandLineOption fps = kt::ui::commandLineOption("fps", "With --video: frames per second (default 30).", "N");
  const QCommandLineOption playback = kt::ui::commandLineOption(
      "playback", "With --video: simulated seconds per second of video (default 1).", "factor");
  const QCommandLineOption segment = kt::ui::commandLineOption(
      "segment",
      "With --report: samples per segment of the spectra (Welch's method; default about seven averaged), as "
      "kinetree-cli spectrum.",
      "N");
  const QCommandLineOption wohler = kt::ui::commandLineOption(
      "wohler", "With --report: the Wöhler exponent m of the damage-equivalent loads (default 4).", "M");
  const QCommandLineOption neq = kt::ui::commandLineOption(
      "neq",
      "With --report: the equivalent cycles of the damage-equivalent loads (default: one per second of the run).", "N");
  const kt::ui::RunAndViewOptions common;
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Build, simulate and inspect tree-structured rigid multibody systems."));
  parser.addHelpOption();
  parser.addOption(version);
  parser.addPositionalArgument(
      QStringLiteral("model"),
      QStringLiteral("Model file to open, or a URDF robot (.urdf) to import (default: the embedded space robot)."),
      QStringLiteral("[model.yaml | robot.urdf]"));
  parser.addOptions(
      {screenshot, exportPlots, report, run, formats, video, duration, size, fps, playback, segment, wohler, neq});
  common.addTo(parser);

  if (kt::ui::asksForTextOnly(argc, argv)) {
    QCoreApplication app(argc, argv);
    kt::ui::setApplicationIdentity();
    parser.process(app);                              // prints the help and exits
    if (parser.isSet(version)) parser.showVersion();  // exits
    return 0;
  }
  // Every OpenGL context of the window must suit VTK (3.2 core), so set it before the app exists.
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  kt::ui::setApplicationIdentity();
  QApplication::setDesktopFileName(QStringLiteral("io.github.kinetree.Kinetree"));
  parser.process(app);
  if (!parser.isSet(report) && (parser.isSet(segment) || parser.isSet(wohler) || parser.isSet(neq))) {
    std::fprintf(stderr, "kinetree: --segment, --wohler and --neq choose what --report writes: give --report FILE\n");
    return 2;
  }

  const QStringList args = parser.positionalArguments();
  const QString model = args.isEmpty() ? kt::resources::kDefaultModel : args.front();
  // The model file is read while the window is built (a large model takes a second to read).
  std::future<kt::ui::Document::ReadModel> preread =
      std::async(std::launch::async, [model] { return kt::ui::Document::read(model); });
  kt::ui::MainWindow window;
  window.show();
  const kt::ui::ViewChoices views = common.viewChoices(parser);

  if (!parser.isSet(screenshot) && !parser.isSet(exportPlots) && !parser.isSet(report) && !parser.isSet(video)) {
    window.files().openModel(model, std::move(preread));  // a message box explains a failure
    kt::ui::applyViewChoices(window, views);
    // After a crash: offer the autosaved work once the window is up.
    QTimer::singleShot(0, &window, [&window] { window.files().offerRecovery(); });
    return app.exec();
  }

  // Batch modes: no dialogs; errors go to stderr.
  QString error;
  const bool opened = window.files().loadModel(model, error, std::move(preread));
  if (!opened) std::fprintf(stderr, "%s\n", qPrintable(error));
  kt::ui::applyViewChoices(window, views);
  kt::ui::SimulationController& controller = *window.simulation();
  const auto runChoices = [&] { return kt::ui::applyRunChoices(controller, common.runChoices(parser)); };
  // --run and --duration name the same seconds, whichever batch mode is asked for
  if (parser.isSet(run) && parser.isSet(duration) && parser.value(run) != parser.value(duration)) {
    std::fprintf(stderr, "kinetree: --run %s and --duration %s: give the seconds to run once\n",
                 qPrintable(parser.value(run)), qPrintable(parser.value(duration)));
    return 2;
  }
  const QString seconds = parser.isSet(run) ? parser.value(run) : parser.value(duration);
  if (parser.isSet(exportPlots)) {
    if (!opened || !runChoices()) return opened ? 2 : 1;
    return kt::ui::exportPlotsToFolder(controller, *window.plotsDock(), parser.value(exportPlots), seconds,
                                       parser.value(formats));
  }
  if (parser.isSet(report)) {
    if (!opened || !runChoices()) return opened ? 2 : 1;
    kt::ui::ReportRequest request;
    request.path = parser.value(report);
    request.duration = seconds;
    request.segment = parser.value(segment);
    request.wohler = parser.value(wohler);
    request.neq = parser.value(neq);
    return kt::ui::exportReportFile(
        controller, [&window] { return window.videoSource(); }, request);
  }
  if (parser.isSet(video)) {
    if (!opened || !runChoices()) return opened ? 2 : 1;
    kt::ui::VideoRequest request;
    request.path = parser.value(video);
    request.duration = seconds;
    if (parser.isSet(size)) request.size = parser.value(size);
    if (parser.isSet(fps)) request.fps = parser.value(fps);
    if (parser.isSet(playback)) request.playback = parser.value(playback);
    request.plots = views.plots;
    return kt::ui::renderVideoFile(
        controller, [&window] { return window.videoSource(); }, request);
  }
  // --screenshot: once the window has mapped and painted
  const QString file = parser.value(screenshot);
  QTimer::singleShot(300, &window, [&window, &app, file, opened] {
    QString error;
    const bool saved = kt::render::saveImage(window.grab().toImage(), file, &error);
    if (!saved) std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
    app.exit(saved && opened ? 0 : 1);
  });
  return app.exec();
}
