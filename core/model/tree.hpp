// SPDX-License-Identifier: BSD-3-Clause
// The finalized, validated form of a Model: bodies renumbered so that parent(i) < i
// (docs/dynamics.md §2), index arrays for q, ν and λ, joint models, placements and body inertias.
// A Tree is immutable; solvers keep their own workspaces sized from it.
#pragma once

#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/geometry/mass_properties.hpp"
#include "core/model/joint.hpp"
#include "core/model/model.hpp"

namespace kt {

struct Tree {
  int nb = 0;       ///< number of bodies (the world is not counted)
  int nq = 0;       ///< position coordinates
  int nv = 0;       ///< velocity coordinates (degrees of freedom)
  int nlambda = 0;  ///< constraint coordinates, Σ (6 − n_i)

  std::vector<int> parent;                 ///< (nb) parent body index, −1 for the world; parent[i] < i
  std::vector<std::vector<int>> children;  ///< (nb) child bodies, in model order
  std::vector<int> roots;                  ///< bodies whose parent is the world
  std::vector<int> qOffset;                ///< (nb) first position coordinate of joint i
  std::vector<int> vOffset;                ///< (nb) first velocity coordinate of joint i
  std::vector<int> lambdaOffset;           ///< (nb) first constraint coordinate of joint i
  std::vector<JointModel> joints;          ///< (nb) joint i connects parent(i) to body i
  std::vector<Xform> X_T;                  ///< (nb) ᴶX_p: joint frame from the parent body frame
  std::vector<Inertia> I;                  ///< (nb) body inertia at the body origin, body coordinates
  std::vector<Vec6> appliedWrench;         ///< (nb) constant applied wrench, body coordinates
  Vec3 gravity = Vec3::Zero();             ///< world frame

  std::vector<std::string> bodyNames;   ///< (nb)
  std::vector<std::string> jointNames;  ///< (nb)
  std::vector<int> specIndex;           ///< (nb) index of the body in Model::bodies
  std::vector<int> treeIndexOfSpec;     ///< (Model::bodies.size()) inverse of specIndex

  /// Neutral position for every joint, then the model's initial q0 where given.
  Eigen::VectorXd initialQ;  ///< (nq)
  Eigen::VectorXd initialV;  ///< (nv)

  int jointIndex(const std::string& jointName) const;  ///< −1 if absent
  int bodyIndex(const std::string& bodyName) const;    ///< −1 if absent
  double totalMass() const;
};

/// Every problem of a model (structure, numbers, names), each with the YAML path of the field.
/// Empty when the model is valid. Mesh shapes are read through `meshes` (mesh files on disk:
/// core/io/model_files.hpp). The simulation: block is checked by core/sim
/// (checkSimulationSettings); the loader and the editor's problems list report both.
std::vector<Diagnostic> validate(const Model& model, const MeshSource& meshes);

/// Likely mistakes that do not stop a model from running, each a warning with the YAML path of
/// the field: a joint that starts outside its limits (a hint when the value fits in degrees); a
/// moving body below 1 g; a written inertia whose radius of gyration is over 10 times the largest
/// half-extent of the body's primitive shapes (a placeholder inertia); a prescribed motion whose
/// start differs from the written q0 or v0; a motion or drive table whose file is not there.
std::vector<Diagnostic> modelWarnings(const Model& model);

/// Validates and finalizes (meshes read through `meshes`). Returns false and fills `problems`
/// when the model is invalid.
bool finalize(const Model& model, const MeshSource& meshes, Tree& tree, std::vector<Diagnostic>& problems);

/// Throws std::invalid_argument with the first problem when the model is invalid.
Tree finalizeOrThrow(const Model& model, const MeshSource& meshes);

}  // namespace kt
