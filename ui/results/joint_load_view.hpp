// SPDX-License-Identifier: BSD-3-Clause
// The joint loads in the 3D view: the View ▸ Joint Loads menu (show, selected joint only,
// constraint forces or whole wrench, joint frame or world axes for the values, scales, limits,
// dead band) and the render::LoadArrows it drives. The arrows show the loads of the sample the
// SimulationController shows (its load:, load_world: and reaction: columns, read by
// kt::SignalLayout::loadsFromRow), at that sample's poses; their automatic scale and dead band
// follow the largest load of the recording (RunResults::loadScale), so that scrubbing and a video
// of the run (VideoExport) keep one scale. What they show and in which frame is shared with the
// plots' loads pane (loadViewChanged).
#pragma once

#include <QObject>
#include <memory>
#include <vector>

#include "core/results/peak_loads.hpp"
#include "core/results/signals.hpp"
#include "core/spatial/spatial.hpp"
#include "render/overlays/load_arrows.hpp"

class QAction;
class QMenu;
class QWidget;

namespace kt {
struct Tree;
}

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class RunResults;
class SimulationController;

class JointLoadView : public QObject {
  Q_OBJECT

 public:
  /// `window`: the parent of the menu and the dialogs.
  JointLoadView(SimulationController* simulation, RunResults* results, render::SceneView* view, QWidget* window);
  ~JointLoadView() override;

  /// The View ▸ Joint Loads submenu.
  QMenu* menu() const { return menu_; }
  render::LoadArrows* arrows() const { return arrows_.get(); }

  /// A new finalized model is shown (arrows per joint, sized to the model); they show loads again
  /// once the simulation of that model has started (SimulationController::sessionStarted).
  /// `edited`: the model was edited, and a run of the same joints that is kept draws at the size
  /// the model had when it started, so that its arrows keep their lengths.
  void rebuild(const kt::Tree& tree, std::vector<kt::LoadRating> ratings = {}, bool edited = false);
  /// Shows or hides the arrows, as View ▸ Joint Loads ▸ Show Load Arrows does.
  void setArrowsVisible(bool on);
  /// The selected joint (tree index, −1: none): its values are written, "selected only" draws it.
  void setSelectedJoint(int joint);

 signals:
  /// The arrows show the constraint forces (reaction part) or the whole wrench, and their values
  /// are written in world axes or the joint frame: the loads pane shows the same.
  void loadViewChanged(bool reactionOnly, bool worldAxes);

 private:
  void createMenu();
  void setOption(bool render::LoadArrowOptions::*field, bool on);
  void askValue(const QString& title, const QString& label, double render::LoadArrowOptions::*field);
  /// The shown sample's wrenches into the arrows, and a repaint.
  void update();
  /// The largest force and moment of the recording so far, for the arrows' scale.
  void updateReference();

  SimulationController* simulation_;
  RunResults* results_;
  render::SceneView* view_;
  QWidget* window_;
  QMenu* menu_ = nullptr;
  QAction* showAction_ = nullptr;
  std::unique_ptr<render::LoadArrows> arrows_;
  int selectedJoint_ = -1;
  bool matchesSession_ = false;            ///< the current session simulates the model the arrows were built for
  double sessionLength_ = 0.0;             ///< the model's size when the session started: its arrows' lengths
  kt::SignalLayout::RecordedLoads loads_;  ///< the shown sample's (scratch)
};

}  // namespace kt::ui
