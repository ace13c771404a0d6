// SPDX-License-Identifier: BSD-3-Clause
// The File menu's model files: New, Open (a dialog, a recent file, an example, a file dropped on
// the window), Import URDF, Save, Save As, the unsaved-changes question and the recovery of
// autosaved documents. Errors name the file and every diagnostic of the loader (file:line:col);
// a failed open keeps the current model, a failed save keeps the file on disk as it was.
// A large file shows its progress while it opens and while its 3D scene is built.
#pragma once

#include <QMessageBox>
#include <QObject>
#include <functional>
#include <future>

#include "ui/document/document.hpp"

class QMainWindow;
class QMenu;
class QProgressDialog;

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class RecentFiles;

class FileActions : public QObject {
  Q_OBJECT

 public:
  /// Adds the File menu (up to Save As) to `window`'s menu bar and accepts model files dropped on
  /// the window; status messages go to its status bar.
  FileActions(Document* doc, render::SceneView* view, QMainWindow* window);

  QMenu* menu() const { return menu_; }
  /// File ▸ Examples (the Help menu shows it too).
  QMenu* examplesMenu() const { return examplesMenu_; }
  RecentFiles* recentFiles() const { return recent_; }

  /// Opens a model file or an embedded example (":/examples/…"), after asking about unsaved
  /// changes. On failure the current model stays and a message box shows the loader's
  /// diagnostics. A model that reads but has problems opens (to be fixed) and says so.
  /// `preread`, when valid: Document::read(path) started earlier (the start-up's file).
  bool openModel(const QString& path, std::future<Document::ReadModel> preread = {});
  /// As openModel() without any dialog or question: on failure returns false and sets `error`.
  /// A URDF file (.urdf) or an MJCF file (.xml with <mujoco>) is imported (importRobot).
  bool loadModel(const QString& path, QString& error, std::future<Document::ReadModel> preread = {});
  /// File ▸ New: an empty model (after asking about unsaved changes).
  bool newModel();
  /// Reads a URDF or MJCF file into a new, unsaved document: ui::importUrdf or ui::importMjcf.
  using Importer = bool (*)(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error);
  /// Imports `path` with `importer` and fits the view to the robot. On failure the current model
  /// stays and `error` holds every diagnostic (file:line:col). Does not ask about unsaved changes
  /// (openModel does).
  bool importRobot(Importer importer, const QString& path, QString& error);
  /// File ▸ Save (Save As for a model without a file or an embedded example). False when
  /// cancelled or failed (a message box says why; the file on disk is untouched).
  bool save();
  bool saveAs();
  /// Where Save As starts: the document's own folder; for a robot just imported (no file yet)
  /// the folder of the file it came from; otherwise the last folder opened or saved in. The name
  /// is the model's, with .yaml.
  QString saveAsStartPath() const;
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
  void showOpenDialog();
  /// File ▸ Import URDF…
  void showImportUrdfDialog();
  void showImportMjcfDialog();
  /// File ▸ Import Motion…: a CSV of joint histories onto the open model (docs/motion.md).
  void showImportMotionDialog();

 protected:
  /// Model files dragged onto the window open as File ▸ Open would.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  /// The "Cannot open model" box: a summary of the diagnostics that fits the screen, all of them
  /// in its details.
  void showOpenFailure(const QString& path, const QString& error);
  void showMessage(const QString& message) const;
  /// The scene of a large model is being built: a progress dialog (modal: it runs the event
  /// loop, so the window keeps painting) until it is done.
  void showBuildProgress(int done, int total);
  QProgressDialog* progressDialog();
  void closeProgress();

  Document* doc_;
  QString importedFrom_;  ///< the robot file the document was imported from (until it has a file)
  render::SceneView* view_;
  QMainWindow* window_;
  QMenu* menu_ = nullptr;
  QMenu* examplesMenu_ = nullptr;
  RecentFiles* recent_ = nullptr;
  std::function<QMessageBox::StandardButton()> unsavedAnswer_;
  QProgressDialog* progress_ = nullptr;  ///< while a large model opens or its scene is built
  bool opening_ = false;                 ///< loadModel() of a large file: it closes progress_
};

}  // namespace kt::ui
