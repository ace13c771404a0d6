// Triangle meshes from STL (ASCII or binary) and Wavefront OBJ files, for mass properties of
// mesh shapes (core/model/mass_properties.hpp). Rendering reads meshes through VTK instead.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/spatial/spatial.hpp"

namespace kt {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;  ///< vertex indices, counter-clockwise seen from outside
};

/// Reads an .stl (ASCII or binary) or .obj file, chosen by the extension (case-insensitive).
/// Returns false and sets `error` (one user-facing sentence) when the file cannot be read or parsed.
bool readMesh(const std::string& path, TriangleMesh& mesh, std::string& error);

/// Whether readMesh accepts the file, without keeping the mesh: the verdict (and message) of
/// the last read is remembered per path, size and modification time, so that validating a model
/// again after each edit does not parse large display meshes again. Thread-safe.
bool meshFileReadable(const std::string& path, std::string& error);

/// Parses STL content (binary when the size matches the binary layout, ASCII otherwise).
bool parseStl(const std::string& bytes, TriangleMesh& mesh, std::string& error);
/// Parses OBJ text (v and f records; polygons are split into triangle fans; negative indices allowed).
bool parseObj(const std::string& text, TriangleMesh& mesh, std::string& error);

/// Checks that a mesh bounds a solid: vertices at the same position are one vertex, and then
/// every edge must be shared by exactly two triangles that run along it in opposite directions
/// (closed, consistently oriented), and every connected part must enclose a positive signed
/// volume (counter-clockwise seen from outside). Triangles with a repeated vertex are ignored.
/// Returns false and sets `error` (one sentence naming the first bad edge or part).
bool checkClosedSurface(const TriangleMesh& mesh, std::string& error);

/// Resolves a mesh path given relative to the model file's directory (absolute paths are kept).
std::string resolveMeshPath(const std::string& meshPath, const std::string& modelDirectory);

}  // namespace kt
