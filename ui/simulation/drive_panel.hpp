// SPDX-License-Identifier: BSD-3-Clause
// View ▸ Drives: the live drive panel (docs/interaction.md). One group per driven joint of the
// run, with what its drive type lets a user turn while the run goes on, a slider and a number
// each:
//   PD drives (pd_sinusoid, pd_piecewise): the setpoint of each coordinate: the joint is held
//     there (its reference stops moving), and the gains kp and kd;
//   constant drives: the force of each coordinate; sinusoid drives: their offset;
//   spring-damper drives: the rest position of each coordinate and the stiffness.
// An on/off switch per joint removes its drive and gives it back; double-clicking the joint's
// name (or Model's Drive) returns to the model file's drive. Table drives are listed, not
// editable (nothing is read during a run).
// Every change is a Drive event of the run (SimulationController::interact): it takes effect at
// the next step boundary, is recorded, and replays with `simulate --events`. The panel never edits
// the model; Reset or a new run starts from the model's drives again. On a run that has ended the
// controls are off and the note says so, as a push is refused there (core/sim/run_loop.hpp takes no
// more steps).
// Its second tab, Pose (PosePanel), sets the joints' positions while paused.
#pragma once

#include <QDockWidget>
#include <vector>

#include "core/model/model.hpp"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QTabWidget;
class QVBoxLayout;

namespace kt::ui {

class Document;
class PosePanel;
class SimulationController;

class DrivePanelDock : public QDockWidget {
  Q_OBJECT

 public:
  DrivePanelDock(SimulationController* simulation, Document& document, QWidget* parent = nullptr);

  /// One edited quantity of a joint's drive: its slider and its number.
  struct Control {
    enum class What { Setpoint, Force, Offset, Rest, Kp, Kd, Stiffness } what;
    int coordinate = 0;  ///< for the per-coordinate quantities
    QSlider* slider = nullptr;
    QDoubleSpinBox* number = nullptr;
  };
  struct JointRow {
    int joint = -1;     ///< tree index
    kt::Drive model;    ///< the model file's drive (broadcast to the joint's coordinates)
    kt::Drive current;  ///< what the panel last gave the run
    QCheckBox* on = nullptr;
    QLabel* name = nullptr;
    std::vector<Control> controls;
  };
  const std::vector<JointRow>& rows() const { return rows_; }
  /// The row of tree joint `joint`, or null.
  const JointRow* rowOf(int joint) const;
  /// Sets a control's value as the user would (the run gets the drive at the next step).
  void setValue(int joint, Control::What what, int coordinate, double value);
  /// Back to the model's drive for `joint` (what a double click on its name does).
  void restoreModelDrive(int joint);
  PosePanel* posePanel() const { return pose_; }
  /// Shows the Pose tab (or the Drives tab).
  void showPoseTab(bool pose);

 signals:
  /// Something the status bar should say for `timeoutMs`.
  void statusMessage(const QString& text, int timeoutMs);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rebuild();
  void clear();
  /// The joints' controls on while the run can go on; otherwise off, and the note says why.
  void updateEnabled();
  /// Sends the row's drive to the run.
  void send(JointRow& row);
  /// The controls' values from `row.current`, without sending anything.
  void showDrive(JointRow& row);

  SimulationController* simulation_;
  QWidget* body_;
  QVBoxLayout* layout_;
  QLabel* empty_;
  PosePanel* pose_;
  QTabWidget* tabs_;
  std::vector<JointRow> rows_;
  bool updating_ = false;
};

}  // namespace kt::ui
