// kinetree-cli simulate: run a model headless and write the recorded signals as CSV.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/csv.hpp"
#include "core/io/model_yaml.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {
namespace {

constexpr const char* kUsage =
    "usage: kinetree-cli simulate MODEL.yaml [--solver S] [--integrator I] [--step H] [--tolerance TOL]\n"
    "                             [--duration T] [--output FILE.csv] [--signals PATTERN,...]\n";

bool parseNumber(const std::string& option, const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(out) || !(out > 0.0)) {
    std::fprintf(stderr, "kinetree-cli simulate: %s expects a positive number, got '%s'\n", option.c_str(),
                 text.c_str());
    return false;
  }
  return true;
}

std::string knownSolvers() {
  std::string s;
  for (const SolverInfo& info : solverRegistry()) s += (s.empty() ? "" : ", ") + info.name;
  return s;
}

std::string knownIntegrators() {
  std::string s;
  for (const std::string& n : integratorNames()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

int cmdSimulate(const std::vector<std::string>& args) {
  std::string modelPath, solver, integrator, output, signalPatterns;
  double step = 0, tolerance = 0, duration = 0;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a.rfind("--", 0) != 0) {
      if (!modelPath.empty()) {
        std::fprintf(stderr, "kinetree-cli simulate: more than one model file ('%s')\n%s", a.c_str(), kUsage);
        return 2;
      }
      modelPath = a;
      continue;
    }
    // --name VALUE or --name=VALUE
    std::string name = a, value;
    if (const std::size_t eq = a.find('='); eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    } else if (k + 1 < args.size()) {
      value = args[++k];
    } else {
      std::fprintf(stderr, "kinetree-cli simulate: %s needs a value\n%s", a.c_str(), kUsage);
      return 2;
    }
    if (name == "--solver") {
      solver = value;
    } else if (name == "--integrator") {
      integrator = value;
    } else if (name == "--output" || name == "-o") {
      output = value;
    } else if (name == "--signals") {
      signalPatterns = value;
    } else if (name == "--step") {
      if (!parseNumber(name, value, step)) return 2;
    } else if (name == "--tolerance") {
      if (!parseNumber(name, value, tolerance)) return 2;
    } else if (name == "--duration") {
      if (!parseNumber(name, value, duration)) return 2;
    } else {
      std::fprintf(stderr, "kinetree-cli simulate: unknown option '%s'\n%s", name.c_str(), kUsage);
      return 2;
    }
  }
  if (modelPath.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (!solver.empty() && !isSolverName(solver)) {
    std::fprintf(stderr, "kinetree-cli simulate: unknown solver '%s' (expected one of: %s)\n", solver.c_str(),
                 knownSolvers().c_str());
    return 2;
  }
  if (!integrator.empty() && !isIntegratorName(integrator)) {
    std::fprintf(stderr, "kinetree-cli simulate: unknown integrator '%s' (expected one of: %s)\n", integrator.c_str(),
                 knownIntegrators().c_str());
    return 2;
  }

  // the model, with the validator's file:line:col diagnostics
  Model model;
  try {
    model = loadModelFromFile(modelPath);
  } catch (const ModelLoadError& e) {
    std::fputs(formatDiagnostics(e.diagnostics()).c_str(), stderr);
    return 1;
  }
  SimulatorOptions options = SimulatorOptions::fromSettings(model.simulation);
  if (!solver.empty()) options.solver = solver;
  if (!integrator.empty()) options.integrator = integrator;
  if (step > 0) options.step = step;
  if (tolerance > 0) options.tolerance = tolerance;
  if (duration <= 0) duration = model.simulation.duration;
  options.record = false;  // the CSV is streamed sample by sample

  std::unique_ptr<Simulator> sim;
  try {
    sim = std::make_unique<Simulator>(model, options);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", modelPath.c_str(), e.what());
    return 1;
  }
  std::vector<int> columns;
  std::string selectError;
  if (!selectSignals(sim->signalLayout().names(), signalPatterns, columns, selectError)) {
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", selectError.c_str());
    return 2;
  }
  // time is always the first column
  if (columns.empty() || columns.front() != 0) {
    std::erase(columns, 0);
    columns.insert(columns.begin(), 0);
  }
  std::vector<std::string> header;
  for (int c : columns) header.push_back(sim->signalLayout().names()[c]);

  // the CSV target: stdout or an atomically written file
  std::unique_ptr<CsvWriter> csv;
  try {
    csv = output.empty() ? std::make_unique<CsvWriter>(stdout) : std::make_unique<CsvWriter>(output);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", e.what());
    return 1;
  }
  csv->header(header);
  std::vector<double> row(columns.size());
  auto writeSample = [&] {
    const std::vector<double>& sample = sim->sample();
    for (std::size_t k = 0; k < columns.size(); ++k) row[k] = sample[columns[k]];
    csv->row(row);
  };

  // run: outputs at t_k = k · interval, k = 0 … ⌈duration / interval⌉
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  auto lastReport = started;
  const long outputs = static_cast<long>(std::ceil(duration / sim->outputInterval() - 1e-9));
  writeSample();
  bool diverged = false;
  for (long k = 0; k < outputs; ++k) {
    if (!sim->step()) {
      diverged = true;
      break;
    }
    writeSample();
    const auto now = Clock::now();
    if (now - lastReport > std::chrono::milliseconds(tty ? 250 : 5000) && now - started > std::chrono::seconds(1)) {
      lastReport = now;
      std::fprintf(stderr, "%ssimulate: t = %s / %s s (%.0f%%)%s", tty ? "\r" : "",
                   formatNumber(sim->time(), 6).c_str(), formatNumber(duration, 6).c_str(),
                   100.0 * static_cast<double>(k + 1) / static_cast<double>(outputs), tty ? "" : "\n");
      std::fflush(stderr);
    }
  }
  if (tty && lastReport != started) std::fputs("\n", stderr);
  try {
    csv->finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", e.what());
    return 1;
  }
  if (diverged) {
    std::fprintf(stderr, "%s: simulation stopped: %s\n", modelPath.c_str(), sim->error().c_str());
    return 1;
  }
  return 0;
}

}  // namespace kt::cli
