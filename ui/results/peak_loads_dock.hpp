// SPDX-License-Identifier: BSD-3-Clause
// The Peak loads dock: for every joint, the largest |force| and |moment| of the wrench it
// transmits and of its reaction part, with the time of each, and, for joints with a load rating
// (docs/model-format.md), the utilisation in % (red from 100 %). Over the whole run or the time
// range the plots show; sortable by any column; a double click shows that time in every view and
// selects the joint; a time at which a push or drag acted (docs/interaction.md) is in magenta,
// its tooltip says which; Export CSV writes the table as `kinetree-cli peaks --csv` does, Load
// Cases the state and every joint's wrench at each peak as `peaks --cases` does. The figures
// come from kt::PeakLoads (core/results/peak_loads.hpp), the computation the CLI runs, fed the rows of
// the run's Recorder as they arrive.
//
// What it shows: each numeric column with the same number of decimals, chosen so that its largest
// value has four significant digits (the figures line up); "—" where a joint has no such value (a
// free joint has no reaction part) or its peak lies under the dead band (kt::kLoadDeadBand of
// the run's largest force or moment: rounding noise, not a load). Every cell's tooltip has the
// full name or number. Number columns are never narrower than their figures; a long joint name
// is elided in the middle; the table scrolls sideways in a narrow dock. A session that ends (a new
// model, Reset) empties the table and disables Export until the next run records.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "core/results/peak_loads.hpp"
#include "core/sim/interaction.hpp"

class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace kt::ui {

class RunResults;
class SimulationController;

class PeakLoadsDock : public QDockWidget {
  Q_OBJECT

 public:
  /// Columns of the table: what a narrow dock shows first comes first.
  enum Column {
    Joint,
    Force,
    ForceTime,
    Moment,
    MomentTime,
    Utilisation,
    UtilisationOf,
    ReactionForce,
    ReactionForceTime,
    ReactionMoment,
    ReactionMomentTime,
    Effort,  ///< the largest |τ_k|: a drive's force or a motion's required effort
    EffortTime,
    ColumnCount
  };

  /// The whole run's peaks come from `results`; `visibleRange` gives the time range the plots
  /// show (for "Time range of the plots", scanned here).
  PeakLoadsDock(SimulationController* simulation, RunResults* results,
                std::function<std::pair<double, double>()> visibleRange, QWidget* parent = nullptr);
  ~PeakLoadsDock() override;

  QTableView* table() const { return table_; }
  /// The table's rows as shown (sorted), for tests: the joint's tree index of view row `row`.
  int jointOfRow(int row) const;
  /// Over the whole run (true) or the time range of the plots (false).
  void setWholeRun(bool whole);
  /// The figures as last computed (tree order).
  const std::vector<kt::JointPeaks>& peaks() const { return shown_; }
  /// Writes the table as CSV (kt::peakLoadsCsv). False with `error` on failure.
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  /// Writes the load cases at the peaks of the samples the table shows (kt::LoadCaseCollector):
  /// JSON for a path ending in .json, CSV otherwise; with `components`, also at the peak of each
  /// reaction and effort component. False with `error` on failure.
  bool exportLoadCases(const QString& path, QString* error = nullptr, bool components = false) const;
  /// Whether Export CSV is offered: there are figures of the current session to write.
  bool canExport() const;

 public slots:
  /// Scans the rows recorded since the last call (all of them again when the plots' time range
  /// changed, in range mode) and shows them.
  void refresh();
  /// The plots show another time range: in range mode the peaks are taken again.
  void plotsRangeChanged();

 signals:
  /// The user double-clicked a joint's row: show time t and select the joint (tree index).
  void jointActivated(int treeIndex, double t);

 private:
  void onSessionStarted();
  void onSessionEnded();
  /// Number columns as wide as their figures at least; the joint names up to a limit.
  void fitColumns();

  SimulationController* simulation_;
  RunResults* results_;
  std::function<std::pair<double, double>()> visibleRange_;
  QComboBox* rangeBox_;
  QLabel* summary_;
  QPushButton* exportButton_;
  QPushButton* casesButton_;
  class Model;
  Model* model_;
  QSortFilterProxyModel* sorted_;
  QTableView* table_;
  std::unique_ptr<kt::PeakLoads> scan_;    ///< the plots' time range (the whole run is results_'s)
  std::size_t scanned_ = 0;                ///< rows of the recording already looked at by scan_
  std::pair<double, double> scanRange_{};  ///< the time range scan_ takes rows from
  std::uint64_t scanGeneration_ = 0;       ///< the recorder generation scanned (a pose rewrites a row)
  std::vector<kt::JointPeaks> shown_;
  std::size_t markedEvents_ = 0;  ///< the run's interactions the table marks (eventCount())
  QElapsedTimer clock_;
  std::array<bool, ColumnCount> userSized_{};  ///< the user set the column's width
  bool fitting_ = false;                       ///< fitColumns() is resizing the columns
};

}  // namespace kt::ui
