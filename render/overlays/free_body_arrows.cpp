// SPDX-License-Identifier: BSD-3-Clause
#include "render/overlays/free_body_arrows.hpp"

#include <vtkCoordinate.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTextProperty.h>
#include <QColor>
#include <algorithm>
#include <cstdio>

#include "render/charts/chart_figure.hpp"
#include "render/overlays/arrow_geometry.hpp"

namespace kt::render {

namespace {

constexpr double kMinLength = 0.12, kMaxLength = 0.35;  // × the model's size: the largest arrows' bounds

// The term's colour: the chart palette; the momentum rate grey.
QColor termColour(std::size_t k, bool momentumRate) {
  return momentumRate ? QColor(90, 90, 90) : seriesColor(static_cast<int>(k));
}

std::string magnitudes(const Eigen::Vector3d& force, const Eigen::Vector3d& moment) {
  char text[96];
  std::snprintf(text, sizeof text, "force %.4g N, moment %.4g N·m", force.norm(), moment.norm());
  return text;
}

// The legend's lines: their spacing for the 13-pixel font, and the lowest one's height above the
// bottom, clear of the selected joint's three lines of values in the lower-left corner.
constexpr double kLabelLineHeight = 18.0;
constexpr double kBottom = 72.0;

}  // namespace

FreeBodyArrows::FreeBodyArrows(vtkRenderer* overlay)
    : overlay_(overlay), forceShape_(arrowShape(false)), momentShape_(arrowShape(true)) {
  corner_ = vtkSmartPointer<vtkCoordinate>::New();
  corner_->SetCoordinateSystemToNormalizedViewport();
  corner_->SetValue(1.0, 0.0);
}

FreeBodyArrows::~FreeBodyArrows() {
  for (auto& a : force_) overlay_->RemoveActor(a);
  for (auto& a : moment_) overlay_->RemoveActor(a);
  for (auto& t : legend_) overlay_->RemoveActor2D(t);
}

void FreeBodyArrows::ensure(std::size_t arrows) {
  while (force_.size() < arrows) {
    for (auto* list : {&force_, &moment_}) {
      list->push_back(arrowActor(list == &force_ ? forceShape_ : momentShape_));
      overlay_->AddActor(list->back());
    }
  }
  while (legend_.size() < arrows + 2) {  // a title, the terms, the momentum rate, the residual
    // lower right, in pixels from that corner: the load arrows' legend holds the upper right
    // and the selected joint's values the lower left
    legend_.push_back(legendLine(corner_, /*right=*/true, /*top=*/false));
    overlay_->AddActor2D(legend_.back());
  }
}

void FreeBodyArrows::show(const kt::Kinematics& poses, const kt::FreeBodyDiagram& diagram, double size) {
  hide();
  if (diagram.body < 0 || static_cast<std::size_t>(diagram.body) >= poses.X_0.size()) return;
  const kt::Xform& X = poses.X_0[static_cast<std::size_t>(diagram.body)];  // world → body
  const kt::Mat3 R = X.E.transpose();                                      // body axes → world axes
  const auto world = [&](const kt::Vec3& p) -> Eigen::Vector3d { return X.r + R * p; };
  // the terms about their points, then the momentum rate about the centre of mass
  drawn_.clear();
  for (const kt::FreeBodyDiagram::Term& t : diagram.terms) {
    const kt::Vec6 w = t.atPoint();
    drawn_.push_back({t.what, world(t.point), R * w.tail<3>(), R * w.head<3>()});
  }
  const kt::FreeBodyDiagram::Term rate{"d/dt momentum (the sum)", diagram.momentumRate, diagram.centreOfMass};
  const kt::Vec6 w = rate.atPoint();
  drawn_.push_back({rate.what, world(rate.point), R * w.tail<3>(), R * w.head<3>()});

  double largestForce = 0.0, largestMoment = 0.0;
  for (const Drawn& d : drawn_) {
    largestForce = std::max(largestForce, d.force.norm());
    largestMoment = std::max(largestMoment, d.moment.norm());
  }
  // the largest arrows 1.5 times the body's extent between its points of action, so that they
  // stay the body's (within 12 % and 35 % of the model's size)
  double span = 0.0;
  for (const Drawn& d : drawn_) span = std::max(span, (d.point - X.r).norm());
  const double reference = std::clamp(1.5 * span, kMinLength * size, kMaxLength * size);
  const double forceScale = largestForce > 0.0 ? reference / largestForce : 0.0;
  const double momentScale = largestMoment > 0.0 ? reference / largestMoment : 0.0;
  ensure(drawn_.size());
  for (std::size_t k = 0; k < drawn_.size(); ++k) {
    Drawn& d = drawn_[k];
    const QColor c = termColour(k, k + 1 == drawn_.size());
    for (const bool isForce : {true, false}) {
      vtkActor* actor = (isForce ? force_ : moment_)[k];
      Eigen::Matrix4d m;
      // a dead band of 1e-6 of the largest: rounding noise draws nothing
      const bool shown = arrowMatrix(d.point, isForce ? d.force : d.moment, isForce ? forceScale : momentScale,
                                     1e-6 * (isForce ? largestForce : largestMoment), size, m);
      (isForce ? d.forceShown : d.momentShown) = shown;
      actor->SetVisibility(shown);
      if (!shown) continue;
      for (int r = 0; r < 4; ++r)
        for (int col = 0; col < 4; ++col) actor->GetUserMatrix()->SetElement(r, col, m(r, col));
      actor->GetUserMatrix()->Modified();
      actor->GetProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    }
  }
  // the legend: a title, a line per term in its colour, the residual
  const std::vector<std::string> lines = legendLines();
  char residual[128];
  std::snprintf(residual, sizeof residual, "residual: %.2e of the largest term",
                diagram.scale() > 0.0 ? diagram.residual.cwiseAbs().maxCoeff() / diagram.scale() : 0.0);
  for (std::size_t k = 0; k < lines.size() + 1; ++k) {
    vtkTextActor* text = legend_[k];
    text->SetInput(k < lines.size() ? lines[k].c_str() : residual);
    QColor c(20, 20, 20);
    if (k >= 1 && k <= drawn_.size()) c = termColour(k - 1, k == drawn_.size());
    text->GetTextProperty()->SetColor(c.redF(), c.greenF(), c.blueF());
    text->SetPosition(-8.0, kBottom + kLabelLineHeight * static_cast<double>(lines.size() - k));
    text->SetVisibility(true);
  }
  visible_ = true;
}

std::vector<std::string> FreeBodyArrows::legendLines() const {
  std::vector<std::string> lines;
  if (drawn_.empty()) return lines;
  // short lines: the legend sits in the lower right corner, clear of the model in the middle
  lines.push_back("Free body (one tip: a force; two tips: its moment about its point)");
  for (const Drawn& d : drawn_) lines.push_back(d.what + ": " + magnitudes(d.force, d.moment));
  return lines;
}

void FreeBodyArrows::hide() {
  for (auto& a : force_) a->SetVisibility(false);
  for (auto& a : moment_) a->SetVisibility(false);
  for (auto& t : legend_) t->SetVisibility(false);
  visible_ = false;
}

}  // namespace kt::render
