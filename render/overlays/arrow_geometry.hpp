// SPDX-License-Identifier: BSD-3-Clause
// The arrows of the 3D view's overlays (joint loads, free-body diagrams, the algorithm stepper):
// one unit shape along +x, placed by a matrix that stretches it along the vector it draws; and the
// lines of their legends.
#pragma once

#include <vtkActor.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <Eigen/Core>

class vtkCoordinate;

namespace kt::render {

/// A unit arrow along +x with point normals (sharp edges kept); `doubleTip`: the double-headed
/// arrow of a moment.
vtkSmartPointer<vtkPolyData> arrowShape(bool doubleTip);

/// An actor drawing `shape` (an arrowShape) placed by its user matrix (arrowMatrix), hidden,
/// not pickable, lit a little from all sides so that its colour reads in the overlay.
vtkSmartPointer<vtkActor> arrowActor(vtkPolyData* shape);

/// The matrix that maps the unit arrow onto `vector` × `scale` starting at `origin`: its length
/// along the vector, its width 0.2 × `size` (the model's characteristic length), thinner for a
/// short arrow so that it keeps its shape. False when |vector| ≤ deadBand, when the arrow would be
/// too short to see, or when anything is not finite.
/// One line of an overlay's legend: 13-pixel text on a translucent white ground, placed in pixels
/// from `corner` (a vtkCoordinate in normalized viewport coordinates), hidden, not pickable. Set in
/// DejaVu Sans where it is installed (fonts-dejavu-core): VTK's own font has no ω, ⁱ or ᵀ.
/// `right`: aligned on its right end (else its left); `top`: hangs from its position (else stands on it).
vtkSmartPointer<vtkTextActor> legendLine(vtkCoordinate* corner, bool right, bool top);

bool arrowMatrix(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale, double deadBand,
                 double size, Eigen::Matrix4d& m);

}  // namespace kt::render
