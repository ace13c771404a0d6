// The Qt 6 <-> VTK bridge: a QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow.
//
// Debian's VTK Qt module is built against Qt 5, so this widget replaces QVTKOpenGLNativeWidget:
//  - initializeGL: VTK takes over Qt's context (no context of its own) and initializes its state;
//  - paintGL: VTK renders into its own framebuffer, then blits to the framebuffer Qt has bound
//    (frame blit mode "blit to current");
//  - mouse, wheel and keyboard events go to a vtkGenericRenderWindowInteractor with a
//    trackball-camera style; the interactor never renders itself, it asks Qt for a repaint.
// Sizes are in device pixels (logical size × devicePixelRatio), so high-DPI screens are sharp and
// picking hits what is under the cursor.
#pragma once

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <QImage>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

class vtkProp;
class vtkObject;

namespace kt::render {

enum class StandardView { PlusX, MinusX, PlusY, MinusY, PlusZ, MinusZ, Isometric };

class VtkWidget : public QOpenGLWidget {
  Q_OBJECT

 public:
  explicit VtkWidget(QWidget* parent = nullptr);
  ~VtkWidget() override;

  /// The OpenGL format VTK needs (3.2 core). Set it as the application default before the
  /// QApplication is created so that every context in the window is compatible.
  static QSurfaceFormat defaultFormat();

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkGenericRenderWindowInteractor* interactor() const;

  /// Frames sceneBounds(), keeping the current view direction.
  void resetView();
  /// Looks at the scene along a standard direction (Z up, except for ±Z where Y is up).
  void setStandardView(StandardView view);

  /// The prop under a widget position (logical pixels), or nullptr. Geometry picking: no render.
  vtkProp* pickProp(const QPoint& position) const;

  /// Renders once and returns the image in device pixels (also works for hidden widgets).
  QImage renderToImage();

 signals:
  /// A click (press and release without dragging) on a prop; nullptr when nothing was hit.
  void propClicked(vtkProp* prop);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void keyReleaseEvent(QKeyEvent* event) override;
  void enterEvent(QEnterEvent* event) override;
  void leaveEvent(QEvent* event) override;

  /// The box that reset and standard views frame; by default every visible prop.
  virtual bool sceneBounds(double bounds[6]) const;

 private:
  void handleRenderWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
  void setEventPosition(const QPointF& position, Qt::KeyboardModifiers modifiers);
  void updateDeviceSize();
  void releaseGL();

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> renderWindow_;
  vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
  vtkSmartPointer<vtkRenderer> renderer_;
  QPoint pressPosition_;
  bool dragged_ = false;
  bool glInitialized_ = false;
  bool inPaint_ = false;
};

}  // namespace kt::render
