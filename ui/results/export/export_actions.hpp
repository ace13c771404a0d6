// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Results… and Export Video…: offered while there is a recording, each asking its
// dialog (ExportResultsDialog, ExportVideoDialog) and saying in the status bar where the file went.
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
  QAction* exportVideoAction() const { return exportVideo_; }
  /// File ▸ Export Results…: the recorded run as CSV.
  void showExportResults();
  /// File ▸ Export Video…: the recorded run rendered as a video.
  void showExportVideo();

 private:
  SimulationController* simulation_;
  PlotsDock* plots_;
  std::function<VideoSource()> videoSource_;
  QMainWindow* window_;
  QAction* exportResults_;
  QAction* exportVideo_;
};

}  // namespace kt::ui
