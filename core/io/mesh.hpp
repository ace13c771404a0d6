// SPDX-License-Identifier: BSD-3-Clause
// Triangle meshes from STL (ASCII or binary) and Wavefront OBJ files, for mass properties of
// mesh shapes (core/model/geometry/mass_properties.hpp). Rendering reads meshes through VTK instead.
#pragma once

#include <string>

#include "core/model/geometry/triangle_mesh.hpp"

namespace kt {

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

/// The mesh files on disk as a MeshSource (read: readMesh, readable: meshFileReadable), for the
/// model layer's validation and mass properties.
const MeshSource& meshFiles();

}  // namespace kt
