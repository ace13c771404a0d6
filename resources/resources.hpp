// SPDX-License-Identifier: BSD-3-Clause
// Names of the resources compiled into the binary.
#pragma once

#include <QString>
#include <QStringList>

namespace kt::resources {

/// The model the application opens when started without a file.
inline const QString kDefaultModel = QStringLiteral(":/examples/space_robot.yaml");
/// The application icon.
inline const QString kIcon = QStringLiteral(":/icons/io.github.kinetree.Kinetree.svg");

/// Resource paths of the embedded examples (":/examples/….yaml"), sorted by file name.
QStringList exampleModels();

/// "space_robot.yaml" → "Space robot".
QString exampleTitle(const QString& path);

}  // namespace kt::resources
