// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/import_mjcf.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QStandardPaths>
#include <QStringList>

#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/diagnostic.hpp"
#include "ui/files/imported_model.hpp"

namespace kt::ui {

bool isMjcfFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  const QByteArray head = file.read(4096);
  const qsizetype mujoco = head.indexOf("<mujoco"), robot = head.indexOf("<robot");
  return mujoco >= 0 && (robot < 0 || mujoco < robot);
}

bool importMjcf(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error) {
  kt::MjcfImport imported;
  try {
    kt::MjcfImportOptions options;  // meshes by absolute paths: the document has no file yet
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (!data.isEmpty())
      options.meshDirectory =
          QFile::encodeName(QDir(data).filePath(QStringLiteral("mjcf-meshes/") + QFileInfo(path).completeBaseName()))
              .toStdString();
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
  if (notes == 0) return true;
  QStringList lines;
  for (const kt::Diagnostic& d : imported.warnings) lines << QString::fromStdString(d.message);
  showImportNotes(parent, path, bodies,
                  QObject::tr("What Kinetree does not simulate was left out, and what it could not take as written "
                              "was changed (docs/mjcf.md):\n\n• %1")
                      .arg(lines.join(QStringLiteral("\n• "))));
  return true;
}

}  // namespace kt::ui
