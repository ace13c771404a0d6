// SPDX-License-Identifier: BSD-3-Clause
// URDF in and out (docs/urdf.md). Import reads the file with the field's own parser, liburdfdom,
// and maps links and joints onto bodies (a body per link, its joint the link's joint to its
// parent): revolute, continuous, prismatic, fixed, floating and planar joints; inertials; box,
// cylinder, sphere and mesh visuals with their colours. Problems are reported with the URDF
// file's line and column. Export writes a model whose joints URDF can express.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"

namespace kt {

struct UrdfImportOptions {
  /// The root link moves freely (a free joint to the world) instead of being fixed to it. When
  /// the root link is `world`, its children that are fixed to it become free instead.
  bool floatingBase = false;
  /// Merge every link on a fixed joint into its parent (lumped inertia, shapes kept). By default
  /// fixed joints stay (their reactions are loads users want); only massless links are merged.
  bool mergeFixed = false;
  /// Refuse inertias that are not physical, as the model checks do, instead of repairing them: by
  /// default a link on a fixed joint whose inertia is not physical (a point mass) is merged into
  /// its parent, and any other link's is replaced by the nearest physical one, each with a warning
  /// (core/model/geometry/physical_inertia.hpp, docs/urdf.md "Repairs").
  bool strict = false;
  /// kg/m³; > 0: a link without an <inertial> gets the mass properties of its shapes (visuals, else
  /// collision geometry) at this density, with a warning per link. 0: it has no mass (merged when
  /// fixed, an error when it moves).
  double density = 0.0;
  /// Directories searched for `package://NAME/...` meshes: DIR/NAME/..., or DIR itself when its
  /// name is NAME. After them, the URDF file's directory and its ancestors are searched the same way.
  std::vector<std::string> packagePaths;
  /// Mesh paths in the model are written relative to this directory (where the model will be
  /// saved); empty: absolute paths.
  std::string meshBaseDirectory;
};

/// An imported model and what the import could not carry over (warnings, each listed once per
/// kind: unsupported elements, merged links, meshes not found, renamed links).
struct UrdfImport {
  Model model;
  std::vector<Diagnostic> warnings;
  /// The mesh files that were not found (as written in the file), whose visuals are left out: an
  /// application asks for the package's folder.
  std::vector<std::string> missingMeshes;
  /// The links whose inertia was not physical: merged into their parents (`merged`) or repaired
  /// (`repaired`), each also a warning (UrdfImportOptions::strict).
  std::vector<std::string> merged, repaired;
};

/// Reads a URDF file. Throws ModelLoadError (core/io/model_yaml.hpp) with every problem found,
/// each at the file's line and column: XML syntax, what liburdfdom rejects, links without mass
/// that move, and what the model checks reject (after the repairs, unless options.strict). The model's name is the
/// robot's; its sourceDirectory is options.meshBaseDirectory.
UrdfImport importUrdfFile(const std::string& path, const UrdfImportOptions& options = {});
/// The same for text; `fileName` names it in diagnostics, and relative meshes resolve from
/// `directory`.
UrdfImport importUrdfString(const std::string& xml, const std::string& fileName, const std::string& directory,
                            const UrdfImportOptions& options = {});

/// URDF text of a model (one link per body, plus a `world` link when the model is not a single
/// body fixed to the world at the origin). Inertials computed from shapes are written as numbers.
/// Mesh paths are written relative to `outputDirectory` (empty: as they resolve from the model's
/// sourceDirectory, absolute). What URDF cannot hold (gravity, drives, ratings, initial state,
/// applied wrenches, capsule and prism shapes, simulation settings) is left out and listed in
/// `warnings`. Throws std::invalid_argument naming every joint URDF cannot express (spherical,
/// universal, cylindrical) or when the model is invalid.
std::string exportUrdf(const Model& model, const std::string& outputDirectory, std::vector<std::string>& warnings);

}  // namespace kt
