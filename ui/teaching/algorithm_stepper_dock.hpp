// SPDX-License-Identifier: BSD-3-Clause
// The Algorithm Stepper dock (docs/teaching.md, "Watch an algorithm work"): an algorithm — ABA,
// RNEA, CRBA + Cholesky, the CFA on a tree (its elimination leaves first or root first, or
// cfa-oddeven's rounds), or the Poisson-impulse sweep — run at the state
// the timeline shows (q, ν, τ of the shown sample; the RNEA at its q̈), stepped body by body, a
// pass at a time, or played. Each step shows:
//  - which pass, and the body visited, which is also selected (so the Model dock and the 3D view
//    highlight it);
//  - its equations, and where they are scalars, the same with the numbers filled in;
//  - the quantities it computes, under their names in docs/dynamics.md (a table; a square matrix
//    picked there, or the step's matrix, drawn below as a heat map, an elimination's pattern
//    coloured by state: A's entries, fill, eliminated, the pivot);
//  - its spatial vectors as arrows on their bodies and what it hands on as an arrow along the
//    tree to the parent or the children (render::StepArrows), while "Draw in the 3D view" is on.
// The record is kt::traceAlgorithm's: the solvers' own numbers. Moving the timeline keeps the
// step and shows it at the new state, recorded again once the shown sample stops changing (not
// at every frame of a run). Models up to kMaxBodies bodies (and kMaxRows rows of A or M, and
// kMaxEliminationEntries entries in all, for the elimination views).
#pragma once

#include <QDockWidget>
#include <memory>

#include "core/dynamics/stepper/algorithm_trace.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace kt::render {
class MatrixView;
class SceneView;
class StepArrows;
}  // namespace kt::render

namespace kt::ui {

class SimulationController;

class AlgorithmStepperDock : public QDockWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxBodies = 200;
  static constexpr int kMaxRows = 400;
  /// The eliminations' record holds a matrix per step: at most this many entries in all (96 MB).
  static constexpr long long kMaxEliminationEntries = 8'000'000;
  /// The record is taken again this long after the shown sample stopped changing.
  static constexpr int kRetraceDelayMs = 150;

  /// The algorithms the list offers, in its order.
  enum Choice { Aba, Rnea, CrbaCholesky, CfaLeavesFirst, CfaRootFirst, CfaOddEven, PoissonSweep };

  AlgorithmStepperDock(SimulationController* simulation, render::SceneView* view, QWidget* parent = nullptr);
  ~AlgorithmStepperDock() override;

  void setAlgorithm(Choice choice);
  Choice algorithm() const;
  /// The record shown (empty steps while there is none).
  const kt::AlgorithmTrace& trace() const { return trace_; }
  int step() const { return step_; }
  void setStep(int step);
  void stepForward() { setStep(step_ + 1); }
  void stepBack() { setStep(step_ - 1); }
  /// To the first step of the next pass (the last step from the last pass).
  void passForward();
  /// To the first step of this pass, or of the previous one when at a pass's first step.
  void passBack();
  void setPlaying(bool on);
  bool playing() const;
  /// Retraces at the shown sample (also on show and when the timeline moves).
  void refresh();

  // what is shown, for tests
  QString headerText() const;
  QString passText() const;
  QString equationText() const;
  QString filledText() const;
  QString handedText() const;
  QTableWidget* valuesTable() const { return values_; }
  render::MatrixView* matrixView() const { return matrix_; }
  QString matrixNote() const;
  const render::StepArrows* arrows() const { return arrows_.get(); }

 signals:
  /// The step visits tree body `treeIndex` (the main window selects it).
  void bodyVisited(int treeIndex);

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  void showStep();
  /// The matrix view: the value in row `row` of the table when it is a square matrix, else the
  /// step's own matrix.
  void showMatrix(int row);
  void showArrows();
  void clearViews(const QString& why);

  SimulationController* simulation_;
  render::SceneView* view_;
  QComboBox* choice_;
  QLabel* header_;
  QPushButton *passBack_, *back_, *forward_, *passForward_, *play_;
  QSpinBox* speed_;
  QSlider* slider_;
  QLabel* position_;
  QLabel* pass_;  ///< rich text (withMarksShown); passText_ is its plain text
  QString passText_;
  QLabel* equation_;
  QLabel* filled_;
  QTableWidget* values_;
  render::MatrixView* matrix_;
  QLabel* matrixNote_;
  QLabel* handed_;
  QCheckBox* arrowsOn_;
  QTimer* timer_;
  QTimer* retrace_;
  std::unique_ptr<render::StepArrows> arrows_;
  bool inSight_ = false;  ///< the dock's tab is the current one (visibilityChanged): its vectors are drawn
  kt::AlgorithmTrace trace_;
  int step_ = 0;
  const kt::Tree* tracedTree_ = nullptr;
  int tracedChoice_ = -1;
  double tracedTime_ = 0.0;                    ///< the shown time trace_ was recorded at
  int visitedStep_ = -1, visitedChoice_ = -1;  ///< the step whose body was last selected
};

}  // namespace kt::ui
