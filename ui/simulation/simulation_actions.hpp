// SPDX-License-Identifier: BSD-3-Clause
// The Simulation menu and toolbar: Run, Pause, Step, Reset; the solver, integrator, step,
// tolerance, duration and speed choices. They send commands to the SimulationController and
// follow its settingsChanged() and stateChanged(); the main window places the menu and the toolbar.
#pragma once

#include <QObject>

class QAction;
class QActionGroup;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMenu;
class QToolBar;
class QWidget;

namespace kt::ui {

class SimulationController;

class SimulationActions : public QObject {
  Q_OBJECT

 public:
  /// `window`: the parent of the menu, the toolbar and the dialogs.
  SimulationActions(SimulationController* simulation, QWidget* window);

  QMenu* menu() const { return menu_; }
  QToolBar* toolBar() const { return toolBar_; }

 private:
  void createCommands();
  void createChoices();
  void createToolBarFields();
  /// The menus and fields show the controller's settings.
  void syncControls();
  /// Run, Pause, Step and Reset enabled as the controller's state allows.
  void updateActions();
  /// "applies at the next run" while the chosen settings differ from the run's.
  void updatePending();

  SimulationController* simulation_;
  QWidget* window_;
  bool syncing_ = false;
  QMenu* menu_ = nullptr;
  QToolBar* toolBar_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* resetAction_ = nullptr;
  QActionGroup* solverGroup_ = nullptr;
  QActionGroup* integratorGroup_ = nullptr;
  QActionGroup* speedGroup_ = nullptr;
  QAction* untilStoppedAction_ = nullptr;
  QComboBox* solverBox_ = nullptr;
  QComboBox* integratorBox_ = nullptr;
  QDoubleSpinBox* stepBox_ = nullptr;
  QLineEdit* toleranceEdit_ = nullptr;
  QDoubleSpinBox* durationBox_ = nullptr;
  QComboBox* speedBox_ = nullptr;
  QLabel* pendingLabel_ = nullptr;
  QAction* pendingAction_ = nullptr;
};

}  // namespace kt::ui
