// SPDX-License-Identifier: BSD-3-Clause
// MJCF import (docs/mjcf.md). MuJoCo's own compiler (mj_loadXML, Debian's libmujoco-dev) reads the
// file, with its defaults, classes, includes, frames and units resolved as MuJoCo resolves them;
// the compiled tree is mapped onto Kinetree bodies: hinge, slide, ball and free joints, two hinges
// through one point as a universal joint, three as a gimbal joint, and a hinge with a slide along
// its axis as a cylindrical one; inertias; geoms as shapes; motor and position actuators as drives. What Kinetree does
// not simulate (contacts, tendons, equality constraints, sites, sensors, joint damping, armature, springs and friction)
// is listed as warnings, one per kind.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"

namespace kt {

struct MjcfImportOptions {
  /// Where the meshes of mesh geoms are written, as OBJ files of the compiled vertices (MuJoCo
  /// centres and aligns each mesh on its inertia, and the geom's pose says where it goes); empty:
  /// mesh geoms are left out, with a warning.
  std::string meshDirectory;
  /// Mesh paths in the model are written relative to this directory (where the model will be
  /// saved); empty: absolute paths.
  std::string meshBaseDirectory;
  /// Refuse a welded body whose inertia is not physical instead of lumping it into the body it is
  /// welded to (docs/mjcf.md, "Repairs"); the CLI's --strict.
  bool strict = false;
};

/// Which MuJoCo coordinates a Kinetree joint stands for, in the order of its own: q_k = qpos[qpos_k]
/// − ref_k (hinge and slide; a ball's quaternion and a free joint's position and quaternion are
/// taken as they are, reordered), ν_k = qvel[dof_k] (a free joint's velocity also changes axes:
/// docs/mjcf.md, "Coordinates").
struct MjcfCoordinates {
  int body = -1;               ///< the Kinetree body whose joint this is (index into Model::bodies)
  std::vector<int> qpos, dof;  ///< MuJoCo addresses, in the order of the Kinetree coordinates
  std::vector<double> ref;     ///< (nq) subtracted from qpos (hinge and slide; 0 elsewhere)
};

struct MjcfImport {
  Model model;
  std::vector<Diagnostic> warnings;
  std::vector<MjcfCoordinates> coordinates;  ///< one per Kinetree joint with coordinates
};

/// An MJCF file: its root element is <mujoco> (URDF's is <robot>), after the XML declaration,
/// comments and the document type; false for text that is not XML (a YAML model) and when the
/// file cannot be read.
bool isMjcfFile(const std::string& path);

/// Reads an MJCF file. Throws ModelLoadError with MuJoCo's message (at its XML line where it gives
/// one) when the compiler rejects the file, or naming the body whose joints Kinetree has no joint
/// for, or with what the model checks reject.
MjcfImport importMjcfFile(const std::string& path, const MjcfImportOptions& options = {});

}  // namespace kt
