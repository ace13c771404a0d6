// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/scene_decorations.hpp"

#include <vtkCell.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>
#include <vtkUnsignedCharArray.h>
#include <cmath>

namespace kt::render {

double niceSpacing(double extent, int lines) {
  if (!(extent > 0.0) || !std::isfinite(extent)) return 1.0;
  const double raw = extent / std::max(lines, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * decade) return m * decade;
  }
  return 10.0 * decade;
}

vtkSmartPointer<vtkActor> makeGridActor(double halfSize, double spacing) {
  const int n = std::max(1, static_cast<int>(std::ceil(halfSize / spacing)));
  const double h = n * spacing;
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("Colors");
  auto addLine = [&](double x0, double y0, double x1, double y1, bool major) {
    const unsigned char c[3] = {static_cast<unsigned char>(major ? 120 : 165),
                                static_cast<unsigned char>(major ? 126 : 170),
                                static_cast<unsigned char>(major ? 136 : 178)};
    const vtkIdType a = points->InsertNextPoint(x0, y0, 0.0);
    const vtkIdType b = points->InsertNextPoint(x1, y1, 0.0);
    colors->InsertNextTypedTuple(c);
    colors->InsertNextTypedTuple(c);
    const vtkIdType ids[2] = {a, b};
    lines->InsertNextCell(2, ids);
  };
  for (int k = -n; k <= n; ++k) {
    const bool major = (k % 5 == 0);
    addLine(k * spacing, -h, k * spacing, h, major);
    addLine(-h, k * spacing, h, k * spacing, major);
  }
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(points);
  poly->SetLines(lines);
  poly->GetPointData()->SetScalars(colors);
  auto actor = makeLineActor(poly, 1.0f);
  actor->PickableOff();
  return actor;
}

vtkSmartPointer<vtkPolyData> triadGeometry(double length, const kt::Vec3& axis) {
  vtkNew<vtkPoints> points;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("Colors");
  auto addLine = [&](const kt::Vec3& a, const kt::Vec3& b, const unsigned char(&c)[3]) {
    const vtkIdType ia = points->InsertNextPoint(a.x(), a.y(), a.z());
    const vtkIdType ib = points->InsertNextPoint(b.x(), b.y(), b.z());
    colors->InsertNextTypedTuple(c);
    colors->InsertNextTypedTuple(c);
    const vtkIdType ids[2] = {ia, ib};
    lines->InsertNextCell(2, ids);
  };
  const unsigned char red[3] = {220, 40, 40}, green[3] = {40, 180, 40}, blue[3] = {50, 80, 230},
                      yellow[3] = {240, 200, 0};
  addLine(kt::Vec3::Zero(), length * kt::Vec3::UnitX(), red);
  addLine(kt::Vec3::Zero(), length * kt::Vec3::UnitY(), green);
  addLine(kt::Vec3::Zero(), length * kt::Vec3::UnitZ(), blue);
  if (axis.norm() > 0.0) {
    const kt::Vec3 u = axis.normalized() * (1.6 * length);
    addLine(-u, u, yellow);
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetLines(lines);
  poly->GetPointData()->SetScalars(colors);
  return poly;
}

vtkSmartPointer<vtkActor> makeLineActor(vtkPolyData* geometry, float lineWidth) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(geometry);
  mapper->SetScalarModeToUsePointData();
  mapper->SetColorModeToDirectScalars();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetLineWidth(lineWidth);
  actor->GetProperty()->LightingOff();
  return actor;
}

vtkSmartPointer<vtkPolyData> centreOfMassGeometry(double radius, int resolution) {
  // The usual centre-of-mass symbol: octants alternately dark and yellow.
  vtkNew<vtkSphereSource> sphere;
  sphere->SetRadius(radius);
  sphere->SetThetaResolution(resolution);
  sphere->SetPhiResolution(resolution / 2);
  sphere->Update();
  vtkSmartPointer<vtkPolyData> poly = sphere->GetOutput();
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("Colors");
  for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c) {
    double centre[3] = {0, 0, 0};
    vtkCell* cell = poly->GetCell(c);
    for (vtkIdType k = 0; k < cell->GetNumberOfPoints(); ++k) {
      double p[3];
      poly->GetPoint(cell->GetPointId(k), p);
      for (int j = 0; j < 3; ++j) centre[j] += p[j];
    }
    const int sign = (centre[0] >= 0) ^ (centre[1] >= 0) ^ (centre[2] >= 0);
    const unsigned char dark[3] = {30, 30, 30}, light[3] = {250, 210, 20};
    colors->InsertNextTypedTuple(sign ? light : dark);
  }
  poly->GetCellData()->SetScalars(colors);
  return poly;
}

vtkSmartPointer<vtkActor> makeCentreOfMassActor(double radius) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(centreOfMassGeometry(radius));
  mapper->SetScalarModeToUseCellData();
  mapper->SetColorModeToDirectScalars();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->PickableOff();
  return actor;
}

}  // namespace kt::render
