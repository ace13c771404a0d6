// What the export dialogs (results, video) share: the file to write, asked for in the folder of
// the last export, and the progress of the writing with Cancel.
#pragma once

#include <QProgressDialog>
#include <QString>

class QWidget;

namespace kt::ui {

/// A save-file dialog in the folder of the last export (remembered in the settings), suggesting
/// `suggestedName`; empty when the user cancelled.
QString askExportFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filters);

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
