// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/report/export_report_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "ui/results/export/export_file.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportReportDialog::ExportReportDialog(VideoSource source, std::pair<double, double> plotsRange, int segment,
                                       QWidget* parent)
    : ExportDialog(QStringLiteral("exportReportDialog"), tr("Export Report"), parent),
      source_(std::move(source)),
      plotsRange_(plotsRange),
      joints_(new QSpinBox),
      wohler_(new QDoubleSpinBox),
      equivalent_(new QDoubleSpinBox),
      segment_(new QComboBox) {
  joints_->setObjectName(QStringLiteral("reportJoints"));
  joints_->setRange(0, 50);
  joints_->setValue(3);
  joints_->setToolTip(
      tr("How many of the most loaded joints (the most utilised first) get figures of their loads "
         "and efforts, a spectrum and a fatigue table"));
  wohler_->setObjectName(QStringLiteral("reportWohler"));
  wohler_->setRange(1.0, 30.0);
  wohler_->setDecimals(1);
  wohler_->setValue(4.0);
  wohler_->setToolTip(
      tr("The slope of the S–N curve for the damage-equivalent loads: 4 for steel welds, 10 for "
         "composites"));
  // as the Fatigue dock takes them
  equivalent_->setObjectName(QStringLiteral("reportNeq"));
  equivalent_->setRange(0.0, 1e12);
  equivalent_->setDecimals(0);
  equivalent_->setSpecialValueText(tr("1 per s"));
  equivalent_->setToolTip(
      tr("N_eq, the equivalent cycles the DELs are given for; \"1 per s\": one per second of the range"));
  // as the Plots dock's Spectrum offers them, and the whole range for the finest resolution
  segment_->setObjectName(QStringLiteral("reportSegment"));
  segment_->addItem(tr("automatic (about 7 averaged)"), 0);
  for (int n = 128; n <= 16384; n *= 2) segment_->addItem(tr("%1 samples").arg(n), n);
  segment_->addItem(tr("the whole range (finest resolution)"), std::numeric_limits<int>::max());
  segment_->setCurrentIndex(std::max(0, segment_->findData(segment)));
  segment_->setToolTip(
      tr("Samples per segment of the spectra (Welch's method): longer segments resolve slower motions, "
         "shorter ones average more segments. One longer than the range is the whole range."));
  QVBoxLayout* layout = layoutWithIntro(
      tr("One document of the recorded run: the model, the run, the warnings, the peak table with the "
         "utilisation, figures, spectra and fatigue cycles of the most loaded joints, and the load cases at "
         "the peaks. A PDF document or an HTML page with the tables as CSV, by the file name.\n") +
      runLine(*source_.simulation));
  range_ = addRangeButtons(layout, plotsRange_);
  auto* form = new QFormLayout;
  form->addRow(tr("Joints with figures:"), joints_);
  form->addRow(tr("Wöhler exponent m:"), wohler_);
  form->addRow(tr("Equivalent cycles N_eq:"), equivalent_);
  form->addRow(tr("Spectrum segments:"), segment_);
  layout->addLayout(form);
  layout->addWidget(exportButtons());
  exportButton_->setFocus();  // Return exports
}

ReportOptions ExportReportDialog::options() const {
  ReportOptions o;
  o.joints = joints_->value();
  o.wohler = wohler_->value();
  o.nEq = equivalent_->value();
  o.spectrumSegment = static_cast<std::size_t>(std::max(0, segment_->currentData().toInt()));
  if (range_.plotsRange && range_.plotsRange->isChecked()) {
    o.t0 = plotsRange_.first;
    o.t1 = plotsRange_.second;
  }
  return o;
}

ExportDialog::FileQuestion ExportReportDialog::fileQuestion() const {
  return {tr("Export Report"), runFileName(*source_.simulation) + QStringLiteral("-report.pdf"),
          tr("PDF document (*.pdf);;HTML page (*.html)")};
}

bool ExportReportDialog::exportTo(const QString& path) {
  error_.clear();
  ExportProgress progress(this, tr("Making %1…").arg(QFileInfo(path).fileName()), QStringLiteral("reportProgress"));
  bool cancelled = false;
  const bool ok = writeRunReport(source_, options(), path, &error_, std::ref(progress), &cancelled);
  if (cancelled) error_.clear();
  written_ = ok ? path : QString();
  return ok;
}

}  // namespace kt::ui
