// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/mesh_polydata.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>

namespace kt::render {

vtkSmartPointer<vtkPolyData> meshToPolyData(const kt::TriangleMesh& mesh, const kt::Vec3& scale,
                                            const Eigen::Vector4d& fallback) {
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
  if (!mesh.colors.empty() && mesh.colors.size() == mesh.triangles.size()) {
    // the file's colours, one per triangle, as the cell scalars the mapper draws directly
    vtkNew<vtkUnsignedCharArray> colors;
    colors->SetName(kMeshColorsName);
    colors->SetNumberOfComponents(4);
    colors->SetNumberOfTuples(static_cast<vtkIdType>(mesh.colors.size()));
    for (std::size_t t = 0; t < mesh.colors.size(); ++t) {
      std::array<float, 4> c = mesh.colors[t];
      if (c == kt::kNoMeshColor)
        c = {static_cast<float>(fallback[0]), static_cast<float>(fallback[1]), static_cast<float>(fallback[2]),
             static_cast<float>(fallback[3])};
      for (int k = 0; k < 4; ++k)
        colors->SetTypedComponent(static_cast<vtkIdType>(t), k,
                                  static_cast<unsigned char>(std::lround(255.0f * std::clamp(c[k], 0.0f, 1.0f))));
    }
    out->GetCellData()->SetScalars(colors);
  }
  return out;
}

}  // namespace kt::render
