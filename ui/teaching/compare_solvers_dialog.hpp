// SPDX-License-Identifier: BSD-3-Clause
// Simulation ▸ Compare Solvers…, two ways (docs/signals.md, "Comparing solvers"), as
// `kinetree-cli compare` and `compare --trajectory`:
//  - at the run's states (pointwise, kt::compareAtStates): every chosen solver evaluated at the
//    states of the recorded run, so that what differs is the solver alone: q̈ and the joint loads
//    against the run's own solver, and for the impulse-form solvers p, ν and ṗ against M ν, ν
//    and d/dt (M ν), with each solver's cost per evaluation;
//  - each solver's own run (trajectory, kt::runForComparison): every chosen solver integrates the
//    session's model over the recorded span with the run's integrator (and optionally a second
//    one), with the cost per step; the reference again with a finer integration gives the
//    integrator's own difference, against which the solvers' differences are judged.
// A table gives the largest differences, a figure (comparison_figure.hpp) the difference of a
// chosen quantity or signals over time, on a log scale if wanted. The figure's time cursor
// follows the time the other views show, and a click on it moves them there (timeRequested), so
// the timeline scrubs the run and the comparison together. Table, curves and figure export.
// The work runs on a thread of its own over copies of the session's tree, model and states, so
// the session may go on or be replaced meanwhile; the dialog is not modal.
#pragma once

#include <QDialog>
#include <QThread>
#include <atomic>
#include <memory>
#include <vector>

#include "ui/teaching/comparison_figure.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTableWidget;
class QTimer;

namespace kt::render {
class FigureView;
}

namespace kt::ui {

class SimulationController;

class CompareSolversDialog : public QDialog {
  Q_OBJECT

 public:
  /// At most this many states of the run are used (every k-th sample of a longer run).
  static constexpr std::size_t kMaxStates = 20'000;

  CompareSolversDialog(const SimulationController& simulation, QWidget* parent = nullptr);
  ~CompareSolversDialog() override;

  /// Each solver's own run (true) or the run's states (false, the default).
  void setTrajectory(bool trajectory);
  /// Checks exactly the named solvers besides the reference (empty: all).
  void setSolvers(const QStringList& names);
  /// The second integrator of a trajectory comparison ("" for none).
  void setSecondIntegrator(const QString& name);
  /// The signals a trajectory figure shows (glob patterns, comma-separated).
  void setSignals(const QString& patterns);
  void setLogScale(bool log);

  /// Starts the comparison; finished() follows.
  void compare();
  /// Compares and waits for the result (scripts and tests).
  void compareAndWait();
  const ComparisonResult& result() const { return *result_; }
  const std::vector<kt::SolverDifference>& results() const { return result_->pointwise; }
  QTableWidget* table() const { return table_; }
  render::FigureView* figureView() const { return figure_; }
  QString summary() const;
  /// The table as CSV (header, one row per solver or run, relative differences).
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  /// The curves of the figure as CSV (time, one column per curve, every sample).
  bool exportCurves(const QString& path, QString* error = nullptr) const;
  /// The figure as PNG, SVG or PDF (by the suffix).
  bool exportFigure(const QString& path, QString* error = nullptr) const;

 signals:
  void finished();
  /// The user clicked the figure at time t: the views should show that time.
  void timeRequested(double t);

 private:
  void updateReference();
  void updateMode();
  void showResults();
  void showPointwise();
  void showTrajectory();
  void updateFigure();
  void followTimeline();

  const SimulationController& simulation_;
  QRadioButton* pointwiseMode_;
  QRadioButton* trajectoryMode_;
  QLabel* intro_;
  std::vector<QCheckBox*> solvers_;
  QWidget* integratorRow_;
  QLabel* integratorLabel_;
  QComboBox* secondIntegrator_;
  QLabel* summary_;
  QTableWidget* table_;
  QComboBox* quantity_;
  QLineEdit* signals_;
  QCheckBox* log_;
  QCheckBox* degrees_;
  render::FigureView* figure_;
  QLabel* readout_;
  QPushButton* compareButton_;
  QPushButton* exportTable_;
  QPushButton* exportCurves_;
  QPushButton* exportFigure_;
  QTimer* progressTimer_;
  QThread* worker_ = nullptr;
  std::atomic<bool> stop_{false};
  std::atomic<int> progress_{0};  ///< runs or solvers done (written by the worker)
  int progressTotal_ = 0;
  std::unique_ptr<ComparisonResult> result_;
  std::unique_ptr<ComparisonResult> pending_;  ///< written by the worker
  ComparisonCurves curves_;
  QString reference_;
};

}  // namespace kt::ui
