// SPDX-License-Identifier: BSD-3-Clause
#include "render/bridge/vtk_widget.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkRenderer.h>
#include <QCursor>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace kt::render {

namespace {
// A press and release closer than this (logical pixels) is a click, not a drag.
constexpr int kClickSlop = 4;

// True when OpenGL rasterizes on the CPU (Mesa llvmpipe/softpipe, e.g. under Xvfb). False also
// when no context can be made (the widget then tries Qt's OpenGL composition).
bool softwareRasterizer() {
  QOffscreenSurface surface;
  surface.setFormat(VtkWidget::defaultFormat());
  surface.create();
  QOpenGLContext context;
  context.setFormat(VtkWidget::defaultFormat());
  if (!context.create() || !context.makeCurrent(&surface)) return false;
  const auto* name = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
  const QByteArray renderer = QByteArray(name != nullptr ? name : "").toLower();
  context.doneCurrent();
  return renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("swrast");
}
}  // namespace

QSurfaceFormat VtkWidget::defaultFormat() {
  // VTK's OpenGL2 backend needs a 3.2 core profile. VTK renders into its own framebuffers, so the
  // widget's buffers only receive the final blit.
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  format.setRedBufferSize(8);
  format.setGreenBufferSize(8);
  format.setBlueBufferSize(8);
  format.setAlphaBufferSize(8);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(0);
  format.setSamples(0);
  return format;
}

// Shows the frames of a VtkWidget that Qt composes with OpenGL: covers the widget, lets every mouse
// event through to it, and renders in paintGL with Qt's framebuffer bound.
class VtkWidget::GlView : public QOpenGLWidget {
 public:
  explicit GlView(VtkWidget* owner) : QOpenGLWidget(owner), owner_(owner) {
    setFormat(defaultFormat());
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setFocusPolicy(Qt::NoFocus);
    connect(this, &QOpenGLWidget::frameSwapped, owner, &VtkWidget::frameSwapped);
  }

 protected:
  void initializeGL() override {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, owner_, &VtkWidget::releaseGL, Qt::UniqueConnection);
    owner_->initializeVtk();
    owner_->initializeGL();
  }
  void resizeGL(int, int) override { owner_->updateDeviceSize(); }
  void paintGL() override { owner_->paintGL(); }

 private:
  VtkWidget* owner_;
};

bool VtkWidget::paintsImages() {
  static const bool images = [] {
    bool forced = false;
    const int value = qEnvironmentVariableIntValue("KINETREE_VIEW_IMAGES", &forced);
    return forced ? value != 0 : softwareRasterizer();
  }();
  return images;
}

VtkWidget::VtkWidget(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(64, 64);

  renderer_ = vtkSmartPointer<vtkRenderer>::New();
  renderer_->SetBackgroundAlpha(1.0);  // an opaque frame: nothing behind the view shows through

  renderWindow_ = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
  renderWindow_->AddRenderer(renderer_);
  renderWindow_->SetMultiSamples(4);  // anti-aliased edges and grid lines
  // Nothing renders until there is a context for us (initializeVtk).
  renderWindow_->SetReadyForRendering(false);
  renderWindow_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkWidget::handleRenderWindowEvent);
  renderWindow_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkWidget::handleRenderWindowEvent);
  renderWindow_->AddObserver(vtkCommand::WindowFrameEvent, this, &VtkWidget::handleRenderWindowEvent);

  interactor_ = vtkSmartPointer<vtkGenericRenderWindowInteractor>::New();
  interactor_->SetRenderWindow(renderWindow_);
  // The interactor asks for a repaint instead of rendering outside paintGL.
  interactor_->EnableRenderOff();
  interactor_->AddObserver(vtkCommand::RenderEvent, this, &VtkWidget::handleRenderWindowEvent);
  vtkNew<vtkInteractorStyleTrackballCamera> style;
  interactor_->SetInteractorStyle(style);
  interactor_->Initialize();

  if (paintsImages()) {
    // paintEvent() covers every pixel with the frame.
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAttribute(Qt::WA_NoSystemBackground);
  } else {
    glView_ = new GlView(this);
    glView_->setGeometry(rect());
  }
}

VtkWidget::~VtkWidget() {
  // The child's context goes after this body: release VTK's resources while the members still
  // exist, and stop listening to the context.
  if (glView_ != nullptr && glView_->context() != nullptr) disconnect(glView_->context(), nullptr, this, nullptr);
  releaseGL();
  renderWindow_->RemoveAllObservers();
  interactor_->RemoveAllObservers();
}

vtkRenderer* VtkWidget::renderer() const { return renderer_; }
vtkGenericOpenGLRenderWindow* VtkWidget::renderWindow() const { return renderWindow_; }
vtkGenericRenderWindowInteractor* VtkWidget::interactor() const { return interactor_; }

void VtkWidget::update() {
  if (glView_ != nullptr) {
    glView_->update();
  } else {
    imageStale_ = true;
    QWidget::update();
  }
}

QOpenGLContext* VtkWidget::glContext() const { return glView_ != nullptr ? glView_->context() : imageContext_.get(); }

void VtkWidget::initializeVtk() {
  if (glInitialized_) {
    // A new context (the widget was re-parented): VTK's resources of the old one are gone.
    renderWindow_->Finalize();
  }
  renderWindow_->SetOwnContext(0);
  renderWindow_->SetFrameBlitModeToBlitToCurrent();
  renderWindow_->SetForceMaximumHardwareLineWidth(1);
  renderWindow_->SetReadyForRendering(true);
  renderWindow_->OpenGLInitContext();
  renderWindow_->SetMapped(1);
  renderWindow_->SetIsCurrent(true);
  glInitialized_ = true;
  updateDeviceSize();
}

void VtkWidget::initializeGL() {}

void VtkWidget::releaseGL() {
  if (!glInitialized_) return;
  bool current = true;
  if (glView_ != nullptr) {
    glView_->makeCurrent();
  } else {
    current = makeImageContextCurrent();
  }
  renderWindow_->Finalize();
  renderWindow_->SetReadyForRendering(false);
  target_.reset();  // needs the context current
  if (current) glContext()->doneCurrent();
  glInitialized_ = false;
}

void VtkWidget::resizeEvent(QResizeEvent* event) {
  if (glView_ != nullptr) glView_->setGeometry(rect());
  imageStale_ = true;
  QWidget::resizeEvent(event);
}

void VtkWidget::updateDeviceSize() {
  const double dpr = devicePixelRatioF();
  const int w = std::max(1, static_cast<int>(std::lround(width() * dpr)));
  const int h = std::max(1, static_cast<int>(std::lround(height() * dpr)));
  interactor_->UpdateSize(w, h);  // also sizes the render window
  renderWindow_->SetDPI(static_cast<int>(std::lround(72.0 * dpr)));
}

void VtkWidget::paintGL() {
  if (!glInitialized_) return;
  updateDeviceSize();
  inPaint_ = true;
  // Renders into VTK's framebuffer and blits to the framebuffer bound by Qt or renderImage().
  renderWindow_->Render();
  inPaint_ = false;
  if (glView_ == nullptr) {
    readBackImage();
    return;
  }

  // Force an opaque alpha channel: Qt composites this widget's texture with blending, and a
  // transparent background would show through (seen with Mesa).
  QOpenGLFunctions* f = glView_->context()->functions();
  GLboolean mask[4];
  f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  GLfloat clear[4];
  f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
  f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
}

// ---- image mode ----

bool VtkWidget::makeImageContextCurrent() {
  if (!imageContext_) {
    surface_ = std::make_unique<QOffscreenSurface>();
    surface_->setFormat(defaultFormat());
    surface_->create();
    imageContext_ = std::make_unique<QOpenGLContext>();
    imageContext_->setFormat(defaultFormat());
    imageContext_->create();
  }
  return imageContext_->isValid() && imageContext_->makeCurrent(surface_.get());
}

void VtkWidget::renderImage() {
  if (!makeImageContextCurrent()) return;
  if (!glInitialized_) {
    initializeVtk();
    initializeGL();
  }
  const double dpr = devicePixelRatioF();
  const QSize size(std::max(1, static_cast<int>(std::lround(width() * dpr))),
                   std::max(1, static_cast<int>(std::lround(height() * dpr))));
  if (!target_ || target_->size() != size) {
    target_ = std::make_unique<QOpenGLFramebufferObject>(size, QOpenGLFramebufferObject::NoAttachment, GL_TEXTURE_2D,
                                                         GL_RGBA8);
  }
  target_->bind();
  paintGL();
  target_->release();
  imageStale_ = false;
}

void VtkWidget::readBackImage() {
  const int* size = renderWindow_->GetSize();
  const int w = size[0];
  const int h = size[1];
  if (!target_ || target_->width() != w || target_->height() != h) return;
  if (image_.width() != w || image_.height() != h) image_ = QImage(w, h, QImage::Format_RGB32);
  image_.setDevicePixelRatio(devicePixelRatioF());
  target_->bind();
  QOpenGLFunctions* f = imageContext_->functions();
  f->glPixelStorei(GL_PACK_ALIGNMENT, 4);
  // 0xAARRGGBB words, the layout of Format_RGB32 (alpha is 1: the background is opaque).
  uchar* bits = image_.bits();
  f->glReadPixels(0, 0, w, h, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, bits);
  // OpenGL's rows run bottom to top, QImage's top to bottom.
  const qsizetype stride = image_.bytesPerLine();
  for (int y = 0; y < h / 2; ++y) {
    std::swap_ranges(bits + y * stride, bits + (y + 1) * stride, bits + (h - 1 - y) * stride);
  }
}

void VtkWidget::paintEvent(QPaintEvent* event) {
  if (glView_ != nullptr) {
    QWidget::paintEvent(event);
    return;
  }
  // A paint without a change of the scene (an expose, a child widget moved over the view) shows
  // the last frame again: only update() and a resize make VTK render.
  if (imageStale_ || image_.isNull()) renderImage();
  QPainter painter(this);
  if (image_.isNull()) {
    painter.fillRect(rect(), palette().window());
    return;
  }
  painter.setCompositionMode(QPainter::CompositionMode_Source);
  painter.drawImage(QPointF(0.0, 0.0), image_);
  painter.end();
  // Qt flushes the painted rectangle to the window system right after this paint event.
  emit frameSwapped();
}

void VtkWidget::handleRenderWindowEvent(vtkObject*, unsigned long eventId, void* callData) {
  switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
      // Make our context current without rebinding framebuffers (VTK may have its own bound).
      if (glView_ == nullptr) {
        makeImageContextCurrent();
      } else if (glView_->context() != nullptr) {
        glView_->context()->makeCurrent(glView_->context()->surface());
      }
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      bool& current = *static_cast<bool*>(callData);
      current = glContext() != nullptr && QOpenGLContext::currentContext() == glContext();
      break;
    }
    case vtkCommand::WindowFrameEvent:
    case vtkCommand::RenderEvent:
      if (!inPaint_) update();
      break;
    default: break;
  }
}

bool VtkWidget::sceneBounds(double bounds[6]) const {
  renderer_->ComputeVisiblePropBounds(bounds);
  return bounds[0] <= bounds[1];
}

void VtkWidget::resetView() {
  double bounds[6];
  if (sceneBounds(bounds)) {
    renderer_->ResetCamera(bounds);
  } else {
    renderer_->ResetCamera();
  }
  renderer_->ResetCameraClippingRange();  // everything visible, not just the framed box
  update();
}

bool VtkWidget::fitIfOutside() {
  double bounds[6];
  if (!sceneBounds(bounds)) return false;
  bool inside = true;
  for (int corner = 0; corner < 8 && inside; ++corner) {
    renderer_->SetWorldPoint(bounds[corner & 1], bounds[2 + ((corner >> 1) & 1)], bounds[4 + ((corner >> 2) & 1)], 1.0);
    renderer_->WorldToView();
    const double* p = renderer_->GetViewPoint();  // −1 to 1 across the viewport
    inside = std::abs(p[0]) <= 1.0 && std::abs(p[1]) <= 1.0;
  }
  if (inside) return false;
  resetView();
  return true;
}

void VtkWidget::setStandardView(StandardView view) {
  double dir[3] = {0, 0, 0};  // from the focal point towards the camera
  double up[3] = {0, 0, 1};
  switch (view) {
    case StandardView::PlusX: dir[0] = 1; break;
    case StandardView::MinusX: dir[0] = -1; break;
    case StandardView::PlusY: dir[1] = 1; break;
    case StandardView::MinusY: dir[1] = -1; break;
    case StandardView::PlusZ:
      dir[2] = 1;
      up[1] = 1;
      up[2] = 0;
      break;
    case StandardView::MinusZ:
      dir[2] = -1;
      up[1] = 1;
      up[2] = 0;
      break;
    case StandardView::Isometric:
      dir[0] = 1;
      dir[1] = -1;
      dir[2] = 0.8;
      break;
  }
  double bounds[6] = {-1, 1, -1, 1, -1, 1};
  sceneBounds(bounds);
  const double centre[3] = {0.5 * (bounds[0] + bounds[1]), 0.5 * (bounds[2] + bounds[3]),
                            0.5 * (bounds[4] + bounds[5])};
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->SetFocalPoint(centre);
  camera->SetPosition(centre[0] + dir[0], centre[1] + dir[1], centre[2] + dir[2]);
  camera->SetViewUp(up);
  renderer_->ResetCamera(bounds);
  renderer_->ResetCameraClippingRange();
  update();
}

vtkProp* VtkWidget::pickProp(const QPoint& position, vtkIdType* cell, double* world) const {
  const double dpr = devicePixelRatioF();
  const int* size = renderWindow_->GetSize();
  const double x = position.x() * dpr;
  const double y = size[1] - 1 - position.y() * dpr;
  vtkNew<vtkCellPicker> picker;
  picker->SetTolerance(0.0005);
  if (cell != nullptr) *cell = -1;
  if (picker->Pick(x, y, 0.0, renderer_) == 0) return nullptr;
  if (cell != nullptr) *cell = picker->GetCellId();
  if (world != nullptr) picker->GetPickPosition(world);
  return picker->GetViewProp();
}

Eigen::Vector3d VtkWidget::worldAtDepth(const QPointF& position, const Eigen::Vector3d& depthOf) const {
  const double dpr = devicePixelRatioF();
  const int* size = renderWindow_->GetSize();
  renderer_->SetWorldPoint(depthOf.x(), depthOf.y(), depthOf.z(), 1.0);
  renderer_->WorldToDisplay();
  const double depth = renderer_->GetDisplayPoint()[2];
  renderer_->SetDisplayPoint(position.x() * dpr, size[1] - 1 - position.y() * dpr, depth);
  renderer_->DisplayToWorld();
  const double* w = renderer_->GetWorldPoint();
  return w[3] != 0.0 ? Eigen::Vector3d(w[0] / w[3], w[1] / w[3], w[2] / w[3]) : depthOf;
}

QImage VtkWidget::renderToImage() {
  if (glView_ != nullptr) return glView_->grabFramebuffer();
  renderImage();
  return image_;
}

void VtkWidget::setEventPosition(const QPointF& position, Qt::KeyboardModifiers modifiers) {
  const double dpr = devicePixelRatioF();
  interactor_->SetEventInformationFlipY(
      static_cast<int>(std::lround(position.x() * dpr)), static_cast<int>(std::lround(position.y() * dpr)),
      (modifiers & Qt::ControlModifier) ? 1 : 0, (modifiers & Qt::ShiftModifier) ? 1 : 0);
  interactor_->SetAltKey((modifiers & Qt::AltModifier) ? 1 : 0);
}

void VtkWidget::mousePressEvent(QMouseEvent* event) {
  setEventPosition(event->position(), event->modifiers());
  pressPosition_ = event->position().toPoint();
  dragged_ = false;
  switch (event->button()) {
    case Qt::LeftButton: interactor_->LeftButtonPressEvent(); break;
    case Qt::MiddleButton: interactor_->MiddleButtonPressEvent(); break;
    case Qt::RightButton: interactor_->RightButtonPressEvent(); break;
    default: break;
  }
  event->accept();
}

void VtkWidget::mouseMoveEvent(QMouseEvent* event) {
  if ((event->position().toPoint() - pressPosition_).manhattanLength() > kClickSlop) dragged_ = true;
  setEventPosition(event->position(), event->modifiers());
  interactor_->MouseMoveEvent();
  event->accept();
}

void VtkWidget::mouseReleaseEvent(QMouseEvent* event) {
  setEventPosition(event->position(), event->modifiers());
  switch (event->button()) {
    case Qt::LeftButton: interactor_->LeftButtonReleaseEvent(); break;
    case Qt::MiddleButton: interactor_->MiddleButtonReleaseEvent(); break;
    case Qt::RightButton: interactor_->RightButtonReleaseEvent(); break;
    default: break;
  }
  if (event->button() == Qt::LeftButton && !dragged_) {
    vtkIdType cell = -1;
    vtkProp* prop = pickProp(event->position().toPoint(), &cell);
    emit propClicked(prop, cell, event->modifiers());
  }
  event->accept();
}

void VtkWidget::wheelEvent(QWheelEvent* event) {
  setEventPosition(event->position(), event->modifiers());
  const int delta = event->angleDelta().y();
  if (delta > 0) {
    interactor_->MouseWheelForwardEvent();
  } else if (delta < 0) {
    interactor_->MouseWheelBackwardEvent();
  }
  event->accept();
}

void VtkWidget::keyPressEvent(QKeyEvent* event) {
  // Only the camera keys of the trackball style: r (reset), s (surfaces), w (wireframe). The
  // style's other keys quit, pick by rendering or switch to stereo, which the window handles itself.
  const QString text = event->text().toLower();
  if (text == "r" || text == "s" || text == "w") {
    const QByteArray key = text.toLatin1();
    const QPoint p = mapFromGlobal(QCursor::pos());
    setEventPosition(p, event->modifiers());
    interactor_->SetKeyEventInformation((event->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                        (event->modifiers() & Qt::ShiftModifier) ? 1 : 0, key[0],
                                        event->isAutoRepeat() ? 1 : 0, key.constData());
    interactor_->KeyPressEvent();
    interactor_->CharEvent();
    event->accept();
    return;
  }
  QWidget::keyPressEvent(event);
}

void VtkWidget::keyReleaseEvent(QKeyEvent* event) { QWidget::keyReleaseEvent(event); }

void VtkWidget::enterEvent(QEnterEvent* event) {
  interactor_->EnterEvent();
  QWidget::enterEvent(event);
}

void VtkWidget::leaveEvent(QEvent* event) {
  interactor_->LeaveEvent();
  QWidget::leaveEvent(event);
}

}  // namespace kt::render
