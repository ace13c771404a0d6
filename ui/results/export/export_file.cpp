// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/export_file.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>
#include <cmath>

namespace kt::ui {

QString askExportFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filters) {
  QSettings settings;
  const QString dir = settings.value(QStringLiteral("lastExportDirectory"), QDir::homePath()).toString();
  const QString path = QFileDialog::getSaveFileName(parent, title, QDir(dir).filePath(suggestedName), filters);
  if (!path.isEmpty()) settings.setValue(QStringLiteral("lastExportDirectory"), QFileInfo(path).absolutePath());
  return path;
}

QString plotsRangeText(std::pair<double, double> range, bool& valid) {
  valid = std::isfinite(range.first) && std::isfinite(range.second) && range.second > range.first;
  return valid ? QObject::tr("The time range the plots show: %1 s to %2 s")
                     .arg(range.first, 0, 'g', 6)
                     .arg(range.second, 0, 'g', 6)
               : QObject::tr("The time range the plots show (open the plots to choose one)");
}

ExportProgress::ExportProgress(QWidget* parent, const QString& label, const QString& objectName)
    : dialog_(label, QObject::tr("Cancel"), 0, 1000, parent) {
  dialog_.setObjectName(objectName);
  dialog_.setWindowModality(Qt::WindowModal);
  dialog_.setMinimumDuration(300);  // small exports finish before it shows
}

bool ExportProgress::operator()(double fraction) {
  dialog_.setValue(static_cast<int>(std::lround(1000.0 * std::clamp(fraction, 0.0, 1.0))));
  return !dialog_.wasCanceled();
}

}  // namespace kt::ui
