#include "render/vtk_widget.hpp"

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
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QWheelEvent>
#include <cmath>

namespace kt::render {

namespace {
// A press and release closer than this (logical pixels) is a click, not a drag.
constexpr int kClickSlop = 4;
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

VtkWidget::VtkWidget(QWidget* parent) : QOpenGLWidget(parent) {
  setFormat(defaultFormat());
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(64, 64);

  renderer_ = vtkSmartPointer<vtkRenderer>::New();

  renderWindow_ = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
  renderWindow_->AddRenderer(renderer_);
  renderWindow_->SetMultiSamples(4);  // anti-aliased edges and grid lines
  // Nothing renders until Qt has a context for us (initializeGL).
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
}

VtkWidget::~VtkWidget() {
  // The base class destroys the context after this body: release VTK's resources while the
  // members still exist, and stop listening to the context.
  if (context() != nullptr) disconnect(context(), nullptr, this, nullptr);
  releaseGL();
  renderWindow_->RemoveAllObservers();
  interactor_->RemoveAllObservers();
}

vtkRenderer* VtkWidget::renderer() const { return renderer_; }
vtkGenericOpenGLRenderWindow* VtkWidget::renderWindow() const { return renderWindow_; }
vtkGenericRenderWindowInteractor* VtkWidget::interactor() const { return interactor_; }

void VtkWidget::initializeGL() {
  if (glInitialized_) {
    // A new context (the widget was re-parented): VTK's resources of the old one are gone.
    renderWindow_->Finalize();
  }
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VtkWidget::releaseGL, Qt::UniqueConnection);
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

void VtkWidget::releaseGL() {
  if (!glInitialized_) return;
  makeCurrent();
  renderWindow_->Finalize();
  renderWindow_->SetReadyForRendering(false);
  doneCurrent();
  glInitialized_ = false;
}

void VtkWidget::resizeGL(int, int) { updateDeviceSize(); }

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
  // Renders into VTK's framebuffer and blits to the framebuffer bound by Qt (blit to current).
  renderWindow_->Render();
  inPaint_ = false;

  // Force an opaque alpha channel: Qt composites this widget's texture with blending, and a
  // transparent background would show through (seen with Mesa).
  QOpenGLFunctions* f = context()->functions();
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

void VtkWidget::handleRenderWindowEvent(vtkObject*, unsigned long eventId, void* callData) {
  switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
      // Make Qt's context current without rebinding framebuffers (VTK may have its own bound).
      if (context() != nullptr) context()->makeCurrent(context()->surface());
      break;
    case vtkCommand::WindowIsCurrentEvent: {
      bool& current = *static_cast<bool*>(callData);
      current = context() != nullptr && QOpenGLContext::currentContext() == context();
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

vtkProp* VtkWidget::pickProp(const QPoint& position) const {
  const double dpr = devicePixelRatioF();
  const int* size = renderWindow_->GetSize();
  const double x = position.x() * dpr;
  const double y = size[1] - 1 - position.y() * dpr;
  vtkNew<vtkCellPicker> picker;
  picker->SetTolerance(0.0005);
  if (picker->Pick(x, y, 0.0, renderer_) == 0) return nullptr;
  return picker->GetViewProp();
}

QImage VtkWidget::renderToImage() { return grabFramebuffer(); }

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
  if (event->button() == Qt::LeftButton && !dragged_) emit propClicked(pickProp(event->position().toPoint()));
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
  QOpenGLWidget::keyPressEvent(event);
}

void VtkWidget::keyReleaseEvent(QKeyEvent* event) { QOpenGLWidget::keyReleaseEvent(event); }

void VtkWidget::enterEvent(QEnterEvent* event) {
  interactor_->EnterEvent();
  QOpenGLWidget::enterEvent(event);
}

void VtkWidget::leaveEvent(QEvent* event) {
  interactor_->LeaveEvent();
  QOpenGLWidget::leaveEvent(event);
}

}  // namespace kt::render
