// SPDX-License-Identifier: BSD-3-Clause
// The batch modes of the application (`kinetree MODEL --export-plots DIR`, `--report FILE`, `--video FILE`,
// docs/application.md, "Getting results out"): the model runs as fast as possible to the end of
// its duration with the window's views, and the recording is written as the File menu's exports
// would write it. No dialogs: errors go to stderr, and the functions return the exit status
// (0 written; 1 a failure; 2 a usage error).
#pragma once

#include <QString>
#include <functional>

#include "ui/results/video/video_export.hpp"

namespace kt::ui {

class PlotsDock;
class SimulationController;

/// Runs the controller's model as fast as possible to its duration; false when it did not finish
/// (a failure or a full recording: the message is printed).
bool runToEnd(SimulationController& controller);

/// Sets the duration from `durationText` (given as `option`; the model's when empty) and runs the
/// model to its end. 0 when there is a recording to use (also a failed run's, or one cut short by a
/// full recording, said on stderr), else the exit status. The batch modes then write what was
/// recorded and exit 1 when the run stopped before its end, as kinetree-cli simulate does.
int runForExport(SimulationController& controller, const QString& durationText, const char* option);

/// --export-plots: runs the model and writes each plot pane, and the three stacked (plots.<format>),
/// into `folder` in every format of `formatList` ("png,svg,pdf"). The old figures are replaced
/// only once every new one was written.
int exportPlotsToFolder(SimulationController& controller, PlotsDock& plots, const QString& folder,
                        const QString& durationText, const QString& formatList);

/// What --report asks for, as the command line spells it (empty: the default).
struct ReportRequest {
  QString path;
  QString duration;  ///< empty: the model's
  QString segment;   ///< --segment N: samples per Welch segment of the spectra (as kinetree-cli spectrum)
  QString wohler;    ///< --wohler M: the DELs' Wöhler exponent (as kinetree-cli fatigue)
  QString neq;       ///< --neq N: the DELs' equivalent cycles (as kinetree-cli fatigue)
};
/// --report: runs the model and writes its report (ui/results/report/run_report.hpp) to
/// `request.path`, a PDF or an HTML page by the suffix, with the views of `source` (called after
/// the run); progress on stderr. Exit status 2 for a bad option, 3 when the run reached a load
/// rating (the report's warnings), as kinetree-cli peaks; options and a folder that does not
/// exist are refused before the run.
int exportReportFile(SimulationController& controller, const std::function<VideoSource()>& source,
                     const ReportRequest& request);

/// What --video asks for, as the command line spells it.
struct VideoRequest {
  QString path;
  QString duration;  ///< empty: the model's
  QString size = QStringLiteral("1280x720");
  QString fps = QStringLiteral("30");
  QString playback = QStringLiteral("1");
  bool plots = false;
};
/// --video: runs the model, then renders the recording into `request.path` with the views of
/// `source` (called after the run); progress on stderr.
int renderVideoFile(SimulationController& controller, const std::function<VideoSource()>& source,
                    const VideoRequest& request);

}  // namespace kt::ui
