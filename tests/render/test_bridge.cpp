// SPDX-License-Identifier: BSD-3-Clause
// The Qt 6 <-> VTK bridge widget: a known scene rendered through the widget matches a stored
// baseline image; camera views, picking and clicks behave. Runs under xvfb-run (real GL, Mesa).
//
// Baseline: tests/data/baselines/bridge_box_sphere.png (compared as tests/support/baseline.hpp says).
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <QApplication>
#include <QSignalSpy>
#include <QSurfaceFormat>
#include <QTest>

#include "render/bridge/vtk_widget.hpp"
#include "support/baseline.hpp"
#include "support/scene_fixture.hpp"

Q_DECLARE_METATYPE(vtkProp*)

using kt::render::StandardView;
using kt::render::VtkWidget;
using kt::test::widgetPoint;

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 240;

vtkSmartPointer<vtkActor> makeActor(vtkPolyDataAlgorithm* source, double r, double g, double b) {
  source->Update();
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetColor(r, g, b);
  return actor;
}

// A red unit box at x = −0.8 and a blue sphere of radius 0.5 at x = +0.8, seen from −y.
struct KnownScene {
  vtkSmartPointer<vtkActor> box;
  vtkSmartPointer<vtkActor> sphere;

  explicit KnownScene(vtkRenderer* renderer) {
    vtkNew<vtkCubeSource> cube;
    box = makeActor(cube, 0.85, 0.2, 0.15);
    box->SetPosition(-0.8, 0.0, 0.0);
    box->RotateZ(30.0);
    vtkNew<vtkSphereSource> ball;
    ball->SetRadius(0.5);
    ball->SetThetaResolution(32);
    ball->SetPhiResolution(16);
    sphere = makeActor(ball, 0.2, 0.35, 0.9);
    sphere->SetPosition(0.8, 0.0, 0.0);
    renderer->AddActor(box);
    renderer->AddActor(sphere);
    renderer->SetBackground(0.3, 0.3, 0.32);
    renderer->GradientBackgroundOff();
    vtkCamera* camera = renderer->GetActiveCamera();
    camera->SetPosition(0.0, -5.0, 1.5);
    camera->SetFocalPoint(0.0, 0.0, 0.0);
    camera->SetViewUp(0.0, 0.0, 1.0);
    camera->SetViewAngle(30.0);
    renderer->ResetCameraClippingRange();
  }
};

}  // namespace

class TestBridge : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    widget_ = std::make_unique<VtkWidget>();
    widget_->resize(kWidth, kHeight);
    scene_ = std::make_unique<KnownScene>(widget_->renderer());
    widget_->show();
    QVERIFY(QTest::qWaitForWindowExposed(widget_.get()));
  }
  void cleanup() {
    scene_.reset();
    widget_.reset();
  }

  void rendersKnownSceneLikeBaseline() {
    const QImage image = widget_->renderToImage();
    const qreal dpr = widget_->devicePixelRatioF();
    QCOMPARE(image.size(), QSize(qRound(kWidth * dpr), qRound(kHeight * dpr)));
    const QString difference = kt::test::differenceFromBaseline(image, QStringLiteral("bridge_box_sphere"));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
  }

  void imageShowsBothObjectsInTheirColours() {
    const QImage image = widget_->renderToImage();
    const double dpr = widget_->devicePixelRatioF();
    const QColor atBox = image.pixelColor(widgetPoint(*widget_, Eigen::Vector3d(-0.8, 0.0, 0.0)) * dpr);
    const QColor atSphere = image.pixelColor(widgetPoint(*widget_, Eigen::Vector3d(0.8, -0.45, 0.0)) * dpr);
    QVERIFY2(atBox.red() > 2 * atBox.blue(), qPrintable(atBox.name()));
    QVERIFY2(atSphere.blue() > 2 * atSphere.red(), qPrintable(atSphere.name()));
  }

  void renderWindowFollowsWidgetSizeInDevicePixels() {
    widget_->resize(401, 203);
    QTRY_COMPARE(widget_->renderToImage().size(),
                 QSize(qRound(401 * widget_->devicePixelRatioF()), qRound(203 * widget_->devicePixelRatioF())));
    const int* size = widget_->renderWindow()->GetSize();
    QCOMPARE(size[0], qRound(401 * widget_->devicePixelRatioF()));
    QCOMPARE(size[1], qRound(203 * widget_->devicePixelRatioF()));
  }

  void standardViewsLookAlongAxes_data() {
    QTest::addColumn<int>("view");
    QTest::addColumn<double>("dx");
    QTest::addColumn<double>("dy");
    QTest::addColumn<double>("dz");
    QTest::newRow("+x") << int(StandardView::PlusX) << -1.0 << 0.0 << 0.0;
    QTest::newRow("-x") << int(StandardView::MinusX) << 1.0 << 0.0 << 0.0;
    QTest::newRow("+y") << int(StandardView::PlusY) << 0.0 << -1.0 << 0.0;
    QTest::newRow("-y") << int(StandardView::MinusY) << 0.0 << 1.0 << 0.0;
    QTest::newRow("+z") << int(StandardView::PlusZ) << 0.0 << 0.0 << -1.0;
    QTest::newRow("-z") << int(StandardView::MinusZ) << 0.0 << 0.0 << 1.0;
  }
  void standardViewsLookAlongAxes() {
    QFETCH(int, view);
    QFETCH(double, dx);
    QFETCH(double, dy);
    QFETCH(double, dz);
    widget_->setStandardView(static_cast<StandardView>(view));
    double d[3];
    widget_->renderer()->GetActiveCamera()->GetDirectionOfProjection(d);
    QVERIFY(std::abs(d[0] - dx) < 1e-9 && std::abs(d[1] - dy) < 1e-9 && std::abs(d[2] - dz) < 1e-9);
    // The whole scene is in view: both objects project inside the widget.
    widget_->renderToImage();
    const QRect inside(QPoint(0, 0), widget_->size());
    QVERIFY(inside.contains(widgetPoint(*widget_, Eigen::Vector3d(-0.8, 0.0, 0.0))));
    QVERIFY(inside.contains(widgetPoint(*widget_, Eigen::Vector3d(0.8, 0.0, 0.0))));
  }

  void pickingFindsThePropUnderTheCursor() {
    widget_->renderToImage();
    QCOMPARE(widget_->pickProp(widgetPoint(*widget_, Eigen::Vector3d(-0.8, -0.5, 0.0))),
             static_cast<vtkProp*>(scene_->box));
    QCOMPARE(widget_->pickProp(widgetPoint(*widget_, Eigen::Vector3d(0.8, -0.5, 0.0))),
             static_cast<vtkProp*>(scene_->sphere));
    QCOMPARE(widget_->pickProp(QPoint(2, 2)), static_cast<vtkProp*>(nullptr));
  }

  void clickEmitsPickedPropButDragDoesNot() {
    widget_->renderToImage();
    QSignalSpy spy(widget_.get(), &VtkWidget::propClicked);
    const QPoint onSphere = widgetPoint(*widget_, Eigen::Vector3d(0.8, -0.5, 0.0));
    QTest::mouseClick(widget_.get(), Qt::LeftButton, {}, onSphere);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<vtkProp*>(), static_cast<vtkProp*>(scene_->sphere));

    // A drag rotates the camera and picks nothing.
    double before[3];
    widget_->renderer()->GetActiveCamera()->GetPosition(before);
    QTest::mousePress(widget_.get(), Qt::LeftButton, {}, onSphere);
    QMouseEvent move(QEvent::MouseMove, QPointF(onSphere + QPoint(60, 10)),
                     widget_->mapToGlobal(QPointF(onSphere + QPoint(60, 10))), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(widget_.get(), &move);
    QTest::mouseRelease(widget_.get(), Qt::LeftButton, {}, onSphere + QPoint(60, 10));
    QCOMPARE(spy.count(), 1);
    double after[3];
    widget_->renderer()->GetActiveCamera()->GetPosition(after);
    QVERIFY(std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]) > 1e-3);
  }

  void wheelZoomsIn() {
    widget_->renderToImage();
    vtkCamera* camera = widget_->renderer()->GetActiveCamera();
    const double before = camera->GetDistance();
    QWheelEvent wheel(QPointF(kWidth / 2, kHeight / 2), widget_->mapToGlobal(QPointF(kWidth / 2, kHeight / 2)),
                      QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget_.get(), &wheel);
    QVERIFY(camera->GetDistance() < before);
  }

 private:
  std::unique_ptr<VtkWidget> widget_;
  std::unique_ptr<KnownScene> scene_;
};

int main(int argc, char* argv[]) {
  QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  qRegisterMetaType<vtkProp*>();
  TestBridge test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_bridge.moc"
