#include "core/sim/run_limits.hpp"

#include <cmath>

#include "core/model/text_util.hpp"

namespace kt {

std::vector<RunSettingsIssue> checkRunSettings(double step, double duration, double tolerance) {
  std::vector<RunSettingsIssue> out;
  // finite and positive (the messages of the validator's other positive numbers)
  const auto positive = [&](const char* field, double x) {
    if (!std::isfinite(x)) {
      out.push_back({field, "must be a finite number, got " + formatNumber(x)});
      return false;
    }
    if (!(x > 0.0)) {
      out.push_back({field, "must be > 0, got " + formatNumber(x)});
      return false;
    }
    return true;
  };
  const bool stepOk = positive("step", step);
  const bool durationOk = positive("duration", duration);
  if (positive("tolerance", tolerance)) {
    if (tolerance >= 1.0)
      out.push_back({"tolerance", "must be < 1 (a relative tolerance such as 1e-8), got " + formatNumber(tolerance)});
    else if (tolerance < kMinRunTolerance)
      out.push_back({"tolerance", "must be at least " + formatNumber(kMinRunTolerance) +
                                      " (smaller relative errors are below the rounding of a double), got " +
                                      formatNumber(tolerance)});
  }
  if (stepOk && step < kMinRunStep) {
    out.push_back({"step", "must be at least " + formatNumber(kMinRunStep) + " s, got " + formatNumber(step)});
    return out;
  }
  if (!stepOk || !durationOk) return out;
  if (step > duration) {
    out.push_back({"step", "the step (" + formatNumber(step) + " s) is longer than the duration (" +
                               formatNumber(duration) + " s); expected a step of at most the duration"});
    return out;
  }
  const double outputs = std::ceil(duration / step - 1e-9);
  if (!(outputs <= kMaxRunOutputs))
    out.push_back({"duration", "a run of " + formatNumber(duration) + " s at a step of " + formatNumber(step) +
                                   " s has " +
                                   (std::isfinite(outputs) ? formatNumber(outputs) : std::string("too many")) +
                                   " output steps; expected at most " + formatNumber(kMaxRunOutputs) +
                                   " (a shorter duration or a longer step)"});
  return out;
}

long runOutputCount(double duration, double interval) {
  return static_cast<long>(std::ceil(duration / interval - 1e-9));
}

}  // namespace kt
