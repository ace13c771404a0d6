// SPDX-License-Identifier: BSD-3-Clause
// The plots dock's Export…: the chosen pane or all panes stacked into one figure, at a size and
// (for PNG) a pixel ratio, with an optional caption line (model, solver, integrator, step); the
// format follows the file name (PNG, SVG, PDF). The default file name is the pane's title, made
// safe for file systems.
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QRadioButton;
class QSpinBox;

namespace kt::ui {

class PlotsDock;
class SimulationController;

class ExportPlotsDialog : public QDialog {
  Q_OBJECT

 public:
  ExportPlotsDialog(PlotsDock& plots, const SimulationController& simulation, QWidget* parent = nullptr);

  void accept() override;
  /// Writes to `path` without the file dialog; false with the reason in lastError().
  bool exportTo(const QString& path);
  const QString& lastError() const { return error_; }

 private:
  PlotsDock& plots_;
  const SimulationController& simulation_;
  QRadioButton* onePane_;
  QRadioButton* allPanes_;
  QSpinBox* width_;
  QSpinBox* height_;
  QComboBox* scale_;
  QCheckBox* caption_;
  QString error_;
};

}  // namespace kt::ui
