// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/mesh_polydata.hpp"

#include <vtkCellArray.h>
#include <vtkPoints.h>

namespace kt::render {

vtkSmartPointer<vtkPolyData> meshToPolyData(const kt::TriangleMesh& mesh, const kt::Vec3& scale) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(mesh.vertices.size()));
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    const kt::Vec3 p = mesh.vertices[v].cwiseProduct(scale);
    points->SetPoint(static_cast<vtkIdType>(v), p.x(), p.y(), p.z());
  }
  vtkNew<vtkCellArray> polys;
  polys->AllocateExact(static_cast<vtkIdType>(mesh.triangles.size()),
                       3 * static_cast<vtkIdType>(mesh.triangles.size()));
  for (const auto& t : mesh.triangles) {
    const vtkIdType ids[3] = {t[0], t[1], t[2]};
    polys->InsertNextCell(3, ids);
  }
  auto out = vtkSmartPointer<vtkPolyData>::New();
  out->SetPoints(points);
  out->SetPolys(polys);
  return out;
}

}  // namespace kt::render
