// SPDX-License-Identifier: BSD-3-Clause
#include "resources/resources.hpp"

#include <QDir>
#include <QFileInfo>

namespace kt::resources {

QStringList exampleModels() {
  const QDir dir(QStringLiteral(":/examples"));
  QStringList paths;
  for (const QString& name : dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
    paths << dir.filePath(name);
  }
  return paths;
}

QString exampleTitle(const QString& path) {
  QString title = QFileInfo(path).completeBaseName().replace(QLatin1Char('_'), QLatin1Char(' '));
  if (!title.isEmpty()) title[0] = title[0].toUpper();
  return title;
}

}  // namespace kt::resources
