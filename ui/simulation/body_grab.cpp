// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/body_grab.hpp"

#include <Eigen/Geometry>

#include "core/model/text_util.hpp"
#include "render/overlays/spring_marker.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {
QString significantText(double x, int digits) { return QString::fromStdString(kt::formatSignificant(x, digits)); }
// "142 N", "19.2 kN": three significant digits, in k… from a thousand on
std::string magnitudeText(double x, const char* unit) {
  return x < 999.5 ? kt::formatSignificant(x, 3) + " " + unit : kt::formatSignificant(x / 1000.0, 3) + " k" + unit;
}
}  // namespace

BodyGrab::BodyGrab(SimulationController* simulation, render::SceneView* view, QObject* parent)
    : QObject(parent), simulation_(simulation), view_(view) {
  connect(view_, &render::SceneView::grabStarted, this, &BodyGrab::start);
  connect(view_, &render::SceneView::grabMoved, this, &BodyGrab::move);
  connect(view_, &render::SceneView::grabReleased, this, &BodyGrab::release);
  connect(simulation_, &SimulationController::stateChanged, this, &BodyGrab::updateEnabled);
  connect(simulation_, &SimulationController::sessionStarted, this, &BodyGrab::updateEnabled);
  connect(simulation_, &SimulationController::sessionEnded, this, [this] {
    // the run the drag acted on is gone
    if (active_) emit statusMessage(QString(), 0);  // no "Pulling …" left once the run is gone
    active_ = false;
    posing_ = false;
    appliedColumn_ = -1;
    view_->spring().hide();
    view_->setGrabEnabled(false);
  });
  connect(simulation_, &SimulationController::shownSampleChanged, this, &BodyGrab::redraw);
  connect(simulation_, &SimulationController::runningChanged, this, [this](bool running) {
    if (running && posing_) release();  // a pose is set while paused: Run ends it
  });
  updateEnabled();
}

void BodyGrab::updateEnabled() {
  const bool can = simulation_->hasSimulator() && !simulation_->outdated() && !simulation_->hasFailed() &&
                   !simulation_->recordingFull();
  if (!can && active_) release();
  view_->setGrabEnabled(can);
}

void BodyGrab::start(int body, const Eigen::Vector3d& point, bool torque) {
  const kt::Tree* tree = simulation_->tree();
  const kt::SignalLayout* layout = simulation_->signalLayout();
  if (!tree || !layout || body < 0 || body >= tree->nb || !simulation_->hasShownSample()) return;
  if (!simulation_->showsLive()) {
    emit statusMessage(
        tr("Show the newest sample (End, or Run) to push the model: a recorded sample cannot be changed"), 6000);
    return;
  }
  if (!simulation_->isRunning() && startPose(body, point, torque)) return;
  if (simulation_->runState() == SimulationController::RunState::Finished) {
    // a pull acts from the next step, and an ended run takes none: the spring would pull nothing
    emit statusMessage(tr("The run has ended: run again (F5), then pull the model"), 6000);
    return;
  }
  const Eigen::Vector3d inBody = view_->bodyPointFromWorld(body, point);
  const kt::DragMode mode = torque ? kt::DragMode::Torque : kt::DragMode::Force;
  const kt::SpringGains gains = kt::dragGains(*tree, simulation_->shownPositions(), body, inBody, mode);
  if (!(gains.stiffness > 0.0)) {
    emit statusMessage(tr("Body '%1' cannot move: nothing to pull")
                           .arg(QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(body)])),
                       4000);
    return;
  }
  drag_ = kt::InteractionEvent{};
  drag_.kind = kt::InteractionKind::Drag;
  drag_.id = simulation_->newInteractionId();
  drag_.body = body;
  drag_.mode = mode;
  drag_.point = torque ? Eigen::Vector3d::Zero() : inBody;
  drag_.target = point;  // no pull until the cursor moves
  startRotation_ = view_->scene().bodyPose(body).topLeftCorner<3, 3>();
  drag_.targetRotation = kt::Quat(startRotation_);
  drag_.stiffness = gains.stiffness;
  drag_.damping = gains.damping;
  cursor_ = point;
  if (!simulation_->interact(drag_)) return;
  active_ = true;
  appliedColumn_ = layout->find("applied:" + tree->bodyNames[static_cast<std::size_t>(body)] + ".fx");
  emit statusMessage(torque ? tr("Turning %1: m_eff = %2 kg·m², k = %3 N·m/rad")
                                  .arg(QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(body)]),
                                       significantText(gains.effectiveMass, 4), significantText(gains.stiffness, 4))
                            : tr("Pulling %1: m_eff = %2 kg, k = %3 N/m")
                                  .arg(QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(body)]),
                                       significantText(gains.effectiveMass, 4), significantText(gains.stiffness, 4)),
                     0);
  redraw();
}

bool BodyGrab::startPose(int body, const Eigen::Vector3d& point, bool torque) {
  const kt::Tree& tree = *simulation_->tree();
  const int root = body;  // the floating body itself (grabbing one of its children pulls as when running)
  if (tree.joints[static_cast<std::size_t>(root)].type != kt::JointType::Free) return false;
  drag_ = kt::InteractionEvent{};
  drag_.kind = kt::InteractionKind::Pose;
  drag_.id = simulation_->newInteractionId();
  drag_.body = root;
  drag_.mode = torque ? kt::DragMode::Torque : kt::DragMode::Force;
  poseStart_ = simulation_->shownPositions();
  grabbed_ = point;
  active_ = true;
  posing_ = true;
  const QString name = QString::fromStdString(tree.bodyNames[static_cast<std::size_t>(root)]);
  emit statusMessage(torque ? tr("Turning %1 about its origin: the run is paused, so the model is posed").arg(name)
                            : tr("Moving %1: the run is paused, so the model is posed").arg(name),
                     0);
  return true;
}

void BodyGrab::move(const Eigen::Vector3d& target, const Eigen::Matrix3d& rotation) {
  if (!active_) return;
  if (posing_) {
    const bool turn = drag_.mode == kt::DragMode::Torque;
    const Eigen::Vector3d shift = turn ? Eigen::Vector3d::Zero() : Eigen::Vector3d(target - grabbed_);
    const Eigen::Matrix3d rotate = turn ? rotation : Eigen::Matrix3d::Identity();
    drag_.position = kt::movedFreeJoint(*simulation_->tree(), poseStart_, drag_.body, shift, rotate);
    if (!simulation_->interact(drag_)) release();
    return;
  }
  cursor_ = target;
  if (drag_.mode == kt::DragMode::Force)
    drag_.target = target;
  else
    drag_.targetRotation = kt::Quat(rotation * startRotation_).normalized();
  if (!simulation_->interact(drag_)) {
    release();
    return;
  }
  redraw();
}

void BodyGrab::release() {
  if (!active_) return;
  active_ = false;
  if (posing_) {  // the pose stays: nothing to release
    posing_ = false;
    emit statusMessage(QString(), 0);
    return;
  }
  kt::InteractionEvent off;
  off.kind = kt::InteractionKind::Release;
  off.id = drag_.id;
  simulation_->interact(off);
  view_->spring().hide();
  view_->update();
  emit statusMessage(QString(), 0);
}

void BodyGrab::redraw() {
  if (!active_ || posing_) return;
  const std::vector<double>& row = simulation_->shownRow();
  // the wrench the run applied at the shown sample: applied:<body>.fx … .mz
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
  if (appliedColumn_ >= 0 && row.size() >= static_cast<std::size_t>(appliedColumn_ + 6))
    for (int k = 0; k < 3; ++k) {
      force[k] = row[static_cast<std::size_t>(appliedColumn_ + k)];
      moment[k] = row[static_cast<std::size_t>(appliedColumn_ + 3 + k)];
    }
  const Eigen::Vector3d held = view_->bodyPointWorld(drag_.body, drag_.point);
  // paused, the shown sample was taken before the drag: it applied nothing yet. The spring's pull
  // k |x* − x| (the damping acts once the point moves) is what the next step starts from.
  const bool pending = !simulation_->isRunning() && force.isZero(0.0) && moment.isZero(0.0);
  if (drag_.mode == kt::DragMode::Force)
    view_->spring().show(held, cursor_,
                         pending ? magnitudeText(drag_.stiffness * (cursor_ - held).norm(), "N") + " from the next step"
                                 : magnitudeText(force.norm(), "N"));
  else
    view_->spring().show(held, cursor_,
                         pending ? std::string("from the next step") : magnitudeText(moment.norm(), "N·m"));
  view_->update();
}

}  // namespace kt::ui
