// The simulation of the open model, run on its own thread (ARCHITECTURE.md, "Data flow of a run"):
//
//  - A SimulationWorker owns a copy of the document's Model inside its kt::Simulator and steps it
//    on a std::thread: paced to real time × speed, or as fast as possible; for a duration or until
//    stopped. It never emits a signal: every output sample goes into the Simulator's Recorder.
//  - Commands (run, pause, step, speed, duration, quit) cross from the GUI as fields under a
//    mutex plus an atomic sequence number that the worker checks after every step (one atomic
//    load per step; the lock is taken only when something changed), so they take effect within
//    one output step.
//  - The GUI thread polls at ~60 Hz (a QTimer): the newest state (Recorder::latest) moves the 3D
//    view, the newest recorded row feeds the load arrows, and frame() tells the plots to fetch
//    their new samples.
//  - A failed step (non-finite state, dopri5 step too small) pauses the run; the message goes to
//    the status bar and a (non-blocking) message box.
//  - A new model, Reset, closing the window and destruction stop and join the worker first.
//
// The solver, integrator, step and tolerance of the model file are the defaults; a choice made
// in the menu or the toolbar applies at the next Reset, or at Run when it changed.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/sim/simulator.hpp"

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMenu;
class QTimer;
class QToolBar;

namespace kt::render {
class LoadArrows;
}

namespace kt::ui {

class MainWindow;
class PlotsDock;
class SimulationWorker;

class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(MainWindow* window);
  ~SimulationController() override;

  /// The speed menu: factors of real time; 0 means as fast as possible.
  static const std::vector<double>& speedChoices();

  // ---- settings ----
  /// The options the next Run/Reset uses (the model file's, changed by the user).
  const kt::SimulatorOptions& pendingOptions() const { return pending_; }
  /// The options of the current simulator.
  const kt::SimulatorOptions& activeOptions() const { return active_; }
  void setSolver(const QString& name);
  void setIntegrator(const QString& name);
  void setStepSize(double seconds);
  /// False (and nothing changed) outside the run limits: from kt::kMinRunTolerance to below 1.
  bool setTolerance(double tolerance);
  /// Simulated seconds a Run lasts (immediate effect); ≤ 0 or untilStopped: no limit.
  void setDuration(double seconds);
  void setUntilStopped(bool untilStopped);
  double duration() const { return duration_; }
  bool untilStopped() const { return untilStopped_; }
  /// Factor of real time (immediate effect); 0 = as fast as possible.
  void setSpeed(double factor);
  double speed() const { return speed_; }

  // ---- state (GUI thread) ----
  bool hasSimulator() const;
  bool isRunning() const;
  /// Time of the newest sample shown (0 without a simulator).
  double simulationTime() const { return latest_.t; }
  /// The recorder, layout and tree of the current simulator; null without one. They stay valid
  /// until sessionStarted() or sessionEnded() is emitted.
  const kt::Recorder* recorder() const;
  const kt::SignalLayout* signalLayout() const;
  const kt::Tree* tree() const;
  /// The newest state and its full recorded row (every signal), as of the last poll.
  const kt::RecordedState& latestState() const { return latest_; }
  const std::vector<double>& latestRow() const { return latestRow_; }
  bool hasLatest() const { return haveLatest_; }
  /// The message of the last failed run or failed build (empty when none).
  const QString& errorMessage() const { return error_; }
  /// The run filled the memory it may record into and paused; Reset starts a new recording.
  bool recordingFull() const;
  /// Bytes of samples one run may record: KINETREE_RECORDING_LIMIT_MB when set, otherwise a
  /// quarter of the physical memory, at most 4 GiB.
  static std::size_t recordingLimitBytes();
  /// Rows a run may record within `limitBytes`, counted in whole chunks of the recorder (the
  /// memory it allocates), at least one chunk.
  static std::size_t recordingLimitRows(std::size_t limitBytes, const kt::Recorder& recorder);
  /// Output steps taken and nanoseconds spent in them since the simulator was built.
  double nanosecondsPerStep() const { return nsPerStep_; }
  double realTimeFactor() const { return realTimeFactor_; }

  /// The joint-load arrows of the 3D view (View ▸ Joint Loads); null before a model is open.
  render::LoadArrows* loadArrows() const { return arrows_.get(); }
  /// The plots dock (View ▸ Plots).
  PlotsDock* plotsDock() const { return plots_; }
  QMenu* menu() const { return menu_; }
  QToolBar* toolBar() const { return toolBar_; }

 public slots:
  void run();
  void pause();
  /// Pauses and advances one output interval.
  void step();
  /// Stops the worker and builds a new simulator from the current model and the pending options,
  /// paused at t = 0.
  void reset();
  /// Stops and joins the worker and drops the simulator (the window closes).
  void shutdown();
  /// One display-rate poll (the timer calls it; tests may call it directly).
  void poll();

 signals:
  /// A new simulator exists: readers of recorder() start over.
  void sessionStarted();
  /// The simulator is about to go away: drop pointers into recorder(), signalLayout(), tree().
  void sessionEnded();
  /// A poll found new samples (latestState()/latestRow() changed).
  void frame();
  void runningChanged(bool running);
  /// A run stopped on a failure (divergence); the message says when and what.
  void failed(const QString& message);

 private:
  void createActions();
  void createLoadMenu();
  /// What the status bar (brief) and the message box say when the recording is full.
  QString fullMessage(bool brief) const;
  /// Joint wrenches of latestRow() into the arrows, and a repaint.
  void updateArrows();
  void onModelReplaced();
  void onModelEdited();
  void rebuildArrows();
  bool rebuild();
  void stopWorker();
  void syncControls();
  void updateActions();
  void updateStatus(bool force);
  double effectiveDuration() const;

  MainWindow* window_;
  std::unique_ptr<SimulationWorker> worker_;
  kt::SimulatorOptions pending_;
  kt::SimulationSettings fileSettings_;  ///< the model's own settings when last applied
  kt::SimulatorOptions active_;
  double duration_ = 10.0;
  bool untilStopped_ = false;
  double speed_ = 1.0;
  bool wasRunning_ = false;
  bool syncing_ = false;

  kt::RecordedState latest_;
  std::vector<double> latestRow_;
  bool haveLatest_ = false;
  std::uint64_t shownGeneration_ = ~std::uint64_t{0};
  std::size_t shownRow_ = ~std::size_t{0};
  QString error_;
  bool fullReported_ = false;  ///< recordingFull() has been announced for this simulator

  // status bar figures, measured over windows of ~0.5 s
  QElapsedTimer statusClock_;
  qint64 statusWall_ = 0;
  double statusSim_ = 0.0;
  std::uint64_t statusSteps_ = 0;
  std::uint64_t statusNanos_ = 0;
  double nsPerStep_ = 0.0;
  double realTimeFactor_ = 0.0;

  std::unique_ptr<render::LoadArrows> arrows_;
  std::vector<std::array<int, 6>> loadColumns_;  ///< (nb) columns of load:<joint>.{mx,my,mz,fx,fy,fz}
  std::vector<kt::Vec6> wrench_;                 ///< (nb) scratch

  PlotsDock* plots_ = nullptr;
  QTimer* timer_ = nullptr;
  QMenu* menu_ = nullptr;
  QToolBar* toolBar_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QActionGroup* solverGroup_ = nullptr;
  QActionGroup* integratorGroup_ = nullptr;
  QActionGroup* speedGroup_ = nullptr;
  QAction* untilStoppedAction_ = nullptr;
  QComboBox* solverBox_ = nullptr;
  QComboBox* integratorBox_ = nullptr;
  QDoubleSpinBox* stepBox_ = nullptr;
  QLineEdit* toleranceEdit_ = nullptr;
  QDoubleSpinBox* durationBox_ = nullptr;
  QComboBox* speedBox_ = nullptr;
  QLabel* timeLabel_ = nullptr;
  QLabel* rateLabel_ = nullptr;
  QLabel* costLabel_ = nullptr;
};

}  // namespace kt::ui
