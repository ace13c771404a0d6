// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/simulation_actions.hpp"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QStyle>
#include <QToolBar>
#include <QToolTip>
#include <QWidget>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/sim/run_limits.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QString speedLabel(double factor) {
  if (factor <= 0.0) return SimulationActions::tr("As fast as possible");
  if (factor == 1.0) return SimulationActions::tr("Real time");
  return SimulationActions::tr("×%1").arg(factor);
}

QString toleranceRange() {
  return SimulationActions::tr("A relative tolerance from %1 to below 1 is needed").arg(kt::kMinRunTolerance);
}

}  // namespace

SimulationActions::SimulationActions(SimulationController* simulation, QWidget* window)
    : QObject(window), simulation_(simulation), window_(window) {
  menu_ = new QMenu(tr("&Simulation"), window);
  toolBar_ = new QToolBar(tr("Simulation"), window);
  toolBar_->setObjectName(QStringLiteral("simulationToolBar"));
  createCommands();
  createChoices();
  createToolBarFields();
  connect(simulation_, &SimulationController::settingsChanged, this, &SimulationActions::syncControls);
  connect(simulation_, &SimulationController::stateChanged, this, &SimulationActions::updateActions);
  syncControls();
  updateActions();
}

// Run, Pause, Step, Reset: in the menu and on the toolbar.
void SimulationActions::createCommands() {
  QStyle* style = window_->style();
  auto command = [&](QStyle::StandardPixmap icon, const QString& text, void (SimulationController::*slot)(),
                     const QKeySequence& shortcut, const char* name, const QString& tip) {
    QAction* a = menu_->addAction(style->standardIcon(icon), text, simulation_, slot);
    a->setShortcut(shortcut);
    a->setStatusTip(tip);
    a->setObjectName(QLatin1String(name));
    toolBar_->addAction(a);
    return a;
  };
  runAction_ = command(QStyle::SP_MediaPlay, tr("&Run"), &SimulationController::run, Qt::Key_F5, "actionRun",
                       tr("Start or continue the simulation"));
  pauseAction_ = command(QStyle::SP_MediaPause, tr("&Pause"), &SimulationController::pause, Qt::Key_F6, "actionPause",
                         tr("Pause the simulation"));
  stepAction_ = command(QStyle::SP_MediaSkipForward, tr("&Step"), &SimulationController::step, Qt::Key_F10,
                        "actionStep", tr("Advance one output interval"));
  resetAction_ = command(QStyle::SP_MediaSkipBackward, tr("R&eset"), &SimulationController::reset,
                         QKeySequence(Qt::CTRL | Qt::Key_R), "actionReset",
                         tr("Back to t = 0 with the chosen solver, integrator, step and tolerance"));
  toolBar_->addSeparator();
  menu_->addSeparator();
}

// The menu's choices: solver, integrator, step, tolerance, duration, speed.
void SimulationActions::createChoices() {
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
  connect(solverGroup_, &QActionGroup::triggered, this,
          [this](QAction* a) { simulation_->setSolver(a->data().toString()); });
  connect(solverBox_, &QComboBox::activated, this,
          [this](int index) { simulation_->setSolver(solverBox_->itemData(index).toString()); });

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
          [this](QAction* a) { simulation_->setIntegrator(a->data().toString()); });
  connect(integratorBox_, &QComboBox::activated, this,
          [this](int index) { simulation_->setIntegrator(integratorBox_->itemData(index).toString()); });

  menu_->addAction(tr("Step Si&ze…"), this, [this] {
    bool ok = false;
    const double h =
        QInputDialog::getDouble(window_, tr("Step Size"), tr("Step (s):"), simulation_->pendingOptions().step, 1e-6,
                                1.0, 6, &ok, Qt::WindowFlags(), 1e-4);
    if (ok) simulation_->setStepSize(h);
  });
  menu_->addAction(tr("&Tolerance…"), this, [this] {
    bool ok = false;
    const QString text =
        QInputDialog::getText(window_, tr("Tolerance"), tr("Relative tolerance (dopri5):"), QLineEdit::Normal,
                              QString::number(simulation_->pendingOptions().tolerance, 'g', 3), &ok);
    if (!ok) return;
    bool parsed = false;
    const double tol = text.toDouble(&parsed);
    if (!parsed || !simulation_->setTolerance(tol))
      QMessageBox::warning(
          window_, tr("Tolerance"),
          tr("%1 (smaller ones are below the rounding of a double); got '%2'.").arg(toleranceRange()).arg(text));
  });
  menu_->addSeparator();
  menu_->addAction(tr("&Duration…"), this, [this] {
    bool ok = false;
    const double d = QInputDialog::getDouble(window_, tr("Duration"), tr("Simulated time (s):"),
                                             simulation_->duration(), 0.001, 1e6, 3, &ok);
    if (ok) {
      simulation_->setDuration(d);
      simulation_->setUntilStopped(false);
    }
  });
  untilStoppedAction_ = menu_->addAction(tr("Run &Until Stopped"));
  untilStoppedAction_->setCheckable(true);
  connect(untilStoppedAction_, &QAction::toggled, this, [this](bool on) {
    if (!syncing_) simulation_->setUntilStopped(on);
  });

  QMenu* speedMenu = menu_->addMenu(tr("Spee&d"));
  speedGroup_ = new QActionGroup(this);
  speedBox_ = new QComboBox;
  speedBox_->setObjectName(QStringLiteral("speedBox"));
  speedBox_->setToolTip(tr("Speed relative to real time"));
  for (double f : SimulationController::speedChoices()) {
    QAction* a = speedMenu->addAction(speedLabel(f));
    a->setCheckable(true);
    a->setData(f);
    speedGroup_->addAction(a);
    speedBox_->addItem(speedLabel(f), f);
  }
  connect(speedGroup_, &QActionGroup::triggered, this,
          [this](QAction* a) { simulation_->setSpeed(a->data().toDouble()); });
  connect(speedBox_, &QComboBox::activated, this,
          [this](int index) { simulation_->setSpeed(speedBox_->itemData(index).toDouble()); });
}

// The toolbar's fields: solver, integrator, step, tolerance, duration, speed.
void SimulationActions::createToolBarFields() {
  stepBox_ = new QDoubleSpinBox;
  stepBox_->setObjectName(QStringLiteral("stepBox"));
  stepBox_->setDecimals(6);
  stepBox_->setRange(1e-6, 1.0);
  stepBox_->setSingleStep(1e-4);
  stepBox_->setSuffix(QStringLiteral(" s"));
  stepBox_->setToolTip(tr("Step (fixed-step integrators) and output interval"));
  connect(stepBox_, &QDoubleSpinBox::valueChanged, this, [this](double h) {
    if (!syncing_) simulation_->setStepSize(h);
  });
  toleranceEdit_ = new QLineEdit;
  toleranceEdit_->setObjectName(QStringLiteral("toleranceEdit"));
  toleranceEdit_->setValidator(new QDoubleValidator(kt::kMinRunTolerance, 1.0, 15, toleranceEdit_));
  toleranceEdit_->setMaximumWidth(70);
  toleranceEdit_->setToolTip(tr("Relative tolerance of dopri5"));
  connect(toleranceEdit_, &QLineEdit::editingFinished, this, [this] {
    bool ok = false;
    const double tol = toleranceEdit_->text().toDouble(&ok);
    if (ok && simulation_->setTolerance(tol)) return;
    // refused (1 passes the validator, not the run limits): say why and show the value in use
    QToolTip::showText(toleranceEdit_->mapToGlobal(QPoint(0, toleranceEdit_->height())), toleranceRange(),
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
      simulation_->setUntilStopped(true);
    } else {
      simulation_->setDuration(d);
      simulation_->setUntilStopped(false);
    }
  });

  const std::pair<QString, QWidget*> fields[] = {{tr(" Solver "), solverBox_},     {tr(" Integrator "), integratorBox_},
                                                 {tr(" Step "), stepBox_},         {tr(" Tol "), toleranceEdit_},
                                                 {tr(" Duration "), durationBox_}, {tr(" Speed "), speedBox_}};
  for (const auto& [label, field] : fields) {
    toolBar_->addWidget(new QLabel(label));
    toolBar_->addWidget(field);
  }
  // a solver, integrator, step or tolerance chosen for the next run, not the one shown
  pendingLabel_ = new QLabel(tr(" applies at the next run"));
  pendingLabel_->setObjectName(QStringLiteral("pendingSettingsLabel"));
  pendingLabel_->setStyleSheet(QStringLiteral("color: #a05000; font-style: italic;"));
  pendingAction_ = toolBar_->addWidget(pendingLabel_);
  pendingAction_->setObjectName(QStringLiteral("pendingSettingsAction"));
  pendingAction_->setVisible(false);
}

void SimulationActions::syncControls() {
  syncing_ = true;
  const kt::SimulatorOptions& pending = simulation_->pendingOptions();
  const QString solver = QString::fromStdString(pending.solver);
  const QString integrator = QString::fromStdString(pending.integrator);
  const double speed = simulation_->speed();
  for (QAction* a : solverGroup_->actions()) a->setChecked(a->data().toString() == solver);
  for (QAction* a : integratorGroup_->actions()) a->setChecked(a->data().toString() == integrator);
  for (QAction* a : speedGroup_->actions()) a->setChecked(a->data().toDouble() == speed);
  solverBox_->setCurrentIndex(solverBox_->findData(solver));
  integratorBox_->setCurrentIndex(integratorBox_->findData(integrator));
  speedBox_->setCurrentIndex(speedBox_->findData(speed));
  if (stepBox_->value() != pending.step) stepBox_->setValue(pending.step);
  toleranceEdit_->setText(QString::number(pending.tolerance, 'g', 3));
  durationBox_->setValue(simulation_->untilStopped() ? 0.0 : simulation_->duration());
  untilStoppedAction_->setChecked(simulation_->untilStopped());
  syncing_ = false;
  updatePending();
}

void SimulationActions::updatePending() {
  const bool differs = simulation_->settingsPending();
  const kt::SimulatorOptions& a = simulation_->activeOptions();
  pendingAction_->setVisible(differs);
  pendingLabel_->setToolTip(differs ? tr("The run shown used %1, %2, h = %3 s, tol %4")
                                          .arg(QString::fromStdString(a.solver), QString::fromStdString(a.integrator))
                                          .arg(a.step, 0, 'g', 6)
                                          .arg(a.tolerance, 0, 'g', 3)
                                    : QString());
}

void SimulationActions::updateActions() {
  updatePending();
  const bool have = simulation_->hasSimulator();
  const bool running = simulation_->isRunning();
  // a full recording kept after an edit does not stop Run: Run starts the edited model over
  const bool full = simulation_->recordingFull() && !simulation_->outdated();
  const bool canBuild = simulation_->canRun();
  runAction_->setEnabled(canBuild && !running && !full);
  const QString blocker = canBuild ? QString() : simulation_->runBlocker();
  runAction_->setToolTip(!blocker.isEmpty() ? blocker
                         : full             ? tr("The recording is full: Reset to start a new run")
                                            : tr("Run the simulation (F5)"));
  resetAction_->setToolTip(blocker.isEmpty() ? tr("Back to the initial state") : blocker);
  pauseAction_->setEnabled(running);
  stepAction_->setEnabled(have && !simulation_->hasFailed() && !full && !simulation_->outdated());
  resetAction_->setEnabled(canBuild);
}

}  // namespace kt::ui
