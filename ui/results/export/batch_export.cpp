// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/batch_export.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <cmath>
#include <cstdio>

#include "core/io/atomic_file.hpp"
#include "core/results/peak_loads.hpp"
#include "render/output/atomic_write.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/results/report/run_report.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

bool folderExists(const QString& path) {
  const QDir folder = QFileInfo(path).absoluteDir();
  if (folder.exists()) return true;
  std::fprintf(stderr, "kinetree: cannot write %s: the folder %s does not exist\n", qPrintable(path),
               qPrintable(QDir::toNativeSeparators(folder.path())));
  return false;
}

bool stoppedEarly(const SimulationController& controller) {
  using State = SimulationController::RunState;
  return controller.runState() == State::Failed || controller.runState() == State::RecordingFull;
}

std::size_t ratingsReached(const SimulationController& controller) {
  const kt::Recorder* rec = controller.recorder();
  const kt::SignalLayout* layout = controller.signalLayout();
  const kt::Tree* tree = controller.tree();
  const kt::Model* model = controller.sessionModel();
  if (!rec || !layout || !tree || !model) return 0;
  kt::PeakLoads peaks(*tree, *layout, kt::PeakLoads::ratingsOf(*model, *tree));
  peaks.addRecorded(*rec, 0);
  return kt::ratingExceedances(peaks.joints(), *model).size();
}

}  // namespace

bool runToEnd(SimulationController& controller) {
  using State = SimulationController::RunState;
  controller.setUntilStopped(false);
  controller.setSpeed(0.0);
  controller.run();
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    const State s = controller.runState();
    if (s == State::Finished || s == State::Failed || s == State::RecordingFull || s == State::None) loop.quit();
  });
  poll.start(50);
  loop.exec();
  if (controller.runState() == State::Finished) return true;
  const QString why = controller.errorMessage().isEmpty() ? controller.runStateText() : controller.errorMessage();
  std::fprintf(stderr, "kinetree: the run stopped: %s\n", qPrintable(why));
  return false;
}

int runForExport(SimulationController& controller, const QString& durationText, const char* option) {
  if (!durationText.isEmpty()) {
    bool ok = false;
    const double T = durationText.toDouble(&ok);
    if (!ok || !(T > 0.0) || !std::isfinite(T)) {
      std::fprintf(stderr, "kinetree: %s expects seconds > 0, got '%s'\n", option, qPrintable(durationText));
      return 2;
    }
    controller.setDuration(T);
  }
  if (!controller.canRun()) {
    std::fprintf(stderr, "kinetree: the model cannot run: %s\n", qPrintable(controller.runBlocker()));
    return 1;
  }
  if (runToEnd(controller)) return 0;
  using State = SimulationController::RunState;
  if (controller.runState() != State::Failed && controller.runState() != State::RecordingFull) return 1;
  std::fprintf(stderr, "kinetree: using what was recorded before the run stopped\n");
  return 0;
}

int exportPlotsToFolder(SimulationController& controller, PlotsDock& plots, const QString& folder,
                        const QString& durationText, const QString& formatList) {
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
  if (const int code = runForExport(controller, durationText, "--run")) return code;
  plots.show();
  QApplication::processEvents();
  plots.redraw();
  const QString caption = controller.runLabel();
  // All figures go to a temporary folder first and replace the old ones only once every one was
  // written (core/io/atomic_file.hpp): a full disk or a kill leaves the old set, not a mix.
  try {
    kt::StagedFileSet set(QFile::encodeName(folder).toStdString());
    QStringList written;
    for (const QString& format : formats) {
      std::vector<std::pair<std::vector<int>, QString>> figures;
      for (int p = 0; p < PlotsDock::kPaneCount; ++p)
        figures.push_back({{p}, render::safeFileName(plots.paneTitle(p))});
      figures.push_back({{0, 1, 2}, QStringLiteral("plots")});
      for (const auto& [panes, name] : figures) {
        const QString file = name + QLatin1Char('.') + format;
        const QString staged = QFile::decodeName(set.stagingPath(QFile::encodeName(file).toStdString()).c_str());
        QString error;
        const QSizeF size(1600, panes.size() > 1 ? 1800 : 900);
        if (!plots.exportPanes(panes, staged, size, 2.0, caption, &error)) {
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
  return stoppedEarly(controller) ? 1 : 0;
}

int exportReportFile(SimulationController& controller, const std::function<VideoSource()>& source,
                     const ReportRequest& request) {
  const QString& path = request.path;
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("pdf") && suffix != QLatin1String("html") && suffix != QLatin1String("htm")) {
    std::fprintf(stderr, "kinetree: --report writes a .pdf or an .html file, got '%s'\n", qPrintable(path));
    return 2;
  }
  // the report's choices, as Export Report offers them and with kinetree-cli's names
  ReportOptions options;
  if (!request.segment.isEmpty()) {
    bool ok = false;
    const qlonglong n = request.segment.toLongLong(&ok);
    if (!ok || n < 2) {
      std::fprintf(stderr, "kinetree: --segment: expected at least 2 samples, got '%s'\n", qPrintable(request.segment));
      return 2;
    }
    options.spectrumSegment = static_cast<std::size_t>(n);
  }
  if (!request.wohler.isEmpty()) {
    bool ok = false;
    options.wohler = request.wohler.toDouble(&ok);
    if (!ok || !(options.wohler >= 1.0 && options.wohler <= 30.0)) {
      std::fprintf(stderr, "kinetree: --wohler: expected an exponent from 1 to 30, got '%s'\n",
                   qPrintable(request.wohler));
      return 2;
    }
  }
  if (!request.neq.isEmpty()) {
    bool ok = false;
    options.nEq = request.neq.toDouble(&ok);
    if (!ok || !(options.nEq > 0.0) || !std::isfinite(options.nEq)) {
      std::fprintf(stderr, "kinetree: --neq: expected a number of cycles above 0, got '%s'\n", qPrintable(request.neq));
      return 2;
    }
  }
  if (!folderExists(path)) return 1;  // said before the run, not after it
  if (const int code = runForExport(controller, request.duration, "--run")) return code;
  QString error;
  int shown = -1;
  const bool written = writeRunReport(source(), options, path, &error, [&shown](double fraction) {
    const int percent = static_cast<int>(100.0 * fraction);
    if (percent / 10 != shown / 10) std::fprintf(stderr, "\rkinetree: report %d %%", percent);
    shown = percent;
    return true;
  });
  std::fprintf(stderr, "\n");
  if (!written) {
    std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
    return 1;
  }
  std::printf("%s\n", qPrintable(path));
  // what the report's warnings say, for scripts: a run that stopped (1), ratings reached (3)
  if (stoppedEarly(controller)) return 1;
  if (const std::size_t reached = ratingsReached(controller); reached > 0) {
    std::fprintf(stderr, "kinetree: %zu load rating%s reached in the run (the report's warnings)\n", reached,
                 reached == 1 ? "" : "s");
    return 3;
  }
  return 0;
}

int renderVideoFile(SimulationController& controller, const std::function<VideoSource()>& source,
                    const VideoRequest& request) {
  VideoExportOptions o;
  bool ok = true;
  const QStringList wh = request.size.toLower().split(QLatin1Char('x'));
  if (wh.size() == 2) {
    bool okW = false, okH = false;
    o.width = wh[0].toInt(&okW);
    o.height = wh[1].toInt(&okH);
    ok = okW && okH;
  } else {
    ok = false;
  }
  if (!ok) {
    std::fprintf(stderr, "kinetree: --size expects WIDTHxHEIGHT, e.g. 1280x720, got '%s'\n", qPrintable(request.size));
    return 2;
  }
  o.fps = request.fps.toDouble(&ok);
  if (!ok || !(o.fps > 0.0 && o.fps <= 240.0)) {
    std::fprintf(stderr, "kinetree: --fps expects a frame rate in (0, 240], got '%s'\n", qPrintable(request.fps));
    return 2;
  }
  o.speed = request.playback.toDouble(&ok);
  if (!ok || !(o.speed > 0.0 && o.speed <= 1e6)) {
    std::fprintf(stderr, "kinetree: --playback expects a positive factor, got '%s'\n", qPrintable(request.playback));
    return 2;
  }
  o.plots = request.plots;
  if (!folderExists(request.path)) return 1;
  if (const int code = runForExport(controller, request.duration, "--duration")) return code;
  QString error;
  QElapsedTimer clock;
  clock.start();
  const bool written = VideoExport::write(source(), o, request.path, &error, [&](int frame, int frames) {
    if (frame == frames || frame % 30 == 0) std::fprintf(stderr, "\rkinetree: frame %d / %d", frame, frames);
    return true;
  });
  std::fprintf(stderr, "\n");
  if (!written) {
    std::fprintf(stderr, "kinetree: %s\n", qPrintable(error));
    return 1;
  }
  std::fprintf(stderr, "kinetree: wrote %s (%d frames in %.1f s)\n", qPrintable(request.path),
               VideoExport::frameCount(controller, o), 1e-3 * static_cast<double>(clock.elapsed()));
  return stoppedEarly(controller) ? 1 : 0;
}

}  // namespace kt::ui
