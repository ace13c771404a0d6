// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/shape_geometry.hpp"

#include "core/io/mesh.hpp"
#include "render/scene/mesh_polydata.hpp"

#include <vtkAlgorithmOutput.h>
#include <vtkCapsuleSource.h>
#include <vtkCellArray.h>
#include <vtkCleanPolyData.h>
#include <vtkCubeSource.h>
#include <vtkCylinderSource.h>
#include <vtkFloatArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyDataNormals.h>
#include <vtkSphereSource.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace kt::render {

namespace {

vtkSmartPointer<vtkPolyData> transformed(vtkAlgorithmOutput* input, vtkTransform* transform) {
  vtkNew<vtkTransformPolyDataFilter> filter;
  filter->SetInputConnection(input);
  filter->SetTransform(transform);
  filter->Update();
  vtkSmartPointer<vtkPolyData> out = filter->GetOutput();
  return out;
}

// VTK's cylinder and capsule sources lie along y; the format puts the axis along z.
vtkSmartPointer<vtkPolyData> yAxisToZAxis(vtkAlgorithmOutput* input) {
  vtkNew<vtkTransform> t;
  t->RotateX(90.0);  // y → z
  return transformed(input, t);
}

vtkSmartPointer<vtkPolyData> placeholderCube() {
  vtkNew<vtkCubeSource> cube;
  cube->SetXLength(0.05);
  cube->SetYLength(0.05);
  cube->SetZLength(0.05);
  cube->Update();
  vtkSmartPointer<vtkPolyData> out = cube->GetOutput();
  return out;
}

vtkSmartPointer<vtkPolyData> meshGeometry(const kt::Shape& shape, const std::string& modelDirectory,
                                          std::string& warning) {
  // The core's reader: the view accepts and refuses exactly what validation does, with its message.
  kt::TriangleMesh mesh;
  if (!kt::readMesh(kt::resolveMeshPath(shape.mesh, modelDirectory), mesh, warning)) return placeholderCube();
  // STL repeats every corner in each triangle: merge coincident points so that shading is smooth.
  vtkNew<vtkCleanPolyData> merged;
  merged->SetInputData(meshToPolyData(mesh, shape.meshScale, shape.color));
  merged->SetTolerance(0.0);
  // Smooth shading across gentle bends, sharp edges kept.
  vtkNew<vtkPolyDataNormals> normals;
  normals->SetInputConnection(merged->GetOutputPort());
  normals->SetFeatureAngle(40.0);
  normals->SplittingOn();
  normals->ConsistencyOn();
  normals->Update();
  vtkSmartPointer<vtkPolyData> out = normals->GetOutput();
  return out;
}

}  // namespace

vtkSmartPointer<vtkPolyData> prismGeometry(int sides, double radius, double length) {
  sides = std::max(sides, 3);
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> polys;
  vtkNew<vtkFloatArray> normals;
  normals->SetNumberOfComponents(3);
  normals->SetName("Normals");
  const double h = 0.5 * length;
  auto corner = [&](int k) {
    const double a = 2.0 * std::numbers::pi * k / sides;
    return std::array<double, 2>{radius * std::cos(a), radius * std::sin(a)};
  };
  // Side faces: four vertices each, with the face normal (flat shading).
  for (int k = 0; k < sides; ++k) {
    const auto p0 = corner(k);
    const auto p1 = corner(k + 1);
    const double a = 2.0 * std::numbers::pi * (k + 0.5) / sides;
    const float n[3] = {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)), 0.0f};
    const vtkIdType base = points->GetNumberOfPoints();
    points->InsertNextPoint(p0[0], p0[1], -h);
    points->InsertNextPoint(p1[0], p1[1], -h);
    points->InsertNextPoint(p1[0], p1[1], h);
    points->InsertNextPoint(p0[0], p0[1], h);
    for (int j = 0; j < 4; ++j) normals->InsertNextTuple(n);
    const vtkIdType quad[4] = {base, base + 1, base + 2, base + 3};
    polys->InsertNextCell(4, quad);
  }
  // End caps, counter-clockwise seen from outside.
  for (const double z : {h, -h}) {
    const float n[3] = {0.0f, 0.0f, z > 0 ? 1.0f : -1.0f};
    const vtkIdType base = points->GetNumberOfPoints();
    std::vector<vtkIdType> ids(sides);
    for (int k = 0; k < sides; ++k) {
      const auto p = corner(k);
      points->InsertNextPoint(p[0], p[1], z);
      normals->InsertNextTuple(n);
      ids[k] = base + (z > 0 ? k : sides - 1 - k);
    }
    polys->InsertNextCell(sides, ids.data());
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(polys);
  poly->GetPointData()->SetNormals(normals);
  return poly;
}

vtkSmartPointer<vtkPolyData> shapeGeometry(const kt::Shape& shape, const std::string& modelDirectory,
                                           std::string& warning, int resolution) {
  warning.clear();
  resolution = std::max(resolution, 6);
  switch (shape.type) {
    case kt::ShapeType::Box: {
      vtkNew<vtkCubeSource> cube;
      cube->SetXLength(shape.size.x());
      cube->SetYLength(shape.size.y());
      cube->SetZLength(shape.size.z());
      cube->Update();
      vtkSmartPointer<vtkPolyData> out = cube->GetOutput();
      return out;
    }
    case kt::ShapeType::Cylinder: {
      vtkNew<vtkCylinderSource> cylinder;
      cylinder->SetRadius(shape.radius);
      cylinder->SetHeight(shape.length);
      cylinder->SetResolution(resolution);
      cylinder->CappingOn();
      return yAxisToZAxis(cylinder->GetOutputPort());
    }
    case kt::ShapeType::Sphere: {
      vtkNew<vtkSphereSource> sphere;
      sphere->SetRadius(shape.radius);
      sphere->SetThetaResolution(resolution);
      sphere->SetPhiResolution(resolution / 2);
      sphere->Update();
      vtkSmartPointer<vtkPolyData> out = sphere->GetOutput();
      return out;
    }
    case kt::ShapeType::Capsule: {
      vtkNew<vtkCapsuleSource> capsule;
      capsule->SetRadius(shape.radius);
      capsule->SetCylinderLength(shape.length);
      capsule->SetThetaResolution(resolution);
      capsule->SetPhiResolution(resolution / 2);
      capsule->LatLongTessellationOn();
      return yAxisToZAxis(capsule->GetOutputPort());
    }
    case kt::ShapeType::Prism: return prismGeometry(shape.sides, shape.radius, shape.length);
    case kt::ShapeType::Mesh: return meshGeometry(shape, modelDirectory, warning);
  }
  return placeholderCube();
}

}  // namespace kt::render
