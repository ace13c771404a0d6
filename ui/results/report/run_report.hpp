// SPDX-License-Identifier: BSD-3-Clause
// The report of a recorded run (docs/reports.md, "One document"): File ▸ Export Report… and
// `kinetree MODEL --run T --report FILE.pdf|FILE.html`. In order:
//   - the model: a picture (the window's camera, at the instant of the governing load case, with
//     the joints' load arrows), its tree with joint types and masses, its totals;
//   - the run: solver, integrator, step, the time recorded and how it ended, and how each joint
//     moves (prescribed motion, drive, or passive), the interactions applied;
//   - the warnings: ratings reached, a failed or cut-short run, a model edited since the run;
//   - the peak table, cell for cell as `kinetree-cli peaks` prints it (core/results/peak_loads.hpp);
//   - for the most loaded joints (mostLoadedJoints: the most utilised first): their loads and
//     efforts against time, the amplitude spectrum of their loads, and their fatigue cycles with
//     the damage-equivalent loads (core/analysis/rainflow.hpp);
//   - the load cases at the peaks, with every joint's wrench at those of the most loaded joints.
// Figures are ChartFigures, drawn by the code of the plot export; the document is a
// render::ReportDocument, written as vector PDF or as HTML with each table's CSV.
#pragma once

#include <QString>
#include <functional>
#include <limits>
#include <optional>

#include "render/output/report_document.hpp"
#include "ui/results/video/video_export.hpp"

namespace kt::ui {

struct ReportOptions {
  int joints = 3;       ///< the most loaded joints given figures, spectra and fatigue tables
  double wohler = 4.0;  ///< m of the DELs (4: steel welds)
  double nEq = 0.0;     ///< N_eq of the DELs; 0: one cycle per second of the range
  /// Samples per Welch segment of the spectra: 0 kt::defaultSegment (about seven averaged), at
  /// least the range's samples the whole range as one segment (the finest resolution)
  std::size_t spectrumSegment = 0;
  double t0 = -std::numeric_limits<double>::infinity();  ///< the time range reported
  double t1 = std::numeric_limits<double>::infinity();
  bool picture = true;  ///< the 3D picture of the model (needs the GUI thread)
};

/// The fraction done; returns false to cancel.
using ReportProgress = std::function<bool(double fraction)>;

/// The report of `source`'s recorded run; nullopt when there is none in the range (`error`
/// says so) or when `progress` cancelled (`error` empty).
std::optional<render::ReportDocument> makeRunReport(const VideoSource& source, const ReportOptions& options,
                                                    const ReportProgress& progress, QString* error);

/// Makes the report and writes it to `path` as PDF (.pdf) or HTML (.html, .htm), in one atomic
/// step once it is complete. False with `error` on failure; on cancel `cancelled` is set, `error`
/// is empty and nothing is written.
bool writeRunReport(const VideoSource& source, const ReportOptions& options, const QString& path, QString* error,
                    const ReportProgress& progress = {}, bool* cancelled = nullptr);

}  // namespace kt::ui
