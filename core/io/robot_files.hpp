// SPDX-License-Identifier: BSD-3-Clause
// A model from any file a user may name: a Kinetree model (YAML, docs/model-format.md), an MJCF
// model or a URDF robot, the last two imported as `kinetree-cli import` imports them without an
// output file (docs/mjcf.md, docs/urdf.md). Every command of kinetree-cli and the Python module's
// load read models through here, so that they take the same files.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"

namespace kt {

/// True when `path` is a URDF: named *.urdf, or its first non-space character is '<' (an MJCF
/// file is one too: ask isMjcfFile first, as readModelOrRobot does).
bool isUrdfFile(const std::string& path);

/// The model in `path`: an MJCF model (isMjcfFile; without its mesh and ellipsoid geoms, which an
/// import writes beside its output), a URDF (its package:// meshes looked for in `packagePaths`)
/// or a model file. Its warnings (file:line:col positioned) go to `warnings`. Throws
/// ModelLoadError as the reader of that format does.
Model readModelOrRobot(const std::string& path, const std::vector<std::string>& packagePaths,
                       std::vector<Diagnostic>& warnings);

}  // namespace kt
