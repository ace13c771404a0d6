// SPDX-License-Identifier: BSD-3-Clause
// The editor's document: the kt::Model being edited, its undo stack, the file it belongs to,
// and the item models that views show (body tree, problems). Every edit goes through a
// QUndoCommand (edit_commands.hpp, field_commands.hpp) that calls the primitive mutators below;
// the primitives keep the item models informed with precise row signals.
//
// Modified state: isModified() is !undoStack()->isClean(). Saving calls setClean(), so undoing
// past a save marks the document modified again (QUndoStack's clean index).
//
// Files: save()/saveAs() write atomically (kt::writeFileAtomically, core/io/atomic_file.hpp: a
// temporary file renamed over the target), so an interrupted or failing save never leaves a
// partial file and keeps the previous one intact. Autosave (recovery.hpp) writes a recovery copy
// every 60 s while modified.
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <functional>
#include <memory>
#include <vector>

#include "core/model/model.hpp"

namespace kt::ui {

class BodyTreeModel;
class ProblemsModel;
class Autosaver;

class Document : public QObject {
  Q_OBJECT

 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  const kt::Model& model() const { return model_; }
  QUndoStack* undoStack() { return &undo_; }
  BodyTreeModel* bodyTree() { return tree_; }
  ProblemsModel* problems() { return problems_; }
  const ProblemsModel* problems() const { return problems_; }
  Autosaver* autosaver() { return autosaver_; }

  /// Pushes an edit (the stack calls its redo()). Same as undoStack()->push(command).
  void push(QUndoCommand* command) { undo_.push(command); }

  // ---- files ----
  /// File path of the document (absolute), empty for a new, never-saved one.
  const QString& filePath() const { return filePath_; }
  /// `path` made absolute against the working directory; empty and embedded (":/…") paths as they are.
  static QString absolutePath(const QString& path);
  bool isModified() const { return !undo_.isClean(); }
  /// File name (or "untitled"), with "*" when modified: for window titles.
  QString title() const;
  /// The model's name, or the file name where the model has none of its own ("untitled").
  QString displayName() const;
  /// Folder that relative mesh paths refer to (empty for embedded and new models).
  QString modelDirectory() const;

  /// An empty model ("untitled", no bodies), no path, empty undo history.
  void newDocument();
  /// A model file read and checked, not yet open: what open() does before it replaces the
  /// document. Touches no document, so it may run on any thread (the start-up reads the file
  /// named on the command line while the window is built).
  struct ReadModel {
    QString path;  ///< absolute
    kt::Model model;
    QString error;  ///< every diagnostic when the file cannot be opened; empty otherwise
    bool ok = false;
  };
  static ReadModel read(const QString& path);
  /// Loads a model file. On failure keeps the current document and sets `error` (every
  /// diagnostic, "file:line:col: error: …" one per line).
  bool open(const QString& path, QString* error = nullptr);
  /// open() of a file read() already read.
  bool open(ReadModel read, QString* error = nullptr);
  /// Replaces the document with `model` (empty history). `path` may be empty.
  void setModel(const kt::Model& model, const QString& path = {});
  /// Saves to filePath() (must not be empty). On failure the file on disk is unchanged.
  bool save(QString* error = nullptr);
  /// Saves to `path` and makes it the document's path (only when the save succeeded). Every file
  /// the model names (meshes, motion and drive tables) stays the file it was: relative paths are
  /// rebased onto the new folder (rebaseFiles), and
  /// meshes an import made in the application's data folder (generatedMeshRoot) are copied into
  /// "<name>_meshes" beside the file, which then names the copies: a saved model does not depend on
  /// this machine's data folder. The model's bodies then name what the file names.
  bool saveAs(const QString& path, QString* error = nullptr);
  /// Where imports write the meshes they make (MJCF meshes and ellipsoids): a folder of the
  /// application's data folder, each import in a folder of its own under it.
  static QString generatedMeshRoot();
  /// Writes `model` to `path` atomically (kt::writeFileAtomically); used by save and autosave.
  /// False with the reason ("cannot write …: No space left on device") in `error`.
  static bool writeModelFile(const kt::Model& model, const QString& path, QString* error, const QString& header = {});
  /// The meshes of `model` under generatedMeshRoot() copied into "<name>_meshes" beside the model
  /// file `path`, their shapes naming the copies relative to it. True when there were none or all
  /// were copied; false with the reason in `error` (the model may then be partly changed).
  static bool copyGeneratedMeshes(kt::Model& model, const QString& path, QString* error);
  /// The relative paths of `model`'s meshes and motion and drive tables (relative to folder `from`)
  /// made relative to folder `to`, where the file exists (a path that leads nowhere stays as
  /// written). True when one changed.
  static bool rebaseFiles(kt::Model& model, const QString& from, const QString& to);

  /// Why the model cannot be run (the first problem and how many there are), or empty.
  QString runBlocker() const;

  // ---- primitive mutators (called by the undo commands only) ----
  /// Inserts `specs` so that they end up at `indices` (ascending) of Model::bodies. The bodies
  /// form whole subtrees hanging from bodies already present (or the world).
  void insertBodies(const std::vector<int>& indices, const std::vector<kt::BodySpec>& specs);
  /// Removes the bodies at `indices` (a union of whole subtrees). Returns them, in index order.
  std::vector<kt::BodySpec> removeBodies(std::vector<int> indices);
  /// Changes the parent of one body (a tree move); the rest of the spec is left alone.
  void setParent(int body, const std::string& parent);
  /// Renames a body and the parent fields of its children.
  void renameBody(int body, const std::string& name);
  /// Replaces a body's spec; its name and parent must not change (use the calls above).
  void replaceBody(int body, const kt::BodySpec& spec);
  /// Replaces the model-level settings: name, description, gravity, simulation (bodies untouched).
  void setHeader(const kt::Model& header);
  /// Stable id of a body for item models (unchanged by edits of other bodies, moves and renames).
  quint64 bodyId(int body) const { return ids_[static_cast<std::size_t>(body)]; }
  /// Body index of an id, or −1.
  int indexOfId(quint64 id) const;

 signals:
  /// After every change of the model (edits, undo, redo, open, new).
  void changed();
  /// The whole model was replaced (new, open, restore): views rebuild.
  void modelReplaced();
  /// Fields of one body changed (not its place in the tree).
  void bodyChanged(int body);
  void modifiedChanged(bool modified);
  void filePathChanged(const QString& path);
  /// After a successful save (path).
  void saved(const QString& path);

 private:
  void afterChange();
  void replaceAll(const kt::Model& model, const QString& path);

  kt::Model model_;
  std::vector<quint64> ids_;  // (bodies) stable ids
  quint64 nextId_ = 1;
  QUndoStack undo_;
  QString filePath_;
  BodyTreeModel* tree_ = nullptr;
  ProblemsModel* problems_ = nullptr;
  Autosaver* autosaver_ = nullptr;
  friend class BodyTreeModel;
};

}  // namespace kt::ui
