// SPDX-License-Identifier: BSD-3-Clause
// The main window as the window tests start it: shown, exposed, and with a model loaded.
// Header-only: only the window tests link the application's widgets.
#pragma once

#include <QSize>
#include <QString>
#include <QTest>
#include <memory>

#include "ui/files/file_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::test {

/// A main window of `size` (an invalid size: the size the window chooses itself), shown and
/// exposed; the test program stops when the window system does not expose it.
inline std::unique_ptr<ui::MainWindow> shownWindow(QSize size = QSize(1280, 800)) {
  auto w = std::make_unique<ui::MainWindow>();
  if (size.isValid()) w->resize(size);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get())) qFatal("main window not exposed");
  return w;
}

/// shownWindow() with the model file `model` loaded; the test program stops when it does not load.
inline std::unique_ptr<ui::MainWindow> openWindow(const QString& model, QSize size) {
  auto w = shownWindow(size);
  QString error;
  if (!w->files().loadModel(model, error)) qFatal("cannot load %s: %s", qPrintable(model), qPrintable(error));
  return w;
}

/// Runs the window's model for `duration` simulated seconds as fast as possible, to the end;
/// false when it has not finished within a minute.
inline bool runToEnd(ui::MainWindow& w, double duration) {
  ui::SimulationController* sim = w.simulation();
  sim->setDuration(duration);
  sim->setUntilStopped(false);
  sim->setSpeed(0.0);
  sim->run();
  return QTest::qWaitFor([&] { return sim->runState() == ui::SimulationController::RunState::Finished; }, 60000);
}

}  // namespace kt::test
