// SPDX-License-Identifier: BSD-3-Clause
#include "core/analysis/trajectory_comparison.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/sim/run_limits.hpp"

namespace kt {

std::string ComparedRun::label() const {
  std::string text = solver + " · " + integrator;
  if (integratorCheck) text += adaptive ? ", tol/32" : ", h/2";
  return text;
}

SimulatorOptions integratorCheckOptions(const SimulatorOptions& options) {
  SimulatorOptions finer = options;
  finer.outputInterval = options.outputInterval > 0.0 ? options.outputInterval : options.step;
  if (makeIntegrator(options.integrator)->adaptive()) {
    finer.tolerance = options.tolerance / 32.0;
    if (options.absTolerance > 0.0) finer.absTolerance = options.absTolerance / 32.0;
  } else {
    finer.step = options.step / 2.0;
  }
  return finer;
}

ComparedRun runForComparison(const Model& model, const SimulatorOptions& options, double duration,
                             const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  ComparedRun run;
  run.solver = options.solver;
  run.integrator = options.integrator;
  SimulatorOptions recorded = options;
  recorded.record = true;
  recorded.deriveWorldLoads = false;  // every solver's step computes the same outputs
  run.sim = std::make_unique<Simulator>(model, recorded);
  Simulator& sim = *run.sim;
  run.adaptive = sim.integrator().adaptive();
  const long steps = runOutputCount(duration, sim.outputInterval());
  sim.recorder().reserve(static_cast<std::size_t>(std::min(steps, 1L << 22)) + 1);
  double seconds = 0.0;
  long taken = 0;
  for (; taken < steps; ++taken) {
    if (stop && stop->load(std::memory_order_relaxed)) {
      run.error = "cancelled";
      break;
    }
    const auto t0 = Clock::now();
    const bool ok = sim.step();
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!ok) {
      run.error = sim.error();
      break;
    }
  }
  run.secondsPerStep = seconds / static_cast<double>(std::max(1L, taken));
  return run;
}

TrajectoryDifference trajectoryDifference(const Recorder& run, const Recorder& reference, const SignalLayout& layout) {
  std::vector<int> q, v, load;
  for (int c = 0; c < layout.size(); ++c) {
    const SignalKind kind = layout.infos()[static_cast<std::size_t>(c)].kind;
    if (kind == SignalKind::Q) q.push_back(c);
    if (kind == SignalKind::Qd) v.push_back(c);
    if (kind == SignalKind::Load) load.push_back(c);
  }
  TrajectoryDifference d;
  const std::size_t rows = std::min(run.size(), reference.size());
  std::vector<double> a(static_cast<std::size_t>(run.width())), b(a.size());
  Eigen::VectorXd x, y;
  const auto add = [&](DifferenceMeasure& m, const std::vector<int>& columns) {
    x.resize(static_cast<Eigen::Index>(columns.size()));
    y.resize(x.size());
    for (std::size_t k = 0; k < columns.size(); ++k) {
      x[static_cast<Eigen::Index>(k)] = a[static_cast<std::size_t>(columns[k])];
      y[static_cast<Eigen::Index>(k)] = b[static_cast<std::size_t>(columns[k])];
    }
    m.add(x, y);
  };
  for (std::size_t r = 0; r < rows; ++r) {
    run.copyRows(r, r + 1, a.data());
    reference.copyRows(r, r + 1, b.data());
    add(d.q, q);
    add(d.v, v);
    add(d.load, load);
  }
  return d;
}

void signalDifference(const Recorder& run, const Recorder& reference, int column, std::vector<double>& t,
                      std::vector<double>& difference) {
  const std::size_t rows = std::min(run.size(), reference.size());
  t.resize(rows);
  difference.resize(rows);
  reference.copyColumn(0, 0, rows, t.data());
  reference.copyColumn(column, 0, rows, difference.data());
  std::vector<double> a(rows);
  run.copyColumn(column, 0, rows, a.data());
  for (std::size_t r = 0; r < rows; ++r) difference[r] = std::abs(a[r] - difference[r]);
}

}  // namespace kt
