// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/main_window.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QIcon>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoView>
#include <QVBoxLayout>

#include "core/model/diagnostic.hpp"
#include "core/results/recorder.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/edit_actions.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/export_actions.hpp"
#include "ui/results/fatigue_dock.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/results/peak_loads_dock.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/results/run_results.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/shared/status_message.hpp"
#include "ui/shell/edit_guards.hpp"
#include "ui/shell/help_dialogs.hpp"
#include "ui/shell/view_menu.hpp"
#include "ui/shell/window_layout.hpp"
#include "ui/simulation/body_grab.hpp"
#include "ui/simulation/drive_panel.hpp"
#include "ui/simulation/push_dialog.hpp"
#include "ui/simulation/simulation_actions.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/simulation_status.hpp"
#include "ui/simulation/timeline_bar.hpp"
#include "ui/teaching/algorithm_stepper_dock.hpp"
#include "ui/teaching/compare_solvers_dialog.hpp"
#include "ui/teaching/mathematics_dock.hpp"

namespace kt::ui {

namespace {

// The dock's content keeps its own minimum size and scrolls when the dock is made smaller, so
// that the dock does not set the window's minimum (the Mathematics dock's views side by side
// need about 470 × 290 px, more than a 1366 × 768 screen leaves beside the others).
void scrollWhenSmall(QDockWidget* dock) {
  QWidget* content = dock->widget();
  auto* scroll = new QScrollArea;
  scroll->setObjectName(dock->objectName() + QStringLiteral("Scroll"));
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  dock->setWidget(scroll);  // hides the content it replaces
  scroll->setWidget(content);
  content->show();
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      doc_(new Document(this)),
      view_(new render::SceneView(this)),
      treeDock_(new ModelTreeDock(doc_, this)),
      propertiesDock_(new PropertiesDock(doc_, this)),
      problemsDock_(new ProblemsDock(doc_, this)),
      historyDock_(new QDockWidget(tr("History"), this)),
      historyView_(new QUndoView(doc_->undoStack(), historyDock_)),
      selection_(new Selection(doc_, treeDock_, propertiesDock_, view_, this)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(resources::kIcon));
  installWheelGuard();
  routeUndoShortcutsTo(this);
  placeDocks();

  files_ = new FileActions(doc_, view_, this);
  edits_ = new EditActions(doc_, selection_, treeDock_, view_, this);
  viewMenu_ = new ViewMenu(view_, selection_, tree_, this);
  helpMenu_ = new HelpMenu(files_->examplesMenu(), this);
  statusBar()->showMessage(tr("Ready"));

  // A replacement (open, new, recover) emits modelReplaced and then changed; edits only changed.
  connect(doc_, &Document::modelReplaced, this, [this] {
    selection_->forget();
    replacing_ = true;
  });
  connect(doc_, &Document::changed, this, &MainWindow::onDocumentChanged);
  connect(doc_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc_, &Document::filePathChanged, this, &MainWindow::updateTitle);
  const auto refused = [this](const QString& reason) {
    refusal_ = reason;
    statusBar()->showMessage(reason, kStatusMessageMs);
  };
  connect(doc_->bodyTree(), &BodyTreeModel::editRefused, this, refused);
  connect(propertiesDock_, &PropertiesDock::editRefused, this, refused);
  connect(problemsDock_, &ProblemsDock::problemActivated, this, [this](const FieldLocation& location) {
    if (location.body >= 0) selection_->selectBody(location.body);
    propertiesDock_->show();
    propertiesDock_->raise();
    propertiesDock_->focusField(location);
  });

  createSimulation();

  QMenu* file = files_->menu();
  file->addSeparator();
  file->addAction(exports_->exportResultsAction());
  file->addAction(exports_->exportReportAction());
  file->addAction(exports_->exportVideoAction());
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* view = viewMenu_->menu();
  view->addMenu(jointLoads_->menu());
  view->addSeparator();
  for (QDockWidget* dock : {static_cast<QDockWidget*>(treeDock_), static_cast<QDockWidget*>(propertiesDock_),
                            static_cast<QDockWidget*>(problemsDock_), historyDock_})
    view->addAction(dock->toggleViewAction());
  // shown from the start: the first picture is the paper's (base attitude, the first arm's joint
  // angles, its first joint's constraint forces); View ▸ Plots (Ctrl+Shift+P) hides it
  plotsDock_->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  view->addAction(plotsDock_->toggleViewAction());
  QAction* degrees = view->addAction(tr("Angles in &Degrees"));
  degrees->setObjectName(QStringLiteral("anglesInDegreesAction"));
  degrees->setCheckable(true);
  degrees->setStatusTip(tr("Plots show angles in degrees (the recording and the CSV stay in radians)"));
  degrees->setChecked(QSettings().value(QStringLiteral("anglesInDegrees"), true).toBool());
  plotsDock_->setAnglesInDegrees(degrees->isChecked());
  connect(degrees, &QAction::toggled, this, [this](bool on) {
    plotsDock_->setAnglesInDegrees(on);
    QSettings().setValue(QStringLiteral("anglesInDegrees"), on);
  });
  view->addAction(peakLoadsDock_->toggleViewAction());
  fatigueDock_->toggleViewAction()->setObjectName(QStringLiteral("fatigueDockAction"));
  fatigueDock_->toggleViewAction()->setStatusTip(
      tr("Rainflow cycles and damage-equivalent loads of the selected joint's loads over the run"));
  view->addAction(fatigueDock_->toggleViewAction());
  view->addAction(mathematicsDock_->toggleViewAction());
  stepperDock_->toggleViewAction()->setObjectName(QStringLiteral("stepperDockAction"));
  stepperDock_->toggleViewAction()->setStatusTip(
      tr("Step through ABA, the RNEA, CRBA + Cholesky or the CFA body by body at the state the timeline shows"));
  view->addAction(stepperDock_->toggleViewAction());
  drivesDock_->toggleViewAction()->setObjectName(QStringLiteral("drivesDockAction"));
  drivesDock_->toggleViewAction()->setStatusTip(
      tr("Turn the drives of the running model (setpoints, forces, gains, on and off) and pose it while paused "
         "(recorded with the run)"));
  view->addAction(drivesDock_->toggleViewAction());
  view->addSeparator();
  QAction* resetLayout = view->addAction(tr("Reset &Layout"));
  resetLayout->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayout->setStatusTip(tr("Back to the default docks, where they start, at sizes that suit the window"));

  layout_ = new WindowLayout(this, {treeDock_, propertiesDock_, problemsDock_, plotsDock_});
  connect(resetLayout, &QAction::triggered, layout_, &WindowLayout::resetLayout);
  layout_->startFromSettings();
  refreshModel(true);
  updateTitle();
}

MainWindow::~MainWindow() {
  // A field still holding typed text commits now, while the window is whole: ~QWidget takes its
  // focus only after this body, and the edit would then reach a window whose members are gone.
  commitFocusedField(this);
  // The session ends while every part that listens to it still exists (its children are deleted
  // after this body, in an order that does not follow the connections).
  if (simulation_) simulation_->shutdown();
}

void MainWindow::placeDocks() {
  // the centre: the 3D view, and under it the timeline (createSimulation)
  auto* central = new QWidget;
  central->setObjectName(QStringLiteral("centre"));
  auto* centre = new QVBoxLayout(central);
  centre->setContentsMargins(0, 0, 0, 0);
  centre->setSpacing(0);
  centre->addWidget(view_, 1);
  setCentralWidget(central);
  setDockNestingEnabled(true);
  // the Model and Properties column runs the full height: the Plots dock opens beside it, not
  // under it (where it took half of the Properties dock's room)
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

  historyDock_->setObjectName(QStringLiteral("historyDock"));
  historyView_->setObjectName(QStringLiteral("historyView"));
  historyView_->setEmptyLabel(tr("<as opened>"));
  historyDock_->setWidget(historyView_);

  addDockWidget(Qt::LeftDockWidgetArea, treeDock_);
  addDockWidget(Qt::LeftDockWidgetArea, propertiesDock_);
  splitDockWidget(treeDock_, propertiesDock_, Qt::Vertical);
  addDockWidget(Qt::RightDockWidgetArea, problemsDock_);
  tabifyDockWidget(problemsDock_, historyDock_);
  problemsDock_->raise();
}

void MainWindow::createSimulation() {
  simulation_ = new SimulationController(*doc_, this);
  // first: its handlers of the session and the polls run before those of the views that read it
  results_ = new RunResults(simulation_, this);
  // the run to the 3D view: a new run starts new trails; every frame shows the shown sample's q
  connect(simulation_, &SimulationController::sessionStarted, view_, &render::SceneView::clearTrails);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    // a run kept after an edit that changed the joints does not fit the edited model's scene
    if (simulation_->hasShownSample() && simulation_->sessionFits(tree_))
      view_->showPoses(simulation_->shownSample().poses);
  });
  simulationActions_ = new SimulationActions(simulation_, this);
  menuBar()->insertMenu(helpMenu_->menu()->menuAction(), simulationActions_->menu());
  simulationActions_->menu()->addSeparator();
  compareAction_ = simulationActions_->menu()->addAction(tr("&Compare Solvers…"), this, [this] {
    // not modal: the timeline scrubs the run and the comparison together
    if (!compareDialog_) {
      compareDialog_ = new CompareSolversDialog(*simulation_, this);
      connect(compareDialog_, &CompareSolversDialog::timeRequested, simulation_, &SimulationController::showTime);
    }
    compareDialog_->show();
    compareDialog_->raise();
    compareDialog_->activateWindow();
  });
  compareAction_->setObjectName(QStringLiteral("compareSolversAction"));
  pushAction_ = simulationActions_->menu()->addAction(tr("&Push a Body…"), this, [this] {
    if (!pushDialog_) pushDialog_ = new PushDialog(simulation_, this);
    const bool opening = !pushDialog_->isVisible();
    pushDialog_->show();                                                      // lists the run's bodies
    if (const int body = selection_->selectedBody(); opening && body >= 0) {  // the body the user picked
      const QString name = QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(body)].name);
      if (const int k = pushDialog_->bodyBox()->findText(name); k >= 0) pushDialog_->bodyBox()->setCurrentIndex(k);
    }
    pushDialog_->raise();
    pushDialog_->activateWindow();
  });
  pushAction_->setObjectName(QStringLiteral("pushBodyAction"));
  pushAction_->setStatusTip(
      tr("Apply an exact force and moment to a body of the run, constant or as a pulse "
         "(Ctrl+drag in the 3D view pulls a body by hand)"));
  compareAction_->setStatusTip(
      tr("Evaluate every solver at the states of the recorded run, or run each, and show how far they differ"));
  addToolBar(simulationActions_->toolBar());
  simulationStatus_ = new SimulationStatus(simulation_, statusBar(), this);
  // Ctrl+drag in the 3D view pulls or turns a body of the run
  bodyGrab_ = new BodyGrab(simulation_, view_, this);
  connect(bodyGrab_, &BodyGrab::statusMessage, this,
          [this](const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
  timeline_ = new TimelineBar(simulation_);
  centralWidget()->layout()->addWidget(timeline_);

  // the results views
  jointLoads_ = new JointLoadView(simulation_, results_, view_, this);
  plotsDock_ = new PlotsDock(simulation_, this);
  addDockWidget(Qt::BottomDockWidgetArea, plotsDock_);
  // the loads pane shows what the arrows show, in the same frame
  connect(jointLoads_, &JointLoadView::loadViewChanged, plotsDock_, &PlotsDock::setLoadView);
  // and the dead band the arrows and Peak Loads use: a load pane of rounding noise stays flat
  connect(results_, &RunResults::loadScaleChanged, plotsDock_, [this](double force, double moment) {
    const kt::LoadScale floor = kt::noiseFloors({force, moment});  // a kind that is all noise: flat too
    for (int p = 0; p < PlotsDock::kPaneCount; ++p)
      if (auto* pane = qobject_cast<render::ChartPane*>(plotsDock_->paneWidget(p))) {
        pane->setNoiseFloor(QStringLiteral("N"), floor.force);
        pane->setNoiseFloor(QStringLiteral("N·m"), floor.moment);  // as PlotsDock writes the unit
      }
  });
  peakLoadsDock_ = new PeakLoadsDock(
      simulation_, results_, [this] { return plotsDock_->visibleTimeRange(); }, this);
  addDockWidget(Qt::RightDockWidgetArea, peakLoadsDock_);
  tabifyDockWidget(historyDock_, peakLoadsDock_);
  connect(plotsDock_, &PlotsDock::visibleRangeChanged, peakLoadsDock_, &PeakLoadsDock::plotsRangeChanged);
  connect(peakLoadsDock_, &PeakLoadsDock::jointActivated, this, [this](int treeIndex, double t) {
    if (simulation_->sessionFits(tree_)) selection_->selectBody(selection_->bodyOfTreeIndex(treeIndex));
    simulation_->showTime(t);
  });
  fatigueDock_ = new FatigueDock(simulation_, this);
  addDockWidget(Qt::RightDockWidgetArea, fatigueDock_);
  tabifyDockWidget(peakLoadsDock_, fatigueDock_);
  fatigueDock_->hide();  // opened from the View menu
  connect(fatigueDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) fatigueDock_->raise();
  });
  mathematicsDock_ = new MathematicsDock(simulation_, view_, this);
  scrollWhenSmall(mathematicsDock_);
  addDockWidget(Qt::RightDockWidgetArea, mathematicsDock_);
  // beside the Plots, as the stepper: M(q) of the space robot is 18 × 18 and the CFA's system 60
  // rows, which the right column showed a corner of; the 3D view, where the free-body diagram is
  // drawn, stays in sight
  tabifyDockWidget(plotsDock_, mathematicsDock_);
  mathematicsDock_->hide();  // opened from the View menu
  stepperDock_ = new AlgorithmStepperDock(simulation_, view_, this);
  scrollWhenSmall(stepperDock_);
  addDockWidget(Qt::RightDockWidgetArea, stepperDock_);
  // beside the Plots, under the 3D view: its two columns need the width, the view stays in sight
  tabifyDockWidget(plotsDock_, stepperDock_);
  stepperDock_->hide();  // opened from the View menu
  connect(stepperDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) stepperDock_->raise();
  });
  // the body a step visits is selected: the Model dock and the 3D view highlight it
  connect(stepperDock_, &AlgorithmStepperDock::bodyVisited, this, [this](int treeIndex) {
    if (!simulation_->sessionFits(tree_)) return;
    const int body = selection_->bodyOfTreeIndex(treeIndex);
    if (body >= 0 && body != selection_->selectedBody()) selection_->selectBody(body);
  });
  drivesDock_ = new DrivePanelDock(simulation_, *doc_, this);  // scrolls its joints itself
  connect(drivesDock_, &DrivePanelDock::statusMessage, this,
          [this](const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
  addDockWidget(Qt::RightDockWidgetArea, drivesDock_);
  tabifyDockWidget(peakLoadsDock_, drivesDock_);
  drivesDock_->hide();  // opened from the View menu
  connect(drivesDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) drivesDock_->raise();
  });
  QAction* pose = new QAction(tr("Pose the &Model…"), this);
  pose->setObjectName(QStringLiteral("poseModelAction"));
  pose->setStatusTip(
      tr("Set where the joints are while the run is paused, and keep it as the initial state "
         "(Ctrl+drag moves a floating body while paused)"));
  connect(pose, &QAction::triggered, this, [this] {
    drivesDock_->show();
    drivesDock_->raise();
    drivesDock_->showPoseTab(true);
  });
  simulationActions_->menu()->insertAction(
      simulationActions_->menu()->actions().value(simulationActions_->menu()->actions().indexOf(pushAction_) + 1),
      pose);
  problemsDock_->raise();
  // tabbed behind the Plots: opened from the menu, it comes to the front
  connect(mathematicsDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) mathematicsDock_->raise();
  });
  exports_ = new ExportActions(
      simulation_, plotsDock_, [this] { return videoSource(); }, this);
  simulationStatus_->setExportAction(exports_->exportResultsAction());

  // the Problems dock warns of the joints whose peak load reached their rating, once a run stops
  connect(simulation_, &SimulationController::sessionStarted, this,
          [this] { doc_->problems()->setRunPeaks({}, doc_->model()); });
  connect(results_, &RunResults::runStopped, this, [this] {
    if (const kt::PeakLoads* peaks = results_->peaks())
      doc_->problems()->setRunPeaks(peaks->joints(), doc_->model(), kt::interactionSpans(simulation_->events()),
                                    simulation_->tree() ? simulation_->tree()->bodyNames : std::vector<std::string>{});
  });
  // Compare Solvers needs a recording
  const auto updateCompare = [this] {
    const kt::Recorder* rec = simulation_->recorder();
    compareAction_->setEnabled(rec && rec->size() > 0);
  };
  updateCompare();
  connect(simulation_, &SimulationController::stateChanged, this, updateCompare);
  connect(simulation_, &SimulationController::sessionEnded, this, [this] { compareAction_->setEnabled(false); });

  // the model to the run: the arrows are rebuilt for the shown tree before the run restarts
  connect(this, &MainWindow::modelReplaced, this, [this] {
    jointLoads_->rebuild(tree_, kt::PeakLoads::ratingsOf(doc_->model(), tree_));
    plotsDock_->clear();  // nothing of the old model stays in a pane
    simulation_->modelReplaced(runnable_);
    // nor among the problems: cleared once the old session has ended (its end announces its peaks)
    doc_->problems()->setRunPeaks({}, doc_->model());
  });
  connect(this, &MainWindow::modelEdited, this, [this] {
    jointLoads_->rebuild(tree_, kt::PeakLoads::ratingsOf(doc_->model(), tree_), /*edited=*/true);
    simulation_->modelEdited(runnable_);
  });
  connect(selection_, &Selection::selectionChanged, this, [this](int, int treeIndex) {
    // the plots show the session's joints: a kept run of other joints has no such index
    plotsDock_->setSelectedJoint(simulation_->sessionFits(tree_) ? treeIndex : -1);
    mathematicsDock_->setSelectedBody(simulation_->sessionFits(tree_) ? treeIndex : -1);
    jointLoads_->setSelectedJoint(treeIndex);
    if (simulation_->sessionFits(tree_)) fatigueDock_->setJoint(treeIndex);
  });
}

VideoSource MainWindow::videoSource() const {
  VideoSource source;
  source.simulation = simulation_;
  source.modelDirectory = doc_->modelDirectory().toStdString();
  // the view's camera; its followed body, arrows and selection where they name the run's joints
  source.view = view_;
  if (simulation_->sessionFits(tree_)) {
    if (const render::LoadArrows* arrows = jointLoads_->arrows()) {
      source.arrows = arrows->options();
      source.arrowScale = results_->loadScale(arrows->options().reactionOnly);
    }
    source.selectedJoint = selection_->treeIndexOf(selection_->selectedBody());
    source.followBody = view_->followBody();
  }
  for (auto& [title, series] : plotsDock_->paneContents()) source.panes.push_back({title, series});
  return source;
}

void MainWindow::onDocumentChanged() {
  const bool replaced = replacing_;
  replacing_ = false;
  // an edit that lands ends what a refusal said (the Properties dock clears its own note likewise)
  if (!refusal_.isEmpty() && statusBar()->currentMessage() == refusal_) statusBar()->clearMessage();
  refusal_.clear();
  refreshModel(replaced);
  if (replaced) {
    announceModel();
    selection_->selectBody(-1);
    emit modelReplaced();
  } else {
    // New bodies outside the view (a template, a mirrored arm) re-fit it, looking the same way.
    if (doc_->model().bodies.size() > shownBodies_) view_->fitIfOutside();
    // The selection follows its body through edits (its index may have moved), or goes.
    selection_->followEdit();
    emit modelEdited();
  }
  shownBodies_ = doc_->model().bodies.size();
  updateTitle();
}

void MainWindow::announceModel() {
  const kt::Model& m = doc_->model();
  const QString name = doc_->displayName();
  QString message;
  if (m.bodies.empty()) {
    message = tr("%1: no bodies yet").arg(name);
  } else {
    message = tr("%1: %2, nq %3, nv %4, mass %5 kg")
                  .arg(name, countText(static_cast<long long>(m.bodies.size()), tr("body"), tr("bodies")))
                  .arg(tree_.nq)
                  .arg(tree_.nv)
                  .arg(tree_.totalMass(), 0, 'g', 6);
  }
  const int problems = static_cast<int>(kt::problemCount(doc_->problems()->diagnostics()));
  if (problems > 0 && !m.bodies.empty()) {
    message = tr("%1 opened with %2: fix %3 to run it (View ▸ Problems)")
                  .arg(name, countText(problems, tr("problem"), tr("problems")), problems == 1 ? tr("it") : tr("them"));
    problemsDock_->show();
    problemsDock_->raise();
  }
  const auto& warnings = view_->scene().warnings();
  if (!warnings.empty()) message += QStringLiteral(" — ") + QString::fromStdString(warnings.front());
  statusBar()->showMessage(message);
}

void MainWindow::refreshModel(bool reframe) {
  const kt::Model& model = doc_->model();
  kt::Tree tree;
  std::vector<kt::Diagnostic> problems;
  // a model whose tables a run cannot read is drawn, and does not run
  const bool drawable = !model.bodies.empty() && doc_->problems()->modelValid() && kt::finalize(model, tree, problems);
  runnable_ = drawable && doc_->problems()->isEmpty();
  // With problems the last valid picture stays (the problems dock says what is wrong).
  if (!drawable && !model.bodies.empty() && !reframe) return;
  tree_ = drawable ? std::move(tree) : kt::Tree{};
  selection_->setTree(tree_);
  const kt::Model shown = drawable ? model : kt::Model{};
  view_->showModel(shown, tree_, doc_->modelDirectory().toStdString(), reframe);
  viewMenu_->sceneRebuilt();
}

void MainWindow::updateTitle() {
  setWindowTitle(QStringLiteral("%1[*] — Kinetree").arg(doc_->displayName()));
  setWindowModified(doc_->isModified());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!files_->maybeSave()) {
    event->ignore();
    return;
  }
  layout_->saveSettings();
  viewMenu_->saveSettings();
  if (simulation_) simulation_->shutdown();  // the window is closing: stop the work
  QMainWindow::closeEvent(event);
}

}  // namespace kt::ui
