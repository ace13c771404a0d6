// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Results…: asks which rows (the whole run, or the time range the plots show),
// which signals (all, those in the plots, or glob patterns as `simulate --signals`) and which
// samples (every k-th) to write, says how large the file will be, asks for the file, and writes
// it with a progress bar and Cancel (ResultsExport: the CSV of `kinetree-cli simulate`, written
// atomically, and its metadata record).
#pragma once

#include <QDialog>
#include <QStringList>
#include <utility>

#include "ui/results/export/results_export.hpp"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace kt::ui {

class SimulationController;

class ExportResultsDialog : public QDialog {
  Q_OBJECT

 public:
  /// `plotted`: the signals the plots show; `visible`: the time range they show.
  ExportResultsDialog(const SimulationController& simulation, QStringList plotted, std::pair<double, double> visible,
                      QWidget* parent = nullptr);

  ResultsExportOptions options() const;
  /// Sets the controls from `options` (a pattern selects "Matching", names "Plotted").
  void setOptions(const ResultsExportOptions& options);

  /// Asks for the file and writes it (with progress and Cancel); the status of the last export.
  void accept() override;
  /// Writes to `path` without the file dialog (the progress dialog still shows). False with the
  /// reason in lastError() when it failed or was cancelled.
  bool exportTo(const QString& path);
  const QString& lastError() const { return error_; }
  /// The file the last successful export wrote (absolute; empty before one): the window's
  /// status message says where the results went.
  const QString& writtenPath() const { return written_; }

 private:
  void updateSummary();

  const SimulationController& simulation_;
  QStringList plotted_;
  std::pair<double, double> visible_;
  QRadioButton* wholeRun_;
  QRadioButton* visibleRange_;
  QRadioButton* allSignals_;
  QRadioButton* plottedSignals_;
  QRadioButton* matchingSignals_;
  QLineEdit* pattern_;
  QSpinBox* every_;
  QCheckBox* degrees_;
  QCheckBox* metadata_;
  QLabel* summary_;
  QPushButton* exportButton_ = nullptr;
  QString error_;
  QString written_;
};

}  // namespace kt::ui
