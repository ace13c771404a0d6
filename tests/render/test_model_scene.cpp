// SPDX-License-Identifier: BSD-3-Clause
// The VTK scene of a model: one actor per shape, shape geometry along the right axes, poses
// from q, picking map, toggles, meshes relative to the model file, and an off-screen render.
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <numbers>

#include "core/io/model_files.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/scene/model_scene.hpp"
#include "render/scene/shape_geometry.hpp"
#include "support/scene_fixture.hpp"

using namespace kt;
using kt::render::ModelScene;
using kt::render::OffscreenView;

namespace {

Shape makeShape(ShapeType type) {
  Shape s;
  s.type = type;
  s.size = Vec3(0.4, 0.2, 0.1);
  s.radius = 0.1;
  s.length = 0.6;
  s.sides = 6;
  return s;
}

// A base on a revolute joint about z at the origin, carrying a box arm 1 m along +x, plus a
// second body with one of each round shape.
Model makeModel() {
  Model m;
  m.name = "scene test";
  BodySpec base;
  base.name = "base";
  base.joint.name = "yaw";
  base.joint.type = JointType::Revolute;
  base.joint.axis = Vec3::UnitZ();
  Shape arm = makeShape(ShapeType::Box);
  arm.origin.xyz = Vec3(1.0, 0.0, 0.0);
  arm.color = Eigen::Vector4d(0.9, 0.1, 0.1, 1.0);
  base.shapes.push_back(arm);
  base.inertial.mass = 2.0;
  base.inertial.com = Vec3(0.5, 0.0, 0.0);
  m.bodies.push_back(base);

  BodySpec round;
  round.name = "round";
  round.parent = "base";
  round.joint.name = "fix";
  round.joint.type = JointType::Fixed;
  round.joint.origin.xyz = Vec3(0.0, 0.0, 1.0);
  for (ShapeType t : {ShapeType::Cylinder, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Prism}) {
    round.shapes.push_back(makeShape(t));
  }
  m.bodies.push_back(round);
  return m;
}

std::array<double, 3> extent(vtkPolyData* poly) {
  double b[6];
  poly->GetBounds(b);
  return {b[1] - b[0], b[3] - b[2], b[5] - b[4]};
}

void centre(vtkActor* actor, double c[3]) {
  double b[6];
  actor->GetBounds(b);
  for (int k = 0; k < 3; ++k) c[k] = 0.5 * (b[2 * k] + b[2 * k + 1]);
}

}  // namespace

class TestModelScene : public QObject {
  Q_OBJECT

 private slots:
  void shapeGeometryFollowsTheFormat_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<double>("ex");
    QTest::addColumn<double>("ey");
    QTest::addColumn<double>("ez");
    // radius 0.1, length 0.6, box 0.4 × 0.2 × 0.1, hexagonal prism with circumradius 0.1
    QTest::newRow("box") << int(ShapeType::Box) << 0.4 << 0.2 << 0.1;
    QTest::newRow("cylinder") << int(ShapeType::Cylinder) << 0.2 << 0.2 << 0.6;
    QTest::newRow("sphere") << int(ShapeType::Sphere) << 0.2 << 0.2 << 0.2;
    QTest::newRow("capsule") << int(ShapeType::Capsule) << 0.2 << 0.2 << 0.8;
    QTest::newRow("prism") << int(ShapeType::Prism) << 0.2 << 0.2 * std::cos(std::numbers::pi / 6) << 0.6;
  }
  void shapeGeometryFollowsTheFormat() {
    QFETCH(int, type);
    QFETCH(double, ex);
    QFETCH(double, ey);
    QFETCH(double, ez);
    std::string warning;
    auto poly = render::shapeGeometry(makeShape(static_cast<ShapeType>(type)), "", warning);
    QVERIFY(warning.empty());
    const auto e = extent(poly);
    // Tessellated round shapes are inscribed: allow 1 %.
    QVERIFY2(std::abs(e[0] - ex) < 0.01 * ex + 1e-9, qPrintable(QString::number(e[0])));
    QVERIFY2(std::abs(e[1] - ey) < 0.01 * ey + 1e-9, qPrintable(QString::number(e[1])));
    QVERIFY2(std::abs(e[2] - ez) < 0.01 * ez + 1e-9, qPrintable(QString::number(e[2])));
  }

  void prismIsClosedWithOutwardNormals() {
    auto poly = render::prismGeometry(5, 1.0, 2.0);
    QCOMPARE(poly->GetNumberOfCells(), vtkIdType(5 + 2));
    // Side-face normals point away from the axis; cap normals along ±z.
    vtkDataArray* normals = poly->GetPointData()->GetNormals();
    QVERIFY(normals != nullptr);
    for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i) {
      double p[3], n[3];
      poly->GetPoint(i, p);
      normals->GetTuple(i, n);
      QVERIFY(p[0] * n[0] + p[1] * n[1] + p[2] * n[2] > 0.0);
    }
  }

  // Bodies without shapes (an imported robot whose visuals cannot be drawn) are drawn as a
  // skeleton: a rod to each child's joint and a ball at the centre of mass, pickable as the body.
  void bodiesWithoutShapesShowASkeleton() {
    Model model;
    model.name = "no shapes";
    for (int k = 0; k < 3; ++k) {
      BodySpec b;
      b.name = "link" + std::to_string(k);
      b.parent = k == 0 ? "world" : "link" + std::to_string(k - 1);
      b.joint.type = JointType::Revolute;
      b.joint.axis = Vec3::UnitY();
      if (k > 0) b.joint.origin.xyz = Vec3(0.0, 0.0, 0.5);
      b.inertial.mass = 1.0;
      b.inertial.com = Vec3(0.0, 0.0, 0.25);
      b.inertial.inertia = Mat3::Identity() * 0.02;
      model.bodies.push_back(b);
    }
    const Tree tree = finalizeOrThrow(model);
    for (int threshold : {ModelScene::kDefaultBatchThreshold, 0}) {
      OffscreenView view(320, 240);
      ModelScene scene(view.renderer(), view.overlay());
      scene.setBatchThreshold(threshold);
      scene.build(model, tree, "");
      double b[6];
      QVERIFY(scene.modelBounds(b));
      QVERIFY2(b[5] - b[4] > 0.9 && b[5] - b[4] < 1.4, qPrintable(QString::number(b[5] - b[4])));  // 0 to 1 m tall
      QVERIFY(!scene.bodyProps().empty());
      if (threshold == 0) continue;
      QCOMPARE(scene.shapeActorCount(), 5);  // two rods, three balls
      for (const auto& s : scene.shapeActors()) {
        QCOMPARE(s.shape, -1);
        QCOMPARE(scene.bodyOfProp(s.actor), s.body);
      }
      // the rod of link0 runs up its z axis, from its joint to link1's
      double rod[6];
      scene.shapeActors().front().actor->GetBounds(rod);
      QVERIFY(std::abs(rod[4]) < 1e-6 && std::abs(rod[5] - 0.5) < 1e-6);
    }
    // A body with shapes keeps them alone.
    model.bodies[1].shapes.push_back(makeShape(ShapeType::Sphere));
    OffscreenView view(320, 240);
    ModelScene scene(view.renderer(), view.overlay());
    scene.build(model, finalizeOrThrow(model), "");
    QCOMPARE(scene.shapeActorCount(), 4);  // link0: rod and ball; link1: its sphere; link2: ball
  }

  void oneActorPerShapeAndPosesFromQ() {
    test::OffscreenScene fixture(makeModel());
    auto& [model, tree, view, scene] = fixture;
    QCOMPARE(scene.shapeActorCount(), 5);
    QVERIFY(scene.warnings().empty());
    const render::ShapeActor& arm = scene.shapeActors().front();
    QCOMPARE(arm.body, tree.bodyIndex("base"));
    QCOMPARE(arm.actor->GetProperty()->GetColor()[0], 0.9);

    double c[3];
    centre(arm.actor, c);
    QVERIFY(std::abs(c[0] - 1.0) < 1e-9 && std::abs(c[1]) < 1e-9);

    // A quarter turn of the yaw joint carries the arm to +y and the second body along.
    Eigen::VectorXd q = tree.initialQ;
    q[tree.qOffset[tree.bodyIndex("base")]] = std::numbers::pi / 2;
    scene.update(q);
    centre(arm.actor, c);
    QVERIFY2(std::abs(c[0]) < 1e-9 && std::abs(c[1] - 1.0) < 1e-9,
             qPrintable(QStringLiteral("%1 %2").arg(c[0]).arg(c[1])));
    // The box is now 0.2 wide along x and 0.4 along y.
    double b[6];
    arm.actor->GetBounds(b);
    QVERIFY(std::abs((b[1] - b[0]) - 0.2) < 1e-6 && std::abs((b[3] - b[2]) - 0.4) < 1e-6);
    const render::ShapeActor& cylinder = scene.shapeActors()[1];
    centre(cylinder.actor, c);
    QVERIFY(std::abs(c[2] - 1.0) < 1e-9);
  }

  void propsMapToBodiesAndSelectionHighlights() {
    test::OffscreenScene fixture(makeModel());
    auto& [model, tree, view, scene] = fixture;
    const int round = tree.bodyIndex("round");
    for (const auto& s : scene.shapeActors()) QCOMPARE(scene.bodyOfProp(s.actor), s.body);
    QCOMPARE(scene.bodyOfProp(nullptr), -1);

    const double ambientBefore = scene.shapeActors()[1].actor->GetProperty()->GetAmbient();
    scene.setSelectedBody(round);
    QCOMPARE(scene.selectedBody(), round);
    QVERIFY(scene.shapeActors()[1].actor->GetProperty()->GetAmbient() > ambientBefore);
    QCOMPARE(scene.shapeActors()[0].actor->GetProperty()->GetAmbient(), ambientBefore);
    scene.setSelectedBody(-1);
    QCOMPARE(scene.shapeActors()[1].actor->GetProperty()->GetAmbient(), ambientBefore);
  }

  void togglesShowAndHideDecorations() {
    test::OffscreenScene fixture(makeModel());
    auto& [model, tree, view, scene] = fixture;
    auto visibleIn = [](vtkRenderer* r) {
      r->GetViewProps()->InitTraversal();
      int n = 0;
      while (vtkProp* p = r->GetViewProps()->GetNextProp()) n += p->GetVisibility();
      return n;
    };
    QCOMPARE(visibleIn(view.overlay()), 0);
    scene.setJointFramesVisible(true);
    QCOMPARE(visibleIn(view.overlay()), tree.nb);
    scene.setCentresOfMassVisible(true);
    QCOMPARE(visibleIn(view.overlay()), 2 * tree.nb);
    const int withGrid = visibleIn(view.renderer());
    scene.setGridVisible(false);
    QCOMPARE(visibleIn(view.renderer()), withGrid - 2);  // grid and world axes
    QCOMPARE(visibleIn(view.renderer()), scene.shapeActorCount());
  }

  void meshesResolveAgainstTheModelFolder() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("meshes")));
    {
      QFile stl(dir.filePath(QStringLiteral("meshes/tetra.stl")));
      QVERIFY(stl.open(QIODevice::WriteOnly));
      stl.write(
          "solid t\n"
          "facet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 1 0 0\nendloop\nendfacet\n"
          "facet normal 0 -1 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\n"
          "facet normal -1 0 0\nouter loop\nvertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\n"
          "facet normal 1 1 1\nouter loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\n"
          "endsolid t\n");
      QFile obj(dir.filePath(QStringLiteral("meshes/quad.obj")));
      QVERIFY(obj.open(QIODevice::WriteOnly));
      obj.write("v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nf 1 2 3 4\n");
    }
    Shape stl = makeShape(ShapeType::Mesh);
    stl.mesh = "meshes/tetra.stl";
    stl.meshScale = Vec3(2.0, 2.0, 2.0);
    std::string warning;
    auto poly = render::shapeGeometry(stl, dir.path().toStdString(), warning);
    QVERIFY2(warning.empty(), warning.c_str());
    auto e = extent(poly);
    QVERIFY(std::abs(e[0] - 2.0) < 1e-6 && std::abs(e[2] - 2.0) < 1e-6);

    Shape obj = makeShape(ShapeType::Mesh);
    obj.mesh = "meshes/QUAD.OBJ";  // missing (case matters on Linux): a stand-in and a warning
    poly = render::shapeGeometry(obj, dir.path().toStdString(), warning);
    QVERIFY(warning.find("does not exist") != std::string::npos);
    QVERIFY(poly->GetNumberOfCells() > 0);
    obj.mesh = "meshes/quad.obj";
    poly = render::shapeGeometry(obj, dir.path().toStdString(), warning);
    QVERIFY2(warning.empty(), warning.c_str());
    e = extent(poly);
    QVERIFY(std::abs(e[0] - 2.0) < 1e-6 && std::abs(e[1] - 1.0) < 1e-6);
  }

  void offscreenRenderShowsTheModel() {
    test::OffscreenScene fixture(makeModel());
    auto& [model, tree, view, scene] = fixture;
    double b[6];
    QVERIFY(scene.modelBounds(b));
    view.renderer()->ResetCamera(b);
    view.renderer()->ResetCameraClippingRange();
    const QImage image = view.render();
    QCOMPARE(image.size(), QSize(320, 240));
    QVERIFY(image.save(QDir::current().filePath(QStringLiteral("model_scene_offscreen.png"))));
    QVERIFY(render::greyVariance(image) > 50.0);
    // Hiding the bodies changes a visible part of the image.
    for (const auto& s : scene.shapeActors()) s.actor->VisibilityOff();
    const QImage empty = view.render();
    const double changed = render::fractionOfDifferentPixels(image, empty, 30);
    QVERIFY2(changed > 0.02, qPrintable(QString::number(changed)));
  }
};

int main(int argc, char* argv[]) {
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestModelScene test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_model_scene.moc"
