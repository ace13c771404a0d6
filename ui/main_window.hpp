// The main window: the 3D view in the centre, the model-tree and properties docks, and the
// File / View / Help menus. Wiring only; each dock is its own class.
//
// Seams for the simulation work: addMenuBeforeHelp() for the Simulation menu, addDockWidget()
// plus viewMenu() for the plots dock, and sceneView()->showState(q) for snapshots.
#pragma once

#include <QMainWindow>

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class ModelDocument;
class ModelTreeDock;
class PropertiesDock;
class RecentFiles;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Opens a model file or an embedded example (":/examples/…"). On failure the current model
  /// stays and a message box shows the loader's diagnostics.
  bool openModel(const QString& path);
  /// As openModel() without any dialog: on failure returns false and sets `error`.
  bool loadModel(const QString& path, QString& error);

  ModelDocument& document() const { return *document_; }
  render::SceneView* sceneView() const { return view_; }
  ModelTreeDock* modelTreeDock() const { return treeDock_; }
  PropertiesDock* propertiesDock() const { return propertiesDock_; }
  RecentFiles* recentFiles() const { return recent_; }

  /// A new top-level menu inserted before Help.
  QMenu* addMenuBeforeHelp(const QString& title);
  /// The View menu (dock toggles belong here).
  QMenu* viewMenu() const { return viewMenu_; }

 public slots:
  void showOpenDialog();
  void showAbout();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createFileMenu();
  void createViewMenu();
  void createHelpMenu();
  void onModelReplaced();
  void onBodySelected(int body);
  void onJointSelected(int joint);
  void restoreSettings();
  void saveSettings() const;

  ModelDocument* document_;
  render::SceneView* view_;
  ModelTreeDock* treeDock_;
  PropertiesDock* propertiesDock_;
  RecentFiles* recent_ = nullptr;
  QMenu* viewMenu_ = nullptr;
  QMenu* helpMenu_ = nullptr;
  QAction* jointFramesAction_ = nullptr;
  QAction* comAction_ = nullptr;
  QAction* gridAction_ = nullptr;
};

}  // namespace kt::ui
