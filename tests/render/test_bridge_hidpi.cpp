// SPDX-License-Identifier: BSD-3-Clause
// The bridge widget on a high-DPI screen (device pixel ratio 2, forced with QT_SCALE_FACTOR):
// VTK renders at device resolution, and positions given in logical pixels pick what is drawn there.
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkPolyDataMapper.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QSurfaceFormat>
#include <QTest>

#include "render/bridge/vtk_widget.hpp"

using kt::render::VtkWidget;

class TestBridgeHiDpi : public QObject {
  Q_OBJECT

 private slots:
  void rendersAtDeviceResolutionAndPicksInLogicalPixels() {
    VtkWidget widget;
    widget.resize(200, 150);
    vtkNew<vtkCubeSource> cube;
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(cube->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    actor->SetPosition(1.0, 0.0, 0.0);  // right of the centre
    widget.renderer()->AddActor(actor);
    widget.renderer()->SetBackground(0.0, 0.0, 0.0);
    vtkCamera* camera = widget.renderer()->GetActiveCamera();
    camera->SetPosition(0.0, -8.0, 0.0);
    camera->SetFocalPoint(0.0, 0.0, 0.0);
    camera->SetViewUp(0.0, 0.0, 1.0);
    widget.show();
    QVERIFY(QTest::qWaitForWindowExposed(&widget));

    QCOMPARE(widget.devicePixelRatioF(), 2.0);
    const QImage image = widget.renderToImage();
    QCOMPARE(image.size(), QSize(400, 300));
    QCOMPARE(widget.renderWindow()->GetSize()[0], 400);
    QCOMPARE(widget.renderWindow()->GetSize()[1], 300);
    QCOMPARE(widget.renderWindow()->GetDPI(), 144);

    // Where the cube is drawn (device pixels) is where a logical-pixel pick finds it.
    int minX = image.width(), maxX = -1;
    for (int x = 0; x < image.width(); ++x) {
      if (qGray(image.pixel(x, image.height() / 2)) > 20) {
        minX = std::min(minX, x);
        maxX = std::max(maxX, x);
      }
    }
    QVERIFY(maxX > minX);
    QVERIFY(minX > image.width() / 2);  // drawn right of the centre, at device resolution
    const QPoint centreLogical((minX + maxX) / 4, image.height() / 4);
    QCOMPARE(widget.pickProp(centreLogical), static_cast<vtkProp*>(actor));
    QCOMPARE(widget.pickProp(QPoint(minX / 2 - 10, image.height() / 4)), static_cast<vtkProp*>(nullptr));
  }
};

int main(int argc, char* argv[]) {
  qputenv("QT_SCALE_FACTOR", "2");
  QSurfaceFormat::setDefaultFormat(VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestBridgeHiDpi test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_bridge_hidpi.moc"
