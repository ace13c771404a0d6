// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/imported_model.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QObject>
#include <QTextEdit>
#include <algorithm>

#include "core/model/model.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/shared/number_text.hpp"

namespace kt::ui {

namespace {
QString bodyCount(int bodies) { return countText(bodies, QObject::tr("body"), QObject::tr("bodies")); }
}  // namespace

void adoptImportedModel(Document& doc, const kt::Model& model, const QString& path) {
  // A new document, then the robot's name, gravity and settings and its bodies in one step: undo
  // gives back the new document as File ▸ New makes it, not an empty model named after the robot.
  kt::Model blank;
  blank.sourceDirectory = model.sourceDirectory;  // where the robot's mesh paths lead
  doc.setModel(blank);
  kt::Model header = model;
  header.bodies.clear();
  QUndoStack& stack = *doc.undoStack();
  stack.beginMacro(QObject::tr("Import %1").arg(QFileInfo(path).fileName()));
  if (header != blank) doc.push(new ModelFieldCommand(doc, Field::ModelName, header, QString()));
  doc.push(new AppendBodiesCommand(doc, model.bodies, QString()));
  stack.endMacro();
}

QString importStatus(const QString& path, int bodies, int notes, const QString& about) {
  const QString fileName = QFileInfo(path).fileName();
  if (notes == 0) return QObject::tr("Imported %1: %2").arg(fileName, bodyCount(bodies));
  return QObject::tr("Imported %1: %2; %3 %4")
      .arg(fileName, bodyCount(bodies), countText(notes, QObject::tr("note"), QObject::tr("notes")), about);
}

QString passiveJointsNote(const kt::Model& model, const QString& why) {
  const kt::PassiveJoints count = kt::passiveJoints(model);
  if (count.passive == 0) return {};
  const QString which = count.passive < count.moving
                            ? QObject::tr("%1 of %2 joints").arg(count.passive).arg(count.moving)
                        : count.moving == 1 ? QObject::tr("The one joint")
                                            : QObject::tr("All %1 joints").arg(count.moving);
  return QObject::tr(
             "%1 %2 passive (%3): the robot will fall under gravity. Give joints drives in the Properties dock ▸ "
             "Drive (docs/model-format.md, “Drives”), or a trajectory to follow with File ▸ Import Motion… "
             "(docs/motion.md).")
      .arg(which, count.passive == 1 ? QObject::tr("is") : QObject::tr("are"), why);
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
  if (!details.isEmpty()) {
    box->setDetailedText(details);
    // the details are a list of file:line:col warnings: room for a dozen lines of them, not three
    if (auto* text = box->findChild<QTextEdit*>()) {
      const QFontMetrics fm(text->font());
      text->setMinimumSize(std::min(100 * fm.averageCharWidth(), 900), 12 * fm.lineSpacing());
    }
  }
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace kt::ui
