// The joint loads in the 3D view: the View ▸ Joint Loads menu (show, selected joint only,
// reaction part only, scales and limits) and the render::LoadArrows it drives. The arrows show
// the wrenches of the sample the SimulationController shows (its load:<joint>.* columns, read by
// kt::SignalLayout::jointWrenchesFromRow), at that sample's q.
#pragma once

#include <QObject>
#include <memory>
#include <vector>

#include "core/spatial/spatial.hpp"
#include "render/load_arrows.hpp"

class QMenu;
class QWidget;

namespace kt {
struct Tree;
}

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class SimulationController;

class JointLoadView : public QObject {
  Q_OBJECT

 public:
  /// `window`: the parent of the menu and the dialogs.
  JointLoadView(SimulationController* simulation, render::SceneView* view, QWidget* window);
  ~JointLoadView() override;

  /// The View ▸ Joint Loads submenu.
  QMenu* menu() const { return menu_; }
  render::LoadArrows* arrows() const { return arrows_.get(); }

  /// A new finalized model is shown (arrows per joint, sized to the model); they show loads again
  /// once the simulation of that model has started (SimulationController::sessionStarted).
  void rebuild(const kt::Tree& tree, std::vector<kt::LoadRating> ratings = {});
  /// The selected joint (tree index, −1: none): its values are written, "selected only" draws it.
  void setSelectedJoint(int joint);

 private:
  void createMenu();
  void setOption(bool render::LoadArrowOptions::*field, bool on);
  void askValue(const QString& title, const QString& label, double render::LoadArrowOptions::*field);
  /// The shown sample's wrenches into the arrows, and a repaint.
  void update();

  SimulationController* simulation_;
  render::SceneView* view_;
  QWidget* window_;
  QMenu* menu_ = nullptr;
  std::unique_ptr<render::LoadArrows> arrows_;
  int selectedJoint_ = -1;
  bool matchesSession_ = false;   ///< the current session simulates the model the arrows were built for
  std::vector<kt::Vec6> wrench_;  ///< (nb) scratch
};

}  // namespace kt::ui
