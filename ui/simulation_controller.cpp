#include "ui/simulation_controller.hpp"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QEvent>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/sim/run_limits.hpp"
#include "render/load_arrows.hpp"
#include "render/scene_view.hpp"
#include "ui/document/document.hpp"
#include "ui/main_window.hpp"
#include "ui/plots_dock.hpp"

namespace kt::ui {

// ---------------------------------------------------------------------------------------------
// The worker: a Simulator stepped on its own thread.

class SimulationWorker {
 public:
  /// Takes ownership of `sim` (built on the GUI thread; from here on only the worker touches its
  /// non-const parts). Starts paused.
  /// The run pauses by itself once the recorder holds maxRows rows.
  SimulationWorker(std::unique_ptr<kt::Simulator> sim, double speed, double duration, std::size_t maxRows)
      : sim_(std::move(sim)), maxRows_(maxRows), speed_(speed), duration_(duration) {
    thread_ = std::thread([this] { loop(); });
  }

  ~SimulationWorker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
      commandSeq_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    thread_.join();
  }

  SimulationWorker(const SimulationWorker&) = delete;
  SimulationWorker& operator=(const SimulationWorker&) = delete;

  void setRunning(bool running) {
    command([&] {
      running_ = running;
      runningFlag_.store(running, std::memory_order_release);
    });
  }
  void requestStep() {
    command([&] { ++stepRequests_; });
  }
  void setSpeed(double speed) {
    command([&] { speed_ = speed; });
  }
  void setDuration(double duration) {
    command([&] { duration_ = duration; });
  }

  bool running() const { return runningFlag_.load(std::memory_order_acquire); }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  /// The recorder reached maxRows: the run paused and takes no more steps.
  bool full() const { return full_.load(std::memory_order_acquire); }
  std::string error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }
  std::uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }
  std::uint64_t nanoseconds() const { return nanos_.load(std::memory_order_relaxed); }

  /// The parts other threads may read while the worker runs (see simulator.hpp).
  const kt::Recorder& recorder() const { return static_cast<const kt::Simulator&>(*sim_).recorder(); }
  const kt::SignalLayout& signalLayout() const { return sim_->signalLayout(); }
  const kt::Tree& tree() const { return sim_->tree(); }

 private:
  template <class F>
  void command(F&& change) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      change();
      commandSeq_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
  }

  // Under mutex_: the run stopped by itself (duration reached or failure).
  void stopLocked() {
    running_ = false;
    runningFlag_.store(false, std::memory_order_release);
    commandSeq_.fetch_add(1, std::memory_order_release);
  }

  bool stepOnce() {
    if (sim_->recorder().size() >= maxRows_) {  // the memory a run may record into is used up
      std::lock_guard<std::mutex> lock(mutex_);
      full_.store(true, std::memory_order_release);
      stepRequests_ = 0;
      stopLocked();
      return false;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = sim_->step();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    nanos_.fetch_add(static_cast<std::uint64_t>(ns), std::memory_order_relaxed);
    steps_.fetch_add(1, std::memory_order_relaxed);
    if (ok) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = sim_->error();
    failed_.store(true, std::memory_order_release);
    stepRequests_ = 0;
    stopLocked();
    return false;
  }

  void loop() {
    using Clock = std::chrono::steady_clock;
    std::uint64_t seen = ~std::uint64_t{0};
    bool running = false;
    double speed = 1.0, duration = 0.0;
    int pendingSteps = 0;
    Clock::time_point anchorWall = Clock::now();
    double anchorSim = 0.0;
    const double dt = sim_->outputInterval();

    for (;;) {
      if (commandSeq_.load(std::memory_order_acquire) != seen) {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = commandSeq_.load(std::memory_order_relaxed);
        if (quit_) return;
        running = running_;
        speed = speed_;
        duration = duration_;
        pendingSteps += stepRequests_;
        stepRequests_ = 0;
        // Pace from here on (a speed change or a resume must not make up for lost time).
        anchorWall = Clock::now();
        anchorSim = sim_->time();
      }
      if (failed_.load(std::memory_order_relaxed) || full_.load(std::memory_order_relaxed)) {
        pendingSteps = 0;
        if (running) {  // a Run that crossed the failure or the full recording: it stays stopped
          std::lock_guard<std::mutex> lock(mutex_);
          stopLocked();
          running = false;
        }
      }

      if (pendingSteps > 0) {
        --pendingSteps;
        stepOnce();
        continue;
      }
      if (!running || failed_.load(std::memory_order_relaxed) || full_.load(std::memory_order_relaxed)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return commandSeq_.load(std::memory_order_relaxed) != seen; });
        continue;
      }
      if (duration > 0.0 && sim_->time() >= duration - 0.5 * dt) {
        std::lock_guard<std::mutex> lock(mutex_);
        stopLocked();
        continue;
      }
      if (speed > 0.0) {
        const double wall = std::chrono::duration<double>(Clock::now() - anchorWall).count();
        const double target = anchorSim + speed * wall;
        const double ahead = sim_->time() + dt - target;  // simulated seconds the next sample is early
        if (ahead > 0.0) {
          const double waitSeconds = std::min(ahead / speed, 0.005);
          std::unique_lock<std::mutex> lock(mutex_);
          wake_.wait_for(lock, std::chrono::duration<double>(waitSeconds),
                         [&] { return commandSeq_.load(std::memory_order_relaxed) != seen; });
          continue;
        }
        if (-ahead > 0.25 * speed) {  // far behind (slow model or a stall): do not race to catch up
          anchorWall = Clock::now();
          anchorSim = sim_->time();
        }
      }
      stepOnce();
    }
  }

  std::unique_ptr<kt::Simulator> sim_;
  std::size_t maxRows_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  // commands, under mutex_
  bool quit_ = false;
  bool running_ = false;
  int stepRequests_ = 0;
  double speed_ = 1.0;
  double duration_ = 0.0;
  std::string error_;
  // published
  std::atomic<std::uint64_t> commandSeq_{0};
  std::atomic<bool> runningFlag_{false};
  std::atomic<bool> failed_{false};
  std::atomic<bool> full_{false};
  std::atomic<std::uint64_t> steps_{0};
  std::atomic<std::uint64_t> nanos_{0};
};

// ---------------------------------------------------------------------------------------------

namespace {

bool sameOptions(const kt::SimulatorOptions& a, const kt::SimulatorOptions& b) {
  return a.solver == b.solver && a.integrator == b.integrator && a.step == b.step && a.tolerance == b.tolerance;
}

QString speedLabel(double factor) {
  if (factor <= 0.0) return SimulationController::tr("As fast as possible");
  if (factor == 1.0) return SimulationController::tr("Real time");
  return SimulationController::tr("×%1").arg(factor);
}

}  // namespace

const std::vector<double>& SimulationController::speedChoices() {
  static const std::vector<double> choices = {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 0.0};
  return choices;
}

SimulationController::SimulationController(MainWindow* window) : QObject(window), window_(window) {
  setObjectName(QStringLiteral("simulationController"));
  createActions();
  createLoadMenu();
  plots_ = new PlotsDock(this, window_);
  window_->addDockWidget(Qt::BottomDockWidgetArea, plots_);
  plots_->hide();  // View ▸ Plots (Ctrl+Shift+P) shows it; a saved window state restores it
  plots_->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  window_->viewMenu()->addAction(plots_->toggleViewAction());
  connect(window_, &MainWindow::selectionChanged, plots_,
          [this](int, int treeIndex) { plots_->setSelectedJoint(treeIndex); });
  timer_ = new QTimer(this);
  timer_->setInterval(16);
  timer_->setTimerType(Qt::PreciseTimer);
  connect(timer_, &QTimer::timeout, this, &SimulationController::poll);
  connect(window_, &MainWindow::modelReplaced, this, &SimulationController::onModelReplaced);
  connect(window_, &MainWindow::modelEdited, this, &SimulationController::onModelEdited);
  connect(window_, &MainWindow::closing, this, &SimulationController::shutdown);
  statusClock_.start();
  updateActions();
}

SimulationController::~SimulationController() {
  worker_.reset();
  arrows_.reset();  // the view (our parent's child) still exists: QObject children go after us
}

void SimulationController::createActions() {
  QStyle* style = window_->style();
  menu_ = window_->addMenuBeforeHelp(tr("&Simulation"));
  toolBar_ = window_->addToolBar(tr("Simulation"));
  toolBar_->setObjectName(QStringLiteral("simulationToolBar"));

  runAction_ =
      menu_->addAction(style->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this, &SimulationController::run);
  runAction_->setShortcut(Qt::Key_F5);
  runAction_->setStatusTip(tr("Start or continue the simulation"));
  pauseAction_ =
      menu_->addAction(style->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this, &SimulationController::pause);
  pauseAction_->setShortcut(Qt::Key_F6);
  pauseAction_->setStatusTip(tr("Pause the simulation"));
  stepAction_ = menu_->addAction(style->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), this,
                                 &SimulationController::step);
  stepAction_->setShortcut(Qt::Key_F10);
  stepAction_->setStatusTip(tr("Advance one output interval"));
  resetAction_ = menu_->addAction(style->standardIcon(QStyle::SP_MediaSkipBackward), tr("R&eset"), this,
                                  &SimulationController::reset);
  resetAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  resetAction_->setStatusTip(tr("Back to t = 0 with the chosen solver, integrator, step and tolerance"));
  runAction_->setObjectName(QStringLiteral("actionRun"));
  pauseAction_->setObjectName(QStringLiteral("actionPause"));
  stepAction_->setObjectName(QStringLiteral("actionStep"));
  resetAction_->setObjectName(QStringLiteral("actionReset"));
  toolBar_->addAction(runAction_);
  toolBar_->addAction(pauseAction_);
  toolBar_->addAction(stepAction_);
  toolBar_->addAction(resetAction_);
  toolBar_->addSeparator();
  menu_->addSeparator();

  // Solver: every registry entry, with its one-line description.
  QMenu* solverMenu = menu_->addMenu(tr("S&olver"));
  solverMenu->setToolTipsVisible(true);
  solverGroup_ = new QActionGroup(this);
  solverBox_ = new QComboBox;
  solverBox_->setObjectName(QStringLiteral("solverBox"));
  solverBox_->setToolTip(tr("Solver (applies at the next Run or Reset)"));
  for (const kt::SolverInfo& info : kt::solverRegistry()) {
    const QString name = QString::fromStdString(info.name);
    const QString description = QString::fromStdString(info.description);
    QAction* a = solverMenu->addAction(name);
    a->setCheckable(true);
    a->setData(name);
    a->setToolTip(description);
    a->setStatusTip(description);
    solverGroup_->addAction(a);
    solverBox_->addItem(name, name);
    solverBox_->setItemData(solverBox_->count() - 1, description, Qt::ToolTipRole);
    solverBox_->setItemData(solverBox_->count() - 1, description, Qt::StatusTipRole);
  }
  connect(solverGroup_, &QActionGroup::triggered, this, [this](QAction* a) { setSolver(a->data().toString()); });
  connect(solverBox_, &QComboBox::activated, this,
          [this](int index) { setSolver(solverBox_->itemData(index).toString()); });

  QMenu* integratorMenu = menu_->addMenu(tr("&Integrator"));
  integratorGroup_ = new QActionGroup(this);
  integratorBox_ = new QComboBox;
  integratorBox_->setObjectName(QStringLiteral("integratorBox"));
  integratorBox_->setToolTip(tr("Integrator (applies at the next Run or Reset)"));
  for (const std::string& n : kt::integratorNames()) {
    const QString name = QString::fromStdString(n);
    QAction* a = integratorMenu->addAction(name);
    a->setCheckable(true);
    a->setData(name);
    integratorGroup_->addAction(a);
    integratorBox_->addItem(name, name);
  }
  connect(integratorGroup_, &QActionGroup::triggered, this,
          [this](QAction* a) { setIntegrator(a->data().toString()); });
  connect(integratorBox_, &QComboBox::activated, this,
          [this](int index) { setIntegrator(integratorBox_->itemData(index).toString()); });

  menu_->addAction(tr("Step Si&ze…"), this, [this] {
    bool ok = false;
    const double h = QInputDialog::getDouble(window_, tr("Step Size"), tr("Step (s):"), pending_.step, 1e-6, 1.0, 6,
                                             &ok, Qt::WindowFlags(), 1e-4);
    if (ok) setStepSize(h);
  });
  menu_->addAction(tr("&Tolerance…"), this, [this] {
    bool ok = false;
    const QString text = QInputDialog::getText(window_, tr("Tolerance"), tr("Relative tolerance (dopri5):"),
                                               QLineEdit::Normal, QString::number(pending_.tolerance, 'g', 3), &ok);
    if (!ok) return;
    bool parsed = false;
    const double tol = text.toDouble(&parsed);
    if (!parsed || !setTolerance(tol))
      QMessageBox::warning(window_, tr("Tolerance"),
                           tr("A relative tolerance from %1 to below 1 is needed (smaller ones are below the "
                              "rounding of a double); got '%2'.")
                               .arg(kt::kMinRunTolerance)
                               .arg(text));
  });
  menu_->addSeparator();
  menu_->addAction(tr("&Duration…"), this, [this] {
    bool ok = false;
    const double d =
        QInputDialog::getDouble(window_, tr("Duration"), tr("Simulated time (s):"), duration_, 0.001, 1e6, 3, &ok);
    if (ok) {
      setDuration(d);
      setUntilStopped(false);
    }
  });
  untilStoppedAction_ = menu_->addAction(tr("Run &Until Stopped"));
  untilStoppedAction_->setCheckable(true);
  connect(untilStoppedAction_, &QAction::toggled, this, &SimulationController::setUntilStopped);

  QMenu* speedMenu = menu_->addMenu(tr("Spee&d"));
  speedGroup_ = new QActionGroup(this);
  speedBox_ = new QComboBox;
  speedBox_->setObjectName(QStringLiteral("speedBox"));
  speedBox_->setToolTip(tr("Speed relative to real time"));
  for (double f : speedChoices()) {
    QAction* a = speedMenu->addAction(speedLabel(f));
    a->setCheckable(true);
    a->setData(f);
    speedGroup_->addAction(a);
    speedBox_->addItem(speedLabel(f), f);
  }
  connect(speedGroup_, &QActionGroup::triggered, this, [this](QAction* a) { setSpeed(a->data().toDouble()); });
  connect(speedBox_, &QComboBox::activated, this,
          [this](int index) { setSpeed(speedBox_->itemData(index).toDouble()); });

  stepBox_ = new QDoubleSpinBox;
  stepBox_->setObjectName(QStringLiteral("stepBox"));
  stepBox_->setDecimals(6);
  stepBox_->setRange(1e-6, 1.0);
  stepBox_->setSingleStep(1e-4);
  stepBox_->setSuffix(QStringLiteral(" s"));
  stepBox_->setToolTip(tr("Step (fixed-step integrators) and output interval"));
  connect(stepBox_, &QDoubleSpinBox::valueChanged, this, [this](double h) {
    if (!syncing_) setStepSize(h);
  });
  toleranceEdit_ = new QLineEdit;
  toleranceEdit_->setObjectName(QStringLiteral("toleranceEdit"));
  toleranceEdit_->setValidator(new QDoubleValidator(kt::kMinRunTolerance, 1.0, 15, toleranceEdit_));
  toleranceEdit_->setMaximumWidth(70);
  toleranceEdit_->setToolTip(tr("Relative tolerance of dopri5"));
  connect(toleranceEdit_, &QLineEdit::editingFinished, this, [this] {
    bool ok = false;
    const double tol = toleranceEdit_->text().toDouble(&ok);
    if (ok && setTolerance(tol)) return;
    // refused (1 passes the validator, not the run limits): say why and show the value in use
    QToolTip::showText(toleranceEdit_->mapToGlobal(QPoint(0, toleranceEdit_->height())),
                       tr("A relative tolerance from %1 to below 1 is needed").arg(kt::kMinRunTolerance),
                       toleranceEdit_);
    syncControls();
  });
  durationBox_ = new QDoubleSpinBox;
  durationBox_->setObjectName(QStringLiteral("durationBox"));
  durationBox_->setDecimals(3);
  durationBox_->setRange(0.0, 1e6);
  durationBox_->setSuffix(QStringLiteral(" s"));
  durationBox_->setSpecialValueText(tr("until stopped"));
  durationBox_->setToolTip(tr("Simulated time a run lasts (0: until stopped)"));
  connect(durationBox_, &QDoubleSpinBox::valueChanged, this, [this](double d) {
    if (syncing_) return;
    if (d <= 0.0) {
      setUntilStopped(true);
    } else {
      setDuration(d);
      setUntilStopped(false);
    }
  });

  toolBar_->addWidget(new QLabel(tr(" Solver ")));
  toolBar_->addWidget(solverBox_);
  toolBar_->addWidget(new QLabel(tr(" Integrator ")));
  toolBar_->addWidget(integratorBox_);
  toolBar_->addWidget(new QLabel(tr(" Step ")));
  toolBar_->addWidget(stepBox_);
  toolBar_->addWidget(new QLabel(tr(" Tol ")));
  toolBar_->addWidget(toleranceEdit_);
  toolBar_->addWidget(new QLabel(tr(" Duration ")));
  toolBar_->addWidget(durationBox_);
  toolBar_->addWidget(new QLabel(tr(" Speed ")));
  toolBar_->addWidget(speedBox_);

  timeLabel_ = new QLabel;
  timeLabel_->setObjectName(QStringLiteral("simTimeLabel"));
  timeLabel_->setToolTip(tr("Simulated time"));
  rateLabel_ = new QLabel;
  rateLabel_->setObjectName(QStringLiteral("realTimeFactorLabel"));
  rateLabel_->setToolTip(tr("Simulated seconds per wall-clock second"));
  costLabel_ = new QLabel;
  costLabel_->setObjectName(QStringLiteral("stepCostLabel"));
  costLabel_->setToolTip(tr("Wall time per output step (integrator stages and solver calls)"));
  window_->statusBar()->addPermanentWidget(timeLabel_);
  window_->statusBar()->addPermanentWidget(rateLabel_);
  window_->statusBar()->addPermanentWidget(costLabel_);
  syncControls();
}

// ---- settings ----

void SimulationController::setSolver(const QString& name) {
  if (!kt::isSolverName(name.toStdString())) return;
  pending_.solver = name.toStdString();
  syncControls();
}

void SimulationController::setIntegrator(const QString& name) {
  pending_.integrator = name.toStdString();
  syncControls();
}

void SimulationController::setStepSize(double seconds) {
  if (!(seconds > 0.0)) return;
  pending_.step = seconds;
  syncControls();
}

bool SimulationController::setTolerance(double tolerance) {
  // the limits of a model file's simulation.tolerance (core/sim/run_limits.hpp)
  if (!(tolerance >= kt::kMinRunTolerance && tolerance < 1.0)) return false;
  pending_.tolerance = tolerance;
  syncControls();
  return true;
}

void SimulationController::setDuration(double seconds) {
  duration_ = seconds;
  if (worker_) worker_->setDuration(effectiveDuration());
  syncControls();
}

void SimulationController::setUntilStopped(bool untilStopped) {
  untilStopped_ = untilStopped;
  if (worker_) worker_->setDuration(effectiveDuration());
  syncControls();
}

void SimulationController::setSpeed(double factor) {
  speed_ = factor > 0.0 ? factor : 0.0;
  if (worker_) worker_->setSpeed(speed_);
  syncControls();
}

double SimulationController::effectiveDuration() const { return untilStopped_ ? 0.0 : duration_; }

void SimulationController::syncControls() {
  if (!solverBox_) return;
  syncing_ = true;
  const QString solver = QString::fromStdString(pending_.solver);
  const QString integrator = QString::fromStdString(pending_.integrator);
  for (QAction* a : solverGroup_->actions()) a->setChecked(a->data().toString() == solver);
  for (QAction* a : integratorGroup_->actions()) a->setChecked(a->data().toString() == integrator);
  for (QAction* a : speedGroup_->actions()) a->setChecked(a->data().toDouble() == speed_);
  solverBox_->setCurrentIndex(solverBox_->findData(solver));
  integratorBox_->setCurrentIndex(integratorBox_->findData(integrator));
  speedBox_->setCurrentIndex(speedBox_->findData(speed_));
  if (stepBox_->value() != pending_.step) stepBox_->setValue(pending_.step);
  toleranceEdit_->setText(QString::number(pending_.tolerance, 'g', 3));
  durationBox_->setValue(untilStopped_ ? 0.0 : duration_);
  untilStoppedAction_->setChecked(untilStopped_);
  syncing_ = false;
}

// ---- state ----

bool SimulationController::hasSimulator() const { return worker_ != nullptr; }
bool SimulationController::recordingFull() const { return worker_ && worker_->full(); }

std::size_t SimulationController::recordingLimitRows(std::size_t limitBytes, const kt::Recorder& recorder) {
  const std::size_t chunkBytes =
      recorder.chunkRows() * sizeof(double) * static_cast<std::size_t>(std::max(1, recorder.width()));
  return std::max<std::size_t>(1, limitBytes / chunkBytes) * recorder.chunkRows();
}

std::size_t SimulationController::recordingLimitBytes() {
  bool set = false;
  const int megabytes = qEnvironmentVariableIntValue("KINETREE_RECORDING_LIMIT_MB", &set);
  if (set && megabytes > 0) return static_cast<std::size_t>(megabytes) << 20;
  constexpr std::size_t kMax = std::size_t{4} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return kMax;
  return std::min(kMax, static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize) / 4);
}

bool SimulationController::isRunning() const { return worker_ && worker_->running(); }
const kt::Recorder* SimulationController::recorder() const { return worker_ ? &worker_->recorder() : nullptr; }
const kt::SignalLayout* SimulationController::signalLayout() const {
  return worker_ ? &worker_->signalLayout() : nullptr;
}
const kt::Tree* SimulationController::tree() const { return worker_ ? &worker_->tree() : nullptr; }

// ---- commands ----

void SimulationController::onModelReplaced() {
  const kt::SimulationSettings& settings = window_->document().model().simulation;
  fileSettings_ = settings;
  pending_ = kt::SimulatorOptions::fromSettings(settings);
  duration_ = settings.duration > 0.0 ? settings.duration : 10.0;  // "until stopped" stays the user's choice
  syncControls();
  rebuildArrows();
  rebuild();
}

void SimulationController::onModelEdited() {
  // The worker simulates its own copy of the old model: stop it and start over from the edited
  // model's initial state. Nothing is shared with the worker, so there is nothing to race.
  const bool hadRun = worker_ && (worker_->running() || latest_.t > 0.0);
  const kt::SimulationSettings& settings = window_->document().model().simulation;
  if (!(settings == fileSettings_)) {  // the model's default settings were edited: they apply now
    fileSettings_ = settings;
    pending_ = kt::SimulatorOptions::fromSettings(settings);
    duration_ = settings.duration > 0.0 ? settings.duration : 10.0;
    syncControls();
  }
  rebuildArrows();
  rebuild();
  if (hadRun) {
    window_->statusBar()->showMessage(
        window_->isRunnable()
            ? tr("The model was edited: the simulation stopped and was reset to its initial state")
            : tr("The model was edited: the simulation stopped (%1)").arg(window_->document().runBlocker()),
        10'000);
  }
}

void SimulationController::rebuildArrows() {
  render::SceneView* view = window_->sceneView();
  if (!arrows_) arrows_ = std::make_unique<render::LoadArrows>(view->overlayRenderer());
  arrows_->build(window_->tree(), view->scene().characteristicLength());
  arrows_->setSelectedJoint(window_->treeIndexOf(window_->selectedBody()));
}

void SimulationController::stopWorker() {
  if (!worker_) return;
  emit sessionEnded();
  worker_.reset();  // quits and joins the thread
  haveLatest_ = false;
  latestRow_.clear();
  latest_ = kt::RecordedState();
  shownGeneration_ = ~std::uint64_t{0};
  shownRow_ = ~std::size_t{0};
  if (wasRunning_) {
    wasRunning_ = false;
    emit runningChanged(false);
  }
}

bool SimulationController::rebuild() {
  stopWorker();
  timer_->stop();
  // the last run's failure or full recording is old news now (an edit's message follows this)
  if (fullReported_ || !error_.isEmpty()) window_->statusBar()->clearMessage();
  fullReported_ = false;
  error_.clear();
  if (!window_->isRunnable()) {
    error_ = window_->document().runBlocker();
    updateActions();
    updateStatus(true);
    return false;
  }
  std::unique_ptr<kt::Simulator> sim;
  try {
    sim = std::make_unique<kt::Simulator>(window_->document().model(), pending_);
    // Room for the start of the run up front (at most 8 MB: chunks are zero-filled when made);
    // later chunks take the recorder's chunk lock once each.
    const double span = untilStopped_ ? 60.0 : duration_;
    const double cap = 1.0e6 / std::max(1, sim->recorder().width());
    sim->recorder().reserve(static_cast<std::size_t>(std::min(span / sim->outputInterval() + 2.0, cap)));
  } catch (const std::exception& e) {
    error_ = tr("Cannot simulate: %1").arg(QString::fromUtf8(e.what()));
    window_->statusBar()->showMessage(error_);
    updateActions();
    updateStatus(true);
    return false;
  }
  active_ = pending_;
  loadColumns_.assign(static_cast<std::size_t>(sim->tree().nb), std::array<int, 6>{-1, -1, -1, -1, -1, -1});
  for (int k = 0; k < sim->signalLayout().size(); ++k) {
    const kt::SignalInfo& info = sim->signalLayout().infos()[static_cast<std::size_t>(k)];
    if (info.kind != kt::SignalKind::Load || info.body < 0 || info.body >= sim->tree().nb) continue;
    // fx fy fz mx my mz (components 0…5) → [moment; force] (spatial force order)
    const int slot = info.component < 3 ? info.component + 3 : info.component - 3;
    loadColumns_[static_cast<std::size_t>(info.body)][static_cast<std::size_t>(slot)] = k;
  }
  wrench_.assign(loadColumns_.size(), kt::Vec6::Zero());
  if (arrows_) arrows_->resetAutoScale();
  window_->sceneView()->clearTrails();
  const std::size_t maxRows = recordingLimitRows(recordingLimitBytes(), sim->recorder());
  worker_ = std::make_unique<SimulationWorker>(std::move(sim), speed_, effectiveDuration(), maxRows);
  statusWall_ = statusClock_.elapsed();
  statusSim_ = 0.0;
  statusSteps_ = 0;
  statusNanos_ = 0;
  nsPerStep_ = 0.0;
  realTimeFactor_ = 0.0;
  emit sessionStarted();
  timer_->start();
  poll();  // shows the t = 0 sample
  updateActions();
  updateStatus(true);
  return true;
}

void SimulationController::run() {
  if (recordingFull()) {  // Run is disabled then; a shortcut or script still lands here
    window_->statusBar()->showMessage(fullMessage(true), 10'000);
    return;
  }
  const bool finished = worker_ && haveLatest_ && !untilStopped_ && latest_.t >= duration_ - 0.5 * active_.step;
  if (!worker_ || worker_->failed() || !sameOptions(pending_, active_) || finished) {
    if (!rebuild()) {
      if (!error_.isEmpty()) window_->statusBar()->showMessage(error_, 10'000);
      return;
    }
  }
  worker_->setRunning(true);
  poll();
  updateActions();
}

void SimulationController::pause() {
  if (!worker_) return;
  worker_->setRunning(false);
  poll();
  updateActions();
}

void SimulationController::step() {
  if (!worker_ || worker_->failed()) return;
  worker_->setRunning(false);
  worker_->requestStep();
  updateActions();
}

void SimulationController::reset() { rebuild(); }

void SimulationController::shutdown() {
  timer_->stop();
  stopWorker();
  updateActions();
}

void SimulationController::poll() {
  if (!worker_) return;
  // read before the newest sample: once full, that sample is the last one (the message names it)
  const bool full = worker_->full();
  const kt::Recorder& rec = worker_->recorder();
  bool fresh = false;
  if (rec.latest(latest_) && (latest_.generation != shownGeneration_ || latest_.row != shownRow_)) {
    shownGeneration_ = latest_.generation;
    shownRow_ = latest_.row;
    latestRow_.resize(static_cast<std::size_t>(rec.width()));
    haveLatest_ = rec.copyRows(latest_.row, latest_.row + 1, latestRow_.data()) == 1;
    window_->sceneView()->showState(latest_.q);
    updateArrows();
    fresh = true;
  }
  if (fresh) emit frame();

  const bool running = worker_->running();
  if (running != wasRunning_) {
    wasRunning_ = running;
    updateActions();
    emit runningChanged(running);
  }
  if (full && !fullReported_) {
    fullReported_ = true;
    window_->statusBar()->showMessage(fullMessage(true));
    auto* box =
        new QMessageBox(QMessageBox::Information, tr("Recording full"), fullMessage(false), QMessageBox::Ok, window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("recordingFullBox"));
    box->open();
    updateActions();
  }
  if (worker_->failed() && error_.isEmpty()) {
    error_ = QString::fromStdString(worker_->error());
    const QString message = tr("Simulation stopped: %1").arg(error_);
    window_->statusBar()->showMessage(message);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Simulation stopped"), message, QMessageBox::Ok, window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("simulationFailedBox"));
    box->open();
    updateActions();
    emit failed(error_);
  }
  updateStatus(false);
}

void SimulationController::createLoadMenu() {
  QMenu* loads = window_->viewMenu()->addMenu(tr("Joint &Loads"));
  loads->setObjectName(QStringLiteral("jointLoadsMenu"));
  auto option = [this, loads](const QString& text, bool render::LoadArrowOptions::*field) {
    QAction* a = loads->addAction(text);
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this, field](bool on) {
      if (!arrows_) return;
      render::LoadArrowOptions o = arrows_->options();
      o.*field = on;
      arrows_->setOptions(o);
      updateArrows();
    });
    return a;
  };
  QAction* show = option(tr("&Show Load Arrows"), &render::LoadArrowOptions::visible);
  show->setObjectName(QStringLiteral("showLoadArrowsAction"));
  show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  show->setStatusTip(tr("Force (one tip) and moment (two tips) each joint transmits, at the joint origin"));
  option(tr("Selected Joint &Only"), &render::LoadArrowOptions::selectedOnly)
      ->setObjectName(QStringLiteral("selectedJointOnlyAction"));
  option(tr("&Reaction Part Only"), &render::LoadArrowOptions::reactionOnly)
      ->setObjectName(QStringLiteral("reactionOnlyAction"));
  loads->addSeparator();
  auto value = [this, loads](const QString& text, const QString& label, double render::LoadArrowOptions::*field) {
    loads->addAction(text, this, [this, text, label, field] {
      if (!arrows_) return;
      bool ok = false;
      const double x = QInputDialog::getDouble(window_, text, label, arrows_->options().*field, 0.0, 1e12, 6, &ok);
      if (!ok) return;
      render::LoadArrowOptions o = arrows_->options();
      o.*field = x;
      arrows_->setOptions(o);
      updateArrows();
    });
  };
  value(tr("&Force Scale…"), tr("Arrow length per newton (m/N; 0 = automatic):"),
        &render::LoadArrowOptions::forceScale);
  value(tr("&Moment Scale…"), tr("Arrow length per newton metre (m/(N·m); 0 = automatic):"),
        &render::LoadArrowOptions::momentScale);
  value(tr("Force &Limit…"), tr("Force drawn red (N; 0 = the recent largest):"), &render::LoadArrowOptions::forceLimit);
  value(tr("Moment L&imit…"), tr("Moment drawn red (N·m; 0 = the recent largest):"),
        &render::LoadArrowOptions::momentLimit);

  auto select = [this](int joint) {
    if (!arrows_) return;
    arrows_->setSelectedJoint(joint);
    updateArrows();
  };
  connect(window_, &MainWindow::selectionChanged, this, [select](int, int treeIndex) { select(treeIndex); });
}

void SimulationController::updateArrows() {
  if (!arrows_ || !haveLatest_ || latestRow_.empty()) return;
  if (wrench_.size() != loadColumns_.size()) return;
  for (std::size_t i = 0; i < loadColumns_.size(); ++i) {
    for (std::size_t c = 0; c < 6; ++c) {
      const int column = loadColumns_[i][c];
      wrench_[i][static_cast<Eigen::Index>(c)] = column >= 0 ? latestRow_[static_cast<std::size_t>(column)] : 0.0;
    }
  }
  arrows_->update(latest_.q, wrench_);
  window_->sceneView()->update();
}

void SimulationController::updateActions() {
  const bool have = worker_ != nullptr;
  const bool running = have && worker_->running();
  const bool failed = have && worker_->failed();
  const bool canBuild = window_->isRunnable();
  const bool full = have && worker_->full();
  runAction_->setEnabled(canBuild && !running && !full);
  const QString blocker = canBuild ? QString() : window_->document().runBlocker();
  runAction_->setToolTip(!blocker.isEmpty() ? blocker
                         : full             ? tr("The recording is full: Reset to start a new run")
                                            : tr("Run the simulation (F5)"));
  resetAction_->setToolTip(blocker.isEmpty() ? tr("Back to the initial state") : blocker);
  pauseAction_->setEnabled(running);
  stepAction_->setEnabled(have && !failed && !full);
  resetAction_->setEnabled(canBuild);
}

QString SimulationController::fullMessage(bool brief) const {
  const kt::Recorder* rec = recorder();
  const std::size_t rows = rec ? rec->size() : 0;
  const double megabytes =
      rec ? static_cast<double>(rows) * static_cast<double>(rec->width()) * sizeof(double) / (1 << 20) : 0.0;
  if (brief)
    return tr("Recording full at t = %1 s (%2 MB): paused; Reset starts a new run")
        .arg(latest_.t, 0, 'f', 3)
        .arg(megabytes, 0, 'f', 0);
  return tr("The recording is full: %1 samples up to t = %2 s take %3 MB, the memory a run may use "
            "(KINETREE_RECORDING_LIMIT_MB sets it). The run is paused with every sample kept: export "
            "the plots or results you need, then Reset to start a new run.")
      .arg(rows)
      .arg(latest_.t, 0, 'f', 3)
      .arg(megabytes, 0, 'f', 0);
}

void SimulationController::updateStatus(bool force) {
  const qint64 now = statusClock_.elapsed();
  if (worker_ && (force || now - statusWall_ >= 500)) {
    const std::uint64_t steps = worker_->steps();
    const std::uint64_t nanos = worker_->nanoseconds();
    const double wall = static_cast<double>(now - statusWall_) * 1e-3;
    if (steps > statusSteps_) {
      nsPerStep_ = static_cast<double>(nanos - statusNanos_) / static_cast<double>(steps - statusSteps_);
    }
    if (wall > 0.0 && !force) realTimeFactor_ = (latest_.t - statusSim_) / wall;
    statusWall_ = now;
    statusSim_ = latest_.t;
    statusSteps_ = steps;
    statusNanos_ = nanos;
  }
  timeLabel_->setText(tr("t = %1 s").arg(latest_.t, 0, 'f', 3));
  rateLabel_->setText(isRunning()       ? tr("×%1 real time").arg(realTimeFactor_, 0, 'g', 3)
                      : recordingFull() ? tr("recording full")
                                        : tr("paused"));
  costLabel_->setText(nsPerStep_ > 0.0 ? tr("%1 ns/step").arg(nsPerStep_, 0, 'f', 0) : QString());
}

}  // namespace kt::ui
