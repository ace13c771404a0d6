// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/model_files.hpp"

#include "core/sim/run_limits.hpp"

namespace kt {

std::vector<Diagnostic> validate(const Model& model) { return validate(model, meshFiles()); }

std::vector<Diagnostic> validateWithSettings(const Model& model) {
  std::vector<Diagnostic> problems = validate(model);
  appendDiagnostics(problems, checkSimulationSettings(model.simulation));
  return problems;
}

bool finalize(const Model& model, Tree& tree, std::vector<Diagnostic>& problems) {
  return finalize(model, meshFiles(), tree, problems);
}

Tree finalizeOrThrow(const Model& model) { return finalizeOrThrow(model, meshFiles()); }

}  // namespace kt
