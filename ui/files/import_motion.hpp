// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Import Motion… (docs/motion.md): a CSV of joint histories (a controller log, a planner's
// trajectory, a run's own export) assigned to the joints it names. The dialog reads the file as
// soon as it is chosen and lists what it gives: the joints that will follow it, the q: columns
// that name no joint of the model or do not fit one, the samples' span, and what else changes
// (the drives the motions replace, a duration longer than the samples). Import applies it as one
// undo step; the model stores the file relative to its own file when it has one.
#pragma once

#include <QDialog>
#include <QString>
#include <memory>

#include "core/io/motion_table.hpp"
#include "core/sim/prescribed_motion.hpp"

class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace kt::ui {

class Document;

class ImportMotionDialog : public QDialog {
  Q_OBJECT

 public:
  /// `path`: the file to start with (may be empty).
  ImportMotionDialog(Document& doc, const QString& path, QWidget* parent = nullptr);
  ~ImportMotionDialog() override;

  void setPath(const QString& path);
  void setCutoff(double hz);
  /// What the dialog reports for the file as it stands (the text of its report box).
  QString report() const;
  /// Applies the motion to the document as one undo step and closes; refused (the reason in a
  /// box) while no joint would follow it.
  void accept() override;
  /// The status-bar line of the last import ("a1 … a7 follow arm7_pick_place.csv").
  const QString& summary() const { return summary_; }

 private:
  void browse();
  void reread();
  /// The file as the model will store it: relative to the model's folder when it has a file.
  QString storedPath() const;

  Document& doc_;
  QLineEdit* file_;
  QDoubleSpinBox* cutoff_;
  QPlainTextEdit* report_;
  QPushButton* ok_;
  std::unique_ptr<kt::MotionTable> table_;
  kt::MotionTableMatch match_;
  kt::Model matched_;  ///< the document's model with the motion applied (what Import makes it)
  QString summary_;
};

}  // namespace kt::ui
