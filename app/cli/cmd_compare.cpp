// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli compare: how far solvers differ from the first (Liu et al. 2016 validate their CFA
// this way against a recursive algorithm, Figs. 8–12). Two ways (docs/signals.md, "Comparing
// solvers"):
//
// Pointwise (the default): one run with the first solver gives the states; every solver is
// evaluated at those same states (kt::compareAtStates): q̈ and the joint loads against the first
// solver's, and for the impulse-form solvers p, ν and ṗ against M ν, ν and d/dt (M ν). What
// differs is the solver alone. Exit 1 when a relative difference exceeds --tolerance (1e-10).
//
// Trajectory (--trajectory): every solver integrates its own run with the same integrator, step
// and duration, and q, ν and the loads are compared at each output time. Velocity-form and
// impulse-form (q, p) solvers then differ by the integrator's truncation error, so the reference
// is run again at half the step (a 32 times tighter tolerance for dopri5): that difference, the
// integrator's own, is what a solver's difference is measured against. Exit 1 when a solver
// differs by more than --tolerance (1e-9) and by more than 10 times the integrator's difference.
// Differences are relative to the largest |value| of the reference over the run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/analysis/solver_comparison.hpp"
#include "core/analysis/trajectory_comparison.hpp"
#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {
namespace {

constexpr const char* kCompareUsage =
    "usage: kinetree-cli compare MODEL.yaml [--solvers a,b,...] [--duration T] [--step H] [--integrator I]\n"
    "                            [--tolerance TOL] [--trajectory] [--digits] [--motion FILE.csv [--cutoff HZ]]\n"
    "                            [--package-path DIR]...\n";

using kt::cli::splitList;

// The output states of one run (at most kMaxStates: a longer run gives every k-th).
constexpr long kMaxStates = 100'000;

std::vector<ComparisonState> referenceStates(Simulator& sim, double duration, std::string& error) {
  const long outputs = runOutputCount(duration, sim.outputInterval());
  const long every = outputs / kMaxStates + 1;
  std::vector<ComparisonState> states;
  states.reserve(static_cast<std::size_t>(outputs / every + 1));
  const auto keep = [&] { states.push_back({sim.time(), sim.q(), sim.v(), sim.tau()}); };
  keep();
  for (long k = 1; k <= outputs; ++k) {
    if (!sim.step()) {
      error = sim.error();
      break;
    }
    if (k % every == 0) keep();
  }
  return states;
}

// A relative difference as a table cell: "%10.2e", or with `digits` as digits of agreement,
// -log10 of it (at most 16.0; "exact" for no difference).
std::string cell(const DifferenceMeasure& m, bool digits = false) {
  if (!m.measured) return "         -";
  char text[32];
  const double rel = m.rel();
  if (!digits)
    std::snprintf(text, sizeof text, "%10.2e", rel);
  else if (rel == 0.0)
    std::snprintf(text, sizeof text, "%10s", "exact");
  else if (std::isfinite(rel))
    std::snprintf(text, sizeof text, "%10.1f", std::min(16.0, -std::log10(rel)));
  else
    std::snprintf(text, sizeof text, "%10s", "none");
  return text;
}

int comparePointwise(const std::string& modelPath, const Model& model, SimulatorOptions options, double duration,
                     const std::vector<std::string>& solvers, double tolerance, bool digits) {
  options.solver = solvers.front();
  std::string error;
  std::vector<ComparisonState> states;
  std::vector<SolverDifference> rows;
  try {
    Simulator sim(model, options);
    states = referenceStates(sim, duration, error);
    rows = compareAtStates(sim.tree(), solvers, states);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", printable(modelPath).c_str(), e.what());
    return 1;
  }
  if (!error.empty())
    std::fprintf(stderr, "%s: %s: simulation stopped: %s (comparing at the states before)\n",
                 printable(modelPath).c_str(), solvers.front().c_str(), error.c_str());
  std::printf("%s: pointwise, at the %zu states of the %s run (%s, step %s s, %s s), tolerance %s\n",
              printable(modelPath).c_str(), states.size(), solvers.front().c_str(), options.integrator.c_str(),
              formatSignificant(options.step, 6).c_str(), formatSignificant(duration, 6).c_str(),
              formatSignificant(tolerance, 6).c_str());
  std::printf(
      "relative to the largest |value| over the run; qdd and loads against %s, p against M v, v against\n"
      "M^-1 p, pdot against d/dt (M v) by finite differences ('pdot FD': their estimated error; a\n"
      "difference within 10 times it is not counted)%s\n",
      solvers.front().c_str(), digits ? "; in digits of agreement, -log10 of the difference" : "");
  std::printf("%-14s %-8s %10s %10s %10s %10s %10s %10s %10s\n", "solver", "form", "qdd", "load", "p", "v", "pdot",
              "pdot FD", "us/call");
  bool failed = !error.empty();
  for (const SolverDifference& d : rows) {
    const bool bad = !(d.worst() <= tolerance);
    DifferenceMeasure fd = d.pdot;  // the reference's own error, on the same scale
    fd.abs = d.pdot.referenceError;
    std::printf("%-14s %-8s %s %s %s %s %s %s %10.2f%s\n", d.solver.c_str(), d.impulse ? "impulse" : "velocity",
                cell(d.qdd, digits).c_str(), cell(d.load, digits).c_str(), cell(d.p, digits).c_str(),
                cell(d.v, digits).c_str(), cell(d.pdot, digits).c_str(), cell(fd, digits).c_str(),
                1e6 * d.secondsPerCall, bad ? "  EXCEEDS TOLERANCE" : "");
    failed = failed || bad;
  }
  std::fflush(stdout);
  return failed ? 1 : 0;
}

}  // namespace

int cmdCompare(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  if (!parseArgs("compare", kCompareUsage, args,
                 {{"--solvers"},
                  {"--integrator"},
                  {"--duration"},
                  {"--step"},
                  {"--tolerance"},
                  {"--trajectory", false},
                  {"--digits", false},
                  {"--motion"},
                  {"--cutoff"},
                  packagePathSpec()},
                 parsed))
    return 2;
  std::string modelPath;
  if (!singleModelFile("compare", kCompareUsage, parsed, modelPath)) return 2;
  std::string solverList, integrator;
  double duration = 0, step = 0, tolerance = 0;
  bool trajectory = false, digits = false;
  RunChoices motion;  // --motion and --cutoff
  for (const auto& [name, value] : parsed.options) {
    bool taken = false;
    if ((name == "--motion" || name == "--cutoff") && !takeRunOption("compare", name, value, motion, taken)) return 2;
    if (name == "--trajectory") trajectory = true;
    if (name == "--digits") digits = true;
    if (name == "--solvers") {
      solverList = value;
    } else if (name == "--integrator") {
      integrator = value;
    } else if (name == "--duration") {
      if (!parsePositive("compare", name, value, duration)) return 2;
    } else if (name == "--step") {
      if (!parsePositive("compare", name, value, step)) return 2;
    } else if (name == "--tolerance") {
      if (!parsePositive("compare", name, value, tolerance)) return 2;
    }
  }
  if (modelPath.empty()) {
    std::fprintf(stderr, "kinetree-cli compare: the model file name is empty ('')\n%s", kCompareUsage);
    return 2;
  }
  if (!(tolerance > 0.0)) tolerance = trajectory ? kTrajectoryTolerance : kPointwiseTolerance;
  std::vector<std::string> solvers = splitList(solverList);
  if (solvers.empty())  // every solver, the recursive reference first
    for (const SolverInfo& info : solverRegistry()) solvers.push_back(info.name);
  for (const std::string& s : solvers)
    if (!isSolverName(s)) {
      std::string known;
      for (const SolverInfo& info : solverRegistry()) known += (known.empty() ? "" : ", ") + info.name;
      std::fprintf(stderr, "kinetree-cli compare: unknown solver '%s' (expected one of: %s)\n", s.c_str(),
                   known.c_str());
      return 2;
    }
  if (!integrator.empty() && !isIntegratorName(integrator)) {
    std::fprintf(stderr, "kinetree-cli compare: unknown integrator '%s'\n", integrator.c_str());
    return 2;
  }

  Model model;
  if (!loadModel(modelPath, model, packagePathsOf(parsed))) return 1;
  if (!applyMotionChoice("compare", motion, model)) return motion.motion.empty() ? 2 : 1;
  // Prescribed motions: the reference run needs a solver that computes them (aba, the default
  // first, does); pointwise, every solver is then compared at its states with the required
  // efforts as τ, and trajectories by default compare the solvers that can run such a model.
  const bool prescribed = std::any_of(model.bodies.begin(), model.bodies.end(),
                                      [](const BodySpec& b) { return b.joint.motion.type != MotionType::None; });
  if (prescribed && solverList.empty() && trajectory) solvers = hybridSolverNames();
  SimulatorOptions options = SimulatorOptions::fromSettings(model.simulation);
  if (!integrator.empty()) options.integrator = integrator;
  if (step > 0) options.step = step;
  const bool durationGiven = duration > 0;
  if (!durationGiven) duration = model.simulation.duration;
  options.record = false;
  // what cannot run is refused before any solver starts (--tolerance here is the comparison's)
  if (!checkRunOptions("compare", modelPath, options.step, step > 0, duration, durationGiven, options.tolerance, false))
    return 2;
  if (prescribed) {
    // tables are read, and a run past their end refused, before any solver starts
    try {
      SimulatorOptions probe = options;
      probe.solver = solvers.front();
      const Simulator sim(model, probe);
      if (!checkTableEnd("compare", sim, duration, durationGiven)) return 2;
    } catch (const TableError& e) {
      std::fprintf(stderr, "%s\n", printable(e.what()).c_str());
      return 1;
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "%s: %s\n", printable(modelPath).c_str(), e.what());
      return 1;
    }
  }

  if (!trajectory) return comparePointwise(modelPath, model, options, duration, solvers, tolerance, digits);

  // trajectory: each solver its own run; the reference again with a finer integration
  // (kt::integratorCheckOptions) measures the integrator's own difference
  const bool adaptive = makeIntegrator(options.integrator)->adaptive();
  std::printf("%s: trajectories, integrator %s, step %s s, duration %s s, tolerance %s\n", printable(modelPath).c_str(),
              options.integrator.c_str(), formatSignificant(options.step, 6).c_str(),
              formatSignificant(duration, 6).c_str(), formatSignificant(tolerance, 6).c_str());
  std::printf(
      "relative to the largest |value| of %s's run; 'x integrator': the solver's difference divided by the\n"
      "integrator's own (the first solver run again with the finer integration)%s\n",
      solvers.front().c_str(), digits ? "; q, qd and load in digits of agreement" : "");
  std::printf("%-22s %10s %10s %10s %14s %10s\n", "solver", "q", "qd", "load", "x integrator", "us/step");

  bool failed = false;
  ComparedRun reference;
  double integratorDifference = 0.0;
  for (std::size_t k = 0; k < solvers.size(); ++k) {
    options.solver = solvers[k];
    ComparedRun run;
    try {
      run = runForComparison(model, options, duration);
      if (k == 0) {
        const ComparedRun fine = runForComparison(model, integratorCheckOptions(options), duration);
        const TrajectoryDifference d =
            trajectoryDifference(fine.sim->recorder(), run.sim->recorder(), run.sim->signalLayout());
        integratorDifference = d.worst();
        std::printf("%-14s %-7s %s %s %s %14s %10.2f\n", solvers[k].c_str(), "(ref)", cell(DifferenceMeasure{}).c_str(),
                    cell(DifferenceMeasure{}).c_str(), cell(DifferenceMeasure{}).c_str(), "", 1e6 * run.secondsPerStep);
        std::printf("%-22s %s %s %s %14s\n", (adaptive ? "integrator (tol/32)" : "integrator (h/2)"),
                    cell(d.q, digits).c_str(), cell(d.v, digits).c_str(), cell(d.load, digits).c_str(), "1");
      }
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "%s: %s\n", printable(modelPath).c_str(), e.what());
      return 1;
    }
    if (!run.error.empty()) {
      std::fprintf(stderr, "%s: %s: simulation stopped: %s\n", printable(modelPath).c_str(), solvers[k].c_str(),
                   run.error.c_str());
      failed = true;
    }
    if (k == 0) {
      reference = std::move(run);
      continue;
    }
    const TrajectoryDifference d =
        trajectoryDifference(run.sim->recorder(), reference.sim->recorder(), reference.sim->signalLayout());
    const double ratio = integratorDifference > 0.0 ? d.worst() / integratorDifference : 0.0;
    const bool bad = !trajectoryAgrees(d.worst(), integratorDifference, tolerance);
    std::printf("%-22s %s %s %s %14.2e %10.2f%s\n", solvers[k].c_str(), cell(d.q, digits).c_str(),
                cell(d.v, digits).c_str(), cell(d.load, digits).c_str(), ratio, 1e6 * run.secondsPerStep,
                bad ? "  EXCEEDS TOLERANCE" : "");
    failed = failed || bad;
  }
  std::fflush(stdout);
  return failed ? 1 : 0;
}

}  // namespace kt::cli
