// SPDX-License-Identifier: BSD-3-Clause
// The timeline under the 3D view (docs/architecture.md, "Data flow of a run"): a slider over the
// recorded samples of the run; the shown time; replay of the recording at ×0.1 … ×10 of real
// time, read back from the Recorder without simulating again; a button back to the live end of
// the run; and the run label, which says what produced the run (model, solver, integrator, step
// or tolerance) and where it stands (running, paused, finished at t, stopped at t).
//
// Moving the slider (drag, click, arrow keys one sample, Page Up/Down, Home/End) shows the
// recorded sample at that time in every view (SimulationController::showTime); the run itself
// goes on. The slider follows the shown sample, whoever chose it (a click on a plot, replay).
// Run and Step go back to the newest sample (SimulationController::run), and a replay stops then.
// Ticks under the slider mark where interactions (pushes, drags) began and were released.
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <cstddef>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace kt::ui {

class SimulationController;

class TimelineBar : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineBar(SimulationController* simulation, QWidget* parent = nullptr);

  /// The replay speeds offered: factors of real time.
  static const std::vector<double>& replaySpeeds();

  QSlider* slider() const { return slider_; }
  QLabel* runLabel() const { return runLabel_; }
  /// The run label's whole text (the label elides it when the bar is narrow).
  const QString& runText() const { return runText_; }
  QLabel* timeLabel() const { return timeLabel_; }
  bool isReplaying() const { return replaying_; }
  /// Times of the ticks under the slider: where each interaction began or was released.
  const std::vector<double>& eventTimes() const { return eventTimes_; }
  double replaySpeed() const { return replaySpeed_; }

 public slots:
  /// Plays the recording back from the shown time (from the start when the end is shown).
  void replay(bool on);
  void setReplaySpeed(double factor);
  /// Shows recorded sample `row` (clamped to the recording).
  void showSample(std::size_t row);
  /// Back to the newest sample of the run.
  void showLive();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  /// Slider range and position, the time and run labels, from the controller.
  void sync();
  /// The run label's text, elided in the middle when the label is narrower (the whole text in
  /// its tooltip then).
  void showRunText();
  void replayTick();
  double rowTime(std::size_t row) const;

  SimulationController* simulation_;
  QToolButton* playButton_;
  QToolButton* liveButton_;
  QSlider* slider_;
  QLabel* timeLabel_;
  QComboBox* speedBox_;
  QLabel* runLabel_;
  QTimer* replayTimer_;
  QElapsedTimer replayClock_;
  double replayFrom_ = 0.0;  ///< shown time when the replay (or its last speed change) began
  double replaySpeed_ = 1.0;
  bool replaying_ = false;
  bool syncing_ = false;
  std::size_t markedEvents_ = ~std::size_t{0};  ///< eventCount() the marks were made for
  std::vector<double> eventTimes_;
  QString runText_;
};

}  // namespace kt::ui
