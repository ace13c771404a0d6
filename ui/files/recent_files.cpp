// SPDX-License-Identifier: BSD-3-Clause
#include "ui/files/recent_files.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace kt::ui {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { rebuildMenu(); }

QStringList RecentFiles::files() const { return QSettings().value(kKey).toStringList(); }

void RecentFiles::add(const QString& path) {
  if (path.startsWith(QLatin1Char(':'))) return;
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = files();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxEntries) list.removeLast();
  store(list);
}

void RecentFiles::remove(const QString& path) {
  QStringList list = files();
  list.removeAll(QFileInfo(path).absoluteFilePath());
  store(list);
}

void RecentFiles::clear() { store({}); }

void RecentFiles::store(const QStringList& list) {
  QSettings().setValue(kKey, list);
  rebuildMenu();
}

void RecentFiles::rebuildMenu() {
  menu_->clear();
  const QStringList list = files();
  for (int i = 0; i < list.size(); ++i) {
    const QString& path = list[i];
    const QString label = QStringLiteral("&%1 %2").arg(i + 1).arg(QDir::toNativeSeparators(path));
    QAction* action = menu_->addAction(label);
    connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
  }
  if (!list.isEmpty()) menu_->addSeparator();
  QAction* clearAction = menu_->addAction(tr("&Clear Menu"));
  clearAction->setEnabled(!list.isEmpty());
  connect(clearAction, &QAction::triggered, this, &RecentFiles::clear);
}

}  // namespace kt::ui
