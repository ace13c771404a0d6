// SPDX-License-Identifier: BSD-3-Clause
#include "render/overlays/load_arrows.hpp"

#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkCoordinate.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextProperty.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkUnsignedCharArray.h>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/overlays/arrow_geometry.hpp"
#include "render/scene/rigid_batch.hpp"

namespace kt::render {

namespace {

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
  // the legend, upper right: the arrows' scale and what the colour means
  legend_ = vtkSmartPointer<vtkTextActor>::New();
  legend_->GetTextProperty()->SetFontSize(12);
  legend_->GetTextProperty()->SetColor(0.08, 0.1, 0.16);
  legend_->GetTextProperty()->SetJustificationToRight();
  legend_->GetTextProperty()->SetVerticalJustificationToTop();
  legend_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  legend_->SetPosition(0.99, 0.98);
  legend_->SetVisibility(false);
  legend_->SetPickable(false);
  overlay_->AddActor2D(legend_);
  // the colour bar under it: 0 (green) to the limit (red)
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> quads;
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  constexpr int kSteps = 20;
  for (int k = 0; k <= kSteps; ++k) {
    double rgb[3];
    ratioColour(static_cast<double>(k) / kSteps, rgb);
    for (const double y : {0.0, 1.0}) {
      points->InsertNextPoint(static_cast<double>(k) / kSteps, y, 0.0);
      colours->InsertNextTuple3(255 * rgb[0], 255 * rgb[1], 255 * rgb[2]);
    }
    if (k > 0) {
      const vtkIdType quad[4] = {2 * k - 2, 2 * k, 2 * k + 1, 2 * k - 1};
      quads->InsertNextCell(4, quad);
    }
  }
  vtkNew<vtkPolyData> bar;
  bar->SetPoints(points);
  bar->SetPolys(quads);
  bar->GetPointData()->SetScalars(colours);
  vtkNew<vtkCoordinate> placement;  // the unit square mapped onto a strip of the viewport
  placement->SetCoordinateSystemToNormalizedViewport();
  barPlacement_ = vtkSmartPointer<vtkTransform>::New();  // set under the legend's last line by update
  vtkNew<vtkTransformPolyDataFilter> strip;
  strip->SetInputData(bar);
  strip->SetTransform(barPlacement_);
  vtkNew<vtkPolyDataMapper2D> mapper;
  mapper->SetInputConnection(strip->GetOutputPort());
  mapper->SetTransformCoordinate(placement);
  colourBar_ = vtkSmartPointer<vtkActor2D>::New();
  colourBar_->SetMapper(mapper);
  colourBar_->SetVisibility(false);
  colourBar_->SetPickable(false);
  overlay_->AddActor2D(colourBar_);
  barObserver_ = overlay_->AddObserver(vtkCommand::StartEvent, this, &LoadArrows::frameStarts);
}

LoadArrows::~LoadArrows() {
  overlay_->RemoveObserver(barObserver_);
  clear();
  overlay_->RemoveActor2D(text_);
  overlay_->RemoveActor2D(legend_);
  overlay_->RemoveActor2D(colourBar_);
}

void LoadArrows::clear() {
  for (auto& a : force_) overlay_->RemoveActor(a);
  for (auto& a : moment_) overlay_->RemoveActor(a);
  force_.clear();
  moment_.clear();
  for (auto* batch : {&forceBatch_, &momentBatch_}) {
    if (*batch) overlay_->RemoveActor((*batch)->actor());
    batch->reset();
  }
  actorsMade_ = false;
  shown_.clear();
  drawn_.clear();
  at_.clear();
  haveState_ = false;
  selected_ = -1;
  text_->SetVisibility(false);
  legend_->SetVisibility(false);
  colourBar_->SetVisibility(false);
  resetAutoScale();
}

void LoadArrows::resetAutoScale() {
  seenForce_ = seenMoment_ = 0.0;
  givenForce_ = givenMoment_ = 0.0;
  givenWholeRun_ = false;
}

void LoadArrows::setReference(double force, double moment, bool wholeRun) {
  givenForce_ = std::isfinite(force) ? force : 0.0;
  givenMoment_ = std::isfinite(moment) ? moment : 0.0;
  givenWholeRun_ = wholeRun;
  refresh();
}

double LoadArrows::forceReference() const {
  const double r = std::max({givenForce_, seenForce_, weight_});
  return r > noiseForce_ ? r : 0.0;  // all rounding noise: no scale (header, "Dead band")
}
double LoadArrows::momentReference() const {
  const double r = std::max({givenMoment_, seenMoment_, weight_ * length_});
  return r > noiseForce_ * length_ ? r : 0.0;
}

double LoadArrows::forceLimit(int joint) const {
  const auto i = static_cast<std::size_t>(joint);
  return i < ratings_.size() && ratings_[i].force > 0.0 ? ratings_[i].force : options_.forceLimit;
}
double LoadArrows::momentLimit(int joint) const {
  const auto i = static_cast<std::size_t>(joint);
  return i < ratings_.size() && ratings_[i].moment > 0.0 ? ratings_[i].moment : options_.momentLimit;
}

void LoadArrows::build(const kt::Tree& tree, double length) {
  clear();
  tree_ = tree;
  ratings_.clear();
  weight_ = tree.totalMass() * tree.gravity.norm();
  noiseForce_ = 1e-9 * tree.totalMass() * 9.80665;  // the weight under standard gravity, whatever the model's
  length_ = length > 0.0 ? length : 1.0;
  const auto n = static_cast<std::size_t>(tree_.nb);
  drawn_.assign(n, kt::Vec6::Zero());
  body_.assign(n, kt::Vec6::Zero());
  at_.assign(n, Eigen::Vector3d::Zero());
  shown_.assign(n, 0);
}

// The actors, made when the arrows are first shown: a large tree's batches take a while to
// build, and most sessions never show the arrows.
void LoadArrows::makeActors() {
  actorsMade_ = true;
  const auto n = static_cast<std::size_t>(tree_.nb);
  if (batched()) {
    const Eigen::Matrix4d identity = Eigen::Matrix4d::Identity();
    for (auto* batch : {&forceBatch_, &momentBatch_}) {
      *batch = std::make_unique<RigidBatch>(RigidBatch::Cells::Polygons, RigidBatch::Colours::PerPoint);
      vtkPolyData* shape = batch == &forceBatch_ ? forceShape_ : momentShape_;
      for (std::size_t i = 0; i < n; ++i) (*batch)->add(shape, identity, {255, 255, 255, 255});
      (*batch)->finish();
      vtkActor* actor = (*batch)->actor();
      actor->SetPickable(false);
      actor->SetVisibility(false);
      actor->GetProperty()->SetAmbient(0.3);
      overlay_->AddActor(actor);
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (int kind = 0; kind < 2; ++kind) {
      auto& list = kind == 0 ? force_ : moment_;
      list.push_back(arrowActor(kind == 0 ? forceShape_ : momentShape_));
      overlay_->AddActor(list.back());
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

void LoadArrows::update(const kt::Kinematics& poses, const Eigen::VectorXd& q,
                        const kt::SignalLayout::RecordedLoads& loads) {
  const auto nb = static_cast<std::size_t>(tree_.nb);
  if (nb == 0 || q.size() != tree_.nq || poses.X_0.size() != nb || loads.f.size() != nb || loads.fWorld.size() != nb ||
      loads.lambda.size() != tree_.nlambda)
    return;
  kt::Mat6N T;
  for (std::size_t i = 0; i < nb; ++i) {
    const kt::Xform& X = poses.X_0[i];  // world → body i
    kt::Vec6 f = loads.f[i];
    kt::Vec6 w = loads.fWorld[i];
    if (options_.reactionOnly) {  // T_i λ_i, the part the joint's constraints carry
      tree_.joints[i].constraintSubspace(q.data() + tree_.qOffset[i], T);
      f = T * loads.lambda.segment(tree_.lambdaOffset[i], T.cols());
      w.head<3>() = X.E.transpose() * f.head<3>();
      w.tail<3>() = X.E.transpose() * f.tail<3>();
    }
    drawn_[i] = w;
    body_[i] = f;
    at_[i] = X.r;
    if (std::isfinite(w.norm())) {
      seenMoment_ = std::max(seenMoment_, w.head<3>().norm());
      seenForce_ = std::max(seenForce_, w.tail<3>().norm());
    }
  }
  haveState_ = true;
  refresh();
}

bool LoadArrows::placement(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale, double limit,
                           double deadBand, Eigen::Matrix4d& m, double rgb[3]) const {
  if (!arrowMatrix(origin, vector, scale, deadBand, length_, m)) return false;
  const double magnitude = vector.norm();
  if (limit > 0.0) {
    ratioColour(magnitude / limit, rgb);
  } else {  // no limit: a neutral colour, which says nothing of the size
    rgb[0] = 0.2;
    rgb[1] = 0.45;
    rgb[2] = 0.85;
  }
  return true;
}

bool LoadArrows::place(vtkActor* actor, RigidBatch* batch, int part, const Eigen::Vector3d& origin,
                       const Eigen::Vector3d& vector, double scale, double limit, double deadBand) const {
  Eigen::Matrix4d m;
  double rgb[3];
  const bool drawn = placement(origin, vector, scale, limit, deadBand, m, rgb);
  if (batch != nullptr) {
    // A hidden arrow of a batch collapses onto the joint origin.
    if (!drawn) m = Eigen::Matrix4d::Zero();
    m.block<3, 1>(0, 3) = origin.allFinite() ? origin : Eigen::Vector3d::Zero();
    batch->place(part, m, false);
    if (drawn) {
      RigidBatch::Rgba c{};
      for (int k = 0; k < 3; ++k)
        c[static_cast<std::size_t>(k)] = static_cast<unsigned char>(std::lround(255.0 * rgb[k]));
      c[3] = 255;
      batch->setPartColour(part, &c);
    }
    return drawn;
  }
  if (!drawn) {
    actor->SetVisibility(false);
    return false;
  }
  vtkMatrix4x4* out = actor->GetUserMatrix();  // made with the actor in build(): no allocation here
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) out->SetElement(r, c, m(r, c));
  }
  out->Modified();
  actor->GetProperty()->SetColor(rgb);
  actor->SetVisibility(true);
  return true;
}

void LoadArrows::setRatings(std::vector<kt::LoadRating> ratings) {
  ratings_ = std::move(ratings);
  refresh();
}

void LoadArrows::refresh() {
  const double forceRef = forceReference(), momentRef = momentReference();
  forceScaleUsed_ = options_.forceScale > 0.0 ? options_.forceScale : (forceRef > 0.0 ? 0.3 * length_ / forceRef : 0.0);
  momentScaleUsed_ =
      options_.momentScale > 0.0 ? options_.momentScale : (momentRef > 0.0 ? 0.3 * length_ / momentRef : 0.0);
  const double forceBand = options_.deadBand * forceRef, momentBand = options_.deadBand * momentRef;
  const bool anyShown = options_.visible && haveState_;
  if (options_.visible && !actorsMade_) makeActors();
  for (std::size_t i = 0; i < shown_.size() && actorsMade_; ++i) {
    const bool show = anyShown && (!options_.selectedOnly || static_cast<int>(i) == selected_);
    const int part = static_cast<int>(i);
    const double fLimit = forceLimit(part), mLimit = momentLimit(part);
    if (batched()) {
      // Hidden batches are left as they are; a batch shown places every arrow.
      if (!anyShown) {
        shown_[i] = 0;
        continue;
      }
      const Eigen::Vector3d none = Eigen::Vector3d::Zero();
      const bool f = place(nullptr, forceBatch_.get(), part, at_[i], show ? Eigen::Vector3d(drawn_[i].tail<3>()) : none,
                           forceScaleUsed_, fLimit, forceBand);
      const bool m = place(nullptr, momentBatch_.get(), part, at_[i],
                           show ? Eigen::Vector3d(drawn_[i].head<3>()) : none, momentScaleUsed_, mLimit, momentBand);
      shown_[i] = static_cast<unsigned char>((f ? kForceShown : 0) | (m ? kMomentShown : 0));
      continue;
    }
    if (!show) {
      force_[i]->SetVisibility(false);
      moment_[i]->SetVisibility(false);
      shown_[i] = 0;
      continue;
    }
    const bool f = place(force_[i], nullptr, part, at_[i], drawn_[i].tail<3>(), forceScaleUsed_, fLimit, forceBand);
    const bool m = place(moment_[i], nullptr, part, at_[i], drawn_[i].head<3>(), momentScaleUsed_, mLimit, momentBand);
    shown_[i] = static_cast<unsigned char>((f ? kForceShown : 0) | (m ? kMomentShown : 0));
  }
  for (auto* batch : {forceBatch_.get(), momentBatch_.get()}) {
    if (batch == nullptr) continue;
    batch->actor()->SetVisibility(anyShown);
    if (anyShown) batch->commit();
  }
  const std::string text = options_.visible ? label() : std::string();
  text_->SetInput(text.c_str());
  text_->SetVisibility(!text.empty());
  const std::string legend = legendText();
  legend_->SetInput(legend.c_str());
  legend_->SetVisibility(!legend.empty());
  bool anyLimit = options_.forceLimit > 0.0 || options_.momentLimit > 0.0;
  for (const kt::LoadRating& r : ratings_) anyLimit = anyLimit || r.force > 0.0 || r.moment > 0.0;
  // under the legend's line that announces it (not there while no load is above rounding noise)
  colourBar_->SetVisibility(anyLimit && legend.find("(bar below)") != std::string::npos);  // placed by placeColourBar
}

bool LoadArrows::colourBarShown() const { return colourBar_->GetVisibility() != 0; }

void LoadArrows::setTextSize(int legendPixels, int labelPixels) {
  legend_->GetTextProperty()->SetFontSize(legendPixels);
  text_->GetTextProperty()->SetFontSize(labelPixels);
  barTop_ = -1.0;  // the legend's height changed: the bar is placed again
}

void LoadArrows::frameStarts() {
  // a small view (a small window, or a dock under the view taking its height): the legend in two
  // lines fewer, which would cover the model
  const int* size = overlay_->GetSize();
  const bool compact = size[0] > 0 && size[1] > 0 && (size[1] < kCompactHeight || size[0] < kCompactWidth);
  if (compact != compact_) {
    compact_ = compact;
    if (legend_->GetVisibility()) {
      legend_->SetInput(legendText().c_str());
      barTop_ = -1.0;  // the legend's height changed: the bar is placed again
    }
  }
  placeColourBar();
}

void LoadArrows::placeColourBar() {
  if (!colourBar_->GetVisibility()) return;
  // under the legend's last line ("… (bar below)"), however many lines the legend has: its box in
  // pixels from its anchor (the top right corner), made a fraction of the viewport as the strip's
  // coordinates are. Placed as the frame starts, at the size it is drawn at: placed when the
  // loads came, a view not yet laid out (a report's picture, a video's first frame) put the bar
  // outside the picture.
  double box[4];
  legend_->GetBoundingBox(overlay_, box);
  const int* size = overlay_->GetSize();
  const double height = size[1] > 0 ? static_cast<double>(size[1]) : 1.0;
  const double top = legend_->GetPosition()[1] + box[2] / height - 0.008;
  if (top == barTop_) return;  // as placed: the strip is not made again every frame
  barTop_ = top;
  barPlacement_->Identity();
  barPlacement_->Translate(0.79, top - 0.02, 0.0);
  barPlacement_->Scale(0.2, 0.02, 1.0);
}

namespace {

// The largest 1, 2 or 5 × 10^k not above x.
double roundDown(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return 0.0;
  const double mag = std::pow(10.0, std::floor(std::log10(x)));
  const double f = x / mag;
  return (f >= 5.0 ? 5.0 : f >= 2.0 ? 2.0 : 1.0) * mag;
}

std::string lengthText(double metres) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, metres < 1.0 ? "%.0f mm" : "%.2f m", metres < 1.0 ? 1e3 * metres : metres);
  return buffer;
}

}  // namespace

double LoadArrows::legendForce() const { return roundDown(forceReference()); }
double LoadArrows::legendMoment() const { return roundDown(momentReference()); }

std::string LoadArrows::legendText() const {
  if (!options_.visible || !haveState_) return {};
  char buffer[256];
  std::string s = options_.reactionOnly ? "Constraint forces (reaction part)\n" : "Joint loads (whole wrench)\n";
  if (forceReference() == 0.0 && momentReference() == 0.0 && options_.forceScale <= 0.0 && options_.momentScale <= 0.0)
    return s + "none yet above rounding noise\n";
  if (legendForce() > 0.0 && forceScaleUsed_ > 0.0) {
    std::snprintf(buffer, sizeof buffer, "force %g N: arrow %s\n", legendForce(),
                  lengthText(legendForce() * forceScaleUsed_).c_str());
    s += buffer;
  }
  if (legendMoment() > 0.0 && momentScaleUsed_ > 0.0) {
    std::snprintf(buffer, sizeof buffer, "moment %g N·m: two tips, %s\n", legendMoment(),
                  lengthText(legendMoment() * momentScaleUsed_).c_str());
    s += buffer;
  }
  // where the lengths come from: an arrow is only comparable with another of the same scale
  const bool manual = options_.forceScale > 0.0 && options_.momentScale > 0.0;
  if (manual) {
    s += "lengths: scales set by hand\n";
  } else if (givenForce_ > 0.0 || givenMoment_ > 0.0) {
    s += givenWholeRun_ ? "lengths fixed for this run (its largest load)\n"
                        : "lengths follow the run's largest load so far\n";
  } else if (weight_ > 0.0) {
    s += "lengths fixed from the model's weight\n";
  } else {
    s += "lengths follow the largest load drawn\n";
  }
  if (!compact_) {
    std::snprintf(buffer, sizeof buffer, "not drawn below %g %% of the largest load\n", 100.0 * options_.deadBand);
    s += buffer;
  }
  bool rated = false;
  for (const kt::LoadRating& r : ratings_) rated = rated || r.force > 0.0 || r.moment > 0.0;
  const bool limit = options_.forceLimit > 0.0 || options_.momentLimit > 0.0;
  if ((rated || limit) && compact_) {
    s += rated ? "colour: share of the rating (bar below)" : "colour: share of the limit (bar below)";
  } else if (rated || limit) {
    s += rated ? "colour: share of the joint's rating" : "colour: share of the limit";
    if (rated && limit) s += " (else of the limit)";
    s += ",\ngreen 0 %, yellow 50 %, red 100 % (bar below)";
  } else {
    s += "colour: no rating or limit set";
  }
  return s;
}

std::string LoadArrows::label() const {
  if (!haveState_ || selected_ < 0 || selected_ >= tree_.nb) return {};
  const kt::Vec6& w =
      options_.worldAxes ? drawn_[static_cast<std::size_t>(selected_)] : body_[static_cast<std::size_t>(selected_)];
  std::string s = tree_.jointNames[static_cast<std::size_t>(selected_)];
  s += options_.reactionOnly ? " (constraint forces, " : " (joint load, ";
  s += options_.worldAxes ? "world axes)\n" : "joint frame)\n";
  s += "F = " + vectorText(w.tail<3>()) + " N\n";
  s += "M = " + vectorText(w.head<3>()) + " N·m";
  return s;
}

}  // namespace kt::render
