// SPDX-License-Identifier: BSD-3-Clause
// The Pose section of View ▸ Drives (docs/interaction.md): while the run is paused, one slider
// and one number per joint coordinate set where the model is. Each change is a Pose event of the
// run (SimulationController::interact): the joint's positions jump there, the velocities stay, and
// the run goes on from the posed state when it is resumed (recorded, replayed by `simulate
// --events`). A revolute, prismatic, cylindrical, universal or planar joint gets one control per
// position coordinate (rad or m); a spherical joint three angles, roll, pitch and yaw about the
// joint frame's x, y, z (R = R_z(yaw) R_y(pitch) R_x(roll)); a free joint its position x, y, z
// in the joint frame and the same three angles. Joints that follow a prescribed motion are left
// out: the motion gives their position.
// "Use as Initial State" writes the shown positions into the model's q0 as one undo step (the
// velocities stay the model's v0); the session then starts over from the edited model.
#pragma once

#include <QWidget>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;

namespace kt::ui {

class Document;
class SimulationController;

class PosePanel : public QWidget {
  Q_OBJECT

 public:
  PosePanel(SimulationController* simulation, Document& document, QWidget* parent = nullptr);

  /// One position quantity of a joint.
  struct Control {
    enum class What { Coordinate, Translation, Angle } what = What::Coordinate;
    int joint = -1;  ///< tree index
    int index = 0;   ///< the coordinate (Coordinate), the axis x, y, z (Translation), roll, pitch, yaw (Angle)
    QSlider* slider = nullptr;
    QDoubleSpinBox* number = nullptr;
  };
  const std::vector<Control>& controls() const { return controls_; }
  /// Sets a control's value as the user would: the run gets the joint's new position.
  void setValue(int joint, Control::What what, int index, double value);
  /// Writes the shown positions into the model's q0 (one undo step); false when nothing changed
  /// or the panel cannot (no paused session of the document's model).
  bool useAsInitialState();
  /// Posing is possible now (a paused or ended, live session of the document's model).
  bool canPose() const;

 signals:
  void statusMessage(const QString& text, int timeoutMs);

 private:
  void rebuild();
  void clear();
  void updateEnabled();
  /// The controls' values from the shown sample, except those being edited.
  void showPositions();
  /// The joint's position as shown, with the quantity of control (what, index) at its value, to
  /// the run.
  void send(int joint, Control::What what, int index);

  SimulationController* simulation_;
  Document& document_;
  QWidget* rows_;
  QLabel* note_;
  QPushButton* useButton_;
  std::vector<Control> controls_;
  bool updating_ = false;
};

}  // namespace kt::ui
