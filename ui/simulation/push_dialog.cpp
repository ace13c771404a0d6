// SPDX-License-Identifier: BSD-3-Clause
#include "ui/simulation/push_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "core/model/text_util.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QDoubleSpinBox* numberField(double min, double max, const QString& suffix) {
  auto* f = new QDoubleSpinBox;
  f->setRange(min, max);
  f->setDecimals(4);
  f->setSuffix(suffix);
  f->setAccelerated(true);
  f->setMinimumWidth(110);
  return f;
}

// three fields x, y, z in a row, with the unit
QWidget* vectorRow(std::array<QDoubleSpinBox*, 3>& fields, double limit, const QString& unit, const QString& name) {
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  static const char* axes[] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    fields[static_cast<std::size_t>(k)] = numberField(-limit, limit, QStringLiteral(" ") + unit);
    fields[static_cast<std::size_t>(k)]->setObjectName(name + QString::fromLatin1(axes[k]).toUpper());
    fields[static_cast<std::size_t>(k)]->setToolTip(QString::fromLatin1(axes[k]));
    layout->addWidget(fields[static_cast<std::size_t>(k)]);
  }
  return row;
}

}  // namespace

PushDialog::PushDialog(SimulationController* simulation, QWidget* parent) : QDialog(parent), simulation_(simulation) {
  setWindowTitle(tr("Push a Body"));
  setObjectName(QStringLiteral("pushDialog"));
  auto* form = new QFormLayout;
  body_ = new QComboBox;
  body_->setObjectName(QStringLiteral("pushBody"));
  form->addRow(tr("&Body:"), body_);
  form->addRow(tr("&Point (body coordinates):"),
               vectorRow(point_, 1e6, QStringLiteral("m"), QStringLiteral("pushPoint")));
  form->addRow(tr("&Force:"), vectorRow(force_, 1e12, QStringLiteral("N"), QStringLiteral("pushForce")));
  form->addRow(tr("&Moment:"), vectorRow(moment_, 1e12, QStringLiteral("N·m"), QStringLiteral("pushMoment")));
  axes_ = new QComboBox;
  axes_->setObjectName(QStringLiteral("pushAxes"));
  axes_->addItem(tr("World axes"));
  axes_->addItem(tr("Body axes (turning with the body)"));
  form->addRow(tr("&Along:"), axes_);
  start_ = numberField(0.0, 1e9, QStringLiteral(" s"));
  start_->setObjectName(QStringLiteral("pushStart"));
  form->addRow(tr("&Start:"), start_);
  auto* durationRow = new QWidget;
  auto* durationLayout = new QHBoxLayout(durationRow);
  durationLayout->setContentsMargins(0, 0, 0, 0);
  duration_ = numberField(1e-9, 1e9, QStringLiteral(" s"));
  duration_->setObjectName(QStringLiteral("pushDuration"));
  duration_->setValue(0.1);
  untilReleased_ = new QCheckBox(tr("until released"));
  untilReleased_->setObjectName(QStringLiteral("pushUntilReleased"));
  durationLayout->addWidget(duration_);
  durationLayout->addWidget(untilReleased_);
  form->addRow(tr("&Duration:"), durationRow);
  shape_ = new QComboBox;
  shape_->setObjectName(QStringLiteral("pushShape"));
  shape_->addItem(tr("Constant"));
  shape_->addItem(tr("Half-sine pulse"));
  form->addRow(tr("S&hape:"), shape_);
  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("pushStatus"));
  status_->setWordWrap(true);

  auto* buttons = new QDialogButtonBox;
  applyButton_ = buttons->addButton(tr("&Apply"), QDialogButtonBox::ApplyRole);
  applyButton_->setObjectName(QStringLiteral("pushApply"));
  releaseButton_ = buttons->addButton(tr("&Release"), QDialogButtonBox::ActionRole);
  releaseButton_->setObjectName(QStringLiteral("pushRelease"));
  releaseButton_->setEnabled(false);
  buttons->addButton(QDialogButtonBox::Close);
  connect(applyButton_, &QPushButton::clicked, this, [this] { apply(); });
  connect(releaseButton_, &QPushButton::clicked, this, &PushDialog::release);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
  connect(untilReleased_, &QCheckBox::toggled, this, [this](bool on) {
    duration_->setEnabled(!on);
    if (on) shape_->setCurrentIndex(0);  // a half-sine needs a duration
    shape_->setEnabled(!on);
  });
  connect(simulation_, &SimulationController::sessionStarted, this, [this] {
    lastId_ = -1;  // ids start over with each session: the last push belongs to the run that went
    refresh();
  });
  connect(simulation_, &SimulationController::stateChanged, this, &PushDialog::refresh);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(status_);
  layout->addWidget(buttons);
  refresh();
}

void PushDialog::showEvent(QShowEvent* event) {
  QDialog::showEvent(event);
  refresh();
  start_->setValue(simulation_->simulationTime());  // from now on, unless the user says otherwise
}

void PushDialog::refresh() {
  const kt::Tree* tree = simulation_->tree();
  const int nb = tree ? tree->nb : 0;
  bool same = body_->count() == nb;
  for (int i = 0; same && i < nb; ++i)
    same = body_->itemText(i) == QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(i)]);
  if (!same) {
    const QString previous = body_->currentText();
    body_->clear();
    for (int i = 0; i < nb; ++i) body_->addItem(QString::fromStdString(tree->bodyNames[static_cast<std::size_t>(i)]));
    if (const int k = body_->findText(previous); k >= 0) body_->setCurrentIndex(k);
    lastId_ = -1;
  }
  const bool can = simulation_->hasSimulator() && !simulation_->outdated() && !simulation_->hasFailed() &&
                   !simulation_->recordingFull();
  applyButton_->setEnabled(can && nb > 0);
  releaseButton_->setEnabled(can && lastId_ >= 0);
}

kt::InteractionEvent PushDialog::push() const {
  kt::InteractionEvent e;
  e.kind = kt::InteractionKind::Push;
  e.body = body_->currentIndex();
  for (int k = 0; k < 3; ++k) {
    e.point[k] = point_[static_cast<std::size_t>(k)]->value();
    e.force[k] = force_[static_cast<std::size_t>(k)]->value();
    e.moment[k] = moment_[static_cast<std::size_t>(k)]->value();
  }
  e.worldAxes = axes_->currentIndex() == 0;
  e.start = start_->value();
  e.duration = untilReleased_->isChecked() ? std::numeric_limits<double>::infinity() : duration_->value();
  e.shape = shape_->currentIndex() == 0 ? kt::PushShape::Constant : kt::PushShape::HalfSine;
  return e;
}

bool PushDialog::apply() {
  kt::InteractionEvent e = push();
  const kt::Tree* tree = simulation_->tree();
  if (!tree) {
    status_->setText(tr("There is no run to push: open a model that can run"));
    return false;
  }
  if (const std::string problem = kt::checkInteractionEvent(e, *tree); !problem.empty()) {
    status_->setText(tr("Cannot push: %1").arg(QString::fromStdString(problem)));
    return false;
  }
  // a push of nothing would be recorded as an event and do nothing
  if (e.force.isZero(0.0) && e.moment.isZero(0.0)) {
    status_->setText(tr("The force and the moment are both zero: give one of them, then Apply"));
    return false;
  }
  if (simulation_->runState() == SimulationController::RunState::Finished) {
    // the run takes no more steps: the push would be queued for a step that never comes, and the
    // next run (F5) starts from t = 0 without it
    status_->setText(tr("The run has ended (%1): a push acts on a run that goes on. Run again (F5), then push.")
                         .arg(simulation_->runStateText()));
    return false;
  }
  e.id = simulation_->newInteractionId();
  if (!simulation_->interact(e)) {
    status_->setText(tr("The run cannot go on (reset it): nothing was applied"));
    return false;
  }
  lastId_ = e.id;
  const double now = simulation_->simulationTime();
  status_->setText(
      e.start > now + 1e-12
          ? tr("Push %1 applied: it acts from t = %2 s").arg(e.id).arg(kt::formatSignificant(e.start, 6).c_str())
          : tr("Push %1 applied from the next step (t = %2 s)").arg(e.id).arg(kt::formatSignificant(now, 6).c_str()));
  releaseButton_->setEnabled(true);
  return true;
}

void PushDialog::release() {
  if (lastId_ < 0) return;
  kt::InteractionEvent off;
  off.kind = kt::InteractionKind::Release;
  off.id = lastId_;
  if (simulation_->interact(off)) status_->setText(tr("Push %1 released").arg(lastId_));
  lastId_ = -1;
  releaseButton_->setEnabled(false);
}

}  // namespace kt::ui
