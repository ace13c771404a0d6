// SPDX-License-Identifier: BSD-3-Clause
// The simulation of the open model, on its own thread (docs/architecture.md, "Data flow of a run").
//
// The controller owns a kt::RunLoop (core/sim/run_loop.hpp: stepping, pacing, commands, the
// stops) and the std::thread that runs it, and publishes what the views need on the GUI thread:
//  - a ~60 Hz poll (a QTimer) reads the Recorder: the newest sample of the run, and the shown
//    sample, which is the newest (live) or the one at a chosen time (showTime()); shownSampleChanged() says the
//    shown sample changed, and the views (3D view, load arrows, plots) read it or the Recorder;
//  - sessionStarted() / sessionEnded() bracket the life of a simulator (a new model, an edit,
//    Reset, Run after a settings change, closing);
//  - runningChanged(), stateChanged(), failed(), recordingFilled(), settingsChanged() and
//    statusMessage() let
//    the menu, the toolbar and the status bar follow.
// It builds no menu and does not know the main window: the window tells it when the model was
// replaced or edited (modelReplaced(), modelEdited()).
//
// The solver, integrator, step and tolerance of the model file are the defaults; a choice made
// with set…() applies at the next Reset, or at Run when it changed.
//
// An edit of the model keeps a recorded run: the session stops and is marked outdated() (it
// belongs to the model before the edit) and stays available for scrubbing and export until Run
// or Reset starts a new one from the edited model. A session with nothing recorded beyond t = 0
// is simply rebuilt.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/sim/run_loop.hpp"

class QTimer;

namespace kt::ui {

class Document;

/// The sample the views show, read once per change of it: its row of the recording, every
/// recorded value, its q and the world poses of the session's bodies at that q (computed once
/// here for the 3D view, the load arrows and the free-body diagram).
struct ShownSample {
  std::size_t row = ~std::size_t{0};
  std::vector<double> values;  ///< the whole recorded row (values[0] is t)
  Eigen::VectorXd q;
  kt::Kinematics poses;  ///< X_0 of every body of the session's tree at q
  double time() const { return values.empty() ? 0.0 : values[0]; }
};

class SimulationController : public QObject {
  Q_OBJECT

 public:
  explicit SimulationController(const Document& document, QObject* parent = nullptr);
  ~SimulationController() override;

  /// The speed choices: factors of real time; 0 means as fast as possible.
  static const std::vector<double>& speedChoices();
  /// Bytes of samples one run may record: KINETREE_RECORDING_LIMIT_MB when set, otherwise a
  /// quarter of the physical memory, at most 4 GiB (kt::recordingLimitBytes).
  static std::size_t recordingLimitBytes();

  // ---- the model (the window calls these after it finalized the document) ----
  /// Another model replaced the document: its file's settings become the defaults; a new
  /// simulator is built when `runnable`.
  void modelReplaced(bool runnable);
  /// The document was edited: the run stops and starts over from the edited model's initial
  /// state (a statusMessage() says so when a run was under way). An edit of the model's name or
  /// description alone leaves the run going; its label takes the new name.
  void modelEdited(bool runnable);
  /// Why the model cannot run (empty when it can, or when it is merely empty).
  bool canRun() const { return runnable_; }
  const QString& runBlocker() const { return blocker_; }

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

  // ---- state (GUI thread, as of the last poll) ----
  /// What the session is doing: no session, ready at t = 0, running, paused, finished (the
  /// duration was reached), stopped by a failure, paused on a full recording.
  enum class RunState { None, Ready, Running, Paused, Finished, Failed, RecordingFull };
  RunState runState() const;
  /// "finished at t = 10.000 s", "paused at t = 2.500 s", … (empty without a session); without
  /// the time: "finished", "paused", …
  QString runStateText(bool withTime = true) const;
  /// The solver, integrator, step or tolerance chosen for the next run differ from the run's.
  bool settingsPending() const;
  /// What produced the run: "space_robot · aba · rk4, h = 0.002 s" (empty without a session).
  QString runLabel() const;
  /// The session's recording belongs to the model as it was before an edit (see above).
  bool outdated() const { return outdated_; }
  /// The model file the session's model came from (absolute, ":/examples/…" for an embedded
  /// example, empty for a new model), and whether the document had unsaved changes then.
  const QString& sessionFile() const { return sessionFile_; }
  bool sessionUnsaved() const { return sessionUnsaved_; }
  /// The session's model (its simulator's copy); null without a session.
  const kt::Model* sessionModel() const;
  /// The session's recorded q and loads fit `tree` (the same joints, in the same places): the
  /// views of that tree can show them. False without a session.
  bool sessionFits(const kt::Tree& tree) const;
  bool hasSimulator() const { return loop_ != nullptr; }
  bool isRunning() const { return loop_ && loop_->running(); }
  bool hasFailed() const { return loop_ && loop_->failed(); }
  /// The run filled the memory it may record into and paused; Reset starts a new recording.
  bool recordingFull() const { return loop_ && loop_->full(); }
  /// The message of the last failed run or failed build (empty when none).
  const QString& errorMessage() const { return error_; }
  /// The recorder, layout and tree of the current simulator; null without one. They stay valid
  /// until sessionStarted() or sessionEnded() is emitted.
  const kt::Recorder* recorder() const;
  const kt::SignalLayout* signalLayout() const;
  const kt::Tree* tree() const;
  /// The newest sample of the run (time, state, row index), and its time (0 without a simulator).
  const kt::RecordedState& latestState() const { return latest_; }
  double simulationTime() const { return latest_.t; }
  /// Output steps the run took and the wall time spent in them (ns), since the simulator was built.
  std::uint64_t steps() const { return loop_ ? loop_->steps() : 0; }
  std::uint64_t stepNanoseconds() const { return loop_ ? loop_->nanoseconds() : 0; }

  // ---- the shown sample: the views read this ----
  /// Follow the newest sample (the default; a new simulator, Run and Step start so).
  void showLive();
  /// Show the recorded sample at (at or before) time t until showLive(), Run or Step.
  void showTime(double t);
  bool showsLive() const { return live_; }
  /// The shown sample (valid while hasShownSample()), and parts of it.
  const ShownSample& shownSample() const { return shown_; }
  // ---- interactions (docs/interaction.md) ----
  /// Applies a push, a drag or a release to the run at its next step boundary (at once when
  /// paused). False, and nothing applied, without a session that can go on (none, outdated by an
  /// edit, failed or full).
  bool interact(const kt::InteractionEvent& event);
  /// The interactions the session's run applied so far, with their times (empty without a
  /// session). Each is copied from the run once; the reference holds until the next call.
  const std::vector<kt::InteractionEvent>& events() const;
  std::size_t eventCount() const { return loop_ ? loop_->eventCount() : 0; }
  /// A fresh id for an interaction of the session (the drags and the pushes share them).
  int newInteractionId() { return nextInteractionId_++; }
  bool hasShownSample() const { return !shown_.values.empty(); }
  std::size_t shownIndex() const { return shown_.row; }
  double shownTime() const { return shown_.time(); }
  const std::vector<double>& shownRow() const { return shown_.values; }
  const Eigen::VectorXd& shownPositions() const { return shown_.q; }

 public slots:
  void run();
  void pause();
  /// Pauses and advances one output interval.
  void step();
  /// Stops the run and builds a new simulator from the current model and the pending options,
  /// paused at t = 0.
  void reset();
  /// Stops and joins the simulation thread and drops the simulator (the window closes).
  void shutdown();
  /// One display-rate poll (the timer calls it; tests may call it directly).
  void poll();

 signals:
  /// A new simulator exists: readers of recorder() start over.
  void sessionStarted();
  /// The simulator is about to go away: drop pointers into recorder(), signalLayout(), tree().
  void sessionEnded();
  /// The shown sample changed (shownRow(), shownPositions()), or the run has new samples.
  void shownSampleChanged();
  void runningChanged(bool running);
  /// Anything the Run/Pause/Step/Reset actions depend on may have changed (a build, a stop, the
  /// running state, a failure, a full recording).
  void stateChanged();
  /// A run stopped on a failure (divergence); the message says when and what.
  void failed(const QString& message);
  /// The run filled the memory it may record into (emitted again when Run is refused for it).
  void recordingFilled();
  /// The pending settings, the duration or the speed changed.
  void settingsChanged();
  /// Something the status bar should say for `timeoutMs` (0: until replaced); empty: clear it.
  void statusMessage(const QString& text, int timeoutMs);

 private:
  void readShownRow(const kt::Recorder& rec);
  bool rebuild();
  void stopLoop();
  /// "Until stopped" ends where the motion and drive tables end (docs/motion.md); 0 = no end. So
  /// does a duration past the session's tables (set after the session was built): the run never
  /// extrapolates them, and Run says why it does not go on (durationRefusal()).
  double effectiveDuration() const;
  /// The session's tables cover a run of the duration set (or it runs until stopped, or has none).
  bool durationCovered() const;
  /// Why the session cannot run for the duration set ("the run of 7 s runs past the data: …"), or
  /// empty when it can.
  std::string durationRefusal() const;
  void adoptFileSettings();
  /// The models simulate alike: they differ at most in name, description and source folder.
  static bool sameDynamics(const kt::Model& a, const kt::Model& b);
  /// The document's model as a run label names it: its name, or its file's.
  QString modelName() const;

  int nextInteractionId_ = 1;
  const Document& document_;
  std::string interactionError_;                      ///< the run loop's last refused interaction, once shown
  mutable std::vector<kt::InteractionEvent> events_;  ///< the session's applied interactions so far
  std::unique_ptr<kt::RunLoop> loop_;
  std::thread thread_;  ///< runs loop_->run()
  bool runnable_ = false;
  QString blocker_;
  kt::SimulatorOptions pending_;
  kt::SimulationSettings fileSettings_;  ///< the model's own settings when last applied
  kt::SimulatorOptions active_;
  double duration_ = 10.0;
  double tableEnd_ = std::numeric_limits<double>::infinity();  ///< of the session's simulator: its last output within
  double tableEndExact_ = std::numeric_limits<double>::infinity();  ///< Simulator::tableEnd() of the session
  double outputInterval_ = 0.0;                                     ///< of the session's simulator
  std::string tableEndMessage_;                                     ///< Simulator::tableEndMessage() of the session
  bool untilStopped_ = false;
  double speed_ = 1.0;
  bool wasRunning_ = false;
  bool fullAnnounced_ = false;  ///< recordingFilled() was emitted for this simulator
  bool outdated_ = false;       ///< the model was edited after this session was built
  QString sessionName_;         ///< the model's name when the session was built
  QString sessionFile_;
  bool sessionUnsaved_ = false;

  kt::RecordedState latest_;
  std::uint64_t seenGeneration_ = ~std::uint64_t{0};
  std::size_t seenRow_ = ~std::size_t{0};
  bool live_ = true;
  double chosenTime_ = 0.0;
  ShownSample shown_;
  QString error_;
  QTimer* timer_ = nullptr;
};

}  // namespace kt::ui
