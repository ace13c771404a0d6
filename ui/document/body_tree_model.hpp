// SPDX-License-Identifier: BSD-3-Clause
// The body tree as a Qt item model: each body is an item under its parent body (roots under the
// invisible root, which stands for the world), children in Model::bodies order. Columns: body
// name (editable: renames through an undo command), joint type, joint name.
//
// Items carry the document's stable body ids (Document::bodyId), so persistent indexes and
// selections survive edits. The Document calls the begin/end row functions around every
// structural change: insertions and removals of whole subtrees (one row each), re-parenting as a
// row move, renames and field edits as dataChanged; open/new reset the model.
//
// Drag and drop re-parents: dropping bodies on a body (or on the empty area: the world) pushes
// re-parent commands; drops that would make a cycle, keep the parent unchanged or come from
// another document are refused. removeRows() is not implemented, so a view's "move" completion
// never deletes the dragged rows.
#pragma once

#include <QAbstractItemModel>
#include <string>
#include <unordered_map>
#include <vector>

namespace kt::ui {

class Document;

class BodyTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, JointTypeColumn, JointNameColumn, ColumnCount };
  enum Role { BodyIndexRole = Qt::UserRole + 1, BodyIdRole };
  static constexpr const char* kMimeType = "application/x-kinetree-bodies";

  explicit BodyTreeModel(Document* document);

  /// Index of a body (−1 or out of range: invalid index).
  QModelIndex indexOfBody(int body, int column = NameColumn) const;
  /// Body index of an item, −1 for the root.
  int bodyOf(const QModelIndex& index) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
  Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }
  QStringList mimeTypes() const override;
  QMimeData* mimeData(const QModelIndexList& indexes) const override;
  bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                       const QModelIndex& parent) const override;
  bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                    const QModelIndex& parent) override;

 signals:
  /// A rename or drop was refused; `reason` says why (for the status bar).
  void editRefused(const QString& reason);

 private:
  friend class Document;
  struct Cache {
    bool valid = false;
    std::vector<std::vector<int>> children;  // (bodies + 1) children of the world (0) and of body k (k + 1)
    std::vector<int> parentOf;               // (bodies) parent body, −1 for the world
    std::vector<int> rowOf;                  // (bodies) row under the parent
    std::unordered_map<quint64, int> indexOfId;
  };
  const Cache& cache() const;
  void invalidate() { cache_.valid = false; }
  /// Bodies of our own mime data (empty when foreign or malformed).
  std::vector<int> decode(const QMimeData* data) const;
  /// Why the bodies cannot be moved under `parent` (empty when they can).
  QString dropRefusal(const std::vector<int>& bodies, int parent) const;

  Document* doc_;
  mutable Cache cache_;
};

}  // namespace kt::ui
