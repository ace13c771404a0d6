// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/edit_actions.hpp"

#include <QAction>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTreeView>
#include <QUndoStack>
#include <memory>

#include "core/model/editing/edit_ops.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/editor/mirror_dialog.hpp"
#include "ui/editor/model_tree_dock.hpp"
#include "ui/editor/selection.hpp"
#include "ui/editor/template_dialog.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/shared/qt_text.hpp"
#include "ui/shared/status_message.hpp"
#include "ui/shell/edit_guards.hpp"

namespace kt::ui {

EditActions::EditActions(Document* doc, Selection* selection, ModelTreeDock* tree, render::SceneView* view,
                         QMainWindow* window)
    : QObject(window), doc_(doc), selection_(selection), treeDock_(tree), window_(window) {
  menu_ = window->menuBar()->addMenu(tr("&Edit"));
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
    commitFocusedField(window_);
    stack->undo();
  });
  connect(redo, &QAction::triggered, this, [this, stack] {
    commitFocusedField(window_);
    stack->redo();
  });
  menu_->addAction(undo);
  menu_->addAction(redo);
  menu_->addSeparator();

  QMenu* add = menu_->addMenu(tr("&Add Body"));
  add->setToolTip(tr("Adds a body under the selected one (or at the top) with a joint of this type"));
  for (kt::JointType type : kt::kAllJointTypes) {
    QAction* a = add->addAction(tr("with a %1 joint").arg(q(kt::jointTypeName(type))));
    a->setObjectName(QStringLiteral("addBody_") + q(kt::jointTypeName(type)));
    connect(a, &QAction::triggered, this, [this, type] { addBody(type); });
  }
  QMenu* templates = menu_->addMenu(tr("Insert &Template"));
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
  menu_->addSeparator();

  renameAction_ = menu_->addAction(tr("Re&name Body"), treeDock_, &ModelTreeDock::renameSelected);
  renameAction_->setShortcut(Qt::Key_F2);
  duplicateAction_ = menu_->addAction(tr("&Duplicate Subtree"), this, [this] {
    QString error;
    const int root = selection_->selectedBody();
    const int copied = root >= 0 ? static_cast<int>(kt::subtreeOf(doc_->model(), root).size()) : 0;
    if (applyEdit(edit::duplicateSubtree(*doc_, root, QStringLiteral("_copy"), &error), error)) {
      // the copy is appended, root first
      selection_->selectBody(static_cast<int>(doc_->model().bodies.size()) - copied);
    }
  });
  duplicateAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
  mirrorAction_ = menu_->addAction(tr("&Mirror Subtree…"), this, [this] {
    MirrorDialog dialog(doc_, selection_->selectedBody(), window_);
    if (dialog.exec() != QDialog::Accepted) return;
    if (QUndoCommand* c = dialog.takeCommand()) doc_->push(c);
  });
  menu_->addSeparator();
  copyAction_ = menu_->addAction(tr("&Copy Body Settings"), this, [this] {
    const int body = selection_->selectedBody();
    if (body < 0) return;
    copied_ = doc_->model().bodies[static_cast<std::size_t>(body)];
    showMessage(
        tr("Copied the settings of %1: paste its drive, limits, rating, inertial data or shapes onto the selected "
           "bodies (Edit ▸ Paste onto Selected Bodies)")
            .arg(QString::fromStdString(copied_->name)));
    updateActions();
  });
  copyAction_->setObjectName(QStringLiteral("copyBodySettings"));
  copyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  pasteMenu_ = menu_->addMenu(tr("&Paste onto Selected Bodies"));
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
  mountAction_ = menu_->addAction(tr("Mount on &Face of Parent…"), this, &EditActions::mountOnFace);
  mountAction_->setObjectName(QStringLiteral("mountOnFace"));
  mountAction_->setToolTip(
      tr("Places the selected body's joint on a face of its parent's shapes: at the face centre, z along the "
         "outward normal"));
  menu_->addSeparator();
  deleteAction_ = menu_->addAction(tr("De&lete Body"), this, [this] {
    QString error;
    applyEdit(edit::deleteBody(*doc_, selection_->selectedBody(), &error), error);
  });
  deleteAction_->setToolTip(tr("Deletes the selected body; its children move up to its parent"));
  deleteAction_->setShortcut(QKeySequence::Delete);
  deleteSubtreeAction_ = menu_->addAction(tr("Delete &Subtree"), this, [this] {
    QString error;
    applyEdit(edit::deleteSubtree(*doc_, selection_->selectedBody(), &error), error);
  });
  deleteSubtreeAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Delete));

  // Rename and Delete act on the tree or the 3D view; in a text field the keys edit the text.
  for (QAction* a : {renameAction_, deleteAction_, deleteSubtreeAction_}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    treeDock_->treeView()->addAction(a);
    view->addAction(a);
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

  connect(selection_, &Selection::selectionChanged, this, &EditActions::updateActions);
  connect(selection_, &Selection::selectionSetChanged, this, &EditActions::updateActions);
  updateActions();
}

void EditActions::showMessage(const QString& message) const {
  window_->statusBar()->showMessage(message, kStatusMessageMs);
}

void EditActions::updateActions() {
  const int selected = selection_->selectedBody();
  const bool have = selected >= 0;
  for (QAction* a : {renameAction_, duplicateAction_, mirrorAction_, deleteAction_, deleteSubtreeAction_, copyAction_})
    a->setEnabled(have);
  mountAction_->setEnabled(have && !mountFacesOfParent(selected).empty());
  pasteMenu_->setEnabled(have && copied_.has_value());
}

void EditActions::paste(Paste what) {
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
      showMessage(tr("Not pasted: %1: %2")
                      .arg(QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(body)].name), error));
      return;
    }
    if (c) commands.emplace_back(c);
  }
  if (commands.empty()) {
    showMessage(tr("Nothing to paste: the selected bodies have these settings already"));
    return;
  }
  doc_->undoStack()->beginMacro(tr("Paste from %1 onto %2")
                                    .arg(QString::fromStdString(from.name),
                                         countText(static_cast<long long>(commands.size()), tr("body"), tr("bodies"))));
  for (auto& c : commands) doc_->push(c.release());
  doc_->undoStack()->endMacro();
}

std::vector<kt::MountFace> EditActions::mountFacesOfParent(int body) const {
  const kt::Model& m = doc_->model();
  if (body < 0 || body >= static_cast<int>(m.bodies.size())) return {};
  const int parent = m.findBody(m.bodies[static_cast<std::size_t>(body)].parent);
  return parent < 0 ? std::vector<kt::MountFace>() : kt::mountFaces(m.bodies[static_cast<std::size_t>(parent)]);
}

void EditActions::mountOnFace() {
  const int body = selection_->selectedBody();
  const std::vector<kt::MountFace> faces = mountFacesOfParent(body);
  if (faces.empty()) {
    showMessage(tr("Not done: the parent has no shapes with faces to mount on"));
    return;
  }
  QStringList labels;
  for (const kt::MountFace& f : faces) labels << QString::fromStdString(f.label);
  const kt::BodySpec& b = doc_->model().bodies[static_cast<std::size_t>(body)];
  bool ok = false;
  const QString chosen =
      QInputDialog::getItem(window_, tr("Mount on Face"),
                            tr("Face of %1 for the joint of %2 (z along the outward normal):")
                                .arg(QString::fromStdString(b.parent), QString::fromStdString(b.name)),
                            labels, 0, false, &ok);
  if (!ok) return;
  const auto index = static_cast<std::size_t>(labels.indexOf(chosen));
  if (index >= faces.size()) return;
  QString error;
  applyEdit(edit::setJointOrigin(*doc_, body, kt::facePlacement(faces[index]), &error), error);
}

bool EditActions::applyEdit(QUndoCommand* command, const QString& error) {
  if (command == nullptr) {
    showMessage(tr("Not done: %1").arg(error));
    return false;
  }
  doc_->push(command);
  return true;
}

void EditActions::addBody(kt::JointType type) {
  const int parent = selection_->selectedBody();
  const QString parentName = parent >= 0
                                 ? QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(parent)].name)
                                 : QStringLiteral("world");
  QString error;
  if (applyEdit(edit::addBody(*doc_, parentName, type, {}, &error), error))
    selection_->selectBody(static_cast<int>(doc_->model().bodies.size()) - 1);  // appended
}

void EditActions::insertTemplate(int kind) {
  const int parent = selection_->selectedBody();
  const QString parentName = parent >= 0
                                 ? QString::fromStdString(doc_->model().bodies[static_cast<std::size_t>(parent)].name)
                                 : QStringLiteral("world");
  TemplateDialog dialog(doc_, parentName, window_);
  dialog.setKind(static_cast<TemplateDialog::Kind>(kind));
  if (dialog.exec() != QDialog::Accepted) return;
  if (QUndoCommand* c = dialog.takeCommand()) doc_->push(c);
}

}  // namespace kt::ui
