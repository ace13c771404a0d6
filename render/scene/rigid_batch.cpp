// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/rigid_batch.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace kt::render {

namespace {

// The geometry's colour of point or cell k as RGBA (its scalars hold 3 or 4 components, 0–255).
RigidBatch::Rgba colourAt(vtkDataArray* scalars, vtkIdType k, const RigidBatch::Rgba& fallback) {
  if (scalars == nullptr || k >= scalars->GetNumberOfTuples()) return fallback;
  RigidBatch::Rgba c = fallback;
  const int n = std::min(scalars->GetNumberOfComponents(), 4);
  for (int j = 0; j < n; ++j) c[j] = static_cast<unsigned char>(std::clamp(scalars->GetComponent(k, j), 0.0, 255.0));
  return c;
}

// Scalars usable as colours: unsigned char with 3 or 4 components.
vtkDataArray* colourScalars(vtkDataArray* scalars) {
  if (scalars == nullptr || scalars->GetDataType() != VTK_UNSIGNED_CHAR) return nullptr;
  const int n = scalars->GetNumberOfComponents();
  return n == 3 || n == 4 ? scalars : nullptr;
}

}  // namespace

RigidBatch::RigidBatch(Cells cells, Colours colours) : cells_(cells), colourMode_(colours) {
  offsets_.push_back(0);
  poly_ = vtkSmartPointer<vtkPolyData>::New();
  points_ = vtkSmartPointer<vtkPoints>::New();
  points_->SetDataTypeToFloat();
  colourArray_ = vtkSmartPointer<vtkUnsignedCharArray>::New();
  colourArray_->SetName("Colors");
  colourArray_->SetNumberOfComponents(4);
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  mapper->SetInputData(poly_);
  mapper->ScalarVisibilityOn();
  if (colourMode_ == Colours::PerPoint) {
    mapper->SetScalarModeToUsePointData();
  } else {
    mapper->SetScalarModeToUseCellData();
  }
  mapper->SetColorModeToDirectScalars();
  actor_ = vtkSmartPointer<vtkActor>::New();
  actor_->SetMapper(mapper);
}

RigidBatch::~RigidBatch() = default;

int RigidBatch::add(vtkPolyData* geometry, const Eigen::Matrix4d& placement, const Rgba& colour) {
  Part part;
  part.firstPoint = pointCount();
  part.firstCell = cellCount_;
  const vtkIdType n = geometry->GetNumberOfPoints();
  part.pointCount = n;
  vtkDataArray* normals = cells_ == Cells::Polygons ? geometry->GetPointData()->GetNormals() : nullptr;
  const Eigen::Matrix3d R = placement.topLeftCorner<3, 3>();
  const Eigen::Vector3d t = placement.topRightCorner<3, 1>();
  // Normals move with the inverse transpose; a placement is a rotation and a translation.
  for (vtkIdType k = 0; k < n; ++k) {
    double p[3];
    geometry->GetPoint(k, p);
    const Eigen::Vector3d x = R * Eigen::Vector3d(p[0], p[1], p[2]) + t;
    for (int j = 0; j < 3; ++j) local_.push_back(static_cast<float>(x[j]));
    if (cells_ == Cells::Polygons) {
      Eigen::Vector3d m = Eigen::Vector3d::UnitZ();
      if (normals != nullptr) {
        double v[3];
        normals->GetTuple(k, v);
        m = R * Eigen::Vector3d(v[0], v[1], v[2]);
      }
      for (int j = 0; j < 3; ++j) localNormals_.push_back(static_cast<float>(m[j]));
    }
  }

  // Cells, renumbered after the points already in the batch; triangle strips become triangles.
  vtkIdType cellIdBase = geometry->GetNumberOfVerts();  // cell ids: verts, lines, polys, strips
  vtkDataArray* cellColours = colourScalars(geometry->GetCellData()->GetScalars());
  auto addCell = [&](vtkIdType size, const vtkIdType* ids, vtkIdType sourceCell) {
    for (vtkIdType k = 0; k < size; ++k) connectivity_.push_back(part.firstPoint + ids[k]);
    offsets_.push_back(static_cast<vtkIdType>(connectivity_.size()));
    ++part.cellCount;
    if (colourMode_ == Colours::PerCell) {
      const Rgba c = colourAt(cellColours, sourceCell, colour);
      own_.insert(own_.end(), c.begin(), c.end());
    }
  };
  // every cell of one array as it is (lines, polygons), numbered from `base`
  const auto addCells = [&](vtkCellArray* cells, vtkIdType base) {
    for (vtkIdType c = 0; c < cells->GetNumberOfCells(); ++c) {
      vtkIdType size = 0;
      const vtkIdType* ids = nullptr;
      cells->GetCellAtId(c, size, ids);
      addCell(size, ids, base + c);
    }
  };
  if (cells_ == Cells::Lines) {
    addCells(geometry->GetLines(), cellIdBase);
  } else {
    cellIdBase += geometry->GetNumberOfLines();
    vtkCellArray* polys = geometry->GetPolys();
    addCells(polys, cellIdBase);
    cellIdBase += polys->GetNumberOfCells();
    vtkCellArray* strips = geometry->GetStrips();
    for (vtkIdType c = 0; c < strips->GetNumberOfCells(); ++c) {
      vtkIdType size = 0;
      const vtkIdType* ids = nullptr;
      strips->GetCellAtId(c, size, ids);
      for (vtkIdType k = 0; k + 2 < size; ++k) {
        // Every other triangle of a strip is wound the other way.
        const vtkIdType tri[3] = {ids[k], ids[k % 2 == 0 ? k + 1 : k + 2], ids[k % 2 == 0 ? k + 2 : k + 1]};
        addCell(3, tri, cellIdBase + c);
      }
    }
  }
  cellCount_ += part.cellCount;
  if (colourMode_ == Colours::PerPoint) {
    vtkDataArray* pointColours = colourScalars(geometry->GetPointData()->GetScalars());
    for (vtkIdType k = 0; k < n; ++k) {
      const Rgba c = colourAt(pointColours, k, colour);
      own_.insert(own_.end(), c.begin(), c.end());
    }
  }
  parts_.push_back(part);
  return static_cast<int>(parts_.size()) - 1;
}

void RigidBatch::finish() {
  const vtkIdType n = pointCount();
  points_->SetNumberOfPoints(n);
  auto* world = static_cast<vtkFloatArray*>(points_->GetData())->GetPointer(0);
  std::copy(local_.begin(), local_.end(), world);
  poly_->SetPoints(points_);

  auto offsets = vtkSmartPointer<vtkIdTypeArray>::New();
  offsets->SetNumberOfValues(static_cast<vtkIdType>(offsets_.size()));
  std::copy(offsets_.begin(), offsets_.end(), offsets->GetPointer(0));
  auto connectivity = vtkSmartPointer<vtkIdTypeArray>::New();
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(connectivity_.size()));
  std::copy(connectivity_.begin(), connectivity_.end(), connectivity->GetPointer(0));
  auto cellArray = vtkSmartPointer<vtkCellArray>::New();
  cellArray->SetData(offsets, connectivity);
  if (cells_ == Cells::Lines) {
    poly_->SetLines(cellArray);
    actor_->GetProperty()->LightingOff();
  } else {
    poly_->SetPolys(cellArray);
    normals_ = vtkSmartPointer<vtkFloatArray>::New();
    normals_->SetName("Normals");
    normals_->SetNumberOfComponents(3);
    normals_->SetNumberOfTuples(n);
    std::copy(localNormals_.begin(), localNormals_.end(), normals_->GetPointer(0));
    poly_->GetPointData()->SetNormals(normals_);
  }
  // The VTK arrays hold them now.
  offsets_ = {};
  connectivity_ = {};

  colourArray_->SetNumberOfTuples(static_cast<vtkIdType>(own_.size() / 4));
  std::copy(own_.begin(), own_.end(), colourArray_->GetPointer(0));
  if (colourMode_ == Colours::PerPoint) {
    poly_->GetPointData()->SetScalars(colourArray_);
  } else {
    poly_->GetCellData()->SetScalars(colourArray_);
  }
  poly_->Modified();
}

int RigidBatch::partOfCell(vtkIdType cell) const {
  if (cell < 0 || cell >= cellCount_) return -1;
  // The parts' first cells increase: the last part starting at or before `cell`.
  const auto it =
      std::upper_bound(parts_.begin(), parts_.end(), cell, [](vtkIdType c, const Part& p) { return c < p.firstCell; });
  return static_cast<int>(it - parts_.begin()) - 1;
}

void RigidBatch::place(int part, const Eigen::Matrix4d& pose, bool rigid) {
  const Part& p = parts_[static_cast<std::size_t>(part)];
  const Eigen::Matrix3f R = pose.topLeftCorner<3, 3>().cast<float>();
  const Eigen::Vector3f t = pose.topRightCorner<3, 1>().cast<float>();
  float* world = static_cast<vtkFloatArray*>(points_->GetData())->GetPointer(3 * p.firstPoint);
  const float* local = local_.data() + 3 * p.firstPoint;
  for (vtkIdType k = 0; k < p.pointCount; ++k) {
    Eigen::Map<Eigen::Vector3f>(world + 3 * k) = R * Eigen::Map<const Eigen::Vector3f>(local + 3 * k) + t;
  }
  if (!normals_) return;
  float* normals = normals_->GetPointer(3 * p.firstPoint);
  const float* localNormals = localNormals_.data() + 3 * p.firstPoint;
  if (rigid) {
    for (vtkIdType k = 0; k < p.pointCount; ++k) {
      Eigen::Map<Eigen::Vector3f>(normals + 3 * k) = R * Eigen::Map<const Eigen::Vector3f>(localNormals + 3 * k);
    }
    return;
  }
  const Eigen::Matrix3d A = pose.topLeftCorner<3, 3>();
  const double det = A.determinant();
  if (!(std::abs(det) > 1e-300) || !std::isfinite(det)) return;
  const Eigen::Matrix3f N = A.inverse().transpose().cast<float>();
  for (vtkIdType k = 0; k < p.pointCount; ++k) {
    Eigen::Map<Eigen::Vector3f> n(normals + 3 * k);
    n = N * Eigen::Map<const Eigen::Vector3f>(localNormals + 3 * k);
    const float length = n.norm();
    if (length > 0.0f) n /= length;
  }
}

void RigidBatch::setPartColour(int part, const Rgba* colour) {
  if (part < 0 || part >= partCount()) return;
  const Part& p = parts_[static_cast<std::size_t>(part)];
  const vtkIdType first = colourMode_ == Colours::PerPoint ? p.firstPoint : p.firstCell;
  const vtkIdType count = colourMode_ == Colours::PerPoint ? p.pointCount : p.cellCount;
  unsigned char* out = colourArray_->GetPointer(4 * first);
  const unsigned char* own = own_.data() + 4 * first;
  for (vtkIdType k = 0; k < count; ++k) {
    for (int j = 0; j < 4; ++j)
      out[4 * k + j] = colour != nullptr ? (*colour)[static_cast<std::size_t>(j)] : own[4 * k + j];
  }
  coloursChanged_ = true;
}

void RigidBatch::commit() {
  points_->Modified();
  if (normals_) normals_->Modified();
  if (coloursChanged_) {
    colourArray_->Modified();
    coloursChanged_ = false;
  }
  poly_->Modified();
}

}  // namespace kt::render
