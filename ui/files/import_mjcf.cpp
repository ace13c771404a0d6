// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/import_mjcf.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QObject>
#include <QStandardPaths>

#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/tree.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/shared/number_text.hpp"

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
  const QString fileName = QFileInfo(path).fileName();
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
  kt::Model header = imported.model;
  header.bodies.clear();
  doc.setModel(header);  // a new document without a file: saving asks where
  doc.push(new AppendBodiesCommand(doc, imported.model.bodies, QObject::tr("Import %1").arg(fileName)));
  const int bodies = static_cast<int>(imported.model.bodies.size());
  const int notes = static_cast<int>(imported.warnings.size());
  const QString bodyCount = countText(bodies, QObject::tr("body"), QObject::tr("bodies"));
  status = notes == 0 ? QObject::tr("Imported %1: %2").arg(fileName, bodyCount)
                      : QObject::tr("Imported %1: %2; %3")
                            .arg(fileName, bodyCount,
                                 countText(notes, QObject::tr("note"), QObject::tr("notes")) +
                                     QObject::tr(" on what was left out"));
  if (notes == 0) return true;
  auto* box = new QMessageBox(
      QMessageBox::Information, QObject::tr("Imported %1").arg(fileName),
      QObject::tr("%1 was imported as a new model with %2.").arg(QDir::toNativeSeparators(path), bodyCount),
      QMessageBox::Ok, parent);
  box->setObjectName(QStringLiteral("importNotesBox"));
  box->setTextFormat(Qt::PlainText);
  QStringList lines;
  for (const kt::Diagnostic& d : imported.warnings) lines << QString::fromStdString(d.message);
  box->setInformativeText(QObject::tr("What Kinetree does not simulate was left out (docs/mjcf.md):\n\n• %1")
                              .arg(lines.join(QStringLiteral("\n• "))));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  return true;
}

}  // namespace kt::ui
