// SPDX-License-Identifier: BSD-3-Clause
// The free-body diagram of one body in the 3D view (core/dynamics/free_body.hpp): every wrench
// acting on the body drawn where it acts (a joint load at that joint's origin, gravity at the
// centre of mass), a force arrow (one tip) and a moment arrow (two tips, about that point) each,
// one colour per term, and the rate of change of the body's momentum, which they add up to,
// in grey at the centre of mass. The legend in the lower-right corner (the load arrows' legend
// holds the upper right) names each term in its colour with its magnitudes, and the residual.
// Lengths: the largest force of the diagram is drawn 1.5 times the body's extent (its farthest
// point of action from its origin; within 12 % and 35 % of the model's size), and so is the
// largest moment. Drawn in the overlay renderer, in front of the geometry. GUI thread only (VTK
// objects).
#pragma once

#include <vtkActor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/dynamics/free_body.hpp"
#include "core/dynamics/kinematics.hpp"

class vtkCoordinate;
class vtkPolyData;

namespace kt::render {

class FreeBodyArrows {
 public:
  explicit FreeBodyArrows(vtkRenderer* overlay);
  ~FreeBodyArrows();
  FreeBodyArrows(const FreeBodyArrows&) = delete;
  FreeBodyArrows& operator=(const FreeBodyArrows&) = delete;

  /// Draws `diagram` on its body at `poses` (the world poses X_0 of the tree's bodies at the
  /// sample shown); `size`: the model's characteristic length.
  void show(const kt::Kinematics& poses, const kt::FreeBodyDiagram& diagram, double size);
  void hide();
  bool visible() const { return visible_; }

  /// What is drawn, world axes (for tests): one entry per term, then the momentum rate.
  struct Drawn {
    std::string what;
    Eigen::Vector3d point, force, moment;  ///< where, and the wrench about that point
    bool forceShown = false, momentShown = false;
  };
  const std::vector<Drawn>& drawn() const { return drawn_; }
  /// The legend's lines, top down.
  std::vector<std::string> legendLines() const;
  /// The legend's text actors, one per line (for tests: where they are drawn).
  const std::vector<vtkSmartPointer<vtkTextActor>>& legendActors() const { return legend_; }

 private:
  void ensure(std::size_t arrows);

  vtkSmartPointer<vtkRenderer> overlay_;
  vtkSmartPointer<vtkPolyData> forceShape_, momentShape_;
  std::vector<vtkSmartPointer<vtkActor>> force_, moment_;
  std::vector<vtkSmartPointer<vtkTextActor>> legend_;
  vtkSmartPointer<vtkCoordinate> corner_;  ///< the lower-right corner the legend is placed from
  std::vector<Drawn> drawn_;
  bool visible_ = false;
};

}  // namespace kt::render
