// SPDX-License-Identifier: BSD-3-Clause
// The results of the session's run, read once for every view that needs them: the peak loads
// of the whole recording (kt::PeakLoads with the session model's load ratings, docs/signals.md,
// "Peak loads"), fed with the rows recorded since the last poll. The Peak Loads dock (whole
// run), the load arrows' scale and dead band, the plots' dead band and the Problems dock's rating
// warnings all read this one scan.
//
// It follows the SimulationController's signals and is created before the views that read it,
// so that its handlers of sessionStarted() and shownSampleChanged() run first (Qt calls the slots of one
// signal in the order they were connected); peaks() also catches up on rows recorded since.
#pragma once

#include <QObject>
#include <cstdint>
#include <memory>

#include "core/results/peak_loads.hpp"

namespace kt::ui {

class SimulationController;

class RunResults : public QObject {
  Q_OBJECT

 public:
  explicit RunResults(SimulationController* simulation, QObject* parent = nullptr);
  ~RunResults() override;

  /// The peaks of every row recorded so far; null without a session.
  const kt::PeakLoads* peaks();
  /// The largest loads of the recording so far (zero without a session): of the whole wrenches,
  /// or of their reaction parts (kt::loadScale).
  kt::LoadScale loadScale(bool reactionOnly = false);

 signals:
  /// The run stopped (paused, finished, failed) or its session is about to end: peaks() holds
  /// every row it recorded. The rating warnings are checked then, not at every poll.
  void runStopped();
  /// The largest force and moment of the whole wrenches changed (zero: no run).
  void loadScaleChanged(double force, double moment);

 private:
  /// A new simulator: a scan of its recording, with its model's ratings.
  void startSession();
  /// Scans the rows recorded since the last scan.
  void catchUp();
  void announceScale();

  SimulationController* simulation_;
  std::unique_ptr<kt::PeakLoads> peaks_;
  std::size_t scanned_ = 0;       ///< rows of the recording already in peaks_
  std::uint64_t generation_ = 0;  ///< the recorder generation scanned (a pose rewrites a row)
  kt::LoadScale announced_;
};

}  // namespace kt::ui
