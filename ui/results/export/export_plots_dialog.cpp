// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/export_plots_dialog.hpp"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "render/charts/chart_figure.hpp"
#include "ui/results/export/export_file.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

ExportPlotsDialog::ExportPlotsDialog(PlotsDock& plots, const SimulationController& simulation, QWidget* parent)
    : ExportDialog(QStringLiteral("exportPlotsDialog"), tr("Export Plot"), parent),
      plots_(plots),
      simulation_(simulation),
      onePane_(new QRadioButton(tr("This pane: %1").arg(plots.paneTitle(plots.currentPane())))),
      allPanes_(new QRadioButton(tr("All %1 panes, stacked in one figure").arg(PlotsDock::kPaneCount))),
      width_(new QSpinBox),
      height_(new QSpinBox),
      scale_(new QComboBox),
      caption_(new QCheckBox(tr("A caption line: model, solver, integrator, step"))) {
  onePane_->setChecked(true);
  auto* group = new QButtonGroup(this);
  group->addButton(onePane_);
  group->addButton(allPanes_);
  for (QSpinBox* box : {width_, height_}) {
    box->setRange(200, 10000);
    box->setSuffix(tr(" px"));
  }
  width_->setValue(1600);
  height_->setValue(900);
  connect(allPanes_, &QRadioButton::toggled, this, [this](bool all) { height_->setValue(all ? 1800 : 900); });
  scale_->addItem(tr("1× (the size as given)"), 1.0);
  scale_->addItem(tr("2× (sharp on high-resolution screens and in print)"), 2.0);
  scale_->addItem(tr("3×"), 3.0);
  scale_->setCurrentIndex(1);
  caption_->setChecked(!simulation.runLabel().isEmpty());
  caption_->setEnabled(!simulation.runLabel().isEmpty());

  auto* form = new QFormLayout;
  auto* size = new QHBoxLayout;
  size->addWidget(width_);
  size->addWidget(new QLabel(QStringLiteral("×")));
  size->addWidget(height_);
  form->addRow(tr("Size:"), size);
  form->addRow(tr("PNG resolution:"), scale_);
  QVBoxLayout* layout =
      layoutWithIntro(tr("A vector drawing of what the panes show: PNG, SVG or PDF, by the file "
                         "name. SVG and PDF are scalable; the size sets their proportions and "
                         "text size."));
  layout->addWidget(onePane_);
  layout->addWidget(allPanes_);
  layout->addLayout(form);
  layout->addWidget(caption_);
  layout->addWidget(exportButtons());
}

ExportDialog::FileQuestion ExportPlotsDialog::fileQuestion() const {
  // named after the run, as the CSV and the report are ("space_robot-plots.png")
  const QString title = allPanes_->isChecked() ? runFileName(simulation_) + QStringLiteral("-plots")
                                               : plots_.paneTitle(plots_.currentPane());
  return {tr("Export Plot"), render::safeFileName(title) + QStringLiteral(".png"),
          tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)")};
}

bool ExportPlotsDialog::exportTo(const QString& path) {
  std::vector<int> panes;
  if (allPanes_->isChecked()) {
    for (int p = 0; p < PlotsDock::kPaneCount; ++p) panes.push_back(p);
  } else {
    panes.push_back(plots_.currentPane());
  }
  const QString caption = caption_->isChecked() ? simulation_.runLabel() : QString();
  error_.clear();
  const bool ok = plots_.exportPanes(panes, path, QSizeF(width_->value(), height_->value()),
                                     scale_->currentData().toDouble(), caption, &error_);
  if (ok) written_ = path;
  return ok;
}

}  // namespace kt::ui
