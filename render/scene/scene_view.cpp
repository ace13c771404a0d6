// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/scene_view.hpp"

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <Eigen/Geometry>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "render/overlays/spring_marker.hpp"
#include "render/scene/trails.hpp"

namespace kt::render {

namespace {

constexpr qint64 kStatisticsWindowNs = 1'000'000'000;  // figures over the last second
constexpr qint64 kStatisticsTextNs = 250'000'000;      // overlay text refreshed 4 times a second
constexpr std::size_t kMaxLeafTrails = 8;

// The colour of a body's trail: its most saturated shape colour, slightly darkened so that the
// trail stands out against the light background; a grey or shapeless body gets a palette colour.
Eigen::Vector3d trailColour(const kt::BodySpec& body, int index) {
  static const std::array<Eigen::Vector3d, 6> palette = {
      Eigen::Vector3d(0.85, 0.2, 0.15), Eigen::Vector3d(0.15, 0.45, 0.85), Eigen::Vector3d(0.2, 0.65, 0.25),
      Eigen::Vector3d(0.75, 0.3, 0.75), Eigen::Vector3d(0.9, 0.55, 0.1),   Eigen::Vector3d(0.1, 0.65, 0.7)};
  double best = 0.25;  // below this saturation a colour counts as grey
  Eigen::Vector3d colour = palette[static_cast<std::size_t>(index) % palette.size()];
  for (const kt::Shape& shape : body.shapes) {
    const Eigen::Vector3d c = shape.color.head<3>();
    const double high = c.maxCoeff();
    const double saturation = high > 0.0 ? (high - c.minCoeff()) / high : 0.0;
    if (saturation > best) {
      best = saturation;
      colour = 0.8 * c;
    }
  }
  return colour;
}

double median(double* values, int n) {
  if (n <= 0) return 0.0;
  std::nth_element(values, values + n / 2, values + n);
  const double upper = values[n / 2];
  if (n % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(values, values + n / 2));
}

}  // namespace

void attachOverlay(vtkRenderWindow* window, vtkRenderer* main, vtkRenderer* overlay) {
  window->SetNumberOfLayers(std::max(window->GetNumberOfLayers(), 2));
  overlay->SetLayer(1);
  overlay->PreserveDepthBufferOff();  // its own depth test: drawn over the geometry below
  overlay->SetActiveCamera(main->GetActiveCamera());
  overlay->InteractiveOff();
  if (!window->HasRenderer(overlay)) window->AddRenderer(overlay);
}

SceneView::SceneView(QWidget* parent) : VtkWidget(parent) {
  overlay_ = vtkSmartPointer<vtkRenderer>::New();
  attachOverlay(renderWindow(), renderer(), overlay_);
  scene_ = std::make_unique<ModelScene>(renderer(), overlay_);
  trails_ = std::make_unique<Trails>(renderer());
  trails_->setVisible(false);
  connect(this, &VtkWidget::propClicked, this, [this](vtkProp* prop, vtkIdType cell, Qt::KeyboardModifiers keys) {
    const int body = scene_->bodyAt(prop, cell);
    if (body >= 0 && (keys & Qt::ControlModifier)) {
      emit bodyToggled(body);  // the selection's owner says what is selected then
      return;
    }
    selectBody(body);
    emit bodyPicked(body);
  });

  statisticsActor_ = vtkSmartPointer<vtkTextActor>::New();
  vtkTextProperty* text = statisticsActor_->GetTextProperty();
  text->SetFontSize(13);
  text->SetFontFamilyToCourier();
  text->SetBold(true);
  text->SetColor(0.08, 0.1, 0.16);  // the view background is light
  text->SetBackgroundColor(1.0, 1.0, 1.0);
  text->SetBackgroundOpacity(0.6);
  text->SetJustificationToRight();
  text->SetVerticalJustificationToTop();
  statisticsActor_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  statisticsActor_->SetPosition(0.99, 0.98);
  statisticsActor_->SetPickable(false);
  statisticsActor_->SetVisibility(false);
  overlay_->AddActor2D(statisticsActor_);
  spring_ = std::make_unique<SpringMarker>(overlay_);
  clock_.start();
}

SceneView::~SceneView() = default;

void SceneView::showModel(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory,
                          bool reframe) {
  ModelScene::Progress progress;
  QElapsedTimer sinceReport;
  if (tree.nb > kProgressBodies) {
    sinceReport.start();
    emit buildProgress(0, tree.nb);
    progress = [this, &sinceReport](int done, int total) {
      if (done < total && sinceReport.elapsed() < kProgressIntervalMs) return;
      sinceReport.restart();
      emit buildProgress(done, total);
    };
  }
  // A receiver of buildProgress() may run the event loop: until the scene is whole, frames and
  // states of the previous model are not drawn.
  struct Building {  // cleared however build() ends
    bool& flag;
    explicit Building(bool& f) : flag(f) { flag = true; }
    ~Building() { flag = false; }
  };
  {
    const Building building(building_);
    scene_->build(model, tree, modelDirectory, progress);
  }
  const kt::Tree& t = scene_->tree();
  com_.assign(static_cast<std::size_t>(t.nb), kt::Vec3::Zero());
  bodyColour_.assign(static_cast<std::size_t>(t.nb), Eigen::Vector3d(0.45, 0.45, 0.5));
  for (int i = 0; i < t.nb; ++i) {
    const kt::Inertia& I = t.I[static_cast<std::size_t>(i)];
    if (I.m > 0.0) com_[static_cast<std::size_t>(i)] = I.com();
    const kt::BodySpec& body = model.bodies[static_cast<std::size_t>(t.specIndex[static_cast<std::size_t>(i)])];
    bodyColour_[static_cast<std::size_t>(i)] = trailColour(body, i);
  }
  sampleKin_.resize(t);
  const bool trailsWereVisible = trails_->visible();
  setTrailBodies(defaultTrailBodies(t));
  trails_->setVisible(trailsWereVisible);

  if (reframe) {
    setStandardView(StandardView::Isometric);
  } else {
    renderer()->ResetCameraClippingRange();
    update();
  }
  const int previous = follow_;
  follow_ = previous >= 0 ? defaultFollowBody(t) : -1;
  if (follow_ >= 0) centreOnFollowedBody();
  if (follow_ != previous) emit followBodyChanged(follow_);
}

void SceneView::showState(const Eigen::VectorXd& q) {
  if (building_) return;
  const kt::Tree& t = scene_->tree();
  if (q.size() != t.nq || t.nb == 0) return;
  kt::computePositionKinematics(t, q, sampleKin_);
  showPoses(sampleKin_);
}

void SceneView::showPoses(const kt::Kinematics& poses) {
  if (building_) return;
  scene_->update(poses);
  const kt::Tree& t = scene_->tree();
  if (poses.X_0.size() == static_cast<std::size_t>(t.nb) && t.nb > 0) {
    if (follow_ >= 0) {
      const Eigen::Vector3d p = markerPoint(follow_);
      if (p.allFinite()) {
        translateCamera(p - followAnchor_);
        followAnchor_ = p;
      }
    }
    const std::vector<int>& bodies = trails_->bodies();
    for (std::size_t s = 0; s < bodies.size(); ++s) trails_->add(static_cast<int>(s), markerPoint(bodies[s]));
    trails_->redraw();
  }
  renderer()->ResetCameraClippingRange();
  update();
}

void SceneView::addTrailSample(const Eigen::VectorXd& q) {
  if (building_) return;
  const kt::Tree& t = scene_->tree();
  const std::vector<int>& bodies = trails_->bodies();
  if (bodies.empty() || q.size() != t.nq || t.nb == 0) return;
  kt::computePositionKinematics(t, q, sampleKin_);
  for (std::size_t s = 0; s < bodies.size(); ++s) {
    const auto b = static_cast<std::size_t>(bodies[s]);
    const kt::Xform& X = sampleKin_.X_0[b];  // world → body: E rotates world into body axes
    trails_->add(static_cast<int>(s), X.E.transpose() * com_[b] + X.r);
  }
}

Eigen::Vector3d SceneView::markerPoint(int body) const {
  const Eigen::Matrix4d& pose = scene_->bodyPose(body);
  return pose.topLeftCorner<3, 3>() * com_[static_cast<std::size_t>(body)] + pose.topRightCorner<3, 1>();
}

// ---- follow ----

int SceneView::defaultFollowBody(const kt::Tree& tree) {
  for (int r : tree.roots) {
    if (tree.joints[static_cast<std::size_t>(r)].type == kt::JointType::Free) return r;
  }
  return -1;
}

void SceneView::setFollowBody(int treeBody) {
  const int body = treeBody >= 0 && treeBody < scene_->bodyCount() ? treeBody : -1;
  const bool changed = body != follow_;
  follow_ = body;
  if (follow_ >= 0) centreOnFollowedBody();
  if (changed) emit followBodyChanged(follow_);
  update();
}

void SceneView::centreOnFollowedBody() {
  const Eigen::Vector3d p = markerPoint(follow_);
  if (!p.allFinite()) return;
  double focal[3];
  renderer()->GetActiveCamera()->GetFocalPoint(focal);
  translateCamera(p - Eigen::Vector3d(focal[0], focal[1], focal[2]));
  followAnchor_ = p;
  renderer()->ResetCameraClippingRange();
}

void SceneView::copyCamera(const SceneView& other) {
  renderer()->GetActiveCamera()->DeepCopy(other.renderer()->GetActiveCamera());
}

void SceneView::translateCamera(const Eigen::Vector3d& delta) {
  if (delta.isZero(0.0)) return;
  vtkCamera* camera = renderer()->GetActiveCamera();
  double focal[3], position[3];
  camera->GetFocalPoint(focal);
  camera->GetPosition(position);
  // Position first, then the focal point: both move by delta, so direction and distance are kept.
  camera->SetPosition(position[0] + delta.x(), position[1] + delta.y(), position[2] + delta.z());
  camera->SetFocalPoint(focal[0] + delta.x(), focal[1] + delta.y(), focal[2] + delta.z());
}

// ---- trails ----

std::vector<int> SceneView::defaultTrailBodies(const kt::Tree& tree) {
  std::vector<int> bodies;
  for (int i = 0; i < tree.nb && bodies.size() < kMaxLeafTrails; ++i) {
    if (tree.children[static_cast<std::size_t>(i)].empty()) bodies.push_back(i);
  }
  const int base = defaultFollowBody(tree);
  if (base >= 0 && std::find(bodies.begin(), bodies.end(), base) == bodies.end()) bodies.insert(bodies.begin(), base);
  return bodies;
}

void SceneView::setTrailBodies(const std::vector<int>& treeBodies) {
  std::vector<int> bodies;
  std::vector<Eigen::Vector3d> colours;
  for (int b : treeBodies) {
    if (b < 0 || b >= scene_->bodyCount() || std::find(bodies.begin(), bodies.end(), b) != bodies.end()) continue;
    bodies.push_back(b);
    colours.push_back(bodyColour_[static_cast<std::size_t>(b)]);
  }
  trails_->setBodies(bodies, colours);
  update();
}

void SceneView::clearTrails() {
  trails_->clear();
  update();
}

void SceneView::setTrailsVisible(bool visible) {
  trails_->setVisible(visible);
  renderer()->ResetCameraClippingRange();
  update();
}

bool SceneView::trailsVisible() const { return trails_->visible(); }

// ---- statistics ----

void SceneView::initializeGL() {
  VtkWidget::initializeGL();
  const auto* name = reinterpret_cast<const char*>(glContext()->functions()->glGetString(GL_RENDERER));
  const QByteArray renderer = QByteArray(name != nullptr ? name : "").toLower();
  softwareRendering_ = renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("swrast");
  bool forced = false;
  const int samples = qEnvironmentVariableIntValue("KINETREE_MSAA", &forced);
  if (forced) {
    renderWindow()->SetMultiSamples(std::max(0, samples));
  } else if (softwareRendering_) {
    renderWindow()->SetMultiSamples(0);
  }
}

void SceneView::paintGL() {
  if (building_) return;  // the last frame stays
  const qint64 start = clock_.nsecsElapsed();
  if (statisticsVisible_ && start - statisticsTextNs_ >= kStatisticsTextNs) {
    statisticsTextNs_ = start;
    updateStatisticsText();
  }
  VtkWidget::paintGL();
  const qint64 end = clock_.nsecsElapsed();
  frames_[static_cast<std::size_t>(frameHead_)] = {start, end - start};
  frameHead_ = (frameHead_ + 1) % kFrameRing;
  frameCount_ = std::min(frameCount_ + 1, kFrameRing);
  lastRenderMs_ = 1e-6 * static_cast<double>(end - start);
}

FrameStatistics SceneView::frameStatistics() const {
  FrameStatistics s;
  const qint64 now = clock_.nsecsElapsed();
  std::array<double, kFrameRing> render{};
  std::array<double, kFrameRing> interval{};
  int n = 0;
  int gaps = 0;
  qint64 first = 0, last = 0, previous = 0;
  // Newest first, back to a second ago.
  for (int k = 0; k < frameCount_; ++k) {
    const FrameRecord& f = frames_[static_cast<std::size_t>((frameHead_ - 1 - k + kFrameRing) % kFrameRing)];
    if (now - f.startNs > kStatisticsWindowNs) break;
    render[static_cast<std::size_t>(n)] = 1e-6 * static_cast<double>(f.renderNs);
    if (n == 0) {
      last = f.startNs;
    } else {
      interval[static_cast<std::size_t>(gaps++)] = 1e-6 * static_cast<double>(previous - f.startNs);
    }
    first = f.startNs;
    previous = f.startNs;
    ++n;
  }
  s.frames = n;
  if (n < 2 || last <= first) return s;
  s.framesPerSecond = static_cast<double>(n - 1) / (1e-9 * static_cast<double>(last - first));
  s.maxRenderMs = *std::max_element(render.begin(), render.begin() + n);
  s.medianRenderMs = median(render.data(), n);
  s.maxIntervalMs = *std::max_element(interval.begin(), interval.begin() + gaps);
  s.medianIntervalMs = median(interval.data(), gaps);
  return s;
}

QString SceneView::statisticsText() const {
  const FrameStatistics s = frameStatistics();
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "%.1f fps\nrender %.1f ms (max %.1f)\nframe %.1f ms (max %.1f)",
                s.framesPerSecond, s.medianRenderMs, s.maxRenderMs, s.medianIntervalMs, s.maxIntervalMs);
  return QString::fromLatin1(buffer);
}

void SceneView::updateStatisticsText() { statisticsActor_->SetInput(statisticsText().toLatin1().constData()); }

void SceneView::setStatisticsVisible(bool visible) {
  statisticsVisible_ = visible;
  statisticsActor_->SetVisibility(visible);
  if (visible) {
    statisticsTextNs_ = clock_.nsecsElapsed();
    updateStatisticsText();
  }
  update();
}

// ---- the rest ----

void SceneView::selectBody(int body) {
  scene_->setSelectedBody(body);
  update();
}

void SceneView::selectBodies(int current, const std::vector<int>& others) {
  scene_->setSelectedBodies(current, others);
  update();
}

void SceneView::setJointFramesVisible(bool visible) {
  scene_->setJointFramesVisible(visible);
  update();
}

void SceneView::setCentresOfMassVisible(bool visible) {
  scene_->setCentresOfMassVisible(visible);
  update();
}

void SceneView::setGridVisible(bool visible) {
  scene_->setGridVisible(visible);
  update();
}

bool SceneView::sceneBounds(double bounds[6]) const {
  if (scene_->bodyCount() == 0) {  // an empty model: the 2 m floor and the world axes above it
    const double floor[6] = {-1.0, 1.0, -1.0, 1.0, 0.0, 0.3};
    std::copy(floor, floor + 6, bounds);
    return true;
  }
  return scene_->modelBounds(bounds) || VtkWidget::sceneBounds(bounds);
}

// ---- grabbing ----

namespace {
constexpr double kGrabSlop = 4.0;  // logical pixels the cursor moves before a Ctrl+press is a drag
}  // namespace

void SceneView::setGrabEnabled(bool enabled) {
  grabEnabled_ = enabled;
  if (!enabled && grab_.active) {
    grab_ = Grab{};
    emit grabReleased();
  }
}

Eigen::Vector3d SceneView::bodyPointWorld(int body, const Eigen::Vector3d& pointInBody) const {
  const Eigen::Matrix4d& pose = scene_->bodyPose(body);
  return pose.topLeftCorner<3, 3>() * pointInBody + pose.topRightCorner<3, 1>();
}

Eigen::Vector3d SceneView::bodyPointFromWorld(int body, const Eigen::Vector3d& world) const {
  const Eigen::Matrix4d& pose = scene_->bodyPose(body);
  return pose.topLeftCorner<3, 3>().transpose() * (world - pose.topRightCorner<3, 1>());
}

void SceneView::mousePressEvent(QMouseEvent* event) {
  const bool button = event->button() == Qt::LeftButton || event->button() == Qt::RightButton;
  if (grabEnabled_ && button && (event->modifiers() & Qt::ControlModifier) && !grab_.pending) {
    vtkIdType cell = -1;
    double world[3] = {0.0, 0.0, 0.0};
    const int body = scene_->bodyAt(pickProp(event->position().toPoint(), &cell, world), cell);
    if (body >= 0) {
      grab_ = Grab{};
      grab_.pending = true;
      grab_.torque = event->button() == Qt::RightButton;
      grab_.button = event->button();
      grab_.body = body;
      grab_.point = Eigen::Vector3d(world[0], world[1], world[2]);
      grab_.press = event->position();
      event->accept();
      return;
    }
  }
  VtkWidget::mousePressEvent(event);
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
  if (!grab_.pending) {
    VtkWidget::mouseMoveEvent(event);
    return;
  }
  const QPointF delta = event->position() - grab_.press;
  if (!grab_.active) {
    if (std::abs(delta.x()) + std::abs(delta.y()) <= kGrabSlop) return;
    grab_.active = true;
    emit grabStarted(grab_.body, grab_.point, grab_.torque);
  }
  const Eigen::Vector3d target = worldAtDepth(event->position(), grab_.point);
  // the turn: about the axis in the view plane ⊥ the drag, half a turn across the view's height
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  if (vtkCamera* camera = renderer()->GetActiveCamera(); camera != nullptr && height() > 0) {
    double up[3], towardViewer[3];
    camera->GetViewUp(up);
    camera->GetDirectionOfProjection(towardViewer);
    const Eigen::Vector3d n = -Eigen::Vector3d(towardViewer[0], towardViewer[1], towardViewer[2]).normalized();
    const Eigen::Vector3d u = Eigen::Vector3d(up[0], up[1], up[2]).normalized();
    const Eigen::Vector3d right = u.cross(n);
    const Eigen::Vector3d drag = delta.x() * right - delta.y() * u;  // screen y grows downward
    const double length = drag.norm();
    if (length > 0.0)
      rotation = Eigen::AngleAxisd(std::numbers::pi * length / height(), n.cross(drag / length)).toRotationMatrix();
  }
  emit grabMoved(target, rotation);
  event->accept();
}

void SceneView::focusOutEvent(QFocusEvent* event) {
  const bool active = grab_.active;
  grab_ = Grab{};
  if (active) emit grabReleased();
  VtkWidget::focusOutEvent(event);
}

void SceneView::mouseReleaseEvent(QMouseEvent* event) {
  if (!grab_.pending || event->button() != grab_.button) {
    VtkWidget::mouseReleaseEvent(event);  // the camera's button (its press went to the camera too)
    return;
  }
  const Grab grab = grab_;
  grab_ = Grab{};
  if (grab.active) {
    emit grabReleased();
  } else if (!grab.torque) {
    // a Ctrl+click: the selection toggles as before
    vtkIdType cell = -1;
    vtkProp* prop = pickProp(event->position().toPoint(), &cell);
    emit propClicked(prop, cell, event->modifiers());
  }
  event->accept();
}

}  // namespace kt::render
