// SPDX-License-Identifier: BSD-3-Clause
// The problems dock: every problem of the current model (ProblemsModel: the loader's checks and
// messages with their YAML paths), one row each with an error icon, then the model's warnings
// with a warning icon, under a header line that says whether the model can be run ("No
// problems" / "1 warning — the model can be run" / "3 problems — the model cannot be run").
// Clicking or activating a row announces where the problem is, so that the main window can
// select the body in the tree and the field in the property editor.
#pragma once

#include <QDockWidget>
#include <QElapsedTimer>
#include <QPersistentModelIndex>

#include "ui/document/problems_model.hpp"

class QAbstractItemView;
class QLabel;
class QTableView;

namespace kt::ui {

class Document;

class ProblemsDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit ProblemsDock(Document* document, QWidget* parent = nullptr);

  QAbstractItemView* view() const;
  /// The header line ("No problems", "1 warning — the model can be run", "3 problems — the model
  /// cannot be run").
  QString summary() const;

 signals:
  void problemActivated(const kt::ui::FieldLocation& location);

 private:
  void updateSummary(int count);
  void onRowChosen(const QModelIndex& index);

  Document* document_;
  QLabel* icon_;
  QLabel* summary_;
  QTableView* view_;
  // A click followed by the activation of the same row (double click, or styles that activate
  // on a single click) is announced once.
  QPersistentModelIndex lastChosen_;
  QElapsedTimer sinceChosen_;
};

}  // namespace kt::ui
