// SPDX-License-Identifier: BSD-3-Clause
#include "render/overlays/step_arrows.hpp"

#include <vtkCoordinate.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTextProperty.h>
#include <QColor>
#include <cstdio>

#include "render/charts/chart_figure.hpp"
#include "render/overlays/arrow_geometry.hpp"

namespace kt::render {

namespace {

constexpr double kLength = 0.3;  // × the model's size: each vector's larger part
constexpr double kStepLineHeight = 18.0;
constexpr double kTop = 40.0;  // the first line's distance below the top edge, in pixels
// black: no vector's colour (seriesColor's second is an orange, which the handover's was too)
const QColor kHandover(25, 25, 25);

void place(vtkActor* actor, const Eigen::Matrix4d& m, const QColor& c) {
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col < 4; ++col) actor->GetUserMatrix()->SetElement(r, col, m(r, col));
  actor->GetUserMatrix()->Modified();
  actor->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
  actor->SetVisibility(true);
}

// The sizes of a vector's two halves in the units of what it measures (a velocity, an
// acceleration, a wrench or a momentum).
std::string magnitudes(const kt::TracedValue& v, const Eigen::Vector3d& angular, const Eigen::Vector3d& linear) {
  const kt::SpatialUnits units = kt::spatialUnits(v.quantity);
  using Q = kt::TracedValue::Quantity;
  const char* a = v.quantity == Q::Velocity ? "|ω|" : v.quantity == Q::Wrench ? "|n|" : "|angular|";
  const char* l = v.quantity == Q::Velocity ? "|v|" : v.quantity == Q::Wrench ? "|f|" : "|linear|";
  char text[200];
  std::snprintf(text, sizeof text, "%s %.4g %s (two tips), %s %.4g %s (one tip)", a, angular.norm(), units.angular, l,
                linear.norm(), units.linear);
  return text;
}

}  // namespace

StepArrows::StepArrows(vtkRenderer* overlay)
    : overlay_(overlay), singleShape_(arrowShape(false)), doubleShape_(arrowShape(true)) {
  corner_ = vtkSmartPointer<vtkCoordinate>::New();
  corner_->SetCoordinateSystemToNormalizedViewport();
  corner_->SetValue(0.0, 1.0);
}

StepArrows::~StepArrows() {
  for (auto* list : {&linear_, &angular_, &handover_})
    for (auto& a : *list) overlay_->RemoveActor(a);
  for (auto& t : legend_) overlay_->RemoveActor2D(t);
}

void StepArrows::ensure(std::size_t vectors, std::size_t handovers, std::size_t lines) {
  while (linear_.size() < vectors) {
    linear_.push_back(arrowActor(singleShape_));
    angular_.push_back(arrowActor(doubleShape_));
    overlay_->AddActor(linear_.back());
    overlay_->AddActor(angular_.back());
  }
  while (handover_.size() < handovers) {
    handover_.push_back(arrowActor(singleShape_));
    overlay_->AddActor(handover_.back());
  }
  while (legend_.size() < lines) {  // upper left, hanging down from the corner
    legend_.push_back(legendLine(corner_, /*right=*/false, /*top=*/true));
    overlay_->AddActor2D(legend_.back());
  }
}

void StepArrows::show(const kt::Kinematics& poses, const kt::TracedStep& step, const std::vector<std::string>& names,
                      double size) {
  hide();
  const auto nb = poses.X_0.size();
  const auto origin = [&](int b) -> Eigen::Vector3d { return poses.X_0[static_cast<std::size_t>(b)].r; };
  drawn_.clear();
  handovers_.clear();
  lines_.clear();
  std::vector<const kt::TracedValue*> vectors;
  for (const kt::TracedValue& v : step.values)
    if ((v.kind == kt::TracedValue::Kind::Motion || v.kind == kt::TracedValue::Kind::Force) && v.body >= 0 &&
        static_cast<std::size_t>(v.body) < nb && v.value.size() == 6)
      vectors.push_back(&v);
  std::vector<int> targets;
  if (step.body >= 0 && static_cast<std::size_t>(step.body) < nb)
    for (int t : step.targets)
      if (t >= 0 && static_cast<std::size_t>(t) < nb) targets.push_back(t);
  ensure(vectors.size(), targets.size(), vectors.size() + 2);

  if (step.body >= 0 && static_cast<std::size_t>(step.body) < names.size())
    lines_.push_back("Visiting " + names[static_cast<std::size_t>(step.body)]);
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    const kt::TracedValue& v = *vectors[k];
    const kt::Xform& X = poses.X_0[static_cast<std::size_t>(v.body)];
    const kt::Mat3 R = X.E.transpose();  // body axes → world axes
    Drawn d{v.symbol, X.r, R * v.value.col(0).tail<3>(), R * v.value.col(0).head<3>()};
    const double largest = std::max(d.linear.norm(), d.angular.norm());
    const double scale = largest > 0.0 ? kLength * size / largest : 0.0;
    const QColor c = seriesColor(static_cast<int>(k));
    Eigen::Matrix4d m;
    // a dead band of 1e-9 of the larger part: rounding noise draws nothing
    if ((d.linearShown = arrowMatrix(d.point, d.linear, scale, 1e-9 * largest, size, m))) place(linear_[k], m, c);
    if ((d.angularShown = arrowMatrix(d.point, d.angular, scale, 1e-9 * largest, size, m))) place(angular_[k], m, c);
    lines_.push_back(v.symbol +
                     (v.body != step.body && static_cast<std::size_t>(v.body) < names.size()
                          ? " (at " + names[static_cast<std::size_t>(v.body)] + ")"
                          : std::string()) +
                     ": " + magnitudes(v, d.angular, d.linear));
    drawn_.push_back(d);
  }
  for (std::size_t k = 0; k < targets.size(); ++k) {
    Eigen::Vector3d from = origin(step.body), to = origin(targets[k]);
    if (step.takesFromTargets) std::swap(from, to);
    Eigen::Matrix4d m;
    if (arrowMatrix(from, to - from, 1.0, 1e-6 * size, 0.5 * size, m)) {
      place(handover_[k], m, kHandover);
      handovers_.emplace_back(from, to);
    }
  }
  if (!step.handed.empty() && !targets.empty()) {
    std::string to;
    for (int t : targets) to += (to.empty() ? "" : ", ") + names[static_cast<std::size_t>(t)];
    lines_.push_back((step.takesFromTargets ? "Takes from " : "Handed to ") + to + " (black): " + step.handed);
  }
  for (std::size_t k = 0; k < lines_.size(); ++k) {
    vtkTextActor* text = legend_[k];
    text->SetInput(lines_[k].c_str());
    QColor c(20, 20, 20);
    if (k >= 1 && k <= vectors.size()) c = seriesColor(static_cast<int>(k - 1));
    if (!step.handed.empty() && !targets.empty() && k + 1 == lines_.size()) c = kHandover;
    text->GetTextProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    text->SetPosition(8.0, -kTop - kStepLineHeight * static_cast<double>(k));
    text->SetVisibility(true);
  }
  visible_ = true;
}

void StepArrows::hide() {
  for (auto* list : {&linear_, &angular_, &handover_})
    for (auto& a : *list) a->SetVisibility(false);
  for (auto& t : legend_) t->SetVisibility(false);
  visible_ = false;
}

}  // namespace kt::render
