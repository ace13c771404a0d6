// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/drive_panel.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/model/tree.hpp"
#include "ui/simulation/pose_panel.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

constexpr int kDriveSliderSteps = 1000;

// a drive's per-coordinate list with one entry per coordinate: a single one repeated, a missing one 0
void broadcast(std::vector<double>& v, int nv) {
  if (static_cast<int>(v.size()) == nv) return;
  const double x = v.size() == 1 ? v.front() : 0.0;
  v.assign(static_cast<std::size_t>(nv), x);
}

kt::Drive broadcastDrive(kt::Drive d, int nv) {
  for (std::vector<double>* v :
       {&d.value, &d.amplitude, &d.frequency, &d.phase, &d.offset, &d.stiffness, &d.damping, &d.restPosition})
    broadcast(*v, nv);
  return d;
}

using DriveWhat = DrivePanelDock::Control::What;

QString labelOf(DriveWhat what, bool angular) {
  switch (what) {
    case DriveWhat::Setpoint: return DrivePanelDock::tr("setpoint (%1)").arg(angular ? "rad" : "m");
    case DriveWhat::Force: return DrivePanelDock::tr("force (%1)").arg(angular ? "N·m" : "N");
    case DriveWhat::Offset: return DrivePanelDock::tr("offset (%1)").arg(angular ? "N·m" : "N");
    case DriveWhat::Rest: return DrivePanelDock::tr("rest (%1)").arg(angular ? "rad" : "m");
    case DriveWhat::Kp: return DrivePanelDock::tr("kp");
    case DriveWhat::Kd: return DrivePanelDock::tr("kd");
    case DriveWhat::Stiffness: return DrivePanelDock::tr("stiffness");
  }
  return {};
}

}  // namespace

DrivePanelDock::DrivePanelDock(SimulationController* simulation, Document& document, QWidget* parent)
    : QDockWidget(tr("Drives and Pose"), parent), simulation_(simulation) {
  setObjectName(QStringLiteral("drivesDock"));
  // two tabs: the drives of the run, and its pose while paused
  const auto scrolled = [](QWidget* content, const QString& name) {
    auto* scroll = new QScrollArea;
    scroll->setObjectName(name);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    return scroll;
  };
  body_ = new QWidget;
  layout_ = new QVBoxLayout(body_);
  empty_ = new QLabel;
  empty_->setWordWrap(true);
  layout_->addWidget(empty_);
  layout_->addStretch(1);
  pose_ = new PosePanel(simulation_, document);
  connect(pose_, &PosePanel::statusMessage, this, &DrivePanelDock::statusMessage);
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("drivesDockTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(scrolled(body_, QStringLiteral("drivesDockScroll")), tr("Drives"));
  tabs_->addTab(scrolled(pose_, QStringLiteral("poseScroll")), tr("Pose"));
  tabs_->setTabToolTip(1, tr("Set where the joints are while the run is paused"));
  setWidget(tabs_);
  connect(simulation_, &SimulationController::sessionStarted, this, &DrivePanelDock::rebuild);
  connect(simulation_, &SimulationController::sessionEnded, this, &DrivePanelDock::clear);
  connect(simulation_, &SimulationController::stateChanged, this, &DrivePanelDock::updateEnabled);
  connect(simulation_, &SimulationController::runningChanged, this, &DrivePanelDock::updateEnabled);
  // the run's end is known once its last sample is read, which may come a poll after it stopped
  connect(simulation_, &SimulationController::shownSampleChanged, this, &DrivePanelDock::updateEnabled);
  rebuild();
}

void DrivePanelDock::updateEnabled() {
  if (rows_.empty()) return;  // the note says "No run." or that nothing is driven
  const bool goesOn = simulation_->hasSimulator() && !simulation_->outdated() && !simulation_->hasFailed() &&
                      !simulation_->recordingFull();
  // a run that has ended takes no more steps: a change would act at a step that never comes, and
  // the next run (F5) starts from the model's drives
  const bool finished = simulation_->runState() == SimulationController::RunState::Finished;
  for (int k = 1; k < layout_->count() - 1; ++k)  // the joints' groups, between the note and the stretch
    if (QWidget* group = layout_->itemAt(k)->widget()) group->setEnabled(goesOn && !finished);
  empty_->setText(!goesOn    ? tr("This run cannot go on: Reset to change its drives.")
                  : finished ? tr("The run has ended (%1): drives act on a run that goes on. Run again (F5), "
                                  "then change them.")
                                   .arg(simulation_->runStateText())
                             : QString());
  empty_->setVisible(!goesOn || finished);
}

void DrivePanelDock::showPoseTab(bool pose) { tabs_->setCurrentIndex(pose ? 1 : 0); }

const DrivePanelDock::JointRow* DrivePanelDock::rowOf(int joint) const {
  for (const JointRow& r : rows_)
    if (r.joint == joint) return &r;
  return nullptr;
}

void DrivePanelDock::clear() {
  rows_.clear();
  while (layout_->count() > 2) {  // the groups; the "empty" label and the stretch stay
    QLayoutItem* item = layout_->takeAt(1);
    delete item->widget();
    delete item;
  }
  empty_->setText(tr("No run."));
  empty_->show();
}

void DrivePanelDock::rebuild() {
  clear();
  const kt::Tree* tree = simulation_->tree();
  const kt::Model* model = simulation_->sessionModel();
  if (!tree || !model) return;
  for (int i = 0; i < tree->nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const kt::JointModel& joint = tree->joints[n];
    const kt::JointSpec& spec = model->bodies[static_cast<std::size_t>(tree->specIndex[n])].joint;
    if (joint.nv == 0 || spec.drive.type == kt::DriveType::None) continue;
    JointRow row;
    row.joint = i;
    row.model = broadcastDrive(spec.drive, joint.nv);
    row.current = row.model;
    auto* group = new QGroupBox;
    auto* grid = new QGridLayout(group);
    row.on = new QCheckBox;
    row.on->setChecked(true);
    row.on->setToolTip(tr("The joint's drive on or off"));
    row.name =
        new QLabel(QStringLiteral("<b>%1</b> %2")
                       .arg(QString::fromStdString(tree->jointNames[n]).toHtmlEscaped(),
                            QString::fromUtf8(kt::driveTypeName(spec.drive.type).data(),
                                              static_cast<qsizetype>(kt::driveTypeName(spec.drive.type).size()))));
    row.name->setToolTip(tr("Double-click: back to the model's drive"));
    row.name->installEventFilter(this);
    grid->addWidget(row.on, 0, 0);
    grid->addWidget(row.name, 0, 1, 1, 2);
    grid->setColumnStretch(1, 1);
    const auto add = [&](DriveWhat what, int k, double value, double lo, double hi, int decimals) {
      Control c;
      c.what = what;
      c.coordinate = k;
      c.slider = new QSlider(Qt::Horizontal);
      c.slider->setRange(0, kDriveSliderSteps);
      c.slider->setProperty("lo", lo);
      c.slider->setProperty("hi", hi);
      c.number = new QDoubleSpinBox;
      c.number->setRange(-1e12, 1e12);
      c.number->setDecimals(decimals);
      c.number->setKeyboardTracking(false);
      c.number->setMinimumWidth(90);
      const bool angular = joint.velocityIsAngular(k);
      const QString text = labelOf(what, angular) + (joint.nv > 1 && (what != DriveWhat::Kp && what != DriveWhat::Kd)
                                                         ? QStringLiteral(" [%1]").arg(k)
                                                         : QString());
      // the name and the number on a line, the slider under them as wide as the dock
      const int line = grid->rowCount();
      grid->addWidget(new QLabel(text), line, 1);
      grid->addWidget(c.number, line, 2);
      grid->addWidget(c.slider, line + 1, 1, 1, 2);
      c.slider->setMinimumWidth(120);
      c.number->setValue(value);
      c.slider->setValue(static_cast<int>(std::lround((value - lo) / (hi - lo) * kDriveSliderSteps)));
      row.controls.push_back(c);
    };
    const kt::Drive& d = row.model;
    for (int k = 0; k < joint.nv; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      const bool angular = joint.velocityIsAngular(k);
      const double span = angular ? std::numbers::pi : 1.0;
      // positions within the joint's limits when it has them, else half a turn (1 m) either way
      const auto range = [&](double v) {
        if (kk < spec.limits.size() && spec.limits[kk].upper > spec.limits[kk].lower)
          return std::pair(spec.limits[kk].lower, spec.limits[kk].upper);
        return std::pair(v - span, v + span);
      };
      const auto forceRange = [](double v) {
        const double m = std::max(2.0 * std::abs(v), 100.0);
        return std::pair(-m, m);
      };
      switch (d.type) {
        case kt::DriveType::PdSinusoid:
        case kt::DriveType::PdPiecewise: {
          const double q = d.type == kt::DriveType::PdSinusoid           ? d.offset[kk]
                           : kk < d.knots.size() && !d.knots[kk].empty() ? d.knots[kk].front().value
                                                                         : 0.0;
          const auto [lo, hi] = range(q);
          add(DriveWhat::Setpoint, k, q, lo, hi, 4);
          break;
        }
        case kt::DriveType::Constant: {
          const auto [lo, hi] = forceRange(d.value[kk]);
          add(DriveWhat::Force, k, d.value[kk], lo, hi, 3);
          break;
        }
        case kt::DriveType::Sinusoid: {
          const auto [lo, hi] = forceRange(d.offset[kk]);
          add(DriveWhat::Offset, k, d.offset[kk], lo, hi, 3);
          break;
        }
        case kt::DriveType::SpringDamper: {
          const auto [lo, hi] = range(d.restPosition[kk]);
          add(DriveWhat::Rest, k, d.restPosition[kk], lo, hi, 4);
          add(DriveWhat::Stiffness, k, d.stiffness[kk], 0.0, std::max(4.0 * d.stiffness[kk], 1.0), 3);
          break;
        }
        default: break;
      }
    }
    if (d.type == kt::DriveType::PdSinusoid || d.type == kt::DriveType::PdPiecewise) {
      add(DriveWhat::Kp, 0, d.kp, 0.0, std::max(4.0 * d.kp, 1.0), 3);
      add(DriveWhat::Kd, 0, d.kd, 0.0, std::max(4.0 * d.kd, 1.0), 3);
    }
    if (d.type == kt::DriveType::Table) {
      row.on->setEnabled(false);
      grid->addWidget(new QLabel(tr("a table drive: not changed during a run")), 1, 1, 1, 2);
    }
    layout_->insertWidget(layout_->count() - 1, group);
    rows_.push_back(std::move(row));
  }
  // wire the controls once the rows have their final addresses
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    const int joint = rows_[r].joint;
    connect(rows_[r].on, &QCheckBox::toggled, this, [this, r] {
      if (!updating_) send(rows_[r]);
    });
    for (const Control& c : rows_[r].controls) {
      QSlider* slider = c.slider;
      QDoubleSpinBox* number = c.number;
      connect(slider, &QSlider::valueChanged, this, [this, slider, number](int step) {
        if (updating_) return;
        const double lo = slider->property("lo").toDouble(), hi = slider->property("hi").toDouble();
        number->setValue(lo + (hi - lo) * step / kDriveSliderSteps);  // sends through the number
      });
      connect(number, &QDoubleSpinBox::valueChanged, this, [this, joint, what = c.what, k = c.coordinate](double v) {
        if (!updating_) setValue(joint, what, k, v);
      });
    }
  }
  empty_->setText(tr("No joint of this model has a drive."));
  empty_->setVisible(rows_.empty());
  updateEnabled();
}

void DrivePanelDock::setValue(int joint, Control::What what, int coordinate, double value) {
  if (simulation_->runState() == SimulationController::RunState::Finished) return;  // updateEnabled() says why
  const auto row = std::find_if(rows_.begin(), rows_.end(), [&](const JointRow& r) { return r.joint == joint; });
  if (row == rows_.end()) return;
  kt::Drive& d = row->current;
  const auto k = static_cast<std::size_t>(coordinate);
  switch (what) {
    case DriveWhat::Setpoint: {
      // hold every coordinate at the panel's setpoints: a constant reference
      std::vector<double> held(d.offset.size(), 0.0);
      for (const Control& c : row->controls)
        if (c.what == DriveWhat::Setpoint) held[static_cast<std::size_t>(c.coordinate)] = c.number->value();
      held[k] = value;
      d.type = kt::DriveType::PdSinusoid;
      d.offset = held;
      std::fill(d.amplitude.begin(), d.amplitude.end(), 0.0);
      std::fill(d.frequency.begin(), d.frequency.end(), 0.0);
      std::fill(d.phase.begin(), d.phase.end(), 0.0);
      d.knots.clear();
      break;
    }
    case DriveWhat::Force: d.value[k] = value; break;
    case DriveWhat::Offset: d.offset[k] = value; break;
    case DriveWhat::Rest: d.restPosition[k] = value; break;
    case DriveWhat::Stiffness: d.stiffness[k] = value; break;
    case DriveWhat::Kp: d.kp = value; break;
    case DriveWhat::Kd: d.kd = value; break;
  }
  showDrive(*row);
  send(*row);
}

void DrivePanelDock::showDrive(JointRow& row) {
  updating_ = true;
  const kt::Drive& d = row.current;
  for (Control& c : row.controls) {
    const auto k = static_cast<std::size_t>(c.coordinate);
    double v = c.number->value();
    switch (c.what) {
      case DriveWhat::Setpoint:
        if (d.type == kt::DriveType::PdSinusoid) v = d.offset[k];
        break;
      case DriveWhat::Force: v = d.value[k]; break;
      case DriveWhat::Offset: v = d.offset[k]; break;
      case DriveWhat::Rest: v = d.restPosition[k]; break;
      case DriveWhat::Stiffness: v = d.stiffness[k]; break;
      case DriveWhat::Kp: v = d.kp; break;
      case DriveWhat::Kd: v = d.kd; break;
    }
    c.number->setValue(v);
    const double lo = c.slider->property("lo").toDouble(), hi = c.slider->property("hi").toDouble();
    c.slider->setValue(static_cast<int>(std::lround(std::clamp((v - lo) / (hi - lo), 0.0, 1.0) * kDriveSliderSteps)));
  }
  updating_ = false;
}

void DrivePanelDock::send(JointRow& row) {
  if (simulation_->runState() == SimulationController::RunState::Finished) return;
  kt::InteractionEvent e;
  e.kind = kt::InteractionKind::Drive;
  e.id = simulation_->newInteractionId();
  e.body = row.joint;
  e.drive = row.on->isChecked() ? row.current : kt::Drive{};
  simulation_->interact(e);
}

void DrivePanelDock::restoreModelDrive(int joint) {
  const auto row = std::find_if(rows_.begin(), rows_.end(), [&](const JointRow& r) { return r.joint == joint; });
  if (row == rows_.end()) return;
  row->current = row->model;
  // the setpoints of a tracking drive show its offset again
  updating_ = true;
  row->on->setChecked(true);
  for (Control& c : row->controls)
    if (c.what == DriveWhat::Setpoint && row->model.type == kt::DriveType::PdPiecewise)
      c.number->setValue(static_cast<std::size_t>(c.coordinate) < row->model.knots.size() &&
                                 !row->model.knots[static_cast<std::size_t>(c.coordinate)].empty()
                             ? row->model.knots[static_cast<std::size_t>(c.coordinate)].front().value
                             : 0.0);
  updating_ = false;
  showDrive(*row);
  send(*row);
}

bool DrivePanelDock::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::MouseButtonDblClick)
    for (const JointRow& r : rows_)
      if (r.name == watched) {
        restoreModelDrive(r.joint);
        return true;
      }
  return QDockWidget::eventFilter(watched, event);
}

}  // namespace kt::ui
