// SPDX-License-Identifier: BSD-3-Clause
// The Mathematics dock: what the solvers compute, at the time the views show (the timeline's
// sample), for teaching (docs/teaching.md):
//  - the mass matrix M(q) as a heat map (kt::massMatrix, the composite-rigid-body algorithm):
//    symmetric, and zero wherever two joints lie on different branches of the tree;
//  - the CFA's constraint-force system A = Tᵀ Φ T (Featherstone & Fijany 1999; Liu, Hu & Zhang
//    2016, eqs. 25–29) as cfa-dense assembles it: a joint couples with its parent and its
//    siblings only, so A is block-tridiagonal for a chain;
//    with the fill of its factor under the leaves-first order (cfa-tree: none) and under
//    cfa-oddeven's rounds (kt::oddEvenFill);
//  - Poisson impulses (Ivanov 2017): p = M ν beside ν for every coordinate, and the block factor
//    M = U Uᵀ taken from the tips to the base (§4; kt::tipsToBaseFactor): no fill, its diagonal
//    blocks the Cholesky factors L_i of S_iᵀ I^A_i S_i that poisson-ldl forms;
//  - the free-body diagram of the selected body (kt::freeBodyDiagram): every wrench acting on it,
//    the rate of change of its momentum they add up to, and the residual; while its tab is shown
//    (and "Draw in the 3D view" is on) also as arrows on the body in the 3D view
//    (render::FreeBodyArrows);
//  - the articulated-body inertia of the selected body (kt::articulatedInertias) beside its rigid
//    inertia: what a push on it feels when the bodies it carries are free to move;
//  - energy and momentum at the shown time against t = 0, with what this model should conserve
//    (no drives and no applied wrench: energy; free roots without gravity or applied wrenches:
//    linear and angular momentum).
// Values come from the recording (q, ν, q̈, τ and the loads of the shown row) and the session's
// tree; the matrices are shown up to kMaxCoordinates rows.
#pragma once

#include <QDockWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QTabWidget;
class QTableWidget;

namespace kt {
class CfaDenseSolver;
struct FreeBodyDiagram;
struct Tree;
}  // namespace kt

namespace kt::render {
class FreeBodyArrows;
class MatrixView;
class SceneView;
}  // namespace kt::render

namespace kt::ui {

class SimulationController;

class MathematicsDock : public QDockWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxCoordinates = 400;

  /// `view`: the 3D view the free-body arrows are drawn in.
  MathematicsDock(SimulationController* simulation, render::SceneView* view, QWidget* parent = nullptr);
  ~MathematicsDock() override;

  /// The selected body (tree index of the session's tree, −1: none) for the free-body diagram.
  void setSelectedBody(int treeIndex);
  /// Takes the shown sample again (when visible; also called on show).
  void refresh();

  render::MatrixView* massMatrixView() const { return mass_; }
  render::MatrixView* constraintMatrixView() const { return constraint_; }
  QString constraintSummary() const;
  QString massSummary() const;
  QTableWidget* impulseTable() const { return impulse_; }
  render::MatrixView* impulseFactorView() const { return factor_; }
  QString impulseSummary() const;
  QTableWidget* freeBodyTable() const { return freeBody_; }
  /// The free-body arrows in the 3D view (null until first drawn).
  const render::FreeBodyArrows* freeBodyArrows() const { return arrows_.get(); }
  QTableWidget* conservationTable() const { return conservation_; }
  render::MatrixView* rigidInertiaView() const { return rigid_; }
  render::MatrixView* articulatedInertiaView() const { return articulated_; }
  /// What the model conserves, one line.
  QString conservationSummary() const;
  /// The free-body diagram's summary line (body, residual).
  QString freeBodySummary() const;

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  void showConservation(const kt::Tree& tree, const double* row);
  /// Draws `d` (of the session's tree at the shown sample) in the 3D view while the Free body
  /// tab is shown; hides the arrows otherwise or for null.
  void showFreeBodyArrows(const kt::FreeBodyDiagram* d);

  SimulationController* simulation_;
  QTabWidget* tabs_;
  QLabel* header_;
  render::MatrixView* mass_;
  QLabel* massNote_;
  render::MatrixView* constraint_;
  QLabel* constraintNote_;
  QTableWidget* impulse_;
  render::MatrixView* factor_;
  QLabel* impulseNote_;
  QTableWidget* freeBody_;
  QLabel* freeBodyNote_;
  QCheckBox* freeBodyArrowsOn_;
  QWidget* freeBodyPage_ = nullptr;
  render::SceneView* view_;
  std::unique_ptr<render::FreeBodyArrows> arrows_;
  bool inSight_ = false;  ///< the dock's tab is the current one (visibilityChanged): the diagram is drawn
  render::MatrixView* rigid_;
  render::MatrixView* articulated_;
  QLabel* inertiaNote_;
  QTableWidget* conservation_;
  QLabel* conservationNote_;
  QLabel* readout_;
  int selected_ = -1;
  const kt::Tree* cfaTree_ = nullptr;        ///< the tree cfa_ was built for
  std::unique_ptr<kt::CfaDenseSolver> cfa_;  ///< assembles A
};

}  // namespace kt::ui
