// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/imported_model.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QObject>

#include "core/model/model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/shared/number_text.hpp"

namespace kt::ui {

namespace {
QString bodyCount(int bodies) { return countText(bodies, QObject::tr("body"), QObject::tr("bodies")); }
}  // namespace

void adoptImportedModel(Document& doc, const kt::Model& model, const QString& path) {
  kt::Model header = model;
  header.bodies.clear();
  doc.setModel(header);
  doc.push(new AppendBodiesCommand(doc, model.bodies, QObject::tr("Import %1").arg(QFileInfo(path).fileName())));
}

QString importStatus(const QString& path, int bodies, int notes, const QString& about) {
  const QString fileName = QFileInfo(path).fileName();
  if (notes == 0) return QObject::tr("Imported %1: %2").arg(fileName, bodyCount(bodies));
  return QObject::tr("Imported %1: %2; %3 %4")
      .arg(fileName, bodyCount(bodies), countText(notes, QObject::tr("note"), QObject::tr("notes")), about);
}

void showImportNotes(QWidget* parent, const QString& path, int bodies, const QString& informative,
                     const QString& details) {
  auto* box = new QMessageBox(
      QMessageBox::Information, QObject::tr("Imported %1").arg(QFileInfo(path).fileName()),
      QObject::tr("%1 was imported as a new model with %2.").arg(QDir::toNativeSeparators(path), bodyCount(bodies)),
      QMessageBox::Ok, parent);
  box->setObjectName(QStringLiteral("importNotesBox"));
  box->setTextFormat(Qt::PlainText);
  box->setInformativeText(informative);
  if (!details.isEmpty()) box->setDetailedText(details);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace kt::ui
