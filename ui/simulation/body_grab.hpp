// SPDX-License-Identifier: BSD-3-Clause
// Hands on the running model (docs/interaction.md): Ctrl+left-drag in the 3D view pulls the point
// of a body under the cursor toward the cursor, Ctrl+right-drag turns the body. The SceneView
// reports the gesture; BodyGrab turns it into drag events of the run (SimulationController::
// interact): when the grab starts, gains from the effective mass at the grasped point
// (kt::dragGains: about 10 rad/s, damping ratio 0.5, for a light link as for the base), then a
// new target each time the cursor moves, and a release. It draws the spring from the grasped
// point to the cursor with the force the run applies (the shown sample's applied: signals).
// Grabbing needs a session that can go on and the live sample (not a scrubbed one).
// While the run is paused, grabbing a floating body (one on a free joint, such as a space robot's
// base) moves it instead, with what it carries (sets its joint's position, a Pose event, for
// setting up a start state): Ctrl+left-drag carries it with the cursor, Ctrl+right-drag turns it
// about its origin. Grabbing any other body while paused attaches the spring, which pulls once the
// run goes on.
#pragma once

#include <QObject>
#include <QString>
#include <string>

#include "core/sim/interaction.hpp"

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class SimulationController;

class BodyGrab : public QObject {
  Q_OBJECT

 public:
  BodyGrab(SimulationController* simulation, render::SceneView* view, QObject* parent = nullptr);

  /// A drag is applied to the run.
  bool active() const { return active_; }
  /// The drag being applied (valid while active()).
  const kt::InteractionEvent& drag() const { return drag_; }
  /// A paused floating tree is being moved (active() too).
  bool posing() const { return posing_; }

 signals:
  /// Something the status bar should say for `timeoutMs`.
  void statusMessage(const QString& text, int timeoutMs);

 private:
  void updateEnabled();
  void start(int body, const Eigen::Vector3d& point, bool torque);
  /// Starts moving `body` while paused if its joint is free; false otherwise.
  bool startPose(int body, const Eigen::Vector3d& point, bool torque);
  void move(const Eigen::Vector3d& target, const Eigen::Matrix3d& rotation);
  void release();
  void redraw();

  SimulationController* simulation_;
  render::SceneView* view_;
  bool active_ = false;
  bool posing_ = false;
  kt::InteractionEvent drag_;                          ///< the drag, or the pose of the root joint while posing
  Eigen::VectorXd poseStart_;                          ///< the positions when a pose began
  Eigen::Vector3d grabbed_ = Eigen::Vector3d::Zero();  ///< the world point grabbed
  Eigen::Matrix3d startRotation_ = Eigen::Matrix3d::Identity();  ///< the body's, world, when grabbed
  Eigen::Vector3d cursor_ = Eigen::Vector3d::Zero();             ///< where the spring's free end is drawn
  int appliedColumn_ = -1;                                       ///< applied:<body>.fx of the layout
};

}  // namespace kt::ui
