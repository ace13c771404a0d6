// SPDX-License-Identifier: BSD-3-Clause
// Edit ▸ Mirror Subtree…: mirrors a body and everything below it across a plane of its parent
// frame (core/model/editing/edit_ops.hpp mirrorSubtree), as a copy beside the original (to build the
// second arm from the first) or in place. "Mount only" moves an identical arm onto the mirrored
// mount; otherwise the result is the true mirror image. Copies are renamed by (from → to)
// replacements, or get a suffix. A preview line says what OK does or, in red, why it is refused.
#pragma once

#include <QDialog>
#include <QUndoCommand>
#include <memory>

#include "core/model/editing/edit_ops.hpp"

class QButtonGroup;
class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTableWidget;
class QDialogButtonBox;

namespace kt::ui {

class Document;

class MirrorDialog : public QDialog {
  Q_OBJECT

 public:
  /// `body`: index into model().bodies of the subtree's root.
  MirrorDialog(Document* document, int body, QWidget* parent = nullptr);
  ~MirrorDialog() override;

  kt::MirrorOptions options() const;
  /// edit::mirrorSubtree for options(), or nullptr with the reason in `error`.
  QUndoCommand* makeCommand(QString* error = nullptr);
  /// After exec() == Accepted: the command to push (ownership to the caller), else nullptr.
  QUndoCommand* takeCommand();

  /// Appends a name replacement row (from → to).
  void addRename(const QString& from, const QString& to);

  /// Closes only when makeCommand() succeeds; otherwise shows the reason in the dialog.
  void accept() override;

 private:
  /// Why the name fields are refused (the core edit would silently sanitize them), or empty.
  QString nameProblem() const;
  void updateEnabled();
  void updatePreview();

  Document* document_;
  int body_;
  std::unique_ptr<QUndoCommand> command_;

  QButtonGroup* plane_;
  QRadioButton* copy_;
  QRadioButton* inPlace_;
  QRadioButton* mirrorImage_;
  QRadioButton* mountOnly_;
  QGroupBox* names_;
  QTableWidget* renames_;
  QPushButton* addRow_;
  QPushButton* removeRow_;
  QLineEdit* suffix_;
  QLabel* preview_;
  QDialogButtonBox* buttons_;
};

}  // namespace kt::ui
