#include "ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include "core/version.hpp"
#include "render/scene_view.hpp"
#include "resources/resources.hpp"
#include "ui/model_document.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/properties_dock.hpp"
#include "ui/recent_files.hpp"
#include "ui/simulation_controller.hpp"

namespace kt::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      document_(new ModelDocument(this)),
      view_(new render::SceneView(this)),
      treeDock_(new ModelTreeDock(this)),
      propertiesDock_(new PropertiesDock(this)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(QStringLiteral("Kinetree"));
  setWindowIcon(QIcon(resources::kIcon));
  setCentralWidget(view_);
  setDockNestingEnabled(true);
  addDockWidget(Qt::LeftDockWidgetArea, treeDock_);
  addDockWidget(Qt::LeftDockWidgetArea, propertiesDock_);
  splitDockWidget(treeDock_, propertiesDock_, Qt::Vertical);

  createFileMenu();
  createViewMenu();
  createHelpMenu();
  statusBar()->showMessage(tr("Ready"));

  connect(document_, &ModelDocument::modelReplaced, this, &MainWindow::onModelReplaced);
  connect(view_, &render::SceneView::bodyPicked, treeDock_, &ModelTreeDock::selectBody);
  connect(treeDock_, &ModelTreeDock::bodySelected, this, &MainWindow::onBodySelected);
  connect(treeDock_, &ModelTreeDock::jointSelected, this, &MainWindow::onJointSelected);

  new SimulationController(this);  // Simulation menu, toolbar and status figures

  resize(1280, 800);
  resizeDocks({treeDock_}, {300}, Qt::Horizontal);
  restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
  open->setShortcut(QKeySequence::Open);

  QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
  recent_ = new RecentFiles(recentMenu, this);
  connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
    if (!QFileInfo::exists(path)) {
      QMessageBox::warning(this, tr("Open Recent"), tr("%1 no longer exists.").arg(path));
      recent_->remove(path);
      return;
    }
    openModel(path);
  });

  QMenu* examples = file->addMenu(tr("&Examples"));
  const QStringList models = resources::exampleModels();
  for (const QString& path : models) {
    QAction* action = examples->addAction(resources::exampleTitle(path));
    action->setData(path);
    connect(action, &QAction::triggered, this, [this, path] { openModel(path); });
  }
  examples->setEnabled(!models.isEmpty());

  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
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
  viewMenu_->addAction(treeDock_->toggleViewAction());
  viewMenu_->addAction(propertiesDock_->toggleViewAction());
}

void MainWindow::createHelpMenu() {
  helpMenu_ = menuBar()->addMenu(tr("&Help"));
  helpMenu_->addAction(tr("&About Kinetree"), this, &MainWindow::showAbout);
  helpMenu_->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QMenu* MainWindow::addMenuBeforeHelp(const QString& title) {
  auto* menu = new QMenu(title, this);
  menuBar()->insertMenu(helpMenu_->menuAction(), menu);
  return menu;
}

void MainWindow::showOpenDialog() {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastOpenDirectory")).toString();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Model"), dir, tr("Kinetree models (*.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("lastOpenDirectory"), QFileInfo(path).absolutePath());
  openModel(path);
}

bool MainWindow::loadModel(const QString& path, QString& error) {
  if (!document_->load(path, error)) return false;
  recent_->add(path);
  return true;
}

bool MainWindow::openModel(const QString& path) {
  QString error;
  if (loadModel(path, error)) return true;
  QMessageBox box(QMessageBox::Critical, tr("Cannot open model"),
                  tr("%1 could not be opened.").arg(QDir::toNativeSeparators(path)), QMessageBox::Ok, this);
  box.setInformativeText(error);
  box.setTextInteractionFlags(Qt::TextSelectableByMouse);
  box.exec();
  statusBar()->showMessage(tr("Could not open %1").arg(path));
  return false;
}

void MainWindow::onModelReplaced() {
  const kt::Tree& tree = document_->tree();
  view_->showModel(document_->model(), tree, document_->directory().toStdString());
  view_->setJointFramesVisible(jointFramesAction_->isChecked());
  view_->setCentresOfMassVisible(comAction_->isChecked());
  view_->setGridVisible(gridAction_->isChecked());
  treeDock_->setTree(tree);
  propertiesDock_->showModel(document_->model(), tree);
  setWindowTitle(QStringLiteral("%1 — Kinetree").arg(document_->displayName()));

  QString message = tr("%1: %2 bodies, nq %3, nv %4, mass %5 kg")
                        .arg(document_->displayName())
                        .arg(tree.nb)
                        .arg(tree.nq)
                        .arg(tree.nv)
                        .arg(tree.totalMass(), 0, 'g', 6);
  const auto& warnings = view_->scene().warnings();
  if (!warnings.empty()) message += QStringLiteral(" — ") + QString::fromStdString(warnings.front());
  statusBar()->showMessage(message);
}

void MainWindow::onBodySelected(int body) {
  view_->selectBody(body);
  if (body < 0) {
    propertiesDock_->showModel(document_->model(), document_->tree());
  } else {
    propertiesDock_->showBody(document_->model(), document_->tree(), body);
  }
}

void MainWindow::onJointSelected(int joint) {
  view_->selectBody(joint);  // joint i moves body i
  propertiesDock_->showJoint(document_->model(), document_->tree(), joint);
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Kinetree"),
                     tr("<h3>Kinetree %1</h3>"
                        "<p>Build, simulate and inspect tree-structured rigid multibody systems.</p>"
                        "<p>Built with Qt %2 and VTK.</p>")
                         .arg(QString::fromLatin1(kt::kVersion), QString::fromLatin1(qVersion())));
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
  jointFramesAction_->setChecked(settings.value(QStringLiteral("view/jointFrames"), false).toBool());
  comAction_->setChecked(settings.value(QStringLiteral("view/centresOfMass"), false).toBool());
  gridAction_->setChecked(settings.value(QStringLiteral("view/grid"), true).toBool());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("mainWindow/state"), saveState());
  settings.setValue(QStringLiteral("view/jointFrames"), jointFramesAction_->isChecked());
  settings.setValue(QStringLiteral("view/centresOfMass"), comAction_->isChecked());
  settings.setValue(QStringLiteral("view/grid"), gridAction_->isChecked());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
}

}  // namespace kt::ui
