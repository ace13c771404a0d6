// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Results…, Export Report… and Export Video…: offered while there is a recording,
// each asking its dialog (ExportResultsDialog, ExportReportDialog, ExportVideoDialog) and saying in
// the status bar where the file went.
#pragma once

#include <QObject>
#include <functional>

#include "ui/results/video/video_export.hpp"

class QAction;
class QMainWindow;

namespace kt::ui {

class PlotsDock;
class SimulationController;

class ExportActions : public QObject {
  Q_OBJECT

 public:
  /// `videoSource`: the window's views as they are set up, for the video.
  ExportActions(SimulationController* simulation, PlotsDock* plots, std::function<VideoSource()> videoSource,
                QMainWindow* window);

  QAction* exportResultsAction() const { return exportResults_; }
  QAction* exportReportAction() const { return exportReport_; }
  QAction* exportVideoAction() const { return exportVideo_; }
  /// File ▸ Export Results…: the recorded run as CSV.
  void showExportResults();
  /// File ▸ Export Report…: the recorded run as one document (PDF or HTML).
  void showExportReport();
  /// File ▸ Export Video…: the recorded run rendered as a video.
  void showExportVideo();

 private:
  SimulationController* simulation_;
  PlotsDock* plots_;
  std::function<VideoSource()> videoSource_;
  QMainWindow* window_;
  QAction* exportResults_;
  QAction* exportReport_;
  QAction* exportVideo_;
};

}  // namespace kt::ui
