// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/joint_load_view.hpp"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QWidget>
#include <algorithm>

#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/results/run_results.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

JointLoadView::JointLoadView(SimulationController* simulation, RunResults* results, render::SceneView* view,
                             QWidget* window)
    : QObject(window), simulation_(simulation), results_(results), view_(view), window_(window) {
  createMenu();
  // the arrows are built for the model the window shows; a session's rows fit them once the
  // session that follows rebuild() has started
  connect(simulation_, &SimulationController::sessionStarted, this, [this] {
    if (arrows_) arrows_->resetAutoScale();
    matchesSession_ = true;
    sessionLength_ = view_->scene().characteristicLength();
  });
  connect(simulation_, &SimulationController::sessionEnded, this, [this] { matchesSession_ = false; });
  connect(simulation_, &SimulationController::shownSampleChanged, this, &JointLoadView::update);
  // a run that stops: its scale is that of the whole recording from now on, and the legend says so
  connect(simulation_, &SimulationController::runningChanged, this, &JointLoadView::update);
}

JointLoadView::~JointLoadView() = default;

void JointLoadView::createMenu() {
  menu_ = new QMenu(tr("Joint &Loads"), window_);
  menu_->setObjectName(QStringLiteral("jointLoadsMenu"));
  auto option = [this](const QString& text, bool render::LoadArrowOptions::*field) {
    QAction* a = menu_->addAction(text);
    a->setCheckable(true);
    connect(a, &QAction::toggled, this, [this, field](bool on) { setOption(field, on); });
    return a;
  };
  QAction* show = option(tr("&Show Load Arrows"), &render::LoadArrowOptions::visible);
  show->setObjectName(QStringLiteral("showLoadArrowsAction"));
  showAction_ = show;
  show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
  show->setStatusTip(tr("Force (one tip) and moment (two tips) each joint transmits, at the joint origin"));
  option(tr("Selected Joint &Only"), &render::LoadArrowOptions::selectedOnly)
      ->setObjectName(QStringLiteral("selectedJointOnlyAction"));
  QAction* reaction = option(tr("&Constraint Forces Only"), &render::LoadArrowOptions::reactionOnly);
  reaction->setObjectName(QStringLiteral("reactionOnlyAction"));
  reaction->setStatusTip(
      tr("The reaction part of each joint's wrench (what the joint's structure carries), "
         "not the whole wrench; the plots' loads pane follows"));
  reaction->setChecked(render::LoadArrowOptions{}.reactionOnly);
  QAction* world = option(tr("Values in &World Axes"), &render::LoadArrowOptions::worldAxes);
  world->setObjectName(QStringLiteral("worldAxesAction"));
  world->setStatusTip(tr("The written values and the plots' loads pane in world axes instead of the joint frame"));
  menu_->addSeparator();
  auto value = [this](const QString& text, const QString& label, double render::LoadArrowOptions::*field) {
    menu_->addAction(text, this, [this, text, label, field] { askValue(text, label, field); });
  };
  value(tr("&Force Scale…"),
        tr("Arrow length per newton (m/N; 0 = automatic: the largest force drawn 0.3 × the "
           "model's size):"),
        &render::LoadArrowOptions::forceScale);
  value(tr("&Moment Scale…"), tr("Arrow length per newton metre (m/(N·m); 0 = automatic):"),
        &render::LoadArrowOptions::momentScale);
  value(tr("Force &Limit…"), tr("Force drawn red (N; 0 = none; a joint's load rating applies where it has one):"),
        &render::LoadArrowOptions::forceLimit);
  value(tr("Moment L&imit…"), tr("Moment drawn red (N·m; 0 = none; a joint's load rating applies where it has one):"),
        &render::LoadArrowOptions::momentLimit);
  value(tr("&Dead Band…"), tr("Loads below this fraction of the largest load are not drawn (e.g. 0.001):"),
        &render::LoadArrowOptions::deadBand);
}

void JointLoadView::setArrowsVisible(bool on) { showAction_->setChecked(on); }

void JointLoadView::setOption(bool render::LoadArrowOptions::*field, bool on) {
  if (!arrows_) return;
  render::LoadArrowOptions o = arrows_->options();
  o.*field = on;
  arrows_->setOptions(o);
  update();
  if (field == &render::LoadArrowOptions::reactionOnly || field == &render::LoadArrowOptions::worldAxes)
    emit loadViewChanged(o.reactionOnly, o.worldAxes);
}

void JointLoadView::askValue(const QString& title, const QString& label, double render::LoadArrowOptions::*field) {
  if (!arrows_) return;
  bool ok = false;
  const double x = QInputDialog::getDouble(window_, title, label, arrows_->options().*field, 0.0, 1e12, 6, &ok);
  if (!ok) return;
  render::LoadArrowOptions o = arrows_->options();
  o.*field = x;
  arrows_->setOptions(o);
  update();
}

void JointLoadView::rebuild(const kt::Tree& tree, std::vector<kt::LoadRating> ratings, bool edited) {
  if (!arrows_) arrows_ = std::make_unique<render::LoadArrows>(view_->overlayRenderer());
  // a kept run's arrows keep the lengths they were drawn at: an edit that moves the model's
  // extent (an initial position, undone and redone) must not rescale "lengths fixed for this run"
  const bool kept = edited && simulation_->sessionFits(tree) && sessionLength_ > 0.0;
  arrows_->build(tree, kept ? sessionLength_ : view_->scene().characteristicLength());
  arrows_->setRatings(std::move(ratings));
  arrows_->setSelectedJoint(selectedJoint_);
  // a kept (outdated) run of the same joints still fits the arrows; a new session sets it anyway
  matchesSession_ = simulation_->sessionFits(tree);
  update();
}

void JointLoadView::setSelectedJoint(int joint) {
  selectedJoint_ = joint;
  if (!arrows_) return;
  arrows_->setSelectedJoint(joint);
  update();
}

void JointLoadView::updateReference() {
  if (!arrows_) return;
  const kt::LoadScale scale = results_->loadScale(arrows_->options().reactionOnly);
  // while the run goes on, its largest load so far; stopped, the whole recording's
  arrows_->setReference(scale.force, scale.moment, simulation_->runState() != SimulationController::RunState::Running);
}

void JointLoadView::update() {
  const kt::SignalLayout* layout = simulation_->signalLayout();
  if (matchesSession_) updateReference();
  if (arrows_ && matchesSession_ && layout != nullptr && simulation_->hasShownSample()) {
    const ShownSample& sample = simulation_->shownSample();
    layout->loadsFromRow(sample.values.data(), loads_);
    arrows_->update(sample.poses, sample.q, loads_);
  }
  view_->update();  // an option, the selection or a rebuild changed the arrows in any case
}

}  // namespace kt::ui
