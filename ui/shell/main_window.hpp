// SPDX-License-Identifier: BSD-3-Clause
// The main window: the 3D view in the centre; the model tree, properties, problems, undo history
// and plots docks; the File, Edit, View, Simulation and Help menus and the simulation toolbar.
// Wiring only: it creates and owns every dock and the simulation controller and passes each
// part what it needs; each dock, dialog and menu is its own class.
//
// The document (ui/document/Document) is the model being edited. After every change the window
// finalizes it into a kt::Tree: when the model is valid the 3D view rebuilds and modelEdited()
// tells the simulation to stop and reset; when it has problems the last valid picture stays, the
// problems dock lists them and the model cannot be run.
//
// A run (docs/architecture.md, "Data flow of a run"): the Simulation menu's Run reaches the
// SimulationController, whose kt::RunLoop steps on its own thread into the Recorder; the
// controller's frame() moves the 3D view to the shown sample's q, the JointLoadView reads its
// loads and the plots read the Recorder.
//
// Selection is one thing: a body picked in the 3D view, clicked in the tree or reached through a
// problem is shown in all three (and in the plots and the load arrows, which use tree indices).
// Body numbers of the window's API are indices into Document::model().bodies; tree() maps them.
#pragma once

#include <QHash>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <functional>
#include <future>
#include <optional>

#include "core/model/geometry/mount_faces.hpp"
#include "core/model/tree.hpp"
#include "core/results/peak_loads.hpp"
#include "ui/document/document.hpp"

class QDialog;
class QProgressDialog;
class QUndoCommand;
class QUndoView;

namespace kt::render {
class SceneView;
}

class QMenu;

namespace kt::ui {

class CompareSolversDialog;
class JointLoadView;
class ModelTreeDock;
class MathematicsDock;
class PeakLoadsDock;
class PlotsDock;
class PropertiesDock;
class ProblemsDock;
class RecentFiles;
class SimulationActions;
class SimulationController;
class SimulationStatus;
class TimelineBar;
struct FieldLocation;
struct VideoSource;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // ---- files ----
  /// Opens a model file or an embedded example (":/examples/…"), after asking about unsaved
  /// changes. On failure the current model stays and a message box shows the loader's
  /// diagnostics. A model that reads but has problems opens (to be fixed) and says so.
  /// `preread`, when valid: Document::read(path) started earlier (the start-up's file).
  bool openModel(const QString& path, std::future<Document::ReadModel> preread = {});
  /// As openModel() without any dialog or question: on failure returns false and sets `error`.
  /// A URDF file (.urdf) is imported (importUrdf).
  bool loadModel(const QString& path, QString& error, std::future<Document::ReadModel> preread = {});
  /// File ▸ New: an empty model (after asking about unsaved changes).
  bool newModel();
  /// Reads a URDF robot into a new, unsaved document (ui::importUrdf in ui/shell/import_urdf.hpp) and
  /// fits the view to it. On failure the current model stays and `error` holds every diagnostic
  /// (file:line:col). Does not ask about unsaved changes (openModel does).
  bool importUrdf(const QString& path, QString& error);
  /// File ▸ Save (Save As for a model without a file or an embedded example). False when
  /// cancelled or failed (a message box says why; the file on disk is untouched).
  bool save();
  bool saveAs();
  /// Writes the document to `path` without dialogs (false and `error` on failure).
  bool saveTo(const QString& path, QString& error);
  /// Save As without the file dialog: as saveTo(), and a model without a name of its own
  /// ("untitled", which the user never chose) takes the file's base name, as one undo step
  /// ("Name the model after its file") that is part of the save; a failed save takes it back.
  bool saveAsTo(const QString& path, QString& error);
  /// Asks what to do with unsaved changes (Save, Discard, Cancel); true when it is fine to go on.
  bool maybeSave();
  /// Test hook: answers the unsaved-changes question instead of the message box.
  void setUnsavedChangesAnswerForTesting(std::function<QMessageBox::StandardButton()> answer) {
    unsavedAnswer_ = std::move(answer);
  }
  /// Offers to recover documents autosaved by a session that did not end normally.
  void offerRecovery();

  // ---- the model ----
  Document& document() const { return *doc_; }
  /// The finalized current model (the last valid one while the model has problems).
  const kt::Tree& tree() const { return tree_; }
  /// True when the model has bodies and no problems (it can be run).
  bool isRunnable() const { return runnable_; }
  /// The model's name, or the file name.
  QString displayName() const;
  /// Folder that relative mesh paths refer to (empty for embedded and new models).
  QString modelDirectory() const;

  // ---- selection ----
  /// The selected body (index into the document's bodies), or −1.
  int selectedBody() const;
  /// Selects a body everywhere (−1: none).
  void selectBody(int body);
  /// Tree index of a document body in tree() (−1 if it is not in it), and back.
  int treeIndexOf(int body) const;
  int bodyOfTreeIndex(int treeIndex) const;

  // ---- parts ----
  render::SceneView* sceneView() const { return view_; }
  ModelTreeDock* modelTreeDock() const { return treeDock_; }
  PropertiesDock* propertiesDock() const { return propertiesDock_; }
  ProblemsDock* problemsDock() const { return problemsDock_; }
  QDockWidget* historyDock() const { return historyDock_; }
  RecentFiles* recentFiles() const { return recent_; }
  SimulationController* simulation() const { return simulation_; }
  PlotsDock* plotsDock() const { return plotsDock_; }
  JointLoadView* jointLoadView() const { return jointLoads_; }
  SimulationStatus* simulationStatus() const { return simulationStatus_; }
  TimelineBar* timeline() const { return timeline_; }
  PeakLoadsDock* peakLoadsDock() const { return peakLoadsDock_; }
  MathematicsDock* mathematicsDock() const { return mathematicsDock_; }
  QAction* exportResultsAction() const { return exportResultsAction_; }
  QAction* exportVideoAction() const { return exportVideoAction_; }
  /// What an exported video shows besides the recording: the views as the window has them.
  VideoSource videoSource() const;

  // ---- window layout ----
  /// Restores a saved geometry and dock state (QMainWindow::saveGeometry, saveState); empty
  /// arrays keep the default. Anything that cannot be restored safely (unreadable, off the
  /// screens, larger than the screen) leaves the default layout in full and returns false.
  bool restoreLayout(const QByteArray& savedGeometry, const QByteArray& savedState);
  /// Why the saved layout was not used at the start (empty when it was).
  const QString& layoutMessage() const { return layoutMessage_; }
  /// View ▸ Reset Layout: the default docks, where they start, at sizes that suit the window's
  /// present size; the saved layout is forgotten (a broken one does not come back).
  void resetLayout();
  /// The docks' default sizes for the window's present size: each side column about a fifth of
  /// the width, the Model dock a third of its column, the Plots dock a little over half the
  /// height (three panes of at least 160 px at 1600 × 1000). The default layout gets them when
  /// the window first shows, and Reset Layout.
  void applyDefaultDockSizes();

 public slots:
  void showOpenDialog();
  /// File ▸ Import URDF…
  void showImportUrdfDialog();
  /// File ▸ Export Results…: the recorded run as CSV.
  void showExportResults();
  /// File ▸ Export Video…: the recorded run rendered as a video.
  void showExportVideo();
  void showAbout();
  /// Help ▸ User Manual: the installed documentation (docs/), read in the application.
  void showManual();
  /// Help ▸ Keyboard Shortcuts: every action of the window that has a shortcut.
  void showShortcuts();

 signals:
  /// Another model replaced the document (open, new, recover): settings come from its file.
  void modelReplaced();
  /// The document was edited: the simulation stops and resets to its initial state (when it can
  /// run: isRunnable()).
  void modelEdited();
  /// The selection changed: document body and tree index (−1 for none).
  void selectionChanged(int body, int treeIndex);
  /// The window is closing (after the unsaved-changes question was answered): stop the work.
  void closing();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  /// A window that grows gives docks squeezed by a smaller size their default share back.
  void resizeEvent(QResizeEvent* event) override;

 private:
  void createFileMenu();
  void createEditMenu();
  void createViewMenu();
  void createHelpMenu();
  /// The controller and what follows it: the Simulation menu and toolbar, View ▸ Joint Loads,
  /// the plots dock, the status-bar figures; and the wiring from the model to the run and from
  /// the run to the views.
  void createSimulation();
  void onDocumentReplaced();
  void onDocumentChanged();
  /// Finalizes the document; rebuilds the scene when valid. `reframe`: reset the camera.
  void refreshModel(bool reframe);
  void updateTitle();
  void updateEditActions();
  /// Edit ▸ Mount on Face of Parent: the selected body's joint origin on a face the user picks.
  void mountOnFace();
  /// Edit ▸ Paste onto Selected Bodies: one part of the copied body's settings onto every selected body.
  enum class Paste { Drive, Limits, Rating, Inertial, Shapes };
  void paste(Paste what);
  /// The faces of the shapes of `body`'s parent (none for a root or a parent without shapes).
  std::vector<kt::MountFace> mountFacesOfParent(int body) const;
  void onTreeSelection(int body);
  void onBodyPicked(int treeIndex);
  /// The 3D view highlights every selected body.
  void showSelectionInView();
  void onProblemActivated(const FieldLocation& location);
  /// The scene of a large model is being built: a progress dialog (modal: it runs the event
  /// loop, so the window keeps painting) until it is done.
  void showBuildProgress(int done, int total);
  QProgressDialog* progressDialog();
  void closeProgress();
  /// Pushes an edit command, or shows why it was refused.
  bool applyEdit(QUndoCommand* command, const QString& error);
  void addBody(int jointType);
  void insertTemplate(int kind);
  /// The "Cannot open model" box: a summary of the diagnostics that fits the screen, all of them
  /// in its details.
  void showOpenFailure(const QString& path, const QString& error);
  void restoreSettings();
  void saveSettings() const;
  /// Docks squeezed far below their default size (by a smaller window, a smaller screen) get it
  /// back; docks the user merely narrowed keep their size.
  void growSqueezedDocks();
  /// The height the docks share (the window less its menu bar, status bar and toolbars), and the
  /// default width of a dock column: the measures of applyDefaultDockSizes().
  int dockRoomHeight() const;
  int defaultColumnWidth() const;

  Document* doc_;
  kt::Tree tree_;
  /// The session's peak loads, for the Problems dock's rating warnings: the rows up to
  /// runPeaksScanned_ (reset with the session, which owns the tree and layout it reads).
  std::unique_ptr<kt::PeakLoads> runPeaks_;
  std::size_t runPeaksScanned_ = 0;
  bool runnable_ = false;
  bool replacing_ = false;
  bool fromTree_ = false;        // selectBody() called for a selection the tree made
  std::size_t shownBodies_ = 0;  // bodies in the model last shown: an edit that adds some may re-fit the view
  QHash<QString, int> treeIndexByName_;
  quint64 selectedId_ = 0;               // Document::bodyId of the selection, 0 for none
  QProgressDialog* progress_ = nullptr;  ///< while a large model opens or its scene is built
  bool opening_ = false;                 ///< loadModel() of a large file: it closes progress_
  render::SceneView* view_;
  ModelTreeDock* treeDock_;
  PropertiesDock* propertiesDock_;
  ProblemsDock* problemsDock_;
  QDockWidget* historyDock_;
  QUndoView* historyView_;
  RecentFiles* recent_ = nullptr;
  SimulationController* simulation_ = nullptr;
  SimulationActions* simulationActions_ = nullptr;
  SimulationStatus* simulationStatus_ = nullptr;
  TimelineBar* timeline_ = nullptr;
  PeakLoadsDock* peakLoadsDock_ = nullptr;
  MathematicsDock* mathematicsDock_ = nullptr;
  QAction* exportResultsAction_ = nullptr;
  QAction* exportVideoAction_ = nullptr;
  QAction* compareAction_ = nullptr;
  QPointer<CompareSolversDialog> compareDialog_;
  JointLoadView* jointLoads_ = nullptr;
  PlotsDock* plotsDock_ = nullptr;
  std::function<QMessageBox::StandardButton()> unsavedAnswer_;
  QString layoutMessage_;
  QByteArray defaultState_;  ///< saveState() of the default layout (Reset Layout)
  QSize shownSize_;          ///< the size of the last resize event: growth is measured from it
  bool growPending_ = false;
  bool sizeDocksWhenShown_ = false;  ///< the default layout: its sizes follow the first shown size
  QMenu* examplesMenu_ = nullptr;
  QPointer<QDialog> manual_;
  QMenu* viewMenu_ = nullptr;
  QMenu* helpMenu_ = nullptr;
  QAction* saveAction_ = nullptr;
  QAction* deleteAction_ = nullptr;
  QAction* deleteSubtreeAction_ = nullptr;
  QAction* duplicateAction_ = nullptr;
  QAction* mirrorAction_ = nullptr;
  QAction* mountAction_ = nullptr;
  QAction* copyAction_ = nullptr;
  QMenu* pasteMenu_ = nullptr;
  std::optional<kt::BodySpec> copied_;  // Edit ▸ Copy Body Settings
  QAction* renameAction_ = nullptr;
  QAction* jointFramesAction_ = nullptr;
  QAction* comAction_ = nullptr;
  QAction* gridAction_ = nullptr;
  QAction* followAction_ = nullptr;
  QAction* trailsAction_ = nullptr;
  QAction* statisticsAction_ = nullptr;
};

}  // namespace kt::ui
