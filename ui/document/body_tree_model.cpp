// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/body_tree_model.hpp"

#include <QDataStream>
#include <QIODevice>
#include <QMimeData>

#include "core/model/editing/edit_ops.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"

namespace kt::ui {

BodyTreeModel::BodyTreeModel(Document* document) : QAbstractItemModel(document), doc_(document) {}

const BodyTreeModel::Cache& BodyTreeModel::cache() const {
  if (cache_.valid) return cache_;
  const kt::Model& m = doc_->model_;
  const std::size_t n = m.bodies.size();
  Cache c;
  c.children.assign(n + 1, {});
  c.parentOf.assign(n, -1);
  c.rowOf.assign(n, 0);
  std::unordered_map<std::string, int> byName;
  for (std::size_t k = 0; k < n; ++k) byName.emplace(m.bodies[k].name, static_cast<int>(k));
  for (std::size_t k = 0; k < n; ++k) {
    const auto it = byName.find(m.bodies[k].parent);
    // Unknown parents (only in invalid models) show at the top level.
    c.parentOf[k] = (it == byName.end() || it->second == static_cast<int>(k)) ? -1 : it->second;
  }
  // A parent cycle (also only in invalid models, opened to be fixed) would hide its bodies and
  // make parent() loop. In body order, a body whose ancestors do not reach the world shows at
  // the top level instead (which breaks a cycle at its first body and keeps the rest of it).
  // A body judged to reach the world stays so, so each walk stops at the first judged ancestor:
  // a deep chain costs O(n), not O(n · depth).
  enum : char { kUnknown, kOnPath, kReachesWorld };
  std::vector<char> state(n, kUnknown);
  std::vector<int> path;
  for (std::size_t k = 0; k < n; ++k) {
    path.clear();
    int a = static_cast<int>(k);
    while (a >= 0 && state[static_cast<std::size_t>(a)] == kUnknown) {
      state[static_cast<std::size_t>(a)] = kOnPath;
      path.push_back(a);
      a = c.parentOf[static_cast<std::size_t>(a)];
    }
    if (a < 0 || state[static_cast<std::size_t>(a)] == kReachesWorld) {
      for (int b : path) state[static_cast<std::size_t>(b)] = kReachesWorld;
      continue;
    }
    // back on its own path: a cycle above k. k goes to the top level; that also lets the walk
    // reach the world when k is on the cycle, otherwise the cycle's bodies are judged in turn.
    c.parentOf[k] = -1;
    const bool kOnCycle = a == static_cast<int>(k);
    for (int b : path) state[static_cast<std::size_t>(b)] = kOnCycle ? kReachesWorld : kUnknown;
    state[k] = kReachesWorld;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const int p = c.parentOf[k];
    auto& siblings = c.children[static_cast<std::size_t>(p + 1)];
    c.rowOf[k] = static_cast<int>(siblings.size());
    siblings.push_back(static_cast<int>(k));
    c.indexOfId.emplace(doc_->ids_[k], static_cast<int>(k));
  }
  c.valid = true;
  cache_ = std::move(c);
  return cache_;
}

QModelIndex BodyTreeModel::indexOfBody(int body, int column) const {
  const Cache& c = cache();
  if (body < 0 || body >= static_cast<int>(c.parentOf.size())) return {};
  return createIndex(c.rowOf[body], column, static_cast<quintptr>(doc_->ids_[body]));
}

int BodyTreeModel::bodyOf(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return -1;
  const auto& map = cache().indexOfId;
  const auto it = map.find(static_cast<quint64>(index.internalId()));
  return it == map.end() ? -1 : it->second;
}

QModelIndex BodyTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (parent.isValid() && parent.column() != 0) return {};
  const Cache& c = cache();
  const int p = bodyOf(parent);
  if (parent.isValid() && p < 0) return {};
  const auto& siblings = c.children[static_cast<std::size_t>(p + 1)];
  if (row >= static_cast<int>(siblings.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(doc_->ids_[siblings[row]]));
}

QModelIndex BodyTreeModel::parent(const QModelIndex& child) const {
  const int k = bodyOf(child);
  if (k < 0) return {};
  return indexOfBody(cache().parentOf[k]);
}

int BodyTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  const int p = bodyOf(parent);
  if (parent.isValid() && p < 0) return 0;
  return static_cast<int>(cache().children[static_cast<std::size_t>(p + 1)].size());
}

int BodyTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant BodyTreeModel::data(const QModelIndex& index, int role) const {
  const int k = bodyOf(index);
  if (k < 0) return {};
  const kt::BodySpec& b = doc_->model().bodies[k];
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      switch (index.column()) {
        case NameColumn: return QString::fromStdString(b.name);
        case JointTypeColumn: return QString::fromUtf8(kt::jointTypeName(b.joint.type).data());
        case JointNameColumn: return QString::fromStdString(b.joint.name.empty() ? b.name : b.joint.name);
        default: return {};
      }
    case Qt::ToolTipRole:
      return tr("%1: %2 joint to %3")
          .arg(QString::fromStdString(b.name), QString::fromUtf8(kt::jointTypeName(b.joint.type).data()),
               QString::fromStdString(b.parent));
    case BodyIndexRole: return k;
    case BodyIdRole: return static_cast<qulonglong>(doc_->ids_[k]);
    default: return {};
  }
}

QVariant BodyTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn: return tr("Body");
    case JointTypeColumn: return tr("Joint");
    case JointNameColumn: return tr("Joint name");
    default: return {};
  }
}

Qt::ItemFlags BodyTreeModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::ItemIsDropEnabled;
  Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
  if (index.column() == NameColumn || index.column() == JointNameColumn) f |= Qt::ItemIsEditable;
  return f;
}

bool BodyTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const int k = bodyOf(index);
  if (k < 0 || role != Qt::EditRole) return false;
  QString error;
  QUndoCommand* command = nullptr;
  if (index.column() == NameColumn)
    command = edit::renameBody(*doc_, k, value.toString(), &error);
  else if (index.column() == JointNameColumn)
    command = edit::renameJoint(
        *doc_, k,
        value.toString() == QString::fromStdString(doc_->model().bodies[k].name) ? QString() : value.toString(),
        &error);
  if (!command) {
    if (!error.isEmpty()) emit editRefused(error);
    return false;
  }
  doc_->push(command);
  return true;
}

QStringList BodyTreeModel::mimeTypes() const { return {QString::fromLatin1(kMimeType)}; }

QMimeData* BodyTreeModel::mimeData(const QModelIndexList& indexes) const {
  QByteArray bytes;
  QDataStream out(&bytes, QIODevice::WriteOnly);
  out << static_cast<quint64>(reinterpret_cast<quintptr>(doc_));
  QList<quint64> ids;
  for (const QModelIndex& i : indexes) {
    const int k = bodyOf(i);
    if (k >= 0 && !ids.contains(doc_->bodyId(k))) ids.append(doc_->bodyId(k));
  }
  out << ids;
  auto* data = new QMimeData;
  data->setData(QString::fromLatin1(kMimeType), bytes);
  return data;
}

std::vector<int> BodyTreeModel::decode(const QMimeData* data) const {
  if (!data || !data->hasFormat(QString::fromLatin1(kMimeType))) return {};
  QDataStream in(data->data(QString::fromLatin1(kMimeType)));
  quint64 owner = 0;
  QList<quint64> ids;
  in >> owner >> ids;
  if (in.status() != QDataStream::Ok || owner != static_cast<quint64>(reinterpret_cast<quintptr>(doc_))) return {};
  std::vector<int> bodies;
  for (quint64 id : ids) {
    const int k = doc_->indexOfId(id);
    if (k < 0) return {};
    bodies.push_back(k);
  }
  return bodies;
}

QString BodyTreeModel::dropRefusal(const std::vector<int>& bodies, int parent) const {
  const kt::Model& m = doc_->model();
  if (bodies.empty()) return tr("nothing to move");
  const std::string parentName = parent < 0 ? std::string("world") : m.bodies[parent].name;
  for (int k : bodies) {
    if (k == parent) return tr("a body cannot be its own parent");
    if (parent >= 0 && kt::isInSubtree(m, parent, k))
      return tr("'%1' hangs below '%2'; the move would make a cycle")
          .arg(QString::fromStdString(parentName), QString::fromStdString(m.bodies[k].name));
    if (m.bodies[k].parent == parentName)
      return tr("'%1' already hangs from '%2'")
          .arg(QString::fromStdString(m.bodies[k].name), QString::fromStdString(parentName));
  }
  return {};
}

bool BodyTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                    const QModelIndex& parent) const {
  if (action != Qt::MoveAction) return false;
  if (parent.isValid() && bodyOf(parent) < 0) return false;
  return dropRefusal(decode(data), bodyOf(parent)).isEmpty();
}

bool BodyTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex& parent) {
  if (action == Qt::IgnoreAction) return true;
  if (action != Qt::MoveAction || (parent.isValid() && bodyOf(parent) < 0)) return false;
  const std::vector<int> bodies = decode(data);
  const int target = bodyOf(parent);
  if (const QString why = dropRefusal(bodies, target); !why.isEmpty()) {
    emit editRefused(why);
    return false;
  }
  const QString parentName =
      target < 0 ? QStringLiteral("world") : QString::fromStdString(doc_->model().bodies[target].name);
  // Bodies keep their indices under a re-parent, so the list stays valid through the macro.
  doc_->undoStack()->beginMacro(tr("Move to %1").arg(parentName));
  for (int k : bodies) {
    QString error;
    if (!edit::apply(*doc_, edit::reparent(*doc_, k, parentName, false, &error)) && !error.isEmpty())
      emit editRefused(error);
  }
  doc_->undoStack()->endMacro();
  return true;
}

}  // namespace kt::ui
