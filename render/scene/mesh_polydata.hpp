// SPDX-License-Identifier: BSD-3-Clause
// A triangle mesh read by the core's reader (core/io/mesh.hpp) as VTK polygonal data, so that the
// 3D view draws exactly what validation and mass properties read.
#pragma once

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "core/io/mesh.hpp"

namespace kt::render {

/// Points (scaled component-wise by `scale`) and triangles of `mesh`. Every triangle's indices
/// must be in range, as the core's reader guarantees.
vtkSmartPointer<vtkPolyData> meshToPolyData(const kt::TriangleMesh& mesh, const kt::Vec3& scale);

}  // namespace kt::render
