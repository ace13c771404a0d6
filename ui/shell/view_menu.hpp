// SPDX-License-Identifier: BSD-3-Clause
// The View menu's part for the 3D view: reset and standard views, joint frames, centres of mass,
// grid, following a body, motion trails and frame statistics, with their settings kept in
// QSettings (view/…). The docks add their own toggles after it (MainWindow).
#pragma once

#include <QObject>

#include "core/model/tree.hpp"

class QAction;
class QMainWindow;
class QMenu;

namespace kt::render {
class SceneView;
}

namespace kt::ui {

class Selection;

class ViewMenu : public QObject {
  Q_OBJECT

 public:
  /// Adds the View menu to `window`'s menu bar, with the settings of the last session. `tree`: the
  /// model the view shows (its floating base is the one to follow), owned by the window.
  ViewMenu(render::SceneView* view, Selection* selection, const kt::Tree& tree, QMainWindow* window);

  QMenu* menu() const { return menu_; }
  /// Applies the menu's options to a scene just built (a new scene starts without them).
  void sceneRebuilt();
  /// Keeps the view options for the next start.
  void saveSettings() const;

 private:
  render::SceneView* view_;
  Selection* selection_;
  QMainWindow* window_;
  QMenu* menu_ = nullptr;
  const kt::Tree& tree_;
  QAction* jointFramesAction_ = nullptr;
  QAction* comAction_ = nullptr;
  QAction* gridAction_ = nullptr;
  QAction* followAction_ = nullptr;
  QAction* trailsAction_ = nullptr;
  QAction* statisticsAction_ = nullptr;
};

}  // namespace kt::ui
