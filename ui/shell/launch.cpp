// SPDX-License-Identifier: BSD-3-Clause
#include "ui/shell/launch.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <string_view>

#include "core/version.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

void setApplicationIdentity() {
  QCoreApplication::setOrganizationName(QStringLiteral("Kinetree"));
  QCoreApplication::setApplicationName(QStringLiteral("Kinetree"));
  QCoreApplication::setApplicationVersion(QString::fromLatin1(kt::kVersion));
}

bool asksForTextOnly(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") break;
    for (std::string_view option : {"-h", "-?", "--help", "-help", "--help-all", "-V", "--version", "-version"})
      if (a == option) return true;
  }
  return false;
}

bool applyRunChoices(SimulationController& controller, const RunChoices& choices) {
  if (!choices.solver.isEmpty()) controller.setSolver(choices.solver);
  if (!choices.integrator.isEmpty()) controller.setIntegrator(choices.integrator);
  if (!choices.step.isEmpty()) {
    bool ok = false;
    const double h = choices.step.toDouble(&ok);
    if (!ok || !(h > 0.0)) {
      std::fprintf(stderr, "kinetree: --step needs seconds > 0\n");
      return false;
    }
    controller.setStepSize(h);
  }
  return true;
}

void applyViewChoices(MainWindow& window, const ViewChoices& choices) {
  render::SceneView* view = window.sceneView();
  if (choices.follow) view->setFollowBody(render::SceneView::defaultFollowBody(view->scene().tree()));
  if (choices.trails) view->setTrailsVisible(true);
  if (choices.statistics) view->setStatisticsVisible(true);
  if (choices.loads) window.jointLoadView()->setArrowsVisible(true);
  if (choices.plots) window.plotsDock()->show();
}

QCommandLineOption commandLineOption(const char* name, const char* help, const char* value) {
  QCommandLineOption o(QString::fromLatin1(name), QString::fromUtf8(help));
  if (value) o.setValueName(QString::fromLatin1(value));
  return o;
}

void RunAndViewOptions::addTo(QCommandLineParser& parser) const {
  parser.addOptions({solver, integrator, step, follow, trails, statistics, loads, plots});
}

RunChoices RunAndViewOptions::runChoices(const QCommandLineParser& parser) const {
  return {parser.value(solver), parser.value(integrator), parser.value(step)};
}

ViewChoices RunAndViewOptions::viewChoices(const QCommandLineParser& parser) const {
  return {parser.isSet(follow), parser.isSet(trails), parser.isSet(statistics), parser.isSet(loads),
          parser.isSet(plots)};
}

}  // namespace kt::ui
