// SPDX-License-Identifier: BSD-3-Clause
// One step of the algorithm stepper in the 3D view (core/dynamics/stepper/algorithm_trace.hpp):
// the step's spatial vectors drawn on the body they belong to — the angular part (ω, or a moment n)
// with two tips, the linear part (v, or a force f) with one, at the body's origin, one colour per
// vector — and what the step hands on as a thick arrow from the visited body's origin to each
// body it is handed to, along the tree. Each vector is scaled on its own (motions and forces do
// not share units): its larger part is drawn 30 % of the model's size; the legend in the upper-left
// corner names each in its colour with its magnitudes. Drawn in the overlay renderer, in front of
// the geometry. GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/stepper/algorithm_trace.hpp"

class vtkCoordinate;
class vtkPolyData;

namespace kt::render {

class StepArrows {
 public:
  explicit StepArrows(vtkRenderer* overlay);
  ~StepArrows();
  StepArrows(const StepArrows&) = delete;
  StepArrows& operator=(const StepArrows&) = delete;

  /// Draws `step` at `poses` (the world poses X_0 of the tree's bodies); `names`: the bodies' names;
  /// `size`: the model's characteristic length.
  void show(const kt::Kinematics& poses, const kt::TracedStep& step, const std::vector<std::string>& names,
            double size);
  void hide();
  bool visible() const { return visible_; }

  /// What is drawn, world axes (for tests).
  struct Drawn {
    std::string what;
    Eigen::Vector3d point, linear, angular;
    bool linearShown = false, angularShown = false;
  };
  const std::vector<Drawn>& drawn() const { return drawn_; }
  /// The hand-over arrows drawn: from the visited body's origin to each target's (the other way
  /// where the step takes from its targets).
  const std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>>& handovers() const { return handovers_; }
  std::vector<std::string> legendLines() const { return lines_; }

 private:
  void ensure(std::size_t vectors, std::size_t handovers, std::size_t lines);

  vtkSmartPointer<vtkRenderer> overlay_;
  vtkSmartPointer<vtkPolyData> singleShape_, doubleShape_;
  std::vector<vtkSmartPointer<vtkActor>> linear_, angular_, handover_;
  std::vector<vtkSmartPointer<vtkTextActor>> legend_;
  vtkSmartPointer<vtkCoordinate> corner_;  ///< the upper-left corner the legend is placed from
  std::vector<Drawn> drawn_;
  std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>> handovers_;
  std::vector<std::string> lines_;
  bool visible_ = false;
};

}  // namespace kt::render
