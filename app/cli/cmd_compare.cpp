// kinetree-cli compare: the same simulation with several solvers, and how far each strays from the
// first (Liu et al. 2016 validate their CFA this way against a recursive algorithm, Figs. 8–12).
//
// Every solver runs the model from its initial state with the same integrator, step and duration.
// At each output time the differences to the first solver's run are measured for q, ν (qd) and
// the joint loads f (all joints, 6 components each):
//   absolute ‖a − b‖∞,   relative ‖a − b‖∞ / max(‖b‖∞, 1),
// and the largest over the run is reported. Exit 1 when a relative difference exceeds --tolerance.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {
namespace {

constexpr const char* kUsage =
    "usage: kinetree-cli compare MODEL.yaml [--solvers a,b,...] [--duration T] [--step H] [--integrator I]\n"
    "                            [--tolerance TOL]\n";

using Clock = std::chrono::steady_clock;

using kt::cli::splitList;

// One output of a run: q, ν and the joint wrenches, flattened.
struct Snapshot {
  std::vector<double> q, v, load;
};

Snapshot snapshot(const Simulator& sim) {
  Snapshot s;
  s.q.assign(sim.q().data(), sim.q().data() + sim.q().size());
  s.v.assign(sim.v().data(), sim.v().data() + sim.v().size());
  for (const Vec6& f : sim.loads().f) s.load.insert(s.load.end(), f.data(), f.data() + 6);
  return s;
}

struct Difference {
  double abs = 0.0, rel = 0.0;
  void add(const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0.0, ref = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      d = std::max(d, std::abs(a[k] - b[k]));
      ref = std::max(ref, std::abs(b[k]));
    }
    abs = std::max(abs, d);
    rel = std::max(rel, d / std::max(ref, 1.0));
  }
};

struct Run {
  std::vector<Snapshot> outputs;
  double secondsPerStep = 0.0;
  std::string error;
};

Run runModel(const Model& model, const SimulatorOptions& options, double duration) {
  Run run;
  Simulator sim(model, options);
  const long steps = runOutputCount(duration, sim.outputInterval());
  // reserved up to a million outputs; a longer run grows the list as it goes
  run.outputs.reserve(static_cast<std::size_t>(std::min(steps, 1L << 20)) + 1);
  run.outputs.push_back(snapshot(sim));
  double seconds = 0.0;
  for (long k = 0; k < steps; ++k) {
    const auto t0 = Clock::now();
    const bool ok = sim.step();
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!ok) {
      run.error = sim.error();
      break;
    }
    run.outputs.push_back(snapshot(sim));
  }
  run.secondsPerStep = seconds / static_cast<double>(std::max(1L, steps));
  return run;
}

}  // namespace

int cmdCompare(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  if (!parseArgs("compare", kUsage, args,
                 {{"--solvers"}, {"--integrator"}, {"--duration"}, {"--step"}, {"--tolerance"}}, parsed))
    return 2;
  std::string modelPath;
  if (!singleModelFile("compare", kUsage, parsed, modelPath)) return 2;
  std::string solverList, integrator;
  double duration = 0, step = 0, tolerance = 1e-9;
  for (const auto& [name, value] : parsed.options) {
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
    std::fprintf(stderr, "kinetree-cli compare: the model file name is empty ('')\n%s", kUsage);
    return 2;
  }
  std::vector<std::string> solvers = splitList(solverList);
  // default: every velocity-form solver. Impulse-form solvers integrate (q, p) instead of (q, ν),
  // so they differ from the others by the integrator's truncation error; they can be listed.
  if (solvers.empty())
    for (const SolverInfo& info : solverRegistry())
      if (info.form == StateForm::Velocity) solvers.push_back(info.name);
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
  if (!loadModel(modelPath, model)) return 1;
  SimulatorOptions options = SimulatorOptions::fromSettings(model.simulation);
  if (!integrator.empty()) options.integrator = integrator;
  if (step > 0) options.step = step;
  const bool durationGiven = duration > 0;
  if (!durationGiven) duration = model.simulation.duration;
  options.record = false;
  // what cannot run is refused before any solver starts (--tolerance here is the comparison's)
  if (!checkRunOptions("compare", modelPath, options.step, step > 0, duration, durationGiven, options.tolerance, false))
    return 2;

  std::printf("%s: integrator %s, step %s s, duration %s s, tolerance %s (relative)\n", printable(modelPath).c_str(),
              options.integrator.c_str(), formatSignificant(options.step, 6).c_str(),
              formatSignificant(duration, 6).c_str(), formatSignificant(tolerance, 6).c_str());
  std::printf("%-14s %11s %11s %11s %11s %11s %11s %12s\n", "solver", "q abs", "q rel", "qd abs", "qd rel", "load abs",
              "load rel", "us/step");

  bool failed = false;
  Run reference;
  for (std::size_t k = 0; k < solvers.size(); ++k) {
    options.solver = solvers[k];
    Run run;
    try {
      run = runModel(model, options, duration);
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
      std::printf("%-14s %11s %11s %11s %11s %11s %11s %12.2f\n", solvers[k].c_str(), "(reference)", "", "", "", "", "",
                  1e6 * run.secondsPerStep);
      reference = std::move(run);
      continue;
    }
    Difference dq, dv, dload;
    const std::size_t n = std::min(run.outputs.size(), reference.outputs.size());
    for (std::size_t s = 0; s < n; ++s) {
      dq.add(run.outputs[s].q, reference.outputs[s].q);
      dv.add(run.outputs[s].v, reference.outputs[s].v);
      dload.add(run.outputs[s].load, reference.outputs[s].load);
    }
    const bool bad = !(dq.rel <= tolerance && dv.rel <= tolerance && dload.rel <= tolerance);
    std::printf("%-14s %11.3e %11.3e %11.3e %11.3e %11.3e %11.3e %12.2f%s\n", solvers[k].c_str(), dq.abs, dq.rel,
                dv.abs, dv.rel, dload.abs, dload.rel, 1e6 * run.secondsPerStep, bad ? "  EXCEEDS TOLERANCE" : "");
    failed = failed || bad;
  }
  std::fflush(stdout);
  return failed ? 1 : 0;
}

}  // namespace kt::cli
