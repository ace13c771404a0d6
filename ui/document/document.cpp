// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/document.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/io/atomic_file.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/editing/edit_ops.hpp"
#include "ui/document/body_tree_model.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/document/recovery.hpp"

namespace kt::ui {
namespace {

// Bodies of `bodies` whose parent (by name) is not in the set: the subtree roots.
bool parentInSet(const kt::BodySpec& b, const std::unordered_set<std::string>& names) {
  return names.count(b.parent) != 0;
}

}  // namespace

Document::Document(QObject* parent) : QObject(parent) {
  tree_ = new BodyTreeModel(this);
  problems_ = new ProblemsModel(this);
  autosaver_ = new Autosaver(this);
  connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
  problems_->refresh(model_);
}

Document::~Document() {
  // A normal close: the recovery copy is no longer needed.
  autosaver_->discard();
}

QString Document::title() const {
  const QString name = filePath_.isEmpty() ? QStringLiteral("untitled") : QFileInfo(filePath_).fileName();
  return isModified() ? name + QStringLiteral("*") : name;
}

QString Document::displayName() const {
  const std::string& name = model_.name;
  if (!name.empty() && name != "untitled") return QString::fromStdString(name);
  return filePath_.isEmpty() ? tr("untitled") : QFileInfo(filePath_).fileName();
}

QString Document::modelDirectory() const {
  if (filePath_.isEmpty() || filePath_.startsWith(QLatin1Char(':'))) return {};
  return QFileInfo(filePath_).absolutePath();
}

// ---- files ----

QString Document::absolutePath(const QString& path) {
  if (path.isEmpty() || path.startsWith(QLatin1Char(':'))) return path;
  return QFileInfo(path).absoluteFilePath();
}

void Document::replaceAll(const kt::Model& model, const QString& givenPath) {
  // Absolute: a relative path would follow the working directory (and a recovery record made in
  // one directory would save over a file of the same name in another).
  const QString path = absolutePath(givenPath);
  autosaver_->discard();
  tree_->beginResetModel();
  model_ = model;
  ids_.clear();
  for (std::size_t k = 0; k < model_.bodies.size(); ++k) ids_.push_back(nextId_++);
  tree_->invalidate();
  tree_->endResetModel();
  undo_.clear();
  undo_.setClean();
  const bool pathChanged = path != filePath_;
  filePath_ = path;
  if (pathChanged) emit filePathChanged(filePath_);
  emit modelReplaced();
  afterChange();
  emit modifiedChanged(false);
}

void Document::newDocument() { replaceAll(kt::Model{}, {}); }

void Document::setModel(const kt::Model& model, const QString& path) { replaceAll(model, path); }

Document::ReadModel Document::read(const QString& givenPath) {
  ReadModel r;
  r.path = absolutePath(givenPath);
  try {
    // A model that reads but fails the model checks opens anyway: its problems are listed and
    // it cannot be run until they are fixed.
    std::vector<kt::Diagnostic> problems;
    if (r.path.startsWith(QLatin1Char(':'))) {  // an embedded example
      QFile file(r.path);
      if (!file.open(QIODevice::ReadOnly)) {
        r.error = r.path + QStringLiteral(": error: cannot open the embedded model");
        return r;
      }
      r.model = kt::loadModelForEditingFromString(file.readAll().toStdString(), r.path.toStdString(), problems);
    } else {
      r.model = kt::loadModelForEditing(QFile::encodeName(r.path).toStdString(), problems);
    }
    r.ok = true;
  } catch (const kt::ModelLoadError& e) {
    r.error = QString::fromStdString(kt::formatDiagnostics(e.diagnostics())).trimmed();
  } catch (const std::exception& e) {
    r.error = r.path + QStringLiteral(": error: ") + QString::fromUtf8(e.what());
  }
  return r;
}

bool Document::open(const QString& path, QString* error) { return open(read(path), error); }

bool Document::open(ReadModel read, QString* error) {
  if (!read.ok) {
    if (error) *error = read.error;
    return false;
  }
  replaceAll(read.model, read.path);
  return true;
}

bool Document::writeModelFile(const kt::Model& model, const QString& path, QString* error, const QString& header) {
  const QByteArray bytes = header.toUtf8() + QByteArray::fromStdString(kt::saveModelToString(model));
  try {
    kt::writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromLocal8Bit(e.what());
    return false;
  }
}

bool Document::save(QString* error) {
  if (filePath_.isEmpty() || filePath_.startsWith(QLatin1Char(':'))) {
    if (error) *error = QStringLiteral("the document has no file yet; use Save As");
    return false;
  }
  return saveAs(filePath_, error);
}

QString Document::generatedMeshRoot() {
  const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
  return data.isEmpty() ? QString() : QDir(data).filePath(QStringLiteral("mjcf-meshes"));
}

namespace {

// A mesh an import wrote: a file under `root` (generatedMeshRoot(), ending in '/').
bool isGenerated(const kt::Shape& shape, const QString& root) {
  if (shape.type != kt::ShapeType::Mesh || root.size() <= 1) return false;
  const QString mesh = QString::fromStdString(shape.mesh);
  return QFileInfo(mesh).isAbsolute() && QDir::cleanPath(mesh).startsWith(root);
}

}  // namespace

bool Document::copyGeneratedMeshes(kt::Model& model, const QString& path, QString* error) {
  const QString root = QDir::cleanPath(generatedMeshRoot()) + QLatin1Char('/');
  const QFileInfo file(path);
  const QString folder = file.completeBaseName() + QStringLiteral("_meshes");
  const QDir beside(file.absolutePath());
  std::map<QString, QString> copies;  // generated file → its copy, relative to the model file
  std::set<QString> names;
  for (kt::BodySpec& body : model.bodies)
    for (kt::Shape& shape : body.shapes) {
      if (!isGenerated(shape, root)) continue;
      const QString source = QDir::cleanPath(QString::fromStdString(shape.mesh));
      auto it = copies.find(source);
      if (it == copies.end()) {
        // the file's own name, numbered where two imports wrote files of one name
        const QFileInfo from(source);
        QString name = from.fileName();
        for (int k = 2; names.count(name) > 0; ++k)
          name = QStringLiteral("%1_%2.%3").arg(from.completeBaseName()).arg(k).arg(from.suffix());
        const QString target = beside.filePath(folder + QLatin1Char('/') + name);
        if (!beside.mkpath(folder) || (QFile::exists(target) && !QFile::remove(target)) ||
            !QFile::copy(source, target)) {
          if (error)
            *error = tr("cannot copy the mesh %1 to %2")
                         .arg(QDir::toNativeSeparators(source), QDir::toNativeSeparators(target));
          return false;
        }
        names.insert(name);
        it = copies.emplace(source, folder + QLatin1Char('/') + name).first;
      }
      shape.mesh = it->second.toStdString();
    }
  return true;
}

bool Document::rebaseFiles(kt::Model& model, const QString& from, const QString& to) {
  bool rebased = false;
  const QDir source(from), target(to);
  const auto rebase = [&](std::string& path) {
    const QString written = QString::fromStdString(path);
    if (written.isEmpty() || QFileInfo(written).isAbsolute() || written.contains(QStringLiteral("://"))) return;
    const QString file = QDir::cleanPath(source.absoluteFilePath(written));
    if (!QFileInfo::exists(file)) return;  // a path that leads nowhere stays as written
    const std::string moved = target.relativeFilePath(file).toStdString();
    rebased = rebased || moved != path;
    path = moved;
  };
  for (kt::BodySpec& body : model.bodies) {
    for (kt::Shape& shape : body.shapes)
      if (shape.type == kt::ShapeType::Mesh) rebase(shape.mesh);
    if (body.joint.motion.type == kt::MotionType::Table) rebase(body.joint.motion.file);
    if (body.joint.drive.type == kt::DriveType::Table) rebase(body.joint.drive.file);
  }
  return rebased;
}

bool Document::saveAs(const QString& givenPath, QString* error) {
  const QString path = absolutePath(givenPath);
  const QString folder = QFileInfo(path).absolutePath();
  // every file the model names stays the file it was: relative paths rebased onto the new folder,
  // meshes an import generated copied beside the file (same files: not an edit, no changed())
  const QString root = QDir::cleanPath(generatedMeshRoot()) + QLatin1Char('/');
  const bool generated = std::any_of(model_.bodies.begin(), model_.bodies.end(), [&root](const kt::BodySpec& b) {
    return std::any_of(b.shapes.begin(), b.shapes.end(), [&root](const kt::Shape& s) { return isGenerated(s, root); });
  });
  const QString from = QString::fromStdString(model_.sourceDirectory);
  kt::Model written;
  bool filesMoved = generated;
  if (!from.isEmpty() && QDir(from) != QDir(folder)) {
    written = model_;
    filesMoved = rebaseFiles(written, from, folder) || generated;
  } else if (generated) {
    written = model_;
  }
  if (generated && !copyGeneratedMeshes(written, path, error)) return false;
  if (!writeModelFile(filesMoved ? written : model_, path, error)) return false;
  if (filesMoved) model_.bodies = std::move(written.bodies);  // the bodies name what the file names
  undo_.setClean();
  autosaver_->discard();
  if (path != filePath_ || filesMoved) {
    filePath_ = path;
    model_.sourceDirectory = folder.toStdString();
    problems_->refresh(model_);
    emit filePathChanged(filePath_);
  }
  emit saved(path);
  return true;
}

QString Document::runBlocker() const {
  const auto& d = problems_->diagnostics();
  if (d.empty()) return {};
  QString why =
      QString::fromStdString(d.front().path.empty() ? d.front().message : d.front().path + ": " + d.front().message);
  if (const std::size_t n = kt::problemCount(d); n > 1) why += tr(" (%1 problems in all)").arg(n);
  return tr("The model cannot run: %1").arg(why);
}

// ---- primitive mutators ----

void Document::afterChange() {
  problems_->refresh(model_);
  emit changed();
}

int Document::indexOfId(quint64 id) const {
  const auto& map = tree_->cache().indexOfId;
  const auto it = map.find(id);
  return it == map.end() ? -1 : it->second;
}

void Document::insertBodies(const std::vector<int>& indices, const std::vector<kt::BodySpec>& specs) {
  // The final list, then one subtree at a time (one inserted row each): after step s the list is
  // the final list restricted to the old bodies and the first s inserted subtrees.
  const std::size_t total = model_.bodies.size() + specs.size();
  std::vector<kt::BodySpec> finalBodies;
  std::vector<quint64> finalIds;
  std::vector<bool> inserted(total, false);
  finalBodies.reserve(total);
  for (std::size_t f = 0, s = 0, old = 0; f < total; ++f) {
    if (s < indices.size() && indices[s] == static_cast<int>(f)) {
      finalBodies.push_back(specs[s++]);
      finalIds.push_back(nextId_++);
      inserted[f] = true;
    } else {
      finalBodies.push_back(model_.bodies[old]);
      finalIds.push_back(ids_[old++]);
    }
  }
  std::unordered_map<std::string, std::size_t> posOf;
  std::unordered_set<std::string> insertedNames;
  for (std::size_t f = 0; f < total; ++f) {
    posOf[finalBodies[f].name] = f;
    if (inserted[f]) insertedNames.insert(finalBodies[f].name);
  }
  // Root of each inserted body within the inserted set.
  std::vector<std::size_t> rootOf(total);
  for (std::size_t f = 0; f < total; ++f) {
    if (!inserted[f]) continue;
    std::size_t r = f;
    for (std::size_t guard = 0; guard <= total && parentInSet(finalBodies[r], insertedNames); ++guard)
      r = posOf[finalBodies[r].parent];
    rootOf[f] = r;
  }
  std::vector<bool> present(total);
  for (std::size_t f = 0; f < total; ++f) present[f] = !inserted[f];
  for (std::size_t root = 0; root < total; ++root) {
    if (!inserted[root] || rootOf[root] != root) continue;
    for (std::size_t f = 0; f < total; ++f)
      if (inserted[f] && rootOf[f] == root) present[f] = true;
    std::vector<kt::BodySpec> bodies;
    std::vector<quint64> ids;
    int row = 0;
    const std::string& parentName = finalBodies[root].parent;
    for (std::size_t f = 0; f < total; ++f) {
      if (!present[f]) continue;
      if (f < root && finalBodies[f].parent == parentName) ++row;
      bodies.push_back(finalBodies[f]);
      ids.push_back(finalIds[f]);
    }
    const QModelIndex parentIndex = tree_->indexOfBody(model_.findBody(parentName));
    tree_->beginInsertRows(parentIndex, row, row);
    model_.bodies = std::move(bodies);
    ids_ = std::move(ids);
    tree_->invalidate();
    tree_->endInsertRows();
  }
  afterChange();
}

std::vector<kt::BodySpec> Document::removeBodies(std::vector<int> indices) {
  std::sort(indices.begin(), indices.end());
  std::vector<kt::BodySpec> removed;
  std::unordered_set<std::string> names;
  std::vector<quint64> roots;
  for (int k : indices) {
    removed.push_back(model_.bodies[k]);
    names.insert(model_.bodies[k].name);
  }
  for (int k : indices)
    if (!parentInSet(model_.bodies[k], names)) roots.push_back(ids_[k]);
  for (quint64 rootId : roots) {
    const int root = indexOfId(rootId);
    const QModelIndex rootIndex = tree_->indexOfBody(root);
    const std::vector<int> sub = kt::subtreeOf(model_, root);
    std::vector<bool> gone(model_.bodies.size(), false);
    for (int k : sub) gone[k] = true;
    tree_->beginRemoveRows(rootIndex.parent(), rootIndex.row(), rootIndex.row());
    std::vector<kt::BodySpec> bodies;
    std::vector<quint64> ids;
    for (std::size_t k = 0; k < gone.size(); ++k) {
      if (gone[k]) continue;
      bodies.push_back(std::move(model_.bodies[k]));
      ids.push_back(ids_[k]);
    }
    model_.bodies = std::move(bodies);
    ids_ = std::move(ids);
    tree_->invalidate();
    tree_->endRemoveRows();
  }
  afterChange();
  return removed;
}

void Document::setParent(int body, const std::string& parent) {
  const QModelIndex from = tree_->indexOfBody(body);
  const int newParent = parent == "world" ? -1 : model_.findBody(parent);
  const QModelIndex to = tree_->indexOfBody(newParent);
  int destRow = 0;
  for (int k = 0; k < body; ++k)
    if (model_.bodies[k].parent == parent) ++destRow;
  const bool moved = tree_->beginMoveRows(from.parent(), from.row(), from.row(), to, destRow);
  if (!moved) tree_->beginResetModel();  // not expected (cycles are refused before)
  model_.bodies[body].parent = parent;
  tree_->invalidate();
  if (moved)
    tree_->endMoveRows();
  else
    tree_->endResetModel();
  afterChange();
}

void Document::renameBody(int body, const std::string& name) {
  const std::string old = model_.bodies[body].name;
  for (kt::BodySpec& b : model_.bodies)
    if (b.parent == old) b.parent = name;
  model_.bodies[body].name = name;
  tree_->invalidate();
  emit tree_->dataChanged(tree_->indexOfBody(body, 0), tree_->indexOfBody(body, BodyTreeModel::ColumnCount - 1));
  emit bodyChanged(body);
  afterChange();
}

void Document::replaceBody(int body, const kt::BodySpec& spec) {
  model_.bodies[body] = spec;
  emit tree_->dataChanged(tree_->indexOfBody(body, 0), tree_->indexOfBody(body, BodyTreeModel::ColumnCount - 1));
  emit bodyChanged(body);
  afterChange();
}

void Document::setHeader(const kt::Model& header) {
  model_.name = header.name;
  model_.description = header.description;
  model_.gravity = header.gravity;
  model_.simulation = header.simulation;
  afterChange();
}

}  // namespace kt::ui
