// SPDX-License-Identifier: BSD-3-Clause
// Mass, centre of mass and rotational inertia of a body: from its explicit inertial block, or
// computed from its visual shapes with a uniform density (closed forms for the primitives, the
// divergence theorem for meshes), each shape placed by its origin (parallel-axis theorem).
#pragma once

#include <string>

#include "core/model/geometry/triangle_mesh.hpp"
#include "core/model/model.hpp"

namespace kt {

/// Mass properties a body gets from its inertial block (explicit, or computed from the shapes).
struct MassProperties {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();  ///< about the centre of mass, body axes
};

/// Volume of a primitive shape (m³) with the closed forms below; meshes return 0 (use meshMassProperties).
double shapeVolume(const Shape& shape);

/// Mass properties of a primitive shape (not a mesh) of uniform `density`, in the body frame
/// (its origin applied), from the closed forms.
MassProperties primitiveMassProperties(const Shape& shape, double density);

/// Mass properties of one shape of uniform `density`, in the body frame (its origin applied).
/// A mesh is read from `modelDirectory`/shape.mesh through `meshes`. Returns false and sets
/// `error` when a mesh cannot be read or does not bound a solid.
bool shapeMassProperties(const Shape& shape, double density, const std::string& modelDirectory,
                         const MeshSource& meshes, MassProperties& out, std::string& error);

/// Mass properties of a closed triangle mesh of uniform density, in the mesh's own frame.
/// Returns false when the enclosed volume is not positive (open or degenerate mesh).
bool meshMassProperties(const TriangleMesh& mesh, double density, MassProperties& out);

/// Combines parts given in one frame: total mass, combined centre of mass, inertia about it.
MassProperties combineMassProperties(const MassProperties& a, const MassProperties& b);

/// Mass properties of a body: the inertial block, or "from shapes" with its density (meshes read
/// through `meshes`). On a shape that cannot be evaluated (unreadable mesh) returns false with
/// `error`; the validator reports it.
bool bodyMassProperties(const BodySpec& body, const std::string& modelDirectory, const MeshSource& meshes,
                        MassProperties& out, std::string& error);

/// As above; shapes that cannot be evaluated are skipped (validate the model first).
MassProperties bodyMassProperties(const BodySpec& body, const std::string& modelDirectory, const MeshSource& meshes);

}  // namespace kt
