// SPDX-License-Identifier: BSD-3-Clause
// The plots dock's Export…: the chosen pane or all panes stacked into one figure, at a size and
// (for PNG) a pixel ratio, with an optional caption line (model, solver, integrator, step); the
// format follows the file name (PNG, SVG, PDF). The default file name is the pane's title, made
// safe for file systems.
#pragma once

#include "ui/results/export/export_dialog.hpp"

class QCheckBox;
class QComboBox;
class QRadioButton;
class QSpinBox;

namespace kt::ui {

class PlotsDock;

class ExportPlotsDialog : public ExportDialog {
  Q_OBJECT

 public:
  ExportPlotsDialog(PlotsDock& plots, const SimulationController& simulation, QWidget* parent = nullptr);

  bool exportTo(const QString& path) override;

 private:
  FileQuestion fileQuestion() const override;

  PlotsDock& plots_;
  const SimulationController& simulation_;
  QRadioButton* onePane_;
  QRadioButton* allPanes_;
  QSpinBox* width_;
  QSpinBox* height_;
  QComboBox* scale_;
  QCheckBox* caption_;
};

}  // namespace kt::ui
