// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/view_menu.hpp"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>

#include "render/scene/scene_view.hpp"
#include "ui/editor/selection.hpp"
#include "ui/shared/status_message.hpp"

namespace kt::ui {

ViewMenu::ViewMenu(render::SceneView* view, Selection* selection, const kt::Tree& tree, QMainWindow* window)
    : QObject(window), view_(view), selection_(selection), window_(window), tree_(tree) {
  menu_ = window->menuBar()->addMenu(tr("&View"));
  QAction* reset = menu_->addAction(tr("&Reset View"), view_, &render::VtkWidget::resetView);
  reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

  QMenu* standard = menu_->addMenu(tr("&Standard Views"));
  struct Entry {
    const char* label;
    render::StandardView view;
    int key;
  };
  const Entry entries[] = {
      {QT_TR_NOOP("Isometric"), render::StandardView::Isometric, Qt::Key_5},
      {QT_TR_NOOP("From +X"), render::StandardView::PlusX, Qt::Key_1},
      {QT_TR_NOOP("From −X"), render::StandardView::MinusX, Qt::Key_2},
      {QT_TR_NOOP("From +Y"), render::StandardView::PlusY, Qt::Key_3},
      {QT_TR_NOOP("From −Y"), render::StandardView::MinusY, Qt::Key_4},
      {QT_TR_NOOP("From +Z (top)"), render::StandardView::PlusZ, Qt::Key_7},
      {QT_TR_NOOP("From −Z (bottom)"), render::StandardView::MinusZ, Qt::Key_8},
  };
  for (const Entry& e : entries) {
    QAction* action = standard->addAction(tr(e.label));
    action->setShortcut(QKeySequence(Qt::CTRL | e.key));
    const render::StandardView v = e.view;
    connect(action, &QAction::triggered, this, [this, v] { view_->setStandardView(v); });
  }

  QSettings settings;
  menu_->addSeparator();
  jointFramesAction_ = menu_->addAction(tr("&Joint Frames"));
  jointFramesAction_->setCheckable(true);
  connect(jointFramesAction_, &QAction::toggled, view_, &render::SceneView::setJointFramesVisible);
  comAction_ = menu_->addAction(tr("&Centres of Mass"));
  comAction_->setCheckable(true);
  connect(comAction_, &QAction::toggled, view_, &render::SceneView::setCentresOfMassVisible);
  gridAction_ = menu_->addAction(tr("&Grid and World Axes"));
  gridAction_->setCheckable(true);
  gridAction_->setChecked(true);
  connect(gridAction_, &QAction::toggled, view_, &render::SceneView::setGridVisible);

  menu_->addSeparator();
  followAction_ = menu_->addAction(tr("&Follow Floating Base"));
  followAction_->setCheckable(true);
  followAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
  followAction_->setToolTip(tr("Keep the floating base in the centre while it moves"));
  connect(followAction_, &QAction::triggered, this, [this](bool on) {
    view_->setFollowBody(on ? render::SceneView::defaultFollowBody(tree_) : -1);
    followAction_->setChecked(view_->followBody() >= 0);
    if (on && view_->followBody() < 0)
      window_->statusBar()->showMessage(
          tr("This model has no floating base: select a body and use Follow Selected Body"), kStatusMessageMs);
  });
  QAction* followSelected = menu_->addAction(tr("Follow &Selected Body"), this, [this] {
    const int body = selection_->treeIndexOf(selection_->selectedBody());
    if (body < 0) {
      window_->statusBar()->showMessage(tr("Select the body to follow first"), kStatusMessageMs);
      return;
    }
    view_->setFollowBody(body);
  });
  followSelected->setObjectName(QStringLiteral("followSelected"));
  connect(view_, &render::SceneView::followBodyChanged, this, [this](int body) {
    followAction_->setChecked(body >= 0);
    if (body >= 0 && body < tree_.nb)
      window_->statusBar()->showMessage(
          tr("Following %1").arg(QString::fromStdString(tree_.bodyNames[static_cast<std::size_t>(body)])),
          kStatusMessageMs);
  });
  trailsAction_ = menu_->addAction(tr("Motion &Trails"));
  trailsAction_->setCheckable(true);
  trailsAction_->setToolTip(tr("Paths of the end bodies and the base (View ▸ Trails of Selected Body to choose)"));
  connect(trailsAction_, &QAction::toggled, view_, &render::SceneView::setTrailsVisible);
  menu_->addAction(tr("Trails of Selected &Body"), this, [this] {
    const int body = selection_->treeIndexOf(selection_->selectedBody());
    view_->setTrailBodies(body >= 0 ? std::vector<int>{body} : render::SceneView::defaultTrailBodies(tree_));
    trailsAction_->setChecked(true);
  });
  menu_->addAction(tr("C&lear Trails"), view_, &render::SceneView::clearTrails);
  statisticsAction_ = menu_->addAction(tr("Frame &Statistics"));
  statisticsAction_->setCheckable(true);
  statisticsAction_->setToolTip(tr("Frames per second and render time in the 3D view"));
  connect(statisticsAction_, &QAction::toggled, view_, &render::SceneView::setStatisticsVisible);

  jointFramesAction_->setChecked(settings.value(QStringLiteral("view/jointFrames"), false).toBool());
  comAction_->setChecked(settings.value(QStringLiteral("view/centresOfMass"), false).toBool());
  gridAction_->setChecked(settings.value(QStringLiteral("view/grid"), true).toBool());
  trailsAction_->setChecked(settings.value(QStringLiteral("view/trails"), false).toBool());
}

void ViewMenu::sceneRebuilt() {
  view_->setJointFramesVisible(jointFramesAction_->isChecked());
  view_->setCentresOfMassVisible(comAction_->isChecked());
  view_->setGridVisible(gridAction_->isChecked());
}

void ViewMenu::saveSettings() const {
  QSettings settings;
  settings.setValue(QStringLiteral("view/jointFrames"), jointFramesAction_->isChecked());
  settings.setValue(QStringLiteral("view/centresOfMass"), comAction_->isChecked());
  settings.setValue(QStringLiteral("view/grid"), gridAction_->isChecked());
  settings.setValue(QStringLiteral("view/trails"), trailsAction_->isChecked());
}

}  // namespace kt::ui
