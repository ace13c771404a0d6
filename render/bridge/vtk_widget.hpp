// SPDX-License-Identifier: BSD-3-Clause
// The Qt 6 <-> VTK bridge: a widget hosting a vtkGenericOpenGLRenderWindow.
//
// Debian's VTK Qt module is built against Qt 5, so this widget replaces QVTKOpenGLNativeWidget.
// VTK never owns a context: it renders into its own framebuffer inside a context of ours and blits
// to the framebuffer we have bound (frame blit mode "blit to current"). Two ways to show a frame:
//  - OpenGL composition (a GPU): a QOpenGLWidget child covering the widget; Qt composes the
//    window with OpenGL (the widget's texture and the window's raster backing store) and swaps.
//  - Images (a software rasterizer: Mesa llvmpipe, e.g. under Xvfb): VTK renders in an off-screen
//    context, the frame is read back into a preallocated QImage and painted into the window's
//    raster backing store. The window then stays a plain raster window: a frame costs one read
//    of the view's pixels and a flush of the view's rectangle, where composition cost a full-window
//    clear, two textured passes over the window and a full-window swap (about half of every frame
//    of the space robot under Xvfb).
//  KINETREE_VIEW_IMAGES=1 or 0 in the environment forces one or the other.
// Mouse, wheel and keyboard events go to a vtkGenericRenderWindowInteractor with a trackball-camera
// style; the interactor never renders itself, it asks Qt for a repaint.
// Sizes are in device pixels (logical size × devicePixelRatio), so high-DPI screens are sharp and
// picking hits what is under the cursor.
#pragma once

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <Eigen/Core>
#include <QImage>
#include <QPoint>
#include <QSurfaceFormat>
#include <QWidget>
#include <memory>

class vtkProp;
class vtkObject;
class QOpenGLContext;
class QOpenGLFramebufferObject;
class QOffscreenSurface;

namespace kt::render {

enum class StandardView { PlusX, MinusX, PlusY, MinusY, PlusZ, MinusZ, Isometric };

class VtkWidget : public QWidget {
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
  /// resetView() when part of the scene lies outside the view (after an insert that grew the
  /// model), else nothing; true when it re-framed.
  bool fitIfOutside();
  /// Looks at the scene along a standard direction (Z up, except for ±Z where Y is up).
  void setStandardView(StandardView view);

  /// The prop under a widget position (logical pixels), or nullptr. Geometry picking: no render.
  /// `cell` (if given) receives the id of the picked cell in the prop's data, or −1.
  vtkProp* pickProp(const QPoint& position, vtkIdType* cell = nullptr, double* world = nullptr) const;
  /// The world point at widget position `position` (logical pixels) and at the depth of the world
  /// point `depthOf` as the camera sees it: where the cursor is on the plane through `depthOf`
  /// facing the camera.
  Eigen::Vector3d worldAtDepth(const QPointF& position, const Eigen::Vector3d& depthOf) const;

  /// Renders once and returns the image in device pixels (also works for hidden widgets).
  QImage renderToImage();

  using QWidget::update;
  /// Schedules a new frame (in OpenGL composition mode the child that shows it repaints).
  void update();

  /// True when frames are painted as images into the window's raster backing store (software
  /// rasterizer), false when Qt composes them with OpenGL. Decided once per process.
  static bool paintsImages();
  /// The OpenGL context VTK renders in (nullptr before the first frame).
  QOpenGLContext* glContext() const;

 signals:
  /// A click (press and release without dragging) on a prop; nullptr when nothing was hit.
  /// `cell`: the picked cell of the prop's data (−1 with no prop), which tells the part of a
  /// prop drawing many; `modifiers`: the keys held (Ctrl+click adds to a selection).
  void propClicked(vtkProp* prop, vtkIdType cell, Qt::KeyboardModifiers modifiers);
  /// A frame reached the window system (after Qt's composition and swap, or the flush of the
  /// painted image).
  void frameSwapped();

 protected:
  /// The context is current and VTK initialized in it (called again for a new context).
  virtual void initializeGL();
  /// Renders the frame: VTK renders and blits to the bound framebuffer; in image mode the
  /// frame is also read back into the widget's image.
  virtual void paintGL();

  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

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
  class GlView;

  void handleRenderWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
  void setEventPosition(const QPointF& position, Qt::KeyboardModifiers modifiers);
  void updateDeviceSize();
  /// VTK takes over the current context (Qt's, or ours in image mode).
  void initializeVtk();
  void releaseGL();
  // image mode
  bool makeImageContextCurrent();
  void renderImage();
  void readBackImage();

  GlView* glView_ = nullptr;                          ///< OpenGL composition mode: the child showing the frames
  std::unique_ptr<QOffscreenSurface> surface_;        ///< image mode: the context's surface
  std::unique_ptr<QOpenGLContext> imageContext_;      ///< image mode: VTK's context
  std::unique_ptr<QOpenGLFramebufferObject> target_;  ///< image mode: VTK blits here (device size)
  QImage image_;                                      ///< image mode: the last frame, top row first
  bool imageStale_ = true;                            ///< image mode: the scene changed since image_
  vtkSmartPointer<vtkGenericOpenGLRenderWindow> renderWindow_;
  vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
  vtkSmartPointer<vtkRenderer> renderer_;
  QPoint pressPosition_;
  bool dragged_ = false;
  bool glInitialized_ = false;
  bool inPaint_ = false;
};

}  // namespace kt::render
