// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/simulation_status.hpp"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include "core/results/recorder.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

SimulationStatus::SimulationStatus(SimulationController* simulation, QStatusBar* statusBar, QWidget* window)
    : QObject(window),
      simulation_(simulation),
      statusBar_(statusBar),
      window_(window),
      timeLabel_(new QLabel),
      rateLabel_(new QLabel),
      costLabel_(new QLabel) {
  timeLabel_->setObjectName(QStringLiteral("simTimeLabel"));
  timeLabel_->setToolTip(tr("Simulated time, and the recorded time the views show when it is not the newest"));
  rateLabel_->setObjectName(QStringLiteral("realTimeFactorLabel"));
  rateLabel_->setToolTip(tr("Simulated seconds per wall-clock second"));
  costLabel_->setObjectName(QStringLiteral("stepCostLabel"));
  costLabel_->setToolTip(tr("Wall time per output step (integrator stages and solver calls)"));
  statusBar_->addPermanentWidget(timeLabel_);
  statusBar_->addPermanentWidget(rateLabel_);
  statusBar_->addPermanentWidget(costLabel_);
  clock_.start();

  connect(simulation_, &SimulationController::sessionStarted, this, &SimulationStatus::onSessionStarted);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] { update(false); });
  connect(simulation_, &SimulationController::stateChanged, this, [this] { update(true); });
  connect(simulation_, &SimulationController::recordingFilled, this, &SimulationStatus::onRecordingFilled);
  connect(simulation_, &SimulationController::failed, this, &SimulationStatus::onFailed);
  connect(simulation_, &SimulationController::statusMessage, this, [this](const QString& text, int timeoutMs) {
    if (text.isEmpty())
      statusBar_->clearMessage();
    else
      statusBar_->showMessage(text, timeoutMs);
  });
  update(true);
}

void SimulationStatus::onSessionStarted() {
  fullBoxShown_ = false;
  windowStart_ = clock_.elapsed();
  windowSim_ = 0.0;
  windowSteps_ = 0;
  windowNanos_ = 0;
  nsPerStep_ = 0.0;
  realTimeFactor_ = 0.0;
}

void SimulationStatus::update(bool force) {
  const qint64 now = clock_.elapsed();
  const double t = simulation_->simulationTime();
  if (simulation_->hasSimulator() && (force || now - windowStart_ >= 500)) {
    const std::uint64_t steps = simulation_->steps();
    const std::uint64_t nanos = simulation_->stepNanoseconds();
    const double wall = static_cast<double>(now - windowStart_) * 1e-3;
    if (steps > windowSteps_)
      nsPerStep_ = static_cast<double>(nanos - windowNanos_) / static_cast<double>(steps - windowSteps_);
    if (wall > 0.0 && !force) realTimeFactor_ = (t - windowSim_) / wall;
    windowStart_ = now;
    windowSim_ = t;
    windowSteps_ = steps;
    windowNanos_ = nanos;
  }
  // the view shows the live end of the run, or a recorded time the user chose
  timeLabel_->setText(!simulation_->hasShownSample() || simulation_->showsLive()
                          ? tr("t = %1 s").arg(t, 0, 'f', 3)
                          : tr("showing recorded t = %1 s (run at t = %2 s)")
                                .arg(simulation_->shownTime(), 0, 'f', 3)
                                .arg(t, 0, 'f', 3));
  const QString state = simulation_->runState() == SimulationController::RunState::Running
                            ? tr("×%1 real time").arg(realTimeFactor_, 0, 'g', 3)
                            : simulation_->runStateText(false);
  rateLabel_->setText(state);
  costLabel_->setText(nsPerStep_ > 0.0 ? tr("%1/step").arg(durationText(nsPerStep_ * 1e-9)) : QString());
}

QString SimulationStatus::fullMessage(bool brief) const {
  const kt::Recorder* rec = simulation_->recorder();
  const std::size_t rows = rec ? rec->size() : 0;
  const double megabytes =
      rec ? static_cast<double>(rows) * static_cast<double>(rec->width()) * sizeof(double) / (1 << 20) : 0.0;
  const double t = simulation_->simulationTime();
  if (brief)
    return tr("Recording full at t = %1 s (%2 MB): paused; Reset starts a new run")
        .arg(t, 0, 'f', 3)
        .arg(megabytes, 0, 'f', 0);
  return tr("The recording is full: %1 samples up to t = %2 s take %3 MB, the memory a run may use "
            "(KINETREE_RECORDING_LIMIT_MB sets it). The run is paused with every sample kept: export "
            "the results (File ▸ Export Results) or plots you need, then Reset to start a new run.")
      .arg(rows)
      .arg(t, 0, 'f', 3)
      .arg(megabytes, 0, 'f', 0);
}

void SimulationStatus::onRecordingFilled() {
  if (fullBoxShown_) {  // Run refused again: the status bar says why
    statusBar_->showMessage(fullMessage(true), 10'000);
    return;
  }
  fullBoxShown_ = true;
  statusBar_->showMessage(fullMessage(true));
  auto* box =
      new QMessageBox(QMessageBox::Information, tr("Recording full"), fullMessage(false), QMessageBox::Ok, window_);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setObjectName(QStringLiteral("recordingFullBox"));
  if (exportAction_) {
    QPushButton* exportButton = box->addButton(tr("Export Results…"), QMessageBox::AcceptRole);
    exportButton->setObjectName(QStringLiteral("recordingFullExportButton"));
    connect(exportButton, &QPushButton::clicked, exportAction_, &QAction::trigger, Qt::QueuedConnection);
  }
  box->open();
}

void SimulationStatus::onFailed(const QString& error) {
  const QString message = tr("Simulation stopped: %1").arg(error);
  statusBar_->showMessage(message);
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Simulation stopped"), message, QMessageBox::Ok, window_);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setObjectName(QStringLiteral("simulationFailedBox"));
  box->open();
}

}  // namespace kt::ui
