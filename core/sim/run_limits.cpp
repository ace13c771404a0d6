// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/run_limits.hpp"

#include <algorithm>
#include <cmath>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/model/text_util.hpp"
#include "core/model/tree.hpp"
#include "core/sim/drives.hpp"
#include "core/sim/prescribed_motion.hpp"

namespace kt {

std::vector<RunSettingsIssue> checkRunSettings(double step, double duration, double tolerance) {
  std::vector<RunSettingsIssue> out;
  // finite and positive (the messages of the validator's other positive numbers)
  const auto positive = [&](const char* field, double x) {
    if (!std::isfinite(x)) {
      out.push_back({field, "must be a finite number, got " + formatRoundTrip(x)});
      return false;
    }
    if (!(x > 0.0)) {
      out.push_back({field, "must be > 0, got " + formatRoundTrip(x)});
      return false;
    }
    return true;
  };
  const bool stepOk = positive("step", step);
  const bool durationOk = positive("duration", duration);
  if (positive("tolerance", tolerance)) {
    if (tolerance >= 1.0)
      out.push_back(
          {"tolerance", "must be < 1 (a relative tolerance such as 1e-8), got " + formatRoundTrip(tolerance)});
    else if (tolerance < kMinRunTolerance)
      out.push_back({"tolerance", "must be at least " + formatRoundTrip(kMinRunTolerance) +
                                      " (smaller relative errors are below the rounding of a double), got " +
                                      formatRoundTrip(tolerance)});
  }
  if (stepOk && step < kMinRunStep) {
    out.push_back({"step", "must be at least " + formatRoundTrip(kMinRunStep) + " s, got " + formatRoundTrip(step)});
    return out;
  }
  if (!stepOk || !durationOk) return out;
  if (step > duration) {
    out.push_back({"step", "the step (" + formatRoundTrip(step) + " s) is longer than the duration (" +
                               formatRoundTrip(duration) + " s); expected a step of at most the duration"});
    return out;
  }
  const double outputs = std::ceil(duration / step - 1e-9);
  if (!(outputs <= kMaxRunOutputs))
    out.push_back({"duration", "a run of " + formatRoundTrip(duration) + " s at a step of " + formatRoundTrip(step) +
                                   " s has " +
                                   (std::isfinite(outputs) ? formatRoundTrip(outputs) : std::string("too many")) +
                                   " output steps; expected at most " + formatRoundTrip(kMaxRunOutputs) +
                                   " (a shorter duration or a longer step)"});
  return out;
}

std::vector<Diagnostic> checkSimulationSettings(const SimulationSettings& s) {
  std::vector<Diagnostic> out;
  const auto error = [&](const std::string& field, const std::string& message) {
    Diagnostic d;
    d.path = "simulation." + field;
    d.message = message;
    out.push_back(std::move(d));
  };
  const auto unknown = [&](const char* field, const char* what, const std::string& name,
                           const std::vector<std::string>& names) {
    const std::string near = closestMatch(name, names);
    error(field, std::string("unknown ") + what + " '" + name + "'; expected one of: " + joinNames(names) +
                     (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
  };
  if (!isSolverName(s.solver)) {
    std::vector<std::string> names;
    for (const SolverInfo& info : solverRegistry()) names.push_back(info.name);
    unknown("solver", "solver", s.solver, names);
  }
  if (!isIntegratorName(s.integrator)) unknown("integrator", "integrator", s.integrator, integratorNames());
  for (const RunSettingsIssue& issue : checkRunSettings(s.step, s.duration, s.tolerance))
    error(issue.field, issue.message);
  return out;
}

long runOutputCount(double duration, double interval) {
  return static_cast<long>(std::ceil(duration / interval - 1e-9));
}

bool outputsWithin(double duration, double interval, double tableEnd) {
  if (!std::isfinite(tableEnd)) return true;
  const double last = static_cast<double>(runOutputCount(duration, interval)) * interval;
  return last <= tableEnd + 1e-9 * std::max(1.0, tableEnd);
}

bool readsTables(const Model& model) {
  for (const BodySpec& b : model.bodies)
    if (b.joint.motion.type == MotionType::Table || b.joint.drive.type == DriveType::Table) return true;
  return false;
}

std::vector<Diagnostic> checkRunTables(const Model& model, const Tree& tree) {
  if (!readsTables(model)) return {};
  try {
    MotionTables tables(model.sourceDirectory);
    const Drives drives(model, tree, &tables);
    const PrescribedMotions motions(model, tree, tables);
  } catch (const TableError& e) {
    return {e.diagnostic()};
  } catch (const std::invalid_argument& e) {
    Diagnostic d;
    d.message = e.what();
    return {d};
  }
  return {};
}

}  // namespace kt
