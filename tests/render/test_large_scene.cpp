// SPDX-License-Identifier: BSD-3-Clause
// Large models in the 3D view: the scene of a 10,000-body chain is batched, so that the number of
// props stays the same for any number of bodies (joint frames, centre-of-mass markers and load
// arrows included); a batched scene places, picks and highlights like one actor per shape; a
// click on a body deep in the chain selects it; building reports its progress.
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkDataArray.h>
#include <vtkMapper.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>
#include <cmath>
#include <numbers>

#include "core/io/model_files.hpp"
#include "core/model/generators.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/model_scene.hpp"
#include "render/scene/scene_view.hpp"
#include "support/scene_fixture.hpp"

using namespace kt;
using kt::render::LoadArrows;
using kt::render::ModelScene;
using kt::render::OffscreenView;
using kt::render::SceneView;

namespace {

int propCount(vtkRenderer* r) { return r->GetViewProps()->GetNumberOfItems(); }

// A base turning about z with an arm along +x (red), and a child with a translucent sphere.
Model smallModel() {
  Model m;
  m.name = "small";
  BodySpec base;
  base.name = "base";
  base.joint.name = "yaw";
  base.joint.type = JointType::Revolute;
  base.joint.axis = Vec3::UnitZ();
  Shape arm;
  arm.type = ShapeType::Box;
  arm.size = Vec3(0.4, 0.2, 0.1);
  arm.origin.xyz = Vec3(1.0, 0.0, 0.0);
  arm.color = Eigen::Vector4d(0.9, 0.1, 0.1, 1.0);
  base.shapes.push_back(arm);
  base.inertial.mass = 2.0;
  m.bodies.push_back(base);
  BodySpec tip;
  tip.name = "tip";
  tip.parent = "base";
  tip.joint.name = "pitch";
  tip.joint.type = JointType::Revolute;
  tip.joint.axis = Vec3::UnitY();
  tip.joint.origin.xyz = Vec3(0.0, 0.0, 1.0);
  Shape ball;
  ball.type = ShapeType::Sphere;
  ball.radius = 0.2;
  ball.color = Eigen::Vector4d(0.2, 0.4, 0.9, 0.5);
  tip.shapes.push_back(ball);
  tip.inertial.mass = 1.0;
  m.bodies.push_back(tip);
  return m;
}

// Centre of body i's geometry at the scene's current pose: the origin of its frame plus the
// rotated centre of mass (a chain link's cylinder is centred on it).
Eigen::Vector3d comOf(const ModelScene& scene, const Model& model, int body) {
  const Eigen::Matrix4d& pose = scene.bodyPose(body);
  const Vec3 com = kt::bodyMassProperties(model.bodies[scene.tree().specIndex[body]], {}, kt::meshFiles()).com;
  return pose.topLeftCorner<3, 3>() * com + pose.topRightCorner<3, 1>();
}

vtkDataArray* coloursOf(vtkProp* prop) {
  auto* actor = vtkActor::SafeDownCast(prop);
  return vtkPolyData::SafeDownCast(actor->GetMapper()->GetInputDataObject(0, 0))->GetPointData()->GetScalars();
}

}  // namespace

class TestLargeScene : public QObject {
  Q_OBJECT

 private slots:
  void batchedScenePlacesLikeShapeActors() {
    const Model model = smallModel();
    const Tree tree = finalizeOrThrow(model);
    OffscreenView view(320, 240), batchedView(320, 240);
    ModelScene single(view.renderer(), view.overlay());
    ModelScene batched(batchedView.renderer(), batchedView.overlay());
    batched.setBatchThreshold(0);
    single.build(model, tree, "");
    batched.build(model, tree, "");
    QVERIFY(!single.batched());
    QVERIFY(batched.batched());
    QCOMPARE(batched.shapeActorCount(), 0);
    QCOMPARE(batched.bodyProps().size(), std::size_t(2));  // one opaque batch, one translucent

    // Both follow q: a quarter turn of the yaw and a tilt of the pitch.
    Eigen::VectorXd q = tree.initialQ;
    q[tree.qOffset[tree.bodyIndex("base")]] = std::numbers::pi / 2;
    q[tree.qOffset[tree.bodyIndex("tip")]] = 0.3;
    for (ModelScene* scene : {&single, &batched}) scene->update(q);
    double a[6], b[6];
    QVERIFY(single.modelBounds(a));
    QVERIFY(batched.modelBounds(b));
    // The sphere is where its actor is: an actor's bounds are those of its rotated bounding box,
    // centred on the sphere like the batch's points (which have fewer facets).
    single.shapeActors().back().actor->GetBounds(a);
    vtkActor::SafeDownCast(batched.bodyProps().back())->GetBounds(b);
    for (int k = 0; k < 3; ++k) {
      const double ca = 0.5 * (a[2 * k] + a[2 * k + 1]), cb = 0.5 * (b[2 * k] + b[2 * k + 1]);
      QVERIFY2(std::abs(ca - cb) < 0.01, qPrintable(QStringLiteral("%1: %2 %3").arg(k).arg(ca).arg(cb)));
    }
    // The arm's box is exact: after the quarter turn it lies along +y, 0.2 wide in x.
    vtkProp* opaque = batched.bodyProps().front();
    double box[6];
    vtkActor::SafeDownCast(opaque)->GetBounds(box);
    QVERIFY(std::abs(box[1] - box[0] - 0.2) < 1e-6 && std::abs(box[3] - box[2] - 0.4) < 1e-6);
    QVERIFY(std::abs(0.5 * (box[2] + box[3]) - 1.0) < 1e-6);

    // Cells map to their bodies; other props and out-of-range cells to none.
    const int base = tree.bodyIndex("base");
    const int tip = tree.bodyIndex("tip");
    QCOMPARE(batched.bodyAt(opaque, 0), base);
    QCOMPARE(batched.bodyAt(batched.bodyProps().back(), 0), tip);
    QCOMPARE(batched.bodyAt(opaque, 100000), -1);
    QCOMPARE(batched.bodyAt(nullptr, 0), -1);
    QCOMPARE(single.bodyAt(single.shapeActors().front().actor, 0), base);
  }

  void selectionRecoloursOnlyTheSelectedBody() {
    test::OffscreenScene fixture(makeChain(400));
    auto& [model, tree, view, scene] = fixture;
    QVERIFY(scene.batched());
    vtkDataArray* colours = coloursOf(scene.bodyProps().front());
    const vtkIdType n = colours->GetNumberOfTuples();
    std::vector<double> before(static_cast<std::size_t>(n));
    for (vtkIdType k = 0; k < n; ++k) before[static_cast<std::size_t>(k)] = colours->GetComponent(k, 0);
    auto changed = [&] {
      int count = 0;
      for (vtkIdType k = 0; k < n; ++k) count += colours->GetComponent(k, 0) != before[static_cast<std::size_t>(k)];
      return count;
    };
    scene.setSelectedBody(123);
    // Every link has the same shape: one link's share of the points changed colour.
    QCOMPARE(changed(), static_cast<int>(n / tree.nb));
    scene.setSelectedBody(7);
    QCOMPARE(changed(), static_cast<int>(n / tree.nb));
    scene.setSelectedBody(-1);
    QCOMPARE(changed(), 0);
  }

  void propCountDoesNotGrowWithTheBodies() {
    int props[2][2] = {};  // [chain][renderer, overlay]
    const int sizes[2] = {1000, 10000};
    for (int c = 0; c < 2; ++c) {
      test::OffscreenScene fixture(makeChain(sizes[c]));
      auto& [model, tree, view, scene] = fixture;
      QVERIFY(scene.batched());
      QCOMPARE(scene.bodyCount(), sizes[c]);
      scene.setJointFramesVisible(true);
      scene.setCentresOfMassVisible(true);
      LoadArrows arrows(view.overlay());
      arrows.build(tree, scene.characteristicLength());
      QVERIFY(arrows.batched());
      props[c][0] = propCount(view.renderer());
      props[c][1] = propCount(view.overlay());
      // The scene still moves: a swing of the first joint carries the last link.
      double before[6], after[6];
      QVERIFY(scene.modelBounds(before));
      Eigen::VectorXd q = tree.initialQ;
      q[0] += 1.0;
      scene.update(q);
      QVERIFY(scene.modelBounds(after));
      QVERIFY(std::abs(after[0] - before[0]) + std::abs(after[4] - before[4]) > 1e-3);
      const QImage image = view.render();
      QVERIFY(render::greyVariance(image) > 50.0);
    }
    QCOMPARE(props[1][0], props[0][0]);
    QCOMPARE(props[1][1], props[0][1]);
    // Grid, world axes and the shapes; frames, markers, two kinds of arrows, their label, their
    // legend and its colour bar.
    QVERIFY2(props[1][0] <= 4, qPrintable(QString::number(props[1][0])));
    QVERIFY2(props[1][1] <= 8, qPrintable(QString::number(props[1][1])));
  }

  void batchedArrowsShowTheLoads() {
    test::OffscreenScene fixture(makeChain(1000));
    auto& [model, tree, view, scene] = fixture;
    LoadArrows arrows(view.overlay());
    arrows.build(tree, scene.characteristicLength());
    QVERIFY(arrows.batched());
    QVERIFY(arrows.forceActor(0) == nullptr);
    std::vector<Vec6> wrench(static_cast<std::size_t>(tree.nb), Vec6::Zero());
    // the largest (10,010 N) above the chain's weight (9,810 N) and the smallest above the dead band
    for (int i = 0; i < tree.nb; ++i) wrench[static_cast<std::size_t>(i)] << 0, 0, 0, 0, 0, 20.0 + 10.0 * i;
    wrench[500].setZero();  // no load: no arrow
    render::LoadArrowOptions options;
    options.visible = true;
    arrows.setOptions(options);
    Kinematics poses;
    arrows.update(poses, tree.initialQ, test::recordedLoads(tree, tree.initialQ, wrench, poses));
    QVERIFY(arrows.forceShown(0));
    QVERIFY(arrows.forceShown(999));
    QVERIFY(!arrows.forceShown(500));
    QVERIFY(!arrows.momentShown(0));
    // The longest force is drawn 0.3 × the model's size.
    QVERIFY(std::abs(arrows.drawnWrench(999).tail<3>().norm() * arrows.forceScaleInUse() -
                     0.3 * scene.characteristicLength()) < 1e-9 * scene.characteristicLength());
    options.selectedOnly = true;
    arrows.setOptions(options);
    arrows.setSelectedJoint(42);
    QVERIFY(arrows.forceShown(42));
    QVERIFY(!arrows.forceShown(43));
    options.visible = false;
    arrows.setOptions(options);
    QVERIFY(!arrows.forceShown(42));
  }

  void clickingABodyDeepInTheChainSelectsIt() {
    // Straight down: every link at its own place (the generator's 0.1 rad per joint coils the
    // chain into turns lying on one another).
    Model model = makeChain(10000);
    for (BodySpec& b : model.bodies) b.joint.q0.assign(1, 0.0);
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy progress(&view, &SceneView::buildProgress);
    view.showModel(model, tree, "");
    QVERIFY(view.scene().batched());
    // Progress: from 0 to all the bodies.
    QVERIFY(progress.count() >= 2);
    QCOMPARE(progress.first().at(0).toInt(), 0);
    QCOMPARE(progress.last().at(0).toInt(), tree.nb);
    QCOMPARE(progress.last().at(1).toInt(), tree.nb);

    // Look at link 7777 from the side through a narrow lens (from far enough that the near
    // clipping plane, a thousandth of the 3 km chain's depth, is in front of it).
    const int body = 7777;
    const Eigen::Vector3d target = comOf(view.scene(), model, body);
    vtkCamera* camera = view.renderer()->GetActiveCamera();
    camera->SetFocalPoint(target.x(), target.y(), target.z());
    camera->SetPosition(target.x(), target.y() - 30.0, target.z());
    camera->SetViewUp(0.0, 0.0, 1.0);
    camera->SetViewAngle(2.0);
    view.renderer()->ResetCameraClippingRange();
    view.renderToImage();
    const QPoint at = test::widgetPoint(view, target);
    QVERIFY(view.rect().contains(at));

    QSignalSpy picked(&view, &SceneView::bodyPicked);
    QTest::mouseClick(&view, Qt::LeftButton, {}, at);
    QCOMPARE(picked.count(), 1);
    QCOMPARE(picked.first().at(0).toInt(), body);
    QCOMPARE(view.scene().selectedBody(), body);
    // Empty space beside it clears it.
    const QPoint beside = test::widgetPoint(view, target + Eigen::Vector3d(0.4, 0.0, 0.0));
    QVERIFY(view.rect().contains(beside));
    QTest::mouseClick(&view, Qt::LeftButton, {}, beside);
    QCOMPARE(picked.last().at(0).toInt(), -1);
    QCOMPARE(view.scene().selectedBody(), -1);
  }
};

int main(int argc, char* argv[]) {
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestLargeScene test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_large_scene.moc"
