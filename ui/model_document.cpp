#include "ui/model_document.hpp"

#include <QFile>
#include <QFileInfo>
#include <exception>

#include "core/io/model_yaml.hpp"

namespace kt::ui {

ModelDocument::ModelDocument(QObject* parent) : QObject(parent) {}

bool ModelDocument::load(const QString& path, QString& error) {
  error.clear();
  kt::Model model;
  try {
    if (path.startsWith(QLatin1Char(':'))) {
      QFile file(path);
      if (!file.open(QIODevice::ReadOnly)) {
        error = path + QStringLiteral(": error: cannot open the embedded model");
        return false;
      }
      model = kt::loadModelFromString(file.readAll().toStdString(), path.toStdString());
    } else {
      model = kt::loadModelFromFile(QFile::encodeName(path).toStdString());
    }
  } catch (const kt::ModelLoadError& e) {
    error = QString::fromStdString(kt::formatDiagnostics(e.diagnostics())).trimmed();
    return false;
  } catch (const std::exception& e) {
    error = path + QStringLiteral(": error: ") + QString::fromStdString(e.what());
    return false;
  }

  kt::Tree tree;
  std::vector<kt::Diagnostic> problems;
  if (!kt::finalize(model, tree, problems)) {
    for (kt::Diagnostic& d : problems) {
      if (d.file.empty()) d.file = path.toStdString();
    }
    error = QString::fromStdString(kt::formatDiagnostics(problems)).trimmed();
    return false;
  }
  model_ = std::move(model);
  tree_ = std::move(tree);
  filePath_ = path;
  emit modelReplaced();
  return true;
}

QString ModelDocument::directory() const {
  if (filePath_.isEmpty() || isEmbedded()) return {};
  return QFileInfo(filePath_).absolutePath();
}

QString ModelDocument::displayName() const {
  if (!model_.name.empty() && model_.name != "untitled") return QString::fromStdString(model_.name);
  return QFileInfo(filePath_).fileName();
}

}  // namespace kt::ui
