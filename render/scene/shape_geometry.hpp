// SPDX-License-Identifier: BSD-3-Clause
// Polygonal geometry of one visual shape, in the shape's own frame (its placement in the body is
// applied by the actor). Cylinders, capsules and prisms have their axis along z and are centred
// on the origin; a prism's first vertex lies on +x, so with an even number of sides two faces
// are normal to ±y.
#pragma once

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <string>

#include "core/model/model.hpp"

namespace kt::render {

/// Facets around the axis of a round shape in a model of ordinary size.
inline constexpr int kRoundResolution = 48;

/// Geometry of `shape`. Mesh paths are resolved against `modelDirectory` (the folder of the
/// model file) unless absolute. When a mesh cannot be read, returns a small cube standing in for
/// it and sets `warning`. Round shapes have `resolution` facets around their axis (spheres and
/// capsules half as many from pole to pole).
vtkSmartPointer<vtkPolyData> shapeGeometry(const kt::Shape& shape, const std::string& modelDirectory,
                                           std::string& warning, int resolution = kRoundResolution);

/// A closed regular prism: `sides` faces, circumradius `radius`, height `length` along z.
vtkSmartPointer<vtkPolyData> prismGeometry(int sides, double radius, double length);

}  // namespace kt::render
