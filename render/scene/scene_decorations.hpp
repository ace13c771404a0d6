// SPDX-License-Identifier: BSD-3-Clause
// Non-body scene elements: the ground grid, axis triads (world axes, joint frames) and
// centre-of-mass markers. Pure geometry builders; ModelScene places and toggles them.
#pragma once

#include <vtkActor.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "core/spatial/spatial.hpp"

namespace kt::render {

/// A "nice" grid spacing (1, 2 or 5 × 10^k) giving about `lines` lines over `extent`.
double niceSpacing(double extent, int lines = 10);

/// A square grid of lines in the z = 0 plane, centred on the origin, half-size `halfSize`.
vtkSmartPointer<vtkActor> makeGridActor(double halfSize, double spacing);

/// Three coloured lines from the origin: x red, y green, z blue, each `length` long. When `axis` is
/// non-zero, a yellow line through the origin along it (a joint axis), 1.6 × `length` each way.
vtkSmartPointer<vtkPolyData> triadGeometry(double length, const kt::Vec3& axis = kt::Vec3::Zero());

/// An actor drawing `geometry` with its per-point colours as thick unlit lines.
vtkSmartPointer<vtkActor> makeLineActor(vtkPolyData* geometry, float lineWidth);

/// The geometry of a centre-of-mass marker: a sphere of radius `radius` in alternating black and
/// yellow octants ("Colors" cell scalars), `resolution` facets around it.
vtkSmartPointer<vtkPolyData> centreOfMassGeometry(double radius, int resolution = 24);

/// A centre-of-mass marker actor drawing centreOfMassGeometry(radius).
vtkSmartPointer<vtkActor> makeCentreOfMassActor(double radius);

}  // namespace kt::render
