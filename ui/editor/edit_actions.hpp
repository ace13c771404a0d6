// SPDX-License-Identifier: BSD-3-Clause
// The Edit menu and the Model dock's context menu: undo and redo (of the model, wherever the
// focus is: ui/shell/edit_guards.hpp), add a body, insert a template, rename, duplicate, mirror,
// copy a body's settings and paste them onto the selected bodies, mount on a face of the parent,
// delete. Each edit is one undo step of the document (ui/document/edit_commands.hpp); an edit that
// cannot be made says why in the status bar and changes nothing.
#pragma once

#include <QObject>
#include <optional>
#include <vector>

#include "core/model/geometry/mount_faces.hpp"
#include "core/model/model.hpp"

class QAction;
class QMainWindow;
class QMenu;
class QUndoCommand;

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class Document;
class ModelTreeDock;
class Selection;

class EditActions : public QObject {
  Q_OBJECT

 public:
  /// Adds the Edit menu to `window`'s menu bar; the status messages go to its status bar.
  EditActions(Document* doc, Selection* selection, ModelTreeDock* tree, render::SceneView* view, QMainWindow* window);

  QMenu* menu() const { return menu_; }

 private:
  /// Edit ▸ Paste onto Selected Bodies: one part of the copied body's settings onto every selected body.
  enum class Paste { Drive, Limits, Rating, Inertial, Shapes };
  void paste(Paste what);
  /// Edit ▸ Mount on Face of Parent: the selected body's joint origin on a face the user picks.
  void mountOnFace();
  /// The faces of the shapes of `body`'s parent (none for a root or a parent without shapes).
  std::vector<kt::MountFace> mountFacesOfParent(int body) const;
  void addBody(kt::JointType type);
  void insertTemplate(int kind);
  /// Pushes an edit command, or shows why it was refused.
  bool applyEdit(QUndoCommand* command, const QString& error);
  void updateActions();
  void showMessage(const QString& message) const;

  Document* doc_;
  Selection* selection_;
  ModelTreeDock* treeDock_;
  QMainWindow* window_;
  QMenu* menu_ = nullptr;
  QAction* renameAction_ = nullptr;
  QAction* duplicateAction_ = nullptr;
  QAction* mirrorAction_ = nullptr;
  QAction* copyAction_ = nullptr;
  QMenu* pasteMenu_ = nullptr;
  QAction* mountAction_ = nullptr;
  QAction* deleteAction_ = nullptr;
  QAction* deleteSubtreeAction_ = nullptr;
  std::optional<kt::BodySpec> copied_;  // Edit ▸ Copy Body Settings
};

}  // namespace kt::ui
