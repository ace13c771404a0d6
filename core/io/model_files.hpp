// SPDX-License-Identifier: BSD-3-Clause
// A model together with the files it names: the model layer's validate and finalize with its mesh
// shapes read from disk (meshFiles(), relative to Model::sourceDirectory), and the checks of a
// whole model file. The model layer itself reads no files (core/model/geometry/triangle_mesh.hpp).
#pragma once

#include <vector>

#include "core/io/mesh.hpp"
#include "core/model/tree.hpp"

namespace kt {

/// validate(model, meshFiles()).
std::vector<Diagnostic> validate(const Model& model);

/// validate(model), then the simulation: block's problems (checkSimulationSettings, core/sim),
/// at most kMaxDiagnostics in all: what the loader and the editor's problems list report.
std::vector<Diagnostic> validateWithSettings(const Model& model);

/// finalize(model, meshFiles(), tree, problems).
bool finalize(const Model& model, Tree& tree, std::vector<Diagnostic>& problems);

/// finalizeOrThrow(model, meshFiles()).
Tree finalizeOrThrow(const Model& model);

}  // namespace kt
