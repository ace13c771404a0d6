// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/run_results.hpp"

#include "core/results/recorder.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

RunResults::RunResults(SimulationController* simulation, QObject* parent) : QObject(parent), simulation_(simulation) {
  connect(simulation_, &SimulationController::sessionStarted, this, &RunResults::startSession);
  startSession();
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    catchUp();
    announceScale();
  });
  connect(simulation_, &SimulationController::runningChanged, this, [this](bool running) {
    if (running) return;
    catchUp();
    emit runStopped();
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    catchUp();  // the last rows: the warnings stay once the run is gone
    emit runStopped();
    peaks_.reset();  // it refers to the session's tree and layout
    scanned_ = 0;
    announceScale();
  });
}

RunResults::~RunResults() = default;

void RunResults::startSession() {
  peaks_.reset();
  scanned_ = 0;
  if (const kt::Recorder* rec = simulation_->recorder()) generation_ = rec->generation();
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  const kt::Model* model = simulation_->sessionModel();
  if (tree && layout && model)
    peaks_ = std::make_unique<kt::PeakLoads>(*tree, *layout, kt::PeakLoads::ratingsOf(*model, *tree));
}

void RunResults::catchUp() {
  const kt::Recorder* rec = simulation_->recorder();
  if (!peaks_ || !rec) return;
  if (const std::uint64_t g = rec->generation(); g != generation_) {
    // a row the peaks have seen was rewritten (a pose while paused): scan the run again
    generation_ = g;
    startSession();
  }
  scanned_ = peaks_->addRecorded(*rec, scanned_);
}

const kt::PeakLoads* RunResults::peaks() {
  catchUp();
  return peaks_.get();
}

kt::LoadScale RunResults::loadScale(bool reactionOnly) {
  catchUp();
  return peaks_ ? kt::loadScale(peaks_->joints(), reactionOnly) : kt::LoadScale();
}

void RunResults::announceScale() {
  const kt::LoadScale whole = loadScale();
  if (whole == announced_) return;
  announced_ = whole;
  emit loadScaleChanged(whole.force, whole.moment);
}

}  // namespace kt::ui
