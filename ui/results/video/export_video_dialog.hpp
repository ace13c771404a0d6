// SPDX-License-Identifier: BSD-3-Clause
// File ▸ Export Video…: the range (whole run or the plots' time range), the size, frame rate and
// playback speed, the plot panes beside the 3D view and the caption; then the file (MP4, or PNG
// for a numbered sequence) and the rendering with a progress bar and Cancel (VideoExport).
#pragma once

#include <utility>

#include "ui/results/export/export_dialog.hpp"
#include "ui/results/video/video_export.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QRadioButton;

namespace kt::ui {

class ExportVideoDialog : public ExportDialog {
  Q_OBJECT

 public:
  ExportVideoDialog(VideoSource source, std::pair<double, double> visible, QWidget* parent = nullptr);

  VideoExportOptions options() const;
  /// Renders with a progress bar and Cancel; writtenPath() is the MP4, or the name a PNG
  /// sequence numbers, and empty after a failed export.
  bool exportTo(const QString& path) override;

 private:
  FileQuestion fileQuestion() const override;
  void updateSummary();

  VideoSource source_;
  std::pair<double, double> visible_;
  QRadioButton* wholeRun_ = nullptr;
  QRadioButton* visibleRange_ = nullptr;
  QComboBox* size_;
  QDoubleSpinBox* fps_;
  QComboBox* speed_;
  QCheckBox* plots_;
  QCheckBox* caption_;
  QLabel* summary_;
};

}  // namespace kt::ui
