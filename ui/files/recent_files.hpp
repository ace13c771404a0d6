// SPDX-License-Identifier: BSD-3-Clause
// The File ▸ Open Recent list, kept in QSettings (newest first, at most kMaxEntries).
#pragma once

#include <QMenu>
#include <QObject>
#include <QStringList>

namespace kt::ui {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  static constexpr int kMaxEntries = 10;

  /// Fills `menu` now and whenever the list changes.
  explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

  QStringList files() const;
  /// Moves `path` to the top (embedded models are not remembered).
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 signals:
  void openRequested(const QString& path);

 private:
  void store(const QStringList& files);
  void rebuildMenu();

  QMenu* menu_;
};

}  // namespace kt::ui
