// SPDX-License-Identifier: BSD-3-Clause
// Simulation ▸ Push a Body… (docs/interaction.md): an exact, repeatable push, which a drag with
// the mouse is not. The body; the point (body coordinates); the force and the moment, along the
// world axes or the body's own; the start (the current time by default) and the duration or
// "until released"; constant or a half-sine pulse. Apply sends it to the run
// (SimulationController::interact: it takes effect at the next step boundary and is kept among
// the run's events); Release ends the last push applied. Not modal: the run goes on meanwhile.
#pragma once

#include <QDialog>
#include <array>

#include "core/sim/interaction.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace kt::ui {

class SimulationController;

class PushDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PushDialog(SimulationController* simulation, QWidget* parent = nullptr);

  /// The push the fields describe (t is set when it is applied).
  kt::InteractionEvent push() const;
  /// Sends push() to the run; false (and the reason in the dialog) when it cannot.
  bool apply();
  /// Ends the last push applied.
  void release();

  QComboBox* bodyBox() const { return body_; }
  std::array<QDoubleSpinBox*, 3> pointFields() const { return point_; }
  std::array<QDoubleSpinBox*, 3> forceFields() const { return force_; }
  std::array<QDoubleSpinBox*, 3> momentFields() const { return moment_; }
  QComboBox* axesBox() const { return axes_; }
  QDoubleSpinBox* startField() const { return start_; }
  QDoubleSpinBox* durationField() const { return duration_; }
  QCheckBox* untilReleasedBox() const { return untilReleased_; }
  QComboBox* shapeBox() const { return shape_; }
  QLabel* statusLabel() const { return status_; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  /// The body list from the session's tree, the start at the current time, the buttons' states.
  void refresh();

  SimulationController* simulation_;
  QComboBox* body_;
  std::array<QDoubleSpinBox*, 3> point_{}, force_{}, moment_{};
  QComboBox* axes_;
  QDoubleSpinBox* start_;
  QDoubleSpinBox* duration_;
  QCheckBox* untilReleased_;
  QComboBox* shape_;
  QLabel* status_;
  QPushButton* applyButton_;
  QPushButton* releaseButton_;
  int lastId_ = -1;  ///< the last push applied, for Release
};

}  // namespace kt::ui
