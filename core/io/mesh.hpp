// SPDX-License-Identifier: BSD-3-Clause
// Triangle meshes from files, the one reader of the 3D view and of mass properties of mesh shapes
// (core/model/geometry/mass_properties.hpp): STL (ASCII or binary) and Wavefront OBJ by Kinetree's
// own parsers (messages with the line), COLLADA (.dae), PLY, glTF (.gltf, .glb) through Assimp, the
// library RViz and DART read robot meshes with. An Assimp file's nodes are flattened into one
// mesh in the file's frame: node transforms applied, COLLADA's <unit> applied (a file in
// centimetres comes in in metres), its up axis not (the coordinates as authored, as RViz and DART
// read them: URDF origins are written for that); materials' diffuse or base colours become the
// triangles' colours; points and lines are dropped.
#pragma once

#include <string>
#include <vector>

#include "core/model/geometry/triangle_mesh.hpp"

namespace kt {

/// Reads a mesh file, its format chosen by the extension (case-insensitive; meshExtensions()).
/// Returns false and sets `error` (one user-facing sentence) when the file cannot be read or parsed.
bool readMesh(const std::string& path, TriangleMesh& mesh, std::string& error);

/// The extensions readMesh takes, with the dot, lower case: .stl .obj .dae .ply .gltf .glb.
const std::vector<std::string>& meshExtensions();
/// Whether readMesh takes a file of this extension (any case, with the dot).
bool isMeshExtension(std::string extension);
/// "an .stl, .obj, .dae, .ply, .gltf or .glb file": what a mesh path must name, for messages.
std::string meshFormatsText();

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
