// SPDX-License-Identifier: BSD-3-Clause
// What the status bar says about the simulation: the simulated time, the real-time factor (or
// "paused", "recording full") and the wall time per output step, measured over windows of about
// 0.5 s; the controller's messages; and a (non-blocking) message box when a run fails or fills
// the memory it may record into.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <cstdint>

class QAction;
class QLabel;
class QStatusBar;
class QWidget;

namespace kt::ui {

class SimulationController;

class SimulationStatus : public QObject {
  Q_OBJECT

 public:
  /// `window`: the parent of the message boxes; the labels go into `statusBar`.
  SimulationStatus(SimulationController* simulation, QStatusBar* statusBar, QWidget* window);

  /// File ▸ Export Results: the recording-full message offers it.
  void setExportAction(QAction* action) { exportAction_ = action; }

  /// Wall time per output step and simulated seconds per wall second, as last measured.
  double nanosecondsPerStep() const { return nsPerStep_; }
  double realTimeFactor() const { return realTimeFactor_; }

 private:
  void onSessionStarted();
  void update(bool force);
  /// What the status bar (brief) and the message box say when the recording is full.
  QString fullMessage(bool brief) const;
  void onRecordingFilled();
  void onFailed(const QString& error);

  SimulationController* simulation_;
  QStatusBar* statusBar_;
  QWidget* window_;
  QLabel* timeLabel_;
  QLabel* rateLabel_;
  QLabel* costLabel_;
  QAction* exportAction_ = nullptr;
  bool fullBoxShown_ = false;  ///< for this simulator
  QElapsedTimer clock_;
  qint64 windowStart_ = 0;
  double windowSim_ = 0.0;
  std::uint64_t windowSteps_ = 0;
  std::uint64_t windowNanos_ = 0;
  double nsPerStep_ = 0.0;
  double realTimeFactor_ = 0.0;
};

}  // namespace kt::ui
