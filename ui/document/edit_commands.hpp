// SPDX-License-Identifier: BSD-3-Clause
// Undo commands for the tree edits of core/model/editing/edit_ops.hpp. Each factory runs the edit on a
// copy of the document's model first: when the edit is refused it returns nullptr and sets
// `error`; otherwise it returns a command to push (Document::push). The commands store exactly
// what they change (the appended bodies, the removed bodies with their indices, the before/after
// specs), so undo restores a byte-identical model and redo the edited one.
#pragma once

#include <QString>
#include <QUndoCommand>
#include <vector>

#include "core/model/editing/edit_ops.hpp"

namespace kt::ui {

class Document;

namespace edit {

/// Adds a default body (edit_ops defaultBody) under `parent` ("world" or a body name).
QUndoCommand* addBody(Document& doc, const QString& parent, kt::JointType type, const QString& name = {},
                      QString* error = nullptr);
/// Adds a prepared body (name, parent and joint name checked).
QUndoCommand* addBody(Document& doc, const kt::BodySpec& body, QString* error = nullptr);
/// Deletes one body; its children move up to its parent keeping their neutral pose.
QUndoCommand* deleteBody(Document& doc, int body, QString* error = nullptr);
/// Deletes a body and everything below it.
QUndoCommand* deleteSubtree(Document& doc, int body, QString* error = nullptr);
/// Re-parents a body (refuses cycles, self-parenting, unknown parents, no-op moves).
QUndoCommand* reparent(Document& doc, int body, const QString& newParent, bool keepWorldPose = false,
                       QString* error = nullptr);
QUndoCommand* duplicateSubtree(Document& doc, int root, const QString& suffix = QStringLiteral("_copy"),
                               QString* error = nullptr);
QUndoCommand* mirrorSubtree(Document& doc, int root, const kt::MirrorOptions& options, QString* error = nullptr);
QUndoCommand* renameBody(Document& doc, int body, const QString& name, QString* error = nullptr);
QUndoCommand* renameJoint(Document& doc, int body, const QString& name, QString* error = nullptr);
QUndoCommand* insertArm(Document& doc, const QString& parent, const kt::ArmTemplate& t, QString* error = nullptr);
QUndoCommand* insertChain(Document& doc, const QString& parent, const kt::ChainTemplate& t, QString* error = nullptr);
QUndoCommand* insertPrismBase(Document& doc, const QString& parent, const kt::PrismBaseTemplate& t,
                              QString* error = nullptr);

/// Pushes `command` when it is not null; returns whether it was pushed.
bool apply(Document& doc, QUndoCommand* command);

}  // namespace edit

// ---- the command classes (exposed for tests and for composing macros) ----

/// Bodies appended at the end of Model::bodies (add, duplicate, mirror copy, templates).
class AppendBodiesCommand : public QUndoCommand {
 public:
  AppendBodiesCommand(Document& doc, std::vector<kt::BodySpec> bodies, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  int first_;
  std::vector<kt::BodySpec> bodies_;
};

/// Whole subtrees removed (their indices and specs kept for undo).
class RemoveBodiesCommand : public QUndoCommand {
 public:
  RemoveBodiesCommand(Document& doc, std::vector<int> indices, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  std::vector<int> indices_;
  std::vector<kt::BodySpec> removed_;
};

/// One body removed, its children lifted to its parent (their specs before/after kept).
class DeleteBodyCommand : public QUndoCommand {
 public:
  DeleteBodyCommand(Document& doc, int body, const kt::Model& after);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  int body_;
  kt::BodySpec spec_;
  std::vector<int> children_;
  std::vector<kt::BodySpec> childBefore_, childAfter_;
};

/// A body moved to another parent (spec before/after: the origin may be recomputed).
class ReparentCommand : public QUndoCommand {
 public:
  ReparentCommand(Document& doc, int body, kt::BodySpec after);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  int body_;
  kt::BodySpec before_, after_;
};

class RenameBodyCommand : public QUndoCommand {
 public:
  RenameBodyCommand(Document& doc, int body, std::string name);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  int body_;
  std::string before_, after_;
};

/// Several bodies' fields changed at once (mirror in place). Names and parents unchanged.
class ReplaceBodiesCommand : public QUndoCommand {
 public:
  ReplaceBodiesCommand(Document& doc, std::vector<int> bodies, std::vector<kt::BodySpec> after, const QString& text);
  void redo() override;
  void undo() override;

 private:
  Document& doc_;
  std::vector<int> bodies_;
  std::vector<kt::BodySpec> before_, after_;
};

}  // namespace kt::ui
