// SPDX-License-Identifier: BSD-3-Clause
// The Fatigue dock (docs/reports.md): for one joint, the rainflow cycles of each of its load
// signals over the recorded run — the wrench it transmits (load:), its reaction part (reaction:)
// and its drive or required effort (tau:) — with the largest range, its mean and time, and the
// damage-equivalent load for a Wöhler exponent m and N_eq equivalent cycles (by default one per
// second of the run). The numbers are kinetree-cli fatigue's (core/analysis/rainflow.hpp) over
// the same samples; Export CSV writes them as `fatigue --csv` does. The joint follows the
// selection; the counts are made while the run is paused or stopped (a running count would change
// with every sample): when it pauses, takes a step or a pose, and when the joint, m or N_eq
// changes.
#pragma once

#include <QDockWidget>
#include <cstdint>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace kt::ui {

class SimulationController;

class FatigueDock : public QDockWidget {
  Q_OBJECT

 public:
  enum Column { Signal, Cycles, LargestRange, LargestMean, LargestTime, Del, ColumnCount };

  explicit FatigueDock(SimulationController* simulation, QWidget* parent = nullptr);

  /// Shows the joint of tree index `joint` (−1: keeps the one shown).
  void setJoint(int joint);
  int joint() const;
  void setWohler(double m);
  /// N_eq; 0 = one cycle per second of the run.
  void setEquivalentCycles(double n);
  /// Counts the cycles of the shown joint's signals again.
  void refresh();

  QTableWidget* table() const { return table_; }
  /// The rows as `kinetree-cli fatigue --csv` writes them (header first).
  std::string csv() const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;

 private:
  void rebuildJoints();

  SimulationController* simulation_;
  QComboBox* joints_;
  QDoubleSpinBox* wohler_;
  QDoubleSpinBox* equivalent_;
  QTableWidget* table_;
  QLabel* summary_;
  QPushButton* exportButton_;
  struct Row {
    std::string signal, unit;
    double cycles = 0, largest = 0, mean = 0, at = 0, del = 0;
    bool noise = false;  ///< a load whose every value lies under the run's noise floor (peak_loads.hpp)
  };
  bool chosen_ = false;  ///< a joint was asked for (the selection, the list); until then the most loaded one
  std::vector<Row> rows_;
  double m_ = 4.0, nEq_ = 0.0;
  double nEqUsed_ = 0.0;         ///< the N_eq of the DELs shown
  std::size_t countedRows_ = 0;  ///< the recording counted: its rows and generation
  std::uint64_t countedGeneration_ = 0;
};

}  // namespace kt::ui
