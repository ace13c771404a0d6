// SPDX-License-Identifier: BSD-3-Clause
// The spring of a drag in the 3D view (docs/interaction.md): a line from the grasped point of the
// body to where the cursor pulls it, and a label at the cursor end with the force the spring
// applies ("142 N"; a torque drag: "12.3 N·m" at the body). Drawn in the overlay renderer, in front
// of the geometry. GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkBillboardTextActor3D.h>
#include <vtkLineSource.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

#include <Eigen/Core>
#include <string>

namespace kt::render {

class SpringMarker {
 public:
  explicit SpringMarker(vtkRenderer* overlay);
  ~SpringMarker();
  SpringMarker(const SpringMarker&) = delete;
  SpringMarker& operator=(const SpringMarker&) = delete;

  /// Draws the spring from `from` (on the body) to `to` (the cursor), world coordinates, with
  /// `label` at `to`.
  void show(const Eigen::Vector3d& from, const Eigen::Vector3d& to, const std::string& label);
  void hide();
  bool visible() const { return visible_; }
  const std::string& label() const { return label_; }

 private:
  vtkSmartPointer<vtkRenderer> overlay_;
  vtkSmartPointer<vtkLineSource> line_;
  vtkSmartPointer<vtkActor> lineActor_, endActor_;
  vtkSmartPointer<vtkBillboardTextActor3D> text_;
  std::string label_;
  bool visible_ = false;
};

}  // namespace kt::render
