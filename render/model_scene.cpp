#include "render/model_scene.hpp"

#include <vtkLightKit.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <algorithm>
#include <cmath>

#include "render/scene_decorations.hpp"
#include "render/shape_geometry.hpp"

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

}  // namespace

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
  shapes_.clear();
  jointFrames_.clear();
  comMarkers_.clear();
  com_.clear();
  bodyPose_.clear();
  grid_ = nullptr;
  worldAxes_ = nullptr;
  warnings_.clear();
  selected_ = -1;
  tree_ = kt::Tree{};
}

void ModelScene::build(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory) {
  clear();
  tree_ = tree;
  kin_.resize(tree_);
  bodyPose_.assign(tree_.nb, Eigen::Matrix4d::Identity());

  for (int i = 0; i < tree_.nb; ++i) {
    const kt::BodySpec& body = model.bodies[tree_.specIndex[i]];
    for (int s = 0; s < static_cast<int>(body.shapes.size()); ++s) {
      const kt::Shape& shape = body.shapes[s];
      std::string warning;
      vtkSmartPointer<vtkPolyData> geometry = shapeGeometry(shape, modelDirectory, warning);
      if (!warning.empty()) warnings_.push_back(body.name + ".shapes[" + std::to_string(s) + "]: " + warning);
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(geometry);
      mapper->ScalarVisibilityOff();
      ShapeActor sa;
      sa.actor = vtkSmartPointer<vtkActor>::New();
      sa.actor->SetMapper(mapper);
      vtkProperty* p = sa.actor->GetProperty();
      p->SetColor(shape.color[0], shape.color[1], shape.color[2]);
      p->SetOpacity(shape.color[3]);
      p->SetAmbient(0.12);
      p->SetDiffuse(0.85);
      p->SetSpecular(0.25);
      p->SetSpecularPower(30.0);
      sa.body = i;
      sa.shape = s;
      sa.placement = homogeneous(shape.origin.rotation(), shape.origin.xyz);
      sa.world = vtkSmartPointer<vtkMatrix4x4>::New();
      sa.actor->SetUserMatrix(sa.world);
      renderer_->AddActor(sa.actor);
      shapes_.push_back(std::move(sa));
    }
  }
  update(tree_.initialQ);

  double b[6];
  length_ =
      modelBounds(b)
          ? std::sqrt((b[1] - b[0]) * (b[1] - b[0]) + (b[3] - b[2]) * (b[3] - b[2]) + (b[5] - b[4]) * (b[5] - b[4]))
          : 1.0;
  if (!(length_ > 1e-9) || !std::isfinite(length_)) length_ = 1.0;
  buildDecorations(model);
  update(tree_.initialQ);
}

void ModelScene::buildDecorations(const kt::Model& model) {
  const double L = length_;

  // Joint frames (at the joint frame fixed in the parent) with the joint axis; hidden by default.
  jointFrames_.resize(tree_.nb);
  comMarkers_.resize(tree_.nb);
  com_.resize(tree_.nb);
  for (int i = 0; i < tree_.nb; ++i) {
    const kt::JointModel& joint = tree_.joints[i];
    const kt::Vec3 axis = kt::jointHasAxis(joint.type) ? joint.axis : kt::Vec3::Zero();
    jointFrames_[i] = makeLineActor(triadGeometry(0.06 * L, axis), 3.0f);
    jointFrames_[i]->PickableOff();
    jointFrames_[i]->SetVisibility(jointFramesVisible_);
    overlay_->AddActor(jointFrames_[i]);

    com_[i] = kt::bodyMassProperties(model.bodies[tree_.specIndex[i]]).com;
    comMarkers_[i] = makeCentreOfMassActor(0.015 * L);
    comMarkers_[i]->SetVisibility(comVisible_);
    overlay_->AddActor(comMarkers_[i]);
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
  const double z = std::min(low, 0.0) - 0.04 * L;
  const double half =
      1.2 * std::max({std::abs(b[0]), std::abs(b[1]), std::abs(b[2]), std::abs(b[3]), reachMax, 0.5 * L});
  grid_ = makeGridActor(half, niceSpacing(2.0 * half, 20));
  grid_->SetPosition(0.0, 0.0, z);
  grid_->SetVisibility(gridVisible_);
  renderer_->AddActor(grid_);

  worldAxes_ = makeLineActor(triadGeometry(0.15 * L), 3.0f);
  worldAxes_->PickableOff();
  worldAxes_->SetVisibility(gridVisible_);
  renderer_->AddActor(worldAxes_);
}

void ModelScene::update(const Eigen::VectorXd& q) {
  if (tree_.nb == 0 || q.size() != tree_.nq) return;
  kt::computePositionKinematics(tree_, q, kin_);
  for (int i = 0; i < tree_.nb; ++i) bodyPose_[i] = poseFromXform(kin_.X_0[i]);
  for (ShapeActor& s : shapes_) {
    copyTo(bodyPose_[s.body] * s.placement, s.world);
  }
  if (static_cast<int>(jointFrames_.size()) == tree_.nb) {
    for (int i = 0; i < tree_.nb; ++i) {
      const int p = tree_.parent[i];
      const Eigen::Matrix4d jointInParent = poseFromXform(tree_.X_T[i]);
      setPose(jointFrames_[i], p < 0 ? jointInParent : Eigen::Matrix4d(bodyPose_[p] * jointInParent));
      Eigen::Matrix4d atCom = bodyPose_[i];
      atCom.topRightCorner<3, 1>() += bodyPose_[i].topLeftCorner<3, 3>() * com_[i];
      setPose(comMarkers_[i], atCom);
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

void ModelScene::setSelectedBody(int body) {
  selected_ = (body >= 0 && body < tree_.nb) ? body : -1;
  applyHighlight();
}

void ModelScene::applyHighlight() {
  for (ShapeActor& s : shapes_) {
    vtkProperty* p = s.actor->GetProperty();
    if (s.body == selected_) {
      p->SetAmbientColor(1.0, 0.75, 0.1);
      p->SetAmbient(0.55);
    } else {
      p->SetAmbientColor(1.0, 1.0, 1.0);
      p->SetAmbient(0.12);
    }
  }
}

void ModelScene::setJointFramesVisible(bool visible) {
  jointFramesVisible_ = visible;
  for (auto& a : jointFrames_) a->SetVisibility(visible);
}

void ModelScene::setCentresOfMassVisible(bool visible) {
  comVisible_ = visible;
  for (auto& a : comMarkers_) a->SetVisibility(visible);
}

void ModelScene::setGridVisible(bool visible) {
  gridVisible_ = visible;
  if (grid_) grid_->SetVisibility(visible);
  if (worldAxes_) worldAxes_->SetVisibility(visible);
}

bool ModelScene::modelBounds(double bounds[6]) const {
  if (shapes_.empty()) return false;
  bounds[0] = bounds[2] = bounds[4] = 1e300;
  bounds[1] = bounds[3] = bounds[5] = -1e300;
  for (const ShapeActor& s : shapes_) mergeBounds(bounds, s.actor->GetBounds());
  return bounds[0] <= bounds[1];
}

}  // namespace kt::render
