// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Results…: asks which rows (the whole run, or the time range the plots show),
// which signals (all, those in the plots, or glob patterns as `simulate --signals`) and which
// samples (every k-th) to write, says how large the file will be, asks for the file, and writes
// it with a progress bar and Cancel (ResultsExport: the CSV of `kinetree-cli simulate`, written
// atomically, and its metadata record).
#pragma once

#include <QStringList>
#include <utility>

#include "ui/results/export/export_dialog.hpp"
#include "ui/results/export/results_export.hpp"

class QCheckBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace kt::ui {

class SimulationController;

class ExportResultsDialog : public ExportDialog {
  Q_OBJECT

 public:
  /// `plotted`: the signals the plots show; `visible`: the time range they show.
  ExportResultsDialog(const SimulationController& simulation, QStringList plotted, std::pair<double, double> visible,
                      QWidget* parent = nullptr);

  ResultsExportOptions options() const;
  /// Sets the controls from `options` (a pattern selects "Matching", names "Plotted").
  void setOptions(const ResultsExportOptions& options);

  /// Writes with a progress bar and Cancel; writtenPath() is absolute.
  bool exportTo(const QString& path) override;

 private:
  FileQuestion fileQuestion() const override;
  void updateSummary();

  const SimulationController& simulation_;
  QStringList plotted_;
  std::pair<double, double> visible_;
  QRadioButton* wholeRun_ = nullptr;
  QRadioButton* visibleRange_ = nullptr;
  QRadioButton* allSignals_;
  QRadioButton* plottedSignals_;
  QRadioButton* matchingSignals_;
  QLineEdit* pattern_;
  QSpinBox* every_;
  QCheckBox* degrees_;
  QCheckBox* metadata_;
  QLabel* summary_;
};

}  // namespace kt::ui
