// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/bench_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/csv.hpp"
#include "core/sim/drives.hpp"
#include "core/sim/prescribed_motion.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {

double threadSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

namespace {

constexpr double kStep = 0.002;

// ẋ = (G(q) ν, q̈) with τ from the drives and q̈ from the solver without loads: what a hand-written
// RK4 loop around a dynamics library computes, and nothing else. With prescribed motions, the
// prescribed coordinates follow them and q̈ is the hybrid dynamics', as in a run.
class BareSystem final : public OdeSystem {
 public:
  BareSystem(const Tree& tree, Solver& solver, const Drives& drives, const PrescribedMotions& motions)
      : tree_(tree), solver_(solver), drives_(drives), motions_(motions) {
    q_.setZero(tree.nq);
    v_.setZero(tree.nv);
    tau_.setZero(tree.nv);
    qdd_.setZero(tree.nv);
  }
  int stateSize() const override { return tree_.nq + tree_.nv; }
  void derivative(double t, const Eigen::VectorXd& x, Eigen::VectorXd& xdot) override {
    q_ = x.head(tree_.nq);
    v_ = x.tail(tree_.nv);
    if (motions_.empty()) {
      drives_.evaluate(t, q_, v_, tau_);
      solver_.forwardDynamics(q_, v_, tau_, {}, qdd_, nullptr);
    } else {
      motions_.apply(t, q_.data(), v_.data(), qdd_.data());
      drives_.evaluate(t, q_, v_, tau_);
      solver_.hybridDynamics(q_, v_, tau_, {}, motions_.mask(), qdd_, nullptr);
    }
    for (int i = 0; i < tree_.nb; ++i) {
      const JointModel& joint = tree_.joints[i];
      if (joint.nq > 0)
        joint.positionDerivative(q_.data() + tree_.qOffset[i], v_.data() + tree_.vOffset[i],
                                 xdot.data() + tree_.qOffset[i]);
    }
    xdot.tail(tree_.nv) = qdd_;
  }
  void normalize(Eigen::VectorXd& x) override {
    for (int i = 0; i < tree_.nb; ++i)
      if (tree_.joints[i].hasQuaternion()) tree_.joints[i].normalize(x.data() + tree_.qOffset[i]);
  }

 private:
  const Tree& tree_;
  Solver& solver_;
  const Drives& drives_;
  const PrescribedMotions& motions_;
  Eigen::VectorXd q_, v_, tau_, qdd_;
};

SimulatorOptions runOptions(const std::string& solver, bool record) {
  SimulatorOptions options;
  options.solver = solver;
  options.integrator = "rk4";
  options.step = kStep;
  options.record = record;
  // a recording run is the application's, which takes pushes and drags (the applied: signals);
  // a run that records nothing is kinetree-cli simulate's
  options.interactions = record;
  return options;
}

double bareLoop(const Simulator& reference, double duration) {
  const Tree& tree = reference.tree();
  const std::unique_ptr<Solver> solver = makeSolver(reference.options().solver, tree);
  BareSystem system(tree, *solver, reference.drives(), reference.motions());
  const std::unique_ptr<Integrator> rk4 = makeIntegrator("rk4");
  IntegratorSettings settings;
  settings.step = kStep;
  rk4->resize(system.stateSize(), settings);
  Eigen::VectorXd x(system.stateSize());
  x << reference.q(), reference.v();
  const long steps = std::lround(duration / kStep);
  const double start = threadSeconds();
  double t = 0.0;
  rk4->start(system, t, x);
  for (long k = 0; k < steps; ++k) {
    const double tEnd = static_cast<double>(k + 1) * kStep;
    if (rk4->step(system, t, x, tEnd) != StepStatus::Accepted)
      throw std::runtime_error("the bare RK4 loop stopped at t = " + std::to_string(t) + " s");
  }
  return threadSeconds() - start;
}

struct RunTimes {
  double run = 0.0;     ///< s: the run
  double derive = 0.0;  ///< s: the first read of its recording (recording runs)
};

RunTimes simulatorRun(const Model& model, const std::string& solver, double duration, bool record) {
  Simulator sim(model, runOptions(solver, record));
  // as the application does before a run (SimulationController)
  if (record) sim.recorder().reserve(static_cast<std::size_t>(std::lround(duration / kStep)) + 1);
  RunTimes times;
  const double start = threadSeconds();
  if (!sim.advanceTo(duration)) throw std::runtime_error("simulation stopped: " + sim.error());
  times.run = threadSeconds() - start;
  if (record) {
    // the first read derives every row up to the newest
    const double read = threadSeconds();
    const double last = sim.recorder().value(sim.recorder().size() - 1, sim.signalLayout().size() - 1);
    times.derive = threadSeconds() - read;
    if (!std::isfinite(last)) throw std::runtime_error("the recording's last row is not finite");
  }
  return times;
}

double csvRows(const Model& model, const std::string& solver, double duration) {
  Simulator sim(model, runOptions(solver, false));
  std::FILE* sink = std::fopen("/dev/null", "w");
  if (!sink) throw std::runtime_error("cannot open /dev/null");
  CsvWriter csv(sink);
  csv.header(sim.signalLayout().names());
  double seconds = 0.0;
  const long steps = std::lround(duration / kStep);
  for (long k = 0; k <= steps; ++k) {
    if (k > 0 && !sim.step()) throw std::runtime_error("simulation stopped: " + sim.error());
    const double start = threadSeconds();
    csv.row(sim.sample());
    seconds += threadSeconds() - start;
  }
  csv.finish();
  std::fclose(sink);
  return seconds;
}

}  // namespace

RunSplit timeRunSplit(const Model& model, const std::string& solver, double duration, int repeat) {
  const Simulator reference(model, runOptions(solver, false));
  if (reference.motions().all())
    throw std::runtime_error(
        "every joint follows a prescribed motion: the run integrates nothing (inverse dynamics "
        "at each output), so there is no RK4 loop to compare it with");
  RunSplit split;
  split.duration = duration;
  // interleaved, so that a change of clock or cache state on the machine falls on every part
  // each round's recording and streaming runs less that round's bare loop: a clock or cache
  // change between rounds falls on both terms of a difference, not on one median of each
  std::vector<double> bare, recorded, outputs, derived, streaming;
  for (int r = 0; r < repeat; ++r) {
    const double loop = bareLoop(reference, duration);
    const RunTimes run = simulatorRun(model, solver, duration, true);
    bare.push_back(loop);
    recorded.push_back(run.run);
    outputs.push_back(run.run - loop);
    derived.push_back(run.derive);
    streaming.push_back(simulatorRun(model, solver, duration, false).run - loop);
  }
  const auto mid = [](std::vector<double>& t) {
    std::nth_element(t.begin(), t.begin() + static_cast<long>(t.size() / 2), t.end());
    return t[t.size() / 2];
  };
  split.dynamics = mid(bare);
  split.recorded = mid(recorded);
  split.outputs = mid(outputs);
  split.derived = mid(derived);
  split.streaming = mid(streaming);
  split.csv = csvRows(model, solver, duration);
  return split;
}

}  // namespace kt::cli
