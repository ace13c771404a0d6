// SPDX-License-Identifier: BSD-3-Clause
// A triangle mesh read by the core's reader (core/io/mesh.hpp) as VTK polygonal data, so that the
// 3D view draws exactly what validation and mass properties read.
#pragma once

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "core/io/mesh.hpp"

namespace kt::render {

/// The cell scalars that hold a mesh file's own colours (RGBA, 0–255), when it has them.
inline constexpr const char* kMeshColorsName = "mesh colors";

/// Points (scaled component-wise by `scale`) and triangles of `mesh`, with its colours as cell
/// scalars (kMeshColorsName) when the file gave them; `fallback` (RGBA in [0, 1], the shape's
/// colour) for its triangles without one. Every triangle's indices must be in range, as the core's
/// reader guarantees.
vtkSmartPointer<vtkPolyData> meshToPolyData(const kt::TriangleMesh& mesh, const kt::Vec3& scale,
                                            const Eigen::Vector4d& fallback = Eigen::Vector4d(0.7, 0.7, 0.7, 1.0));

}  // namespace kt::render
