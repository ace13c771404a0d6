// SPDX-License-Identifier: BSD-3-Clause
// Meshes in the 3D view go through the core's reader (core/io/mesh.hpp): the view draws exactly
// what validation accepts, and a file the reader refuses is shown as a small stand-in cube with
// the reader's message, never handed to VTK (an out-of-range face index used to crash it).
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkPolyData.h>
#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "core/io/mesh.hpp"
#include "core/io/model_files.hpp"
#include "render/scene/mesh_polydata.hpp"
#include "render/scene/shape_geometry.hpp"

using namespace kt;

namespace {

const std::string kMalformed = std::string(KINETREE_TEST_DATA) + "/malformed/";

// A unit cube as a binary STL with `padding` zero bytes after the 12 records.
std::string paddedBinaryCube(std::size_t padding) {
  const float c[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::string bytes(80, ' ');
  const std::uint32_t n = 12;
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& q : quads) {
    const int tris[2][3] = {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}};
    for (const auto& t : tris) {
      float rec[12] = {0, 0, 0};
      for (int k = 0; k < 3; ++k) std::memcpy(rec + 3 + 3 * k, c[t[k]], sizeof(float) * 3);
      bytes.append(reinterpret_cast<const char*>(rec), 48);
      bytes.append(2, '\0');
    }
  }
  bytes.append(padding, '\0');
  return bytes;
}

Shape meshShape(const std::string& file) {
  Shape s;
  s.type = ShapeType::Mesh;
  s.mesh = file;
  return s;
}

}  // namespace

class TestMeshGeometry : public QObject {
  Q_OBJECT

 private slots:
  // A face index beyond the vertex count (or a relative one before the first vertex) is refused
  // by the reader; the view shows the stand-in with that message instead of crashing in VTK.
  void outOfRangeFaceIndicesAreRefusedWithTheReadersMessage() {
    for (const char* file : {"bad_index.obj", "negative_index.obj"}) {
      std::string warning;
      const auto poly = render::shapeGeometry(meshShape(file), kMalformed, warning);
      QVERIFY2(warning.find("is out of range") != std::string::npos, warning.c_str());
      QVERIFY(warning.find(file) != std::string::npos);
      QVERIFY(poly->GetNumberOfCells() > 0);  // the stand-in cube
      TriangleMesh m;
      std::string error;
      QVERIFY(!readMesh(kMalformed + file, m, error));
      QCOMPARE(warning, error);
    }
  }

  // A COLLADA file's materials colour the triangles the view draws (as cell scalars that the
  // shape actor's mapper draws directly); an STL has none, and takes the shape's colour.
  void meshColoursReachTheView() {
    std::string warning;
    const auto dae =
        render::shapeGeometry(meshShape("box_cm_zup.dae"), std::string(KINETREE_TEST_DATA) + "/meshes/", warning);
    QVERIFY2(warning.empty(), warning.c_str());
    vtkDataArray* colors = dae->GetCellData()->GetArray(render::kMeshColorsName);
    QVERIFY(colors);
    QCOMPARE(colors->GetNumberOfTuples(), dae->GetNumberOfCells());
    QCOMPARE(colors->GetNumberOfComponents(), 4);
    QCOMPARE(colors->GetComponent(0, 3), 255.0);
    QVERIFY(dae->GetBounds()[5] > 0.299 && dae->GetBounds()[5] < 0.301);  // 30 cm as 0.3 m
    TriangleMesh cube;
    std::string error;
    QVERIFY(parseStl(paddedBinaryCube(0), cube, error));
    QVERIFY(!render::meshToPolyData(cube, Vec3::Ones())->GetCellData()->GetArray(render::kMeshColorsName));
  }

  // A binary STL with a few bytes after its last record: the view and the physics both read the
  // 12 triangles its header announces.
  void paddedBinaryStlReadsTheSameEverywhere() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("padded.stl").toStdString();
    { std::ofstream(path, std::ios::binary) << paddedBinaryCube(2); }
    TriangleMesh m;
    std::string error;
    QVERIFY2(readMesh(path, m, error), error.c_str());
    QCOMPARE(m.triangles.size(), std::size_t(12));
    QVERIFY2(checkClosedSurface(m, error), error.c_str());
    std::string warning;
    const auto poly = render::shapeGeometry(meshShape("padded.stl"), dir.path().toStdString(), warning);
    QVERIFY2(warning.empty(), warning.c_str());
    QCOMPARE(poly->GetNumberOfPolys(), vtkIdType(12));
    double b[6];
    poly->GetBounds(b);
    QCOMPARE(b[1] - b[0], 1.0);
    // Mass properties from it: a 1 m cube of 1000 kg/m³.
    Model model;
    model.sourceDirectory = dir.path().toStdString();
    BodySpec body;
    body.name = "cube";
    body.parent = "world";
    body.inertial.fromShapes = true;
    body.inertial.density = 1000;
    body.shapes = {meshShape("padded.stl")};
    MassProperties mp;
    QVERIFY2(bodyMassProperties(body, model.sourceDirectory, meshFiles(), mp, error), error.c_str());
    QCOMPARE(mp.mass, 1000.0);
  }

  // Paths that are not mesh files: the same message in the view as in validation.
  void directoriesAndDevicesAreNamedForWhatTheyAre() {
    std::string warning;
    render::shapeGeometry(meshShape("folder.stl"), kMalformed, warning);
    QVERIFY2(warning.find("is a directory") != std::string::npos, warning.c_str());
    render::shapeGeometry(meshShape("/dev/zero"), kMalformed, warning);
    QVERIFY2(warning.find("is not a regular file") != std::string::npos, warning.c_str());
  }
};

QTEST_GUILESS_MAIN(TestMeshGeometry)
#include "test_mesh_geometry.moc"
