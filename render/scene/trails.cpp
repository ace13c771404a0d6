// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/trails.hpp"

#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>
#include <algorithm>
#include <cmath>

namespace kt::render {

namespace {

// The oldest point of a full trail is drawn this far (0…1) towards the fade colour, a light grey
// close to the view's background.
constexpr double kFade = 0.85;
constexpr double kFadeTo[3] = {225.0, 229.0, 235.0};
constexpr float kLineWidth = 2.5f;

unsigned char toByte(double x) { return static_cast<unsigned char>(std::lround(std::clamp(x, 0.0, 1.0) * 255.0)); }

}  // namespace

Trails::Trails(vtkRenderer* renderer) : renderer_(renderer) {}

Trails::~Trails() { removeActors(); }

void Trails::removeActors() {
  for (Trail& t : trails_) renderer_->RemoveActor(t.actor);
}

void Trails::setBodies(const std::vector<int>& bodies, const std::vector<Eigen::Vector3d>& colours, int capacity) {
  removeActors();
  trails_.clear();
  bodies_ = bodies;
  capacity_ = std::max(2, capacity);
  trails_.resize(bodies.size());
  for (std::size_t s = 0; s < bodies.size(); ++s) {
    Trail& t = trails_[s];
    t.body = bodies[s];
    t.ring.setZero(3, capacity_);
    if (s < colours.size()) {
      for (int c = 0; c < 3; ++c) t.rgb[c] = toByte(colours[s][c]);
    }

    t.points = vtkSmartPointer<vtkPoints>::New();
    t.points->SetDataTypeToDouble();
    t.points->SetNumberOfPoints(capacity_);
    for (vtkIdType k = 0; k < capacity_; ++k) t.points->SetPoint(k, 0.0, 0.0, 0.0);

    t.colours = vtkSmartPointer<vtkUnsignedCharArray>::New();
    t.colours->SetName("Colors");
    t.colours->SetNumberOfComponents(3);
    t.colours->SetNumberOfTuples(capacity_);
    t.colours->Fill(0);

    // One polyline over points 0 … count−1: the connectivity is fixed (0, 1, …, capacity − 1) and
    // only the end offset changes.
    vtkNew<vtkIdTypeArray> connectivity;
    connectivity->SetNumberOfValues(capacity_);
    for (vtkIdType k = 0; k < capacity_; ++k) connectivity->SetValue(k, k);
    vtkNew<vtkIdTypeArray> offsets;
    offsets->SetNumberOfValues(2);
    offsets->SetValue(0, 0);
    offsets->SetValue(1, 0);
    t.lines = vtkSmartPointer<vtkCellArray>::New();
    t.lines->SetData(offsets, connectivity);

    t.poly = vtkSmartPointer<vtkPolyData>::New();
    t.poly->SetPoints(t.points);
    t.poly->SetLines(t.lines);
    t.poly->GetPointData()->SetScalars(t.colours);

    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(t.poly);
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    t.actor = vtkSmartPointer<vtkActor>::New();
    t.actor->SetMapper(mapper);
    t.actor->GetProperty()->SetLineWidth(kLineWidth);
    t.actor->GetProperty()->LightingOff();
    t.actor->GetProperty()->SetRenderLinesAsTubes(false);
    t.actor->PickableOff();
    t.actor->SetVisibility(false);
    renderer_->AddActor(t.actor);
  }
}

int Trails::slotOf(int body) const {
  const auto it = std::find(bodies_.begin(), bodies_.end(), body);
  return it == bodies_.end() ? -1 : static_cast<int>(it - bodies_.begin());
}

void Trails::add(int slot, const Eigen::Vector3d& position) {
  if (slot < 0 || slot >= static_cast<int>(trails_.size()) || !position.allFinite()) return;
  Trail& t = trails_[static_cast<std::size_t>(slot)];
  if (t.count > 0 && t.ring.col((t.head + capacity_ - 1) % capacity_) == position) return;
  t.ring.col(t.head) = position;
  t.head = (t.head + 1) % capacity_;
  t.count = std::min(t.count + 1, capacity_);
  t.dirty = true;
}

void Trails::redraw() {
  for (Trail& t : trails_) {
    if (t.dirty) redraw(t);
    t.dirty = false;
    t.actor->SetVisibility(visible_ && t.count >= 2);
  }
}

void Trails::redraw(Trail& t) const {
  // Oldest first into points 0 … count−1, each coloured by its age.
  auto* xyz = static_cast<double*>(t.points->GetVoidPointer(0));
  unsigned char* rgb = t.colours->GetPointer(0);
  const int first = (t.head + capacity_ - t.count) % capacity_;
  const double span = static_cast<double>(capacity_ - 1);
  for (int k = 0; k < t.count; ++k) {
    const auto p = t.ring.col((first + k) % capacity_);
    xyz[3 * k] = p.x();
    xyz[3 * k + 1] = p.y();
    xyz[3 * k + 2] = p.z();
    const double fade = kFade * static_cast<double>(t.count - 1 - k) / span;
    for (int c = 0; c < 3; ++c) {
      rgb[3 * k + c] = static_cast<unsigned char>(std::lround((1.0 - fade) * t.rgb[c] + fade * kFadeTo[c]));
    }
  }
  vtkDataArray* offsets = t.lines->GetOffsetsArray();  // the cell array's own (SetData may copy)
  offsets->SetComponent(1, 0, static_cast<double>(t.count));
  offsets->Modified();
  t.lines->Modified();
  t.points->Modified();
  t.colours->Modified();
  t.poly->Modified();
}

void Trails::clear() {
  for (Trail& t : trails_) {
    t.head = 0;
    t.count = 0;
    t.dirty = true;
  }
  redraw();
}

void Trails::setVisible(bool visible) {
  visible_ = visible;
  for (Trail& t : trails_) t.actor->SetVisibility(visible_ && t.count >= 2);
}

int Trails::size(int slot) const { return trails_[static_cast<std::size_t>(slot)].count; }

Eigen::Vector3d Trails::point(int slot, int k) const {
  const Trail& t = trails_[static_cast<std::size_t>(slot)];
  const int first = (t.head + capacity_ - t.count) % capacity_;
  return t.ring.col((first + k) % capacity_);
}

vtkActor* Trails::actor(int slot) const { return trails_[static_cast<std::size_t>(slot)].actor; }

vtkPolyData* Trails::geometry(int slot) const { return trails_[static_cast<std::size_t>(slot)].poly; }

}  // namespace kt::render
