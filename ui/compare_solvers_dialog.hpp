// Simulation ▸ Compare Solvers…: every chosen solver evaluated at the states of the recorded run
// (kt::compareAtStates, the pointwise comparison of `kinetree-cli compare`; docs/signals.md,
// "Comparing solvers"): q̈ and the joint loads against the run's own solver, and for the
// impulse-form solvers p, ν and ṗ against M ν, ν and d/dt (M ν); with each solver's cost per
// evaluation. The comparison runs on a thread of its own over a copy of the run's tree and
// states, so the run may go on or be replaced meanwhile. The table exports as CSV.
#pragma once

#include <QDialog>
#include <QThread>
#include <vector>

#include "core/sim/solver_comparison.hpp"

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace kt::ui {

class SimulationController;

class CompareSolversDialog : public QDialog {
  Q_OBJECT

 public:
  /// At most this many states of the run are used (every k-th sample of a longer run).
  static constexpr std::size_t kMaxStates = 20'000;

  CompareSolversDialog(const SimulationController& simulation, QWidget* parent = nullptr);
  ~CompareSolversDialog() override;

  /// Starts the comparison of the checked solvers; finished() follows.
  void compare();
  /// Compares and waits for the result (scripts and tests).
  void compareAndWait();
  const std::vector<kt::SolverDifference>& results() const { return results_; }
  QTableWidget* table() const { return table_; }
  QString summary() const;
  /// The table as CSV (header, one row per solver, relative differences); false with `error`.
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 signals:
  void finished();

 private:
  void showResults();

  const SimulationController& simulation_;
  std::vector<QCheckBox*> solvers_;
  QLabel* summary_;
  QTableWidget* table_;
  QPushButton* compareButton_;
  QPushButton* exportButton_;
  QThread* worker_ = nullptr;
  std::vector<kt::SolverDifference> results_;
  std::vector<kt::SolverDifference> pending_;  ///< written by the worker
  std::string error_;                          ///< written by the worker
  std::size_t states_ = 0;
  QString reference_;
};

}  // namespace kt::ui
