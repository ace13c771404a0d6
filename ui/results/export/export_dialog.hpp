// SPDX-License-Identifier: BSD-3-Clause
// What the export dialogs (results, plots, video) share: the introduction, the Export… and
// Cancel buttons, the choice between the whole run and the time range the plots show, and
// accepting: ask for the file, write it, close when it was written or say why it was not.
#pragma once

#include <QDialog>
#include <QString>
#include <utility>

class QDialogButtonBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QVBoxLayout;

namespace kt::ui {

class SimulationController;

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  /// Asks for the file (in the folder of the last export) and writes it: closes the dialog when
  /// it was written, warns with the reason when it failed (a cancelled export says nothing).
  void accept() override;
  /// Writes to `path` without the file dialog (a progress dialog may still show); false with the
  /// reason in lastError(), which is empty when the user cancelled.
  virtual bool exportTo(const QString& path) = 0;
  const QString& lastError() const { return error_; }
  /// Where the last successful export wrote (empty before one): the window's status message
  /// says where the results went.
  const QString& writtenPath() const { return written_; }

 protected:
  /// What the file dialog of accept() asks: its title (also the warning's), the suggested name
  /// and the file-type filters.
  struct FileQuestion {
    QString title, suggestedName, filters;
  };

  ExportDialog(const QString& objectName, const QString& title, QWidget* parent);
  virtual FileQuestion fileQuestion() const = 0;

  /// The dialog's layout with a word-wrapped introduction first.
  QVBoxLayout* layoutWithIntro(const QString& intro);
  /// The introduction's "…\nRun: <label> — <state>" line.
  static QString runLine(const SimulationController& simulation);
  /// The model's name, or "run" for a model without one: the suggested file's base name.
  static QString runFileName(const SimulationController& simulation);
  /// Cancel and a default Export… button (exportButton_) that accepts.
  QDialogButtonBox* exportButtons();

  /// "The whole run" (chosen) and "The time range the plots show" (disabled when the plots show
  /// none), exclusive, added to `layout`.
  struct RangeButtons {
    QRadioButton* wholeRun;
    QRadioButton* plotsRange;
  };
  RangeButtons addRangeButtons(QVBoxLayout* layout, std::pair<double, double> plotsRange);

  QPushButton* exportButton_ = nullptr;
  QString error_;
  QString written_;
};

}  // namespace kt::ui
