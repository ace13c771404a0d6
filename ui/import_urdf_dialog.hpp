// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Import URDF…: the robot's file and the folders its package://NAME/... meshes are looked
// for in (as `kinetree-cli import --package-path`; docs/urdf.md). The folders are remembered in
// QSettings under "urdfPackagePaths" and used by every URDF import and open.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QLineEdit;
class QListWidget;
class QPushButton;

namespace kt::ui {

class ImportUrdfDialog : public QDialog {
  Q_OBJECT

 public:
  /// `path`: the file to start with (may be empty); the folder list is the remembered one.
  explicit ImportUrdfDialog(const QString& path, QWidget* parent = nullptr);

  QString path() const;
  QStringList packagePaths() const;
  void setPath(const QString& path);
  void setPackagePaths(const QStringList& paths);

  /// The remembered package folders (QSettings "urdfPackagePaths").
  static QStringList rememberedPackagePaths();

  /// Remembers the folders and closes; refused (with the reason) while the file does not exist.
  void accept() override;

 private:
  void browseFile();
  void addFolder();
  void removeFolders();
  void updateButtons();

  QLineEdit* file_;
  QListWidget* folders_;
  QPushButton* remove_;
  QPushButton* ok_;
};

}  // namespace kt::ui
