// SPDX-License-Identifier: BSD-3-Clause
// What the URDF and MJCF imports share once their reader has run: the robot becomes a new, unsaved
// document in one undo step, the status line says what came in, and a box lists what the user
// should know.
#pragma once

#include <QString>

class QWidget;

namespace kt {
struct Model;
}

namespace kt::ui {

class Document;

/// Makes `model` the document's model, as a new document without a file (saving asks where): its
/// header (name, description, gravity, settings) and bodies come in one undoable step "Import
/// FILE", whose undo leaves the new document File ▸ New gives.
void adoptImportedModel(Document& doc, const kt::Model& model, const QString& path);

/// "Imported FILE: N bodies", or with notes "Imported FILE: N bodies; K notes ABOUT".
QString importStatus(const QString& path, int bodies, int notes, const QString& about);

/// "All N joints are passive (WHY): the robot will fall under gravity. Give joints drives …" when
/// the robot has passive joints (kt::passiveJoints), else empty.
QString passiveJointsNote(const kt::Model& model, const QString& why);

/// Opens an information box on `parent` saying PATH was imported with N bodies, with `informative`
/// below and `details` (when not empty) behind Show Details…; it deletes itself when closed.
void showImportNotes(QWidget* parent, const QString& path, int bodies, const QString& informative,
                     const QString& details = {});

}  // namespace kt::ui
