// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/import_mjcf.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QStringList>

#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/diagnostic.hpp"
#include "ui/files/imported_model.hpp"

namespace kt::ui {

QString meshFolderName(const QString& path) {
  const QFileInfo file(path);
  const QString where = file.canonicalFilePath().isEmpty() ? file.absoluteFilePath() : file.canonicalFilePath();
  const QByteArray hash = QCryptographicHash::hash(where.toUtf8(), QCryptographicHash::Sha1).toHex().left(8);
  return QStringLiteral("%1-%2").arg(file.completeBaseName(), QString::fromLatin1(hash));
}

bool importMjcf(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error) {
  kt::MjcfImport imported;
  try {
    // meshes by absolute paths: the document has no file yet (saving copies them beside it)
    kt::MjcfImportOptions options;
    if (const QString root = Document::generatedMeshRoot(); !root.isEmpty())
      options.meshDirectory = QFile::encodeName(QDir(root).filePath(meshFolderName(path))).toStdString();
    imported = kt::importMjcfFile(QFile::encodeName(path).toStdString(), options);
  } catch (const kt::ModelLoadError& e) {
    error = QString::fromStdString(kt::formatDiagnostics(e.diagnostics())).trimmed();
    status = QObject::tr("Could not import %1").arg(QDir::toNativeSeparators(path));
    return false;
  }
  adoptImportedModel(doc, imported.model, path);
  const int bodies = static_cast<int>(imported.model.bodies.size());
  const int notes = static_cast<int>(imported.warnings.size());
  status = importStatus(path, bodies, notes, QObject::tr("on what was left out or changed"));
  // MuJoCo's controls are not part of the file: a motor comes in as a constant drive of zero
  const QString passive =
      passiveJointsNote(imported.model, QObject::tr("no actuator, or a motor at zero torque until you set it"));
  if (notes == 0 && passive.isEmpty()) return true;
  QStringList paragraphs;
  if (!passive.isEmpty()) paragraphs << passive;
  if (notes > 0) {
    QStringList lines;
    for (const kt::Diagnostic& d : imported.warnings) lines << QString::fromStdString(d.message);
    paragraphs << QObject::tr(
                      "What Kinetree does not simulate was left out, and what it could not take as written "
                      "was changed (docs/mjcf.md):\n\n• %1")
                      .arg(lines.join(QStringLiteral("\n• ")));
  }
  showImportNotes(parent, path, bodies, paragraphs.join(QStringLiteral("\n\n")));
  return true;
}

}  // namespace kt::ui
