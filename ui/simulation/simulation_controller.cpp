// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/simulation_controller.hpp"

#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <stdexcept>

#include "core/dynamics/solver.hpp"
#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"
#include "ui/document/document.hpp"

namespace kt::ui {

const std::vector<double>& SimulationController::speedChoices() {
  static const std::vector<double> choices = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 0.0};
  return choices;
}

std::size_t SimulationController::recordingLimitBytes() {
  bool set = false;
  const int megabytes = qEnvironmentVariableIntValue("KINETREE_RECORDING_LIMIT_MB", &set);
  return kt::recordingLimitBytes(set ? megabytes : 0);
}

SimulationController::SimulationController(const Document& document, QObject* parent)
    : QObject(parent), document_(document) {
  setObjectName(QStringLiteral("simulationController"));
  timer_ = new QTimer(this);
  timer_->setInterval(16);
  timer_->setTimerType(Qt::PreciseTimer);
  connect(timer_, &QTimer::timeout, this, &SimulationController::poll);
  // While the session runs the document's model, the file and the unsaved state the exports name
  // are the document's: after a Save As they named the file it was opened from "with unsaved
  // changes", and a session made during an edit (before the undo stack counts it) "saved".
  const auto follow = [this] {
    const kt::Model* model = sessionModel();
    if (!model || outdated_) return;
    kt::Model ran = *model, current = document_.model();
    ran.sourceDirectory.clear();
    current.sourceDirectory.clear();
    if (!(ran == current)) return;
    sessionFile_ = document_.filePath();
    sessionUnsaved_ = document_.isModified();
  };
  connect(&document_, &Document::saved, this, follow);
  connect(&document_, &Document::modifiedChanged, this, follow);
}

SimulationController::~SimulationController() { stopLoop(); }

// ---- the model ----

bool SimulationController::sameDynamics(const kt::Model& a, const kt::Model& b) {
  return a.bodies == b.bodies && a.gravity == b.gravity && a.simulation == b.simulation;
}

QString SimulationController::modelName() const {
  const std::string& name = document_.model().name;
  const QString file = document_.filePath();
  return !name.empty() && name != "untitled" ? QString::fromStdString(name)
         : file.isEmpty()                    ? tr("untitled")
                                             : QFileInfo(file).fileName();
}

void SimulationController::adoptFileSettings() {
  const kt::SimulationSettings& settings = document_.model().simulation;
  fileSettings_ = settings;
  pending_ = kt::SimulatorOptions::fromSettings(settings);
  duration_ = settings.duration > 0.0 ? settings.duration : 10.0;  // "until stopped" stays the user's choice
  emit settingsChanged();
}

void SimulationController::modelReplaced(bool runnable) {
  runnable_ = runnable;
  blocker_ = document_.runBlocker();
  adoptFileSettings();
  rebuild();
}

void SimulationController::modelEdited(bool runnable) {
  // The run loop simulates its own copy of the old model. A run with something recorded is kept
  // (stopped, outdated) for scrubbing and export until the next Run or Reset; otherwise the
  // session starts over from the edited model's initial state. Nothing is shared with the loop,
  // so there is nothing to race.
  const bool hadRun = loop_ && latest_.t > 0.0;
  // The model's name or description alone changed (Save As names an untitled model after its
  // file): the run is that of the edited model, it goes on, and its label takes the new name.
  // Likewise when undo took the model back to the run's own: the run is current again.
  if (loop_ && runnable && runnable == runnable_ && sameDynamics(document_.model(), loop_->model())) {
    const bool back = outdated_;
    outdated_ = false;
    sessionName_ = modelName();
    // the window rebuilt its views for the edited model: they show the run's sample again
    emit shownSampleChanged();
    emit stateChanged();
    if (back) emit statusMessage(tr("The model is the run's own again: the run is current"), 10'000);
    return;
  }
  runnable_ = runnable;
  blocker_ = document_.runBlocker();
  // the model's default settings were edited: they apply now
  if (!(document_.model().simulation == fileSettings_)) adoptFileSettings();
  if (!hadRun) {
    rebuild();
    return;
  }
  loop_->setRunning(false);
  outdated_ = true;
  poll();
  // the window rebuilt its views for the edited model: they show the kept run's sample again
  readShownRow(loop_->recorder());
  emit shownSampleChanged();
  emit stateChanged();
  emit statusMessage(runnable_ ? tr("The model was edited: the recorded run (to t = %1 s) is kept for inspection and "
                                    "export; Run starts a new run of the edited model")
                                     .arg(latest_.t, 0, 'f', 3)
                               : tr("The model was edited: the recorded run is kept for inspection and export (the "
                                    "edited model cannot run: %1)")
                                     .arg(blocker_),
                     10'000);
}

// ---- settings ----

void SimulationController::setSolver(const QString& name) {
  if (!kt::isSolverName(name.toStdString())) return;
  pending_.solver = name.toStdString();
  emit settingsChanged();
}

void SimulationController::setIntegrator(const QString& name) {
  pending_.integrator = name.toStdString();
  emit settingsChanged();
}

void SimulationController::setStepSize(double seconds) {
  if (!(seconds > 0.0)) return;
  pending_.step = seconds;
  emit settingsChanged();
}

bool SimulationController::setTolerance(double tolerance) {
  // the limits of a model file's simulation.tolerance (core/sim/run_limits.hpp)
  if (!(tolerance >= kt::kMinRunTolerance && tolerance < 1.0)) return false;
  pending_.tolerance = tolerance;
  emit settingsChanged();
  return true;
}

void SimulationController::setDuration(double seconds) {
  duration_ = seconds;
  if (loop_) loop_->setDuration(effectiveDuration());
  emit settingsChanged();
}

void SimulationController::setUntilStopped(bool untilStopped) {
  untilStopped_ = untilStopped;
  if (loop_) loop_->setDuration(effectiveDuration());
  emit settingsChanged();
}

void SimulationController::setSpeed(double factor) {
  speed_ = factor > 0.0 ? factor : 0.0;
  if (loop_) loop_->setSpeed(speed_);
  emit settingsChanged();
}

// ---- state ----

const kt::Recorder* SimulationController::recorder() const { return loop_ ? &loop_->recorder() : nullptr; }
const kt::SignalLayout* SimulationController::signalLayout() const { return loop_ ? &loop_->signalLayout() : nullptr; }
const kt::Tree* SimulationController::tree() const { return loop_ ? &loop_->tree() : nullptr; }
const kt::Model* SimulationController::sessionModel() const { return loop_ ? &loop_->model() : nullptr; }

bool SimulationController::sessionFits(const kt::Tree& tree) const {
  if (!loop_) return false;
  const kt::Tree& t = loop_->tree();
  if (t.nb != tree.nb || t.nq != tree.nq || t.nv != tree.nv || t.parent != tree.parent) return false;
  for (int i = 0; i < t.nb; ++i)
    if (t.joints[static_cast<std::size_t>(i)].type != tree.joints[static_cast<std::size_t>(i)].type) return false;
  return true;
}

SimulationController::RunState SimulationController::runState() const {
  if (!loop_) return RunState::None;
  if (loop_->failed()) return RunState::Failed;
  if (loop_->full()) return RunState::RecordingFull;
  if (loop_->running()) return RunState::Running;
  // the duration, or the end of the motion tables a run "until stopped" stops at
  if (const double end = effectiveDuration(); end > 0.0 && latest_.t >= end - 0.5 * active_.step)
    return RunState::Finished;
  return latest_.t > 0.0 ? RunState::Paused : RunState::Ready;
}

QString SimulationController::runStateText(bool withTime) const {
  const QString t = QString::number(latest_.t, 'f', 3);
  QString text;
  switch (runState()) {
    case RunState::None: return {};
    case RunState::Ready: text = withTime ? tr("ready at t = 0") : tr("ready"); break;
    case RunState::Running: text = withTime ? tr("running, t = %1 s").arg(t) : tr("running"); break;
    case RunState::Paused: text = withTime ? tr("paused at t = %1 s").arg(t) : tr("paused"); break;
    case RunState::Finished: text = withTime ? tr("finished at t = %1 s").arg(t) : tr("finished"); break;
    case RunState::Failed: text = withTime ? tr("stopped at t = %1 s (failed)").arg(t) : tr("stopped (failed)"); break;
    case RunState::RecordingFull:
      text = withTime ? tr("stopped at t = %1 s (recording full)").arg(t) : tr("recording full");
      break;
  }
  return outdated_ ? tr("%1; model edited since").arg(text) : text;
}

double SimulationController::effectiveDuration() const {
  if (untilStopped_) return std::isfinite(tableEnd_) ? tableEnd_ : 0.0;
  return durationCovered() ? duration_ : tableEnd_;
}

bool SimulationController::durationCovered() const {
  return untilStopped_ || outputInterval_ <= 0.0 || kt::outputsWithin(duration_, outputInterval_, tableEndExact_);
}

std::string SimulationController::durationRefusal() const {
  if (durationCovered()) return {};
  return "the run of " + kt::formatSignificant(duration_, 6) + " s runs past the data: " + tableEndMessage_ +
         "; shorten the duration";
}

bool SimulationController::settingsPending() const {
  return loop_ && (pending_.solver != active_.solver || pending_.integrator != active_.integrator ||
                   pending_.step != active_.step || pending_.tolerance != active_.tolerance);
}

QString SimulationController::runLabel() const {
  if (!loop_) return {};
  const kt::SimulatorOptions& o = active_;
  const QString stepOrTolerance =
      o.integrator == "dopri5" ? tr("tol %1, output every %2 s").arg(o.tolerance, 0, 'g', 3).arg(o.step, 0, 'g', 6)
                               : tr("h = %1 s").arg(o.step, 0, 'g', 6);
  return QStringLiteral("%1 · %2 · %3, %4")
      .arg(sessionName_, QString::fromStdString(o.solver), QString::fromStdString(o.integrator), stepOrTolerance);
}

void SimulationController::showLive() {
  live_ = true;
  if (!loop_) return;
  readShownRow(loop_->recorder());
  emit shownSampleChanged();
}

void SimulationController::showTime(double t) {
  live_ = false;
  chosenTime_ = t;
  if (!loop_) return;
  readShownRow(loop_->recorder());
  emit shownSampleChanged();
}

void SimulationController::readShownRow(const kt::Recorder& rec) {
  if (latest_.generation != seenGeneration_) return;  // nothing recorded in this generation yet
  const std::size_t row = live_ ? latest_.row : rec.rowAtTime(chosenTime_);
  shown_.values.resize(static_cast<std::size_t>(rec.width()));
  if (rec.copyRows(row, row + 1, shown_.values.data()) != 1) {
    shown_.values.clear();
    return;
  }
  shown_.row = row;
  loop_->signalLayout().positionsFromRow(shown_.values.data(), shown_.q);
  const kt::Tree& tree = *this->tree();
  if (shown_.poses.X_0.size() != static_cast<std::size_t>(tree.nb)) shown_.poses.resize(tree);
  kt::computePositionKinematics(tree, shown_.q, shown_.poses);
}

// ---- commands ----

void SimulationController::stopLoop() {
  if (!loop_) return;
  emit sessionEnded();
  loop_->quit();
  thread_.join();
  loop_.reset();
  outdated_ = false;
  shown_ = ShownSample();
  latest_ = kt::RecordedState();
  seenGeneration_ = ~std::uint64_t{0};
  seenRow_ = ~std::size_t{0};
  interactionError_.clear();
  events_.clear();
  if (wasRunning_) {
    wasRunning_ = false;
    emit runningChanged(false);
  }
}

bool SimulationController::rebuild() {
  stopLoop();
  timer_->stop();
  // the last run's failure or full recording is old news now (an edit's message follows this)
  if (fullAnnounced_ || !error_.isEmpty()) emit statusMessage(QString(), 0);
  fullAnnounced_ = false;
  error_.clear();
  live_ = true;
  if (!runnable_) {
    error_ = blocker_;
    emit stateChanged();
    return false;
  }
  std::unique_ptr<kt::Simulator> sim;
  try {
    // every session takes interactions: its layout has the applied: signals (an export leaves
    // them out of a run that had none)
    kt::SimulatorOptions options = pending_;
    options.interactions = true;
    sim = std::make_unique<kt::Simulator>(document_.model(), options);
    // a run past the end of a motion or drive table would extrapolate it: refused, as the CLI does
    // the last output within the tables: where "until stopped" ends (outputs are k · interval)
    const double h = sim->outputInterval();
    tableEnd_ = std::isfinite(sim->tableEnd()) ? std::floor(sim->tableEnd() / h + 1e-9) * h : sim->tableEnd();
    tableEndExact_ = sim->tableEnd();
    outputInterval_ = h;
    tableEndMessage_ = std::isfinite(tableEndExact_) ? sim->tableEndMessage() : std::string();
    if (const std::string refusal = durationRefusal(); !refusal.empty()) throw std::invalid_argument(refusal);
    // Room for the start of the run up front (at most 8 MB: chunks are zero-filled when made);
    // later chunks take the recorder's chunk lock once each.
    const double span = untilStopped_ ? 60.0 : duration_;
    const double cap = 1.0e6 / std::max(1, sim->recorder().width());
    sim->recorder().reserve(static_cast<std::size_t>(std::min(span / sim->outputInterval() + 2.0, cap)));
  } catch (const std::exception& e) {
    error_ = tr("Cannot simulate: %1").arg(QString::fromUtf8(e.what()));
    emit statusMessage(error_, 0);
    emit stateChanged();
    return false;
  }
  active_ = pending_;
  active_.interactions = true;
  nextInteractionId_ = 1;
  outdated_ = false;
  sessionFile_ = document_.filePath();
  sessionName_ = modelName();
  sessionUnsaved_ = document_.isModified();
  const std::size_t maxRows = kt::recordingLimitRows(recordingLimitBytes(), sim->recorder());
  loop_ = std::make_unique<kt::RunLoop>(std::move(sim), speed_, effectiveDuration(), maxRows);
  thread_ = std::thread([loop = loop_.get()] { loop->run(); });
  emit sessionStarted();
  timer_->start();
  poll();  // shows the t = 0 sample
  emit stateChanged();
  return true;
}

void SimulationController::run() {
  if (recordingFull() && !outdated_) {  // Run is disabled then; a shortcut or script still lands here
    emit recordingFilled();
    return;
  }
  // a duration set past the session's tables after it ended there: refused as a new session would
  // be, and the run that ended stays
  if (loop_ && !outdated_ && !settingsPending()) {
    if (const std::string refusal = durationRefusal(); !refusal.empty()) {
      emit statusMessage(tr("Cannot simulate: %1").arg(QString::fromStdString(refusal)), 10'000);
      return;
    }
  }
  if (!loop_ || outdated_ || loop_->failed() || settingsPending() || runState() == RunState::Finished) {
    if (!rebuild()) {
      if (!error_.isEmpty()) emit statusMessage(error_, 10'000);
      return;
    }
  }
  // a run shows what it simulates: the views leave a time chosen on the timeline for the newest sample
  if (!live_) showLive();
  loop_->setRunning(true);
  poll();
}

void SimulationController::pause() {
  if (!loop_) return;
  loop_->setRunning(false);
  poll();
}

void SimulationController::step() {
  if (!loop_ || loop_->failed() || outdated_) return;
  if (!live_) showLive();  // the step taken is what the views show, as for Run
  loop_->setRunning(false);
  loop_->requestStep();
  emit stateChanged();
}

void SimulationController::reset() { rebuild(); }

void SimulationController::shutdown() {
  timer_->stop();
  stopLoop();
  emit stateChanged();
}

void SimulationController::poll() {
  if (!loop_) return;
  // read before the newest sample: once full, that sample is the last one (the message names it)
  const bool full = loop_->full();
  const kt::Recorder& rec = loop_->recorder();
  if (rec.latest(latest_) && (latest_.generation != seenGeneration_ || latest_.row != seenRow_)) {
    seenGeneration_ = latest_.generation;
    seenRow_ = latest_.row;
    readShownRow(rec);
    emit shownSampleChanged();
  }

  const bool running = loop_->running();
  if (running != wasRunning_) {
    wasRunning_ = running;
    emit runningChanged(running);
    emit stateChanged();
  }
  if (full && !fullAnnounced_) {
    fullAnnounced_ = true;
    emit recordingFilled();
    emit stateChanged();
  }
  // an interaction the run could not take (a pose of a joint a motion drives, …): said once
  if (std::string refused = loop_->interactionError(); refused != interactionError_) {
    interactionError_ = std::move(refused);
    if (!interactionError_.empty())
      emit statusMessage(tr("The run did not take that: %1").arg(QString::fromStdString(interactionError_)), 8000);
  }
  if (loop_->failed() && error_.isEmpty()) {
    error_ = QString::fromStdString(loop_->error());
    emit failed(error_);
    emit stateChanged();
  }
}

bool SimulationController::interact(const kt::InteractionEvent& event) {
  if (!loop_ || outdated_ || loop_->failed() || loop_->full()) return false;
  loop_->interact(event);
  return true;
}

const std::vector<kt::InteractionEvent>& SimulationController::events() const {
  if (loop_) loop_->copyEvents(events_.size(), events_);  // the new ones only
  return events_;
}

}  // namespace kt::ui
