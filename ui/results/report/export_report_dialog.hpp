// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Report…: the report of the recorded run (run_report.hpp) as a PDF document or an
// HTML page, by the file name; over the whole run or the time range the plots show, with figures
// for a chosen number of the most loaded joints, the DELs for a Wöhler exponent and N_eq, and the
// spectra's segment length (at first the Plots dock's). The report is
// made with a progress dialog that can cancel; nothing is written until it is complete.
#pragma once

#include "ui/results/export/export_dialog.hpp"
#include "ui/results/report/run_report.hpp"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace kt::ui {

class ExportReportDialog : public ExportDialog {
  Q_OBJECT

 public:
  /// `plotsRange`: the time range the plots show (NaN: none); `segment`: the spectra's samples per
  /// segment at first, as the Plots dock's Spectrum has it (0: automatic).
  ExportReportDialog(VideoSource source, std::pair<double, double> plotsRange, int segment = 0,
                     QWidget* parent = nullptr);

  bool exportTo(const QString& path) override;
  ReportOptions options() const;

  QSpinBox* jointsBox() const { return joints_; }
  QDoubleSpinBox* wohlerBox() const { return wohler_; }
  QDoubleSpinBox* equivalentCyclesBox() const { return equivalent_; }
  QComboBox* segmentBox() const { return segment_; }

 private:
  FileQuestion fileQuestion() const override;

  VideoSource source_;
  std::pair<double, double> plotsRange_;
  RangeButtons range_{};
  QSpinBox* joints_;
  QDoubleSpinBox* wohler_;
  QDoubleSpinBox* equivalent_;
  QComboBox* segment_;
};

}  // namespace kt::ui
