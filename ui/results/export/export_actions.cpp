// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/export_actions.hpp"

#include <QAction>
#include <QDir>
#include <QMainWindow>
#include <QStatusBar>

#include "core/results/recorder.hpp"
#include "ui/results/export/export_results_dialog.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/results/report/export_report_dialog.hpp"
#include "ui/results/video/export_video_dialog.hpp"
#include "ui/shared/status_message.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportActions::ExportActions(SimulationController* simulation, PlotsDock* plots,
                             std::function<VideoSource()> videoSource, QMainWindow* window)
    : QObject(window),
      simulation_(simulation),
      plots_(plots),
      videoSource_(std::move(videoSource)),
      window_(window),
      exportResults_(new QAction(tr("Export &Results…"), this)),
      exportReport_(new QAction(tr("Export Re&port…"), this)),
      exportVideo_(new QAction(tr("Export &Video…"), this)) {
  exportResults_->setObjectName(QStringLiteral("exportResultsAction"));
  exportResults_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportResults_->setStatusTip(tr("Write the recorded run as CSV, as kinetree-cli simulate does"));
  connect(exportResults_, &QAction::triggered, this, &ExportActions::showExportResults);
  exportReport_->setObjectName(QStringLiteral("exportReportAction"));
  exportReport_->setStatusTip(
      tr("Write the recorded run as one document: model, run, peak table, figures, spectra, fatigue, load cases"));
  connect(exportReport_, &QAction::triggered, this, &ExportActions::showExportReport);
  exportVideo_->setObjectName(QStringLiteral("exportVideoAction"));
  exportVideo_->setStatusTip(tr("Render the recorded run as an MP4 video or PNG images"));
  connect(exportVideo_, &QAction::triggered, this, &ExportActions::showExportVideo);
  // both need a recording
  const auto update = [this] {
    const kt::Recorder* rec = simulation_->recorder();
    const bool recorded = rec && rec->size() > 0;
    exportResults_->setEnabled(recorded);
    exportReport_->setEnabled(recorded);
    exportVideo_->setEnabled(recorded);
  };
  update();
  connect(simulation_, &SimulationController::stateChanged, this, update);
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    exportResults_->setEnabled(false);
    exportReport_->setEnabled(false);
    exportVideo_->setEnabled(false);
  });
}

void ExportActions::showExportResults() {
  if (!simulation_->recorder()) return;
  ExportResultsDialog dialog(*simulation_, plots_->plottedSignals(), plots_->visibleTimeRange(), window_);
  if (dialog.exec() == QDialog::Accepted)
    window_->statusBar()->showMessage(tr("Results exported to %1").arg(QDir::toNativeSeparators(dialog.writtenPath())),
                                      kStatusMessageMs);
}

void ExportActions::showExportReport() {
  if (!simulation_->recorder()) return;
  ExportReportDialog dialog(videoSource_(), plots_->visibleTimeRange(), plots_->spectrumSegment(), window_);
  if (dialog.exec() == QDialog::Accepted)
    window_->statusBar()->showMessage(tr("Report exported to %1").arg(QDir::toNativeSeparators(dialog.writtenPath())),
                                      kStatusMessageMs);
}

void ExportActions::showExportVideo() {
  if (!simulation_->recorder()) return;
  ExportVideoDialog dialog(videoSource_(), plots_->visibleTimeRange(), window_);
  if (dialog.exec() == QDialog::Accepted)
    window_->statusBar()->showMessage(tr("Video exported to %1").arg(QDir::toNativeSeparators(dialog.writtenPath())),
                                      kStatusMessageMs);
}

}  // namespace kt::ui
