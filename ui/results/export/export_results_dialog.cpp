// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/export_results_dialog.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "core/results/recorder.hpp"
#include "ui/results/export/export_file.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportResultsDialog::ExportResultsDialog(const SimulationController& simulation, QStringList plotted,
                                         std::pair<double, double> visible, QWidget* parent)
    : ExportDialog(QStringLiteral("exportResultsDialog"), tr("Export Results"), parent),
      simulation_(simulation),
      plotted_(std::move(plotted)),
      visible_(visible),
      allSignals_(new QRadioButton(tr("Every signal"))),
      plottedSignals_(new QRadioButton(tr("The signals shown in the plots (%n)", nullptr, plotted_.size()))),
      matchingSignals_(new QRadioButton(tr("Signals matching:"))),
      pattern_(new QLineEdit),
      every_(new QSpinBox),
      degrees_(new QCheckBox(tr("Angles in degrees (rad, rad/s and rad/s² columns; their names say \"(deg)\")"))),
      metadata_(new QCheckBox(tr("Write a metadata file beside it (name.meta.json: model, solver, settings, "
                                 "version, time of export)"))),
      summary_(new QLabel) {
  plottedSignals_->setEnabled(!plotted_.isEmpty());
  allSignals_->setChecked(true);
  pattern_->setPlaceholderText(tr("q:*,load:J1*.f?  (comma-separated globs, as simulate --signals)"));
  pattern_->setObjectName(QStringLiteral("exportPattern"));
  every_->setRange(1, 1'000'000);
  every_->setValue(1);
  every_->setObjectName(QStringLiteral("exportEvery"));
  every_->setToolTip(tr("1 writes every sample; k writes the first sample of the range and every k-th after it"));
  degrees_->setObjectName(QStringLiteral("exportDegrees"));
  degrees_->setToolTip(tr("Off: SI units, exactly as kinetree-cli simulate writes"));
  metadata_->setChecked(true);
  summary_->setObjectName(QStringLiteral("exportSummary"));
  summary_->setWordWrap(true);

  auto* rows = new QGroupBox(tr("Rows"));
  auto* rowsLayout = new QVBoxLayout(rows);
  const RangeButtons range = addRangeButtons(rowsLayout, visible_);
  wholeRun_ = range.wholeRun;
  visibleRange_ = range.plotsRange;
  auto* everyRow = new QFormLayout;
  everyRow->addRow(tr("Every k-th sample, k ="), every_);
  rowsLayout->addLayout(everyRow);

  auto* cols = new QGroupBox(tr("Columns (time is always the first)"));
  auto* colsLayout = new QVBoxLayout(cols);
  colsLayout->addWidget(allSignals_);
  colsLayout->addWidget(plottedSignals_);
  colsLayout->addWidget(matchingSignals_);
  colsLayout->addWidget(pattern_);
  auto* colGroup = new QButtonGroup(this);
  colGroup->addButton(allSignals_);
  colGroup->addButton(plottedSignals_);
  colGroup->addButton(matchingSignals_);

  QVBoxLayout* layout = layoutWithIntro(tr("The recorded run as CSV, in the same columns and number format as "
                                           "kinetree-cli simulate writes.") +
                                        QLatin1Char('\n') + runLine(simulation_));
  layout->addWidget(rows);
  layout->addWidget(cols);
  layout->addWidget(degrees_);
  layout->addWidget(metadata_);
  layout->addWidget(summary_);
  layout->addWidget(exportButtons());

  for (QRadioButton* b : {wholeRun_, visibleRange_, allSignals_, plottedSignals_, matchingSignals_})
    connect(b, &QRadioButton::toggled, this, &ExportResultsDialog::updateSummary);
  connect(pattern_, &QLineEdit::textChanged, this, [this] {
    if (!pattern_->text().isEmpty()) matchingSignals_->setChecked(true);
    updateSummary();
  });
  connect(every_, &QSpinBox::valueChanged, this, &ExportResultsDialog::updateSummary);
  updateSummary();
}

ResultsExportOptions ExportResultsDialog::options() const {
  ResultsExportOptions o;
  o.wholeRun = !visibleRange_->isChecked();
  o.t0 = visible_.first;
  o.t1 = visible_.second;
  if (plottedSignals_->isChecked()) o.names = plotted_;
  if (matchingSignals_->isChecked()) o.pattern = pattern_->text().trimmed();
  o.every = static_cast<std::size_t>(every_->value());
  o.anglesInDegrees = degrees_->isChecked();
  o.metadata = metadata_->isChecked();
  return o;
}

void ExportResultsDialog::setOptions(const ResultsExportOptions& o) {
  (o.wholeRun ? wholeRun_ : visibleRange_)->setChecked(true);
  if (!o.wholeRun) visible_ = {o.t0, o.t1};
  if (!o.names.isEmpty()) {
    plotted_ = o.names;
    plottedSignals_->setEnabled(true);
    plottedSignals_->setChecked(true);
  } else if (!o.pattern.isEmpty()) {
    pattern_->setText(o.pattern);
    matchingSignals_->setChecked(true);
  } else {
    allSignals_->setChecked(true);
  }
  every_->setValue(static_cast<int>(o.every));
  degrees_->setChecked(o.anglesInDegrees);
  metadata_->setChecked(o.metadata);
  updateSummary();
}

void ExportResultsDialog::updateSummary() {
  std::size_t rows = 0, columns = 0;
  QString error;
  if (!ResultsExport::count(simulation_, options(), rows, columns, &error)) {
    summary_->setText(tr("<b>Nothing to write:</b> %1").arg(error.toHtmlEscaped()));
    exportButton_->setEnabled(false);
    return;
  }
  // %.17g numbers take about 20 bytes with their separator
  const double megabytes = static_cast<double>(rows) * static_cast<double>(columns) * 20.0 / 1e6;
  summary_->setText(
      tr("%n rows", nullptr, static_cast<int>(rows)) + tr(" × %n columns, about ", nullptr, static_cast<int>(columns)) +
      (megabytes < 1.0 ? tr("%1 kB").arg(megabytes * 1e3, 0, 'f', 0) : tr("%1 MB").arg(megabytes, 0, 'f', 1)));
  exportButton_->setEnabled(rows > 0);
}

ExportDialog::FileQuestion ExportResultsDialog::fileQuestion() const {
  return {tr("Export Results"), runFileName(simulation_) + QStringLiteral(".csv"),
          tr("CSV files (*.csv);;All files (*)")};
}

bool ExportResultsDialog::exportTo(const QString& path) {
  error_.clear();
  ExportProgress progress(this, tr("Writing %1…").arg(QFileInfo(path).fileName()), QStringLiteral("exportProgress"));
  bool cancelled = false;
  const bool ok = ResultsExport::write(
      simulation_, options(), path, &error_,
      [&progress](std::size_t written, std::size_t total) {
        return progress(total > 0 ? static_cast<double>(written) / static_cast<double>(total) : 1.0);
      },
      &cancelled);
  if (cancelled) error_.clear();  // the user knows
  if (ok) written_ = QFileInfo(path).absoluteFilePath();
  return ok;
}

}  // namespace kt::ui
