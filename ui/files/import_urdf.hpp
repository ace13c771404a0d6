// SPDX-License-Identifier: BSD-3-Clause
// A URDF robot into the application (docs/urdf.md): File ▸ Import URDF…, the dialog with the
// robot's file and the folders its package://NAME/... meshes are looked for in (as
// `kinetree-cli import --package-path`), and the import itself, which every way of opening a URDF
// (the dialog, File ▸ Open, drag and drop, the command line) goes through. The folders, the
// density for links without <inertial>, whether inertias that are not physical are refused
// rather than repaired, whether the root link floats and whether links on fixed joints are merged
// (kinetree-cli import --density, --strict, --floating, --merge-fixed) are remembered in QSettings
// ("urdfPackagePaths", "urdfDensity", "urdfStrictInertias", "urdfFloatingBase",
// "urdfMergeFixed") and used by every import.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace kt::ui {

class Document;

/// Reads the URDF at `path` (package:// meshes looked for in the remembered folders) into `doc`
/// as a new document without a file: the robot's bodies are one undoable step, so closing asks to
/// save them. `status` gets the line for the status bar. When there is something to tell (the
/// joints come in passive, parts of the file were left out or changed) a box on `parent` says so
/// without blocking. On failure `doc` is untouched and `error` holds every diagnostic
/// (file:line:col). Does not ask about unsaved changes.
bool importUrdf(Document& doc, const QString& path, QWidget* parent, QString& status, QString& error);

class ImportUrdfDialog : public QDialog {
  Q_OBJECT

 public:
  /// `path`: the file to start with (may be empty); the folder list is the remembered one.
  explicit ImportUrdfDialog(const QString& path, QWidget* parent = nullptr);

  QString path() const;
  QStringList packagePaths() const;
  void setPath(const QString& path);
  void setPackagePaths(const QStringList& paths);

  /// kg/m³ for links without <inertial>, 0 for none.
  double density() const;
  /// Refuse inertias that are not physical instead of repairing them.
  bool strict() const;
  /// The root link's joint is free (kinetree-cli import --floating).
  bool floatingBase() const;
  /// Every link on a fixed joint goes into its parent (kinetree-cli import --merge-fixed).
  bool mergeFixed() const;

  /// The remembered package folders (QSettings "urdfPackagePaths").
  static QStringList rememberedPackagePaths();
  /// The remembered density (0: none) and strictness.
  static double rememberedDensity();
  static bool rememberedStrict();
  static bool rememberedFloatingBase();
  static bool rememberedMergeFixed();

  /// Remembers the folders and closes; refused (with the reason) while the file does not exist.
  void accept() override;

 private:
  void browseFile();
  void addFolder();
  void removeFolders();
  void updateButtons();

  QLineEdit* file_;
  QListWidget* folders_;
  QCheckBox* useDensity_;
  QDoubleSpinBox* density_;
  QCheckBox* strict_;
  QCheckBox* floating_;
  QCheckBox* mergeFixed_;
  QPushButton* remove_;
  QPushButton* ok_;
};

}  // namespace kt::ui
