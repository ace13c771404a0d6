// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/pose_panel.hpp"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

#include "core/model/tree.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

constexpr int kPoseSliderSteps = 1000;
// more controls than this make a panel nobody scrolls through (and slow to build): the floating
// base is posed in the 3D view then
constexpr std::size_t kMaxControls = 300;

using PoseWhat = PosePanel::Control::What;

// roll, pitch, yaw of R = R_z(yaw) R_y(pitch) R_x(roll)
Eigen::Vector3d anglesOf(const Eigen::Matrix3d& R) {
  return {std::atan2(R(2, 1), R(2, 2)), std::asin(std::clamp(-R(2, 0), -1.0, 1.0)), std::atan2(R(1, 0), R(0, 0))};
}

Eigen::Quaterniond rotationOf(const Eigen::Vector3d& rpy) {
  return Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) *
         Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX());
}

bool quaternionJoint(kt::JointType type) { return type == kt::JointType::Spherical || type == kt::JointType::Free; }

void placeSlider(QSlider* slider, double v) {
  const double lo = slider->property("lo").toDouble(), hi = slider->property("hi").toDouble();
  slider->setValue(static_cast<int>(std::lround(std::clamp((v - lo) / (hi - lo), 0.0, 1.0) * kPoseSliderSteps)));
}

}  // namespace

PosePanel::PosePanel(SimulationController* simulation, Document& document, QWidget* parent)
    : QWidget(parent), simulation_(simulation), document_(document) {
  auto* layout = new QVBoxLayout(this);
  note_ = new QLabel;
  note_->setWordWrap(true);
  layout->addWidget(note_);
  useButton_ = new QPushButton(tr("Use as Initial State"));
  useButton_->setObjectName(QStringLiteral("useAsInitialState"));
  useButton_->setToolTip(
      tr("Write the positions shown into the model's initial positions (q0), one undo step; "
         "the initial velocities stay the model's"));
  layout->addWidget(useButton_);
  rows_ = new QWidget;
  layout->addWidget(rows_);
  auto* grid = new QGridLayout(rows_);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setColumnStretch(0, 1);
  layout->addStretch(1);
  connect(useButton_, &QPushButton::clicked, this, [this] { useAsInitialState(); });
  connect(simulation_, &SimulationController::sessionStarted, this, &PosePanel::rebuild);
  connect(simulation_, &SimulationController::sessionEnded, this, &PosePanel::clear);
  connect(simulation_, &SimulationController::stateChanged, this, &PosePanel::updateEnabled);
  connect(simulation_, &SimulationController::runningChanged, this, &PosePanel::updateEnabled);
  connect(simulation_, &SimulationController::shownSampleChanged, this, [this] {
    updateEnabled();
    showPositions();
  });
  rebuild();
}

void PosePanel::clear() {
  controls_.clear();
  auto* grid = static_cast<QGridLayout*>(rows_->layout());
  while (QLayoutItem* item = grid->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  updateEnabled();
}

void PosePanel::rebuild() {
  clear();
  const kt::Tree* tree = simulation_->tree();
  const kt::Model* model = simulation_->sessionModel();
  if (!tree || !model) return;
  auto* grid = static_cast<QGridLayout*>(rows_->layout());
  std::size_t count = 0;
  for (int i = 0; i < tree->nb; ++i) {
    const kt::JointModel& joint = tree->joints[static_cast<std::size_t>(i)];
    const kt::JointSpec& spec =
        model->bodies[static_cast<std::size_t>(tree->specIndex[static_cast<std::size_t>(i)])].joint;
    if (joint.nq == 0 || spec.motion.type != kt::MotionType::None) continue;
    count += joint.type == kt::JointType::Free ? 6 : joint.type == kt::JointType::Spherical ? 3 : joint.nq;
  }
  if (count > kMaxControls) {
    note_->setProperty("tooMany", true);
    note_->setText(tr("%1 joint coordinates: too many to list. Ctrl+drag a floating model in the 3D view while "
                      "paused to move it.")
                       .arg(count));
    updateEnabled();
    return;
  }
  note_->setProperty("tooMany", false);
  const kt::VectorX& q = tree->initialQ;
  for (int i = 0; i < tree->nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const kt::JointModel& joint = tree->joints[n];
    const kt::JointSpec& spec = model->bodies[static_cast<std::size_t>(tree->specIndex[n])].joint;
    if (joint.nq == 0 || spec.motion.type != kt::MotionType::None) continue;
    const auto add = [&](PoseWhat what, int index, const QString& label, double lo, double hi, bool angular) {
      Control c;
      c.what = what;
      c.joint = i;
      c.index = index;
      c.slider = new QSlider(Qt::Horizontal);
      c.slider->setRange(0, kPoseSliderSteps);
      c.slider->setProperty("lo", lo);
      c.slider->setProperty("hi", hi);
      c.number = new QDoubleSpinBox;
      c.number->setRange(-1e6, 1e6);
      c.number->setDecimals(4);
      c.number->setSingleStep(angular ? 0.01 : 0.005);
      c.number->setKeyboardTracking(false);
      c.number->setSuffix(angular ? QStringLiteral(" rad") : QStringLiteral(" m"));
      auto* name = new QLabel(QStringLiteral("%1 %2").arg(QString::fromStdString(tree->jointNames[n]), label));
      name->setToolTip(tr("The position of joint '%1' while paused")
                           .arg(QString::fromStdString(tree->jointNames[n]).toHtmlEscaped()));
      // the name and the number on a line, the slider under them as wide as the dock
      const int line = grid->rowCount();
      grid->addWidget(name, line, 0);
      grid->addWidget(c.number, line, 1);
      grid->addWidget(c.slider, line + 1, 0, 1, 2);
      controls_.push_back(c);
    };
    const double* qj = q.data() + tree->qOffset[n];
    if (quaternionJoint(joint.type)) {
      if (joint.type == kt::JointType::Free)
        for (int k = 0; k < 3; ++k)
          add(PoseWhat::Translation, k, QStringLiteral("xyz").mid(k, 1), qj[4 + k] - 2.0, qj[4 + k] + 2.0, false);
      const QString names[3] = {tr("roll"), tr("pitch"), tr("yaw")};
      for (int k = 0; k < 3; ++k)
        add(PoseWhat::Angle, k, names[k], k == 1 ? -0.5 * std::numbers::pi : -std::numbers::pi,
            k == 1 ? 0.5 * std::numbers::pi : std::numbers::pi, true);
      continue;
    }
    for (int k = 0; k < joint.nq; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      const bool angular = joint.velocityIsAngular(k);
      double lo = angular ? -std::numbers::pi : qj[k] - 1.0, hi = angular ? std::numbers::pi : qj[k] + 1.0;
      if (kk < spec.limits.size() && spec.limits[kk].upper > spec.limits[kk].lower) {
        lo = spec.limits[kk].lower;
        hi = spec.limits[kk].upper;
      }
      add(PoseWhat::Coordinate, k, joint.nq > 1 ? QStringLiteral("[%1]").arg(k) : QString(), lo, hi, angular);
    }
  }
  for (const Control& c : controls_) {
    QSlider* slider = c.slider;
    QDoubleSpinBox* number = c.number;
    connect(slider, &QSlider::valueChanged, this, [this, slider, number](int step) {
      if (updating_) return;
      const double lo = slider->property("lo").toDouble(), hi = slider->property("hi").toDouble();
      number->setValue(lo + (hi - lo) * step / kPoseSliderSteps);  // sends through the number
    });
    connect(number, &QDoubleSpinBox::valueChanged, this,
            [this, slider, joint = c.joint, what = c.what, index = c.index](double v) {
              if (updating_) return;
              updating_ = true;
              placeSlider(slider, v);
              updating_ = false;
              send(joint, what, index);
            });
  }
  showPositions();
  updateEnabled();
}

bool PosePanel::canPose() const {
  return simulation_->hasSimulator() && !simulation_->outdated() && !simulation_->hasFailed() &&
         !simulation_->recordingFull() && !simulation_->isRunning() && simulation_->showsLive() &&
         simulation_->hasShownSample();
}

void PosePanel::updateEnabled() {
  const bool can = canPose();
  rows_->setEnabled(can);
  useButton_->setEnabled(can);
  if (note_->property("tooMany").toBool()) return;
  note_->setText(!simulation_->hasSimulator() ? tr("No run.")
                 : simulation_->outdated() || simulation_->hasFailed() || simulation_->recordingFull()
                     ? tr("This run cannot go on: Reset to pose the model.")
                 : simulation_->isRunning() ? tr("Pause the run to pose the model.")
                 : !simulation_->showsLive()
                     ? tr("Show the newest sample (End) to pose the model: a recorded sample cannot be changed.")
                 : controls_.empty() ? tr("No joint of this model can be posed.")
                 : simulation_->runState() == SimulationController::RunState::Finished
                     // a pose is not refused here, unlike a drive change: the end state can be posed and kept
                     ? tr("The run has ended (%1): a pose changes its last sample, and Use as Initial State "
                          "keeps the positions shown as the model's start.")
                           .arg(simulation_->runStateText())
                     : tr("The run goes on from here when resumed; the velocities stay."));
}

void PosePanel::showPositions() {
  if (controls_.empty() || !simulation_->hasShownSample()) return;
  const kt::Tree& tree = *simulation_->tree();
  const Eigen::VectorXd& q = simulation_->shownPositions();
  if (q.size() != tree.nq) return;
  updating_ = true;
  for (Control& c : controls_) {
    // not under the user's hand: the number being typed or the slider being dragged
    if (c.slider->isSliderDown() || c.number->hasFocus()) continue;
    const double* qj = q.data() + tree.qOffset[static_cast<std::size_t>(c.joint)];
    double v = 0.0;
    switch (c.what) {
      case PoseWhat::Coordinate: v = qj[c.index]; break;
      case PoseWhat::Translation: v = qj[4 + c.index]; break;
      case PoseWhat::Angle:
        v = anglesOf(Eigen::Quaterniond(qj[0], qj[1], qj[2], qj[3]).normalized().toRotationMatrix())[c.index];
        break;
    }
    c.number->setValue(v);
    placeSlider(c.slider, v);
  }
  updating_ = false;
}

void PosePanel::setValue(int joint, Control::What what, int index, double value) {
  for (Control& c : controls_)
    if (c.joint == joint && c.what == what && c.index == index) {
      c.number->setValue(value);  // sends
      return;
    }
}

void PosePanel::send(int joint, Control::What what, int index) {
  if (!canPose()) return;
  const kt::Tree& tree = *simulation_->tree();
  const auto n = static_cast<std::size_t>(joint);
  const Eigen::VectorXd& q = simulation_->shownPositions();
  kt::InteractionEvent e;
  e.kind = kt::InteractionKind::Pose;
  e.id = simulation_->newInteractionId();
  e.body = joint;
  // the joint where it is, with only the quantity changed: the others keep every digit
  e.position.assign(q.data() + tree.qOffset[n], q.data() + tree.qOffset[n] + tree.joints[n].nq);
  Eigen::Vector3d rpy = quaternionJoint(tree.joints[n].type)
                            ? anglesOf(Eigen::Quaterniond(e.position[0], e.position[1], e.position[2], e.position[3])
                                           .normalized()
                                           .toRotationMatrix())
                            : Eigen::Vector3d::Zero();
  for (const Control& c : controls_) {
    if (c.joint != joint || c.what != what || c.index != index) continue;
    const double v = c.number->value();
    switch (what) {
      case PoseWhat::Coordinate: e.position[static_cast<std::size_t>(index)] = v; break;
      case PoseWhat::Translation: e.position[static_cast<std::size_t>(4 + index)] = v; break;
      case PoseWhat::Angle: {
        rpy[index] = v;
        const Eigen::Quaterniond r = rotationOf(rpy);
        e.position[0] = r.w();
        e.position[1] = r.x();
        e.position[2] = r.y();
        e.position[3] = r.z();
        break;
      }
    }
  }
  simulation_->interact(e);
}

bool PosePanel::useAsInitialState() {
  if (!canPose()) return false;
  const kt::Tree& tree = *simulation_->tree();
  const kt::Model& model = document_.model();
  const Eigen::VectorXd& q = simulation_->shownPositions();
  std::vector<int> bodies;
  std::vector<kt::BodySpec> after;
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int nq = tree.joints[n].nq;
    const int spec = tree.specIndex[n];
    const kt::BodySpec& body = model.bodies[static_cast<std::size_t>(spec)];
    // a prescribed joint starts where its motion does
    if (nq == 0 || body.joint.motion.type != kt::MotionType::None) continue;
    const Eigen::Index o = tree.qOffset[n];
    if (q.segment(o, nq) == tree.initialQ.segment(o, nq)) continue;
    kt::BodySpec changed = body;
    changed.joint.q0.assign(q.data() + o, q.data() + o + nq);
    bodies.push_back(spec);
    after.push_back(std::move(changed));
  }
  if (bodies.empty()) {
    emit statusMessage(tr("The model already starts in this pose"), 4000);
    return false;
  }
  const QString what = bodies.size() == 1 ? tr("1 joint") : tr("%1 joints").arg(bodies.size());
  document_.push(new ReplaceBodiesCommand(document_, std::move(bodies), std::move(after),
                                          tr("Use Pose as Initial State (%1)").arg(what)));
  emit statusMessage(tr("The initial positions of %1 are the pose shown; Undo takes them back").arg(what), 6000);
  return true;
}

}  // namespace kt::ui
