#include "render/load_arrows.hpp"

#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkConeSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextProperty.h>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kt::render {

namespace {

constexpr double kShaftRadius = 0.03;  // of vtkArrowSource, unit length along +x
constexpr double kTipRadius = 0.08;
constexpr double kTipLength = 0.25;
constexpr double kEase = 0.1;  // fraction of the way down to the recent maximum per update (log scale)

vtkSmartPointer<vtkPolyData> arrowShape(bool doubleTip) {
  vtkNew<vtkArrowSource> arrow;
  arrow->SetShaftRadius(kShaftRadius);
  arrow->SetTipRadius(kTipRadius);
  arrow->SetTipLength(kTipLength);
  arrow->SetShaftResolution(12);
  arrow->SetTipResolution(16);
  if (!doubleTip) {
    arrow->Update();
    return arrow->GetOutput();
  }
  // A moment: the usual double-headed arrow.
  vtkNew<vtkConeSource> cone;
  cone->SetResolution(16);
  cone->SetRadius(kTipRadius);
  cone->SetHeight(kTipLength);
  cone->SetDirection(1.0, 0.0, 0.0);
  cone->SetCenter(1.0 - 1.5 * kTipLength, 0.0, 0.0);
  vtkNew<vtkAppendPolyData> both;
  both->AddInputConnection(arrow->GetOutputPort());
  both->AddInputConnection(cone->GetOutputPort());
  both->Update();
  return both->GetOutput();
}

// Green (0) → yellow (0.5) → red (≥ 1).
void ratioColour(double r, double rgb[3]) {
  r = std::clamp(r, 0.0, 1.0);
  if (r <= 0.5) {
    rgb[0] = 0.15 + 0.8 * (r / 0.5);
    rgb[1] = 0.8;
  } else {
    rgb[0] = 0.95;
    rgb[1] = 0.8 * (1.0 - (r - 0.5) / 0.5) + 0.1;
  }
  rgb[2] = 0.15;
}

std::string vectorText(const Eigen::Vector3d& v) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "(%.4g, %.4g, %.4g)  |%.4g|", v.x(), v.y(), v.z(), v.norm());
  return buffer;
}

}  // namespace

LoadArrows::LoadArrows(vtkRenderer* overlay)
    : overlay_(overlay), forceShape_(arrowShape(false)), momentShape_(arrowShape(true)) {
  text_ = vtkSmartPointer<vtkTextActor>::New();
  text_->GetTextProperty()->SetFontSize(14);
  text_->GetTextProperty()->SetColor(0.08, 0.1, 0.16);  // the view background is light
  text_->GetTextProperty()->SetBold(true);
  text_->GetTextProperty()->SetFontFamilyToCourier();
  text_->SetDisplayPosition(10, 10);
  text_->SetVisibility(false);
  text_->SetPickable(false);
  overlay_->AddActor2D(text_);
}

LoadArrows::~LoadArrows() {
  clear();
  overlay_->RemoveActor2D(text_);
}

void LoadArrows::clear() {
  for (auto& a : force_) overlay_->RemoveActor(a);
  for (auto& a : moment_) overlay_->RemoveActor(a);
  force_.clear();
  moment_.clear();
  drawn_.clear();
  at_.clear();
  haveState_ = false;
  selected_ = -1;
  text_->SetVisibility(false);
  resetAutoScale();
}

void LoadArrows::RecentMaximum::reset() {
  ring.fill(0.0);
  head = 0;
  reference = 0.0;
}

void LoadArrows::RecentMaximum::push(double largest) {
  if (!std::isfinite(largest)) return;
  ring[static_cast<std::size_t>(head)] = largest;
  head = (head + 1) % kAutoScaleWindow;
  const double recent = *std::max_element(ring.begin(), ring.end());
  if (recent >= reference) {
    reference = recent;
  } else if (recent > 0.0) {
    // 10 % of the way in log scale: a 100× spike has faded to a 1 % excess after 60 updates.
    reference = recent * std::pow(reference / recent, 1.0 - kEase);
  } else {
    reference *= 1.0 - kEase;
  }
}

void LoadArrows::resetAutoScale() {
  forceRecent_.reset();
  momentRecent_.reset();
}

void LoadArrows::build(const kt::Tree& tree, double length) {
  clear();
  tree_ = tree;
  kin_.resize(tree_);
  length_ = length > 0.0 ? length : 1.0;
  const auto n = static_cast<std::size_t>(tree_.nb);
  drawn_.assign(n, kt::Vec6::Zero());
  at_.assign(n, Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < n; ++i) {
    for (int kind = 0; kind < 2; ++kind) {
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(kind == 0 ? forceShape_ : momentShape_);
      auto actor = vtkSmartPointer<vtkActor>::New();
      actor->SetMapper(mapper);
      vtkNew<vtkMatrix4x4> placement;
      actor->SetUserMatrix(placement);
      actor->SetPickable(false);
      actor->SetVisibility(false);
      actor->GetProperty()->SetAmbient(0.3);
      overlay_->AddActor(actor);
      (kind == 0 ? force_ : moment_).push_back(actor);
    }
  }
}

void LoadArrows::setOptions(const LoadArrowOptions& options) {
  options_ = options;
  refresh();
}

void LoadArrows::setSelectedJoint(int joint) {
  selected_ = joint >= 0 && joint < tree_.nb ? joint : -1;
  refresh();
}

void LoadArrows::update(const Eigen::VectorXd& q, const std::vector<kt::Vec6>& wrenchBody) {
  if (tree_.nb == 0 || q.size() != tree_.nq || static_cast<int>(wrenchBody.size()) != tree_.nb) return;
  kt::computePositionKinematics(tree_, q, kin_);
  double largestForce = 0.0, largestMoment = 0.0;
  kt::Mat6N T;
  for (int i = 0; i < tree_.nb; ++i) {
    kt::Vec6 f = wrenchBody[static_cast<std::size_t>(i)];
    if (options_.reactionOnly) {
      tree_.joints[static_cast<std::size_t>(i)].constraintSubspace(
          q.data() + tree_.qOffset[static_cast<std::size_t>(i)], T);
      f = T * (T.transpose() * f);
    }
    const kt::Xform& X = kin_.X_0[static_cast<std::size_t>(i)];  // world → body i
    kt::Vec6 w;
    w.head<3>() = X.E.transpose() * f.head<3>();
    w.tail<3>() = X.E.transpose() * f.tail<3>();
    drawn_[static_cast<std::size_t>(i)] = w;
    at_[static_cast<std::size_t>(i)] = X.r;
    largestMoment = std::max(largestMoment, w.head<3>().norm());
    largestForce = std::max(largestForce, w.tail<3>().norm());
  }
  // Automatic scale: follows the recent maximum (see the header).
  forceRecent_.push(largestForce);
  momentRecent_.push(largestMoment);
  haveState_ = true;
  refresh();
}

void LoadArrows::place(vtkActor* actor, const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale,
                       double limit) const {
  const double magnitude = vector.norm();
  const double length = magnitude * scale;
  if (!(length > 1e-6 * length_) || !std::isfinite(length)) {
    actor->SetVisibility(false);
    return;
  }
  // Columns: the arrow's x axis along the vector (scaled to its length), y and z across it.
  const Eigen::Vector3d x = vector / magnitude;
  const Eigen::Vector3d helper = std::abs(x.z()) < 0.9 ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d::UnitX();
  const Eigen::Vector3d y = helper.cross(x).normalized();
  const Eigen::Vector3d z = x.cross(y);
  // Shaft radius 0.006 × the model size; short arrows get thinner so that they keep their shape.
  const double width = std::min(0.2 * length_, 1.5 * length);
  vtkMatrix4x4* m = actor->GetUserMatrix();  // made with the actor in build(): no allocation here
  for (int r = 0; r < 3; ++r) {
    m->SetElement(r, 0, x[r] * length);
    m->SetElement(r, 1, y[r] * width);
    m->SetElement(r, 2, z[r] * width);
    m->SetElement(r, 3, origin[r]);
  }
  m->Modified();
  double rgb[3];
  ratioColour(limit > 0.0 ? magnitude / limit : 0.0, rgb);
  actor->GetProperty()->SetColor(rgb);
  actor->SetVisibility(true);
}

void LoadArrows::refresh() {
  const double maxForce = forceRecent_.reference, maxMoment = momentRecent_.reference;
  forceScaleUsed_ = options_.forceScale > 0.0 ? options_.forceScale : (maxForce > 0.0 ? 0.3 * length_ / maxForce : 0.0);
  momentScaleUsed_ =
      options_.momentScale > 0.0 ? options_.momentScale : (maxMoment > 0.0 ? 0.3 * length_ / maxMoment : 0.0);
  const double forceLimit = options_.forceLimit > 0.0 ? options_.forceLimit : maxForce;
  const double momentLimit = options_.momentLimit > 0.0 ? options_.momentLimit : maxMoment;
  for (std::size_t i = 0; i < force_.size(); ++i) {
    const bool show = options_.visible && haveState_ && (!options_.selectedOnly || static_cast<int>(i) == selected_);
    if (!show) {
      force_[i]->SetVisibility(false);
      moment_[i]->SetVisibility(false);
      continue;
    }
    place(force_[i], at_[i], drawn_[i].tail<3>(), forceScaleUsed_, forceLimit);
    place(moment_[i], at_[i], drawn_[i].head<3>(), momentScaleUsed_, momentLimit);
  }
  const std::string text = options_.visible ? label() : std::string();
  text_->SetInput(text.c_str());
  text_->SetVisibility(!text.empty());
}

std::string LoadArrows::label() const {
  if (!haveState_ || selected_ < 0 || selected_ >= tree_.nb) return {};
  const kt::Vec6& w = drawn_[static_cast<std::size_t>(selected_)];
  std::string s = tree_.jointNames[static_cast<std::size_t>(selected_)];
  s += options_.reactionOnly ? " (reaction, world axes)\n" : " (world axes)\n";
  s += "F = " + vectorText(w.tail<3>()) + " N\n";
  s += "M = " + vectorText(w.head<3>()) + " N m";
  return s;
}

}  // namespace kt::render
