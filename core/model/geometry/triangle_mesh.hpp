// SPDX-License-Identifier: BSD-3-Clause
// Triangle meshes as the model layer sees them: the surface of a mesh shape, the check that it
// bounds a solid (mass properties need one), and where it comes from. The model layer reads no
// files: whoever calls it with mesh shapes passes a MeshSource (core/io/mesh.hpp: meshFiles()
// reads STL, OBJ, COLLADA, PLY and glTF files).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/spatial/spatial.hpp"

namespace kt {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise seen from outside
  /// The colour of each triangle (RGBA in [0, 1]) from the file's materials, for files that give
  /// them (COLLADA and glTF materials, PLY vertex colours); empty when the file gives none.
  /// kNoMeshColor for a triangle of a part without one: the shape's colour draws it.
  std::vector<std::array<float, 4>> colors;
};

/// A triangle without a colour of its own in TriangleMesh::colors.
inline constexpr std::array<float, 4> kNoMeshColor{-1.0f, -1.0f, -1.0f, -1.0f};

/// Where the triangles of mesh files come from.
class MeshSource {
 public:
  virtual ~MeshSource() = default;
  /// Reads the mesh file at `path` (as resolveMeshPath gives it). Returns false and sets `error`
  /// (one user-facing sentence naming the file) when it cannot be read or parsed.
  virtual bool read(const std::string& path, TriangleMesh& mesh, std::string& error) const = 0;
  /// Whether read() accepts the file, without keeping the mesh (a source may remember verdicts).
  virtual bool readable(const std::string& path, std::string& error) const = 0;
};

/// Resolves a mesh path given relative to the model file's directory (absolute paths are kept).
std::string resolveMeshPath(const std::string& meshPath, const std::string& modelDirectory);

/// Checks that a mesh bounds a solid: vertices at the same position are one vertex, and then
/// every edge must be shared by exactly two triangles that run along it in opposite directions
/// (closed, consistently oriented), and every connected part must enclose a positive signed
/// volume (counter-clockwise seen from outside). Triangles with a repeated vertex are ignored.
/// Returns false and sets `error` (one sentence naming the first bad edge or part).
bool checkClosedSurface(const TriangleMesh& mesh, std::string& error);

}  // namespace kt
