// SPDX-License-Identifier: BSD-3-Clause
#include "render/scene/model_scene.hpp"

#include <vtkCellData.h>
#include <vtkLightKit.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <utility>

#include "render/scene/mesh_polydata.hpp"
#include "render/scene/rigid_batch.hpp"
#include "render/scene/scene_decorations.hpp"
#include "render/scene/shape_geometry.hpp"

namespace kt::render {

namespace {

// Homogeneous transform of a frame: rotation R (frame → parent coordinates), origin p.
Eigen::Matrix4d homogeneous(const kt::Mat3& R, const kt::Vec3& p) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = R;
  m.topRightCorner<3, 1>() = p;
  return m;
}

// Pose of frame B in frame A from a Plücker transform ᴮX_A (E: A → B coordinates, r: B's origin in A).
Eigen::Matrix4d poseFromXform(const kt::Xform& X) { return homogeneous(X.E.transpose(), X.r); }

void copyTo(const Eigen::Matrix4d& m, vtkMatrix4x4* out) {
  double* d = out->GetData();  // row-major
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) d[4 * r + c] = m(r, c);
  }
  out->Modified();
}

void setPose(vtkActor* actor, const Eigen::Matrix4d& pose) {
  vtkMatrix4x4* m = actor->GetUserMatrix();
  if (m == nullptr) {
    vtkNew<vtkMatrix4x4> fresh;
    actor->SetUserMatrix(fresh);
    m = fresh;
  }
  copyTo(pose, m);
}

void mergeBounds(double into[6], const double* b) {
  for (int k = 0; k < 3; ++k) {
    into[2 * k] = std::min(into[2 * k], b[2 * k]);
    into[2 * k + 1] = std::max(into[2 * k + 1], b[2 * k + 1]);
  }
}

// The shading of the bodies' surfaces (their colour comes from the shape or the scalars).
void setSurfaceLook(vtkProperty* p) {
  p->SetAmbient(0.12);
  p->SetDiffuse(0.85);
  p->SetSpecular(0.25);
  p->SetSpecularPower(30.0);
}

// Facets around round shapes and markers in a batched scene: a model of thousands of bodies is
// seen from far enough that 48 would only cost memory and time.
constexpr int kBatchedRoundResolution = 16;
constexpr int kBatchedMarkerResolution = 12;
// Bodies between two progress reports.
constexpr int kProgressEvery = 128;

RigidBatch::Rgba toRgba(const Eigen::Vector4d& c) {
  RigidBatch::Rgba out{};
  for (int j = 0; j < 4; ++j)
    out[static_cast<std::size_t>(j)] = static_cast<unsigned char>(std::lround(255.0 * std::clamp(c[j], 0.0, 1.0)));
  return out;
}

// A selected body's shapes: their colour half way to amber (a batch has no per-shape ambient
// colour, which is how a shape actor is highlighted).
RigidBatch::Rgba highlighted(const Eigen::Vector4d& c) {
  const Eigen::Vector4d amber(1.0, 0.75, 0.1, c[3]);
  return toRgba(0.5 * (c + amber));
}

// Shapes with the same key have the same geometry in their own frame (a batched model built of
// repeated parts makes each once).
std::string geometryKey(const kt::Shape& shape) {
  char buffer[256];
  if (shape.type == kt::ShapeType::Mesh) {
    std::snprintf(buffer, sizeof buffer, "|%.17g %.17g %.17g", shape.meshScale.x(), shape.meshScale.y(),
                  shape.meshScale.z());
    return "mesh " + shape.mesh + buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%d %.17g %.17g %.17g %.17g %.17g %d", static_cast<int>(shape.type),
                shape.size.x(), shape.size.y(), shape.size.z(), shape.radius, shape.length, shape.sides);
  return buffer;
}

// Colour of the skeleton drawn for bodies without shapes: a neutral steel blue, apart from the
// default grey of shapes.
const Eigen::Vector4d kSkeletonColour(0.45, 0.55, 0.72, 1.0);

// What is drawn for each body (tree order) that has no shapes, so that a model without visuals (an
// imported collision-only robot, meshes not found) can be seen and picked: a thin rod from its
// origin (its joint) to each child's joint, and a ball at its centre of mass whose radius grows
// as the cube root of its mass (a ball of water), kept between 2 % and 8 % of the model's size.
// Bodies with shapes get an empty list.
std::vector<std::vector<kt::Shape>> skeletonShapes(const kt::Model& model, const kt::Tree& tree) {
  std::vector<std::vector<kt::Shape>> out(static_cast<std::size_t>(tree.nb));
  bool any = false;
  for (int i = 0; i < tree.nb; ++i) any = any || model.bodies[tree.specIndex[i]].shapes.empty();
  if (!any) return out;
  // The model's size: the bounding box of the body origins and centres of mass at q = 0.
  std::vector<kt::Mat3> R(static_cast<std::size_t>(tree.nb));
  std::vector<kt::Vec3> p(static_cast<std::size_t>(tree.nb));
  kt::Vec3 lo = kt::Vec3::Zero(), hi = kt::Vec3::Zero();
  for (int i = 0; i < tree.nb; ++i) {
    const kt::Xform& X = tree.X_T[i];
    const int up = tree.parent[i];
    R[i] = up < 0 ? kt::Mat3(X.E.transpose()) : kt::Mat3(R[up] * X.E.transpose());
    p[i] = up < 0 ? kt::Vec3(X.r) : kt::Vec3(p[up] + R[up] * X.r);
    const kt::Vec3 com = p[i] + R[i] * (tree.I[i].m > 0.0 ? kt::Vec3(tree.I[i].com()) : kt::Vec3::Zero());
    lo = lo.cwiseMin(p[i]).cwiseMin(com);
    hi = hi.cwiseMax(p[i]).cwiseMax(com);
  }
  double size = (hi - lo).norm();
  if (!(size > 1e-6) || !std::isfinite(size)) size = 0.0;
  const double rod = size > 0.0 ? 0.012 * size : 0.01;
  for (int i = 0; i < tree.nb; ++i) {
    if (!model.bodies[tree.specIndex[i]].shapes.empty()) continue;
    std::vector<kt::Shape>& shapes = out[static_cast<std::size_t>(i)];
    for (int j = i + 1; j < tree.nb; ++j) {
      if (tree.parent[j] != i) continue;
      const kt::Vec3 to = tree.X_T[j].r;  // the child's joint origin, body coordinates
      const double length = to.norm();
      if (!(length > 1e-9) || !std::isfinite(length)) continue;
      kt::Shape s;
      s.type = kt::ShapeType::Cylinder;
      s.radius = rod;
      s.length = length;
      s.origin.xyz = 0.5 * to;
      s.origin.useQuaternion = true;
      const Eigen::Quaterniond turn = Eigen::Quaterniond::FromTwoVectors(kt::Vec3::UnitZ(), to);
      s.origin.quat = Eigen::Vector4d(turn.w(), turn.x(), turn.y(), turn.z());
      s.color = kSkeletonColour;
      shapes.push_back(std::move(s));
    }
    const double mass = tree.I[i].m;
    kt::Shape ball;
    ball.type = kt::ShapeType::Sphere;
    ball.radius = mass > 0.0 && std::isfinite(mass) ? std::cbrt(3.0 * mass / (4.0 * std::numbers::pi * 1000.0)) : rod;
    if (size > 0.0) ball.radius = std::clamp(ball.radius, 0.02 * size, 0.08 * size);
    ball.origin.xyz = mass > 0.0 ? kt::Vec3(tree.I[i].com()) : kt::Vec3::Zero();
    ball.color = kSkeletonColour;
    shapes.push_back(std::move(ball));
  }
  return out;
}

}  // namespace

// The batched scene: shapes in two batches (opaque, translucent), frames and markers.
struct ModelScene::Batches {
  struct Shapes {
    std::unique_ptr<RigidBatch> batch;
    std::vector<int> body;                    ///< (parts) tree index of each part's body
    std::vector<RigidBatch::Rgba> highlight;  ///< (parts) colour of the part while its body is selected
    std::vector<int> firstPart;               ///< (nb + 1) body i's parts are firstPart[i] … firstPart[i+1] − 1
  };
  std::array<Shapes, 2> shapes;  ///< opaque, translucent
  std::unique_ptr<RigidBatch> frames;
  std::unique_ptr<RigidBatch> markers;
};

ModelScene::ModelScene(vtkRenderer* renderer, vtkRenderer* overlay) : renderer_(renderer), overlay_(overlay) {
  // Key, fill and back lights: shapes read well from any side.
  vtkNew<vtkLightKit> lights;
  lights->SetKeyLightIntensity(0.85);
  lights->AddLightsToRenderer(renderer_);
  renderer_->GradientBackgroundOn();
  renderer_->SetBackground(0.80, 0.83, 0.87);   // bottom
  renderer_->SetBackground2(0.97, 0.98, 0.99);  // top
}

ModelScene::~ModelScene() { clear(); }

void ModelScene::clear() {
  for (auto& s : shapes_) renderer_->RemoveActor(s.actor);
  for (auto& a : jointFrames_) overlay_->RemoveActor(a);
  for (auto& a : comMarkers_) overlay_->RemoveActor(a);
  if (grid_) renderer_->RemoveActor(grid_);
  if (worldAxes_) renderer_->RemoveActor(worldAxes_);
  if (batches_) {
    for (auto& shapes : batches_->shapes) {
      if (shapes.batch) renderer_->RemoveActor(shapes.batch->actor());
    }
    if (batches_->frames) overlay_->RemoveActor(batches_->frames->actor());
    if (batches_->markers) overlay_->RemoveActor(batches_->markers->actor());
    batches_.reset();
  }
  shapes_.clear();
  jointFrames_.clear();
  comMarkers_.clear();
  com_.clear();
  axis_.clear();
  bodyPose_.clear();
  grid_ = nullptr;
  worldAxes_ = nullptr;
  warnings_.clear();
  selected_ = -1;
  highlighted_.clear();
  tree_ = kt::Tree{};
}

void ModelScene::build(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory,
                       const Progress& progress) {
  clear();
  tree_ = tree;
  kin_.resize(tree_);
  bodyPose_.assign(tree_.nb, Eigen::Matrix4d::Identity());
  skeleton_ = skeletonShapes(model, tree_);

  std::size_t shapeCount = 0;
  for (int i = 0; i < tree_.nb; ++i) shapeCount += model.bodies[tree_.specIndex[i]].shapes.size();
  if (tree_.nb > batchThreshold_ || shapeCount > 2 * static_cast<std::size_t>(std::max(batchThreshold_, 0))) {
    buildBatches(model, modelDirectory, progress);
  } else {
    buildShapeActors(model, modelDirectory, progress);
  }
  update(tree_.initialQ);

  double b[6];
  length_ =
      modelBounds(b)
          ? std::sqrt((b[1] - b[0]) * (b[1] - b[0]) + (b[3] - b[2]) * (b[3] - b[2]) + (b[5] - b[4]) * (b[5] - b[4]))
          : 1.0;
  if (!(length_ > 1e-9) || !std::isfinite(length_)) length_ = 1.0;
  buildDecorations();
  update(tree_.initialQ);
  skeleton_.clear();
  if (progress) progress(tree_.nb, tree_.nb);
}

void ModelScene::buildShapeActors(const kt::Model& model, const std::string& modelDirectory, const Progress& progress) {
  for (int i = 0; i < tree_.nb; ++i) {
    if (progress && i % kProgressEvery == 0) progress(i, tree_.nb);
    const kt::BodySpec& body = model.bodies[tree_.specIndex[i]];
    const bool skeleton = body.shapes.empty();
    const std::vector<kt::Shape>& drawn = skeleton ? skeleton_[static_cast<std::size_t>(i)] : body.shapes;
    for (int s = 0; s < static_cast<int>(drawn.size()); ++s) {
      const kt::Shape& shape = drawn[s];
      std::string warning;
      vtkSmartPointer<vtkPolyData> geometry = shapeGeometry(shape, modelDirectory, warning);
      if (!warning.empty()) warnings_.push_back(body.name + ".shapes[" + std::to_string(s) + "]: " + warning);
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(geometry);
      // a mesh file's own colours (its materials) draw it; everything else takes the shape's colour
      if (geometry->GetCellData()->GetArray(kMeshColorsName)) {
        mapper->ScalarVisibilityOn();
        mapper->SetScalarModeToUseCellFieldData();
        mapper->SelectColorArray(kMeshColorsName);
        mapper->SetColorModeToDirectScalars();
      } else {
        mapper->ScalarVisibilityOff();
      }
      ShapeActor sa;
      sa.actor = vtkSmartPointer<vtkActor>::New();
      sa.actor->SetMapper(mapper);
      vtkProperty* p = sa.actor->GetProperty();
      p->SetColor(shape.color[0], shape.color[1], shape.color[2]);
      p->SetOpacity(shape.color[3]);
      setSurfaceLook(p);
      sa.body = i;
      sa.shape = skeleton ? -1 : s;
      sa.placement = homogeneous(shape.origin.rotation(), shape.origin.xyz);
      sa.world = vtkSmartPointer<vtkMatrix4x4>::New();
      sa.actor->SetUserMatrix(sa.world);
      renderer_->AddActor(sa.actor);
      shapes_.push_back(std::move(sa));
    }
  }
}

void ModelScene::buildBatches(const kt::Model& model, const std::string& modelDirectory, const Progress& progress) {
  batches_ = std::make_unique<Batches>();
  struct Made {
    vtkSmartPointer<vtkPolyData> geometry;
    std::string warning;
  };
  std::map<std::string, Made> made;
  for (int i = 0; i < tree_.nb; ++i) {
    if (progress && i % kProgressEvery == 0) progress(i, tree_.nb);
    for (auto& shapes : batches_->shapes) shapes.firstPart.push_back(static_cast<int>(shapes.body.size()));
    const kt::BodySpec& body = model.bodies[tree_.specIndex[i]];
    const std::vector<kt::Shape>& drawn = body.shapes.empty() ? skeleton_[static_cast<std::size_t>(i)] : body.shapes;
    for (int s = 0; s < static_cast<int>(drawn.size()); ++s) {
      const kt::Shape& shape = drawn[s];
      const auto [it, fresh] = made.try_emplace(geometryKey(shape));
      if (fresh)
        it->second.geometry = shapeGeometry(shape, modelDirectory, it->second.warning, kBatchedRoundResolution);
      if (!it->second.warning.empty()) {
        warnings_.push_back(body.name + ".shapes[" + std::to_string(s) + "]: " + it->second.warning);
      }
      Batches::Shapes& shapes = batches_->shapes[shape.color[3] < 1.0 ? 1 : 0];
      if (!shapes.batch) {
        shapes.batch = std::make_unique<RigidBatch>(RigidBatch::Cells::Polygons, RigidBatch::Colours::PerPoint);
      }
      shapes.batch->add(it->second.geometry, homogeneous(shape.origin.rotation(), shape.origin.xyz),
                        toRgba(shape.color));
      shapes.body.push_back(i);
      shapes.highlight.push_back(highlighted(shape.color));
    }
  }
  for (auto& shapes : batches_->shapes) {
    shapes.firstPart.push_back(static_cast<int>(shapes.body.size()));
    if (!shapes.batch) continue;
    shapes.batch->finish();
    setSurfaceLook(shapes.batch->actor()->GetProperty());
    renderer_->AddActor(shapes.batch->actor());
  }
}

void ModelScene::buildDecorations() {
  const double L = length_;

  // Joint frames (at the joint frame fixed in the parent) with the joint axis; hidden by default.
  com_.resize(tree_.nb);
  axis_.resize(tree_.nb);
  for (int i = 0; i < tree_.nb; ++i) {
    const kt::JointModel& joint = tree_.joints[i];
    axis_[i] = kt::jointHasAxis(joint.type) ? joint.axis : kt::Vec3::Zero();
    // the finalized tree's inertia (its meshes already read against the model's directory)
    com_[i] = tree_.I[i].m > 0.0 ? kt::Vec3(tree_.I[i].com()) : kt::Vec3::Zero();
  }
  if (batches_) {
    // Built when first shown: most views of a large model never show them.
    if (jointFramesVisible_) buildFrameBatch();
    if (comVisible_) buildMarkerBatch();
  } else {
    jointFrames_.resize(tree_.nb);
    comMarkers_.resize(tree_.nb);
    for (int i = 0; i < tree_.nb; ++i) {
      jointFrames_[i] = makeLineActor(triadGeometry(0.06 * L, axis_[i]), 3.0f);
      jointFrames_[i]->PickableOff();
      jointFrames_[i]->SetVisibility(jointFramesVisible_);
      overlay_->AddActor(jointFrames_[i]);

      comMarkers_[i] = makeCentreOfMassActor(0.015 * L);
      comMarkers_[i]->SetVisibility(comVisible_);
      overlay_->AddActor(comMarkers_[i]);
    }
  }

  // Ground grid below everything the model can reach: the lowest point at the initial pose, and
  // for a fixed base, a full swing of the tree about each root joint.
  double b[6] = {-0.5, 0.5, -0.5, 0.5, -0.5, 0.5};
  modelBounds(b);
  double low = b[4];
  double reachMax = 0.0;
  for (int r : tree_.roots) {
    if (tree_.joints[r].type == kt::JointType::Free) continue;
    const kt::Vec3 o = tree_.X_T[r].r;  // joint frame origin of a root, world coordinates
    double reach = 0.0;
    for (int cx = 0; cx < 2; ++cx) {
      for (int cy = 0; cy < 2; ++cy) {
        for (int cz = 0; cz < 2; ++cz) {
          const kt::Vec3 c(b[cx], b[2 + cy], b[4 + cz]);
          reach = std::max(reach, (c - o).norm());
        }
      }
    }
    reachMax = std::max(reachMax, reach);
    low = std::min(low, o.z() - reach);
  }
  // (no bodies yet: a 2 m floor at z = 0 to build on)
  const double z = tree_.nb == 0 ? 0.0 : std::min(low, 0.0) - 0.04 * L;
  const double half =
      tree_.nb == 0
          ? 1.0
          : 1.2 * std::max({std::abs(b[0]), std::abs(b[1]), std::abs(b[2]), std::abs(b[3]), reachMax, 0.5 * L});
  grid_ = makeGridActor(half, niceSpacing(2.0 * half, 20));
  grid_->SetPosition(0.0, 0.0, z);
  grid_->SetVisibility(gridVisible_);
  renderer_->AddActor(grid_);

  worldAxes_ = makeLineActor(triadGeometry(0.15 * L), 3.0f);
  worldAxes_->PickableOff();
  worldAxes_->SetVisibility(gridVisible_);
  renderer_->AddActor(worldAxes_);
}

void ModelScene::buildFrameBatch() {
  if (!batches_ || batches_->frames) return;
  batches_->frames = std::make_unique<RigidBatch>(RigidBatch::Cells::Lines, RigidBatch::Colours::PerPoint);
  RigidBatch& frames = *batches_->frames;
  const Eigen::Matrix4d identity = Eigen::Matrix4d::Identity();
  for (int i = 0; i < tree_.nb; ++i)
    frames.add(triadGeometry(0.06 * length_, axis_[i]), identity, {255, 255, 255, 255});
  frames.finish();
  frames.actor()->GetProperty()->SetLineWidth(3.0f);
  frames.actor()->PickableOff();
  frames.actor()->SetVisibility(jointFramesVisible_);
  overlay_->AddActor(frames.actor());
}

void ModelScene::buildMarkerBatch() {
  if (!batches_ || batches_->markers) return;
  batches_->markers = std::make_unique<RigidBatch>(RigidBatch::Cells::Polygons, RigidBatch::Colours::PerCell);
  RigidBatch& markers = *batches_->markers;
  const vtkSmartPointer<vtkPolyData> marker = centreOfMassGeometry(0.015 * length_, kBatchedMarkerResolution);
  const Eigen::Matrix4d identity = Eigen::Matrix4d::Identity();
  for (int i = 0; i < tree_.nb; ++i) markers.add(marker, identity, {255, 255, 255, 255});
  markers.finish();
  markers.actor()->PickableOff();
  markers.actor()->SetVisibility(comVisible_);
  overlay_->AddActor(markers.actor());
}

// Pose of joint i's frame (fixed in the parent) and of body i's centre of mass, at the last update().
namespace {

Eigen::Matrix4d jointFramePose(const kt::Tree& tree, const std::vector<Eigen::Matrix4d>& bodyPose, int i) {
  const int p = tree.parent[i];
  const Eigen::Matrix4d jointInParent = poseFromXform(tree.X_T[i]);
  return p < 0 ? jointInParent : Eigen::Matrix4d(bodyPose[p] * jointInParent);
}

Eigen::Matrix4d centreOfMassPose(const Eigen::Matrix4d& bodyPose, const kt::Vec3& com) {
  Eigen::Matrix4d atCom = bodyPose;
  atCom.topRightCorner<3, 1>() += bodyPose.topLeftCorner<3, 3>() * com;
  return atCom;
}

}  // namespace

void ModelScene::placeFrameBatch() {
  RigidBatch& frames = *batches_->frames;
  for (int i = 0; i < tree_.nb; ++i) frames.place(i, jointFramePose(tree_, bodyPose_, i));
  frames.commit();
}

void ModelScene::placeMarkerBatch() {
  RigidBatch& markers = *batches_->markers;
  for (int i = 0; i < tree_.nb; ++i) markers.place(i, centreOfMassPose(bodyPose_[i], com_[i]));
  markers.commit();
}

void ModelScene::update(const Eigen::VectorXd& q) {
  if (tree_.nb == 0 || q.size() != tree_.nq) return;
  kt::computePositionKinematics(tree_, q, kin_);
  update(kin_);
}

void ModelScene::update(const kt::Kinematics& poses) {
  if (tree_.nb == 0 || poses.X_0.size() != static_cast<std::size_t>(tree_.nb)) return;
  for (int i = 0; i < tree_.nb; ++i) bodyPose_[i] = poseFromXform(poses.X_0[i]);
  if (batches_) {
    for (auto& shapes : batches_->shapes) {
      if (!shapes.batch) continue;
      for (int part = 0; part < shapes.batch->partCount(); ++part) {
        shapes.batch->place(part, bodyPose_[shapes.body[part]]);
      }
      shapes.batch->commit();
    }
    // Hidden frames and markers are placed when shown.
    if (batches_->frames && jointFramesVisible_) placeFrameBatch();
    if (batches_->markers && comVisible_) placeMarkerBatch();
    return;
  }
  for (ShapeActor& s : shapes_) {
    copyTo(bodyPose_[s.body] * s.placement, s.world);
  }
  if (static_cast<int>(jointFrames_.size()) == tree_.nb) {
    for (int i = 0; i < tree_.nb; ++i) {
      setPose(jointFrames_[i], jointFramePose(tree_, bodyPose_, i));
      setPose(comMarkers_[i], centreOfMassPose(bodyPose_[i], com_[i]));
    }
  }
}

int ModelScene::bodyOfProp(const vtkProp* prop) const {
  if (prop == nullptr) return -1;
  for (const ShapeActor& s : shapes_) {
    if (s.actor.GetPointer() == prop) return s.body;
  }
  return -1;
}

int ModelScene::bodyAt(const vtkProp* prop, vtkIdType cell) const {
  if (!batches_) return bodyOfProp(prop);
  if (prop == nullptr) return -1;
  for (const auto& shapes : batches_->shapes) {
    if (!shapes.batch || shapes.batch->actor() != prop) continue;
    const int part = shapes.batch->partOfCell(cell);
    return part >= 0 ? shapes.body[part] : -1;
  }
  return -1;
}

std::vector<vtkProp*> ModelScene::bodyProps() const {
  std::vector<vtkProp*> props;
  if (batches_) {
    for (const auto& shapes : batches_->shapes) {
      if (shapes.batch) props.push_back(shapes.batch->actor());
    }
  } else {
    for (const ShapeActor& s : shapes_) props.push_back(s.actor);
  }
  return props;
}

void ModelScene::setSelectedBodies(int current, const std::vector<int>& others) {
  const auto inRange = [this](int b) { return b >= 0 && b < tree_.nb; };
  std::vector<int> now;
  if (inRange(current)) now.push_back(current);
  for (int b : others)
    if (inRange(b)) now.push_back(b);
  std::sort(now.begin(), now.end());
  now.erase(std::unique(now.begin(), now.end()), now.end());
  selected_ = inRange(current) ? current : -1;
  const std::vector<int> before = std::exchange(highlighted_, std::move(now));
  if (batches_) {
    for (int b : before)
      if (!std::binary_search(highlighted_.begin(), highlighted_.end(), b)) highlightBatched(b, false);
    for (int b : highlighted_) highlightBatched(b, true);
    for (auto& shapes : batches_->shapes) {
      if (shapes.batch) shapes.batch->commit();
    }
    return;
  }
  applyHighlight();
}

void ModelScene::highlightBatched(int body, bool on) {
  if (body < 0 || body >= tree_.nb) return;
  for (auto& shapes : batches_->shapes) {
    if (!shapes.batch) continue;
    for (int part = shapes.firstPart[body]; part < shapes.firstPart[body + 1]; ++part) {
      shapes.batch->setPartColour(part, on ? &shapes.highlight[part] : nullptr);
    }
  }
}

void ModelScene::applyHighlight() {
  for (ShapeActor& s : shapes_) {
    vtkProperty* p = s.actor->GetProperty();
    const bool lit = std::binary_search(highlighted_.begin(), highlighted_.end(), s.body);
    if (lit) {
      p->SetAmbientColor(1.0, 0.75, 0.1);
      p->SetAmbient(0.55);
    } else {
      p->SetAmbientColor(1.0, 1.0, 1.0);
      p->SetAmbient(0.12);
    }
    // a mesh drawn in its file's colours takes no ambient colour: while selected it is drawn in its
    // shape's colour, which does
    vtkMapper* mapper = s.actor->GetMapper();
    if (mapper && mapper->GetInput() && mapper->GetInput()->GetCellData()->GetArray(kMeshColorsName))
      mapper->SetScalarVisibility(!lit);
  }
}

void ModelScene::setJointFramesVisible(bool visible) {
  jointFramesVisible_ = visible;
  for (auto& a : jointFrames_) a->SetVisibility(visible);
  if (batches_ && tree_.nb > 0) {
    if (visible) {
      buildFrameBatch();
      placeFrameBatch();
    }
    if (batches_->frames) batches_->frames->actor()->SetVisibility(visible);
  }
}

void ModelScene::setCentresOfMassVisible(bool visible) {
  comVisible_ = visible;
  for (auto& a : comMarkers_) a->SetVisibility(visible);
  if (batches_ && tree_.nb > 0) {
    if (visible) {
      buildMarkerBatch();
      placeMarkerBatch();
    }
    if (batches_->markers) batches_->markers->actor()->SetVisibility(visible);
  }
}

void ModelScene::setGridVisible(bool visible) {
  gridVisible_ = visible;
  if (grid_) grid_->SetVisibility(visible);
  if (worldAxes_) worldAxes_->SetVisibility(visible);
}

bool ModelScene::modelBounds(double bounds[6]) const {
  bounds[0] = bounds[2] = bounds[4] = 1e300;
  bounds[1] = bounds[3] = bounds[5] = -1e300;
  bool any = false;
  for (const ShapeActor& s : shapes_) {
    mergeBounds(bounds, s.actor->GetBounds());
    any = true;
  }
  if (batches_) {
    for (const auto& shapes : batches_->shapes) {
      if (!shapes.batch || shapes.batch->pointCount() == 0) continue;
      mergeBounds(bounds, shapes.batch->geometry()->GetBounds());
      any = true;
    }
  }
  return any && bounds[0] <= bounds[1];
}

}  // namespace kt::render
