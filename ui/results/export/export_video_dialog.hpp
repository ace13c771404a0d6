// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Video…: the range (whole run or the plots' time range), the size, frame rate and
// playback speed, the plot panes beside the 3D view and the caption; then the file (MP4, or PNG
// for a numbered sequence) and the rendering with a progress bar and Cancel (VideoExport).
#pragma once

#include <QDialog>
#include <utility>

#include "ui/results/export/video_export.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QRadioButton;

namespace kt::ui {

class ExportVideoDialog : public QDialog {
  Q_OBJECT

 public:
  ExportVideoDialog(VideoSource source, std::pair<double, double> visible, QWidget* parent = nullptr);

  VideoExportOptions options() const;
  void accept() override;
  /// Renders to `path` without the file dialog (progress still shows); false with lastError().
  bool exportTo(const QString& path);
  const QString& lastError() const { return error_; }
  /// Where the last export wrote: the MP4, or the name a PNG sequence numbers; empty if none.
  const QString& writtenPath() const { return written_; }

 private:
  void updateSummary();

  VideoSource source_;
  std::pair<double, double> visible_;
  QRadioButton* wholeRun_;
  QRadioButton* visibleRange_;
  QComboBox* size_;
  QDoubleSpinBox* fps_;
  QComboBox* speed_;
  QCheckBox* plots_;
  QCheckBox* caption_;
  QLabel* summary_;
  QPushButton* exportButton_ = nullptr;
  QString error_;
  QString written_;
};

}  // namespace kt::ui
