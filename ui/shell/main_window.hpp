// SPDX-License-Identifier: BSD-3-Clause
// The main window: the 3D view in the centre; the model tree, properties, problems, undo history,
// plots, peak loads and mathematics docks; the File, Edit, View, Simulation and Help menus and the
// simulation toolbar. It only creates the parts and wires them: each menu, dock and dialog is a
// class of its room (docs/architecture.md, "The application's rooms"):
//  - ui/shell: ViewMenu, HelpMenu, WindowLayout; ui/files: FileActions (the File menu);
//  - ui/editor: Selection, EditActions, the Model, Properties and Problems docks;
//  - ui/simulation: the SimulationController and its menu, toolbar, status and timeline;
//  - ui/results: RunResults, the plots, Peak Loads, the load arrows, ExportActions;
//  - ui/teaching: the Mathematics dock and Compare Solvers.
//
// The document (ui/document/Document) is the model being edited. After every change the window
// finalizes it into a kt::Tree: when the model is valid the 3D view rebuilds and modelEdited()
// tells the simulation to stop and reset; when it has problems the last valid picture stays, the
// problems dock lists them and the model cannot be run.
//
// A run (docs/architecture.md, "Data flow of a run"): the Simulation menu's Run reaches the
// SimulationController, whose kt::RunLoop steps on its own thread into the Recorder; the
// controller's shownSampleChanged() moves the 3D view to the shown sample's q, the JointLoadView reads its
// loads and the plots read the Recorder.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include "core/model/tree.hpp"

class QDockWidget;
class QUndoView;

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class BodyGrab;
class CompareSolversDialog;
class DrivePanelDock;
class Document;
class EditActions;
class ExportActions;
class FileActions;
class HelpMenu;
class JointLoadView;
class AlgorithmStepperDock;
class MathematicsDock;
class ModelTreeDock;
class FatigueDock;
class PeakLoadsDock;
class PlotsDock;
class ProblemsDock;
class PropertiesDock;
class PushDialog;
class RunResults;
class Selection;
class SimulationActions;
class SimulationController;
class SimulationStatus;
class TimelineBar;
class ViewMenu;
class WindowLayout;
struct VideoSource;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // ---- the model ----
  Document& document() const { return *doc_; }
  /// The finalized current model (the last valid one while the model has problems).
  const kt::Tree& tree() const { return tree_; }
  /// True when the model has bodies and no problems (it can be run).
  bool isRunnable() const { return runnable_; }

  // ---- parts ----
  FileActions& files() const { return *files_; }
  Selection& selection() const { return *selection_; }
  WindowLayout& layout() const { return *layout_; }
  render::SceneView* sceneView() const { return view_; }
  ModelTreeDock* modelTreeDock() const { return treeDock_; }
  PropertiesDock* propertiesDock() const { return propertiesDock_; }
  ProblemsDock* problemsDock() const { return problemsDock_; }
  QDockWidget* historyDock() const { return historyDock_; }
  SimulationController* simulation() const { return simulation_; }
  RunResults* runResults() const { return results_; }
  PlotsDock* plotsDock() const { return plotsDock_; }
  JointLoadView* jointLoadView() const { return jointLoads_; }
  SimulationStatus* simulationStatus() const { return simulationStatus_; }
  BodyGrab* bodyGrab() const { return bodyGrab_; }
  DrivePanelDock* drivesDock() const { return drivesDock_; }
  QAction* pushAction() const { return pushAction_; }
  PushDialog* pushDialog() const { return pushDialog_; }
  TimelineBar* timeline() const { return timeline_; }
  PeakLoadsDock* peakLoadsDock() const { return peakLoadsDock_; }
  FatigueDock* fatigueDock() const { return fatigueDock_; }
  MathematicsDock* mathematicsDock() const { return mathematicsDock_; }
  AlgorithmStepperDock* stepperDock() const { return stepperDock_; }
  ExportActions& exports() const { return *exports_; }
  /// What an exported video shows besides the recording: the views as the window has them.
  VideoSource videoSource() const;

 signals:
  /// Another model replaced the document (open, new, recover): settings come from its file.
  void modelReplaced();
  /// The document was edited: the simulation stops and resets to its initial state (when it can
  /// run: isRunnable()).
  void modelEdited();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  /// The docks and the centre, where they start.
  void placeDocks();
  /// The controller and what follows it: the Simulation menu and toolbar, the results views,
  /// the status-bar figures; and the wiring from the model to the run and from the run to the views.
  void createSimulation();
  void onDocumentChanged();
  /// Finalizes the document; rebuilds the scene when valid. `reframe`: reset the camera.
  void refreshModel(bool reframe);
  /// The status line for a model that replaced the document.
  void announceModel();
  void updateTitle();

  Document* doc_;
  kt::Tree tree_;
  bool runnable_ = false;
  bool replacing_ = false;       ///< Document::modelReplaced came; its changed() follows
  QString refusal_;              ///< the last refused edit's reason the status bar was given
  std::size_t shownBodies_ = 0;  ///< bodies in the model last shown: an edit that adds some may re-fit the view
  render::SceneView* view_;
  ModelTreeDock* treeDock_;
  PropertiesDock* propertiesDock_;
  ProblemsDock* problemsDock_;
  QDockWidget* historyDock_;
  QUndoView* historyView_;
  Selection* selection_;
  FileActions* files_ = nullptr;
  EditActions* edits_ = nullptr;
  ViewMenu* viewMenu_ = nullptr;
  HelpMenu* helpMenu_ = nullptr;
  WindowLayout* layout_ = nullptr;
  SimulationController* simulation_ = nullptr;
  RunResults* results_ = nullptr;
  SimulationActions* simulationActions_ = nullptr;
  SimulationStatus* simulationStatus_ = nullptr;
  BodyGrab* bodyGrab_ = nullptr;
  DrivePanelDock* drivesDock_ = nullptr;
  QAction* pushAction_ = nullptr;
  PushDialog* pushDialog_ = nullptr;  // made on first use, owned by the window
  TimelineBar* timeline_ = nullptr;
  JointLoadView* jointLoads_ = nullptr;
  PlotsDock* plotsDock_ = nullptr;
  PeakLoadsDock* peakLoadsDock_ = nullptr;
  FatigueDock* fatigueDock_ = nullptr;
  MathematicsDock* mathematicsDock_ = nullptr;
  AlgorithmStepperDock* stepperDock_ = nullptr;
  ExportActions* exports_ = nullptr;
  QAction* compareAction_ = nullptr;
  QPointer<CompareSolversDialog> compareDialog_;
};

}  // namespace kt::ui
