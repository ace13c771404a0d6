// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/video/export_video_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/results/export/export_file.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportVideoDialog::ExportVideoDialog(VideoSource source, std::pair<double, double> visible, QWidget* parent)
    : ExportDialog(QStringLiteral("exportVideoDialog"), tr("Export Video"), parent),
      source_(std::move(source)),
      visible_(visible),
      size_(new QComboBox),
      fps_(new QDoubleSpinBox),
      speed_(new QComboBox),
      plots_(new QCheckBox(tr("The plot panes beside the 3D view"))),
      caption_(new QCheckBox(tr("A caption with the run and the time"))),
      summary_(new QLabel) {
  for (const QSize s : {QSize(1280, 720), QSize(1920, 1080), QSize(854, 480), QSize(3840, 2160)})
    size_->addItem(QStringLiteral("%1 × %2").arg(s.width()).arg(s.height()), s);
  size_->setObjectName(QStringLiteral("videoSize"));
  fps_->setRange(1.0, 120.0);
  fps_->setDecimals(0);
  fps_->setValue(30.0);
  fps_->setSuffix(tr(" frames/s"));
  fps_->setObjectName(QStringLiteral("videoFps"));
  for (double f : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) speed_->addItem(tr("×%1 of real time").arg(f), f);
  speed_->setCurrentIndex(3);
  speed_->setObjectName(QStringLiteral("videoSpeed"));
  plots_->setEnabled(!source_.panes.empty());
  caption_->setChecked(true);
  summary_->setObjectName(QStringLiteral("videoSummary"));
  summary_->setWordWrap(true);

  auto* range = new QGroupBox(tr("Time"));
  const RangeButtons buttons = addRangeButtons(new QVBoxLayout(range), visible_);
  wholeRun_ = buttons.wholeRun;
  visibleRange_ = buttons.plotsRange;
  auto* form = new QFormLayout;
  form->addRow(tr("Size:"), size_);
  form->addRow(tr("Frame rate:"), fps_);
  form->addRow(tr("Playback speed:"), speed_);
  QVBoxLayout* layout = layoutWithIntro(tr("The recorded run rendered frame by frame as an MP4 video (H.264), or "
                                           "as numbered PNG images when the file name ends in .png.") +
                                        QLatin1Char('\n') + runLine(*source_.simulation));
  layout->addWidget(range);
  layout->addLayout(form);
  layout->addWidget(plots_);
  layout->addWidget(caption_);
  layout->addWidget(summary_);
  layout->addWidget(exportButtons());

  connect(wholeRun_, &QRadioButton::toggled, this, &ExportVideoDialog::updateSummary);
  connect(size_, &QComboBox::currentIndexChanged, this, &ExportVideoDialog::updateSummary);
  connect(fps_, &QDoubleSpinBox::valueChanged, this, &ExportVideoDialog::updateSummary);
  connect(speed_, &QComboBox::currentIndexChanged, this, &ExportVideoDialog::updateSummary);
  updateSummary();
}

VideoExportOptions ExportVideoDialog::options() const {
  VideoExportOptions o;
  const QSize s = size_->currentData().toSize();
  o.width = s.width();
  o.height = s.height();
  o.fps = fps_->value();
  o.speed = speed_->currentData().toDouble();
  if (visibleRange_->isChecked()) {
    o.t0 = visible_.first;
    o.t1 = visible_.second;
  }
  o.plots = plots_->isChecked();
  o.caption = caption_->isChecked();
  return o;
}

void ExportVideoDialog::updateSummary() {
  const VideoExportOptions o = options();
  const int frames = VideoExport::frameCount(*source_.simulation, o);
  summary_->setText(frames == 0 ? tr("Nothing to render: no recorded samples in this range")
                                : countText(frames, tr("frame"), tr("frames")) + QStringLiteral(", ") +
                                      tr("%1 s of video").arg(static_cast<double>(frames) / o.fps, 0, 'f', 1));
  exportButton_->setEnabled(frames > 0);
}

ExportDialog::FileQuestion ExportVideoDialog::fileQuestion() const {
  return {tr("Export Video"), runFileName(*source_.simulation) + QStringLiteral(".mp4"),
          tr("MP4 video (*.mp4);;PNG sequence (*.png)")};
}

bool ExportVideoDialog::exportTo(const QString& path) {
  error_.clear();
  ExportProgress progress(this, tr("Rendering %1…").arg(QFileInfo(path).fileName()), QStringLiteral("videoProgress"));
  bool cancelled = false;
  const bool ok = VideoExport::write(
      source_, options(), path, &error_,
      [&progress](int frame, int frames) { return progress(static_cast<double>(frame) / std::max(frames, 1)); },
      &cancelled);
  if (cancelled) error_.clear();
  written_ = ok ? path : QString();
  return ok;
}

}  // namespace kt::ui
