// SPDX-License-Identifier: BSD-3-Clause
// What the export dialogs (results, video) share: the file to write, asked for in the folder of
// the last export, and the progress of the writing with Cancel.
#pragma once

#include <QProgressDialog>
#include <QString>
#include <utility>

class QWidget;

namespace kt::ui {

/// A save-file dialog in the folder of the last export (remembered in the settings), suggesting
/// `suggestedName`; empty when the user cancelled.
QString askExportFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filters);

/// "The time range the plots show: 0.5 s to 2 s", and whether there is such a range (a dock that
/// is hidden or draws nothing shows none: the range is NaN).
QString plotsRangeText(std::pair<double, double> range, bool& valid);

/// A window-modal progress dialog with Cancel that shows only when the work takes longer than
/// 0.3 s. Call it with the fraction done; it returns false once the user cancelled.
class ExportProgress {
 public:
  ExportProgress(QWidget* parent, const QString& label, const QString& objectName);
  bool operator()(double fraction);

 private:
  QProgressDialog dialog_;
};

}  // namespace kt::ui
