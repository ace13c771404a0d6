// SPDX-License-Identifier: BSD-3-Clause
// The Model dock's layout of the body tree (BodyTreeModel). A chain is a run of bodies each the
// only child of the one before (a body on the world starts none); in a chain of kFlatChain bodies
// or more, each body is shown right
// after the one before it, at the same indentation, instead of one level deeper. So an arm is a
// list under the body it is mounted on (the space robot: base, then L11 … L16 and L21 … L26 one
// level in), a 10,000-link chain is one flat list, every name in the column, and a branch off a
// chain is nested under the body it hangs from; a short chain (a two-link pendulum) stays nested.
// The Level column gives each body's true level (1 for a body on the world), and the dock's path
// line its ancestors, where the indentation does not show them.
//
// Names are edited and bodies dragged exactly as in BodyTreeModel (the proxy forwards them);
// a drop on a body re-parents to that body. Any structural change of the source rebuilds the
// layout (a model reset: the view's expansion is re-applied by the dock).
#pragma once

#include <QAbstractProxyModel>
#include <vector>

namespace kt::ui {

class BodyTreeModel;

class FlatChainProxy : public QAbstractProxyModel {
  Q_OBJECT

 public:
  /// Chains of at least this many bodies are listed flat.
  static constexpr int kFlatChain = 4;
  /// The column after BodyTreeModel's: the body's level in the tree.
  static constexpr int LevelColumn = 3;

  explicit FlatChainProxy(BodyTreeModel* source, QObject* parent = nullptr);

  /// Index of a body (Document::model().bodies index), invalid for −1 or out of range.
  QModelIndex indexOfBody(int body, int column = 0) const;
  /// Body of an item, −1 for the root.
  int bodyOf(const QModelIndex& index) const;
  /// Level of a body in the tree (1: hangs from the world); 0 for an invalid body.
  int levelOf(int body) const;
  /// Largest indentation the layout shows (levels of nesting in the view).
  int shownDepth() const { return shownDepth_; }

  QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
  QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool hasChildren(const QModelIndex& parent = {}) const override;
  bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                       const QModelIndex& parent) const override;
  bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                    const QModelIndex& parent) override;

 private:
  void rebuild();
  BodyTreeModel* tree_;
  // indexed by body + 1 (0: the world)
  std::vector<std::vector<int>> shownChildren_;
  std::vector<int> shownParent_;  // (bodies) the body this one shows under, −1 for the top level
  std::vector<int> row_;          // (bodies) row under shownParent_
  std::vector<int> level_;        // (bodies) true level, 1 for a root
  int shownDepth_ = 0;
};

}  // namespace kt::ui
