// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDataStream>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTextDocument>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>
#include <QUndoView>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/recorder.hpp"
#include "core/version.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/teaching/compare_solvers_dialog.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/document/recovery.hpp"
#include "ui/shell/edit_guards.hpp"
#include "ui/results/export/export_results_dialog.hpp"
#include "ui/results/export/export_video_dialog.hpp"
#include "ui/shell/help_dialogs.hpp"
#include "ui/shell/import_urdf.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/teaching/mathematics_dock.hpp"
#include "ui/editor/mirror_dialog.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/results/peak_loads_dock.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/properties/properties_dock.hpp"
#include "ui/shell/recent_files.hpp"
#include "ui/simulation/simulation_actions.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/simulation_status.hpp"
#include "ui/editor/template_dialog.hpp"
#include "ui/simulation/timeline_bar.hpp"

namespace kt::ui {

namespace {

constexpr int kMessageMs = 10'000;
// Files above this size (about 2,000 bodies) show a progress dialog while they open.
constexpr qint64 kProgressFileBytes = 1'000'000;
// The Plots dock's share of the height the docks have: three panes of 160 px or more at 1600 × 1000.
constexpr int kPlotsPercent = 58;

QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<int>(s.size())); }

bool isModelFile(const QUrl& url) {
  if (!url.isLocalFile()) return false;
  const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
  return suffix == QLatin1String("yaml") || suffix == QLatin1String("yml") || suffix == QLatin1String("urdf");
}

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
      historyView_(new QUndoView(doc_->undoStack(), historyDock_)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(resources::kIcon));
  installWheelGuard();
  routeUndoShortcutsTo(this);
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
  setAcceptDrops(true);

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

  createFileMenu();
  createEditMenu();
  createViewMenu();
  createHelpMenu();
  statusBar()->showMessage(tr("Ready"));

  // A replacement (open, new, recover) emits modelReplaced and then changed; edits only changed.
  connect(doc_, &Document::modelReplaced, this, &MainWindow::onDocumentReplaced);
  connect(doc_, &Document::changed, this, &MainWindow::onDocumentChanged);
  connect(doc_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc_, &Document::filePathChanged, this, &MainWindow::updateTitle);
  connect(doc_->bodyTree(), &BodyTreeModel::editRefused, this,
          [this](const QString& reason) { statusBar()->showMessage(reason, kMessageMs); });
  connect(propertiesDock_, &PropertiesDock::editRefused, this,
          [this](const QString& reason) { statusBar()->showMessage(reason, kMessageMs); });
  connect(treeDock_, &ModelTreeDock::bodySelected, this, &MainWindow::onTreeSelection);
  connect(treeDock_, &ModelTreeDock::selectionSetChanged, this, [this] {
    propertiesDock_->setAlsoEdited(treeDock_->selectedBodies());
    showSelectionInView();
    updateEditActions();
  });
  connect(view_, &render::SceneView::bodyPicked, this, &MainWindow::onBodyPicked);
  connect(view_, &render::SceneView::bodyToggled, this,
          [this](int treeIndex) { treeDock_->toggleBody(bodyOfTreeIndex(treeIndex)); });
  connect(view_, &render::SceneView::buildProgress, this, &MainWindow::showBuildProgress);
  connect(problemsDock_, &ProblemsDock::problemActivated, this, &MainWindow::onProblemActivated);

  createSimulation();
  viewMenu_->addSeparator();
  QAction* resetLayoutAction = viewMenu_->addAction(tr("Reset &Layout"), this, &MainWindow::resetLayout);
  resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayoutAction->setStatusTip(tr("Back to the default docks, where they start, at sizes that suit the window"));

  // The first start: most of the screen, never more than it (a 1366 × 768 laptop included).
  const QSize screen = this->screen()->availableGeometry().size();
  resize(QSize(screen.width() * 9 / 10, screen.height() * 9 / 10).expandedTo(QSize(1024, 640)).boundedTo(screen));
  applyDefaultDockSizes();
  defaultState_ = saveState();
  restoreSettings();
  refreshModel(true);
  updateTitle();
  updateEditActions();
}

MainWindow::~MainWindow() {
  // A field still holding typed text commits now, while the window is whole: ~QWidget takes its
  // focus only after this body, and the edit would then reach a window whose members are gone.
  commitFocusedField(this);
  // The session ends while every part that listens to it still exists (its children are deleted
  // after this body, in an order that does not follow the connections).
  if (simulation_) simulation_->shutdown();
}

// ---- menus ----

void MainWindow::createFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&New"), QKeySequence::New, this, &MainWindow::newModel);
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::showOpenDialog);

  QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
  recent_ = new RecentFiles(recentMenu, this);
  connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
    if (!QFileInfo::exists(path)) {
      QMessageBox::warning(this, tr("Open Recent"), tr("%1 no longer exists.").arg(QDir::toNativeSeparators(path)));
      recent_->remove(path);
      return;
    }
    openModel(path);
  });

  examplesMenu_ = file->addMenu(tr("&Examples"));  // in the Help menu too
  examplesMenu_->setObjectName(QStringLiteral("examplesMenu"));
  const QStringList models = resources::exampleModels();
  for (const QString& path : models) {
    QAction* action = examplesMenu_->addAction(resources::exampleTitle(path));
    action->setData(path);
    connect(action, &QAction::triggered, this, [this, path] { openModel(path); });
  }
  examplesMenu_->setEnabled(!models.isEmpty());
  QAction* importUrdf = file->addAction(tr("&Import URDF…"), this, &MainWindow::showImportUrdfDialog);
  importUrdf->setObjectName(QStringLiteral("importUrdfAction"));
  importUrdf->setStatusTip(tr("Read a robot from a URDF file into a new, unsaved model"));

  file->addSeparator();
  saveAction_ = file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
  QAction* saveAs = file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
  saveAs->setObjectName(QStringLiteral("saveAsAction"));
  // the platform's Save As key, or Ctrl+Shift+S where it has none (X11 without a desktop's theme)
  if (saveAs->shortcuts().isEmpty()) saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  file->addSeparator();
  exportResultsAction_ = file->addAction(tr("Export &Results…"), this, &MainWindow::showExportResults);
  exportResultsAction_->setObjectName(QStringLiteral("exportResultsAction"));
  exportResultsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportResultsAction_->setStatusTip(tr("Write the recorded run as CSV, as kinetree-cli simulate does"));
  exportResultsAction_->setEnabled(false);
  exportVideoAction_ = file->addAction(tr("Export &Video…"), this, &MainWindow::showExportVideo);
  exportVideoAction_->setObjectName(QStringLiteral("exportVideoAction"));
  exportVideoAction_->setStatusTip(tr("Render the recorded run as an MP4 video or PNG images"));
  exportVideoAction_->setEnabled(false);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::createEditMenu() {
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  // Undo and redo act on the model wherever the focus is (ui/shell/edit_guards.hpp): the field being
  // edited commits first, so what it held is undone too and never shown as if the model held it.
  QUndoStack* stack = doc_->undoStack();
  QAction* undo = stack->createUndoAction(this, tr("&Undo"));
  undo->setObjectName(QStringLiteral("undoAction"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = stack->createRedoAction(this, tr("&Redo"));
  redo->setObjectName(QStringLiteral("redoAction"));
  redo->setShortcut(QKeySequence::Redo);
  for (QAction* a : {undo, redo}) disconnect(a, &QAction::triggered, stack, nullptr);
  connect(undo, &QAction::triggered, this, [this, stack] {
    commitFocusedField(this);
    stack->undo();
  });
  connect(redo, &QAction::triggered, this, [this, stack] {
    commitFocusedField(this);
    stack->redo();
  });
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();

  QMenu* add = edit->addMenu(tr("&Add Body"));
  add->setToolTip(tr("Adds a body under the selected one (or at the top) with a joint of this type"));
  for (kt::JointType type : kt::kAllJointTypes) {
    const int t = static_cast<int>(type);
    QAction* a = add->addAction(tr("with a %1 Joint").arg(text(kt::jointTypeName(type))));
    a->setObjectName(QStringLiteral("addBody_") + text(kt::jointTypeName(type)));
    connect(a, &QAction::triggered, this, [this, t] { addBody(t); });
  }
  QMenu* templates = edit->addMenu(tr("Insert &Template"));
  const struct {
    const char* label;
    TemplateDialog::Kind kind;
  } kinds[] = {{QT_TR_NOOP("Serial &Arm…"), TemplateDialog::Kind::Arm},
               {QT_TR_NOOP("&Chain…"), TemplateDialog::Kind::Chain},
               {QT_TR_NOOP("&Prism Base…"), TemplateDialog::Kind::PrismBase}};
  for (const auto& k : kinds) {
    const int kind = static_cast<int>(k.kind);
    templates->addAction(tr(k.label), this, [this, kind] { insertTemplate(kind); });
  }
  edit->addSeparator();

  renameAction_ = edit->addAction(tr("Re&name Body"), treeDock_, &ModelTreeDock::renameSelected);
  renameAction_->setShortcut(Qt::Key_F2);
  duplicateAction_ = edit->addAction(tr("&Duplicate Subtree"), this, [this] {
    QString error;
    const int root = selectedBody();
    const int copied = root >= 0 ? static_cast<int>(kt::subtreeOf(doc_->model(), root).size()) : 0;
    if (applyEdit(edit::duplicateSubtree(*doc_, root, QStringLiteral("_copy"), &error), error)) {
      selectBody(static_cast<int>(doc_->model().bodies.size()) - copied);  // the copy is appended, root first
    }
  });
  duplicateAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  mirrorAction_ = edit->addAction(tr("&Mirror Subtree…"), this, [this] {
    MirrorDialog dialog(doc_, selectedBody(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    if (QUndoCommand* c = dialog.takeCommand()) doc_->push(c);
  });
  edit->addSeparator();
  copyAction_ = edit->addAction(tr("&Copy Body Settings"), this, [this] {
    const int body = selectedBody();
    if (body < 0) return;
    copied_ = doc_->model().bodies[static_cast<std::size_t>(body)];
    statusBar()->showMessage(
        tr("Copied the settings of %1: paste its drive, limits, rating, inertial data or shapes onto the selected "
           "bodies (Edit ▸ Paste onto Selected Bodies)")
            .arg(QString::fromStdString(copied_->name)),
        kMessageMs);
    updateEditActions();
  });
  copyAction_->setObjectName(QStringLiteral("copyBodySettings"));
  copyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  pasteMenu_ = edit->addMenu(tr("&Paste onto Selected Bodies"));
  pasteMenu_->setObjectName(QStringLiteral("pasteMenu"));
  const struct {
    const char* label;
    const char* name;
    Paste what;
  } pastes[] = {{QT_TR_NOOP("&Drive"), "pasteDrive", Paste::Drive},
                {QT_TR_NOOP("&Limits"), "pasteLimits", Paste::Limits},
                {QT_TR_NOOP("Load &Rating"), "pasteRating", Paste::Rating},
                {QT_TR_NOOP("&Inertial Data"), "pasteInertial", Paste::Inertial},
                {QT_TR_NOOP("&Shapes"), "pasteShapes", Paste::Shapes}};
  for (const auto& p : pastes) {
    QAction* a = pasteMenu_->addAction(tr(p.label), this, [this, what = p.what] { paste(what); });
    a->setObjectName(QLatin1String(p.name));
  }
  mountAction_ = edit->addAction(tr("Mount on &Face of Parent…"), this, &MainWindow::mountOnFace);
  mountAction_->setObjectName(QStringLiteral("mountOnFace"));
  mountAction_->setToolTip(
      tr("Places the selected body's joint on a face of its parent's shapes: at the face centre, z along the "
         "outward normal"));
  edit->addSeparator();
  deleteAction_ = edit->addAction(tr("De&lete Body"), this, [this] {
    QString error;
    applyEdit(edit::deleteBody(*doc_, selectedBody(), &error), error);
  });
  deleteAction_->setToolTip(tr("Deletes the selected body; its children move up to its parent"));
  deleteAction_->setShortcut(QKeySequence::Delete);
  deleteSubtreeAction_ = edit->addAction(tr("Delete &Subtree"), this, [this] {
    QString error;
    applyEdit(edit::deleteSubtree(*doc_, selectedBody(), &error), error);
  });
  deleteSubtreeAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Delete));

  // Rename and Delete act on the tree or the 3D view; in a text field the keys edit the text.
  for (QAction* a : {renameAction_, deleteAction_, deleteSubtreeAction_}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    treeDock_->treeView()->addAction(a);
    view_->addAction(a);
  }
  // grouped as in the Edit menu: what deletes stays apart from what adds
  const auto separator = [this] {
    auto* s = new QAction(this);
    s->setSeparator(true);
    return s;
  };
  treeDock_->setContextActions({add->menuAction(), templates->menuAction(), separator(), renameAction_,
                                duplicateAction_, mirrorAction_, mountAction_, separator(), copyAction_,
                                pasteMenu_->menuAction(), separator(), deleteAction_, deleteSubtreeAction_});
}

void MainWindow::createViewMenu() {
  viewMenu_ = menuBar()->addMenu(tr("&View"));
  QAction* reset = viewMenu_->addAction(tr("&Reset View"), view_, &render::VtkWidget::resetView);
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

  QMenu* standard = viewMenu_->addMenu(tr("&Standard Views"));
  struct Entry {
    const char* label;
    render::StandardView view;
    int key;
  };
  const Entry entries[] = {
      {QT_TR_NOOP("Isometric"), render::StandardView::Isometric, Qt::Key_5},
      {QT_TR_NOOP("From +X"), render::StandardView::PlusX, Qt::Key_1},
      {QT_TR_NOOP("From −X"), render::StandardView::MinusX, Qt::Key_2},
      {QT_TR_NOOP("From +Y"), render::StandardView::PlusY, Qt::Key_3},
      {QT_TR_NOOP("From −Y"), render::StandardView::MinusY, Qt::Key_4},
      {QT_TR_NOOP("From +Z (top)"), render::StandardView::PlusZ, Qt::Key_7},
      {QT_TR_NOOP("From −Z (bottom)"), render::StandardView::MinusZ, Qt::Key_8},
  };
  for (const Entry& e : entries) {
    QAction* action = standard->addAction(tr(e.label));
    action->setShortcut(QKeySequence(Qt::CTRL | e.key));
    const render::StandardView v = e.view;
    connect(action, &QAction::triggered, this, [this, v] { view_->setStandardView(v); });
  }

  viewMenu_->addSeparator();
  jointFramesAction_ = viewMenu_->addAction(tr("&Joint Frames"));
  jointFramesAction_->setCheckable(true);
  connect(jointFramesAction_, &QAction::toggled, view_, &render::SceneView::setJointFramesVisible);
  comAction_ = viewMenu_->addAction(tr("&Centres of Mass"));
  comAction_->setCheckable(true);
  connect(comAction_, &QAction::toggled, view_, &render::SceneView::setCentresOfMassVisible);
  gridAction_ = viewMenu_->addAction(tr("&Grid and World Axes"));
  gridAction_->setCheckable(true);
  gridAction_->setChecked(true);
  connect(gridAction_, &QAction::toggled, view_, &render::SceneView::setGridVisible);

  viewMenu_->addSeparator();
  followAction_ = viewMenu_->addAction(tr("&Follow Floating Base"));
  followAction_->setCheckable(true);
  followAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
  followAction_->setToolTip(tr("Keep the floating base in the centre while it moves"));
  connect(followAction_, &QAction::triggered, this, [this](bool on) {
    view_->setFollowBody(on ? render::SceneView::defaultFollowBody(tree_) : -1);
    followAction_->setChecked(view_->followBody() >= 0);
    if (on && view_->followBody() < 0)
      statusBar()->showMessage(tr("This model has no floating base: select a body and use Follow Selected Body"),
                               kMessageMs);
  });
  QAction* followSelected = viewMenu_->addAction(tr("Follow &Selected Body"), this, [this] {
    const int body = treeIndexOf(selectedBody());
    if (body < 0) {
      statusBar()->showMessage(tr("Select the body to follow first"), kMessageMs);
      return;
    }
    view_->setFollowBody(body);
  });
  followSelected->setObjectName(QStringLiteral("followSelected"));
  connect(view_, &render::SceneView::followBodyChanged, this, [this](int body) {
    followAction_->setChecked(body >= 0);
    if (body >= 0 && body < tree_.nb)
      statusBar()->showMessage(
          tr("Following %1").arg(QString::fromStdString(tree_.bodyNames[static_cast<std::size_t>(body)])), kMessageMs);
  });
  trailsAction_ = viewMenu_->addAction(tr("Motion &Trails"));
  trailsAction_->setCheckable(true);
  trailsAction_->setToolTip(tr("Paths of the end bodies and the base (View ▸ Trails of Selected Body to choose)"));
  connect(trailsAction_, &QAction::toggled, view_, &render::SceneView::setTrailsVisible);
  viewMenu_->addAction(tr("Trails of Selected &Body"), this, [this] {
    const int body = treeIndexOf(selectedBody());
    view_->setTrailBodies(body >= 0 ? std::vector<int>{body} : render::SceneView::defaultTrailBodies(tree_));
    trailsAction_->setChecked(true);
  });
  viewMenu_->addAction(tr("C&lear Trails"), view_, &render::SceneView::clearTrails);
  statisticsAction_ = viewMenu_->addAction(tr("Frame &Statistics"));
  statisticsAction_->setCheckable(true);
  statisticsAction_->setToolTip(tr("Frames per second and render time in the 3D view"));
  connect(statisticsAction_, &QAction::toggled, view_, &render::SceneView::setStatisticsVisible);

  viewMenu_->addSeparator();
  viewMenu_->addAction(treeDock_->toggleViewAction());
  viewMenu_->addAction(propertiesDock_->toggleViewAction());
  viewMenu_->addAction(problemsDock_->toggleViewAction());
  viewMenu_->addAction(historyDock_->toggleViewAction());
}

void MainWindow::createHelpMenu() {
  helpMenu_ = menuBar()->addMenu(tr("&Help"));
  QAction* manual = helpMenu_->addAction(tr("User &Manual"), QKeySequence::HelpContents, this, &MainWindow::showManual);
  manual->setObjectName(QStringLiteral("manualAction"));
  manual->setStatusTip(tr("The documentation installed with Kinetree: the application, the model format, the signals"));
  QAction* shortcuts = helpMenu_->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
  shortcuts->setObjectName(QStringLiteral("shortcutsAction"));
  helpMenu_->addMenu(examplesMenu_);  // the File menu's: a model to start from
  helpMenu_->addSeparator();
  helpMenu_->addAction(tr("&About Kinetree"), this, &MainWindow::showAbout);
  helpMenu_->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createSimulation() {
  simulation_ = new SimulationController(*doc_, this);
  // the run to the 3D view: a new run starts new trails; every frame shows the shown sample's q
  connect(simulation_, &SimulationController::sessionStarted, view_, &render::SceneView::clearTrails);
  connect(simulation_, &SimulationController::frame, this, [this] {
    // a run kept after an edit that changed the joints does not fit the edited model's scene
    if (simulation_->hasShownSample() && simulation_->sessionFits(tree_))
      view_->showState(simulation_->shownPositions());
  });
  simulationActions_ = new SimulationActions(simulation_, this);
  menuBar()->insertMenu(helpMenu_->menuAction(), simulationActions_->menu());
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
  compareAction_->setStatusTip(
      tr("Evaluate every solver at the states of the recorded run, or run each, and show how far they differ"));
  compareAction_->setEnabled(false);
  addToolBar(simulationActions_->toolBar());
  jointLoads_ = new JointLoadView(simulation_, view_, this);
  viewMenu_->addMenu(jointLoads_->menu());
  plotsDock_ = new PlotsDock(simulation_, this);
  // the loads pane shows what the arrows show, in the same frame
  connect(jointLoads_, &JointLoadView::loadViewChanged, plotsDock_, &PlotsDock::setLoadView);
  // and the dead band the arrows and Peak Loads use: a load pane of rounding noise stays flat
  connect(jointLoads_, &JointLoadView::loadScaleChanged, plotsDock_, [this](double force, double moment) {
    for (int p = 0; p < PlotsDock::kPaneCount; ++p)
      if (auto* pane = qobject_cast<render::ChartPane*>(plotsDock_->paneWidget(p))) {
        pane->setNoiseFloor(QStringLiteral("N"), kt::kLoadDeadBand * force);
        pane->setNoiseFloor(QStringLiteral("N*m"), kt::kLoadDeadBand * moment);
      }
  });
  addDockWidget(Qt::BottomDockWidgetArea, plotsDock_);
  // shown from the start: the first picture is the paper's (base attitude, the first arm's joint
  // angles, its first joint's constraint forces); View ▸ Plots (Ctrl+Shift+P) hides it

  plotsDock_->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
  viewMenu_->addAction(plotsDock_->toggleViewAction());
  QAction* degrees = viewMenu_->addAction(tr("Angles in &Degrees"));
  degrees->setObjectName(QStringLiteral("anglesInDegreesAction"));
  degrees->setCheckable(true);
  degrees->setStatusTip(tr("Plots show angles in degrees (the recording and the CSV stay in radians)"));
  degrees->setChecked(QSettings().value(QStringLiteral("anglesInDegrees"), true).toBool());
  plotsDock_->setAnglesInDegrees(degrees->isChecked());
  connect(degrees, &QAction::toggled, this, [this](bool on) {
    plotsDock_->setAnglesInDegrees(on);
    QSettings().setValue(QStringLiteral("anglesInDegrees"), on);
  });
  simulationStatus_ = new SimulationStatus(simulation_, statusBar(), this);
  timeline_ = new TimelineBar(simulation_);
  centralWidget()->layout()->addWidget(timeline_);
  simulationStatus_->setExportAction(exportResultsAction_);
  peakLoadsDock_ = new PeakLoadsDock(
      simulation_, [this] { return plotsDock_->visibleTimeRange(); }, this);
  addDockWidget(Qt::RightDockWidgetArea, peakLoadsDock_);
  tabifyDockWidget(historyDock_, peakLoadsDock_);
  problemsDock_->raise();
  viewMenu_->addAction(peakLoadsDock_->toggleViewAction());
  connect(plotsDock_, &PlotsDock::visibleRangeChanged, peakLoadsDock_, &PeakLoadsDock::plotsRangeChanged);
  mathematicsDock_ = new MathematicsDock(simulation_, view_, this);
  scrollWhenSmall(mathematicsDock_);
  addDockWidget(Qt::RightDockWidgetArea, mathematicsDock_);
  tabifyDockWidget(peakLoadsDock_, mathematicsDock_);
  mathematicsDock_->hide();  // opened from the View menu
  problemsDock_->raise();
  viewMenu_->addAction(mathematicsDock_->toggleViewAction());
  // tabbed behind the Problems dock: opened from the menu, it comes to the front
  connect(mathematicsDock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
    if (on) mathematicsDock_->raise();
  });
  connect(peakLoadsDock_, &PeakLoadsDock::jointActivated, this, [this](int treeIndex, double t) {
    if (simulation_->sessionFits(tree_)) selectBody(bodyOfTreeIndex(treeIndex));
    simulation_->showTime(t);
  });
  // the Problems dock warns of the joints whose peak load reached their rating, once a run stops
  connect(simulation_, &SimulationController::sessionStarted, this, [this] {
    doc_->problems()->setRunPeaks({}, doc_->model());
    runPeaks_.reset();
    runPeaksScanned_ = 0;
    if (simulation_->tree() && simulation_->signalLayout())
      runPeaks_ = std::make_unique<kt::PeakLoads>(*simulation_->tree(), *simulation_->signalLayout());
  });
  const auto checkRatings = [this] {
    if (!runPeaks_ || !simulation_->recorder()) return;
    runPeaksScanned_ = runPeaks_->addRecorded(*simulation_->recorder(), runPeaksScanned_);
    doc_->problems()->setRunPeaks(runPeaks_->joints(), doc_->model());
  };
  connect(simulation_, &SimulationController::runningChanged, this, [checkRatings](bool running) {
    if (!running) checkRatings();
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this, checkRatings] {
    checkRatings();  // the last rows; the warnings stay once the run is gone
    runPeaks_.reset();
  });

  // Export Results needs a recording
  const auto updateExport = [this] {
    const kt::Recorder* rec = simulation_->recorder();
    exportResultsAction_->setEnabled(rec && rec->size() > 0);
    exportVideoAction_->setEnabled(rec && rec->size() > 0);
    compareAction_->setEnabled(rec && rec->size() > 0);
  };
  connect(simulation_, &SimulationController::stateChanged, this, updateExport);
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    exportResultsAction_->setEnabled(false);
    exportVideoAction_->setEnabled(false);
    compareAction_->setEnabled(false);
  });

  // the model to the run: the arrows are rebuilt for the shown tree before the run restarts
  connect(this, &MainWindow::modelReplaced, this, [this] {
    jointLoads_->rebuild(tree_, kt::PeakLoads::ratingsOf(doc_->model(), tree_));
    plotsDock_->clear();  // nothing of the old model stays in a pane
    runPeaks_.reset();    // nor among the problems
    doc_->problems()->setRunPeaks({}, doc_->model());
    simulation_->modelReplaced(runnable_);
  });
  connect(this, &MainWindow::modelEdited, this, [this] {
    jointLoads_->rebuild(tree_, kt::PeakLoads::ratingsOf(doc_->model(), tree_));
    simulation_->modelEdited(runnable_);
  });
  connect(this, &MainWindow::closing, simulation_, &SimulationController::shutdown);
  connect(this, &MainWindow::selectionChanged, this, [this](int, int treeIndex) {
    // the plots show the session's joints: a kept run of other joints has no such index
    plotsDock_->setSelectedJoint(simulation_->sessionFits(tree_) ? treeIndex : -1);
    mathematicsDock_->setSelectedBody(simulation_->sessionFits(tree_) ? treeIndex : -1);
    jointLoads_->setSelectedJoint(treeIndex);
  });
}

// ---- files ----

void MainWindow::showExportResults() {
  if (!simulation_->recorder()) return;
  ExportResultsDialog dialog(*simulation_, plotsDock_->plottedSignals(), plotsDock_->visibleTimeRange(), this);
  if (dialog.exec() == QDialog::Accepted)
    statusBar()->showMessage(tr("Results exported to %1").arg(QDir::toNativeSeparators(dialog.writtenPath())),
                             kMessageMs);
}

VideoSource MainWindow::videoSource() const {
  VideoSource source;
  source.simulation = simulation_;
  source.modelDirectory = modelDirectory().toStdString();
  // the view's camera; its followed body, arrows and selection where they name the run's joints
  source.view = view_;
  if (simulation_->sessionFits(tree_)) {
    if (const render::LoadArrows* arrows = jointLoads_->arrows()) source.arrows = arrows->options();
    source.selectedJoint = treeIndexOf(selectedBody());
    source.followBody = view_->followBody();
  }
  for (auto& [title, series] : plotsDock_->paneContents()) source.panes.push_back({title, series});
  return source;
}

void MainWindow::showExportVideo() {
  if (!simulation_->recorder()) return;
  ExportVideoDialog dialog(videoSource(), plotsDock_->visibleTimeRange(), this);
  if (dialog.exec() == QDialog::Accepted)
    statusBar()->showMessage(tr("Video exported to %1").arg(QDir::toNativeSeparators(dialog.writtenPath())),
                             kMessageMs);
}

void MainWindow::showOpenDialog() {
  if (!maybeSave()) return;
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastOpenDirectory")).toString();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Model"), dir, tr("Kinetree models (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
  QString error;
  if (!loadModel(path, error)) showOpenFailure(path, error);
}

void MainWindow::showOpenFailure(const QString& path, const QString& error) {
  // The box must fit the screen whatever the number of diagnostics (the reader reports up to
  // 100): the first few are shown, all of them are in the scrolling details.
  constexpr int kShownLines = 8;
  constexpr int kLineChars = 300;
  const QStringList lines = error.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QStringList shown;
  bool cut = lines.size() > kShownLines;
  for (const QString& line : lines.mid(0, kShownLines)) {
    cut = cut || line.size() > kLineChars;
    shown.append(line.size() > kLineChars ? line.left(kLineChars) + QStringLiteral("…") : line);
  }
  if (lines.size() > kShownLines)
    shown.append(tr("… and %n more (Show Details…)", nullptr, static_cast<int>(lines.size() - kShownLines)));
  QMessageBox box(QMessageBox::Critical, tr("Cannot open model"),
                  tr("%1 could not be opened.").arg(QDir::toNativeSeparators(path)), QMessageBox::Ok, this);
  box.setObjectName(QStringLiteral("openFailureBox"));
  // Plain text whatever the diagnostics contain (a name or value that starts like an HTML tag is
  // shown as written, not rendered): the path as plain text, the diagnostics converted explicitly.
  box.setTextFormat(Qt::PlainText);
  box.setInformativeText(Qt::convertFromPlainText(shown.join(QLatin1Char('\n')), Qt::WhiteSpaceNormal));
  if (cut) box.setDetailedText(error);
  box.setTextInteractionFlags(Qt::TextSelectableByMouse);
  box.exec();
}

bool MainWindow::loadModel(const QString& path, QString& error, std::future<Document::ReadModel> preread) {
  error.clear();
  if (path.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive)) return importUrdf(path, error);
  // A large file takes seconds to read and validate: say so before, the scene's progress follows.
  opening_ = QFileInfo(path).size() > kProgressFileBytes;
  if (opening_) {
    QProgressDialog* dialog = progressDialog();
    dialog->setLabelText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    dialog->setRange(0, 0);
    dialog->setValue(0);
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
  }
  const bool opened = preread.valid() ? doc_->open(preread.get(), &error) : doc_->open(path, &error);
  if (opening_) {
    opening_ = false;
    closeProgress();
  }
  if (!opened) {
    statusBar()->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)), kMessageMs);
    return false;
  }
  recent_->add(path);
  return true;
}

bool MainWindow::openModel(const QString& path, std::future<Document::ReadModel> preread) {
  if (!maybeSave()) return false;
  QString error;
  if (loadModel(path, error, std::move(preread))) return true;
  showOpenFailure(path, error);
  return false;
}

void MainWindow::showImportUrdfDialog() {
  if (!maybeSave()) return;
  ImportUrdfDialog dialog(QString(), this);  // remembers its package folders for every import
  if (dialog.exec() != QDialog::Accepted) return;
  const QString path = QDir::fromNativeSeparators(dialog.path());
  QString error;
  if (!importUrdf(path, error)) showOpenFailure(path, error);
}

bool MainWindow::importUrdf(const QString& path, QString& error) {
  QString status;
  const bool imported = kt::ui::importUrdf(*doc_, path, this, status, error);
  if (imported) view_->resetView();  // the view fitted the empty document: fit the robot
  statusBar()->showMessage(status, kMessageMs);
  return imported;
}

bool MainWindow::newModel() {
  if (!maybeSave()) return false;
  doc_->newDocument();
  statusBar()->showMessage(tr("New model: add a body (Edit ▸ Add Body) or insert a template"), kMessageMs);
  return true;
}

bool MainWindow::saveTo(const QString& path, QString& error) {
  error.clear();
  if (!doc_->saveAs(path, &error)) return false;
  recent_->add(path);
  statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), kMessageMs);
  return true;
}

bool MainWindow::save() {
  const QString path = doc_->filePath();
  if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) return saveAs();
  QString error;
  if (saveTo(path, error)) return true;
  QMessageBox::critical(this, tr("Cannot save"),
                        tr("The model was not saved; the file on disk is unchanged.\n\n%1").arg(error));
  return false;
}

bool MainWindow::saveAs() {
  QSettings settings;
  const QString current = doc_->filePath();
  QString dir = current.isEmpty() || current.startsWith(QLatin1Char(':'))
                    ? settings.value(QStringLiteral("lastOpenDirectory"), QDir::homePath()).toString()
                    : QFileInfo(current).absolutePath();
  const QString name = QString::fromStdString(doc_->model().name) + QStringLiteral(".yaml");
  QString path = QFileDialog::getSaveFileName(this, tr("Save Model As"), QDir(dir).filePath(name),
                                              tr("Kinetree models (*.yaml *.yml)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".yaml");
  settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
  QString error;
  if (saveAsTo(path, error)) return true;
  QMessageBox::critical(this, tr("Cannot save"), tr("The model was not saved.\n\n%1").arg(error));
  return false;
}

bool MainWindow::saveAsTo(const QString& path, QString& error) {
  // A model without a name of its own is named after its file, as an undo step of its own that
  // the save includes: the file, the title and the next run's label all say the file's name.
  const std::string& name = doc_->model().name;
  bool named = false;
  if (name.empty() || name == "untitled") {
    QString refused;
    if (QUndoCommand* rename = edit::setModelName(*doc_, QFileInfo(path).completeBaseName(), &refused)) {
      // a macro: never merged into an earlier edit of the name, so one undo takes exactly this back
      doc_->undoStack()->beginMacro(tr("Name the model after its file"));
      doc_->push(rename);
      doc_->undoStack()->endMacro();
      named = true;
    }
  }
  if (saveTo(path, error)) return true;
  if (named) doc_->undoStack()->undo();  // nothing was saved: the name is as it was
  return false;
}

bool MainWindow::maybeSave() {
  if (!doc_->isModified()) return true;
  const QMessageBox::StandardButton answer =
      unsavedAnswer_
          ? unsavedAnswer_()
          : QMessageBox::warning(this, tr("Unsaved changes"),
                                 tr("%1 has changes that are not saved. Save them?").arg(displayName()),
                                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  switch (answer) {
    case QMessageBox::Save: return save();
    case QMessageBox::Discard: return true;
    default: return false;
  }
}

void MainWindow::offerRecovery() {
  const QList<RecoveryEntry> entries = Autosaver::findRecoveries(doc_->autosaver()->directory());
  for (const RecoveryEntry& entry : entries) {
    const QString what = entry.originalPath.isEmpty() ? tr("an unsaved model \"%1\"").arg(entry.modelName)
                                                      : QDir::toNativeSeparators(entry.originalPath);
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                    tr("Kinetree did not close normally. Changes to %1 were autosaved at %2.")
                        .arg(what, QLocale().toString(entry.saved, QLocale::ShortFormat)),
                    QMessageBox::NoButton, this);
    box.setInformativeText(tr("Recover them? Discarding deletes the autosaved copy."));
    QPushButton* recover = box.addButton(tr("&Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("&Not Now"), QMessageBox::RejectRole);
    box.setDefaultButton(recover);
    box.exec();
    if (box.clickedButton() == discard) {
      Autosaver::discardRecovery(entry);
    } else if (box.clickedButton() == recover) {
      if (!maybeSave()) return;
      QString error;
      if (Autosaver::restore(*doc_, entry, &error)) {
        statusBar()->showMessage(tr("Recovered %1: save it to keep the changes").arg(what), kMessageMs);
        return;  // one document at a time; the others are offered next time
      }
      QMessageBox::critical(this, tr("Cannot recover"), error);
    }
  }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime->hasUrls() && !mime->urls().isEmpty() && isModelFile(mime->urls().front())) {
    event->acceptProposedAction();
    return;
  }
  QMainWindow::dragEnterEvent(event);
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (!mime->hasUrls() || mime->urls().isEmpty() || !isModelFile(mime->urls().front())) {
    QMainWindow::dropEvent(event);
    return;
  }
  const QString path = mime->urls().front().toLocalFile();
  event->acceptProposedAction();
  // Not inside the drop: the unsaved-changes question and errors are modal.
  QTimer::singleShot(0, this, [this, path] { openModel(path); });
}

// ---- the model ----

QString MainWindow::displayName() const {
  const std::string& name = doc_->model().name;
  if (!name.empty() && name != "untitled") return QString::fromStdString(name);
  const QString path = doc_->filePath();
  return path.isEmpty() ? tr("untitled") : QFileInfo(path).fileName();
}

QString MainWindow::modelDirectory() const {
  const QString path = doc_->filePath();
  if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) return {};
  return QFileInfo(path).absolutePath();
}

void MainWindow::onDocumentReplaced() {
  // changed() follows at once and does the work; remember that it is a replacement.
  selectedId_ = 0;
  replacing_ = true;
}

void MainWindow::onDocumentChanged() {
  const bool replaced = replacing_;
  replacing_ = false;
  refreshModel(replaced);
  if (replaced) {
    const kt::Model& m = doc_->model();
    QString message;
    if (m.bodies.empty()) {
      message = tr("%1: no bodies yet").arg(displayName());
    } else {
      message = tr("%1: %2, nq %3, nv %4, mass %5 kg")
                    .arg(displayName(), countText(static_cast<long long>(m.bodies.size()), tr("body"), tr("bodies")))
                    .arg(tree_.nq)
                    .arg(tree_.nv)
                    .arg(tree_.totalMass(), 0, 'g', 6);
    }
    const int problems = static_cast<int>(kt::problemCount(doc_->problems()->diagnostics()));
    if (problems > 0 && !m.bodies.empty()) {
      message = tr("%1 opened with %2: fix %3 to run it (View ▸ Problems)")
                    .arg(displayName(), countText(problems, tr("problem"), tr("problems")),
                         problems == 1 ? tr("it") : tr("them"));
      problemsDock_->show();
      problemsDock_->raise();
    }
    const auto& warnings = view_->scene().warnings();
    if (!warnings.empty()) message += QStringLiteral(" — ") + QString::fromStdString(warnings.front());
    statusBar()->showMessage(message);
    selectBody(-1);
    emit modelReplaced();
  } else {
    // New bodies outside the view (a template, a mirrored arm) re-fit it, looking the same way.
    if (doc_->model().bodies.size() > shownBodies_) view_->fitIfOutside();
    // The selection follows its body through edits (its index may have moved), or goes.
    selectBody(selectedId_ != 0 ? doc_->indexOfId(selectedId_) : -1);
    emit modelEdited();
  }
  shownBodies_ = doc_->model().bodies.size();
  updateTitle();
}

void MainWindow::refreshModel(bool reframe) {
  const kt::Model& model = doc_->model();
  kt::Tree tree;
  std::vector<kt::Diagnostic> problems;
  runnable_ = !model.bodies.empty() && doc_->problems()->isEmpty() && kt::finalize(model, tree, problems);
  // With problems the last valid picture stays (the problems dock says what is wrong).
  if (!runnable_ && !model.bodies.empty() && !reframe) return;
  tree_ = runnable_ ? std::move(tree) : kt::Tree{};
  treeIndexByName_.clear();
  for (int i = 0; i < tree_.nb; ++i) treeIndexByName_.insert(QString::fromStdString(tree_.bodyNames[i]), i);
  const kt::Model shown = runnable_ ? model : kt::Model{};
  view_->showModel(shown, tree_, modelDirectory().toStdString(), reframe);
  view_->setJointFramesVisible(jointFramesAction_->isChecked());
  view_->setCentresOfMassVisible(comAction_->isChecked());
  view_->setGridVisible(gridAction_->isChecked());
}

QProgressDialog* MainWindow::progressDialog() {
  if (progress_ == nullptr) {
    progress_ = new QProgressDialog(this);
    progress_->setObjectName(QStringLiteral("progressDialog"));
    progress_->setWindowTitle(tr("Kinetree"));
    progress_->setCancelButton(nullptr);  // a half-built scene cannot be kept
    progress_->setWindowModality(Qt::WindowModal);
    progress_->setMinimumDuration(0);
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    progress_->show();
  }
  return progress_;
}

void MainWindow::closeProgress() {
  if (progress_ == nullptr) return;
  progress_->hide();
  progress_->deleteLater();
  progress_ = nullptr;
}

void MainWindow::showBuildProgress(int done, int total) {
  QProgressDialog* dialog = progressDialog();
  dialog->setLabelText(tr("Building the 3D view: %1 of %2 bodies…").arg(done).arg(total));
  dialog->setRange(0, total);
  dialog->setValue(done);  // modal: runs the event loop
  if (done >= total && !opening_) closeProgress();
}

void MainWindow::updateTitle() {
  setWindowTitle(QStringLiteral("%1[*] — Kinetree").arg(displayName()));
  setWindowModified(doc_->isModified());
}

// ---- selection ----

int MainWindow::selectedBody() const { return selectedId_ != 0 ? doc_->indexOfId(selectedId_) : -1; }

int MainWindow::treeIndexOf(int body) const {
  if (body < 0 || body >= static_cast<int>(doc_->model().bodies.size())) return -1;
  return treeIndexByName_.value(QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(body)].name), -1);
}

int MainWindow::bodyOfTreeIndex(int treeIndex) const {
  if (treeIndex < 0 || treeIndex >= tree_.nb) return -1;
  return doc_->model().findBody(tree_.bodyNames[static_cast<std::size_t>(treeIndex)]);
}

void MainWindow::selectBody(int body) {
  if (body < 0 || body >= static_cast<int>(doc_->model().bodies.size())) body = -1;
  selectedId_ = body >= 0 ? doc_->bodyId(body) : 0;
  const int treeIndex = treeIndexOf(body);
  if (!fromTree_) treeDock_->selectBody(body);  // a selection made in the tree stays as it is (several bodies)
  showSelectionInView();
  // The dock follows edits of the body it shows by itself; re-showing it would rebuild its page.
  if (propertiesDock_->body() != body) propertiesDock_->showBody(body);
  propertiesDock_->setAlsoEdited(treeDock_->selectedBodies());
  updateEditActions();
  emit selectionChanged(body, treeIndex);
}

void MainWindow::onTreeSelection(int body) {
  if (body == selectedBody()) return;
  fromTree_ = true;
  selectBody(body);
  fromTree_ = false;
}

void MainWindow::onBodyPicked(int treeIndex) { selectBody(bodyOfTreeIndex(treeIndex)); }

void MainWindow::showSelectionInView() {
  const int current = selectedBody();
  std::vector<int> others;
  for (int b : treeDock_->selectedBodies())
    if (b != current) others.push_back(treeIndexOf(b));
  view_->selectBodies(treeIndexOf(current), others);
}

void MainWindow::onProblemActivated(const FieldLocation& location) {
  if (location.body >= 0) selectBody(location.body);
  propertiesDock_->show();
  propertiesDock_->raise();
  propertiesDock_->focusField(location);
}

void MainWindow::updateEditActions() {
  const bool have = selectedBody() >= 0;
  for (QAction* a : {renameAction_, duplicateAction_, mirrorAction_, deleteAction_, deleteSubtreeAction_})
    a->setEnabled(have);
  if (!copyAction_) return;  // the menus are being built
  mountAction_->setEnabled(have && !mountFacesOfParent(selectedBody()).empty());
  copyAction_->setEnabled(have);
  pasteMenu_->setEnabled(have && copied_.has_value());
}

void MainWindow::paste(Paste what) {
  if (!copied_) return;
  const kt::BodySpec& from = *copied_;
  const std::vector<int> bodies = treeDock_->selectedBodies();
  if (bodies.empty()) return;
  // every command made before any is pushed: one refusal refuses all, and the edit is one undo step
  std::vector<std::unique_ptr<QUndoCommand>> commands;
  for (int body : bodies) {
    QString error;
    QUndoCommand* c = nullptr;
    switch (what) {
      case Paste::Drive: c = edit::setDrive(*doc_, body, from.joint.drive, &error); break;
      case Paste::Limits: c = edit::setLimits(*doc_, body, from.joint.limits, &error); break;
      case Paste::Rating: c = edit::setRating(*doc_, body, from.joint.rating, &error); break;
      case Paste::Inertial: c = edit::setInertial(*doc_, body, from.inertial, &error); break;
      case Paste::Shapes: c = edit::setShapes(*doc_, body, from.shapes, &error); break;
    }
    if (!c && !error.isEmpty()) {
      statusBar()->showMessage(
          tr("Not pasted: %1: %2")
              .arg(QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(body)].name), error),
          kMessageMs);
      return;
    }
    if (c) commands.emplace_back(c);
  }
  if (commands.empty()) {
    statusBar()->showMessage(tr("Nothing to paste: the selected bodies have these settings already"), kMessageMs);
    return;
  }
  doc_->undoStack()->beginMacro(tr("Paste from %1 onto %2")
                                    .arg(QString::fromStdString(from.name),
                                         countText(static_cast<long long>(commands.size()), tr("body"), tr("bodies"))));
  for (auto& c : commands) doc_->push(c.release());
  doc_->undoStack()->endMacro();
}

std::vector<kt::MountFace> MainWindow::mountFacesOfParent(int body) const {
  const kt::Model& m = doc_->model();
  if (body < 0 || body >= static_cast<int>(m.bodies.size())) return {};
  const int parent = m.findBody(m.bodies[static_cast<std::size_t>(body)].parent);
  return parent < 0 ? std::vector<kt::MountFace>() : kt::mountFaces(m.bodies[static_cast<std::size_t>(parent)]);
}

void MainWindow::mountOnFace() {
  const int body = selectedBody();
  const std::vector<kt::MountFace> faces = mountFacesOfParent(body);
  if (faces.empty()) {
    statusBar()->showMessage(tr("Not done: the parent has no shapes with faces to mount on"), kMessageMs);
    return;
  }
  QStringList labels;
  for (const kt::MountFace& f : faces) labels << QString::fromStdString(f.label);
  const kt::BodySpec& b = doc_->model().bodies[static_cast<std::size_t>(body)];
  bool ok = false;
  const QString chosen =
      QInputDialog::getItem(this, tr("Mount on Face"),
                            tr("Face of %1 for the joint of %2 (z along the outward normal):")
                                .arg(QString::fromStdString(b.parent), QString::fromStdString(b.name)),
                            labels, 0, false, &ok);
  if (!ok) return;
  const auto index = static_cast<std::size_t>(labels.indexOf(chosen));
  if (index >= faces.size()) return;
  QString error;
  applyEdit(edit::setJointOrigin(*doc_, body, kt::facePlacement(faces[index]), &error), error);
}

// ---- edits ----

bool MainWindow::applyEdit(QUndoCommand* command, const QString& error) {
  if (command == nullptr) {
    statusBar()->showMessage(tr("Not done: %1").arg(error), kMessageMs);
    return false;
  }
  doc_->push(command);
  return true;
}

void MainWindow::addBody(int jointType) {
  const int parent = selectedBody();
  const QString parentName = parent >= 0
                                 ? QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(parent)].name)
                                 : QStringLiteral("world");
  QString error;
  if (applyEdit(edit::addBody(*doc_, parentName, static_cast<kt::JointType>(jointType), {}, &error), error)) {
    selectBody(static_cast<int>(doc_->model().bodies.size()) - 1);  // appended
  }
}

void MainWindow::insertTemplate(int kind) {
  const int parent = selectedBody();
  const QString parentName = parent >= 0
                                 ? QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(parent)].name)
                                 : QStringLiteral("world");
  TemplateDialog dialog(doc_, parentName, this);
  dialog.setKind(static_cast<TemplateDialog::Kind>(kind));
  if (dialog.exec() != QDialog::Accepted) return;
  if (QUndoCommand* c = dialog.takeCommand()) doc_->push(c);
}

// ---- window ----

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Kinetree"),
                     tr("<h3>Kinetree %1</h3>"
                        "<p>Build, simulate and inspect tree-structured rigid multibody systems.</p>"
                        "<p>Built with Qt %2 and VTK.</p>")
                         .arg(QString::fromLatin1(kt::kVersion), QString::fromLatin1(qVersion())));
}

void MainWindow::showManual() {
  if (!manual_) {
    const QString folder = manualFolder();
    if (folder.isEmpty()) {
      QStringList looked;
      for (const QString& f : manualSearchFolders()) looked << QDir::toNativeSeparators(f);
      QMessageBox::information(this, tr("User Manual"),
                               tr("The user manual is not installed: none of these folders holds application.md:\n\n%1"
                                  "\n\nIt is part of the Kinetree package, and of its sources (docs/).")
                                   .arg(looked.join(QLatin1Char('\n'))));
      return;
    }
    manual_ = new ManualDialog(folder, this);  // not modal: read it beside the window
  }
  manual_->show();
  manual_->raise();
  manual_->activateWindow();
}

void MainWindow::showShortcuts() {
  auto* dialog = new ShortcutsDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

// ---- layout ----

int MainWindow::dockRoomHeight() const {
  int height = this->height() - menuBar()->sizeHint().height() - statusBar()->sizeHint().height();
  for (QToolBar* bar : findChildren<QToolBar*>())
    if (!bar->isHidden() && (toolBarArea(bar) == Qt::TopToolBarArea || toolBarArea(bar) == Qt::BottomToolBarArea))
      height -= bar->sizeHint().height();
  return height;
}

int MainWindow::defaultColumnWidth() const { return std::clamp(width() / 5, 240, 380); }

void MainWindow::applyDefaultDockSizes() {
  const int height = dockRoomHeight();
  const int side = defaultColumnWidth();
  resizeDocks({treeDock_, problemsDock_}, {side, side}, Qt::Horizontal);
  // the tree keeps room for ten bodies or more below its find box and path line; the Properties
  // dock, where a model is built, gets the rest
  resizeDocks({treeDock_, propertiesDock_}, {height * 36 / 100, height * 64 / 100}, Qt::Vertical);
  resizeDocks({plotsDock_}, {height * kPlotsPercent / 100}, Qt::Vertical);
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);  // which docks show, where, and which tab is in front
  applyDefaultDockSizes();
  QSettings().remove(QStringLiteral("mainWindow/state"));
  layoutMessage_.clear();
  statusBar()->showMessage(tr("The default layout is back"), kMessageMs);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  const QSize was = shownSize_;
  shownSize_ = event->size();
  // the first size a shown window gets counts as growth: a restored layout may be a squeezed one
  const bool grew = !was.isValid() || event->size().width() > was.width() || event->size().height() > was.height();
  if (!grew || growPending_) return;
  growPending_ = true;
  // once the layout has the new size (the maximising resizes come in several steps)
  QTimer::singleShot(0, this, [this] {
    growPending_ = false;
    if (sizeDocksWhenShown_ && isVisible()) {
      sizeDocksWhenShown_ = false;
      applyDefaultDockSizes();
      return;
    }
    growSqueezedDocks();
  });
}

void MainWindow::growSqueezedDocks() {
  if (!isVisible()) return;
  const int side = defaultColumnWidth();
  const int across = dockRoomHeight() * kPlotsPercent / 100;
  // the largest extent of the docks in each area: a column is as wide as its widest dock
  const Qt::DockWidgetArea areas[] = {Qt::LeftDockWidgetArea, Qt::RightDockWidgetArea, Qt::TopDockWidgetArea,
                                      Qt::BottomDockWidgetArea};
  for (Qt::DockWidgetArea area : areas) {
    const bool column = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
    QDockWidget* widest = nullptr;
    int extent = 0;
    for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
      if (!dock->isVisible() || dock->isFloating() || dockWidgetArea(dock) != area) continue;
      const int e = column ? dock->width() : dock->height();
      if (widest == nullptr || e > extent) {
        widest = dock;
        extent = e;
      }
    }
    // squeezed: under two fifths of the default (a dock squeezed to its minimum is 60–120 px)
    const int wanted = column ? side : across;
    if (widest != nullptr && extent < wanted * 2 / 5)
      resizeDocks({widest}, {wanted}, column ? Qt::Horizontal : Qt::Vertical);
  }
}

namespace {

// True when `geometry` is a whole QWidget::saveGeometry() record (versions 1 to 3) with valid
// rectangles: QWidget::restoreGeometry() accepts records cut short.
bool completeGeometry(const QByteArray& geometry) {
  QDataStream in(geometry);
  in.setVersion(QDataStream::Qt_4_0);
  quint32 magic = 0;
  quint16 major = 0;
  quint16 minor = 0;
  in >> magic >> major >> minor;
  if (magic != 0x1D9D0CB || major < 1 || major > 3) return false;
  QRect frame;
  QRect normal;
  qint32 screen = 0;
  quint8 maximized = 0;
  quint8 fullScreen = 0;
  in >> frame >> normal >> screen >> maximized >> fullScreen;
  if (major > 1) {
    qint32 screenWidth = 0;
    in >> screenWidth;
  }
  if (major > 2) {
    QRect screenGeometry;
    in >> screenGeometry;
  }
  return in.status() == QDataStream::Ok && frame.isValid() && normal.isValid();
}

}  // namespace

bool MainWindow::restoreLayout(const QByteArray& savedGeometry, const QByteArray& savedState) {
  if (savedGeometry.isEmpty() && savedState.isEmpty()) return true;  // a first start: the default layout
  const QByteArray defaultState = saveState();
  const QRect defaultGeometry = geometry();
  bool ok = savedGeometry.isEmpty() || (completeGeometry(savedGeometry) && restoreGeometry(savedGeometry));
  // The normal (not maximised) frame must be on a screen and fit its available area.
  if (ok && !savedGeometry.isEmpty()) {
    const QRect frame = normalGeometry();
    const QScreen* screen = QGuiApplication::screenAt(frame.center());
    ok = screen != nullptr && frame.isValid() && frame.width() <= screen->availableGeometry().width() &&
         frame.height() <= screen->availableGeometry().height() && screen->availableGeometry().intersects(frame);
  }
  // Restore the docks onto the window in its normal state. Restored onto a hidden window that is
  // about to be maximised, a state that does not fit the normal size is kept by QMainWindow and
  // applied again during the maximising resizes, with layout items that no longer exist by then
  // (the crash on start after a session that was made smaller than its minimum and maximised).
  // The maximised state comes back afterwards, as a user's resize would.
  const Qt::WindowStates states = windowState();
  if (ok && (states & (Qt::WindowMaximized | Qt::WindowFullScreen)))
    setWindowState(states & ~(Qt::WindowMaximized | Qt::WindowFullScreen));
  if (ok && !savedState.isEmpty()) ok = restoreState(savedState);
  if (ok) {
    setWindowState(states);
    return true;
  }
  // Something is off: the default layout, in full (a failed restoreState keeps the old state).
  setWindowState(Qt::WindowNoState);
  restoreState(defaultState);
  setGeometry(defaultGeometry);
  return false;
}

void MainWindow::restoreSettings() {
  QSettings settings;
  const QByteArray savedState = settings.value(QStringLiteral("mainWindow/state")).toByteArray();
  const bool restored = restoreLayout(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray(), savedState);
  // the default docks are sized again for the window as it first shows (resizeEvent)
  sizeDocksWhenShown_ = !restored || savedState.isEmpty();
  if (!restored) {
    layoutMessage_ = tr("The saved window layout could not be restored: the default layout is used");
    // After the first model's message (main() opens it before the event loop starts).
    QTimer::singleShot(0, this, [this] { statusBar()->showMessage(layoutMessage_, kMessageMs); });
  }
  jointFramesAction_->setChecked(settings.value(QStringLiteral("view/jointFrames"), false).toBool());
  comAction_->setChecked(settings.value(QStringLiteral("view/centresOfMass"), false).toBool());
  gridAction_->setChecked(settings.value(QStringLiteral("view/grid"), true).toBool());
  trailsAction_->setChecked(settings.value(QStringLiteral("view/trails"), false).toBool());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), saveState());
  settings.setValue(QStringLiteral("view/jointFrames"), jointFramesAction_->isChecked());
  settings.setValue(QStringLiteral("view/centresOfMass"), comAction_->isChecked());
  settings.setValue(QStringLiteral("view/grid"), gridAction_->isChecked());
  settings.setValue(QStringLiteral("view/trails"), trailsAction_->isChecked());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  saveSettings();
  emit closing();
  QMainWindow::closeEvent(event);
}

}  // namespace kt::ui
