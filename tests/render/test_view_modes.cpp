// SPDX-License-Identifier: BSD-3-Clause
// The view modes of the 3D view: following a floating base, motion trails, the joint-load
// arrows' automatic scale and the frame statistics; plus a screenshot of the space robot with
// trails and follow on (view_follow_trails.png in the working directory). Runs under xvfb-run.
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QDir>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>
#include <cmath>
#include <numbers>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/bridge/vtk_widget.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/scene_view.hpp"
#include "render/scene/trails.hpp"
#include "support/scene_fixture.hpp"

using namespace kt;
using kt::render::SceneView;

namespace {

// A floating box (free joint, centre of mass 0.1 m off its origin along x) carrying a pendulum
// arm on a revolute joint about y.
Model floatingModel() {
  Model m;
  m.name = "floating";
  BodySpec base;
  base.name = "base";
  base.joint.name = "float";
  base.joint.type = JointType::Free;
  Shape box;
  box.type = ShapeType::Box;
  box.size = Vec3(0.6, 0.4, 0.3);
  box.color = Eigen::Vector4d(0.8, 0.6, 0.2, 1.0);
  base.shapes.push_back(box);
  base.inertial.mass = 5.0;
  base.inertial.com = Vec3(0.1, 0.0, 0.0);
  m.bodies.push_back(base);

  BodySpec arm;
  arm.name = "arm";
  arm.parent = "base";
  arm.joint.name = "hinge";
  arm.joint.type = JointType::Revolute;
  arm.joint.axis = Vec3::UnitY();
  arm.joint.origin.xyz = Vec3(0.3, 0.0, 0.0);
  Shape rod;
  rod.type = ShapeType::Cylinder;
  rod.radius = 0.04;
  rod.length = 0.8;
  rod.origin.xyz = Vec3(0.0, 0.0, -0.4);
  rod.color = Eigen::Vector4d(0.2, 0.4, 0.9, 1.0);
  arm.shapes.push_back(rod);
  arm.inertial.mass = 1.0;
  arm.inertial.com = Vec3(0.0, 0.0, -0.4);
  m.bodies.push_back(arm);
  return m;
}

// Free joint q = (qw, qx, qy, qz, x, y, z): the base at `position`, turned by `angle` about z.
void placeBase(const Tree& tree, int body, Eigen::VectorXd& q, const Eigen::Vector3d& position, double angle) {
  const int o = tree.qOffset[static_cast<std::size_t>(body)];
  q[o] = std::cos(0.5 * angle);
  q[o + 1] = 0.0;
  q[o + 2] = 0.0;
  q[o + 3] = std::sin(0.5 * angle);
  q.segment<3>(o + 4) = position;
}

Eigen::Vector3d vec(const double* p) { return {p[0], p[1], p[2]}; }

// Display coordinates (pixels) of a world point.
Eigen::Vector2d project(vtkRenderer* r, const Eigen::Vector3d& p) {
  r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  r->WorldToDisplay();
  double d[3];
  r->GetDisplayPoint(d);
  return {d[0], d[1]};
}

Eigen::Vector3d comOf(const SceneView& view, const Tree& tree, int body) {
  const Eigen::Matrix4d& pose = view.scene().bodyPose(body);
  return pose.topLeftCorner<3, 3>() * tree.I[static_cast<std::size_t>(body)].com() + pose.topRightCorner<3, 1>();
}

struct CameraState {
  Eigen::Vector3d position, focal, direction;
  double distance;
  explicit CameraState(vtkCamera* c) {
    double p[3], f[3], d[3];
    c->GetPosition(p);
    c->GetFocalPoint(f);
    c->GetDirectionOfProjection(d);
    position = vec(p);
    focal = vec(f);
    direction = vec(d);
    distance = c->GetDistance();
  }
};

}  // namespace

class TestViewModes : public QObject {
  Q_OBJECT

 private slots:
  void defaultBodies() {
    const Tree tree = finalizeOrThrow(floatingModel());
    QCOMPARE(SceneView::defaultFollowBody(tree), tree.bodyIndex("base"));
    const std::vector<int> trails = SceneView::defaultTrailBodies(tree);
    QCOMPARE(trails.size(), std::size_t{2});  // the base and the leaf
    QCOMPARE(trails[0], tree.bodyIndex("base"));
    QCOMPARE(trails[1], tree.bodyIndex("arm"));

    Model fixed = floatingModel();
    fixed.bodies[0].joint.type = JointType::Revolute;
    fixed.bodies[0].joint.axis = Vec3::UnitZ();
    const Tree fixedTree = finalizeOrThrow(fixed);
    QCOMPARE(SceneView::defaultFollowBody(fixedTree), -1);
    QCOMPARE(SceneView::defaultTrailBodies(fixedTree), std::vector<int>{fixedTree.bodyIndex("arm")});
  }

  // Following: the camera moves with the base's centre of mass, keeps its direction and
  // distance, and the base stays at the same place on screen.
  void followKeepsTheBodyInPlaceOnScreen() {
    const Model model = floatingModel();
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    test::showModelIn(view, model, tree);
    const int base = tree.bodyIndex("base");
    QSignalSpy changed(&view, &SceneView::followBodyChanged);
    view.setFollowBody(SceneView::defaultFollowBody(tree));
    QCOMPARE(view.followBody(), base);
    QCOMPARE(changed.count(), 1);
    vtkRenderer* r = view.renderer();
    vtkCamera* camera = r->GetActiveCamera();
    // Turning it on puts the focal point on the body, so that rotation is about it.
    QVERIFY((CameraState(camera).focal - comOf(view, tree, base)).norm() < 1e-9);

    Eigen::VectorXd q = tree.initialQ;
    placeBase(tree, base, q, Eigen::Vector3d(0.2, -0.1, 0.05), 0.3);
    view.showState(q);
    const CameraState before(camera);
    const Eigen::Vector3d comBefore = comOf(view, tree, base);
    const Eigen::Vector2d screenBefore = project(r, comBefore);

    // 1 m along x (and a turn, which moves the off-centre COM too).
    placeBase(tree, base, q, Eigen::Vector3d(1.2, -0.1, 0.05), 0.9);
    view.showState(q);
    const CameraState after(camera);
    const Eigen::Vector3d comAfter = comOf(view, tree, base);
    const Eigen::Vector3d moved = comAfter - comBefore;
    QVERIFY(moved.norm() > 0.9);
    QVERIFY2((after.focal - before.focal - moved).norm() < 1e-9, "focal point moved with the body");
    QVERIFY2((after.position - before.position - moved).norm() < 1e-9, "camera moved with the body");
    QVERIFY((after.direction - before.direction).norm() < 1e-12);
    QVERIFY(std::abs(after.distance - before.distance) < 1e-9);
    const Eigen::Vector2d screenAfter = project(r, comAfter);
    QVERIFY2((screenAfter - screenBefore).norm() < 1e-6, qPrintable(QStringLiteral("%1 %2 -> %3 %4")
                                                                        .arg(screenBefore.x())
                                                                        .arg(screenBefore.y())
                                                                        .arg(screenAfter.x())
                                                                        .arg(screenAfter.y())));
    // Something else moved on screen: the world origin (the view did not just stay put).
    QVERIFY((project(r, Eigen::Vector3d::Zero()) - screenAfter).norm() > 1.0);

    // The user rotates the view while following: the rotation is about the body, and following
    // goes on from the rotated view.
    view.renderToImage();
    const QPoint centre(160, 120);
    QTest::mousePress(&view, Qt::LeftButton, {}, centre);
    QMouseEvent drag(QEvent::MouseMove, QPointF(centre + QPoint(50, 20)),
                     view.mapToGlobal(QPointF(centre + QPoint(50, 20))), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &drag);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, centre + QPoint(50, 20));
    const CameraState rotated(camera);
    QVERIFY2((rotated.direction - after.direction).norm() > 1e-3, "the drag rotated the view");
    QVERIFY((rotated.focal - comAfter).norm() < 1e-9);
    placeBase(tree, base, q, Eigen::Vector3d(1.2, 0.9, 0.05), 0.9);
    view.showState(q);
    const CameraState rotatedAfter(camera);
    QVERIFY((rotatedAfter.focal - comOf(view, tree, base)).norm() < 1e-9);
    QVERIFY((rotatedAfter.direction - rotated.direction).norm() < 1e-12);

    // Off: the camera stays where it is.
    view.setFollowBody(-1);
    QCOMPARE(view.followBody(), -1);
    QCOMPARE(changed.count(), 2);
    placeBase(tree, base, q, Eigen::Vector3d(3.0, 0.9, 0.05), 0.9);
    view.showState(q);
    QVERIFY((CameraState(camera).position - rotatedAfter.position).norm() < 1e-12);

    // Out of range is off; a new model keeps following its own floating base.
    view.setFollowBody(tree.nb);
    QCOMPARE(view.followBody(), -1);
    view.setFollowBody(base);
    view.showModel(model, tree, "");
    QCOMPARE(view.followBody(), base);
    QVERIFY((CameraState(camera).focal - comOf(view, tree, base)).norm() < 1e-9);
  }

  void trailsHoldTheLastPositionsInOrder() {
    render::OffscreenView offscreen(160, 120);
    render::Trails trails(offscreen.renderer());
    trails.setBodies({4, 9}, {Eigen::Vector3d(1.0, 0.0, 0.0)}, 5);
    QCOMPARE(trails.capacity(), 5);
    QCOMPARE(trails.slotOf(9), 1);
    QCOMPARE(trails.slotOf(3), -1);
    for (int k = 0; k < 8; ++k) {
      trails.add(0, Eigen::Vector3d(k, 0.5 * k, 0.0));
      if (k < 2) trails.add(1, Eigen::Vector3d(0.0, 0.0, k));
    }
    trails.add(0, Eigen::Vector3d(7.0, 3.5, 0.0));  // the same as the newest: not added
    trails.redraw();
    QCOMPARE(trails.size(0), 5);
    QCOMPARE(trails.size(1), 2);
    for (int k = 0; k < 5; ++k) QCOMPARE(trails.point(0, k), Eigen::Vector3d(3 + k, 0.5 * (3 + k), 0.0));

    // The drawn polyline: the same points, oldest first, in the trail's colour fading with age.
    vtkPolyData* poly = trails.geometry(0);
    QCOMPARE(poly->GetNumberOfLines(), vtkIdType(1));
    QCOMPARE(poly->GetLines()->GetNumberOfConnectivityIds(), vtkIdType(5));
    for (int k = 0; k < 5; ++k) {
      double p[3];
      poly->GetPoint(poly->GetLines()->GetConnectivityArray()->GetComponent(k, 0), p);
      QCOMPARE(vec(p), trails.point(0, k));
    }
    double bounds[6];
    poly->GetBounds(bounds);
    QCOMPARE(bounds[0], 3.0);
    QCOMPARE(bounds[1], 7.0);
    QVERIFY(trails.actor(0)->GetVisibility());
    QVERIFY(trails.actor(1)->GetVisibility());
    QVERIFY(trails.actor(0)->GetBounds()[1] >= 7.0);

    trails.setVisible(false);
    QVERIFY(!trails.actor(0)->GetVisibility());
    trails.setVisible(true);
    trails.clear();
    QCOMPARE(trails.size(0), 0);
    QCOMPARE(trails.size(1), 0);
    QVERIFY(!trails.actor(0)->GetVisibility());
    trails.add(0, Eigen::Vector3d(1.0, 2.0, 3.0));
    QCOMPARE(trails.size(0), 1);
    QCOMPARE(trails.point(0, 0), Eigen::Vector3d(1.0, 2.0, 3.0));
  }

  void viewTrailsFollowShowStateAndReset() {
    const Model model = floatingModel();
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    view.resize(320, 240);
    view.showModel(model, tree, "");
    const int arm = tree.bodyIndex("arm");
    view.setTrailBodies({arm, -1, 17, arm});  // invalid and repeated ones are dropped
    QCOMPARE(view.trails().bodies(), std::vector<int>{arm});
    view.setTrailsVisible(true);
    Eigen::VectorXd q = tree.initialQ;
    const int hinge = tree.qOffset[static_cast<std::size_t>(arm)];
    for (int k = 0; k < 10; ++k) {
      q[hinge] = 0.1 * k;
      view.showState(q);
      QCOMPARE(view.trails().size(0), k + 1);
      QVERIFY((view.trails().point(0, k) - comOf(view, tree, arm)).norm() < 1e-12);
    }
    QVERIFY(view.trails().actor(0)->GetVisibility());
    // Intermediate samples: trail points in order, the bodies stay where showState() put them.
    const Eigen::Vector3d shown = comOf(view, tree, arm);
    Eigen::VectorXd between = q;
    between[hinge] = 1.0;
    view.addTrailSample(between);
    QCOMPARE(view.trails().size(0), 11);
    QVERIFY((comOf(view, tree, arm) - shown).norm() == 0.0);
    q[hinge] = 1.1;
    view.showState(q);
    QCOMPARE(view.trails().size(0), 12);
    const Eigen::Vector3d atBetween = view.trails().point(0, 10);
    view.showState(between);
    QVERIFY((comOf(view, tree, arm) - atBetween).norm() < 1e-12);
    view.clearTrails();
    QCOMPARE(view.trails().size(0), 0);
    view.showState(q);
    QCOMPARE(view.trails().size(0), 1);
    // A new model starts empty on the default bodies, still visible.
    view.showModel(model, tree, "");
    QCOMPARE(view.trails().bodies(), SceneView::defaultTrailBodies(tree));
    QCOMPARE(view.trails().size(0), 0);
    QVERIFY(view.trailsVisible());
  }

  // The automatic scale follows the run's largest load (given, or drawn so far, or the model's
  // weight), steady when smaller loads follow; loads below the dead band draw no arrow (zero and
  // rounding noise); the legend's round force is drawn as long as it says; without a limit or a
  // rating the arrows are neutral, with a rating red at it.
  void arrowScaleDeadBandAndLegend() {
    Model m = floatingModel();
    m.bodies[0].joint.type = JointType::Revolute;
    m.bodies[0].joint.axis = Vec3::UnitZ();
    const Tree tree = finalizeOrThrow(m);
    render::OffscreenView offscreen(160, 120);
    render::LoadArrows arrows(offscreen.overlay());
    const double length = 2.0;
    arrows.build(tree, length);
    render::LoadArrowOptions o;
    o.visible = true;
    o.reactionOnly = false;
    arrows.setOptions(o);
    const double weight = tree.totalMass() * tree.gravity.norm();
    auto loads = [&](double force, double moment, double second = -1.0) {
      std::vector<Vec6> w(static_cast<std::size_t>(tree.nb), Vec6::Zero());
      w[0] << moment, 0.0, 0.0, 0.0, 0.0, force;
      const double f1 = second >= 0.0 ? second : 0.5 * force;
      w[1] << 0.0, 0.5 * moment, 0.0, f1, 0.0, 0.0;
      Kinematics poses;
      arrows.update(poses, tree.initialQ, test::recordedLoads(tree, tree.initialQ, w, poses));
    };
    loads(1000.0, 300.0);
    QCOMPARE(arrows.forceReference(), std::max(1000.0, weight));
    QVERIFY(std::abs(arrows.forceScaleInUse() - 0.3 * length / arrows.forceReference()) < 1e-15);
    // smaller loads later: the scale stays (the largest of the run), no rescaling frame by frame
    loads(10.0, 2.0);
    QCOMPARE(arrows.forceReference(), std::max(1000.0, weight));
    // the owner's reference (the whole recording's largest) wins when larger
    arrows.setReference(2000.0, 600.0);
    QCOMPARE(arrows.forceReference(), 2000.0);
    QCOMPARE(arrows.momentReference(), 600.0);
    // dead band: zero and a load of 1e-9 of the reference draw nothing; 1 % does
    loads(20.0, 6.0, 0.0);
    QVERIFY(arrows.forceShown(0));
    QVERIFY(!arrows.forceShown(1));  // exactly zero
    loads(20.0, 6.0, 2e-6);
    QVERIFY(!arrows.forceShown(1));  // 1e-9 × 2000 N
    loads(20.0, 6.0, 0.5);
    QVERIFY(!arrows.forceShown(1));  // 0.5 N: below 1e-3 × 2000 N
    o.deadBand = 1e-4;
    arrows.setOptions(o);
    QVERIFY(arrows.forceShown(1));  // a smaller dead band draws it
    o.deadBand = 1e-3;
    arrows.setOptions(o);
    // the legend: a round force of the reference, and its arrow length; an arrow of that force
    // is drawn that long
    QCOMPARE(arrows.legendForce(), 2000.0);
    QCOMPARE(arrows.legendMoment(), 500.0);
    const std::string legend = arrows.legendText();
    QVERIFY2(legend.find("force 2000 N: arrow 600 mm") != std::string::npos, legend.c_str());  // 0.3 × 2 m
    loads(2000.0, 6.0);
    vtkMatrix4x4* placed = arrows.forceActor(0)->GetUserMatrix();
    const double drawnLength = std::hypot(placed->GetElement(0, 0), placed->GetElement(1, 0), placed->GetElement(2, 0));
    QVERIFY2(std::abs(drawnLength - 0.6) < 1e-12, qPrintable(QString::number(drawnLength)));
    // colours: neutral without a limit; with a rating, red at it
    const double* neutral = arrows.forceActor(0)->GetProperty()->GetColor();
    QVERIFY(neutral[2] > 0.8 && neutral[0] < 0.3);
    QVERIFY(legend.find("no rating or limit") != std::string::npos);
    LoadRating rating;
    rating.force = 1000.0;
    arrows.setRatings({rating, LoadRating{}});
    const double* red = arrows.forceActor(0)->GetProperty()->GetColor();
    QVERIFY(red[0] > 0.9 && red[1] < 0.2);
    QVERIFY(arrows.legendText().find("rating") != std::string::npos);
    // a new run forgets the references: the model's weight is left
    arrows.resetAutoScale();
    QCOMPARE(arrows.forceReference(), weight);
  }

  // In zero gravity at rest every load is rounding noise (1e-14 N from the drives' arithmetic):
  // there is no scale to draw it at. It was drawn as the run's "largest load", 1.41 m long.
  void noiseAloneDrawsNoArrow() {
    Model m = floatingModel();
    m.bodies[0].joint.type = JointType::Revolute;
    m.bodies[0].joint.axis = Vec3::UnitZ();
    m.gravity = Vec3::Zero();
    const Tree tree = finalizeOrThrow(m);
    render::OffscreenView offscreen(160, 120);
    render::LoadArrows arrows(offscreen.overlay());
    arrows.build(tree, 2.0);
    render::LoadArrowOptions o;
    o.visible = true;
    arrows.setOptions(o);
    std::vector<Vec6> w(static_cast<std::size_t>(tree.nb), Vec6::Zero());
    w[0] << 2e-14, 0.0, 0.0, 1e-14, 0.0, 0.0;
    Kinematics poses;
    arrows.update(poses, tree.initialQ, test::recordedLoads(tree, tree.initialQ, w, poses));
    arrows.setReference(1e-14, 2e-14, false);
    QCOMPARE(arrows.forceReference(), 0.0);
    QVERIFY(!arrows.forceShown(0) && !arrows.momentShown(0));
    QVERIFY2(arrows.legendText().find("none yet above rounding noise") != std::string::npos,
             arrows.legendText().c_str());
    LoadRating rating;
    rating.force = 100.0;
    arrows.setRatings(std::vector<LoadRating>(static_cast<std::size_t>(tree.nb), rating));
    QVERIFY(!arrows.colourBarShown());  // no colour bar without the legend line it belongs to
    // a real load then sets the scale
    w[0] << 2.0, 0.0, 0.0, 10.0, 0.0, 0.0;
    arrows.update(poses, tree.initialQ, test::recordedLoads(tree, tree.initialQ, w, poses));
    QVERIFY(arrows.forceShown(0));
    QVERIFY(arrows.legendText().find("force 10 N: arrow") != std::string::npos);
  }

  // The colour bar under the legend is placed at the size the frame is drawn at: placed when the
  // loads came, a view not laid out yet (a report's picture, a video's first frame) drew it
  // outside the picture.
  void colourBarInAFirstPicture() {
    const Model model = floatingModel();
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(600, 400);
    render::LoadArrows arrows(view.overlayRenderer());
    arrows.build(tree, 1.0);
    render::LoadArrowOptions o;
    o.visible = true;
    arrows.setOptions(o);
    LoadRating rating;
    rating.force = 1000.0;
    arrows.setRatings(std::vector<LoadRating>(static_cast<std::size_t>(tree.nb), rating));
    Kinematics poses;
    const std::vector<Vec6> none(static_cast<std::size_t>(tree.nb), Vec6::Zero());  // no arrow drawn
    arrows.update(poses, tree.initialQ, test::recordedLoads(tree, tree.initialQ, none, poses));
    QVERIFY(arrows.legendText().find("(bar below)") != std::string::npos);
    const QImage image = view.renderToImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(image.size(), QSize(600, 400) * view.devicePixelRatio());
    // the bar: green at its left end, red at its right, in the right fifth of the top half
    const auto near = [](QRgb c, int r, int g, int b) {
      return std::abs(qRed(c) - r) < 24 && std::abs(qGreen(c) - g) < 24 && std::abs(qBlue(c) - b) < 24;
    };
    int barRows = 0;
    for (int y = 0; y < image.height() / 2; ++y) {
      bool green = false, red = false;
      for (int x = image.width() * 3 / 4; x < image.width(); ++x) {
        green = green || near(image.pixel(x, y), 38, 204, 38);
        red = red || near(image.pixel(x, y), 242, 25, 38);
      }
      barRows += green && red;
    }
    QVERIFY2(barRows >= 4, qPrintable(QString::number(barRows)));
    // 600 x 400 is a small view: the legend in two lines fewer (its bar still under it), where in
    // a small window it covered the model; a larger view has the whole legend
    const std::string small = arrows.legendActor()->GetInput();
    QVERIFY2(small.find("not drawn below") == std::string::npos &&
                 small.find("colour: share of the rating (bar below)") != std::string::npos,
             small.c_str());
    view.resize(900, 700);
    view.renderToImage();
    const std::string large = arrows.legendActor()->GetInput();
    QVERIFY2(large.find("not drawn below") != std::string::npos, large.c_str());
  }

  void statisticsCountPaintedFrames() {
    const Model model = floatingModel();
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    test::showModelIn(view, model, tree);
    view.setStatisticsVisible(true);
    QVERIFY(view.statisticsVisible());
    Eigen::VectorXd q = tree.initialQ;
    for (int k = 0; k < 5; ++k) {
      q[tree.qOffset[1]] = 0.2 * k;
      view.showState(q);
      view.renderToImage();  // paints now
    }
    const render::FrameStatistics s = view.frameStatistics();
    QVERIFY2(s.frames >= 5, qPrintable(QString::number(s.frames)));
    QVERIFY(s.framesPerSecond > 0.0);
    QVERIFY(s.medianRenderMs > 0.0 && s.medianRenderMs <= s.maxRenderMs);
    QVERIFY(s.medianIntervalMs > 0.0 && s.medianIntervalMs <= s.maxIntervalMs);
    QVERIFY(view.lastRenderMilliseconds() > 0.0);
    QVERIFY(view.statisticsText().contains(QStringLiteral("fps")));
    view.setStatisticsVisible(false);
    QVERIFY(!view.statisticsVisible());
  }

  // The space robot along a scripted motion with trails and follow on: a picture to look at
  // (view_follow_trails.png), not blank, and the followed base in the middle of it.
  void screenshotOfTheSpaceRobotWithTrails() {
    const Model model = loadModelFromFile(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    const Tree tree = finalizeOrThrow(model);
    SceneView view;
    view.resize(640, 480);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showModel(model, tree, KINETREE_SOURCE_DIR "/examples");
    const int base = SceneView::defaultFollowBody(tree);
    QVERIFY(base >= 0);
    view.setFollowBody(base);
    view.setTrailsVisible(true);
    view.setStatisticsVisible(true);
    Eigen::VectorXd q = tree.initialQ;
    const int frames = 240;
    for (int k = 0; k <= frames; ++k) {
      const double t = 8.0 * k / frames;
      placeBase(tree, base, q, Eigen::Vector3d(0.25 * t, 0.1 * std::sin(t), 0.05 * t), 0.1 * t);
      for (int i = 0; i < tree.nb; ++i) {
        if (i == base || tree.joints[static_cast<std::size_t>(i)].type != JointType::Revolute) continue;
        q[tree.qOffset[static_cast<std::size_t>(i)]] = 0.7 * std::sin(0.8 * t + 0.5 * i);
      }
      view.showState(q);
    }
    for (std::size_t s = 0; s < view.trails().bodies().size(); ++s)
      QCOMPARE(view.trails().size(static_cast<int>(s)), frames + 1);
    const QImage image = view.renderToImage();
    QVERIFY(image.save(QDir::current().filePath(QStringLiteral("view_follow_trails.png"))));
    if (!qEnvironmentVariableIsEmpty("KINETREE_VIEW_SHOT")) image.save(qEnvironmentVariable("KINETREE_VIEW_SHOT"));
    QVERIFY(render::greyVariance(image) > 50.0);
    // The base is centred: its centre of mass projects to the middle of the image.
    const Eigen::Vector2d at = project(view.renderer(), comOf(view, tree, base));
    const int* size = view.renderWindow()->GetSize();
    QVERIFY2(std::abs(at.x() - 0.5 * size[0]) < 0.05 * size[0] && std::abs(at.y() - 0.5 * size[1]) < 0.05 * size[1],
             qPrintable(QStringLiteral("%1 %2").arg(at.x()).arg(at.y())));
  }
};

int main(int argc, char* argv[]) {
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestViewModes test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_view_modes.moc"
