// SPDX-License-Identifier: BSD-3-Clause
// MJCF import into the application (File ▸ Import MJCF…, a dropped or opened MuJoCo file): the model
// as core/io/mjcf/mjcf.hpp reads it, as a new, unsaved document, with a note on what was left out.
#pragma once

#include <QString>

class QWidget;

namespace kt::ui {

class Document;

/// Imports the MJCF file at `path` into `doc` as a new model (one undoable step). Meshes and
/// ellipsoids are written as OBJ files into the application's data folder (meshFolderName), since
/// the document has no folder yet. `status`: a status-bar line; `error`: the diagnostics when false.
bool importMjcf(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error);

/// "MODEL-HASH": the folder, under Document::generatedMeshRoot(), of the meshes of the MJCF file at
/// `path`, one for each file (HASH from its canonical path), so that importing another robot of
/// the same file name (MuJoCo collections name many "scene.xml") leaves the first one's meshes, which
/// the unsaved model of that import names, as they were.
QString meshFolderName(const QString& path);

}  // namespace kt::ui
