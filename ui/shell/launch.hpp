// SPDX-License-Identifier: BSD-3-Clause
// Starting the application from a command line: its identity (for QSettings and the desktop),
// the requests that need no display (--help, --version), and the choices a command line makes for
// the window once a model is open (the solver, integrator and step of the next run; the view
// options). Shared by `kinetree` (app/gui) and the measurement tool (tools/measure).
#pragma once

#include <QCommandLineOption>
#include <QString>

class QCommandLineParser;

namespace kt::ui {

class MainWindow;
class SimulationController;

/// Organization, application name and version, as QSettings and the About box read them.
void setApplicationIdentity();

/// True when the command line asks only for text (--help, --version): that needs no display, and
/// creating the QApplication first would abort where there is none.
bool asksForTextOnly(int argc, char* argv[]);

/// --solver, --integrator, --step (empty: the model's): they apply at the next Run. False, with
/// the reason on stderr, for a step that is not a number of seconds > 0.
struct RunChoices {
  QString solver, integrator, step;
};
bool applyRunChoices(SimulationController& controller, const RunChoices& choices);

/// --follow, --trails, --statistics, --loads, --plots: the view options, once a model is open.
struct ViewChoices {
  bool follow = false, trails = false, statistics = false, loads = false, plots = false;
};
void applyViewChoices(MainWindow& window, const ViewChoices& choices);

/// A command-line option: its name, its help, and the name of its value when it takes one.
QCommandLineOption commandLineOption(const char* name, const char* help, const char* value = nullptr);

/// The options every front end of the window takes: the run's solver, integrator and step, and
/// the view options.
struct RunAndViewOptions {
  QCommandLineOption solver = commandLineOption("solver", "The solver of the run.", "name");
  QCommandLineOption integrator = commandLineOption("integrator", "The integrator of the run.", "name");
  QCommandLineOption step = commandLineOption("step", "The step (s) of the run.", "seconds");
  QCommandLineOption follow = commandLineOption("follow", "Follow the floating base.");
  QCommandLineOption trails = commandLineOption("trails", "Show the motion trails.");
  QCommandLineOption statistics = commandLineOption("statistics", "Show the frame statistics in the 3D view.");
  QCommandLineOption loads = commandLineOption("loads", "Show the joint load arrows.");
  QCommandLineOption plots =
      commandLineOption("plots", "Show the plots dock (with --video: the panes beside the view).");

  void addTo(QCommandLineParser& parser) const;
  RunChoices runChoices(const QCommandLineParser& parser) const;
  ViewChoices viewChoices(const QCommandLineParser& parser) const;
};

}  // namespace kt::ui
