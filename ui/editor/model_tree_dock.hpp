// SPDX-License-Identifier: BSD-3-Clause
// The model-tree dock: the document's bodies nested under their parents, with the joint type and
// joint name of each body and its level in the next columns (a body and the joint to its parent
// are one item: selecting one selects both). Names are edited in place (F2 or a double click: a
// rename command; refused names say why), bodies are re-parented by drag and drop (cycles
// refused), and the context menu offers the Edit menu's actions.
//
// Deep trees stay readable: the layout (FlatChainProxy) lists deep only children flat with their
// level; a find box above the tree selects a body by name (completing as it is typed), and a
// path line below it shows where the selected body hangs (world › base › … › its parent), each
// ancestor a link that selects it.
//
// Body numbers here are indices into Document::model().bodies (not tree indices).
//
// Bodies show expanded down to kMaxExpandedDepth levels of the layout and no deeper: QTreeView
// lays out its expanded items recursively, one stack frame per level, and a deep tree shown
// fully expanded overflowed the stack (chains no longer nest that deep; trees that branch at every
// level still may). A deeper body stays selectable, under a collapsed ancestor the user can open.
#pragma once

#include <QDockWidget>
#include <QList>
#include <utility>
#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QTreeView;

namespace kt::ui {

class Document;
class FlatChainProxy;

class ModelTreeDock : public QDockWidget {
  Q_OBJECT

 public:
  /// Levels of the layout shown expanded at most (see above).
  static constexpr int kMaxExpandedDepth = 200;

  explicit ModelTreeDock(Document* document, QWidget* parent = nullptr);

  QTreeView* treeView() const { return view_; }
  /// The view's model: the body tree in the dock's layout.
  FlatChainProxy* layout() const { return layout_; }
  /// The find box and the selected body's path.
  QLineEdit* findBox() const { return find_; }
  QLabel* pathLabel() const { return path_; }
  /// The selected body (the current one of several), or −1.
  int selectedBody() const;
  /// Every selected body (Ctrl+click and Shift+click select several), the current one first.
  std::vector<int> selectedBodies() const;
  /// Actions of the context menu (the Edit menu's; separators included).
  void setContextActions(const QList<QAction*>& actions) { contextActions_ = actions; }
  /// Starts editing the name of the selected body.
  void renameSelected();

 public slots:
  /// Selects a body (−1 clears the selection), expanding its ancestors (down to
  /// kMaxExpandedDepth); emits nothing. The current body of a selection of several keeps the others.
  void selectBody(int body);
  /// Adds a body to the selection as the current one, or takes it out when it is selected (a
  /// Ctrl+click, also from the 3D view); emits as a click in the tree does.
  void toggleBody(int body);

 signals:
  /// The user selected a body (−1: none).
  void bodySelected(int body);
  /// The set of selected bodies changed (selectedBodies()).
  void selectionSetChanged();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onCurrentChanged();
  /// Expands the bodies down to kMaxExpandedDepth levels.
  void expandAllowed();
  /// The Level column as wide as its widest number.
  void fitLevelColumn();
  /// Selects the body named in the find box (exactly, else the first whose name contains it).
  void findBody();
  void updatePath();
  void updateCompletions();

  Document* doc_;
  FlatChainProxy* layout_;
  QLineEdit* find_;
  QLabel* path_;
  QTreeView* view_;
  QList<QAction*> contextActions_;
  bool selecting_ = false;
  bool completionsStale_ = true;
  /// Across a new layout: the selected body's and its parent's Document::bodyId (0: none).
  std::pair<quint64, quint64> keptSelection_{0, 0};
  std::vector<quint64> keptOthers_;  ///< the other bodies of a selection of several
};

}  // namespace kt::ui
