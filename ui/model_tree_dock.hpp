// SPDX-License-Identifier: BSD-3-Clause
// The model-tree dock: the document's bodies nested under their parents (BodyTreeModel), with
// the joint type and joint name of each body in the next columns (a body and the joint to its
// parent are one item: selecting one selects both). Names are edited in place (F2 or a double
// click: a rename command; refused names say why), bodies are re-parented by drag and drop
// (cycles refused), and the context menu offers the Edit menu's actions.
//
// Body numbers here are indices into Document::model().bodies (not tree indices).
//
// Bodies show expanded down to kMaxExpandedDepth levels and no deeper: QTreeView lays out its
// expanded items recursively, one stack frame per level, and a 50,000-body chain shown fully
// expanded overflowed the stack. A deeper body stays selectable (the tree's selection follows
// the view's), under a collapsed ancestor the user can open.
#pragma once

#include <QDockWidget>
#include <QList>

class QAction;
class QTreeView;

namespace kt::ui {

class Document;

class ModelTreeDock : public QDockWidget {
  Q_OBJECT

 public:
  /// Levels of the tree shown expanded at most (see above).
  static constexpr int kMaxExpandedDepth = 200;

  explicit ModelTreeDock(Document* document, QWidget* parent = nullptr);

  QTreeView* treeView() const { return view_; }
  /// The selected body, or −1.
  int selectedBody() const;
  /// Actions of the context menu (the Edit menu's).
  void setContextActions(const QList<QAction*>& actions) { contextActions_ = actions; }
  /// Starts editing the name of the selected body.
  void renameSelected();

 public slots:
  /// Selects a body (−1 clears the selection), expanding its ancestors (down to
  /// kMaxExpandedDepth); emits nothing.
  void selectBody(int body);

 signals:
  /// The user selected a body (−1: none).
  void bodySelected(int body);

 private:
  void onCurrentChanged();
  /// Expands the bodies down to kMaxExpandedDepth levels.
  void expandAllowed();

  Document* doc_;
  QTreeView* view_;
  QList<QAction*> contextActions_;
  bool selecting_ = false;
};

}  // namespace kt::ui
