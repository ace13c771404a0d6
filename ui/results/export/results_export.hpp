// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Results: the recorded run as CSV, in exactly the form of `kinetree-cli simulate`
// (kt::writeRecordingCsv), with a metadata record beside it (<name>.meta.json: what produced the
// run and what was exported) that pandas and MATLAB read with their JSON readers, or ignore, and
// for a run with interactions their events (<name>.events.json), which `kinetree-cli simulate
// --events` replays into the same CSV bytes.
//
// ResultsExport does the work without dialogs (the tests call it); ExportResultsDialog
// (export_results_dialog.hpp) asks for the options and shows the progress.
#pragma once

#include <QString>
#include <QStringList>
#include <cstddef>
#include <functional>
#include <limits>

namespace kt::ui {

class SimulationController;

struct ResultsExportOptions {
  /// Rows: the whole run, or the samples with t0 ≤ t ≤ t1 (the plots' visible range).
  bool wholeRun = true;
  double t0 = -std::numeric_limits<double>::infinity();
  double t1 = std::numeric_limits<double>::infinity();
  /// Columns: every signal (empty pattern and list), the signals named in `names` (the plotted
  /// ones), or those matching `pattern`, comma-separated globs as `simulate --signals` takes.
  QStringList names;
  QString pattern;
  /// Every k-th sample of the range, from its first.
  std::size_t every = 1;
  /// Angles in degrees (kt::RecordingSelection::anglesInDegrees); off: SI, as simulate writes.
  bool anglesInDegrees = false;
  /// Write <name>.meta.json beside the CSV.
  bool metadata = true;
};

class ResultsExport {
 public:
  /// (written, total) rows; return false to cancel.
  using Progress = std::function<bool(std::size_t written, std::size_t total)>;

  /// The metadata file that goes with a CSV file: "run.csv" → "run.meta.json".
  static QString metadataPath(const QString& csvPath);
  /// The events file of a run with interactions (docs/interaction.md): "run.csv" → "run.events.json".
  static QString eventsPath(const QString& csvPath);

  /// Rows and columns the options select in the current recording (0, 0 without one); false and
  /// `error` when the pattern or names select nothing.
  static bool count(const SimulationController& simulation, const ResultsExportOptions& options, std::size_t& rows,
                    std::size_t& columns, QString* error = nullptr);

  /// Writes the CSV (atomically) and its metadata. False with `error` on failure or when
  /// cancelled (then `cancelled` is set and no file was written).
  static bool write(const SimulationController& simulation, const ResultsExportOptions& options, const QString& path,
                    QString* error, const Progress& progress = {}, bool* cancelled = nullptr);
};

}  // namespace kt::ui
