// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/flat_chain_proxy.hpp"

#include <utility>

#include "ui/document/body_tree_model.hpp"

namespace kt::ui {

FlatChainProxy::FlatChainProxy(BodyTreeModel* source, QObject* parent) : QAbstractProxyModel(parent), tree_(source) {
  QAbstractProxyModel::setSourceModel(source);
  // every structural change of the source: a new layout
  const auto begin = [this] { beginResetModel(); };
  const auto end = [this] {
    rebuild();
    endResetModel();
  };
  connect(source, &QAbstractItemModel::modelAboutToBeReset, this, begin);
  connect(source, &QAbstractItemModel::modelReset, this, end);
  connect(source, &QAbstractItemModel::rowsAboutToBeInserted, this, begin);
  connect(source, &QAbstractItemModel::rowsInserted, this, end);
  connect(source, &QAbstractItemModel::rowsAboutToBeRemoved, this, begin);
  connect(source, &QAbstractItemModel::rowsRemoved, this, end);
  connect(source, &QAbstractItemModel::rowsAboutToBeMoved, this, begin);
  connect(source, &QAbstractItemModel::rowsMoved, this, end);
  connect(source, &QAbstractItemModel::layoutAboutToBeChanged, this, begin);
  connect(source, &QAbstractItemModel::layoutChanged, this, end);
  connect(source, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex& topLeft, const QModelIndex& bottomRight, const QList<int>& roles) {
            // row by row: rows adjacent in the source need not be adjacent here
            for (int r = topLeft.row(); r <= bottomRight.row(); ++r) {
              const int body = tree_->bodyOf(topLeft.siblingAtRow(r));
              if (body < 0) continue;
              emit dataChanged(indexOfBody(body, topLeft.column()), indexOfBody(body, bottomRight.column()), roles);
            }
          });
  rebuild();
}

void FlatChainProxy::rebuild() {
  // bodies and their children as the source nests them
  std::vector<std::vector<int>> children(1);
  std::vector<std::pair<QModelIndex, int>> walk = {{QModelIndex(), -1}};
  int bodies = 0;
  while (!walk.empty()) {
    const auto [parentIndex, parentBody] = walk.back();
    walk.pop_back();
    const int rows = tree_->rowCount(parentIndex);
    for (int r = 0; r < rows; ++r) {
      const QModelIndex child = tree_->index(r, 0, parentIndex);
      const int body = tree_->bodyOf(child);
      if (body < 0) continue;
      if (static_cast<int>(children.size()) < body + 2) children.resize(static_cast<std::size_t>(body) + 2);
      children[static_cast<std::size_t>(parentBody + 1)].push_back(body);
      bodies = std::max(bodies, body + 1);
      walk.push_back({child, body});
    }
  }
  children.resize(static_cast<std::size_t>(bodies) + 1);
  shownChildren_.assign(static_cast<std::size_t>(bodies) + 1, {});
  shownParent_.assign(static_cast<std::size_t>(bodies), -1);
  row_.assign(static_cast<std::size_t>(bodies), 0);
  level_.assign(static_cast<std::size_t>(bodies), 0);
  shownDepth_ = 0;
  // chains: a body that is its parent's only child belongs to its parent's chain; a root starts
  // none (an arm on a base shows under the base, a chain hanging from the world under its first link)
  std::vector<int> chainOf(static_cast<std::size_t>(bodies), -1);
  std::vector<bool> root(static_cast<std::size_t>(bodies), false);
  for (int r : children[0]) root[static_cast<std::size_t>(r)] = true;
  std::vector<int> chainLength;
  {
    std::vector<int> order(children[0].rbegin(), children[0].rend());  // depth first, parents before children
    while (!order.empty()) {
      const int k = order.back();
      order.pop_back();
      const std::vector<int>& kids = children[static_cast<std::size_t>(k) + 1];
      if (chainOf[static_cast<std::size_t>(k)] < 0) {
        chainOf[static_cast<std::size_t>(k)] = static_cast<int>(chainLength.size());
        chainLength.push_back(0);
      }
      ++chainLength[static_cast<std::size_t>(chainOf[static_cast<std::size_t>(k)])];
      if (kids.size() == 1 && !root[static_cast<std::size_t>(k)])
        chainOf[static_cast<std::size_t>(kids.front())] = chainOf[static_cast<std::size_t>(k)];
      order.insert(order.end(), kids.rbegin(), kids.rend());
    }
  }
  // depth first, children in order: (body, shown parent, level, shown level)
  struct Item {
    int body, shownParent, level, shownLevel;
  };
  std::vector<Item> stack;
  const std::vector<int>& roots = children[0];
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, -1, 1, 1});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const auto k = static_cast<std::size_t>(item.body);
    auto& siblings = shownChildren_[static_cast<std::size_t>(item.shownParent + 1)];
    row_[k] = static_cast<int>(siblings.size());
    siblings.push_back(item.body);
    shownParent_[k] = item.shownParent;
    level_[k] = item.level;
    shownDepth_ = std::max(shownDepth_, item.shownLevel);
    const std::vector<int>& kids = children[k + 1];
    if (kids.size() == 1 && chainLength[static_cast<std::size_t>(chainOf[k])] >= kFlatChain) {
      // the next body of a long chain: right after this one, at its indentation
      stack.push_back({kids.front(), item.shownParent, item.level + 1, item.shownLevel});
      continue;
    }
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      stack.push_back({*it, item.body, item.level + 1, item.shownLevel + 1});
  }
}

QModelIndex FlatChainProxy::indexOfBody(int body, int column) const {
  if (body < 0 || body >= static_cast<int>(row_.size()) || column < 0 || column >= columnCount()) return {};
  return createIndex(row_[static_cast<std::size_t>(body)], column, static_cast<quintptr>(body));
}

int FlatChainProxy::bodyOf(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return -1;
  const auto body = static_cast<int>(index.internalId());
  return body < static_cast<int>(row_.size()) ? body : -1;
}

int FlatChainProxy::levelOf(int body) const {
  return body >= 0 && body < static_cast<int>(level_.size()) ? level_[static_cast<std::size_t>(body)] : 0;
}

QModelIndex FlatChainProxy::mapToSource(const QModelIndex& proxyIndex) const {
  const int body = bodyOf(proxyIndex);
  if (body < 0 || proxyIndex.column() >= BodyTreeModel::ColumnCount) return {};
  return tree_->indexOfBody(body, proxyIndex.column());
}

QModelIndex FlatChainProxy::mapFromSource(const QModelIndex& sourceIndex) const {
  return indexOfBody(tree_->bodyOf(sourceIndex), sourceIndex.column());
}

QModelIndex FlatChainProxy::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= columnCount() || (parent.isValid() && parent.column() != 0)) return {};
  const int p = bodyOf(parent);
  if (parent.isValid() && p < 0) return {};
  const auto& rows = shownChildren_[static_cast<std::size_t>(p + 1)];
  if (row >= static_cast<int>(rows.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)]));
}

QModelIndex FlatChainProxy::parent(const QModelIndex& child) const {
  const int body = bodyOf(child);
  return body < 0 ? QModelIndex() : indexOfBody(shownParent_[static_cast<std::size_t>(body)]);
}

int FlatChainProxy::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  const int p = bodyOf(parent);
  if (parent.isValid() && p < 0) return 0;
  return static_cast<int>(shownChildren_[static_cast<std::size_t>(p + 1)].size());
}

bool FlatChainProxy::hasChildren(const QModelIndex& parent) const { return rowCount(parent) > 0; }

int FlatChainProxy::columnCount(const QModelIndex&) const { return LevelColumn + 1; }

QVariant FlatChainProxy::data(const QModelIndex& index, int role) const {
  if (index.column() != LevelColumn) return QAbstractProxyModel::data(index, role);
  const int body = bodyOf(index);
  if (body < 0) return {};
  if (role == Qt::DisplayRole) return levelOf(body);
  if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole) return tr("Level %1 of the tree (1: hangs from the world)").arg(levelOf(body));
  return tree_->data(tree_->indexOfBody(body), role);
}

QVariant FlatChainProxy::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && section == LevelColumn) {
    if (role == Qt::DisplayRole) return tr("Level");
    if (role == Qt::ToolTipRole) return tr("Level of the body in the tree; deep only children are listed flat");
    return {};
  }
  return orientation == Qt::Horizontal ? tree_->headerData(section, orientation, role) : QVariant();
}

Qt::ItemFlags FlatChainProxy::flags(const QModelIndex& index) const {
  if (!index.isValid()) return tree_->flags(QModelIndex());
  if (index.column() == LevelColumn) return tree_->flags(tree_->indexOfBody(bodyOf(index))) & ~Qt::ItemIsEditable;
  return tree_->flags(mapToSource(index));
}

bool FlatChainProxy::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                     const QModelIndex& parent) const {
  // onto a body, or between rows: onto the body the rows show under
  return tree_->canDropMimeData(data, action, -1, -1, tree_->indexOfBody(bodyOf(parent)));
}

bool FlatChainProxy::dropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex& parent) {
  return tree_->dropMimeData(data, action, -1, -1, tree_->indexOfBody(bodyOf(parent)));
}

}  // namespace kt::ui
