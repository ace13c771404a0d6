// SPDX-License-Identifier: BSD-3-Clause
// The VTK scene of a model: the visual shapes placed by the body poses of a position vector q,
// plus a ground grid, world axes, joint frames and centre-of-mass markers. A body without shapes
// is drawn as a skeleton (rods to its children's joints, a ball at its centre of mass) so that it
// can be seen and picked.
//
//  - A model of up to batchThreshold() bodies (and twice as many shapes) gets one actor per
//    shape, joint frame and marker: VTK places each by its matrix on the GPU, so nothing is
//    copied per frame.
//  - A larger model is batched (RigidBatch): one actor for the opaque shapes, one for the
//    translucent ones, one for the joint frames and one for the markers (these two built when
//    first shown), with fewer facets on round shapes. The number of props stays the same for
//    any number of bodies; adding props one by one costs a linear search each and every prop a
//    draw call per frame, which made a 10,000-body chain take a minute and a half to open.
//    Picking goes through the picked cell (bodyAt()).
// Body indices are those of the kt::Tree (parent[i] < i); Tree::specIndex maps them to the
// Model's bodies. Touch it on the GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/model/model.hpp"
#include "core/model/tree.hpp"

class vtkProp;

namespace kt::render {

struct ShapeActor {
  vtkSmartPointer<vtkActor> actor;
  int body = -1;              ///< tree index of the body carrying the shape
  int shape = -1;             ///< index in the body's shape list; -1 for the skeleton of a body without shapes
  Eigen::Matrix4d placement;  ///< shape frame in the body frame
  vtkSmartPointer<vtkMatrix4x4> world;
};

class ModelScene {
 public:
  /// Bodies above which build() batches the geometry (see above).
  static constexpr int kDefaultBatchThreshold = 256;
  /// Called during build() with the bodies done so far and their total.
  using Progress = std::function<void(int done, int total)>;

  /// `renderer` receives the geometry, the grid and the world axes; `overlay` (a renderer on a
  /// higher layer sharing the camera) receives joint frames and centre-of-mass markers so that
  /// they stay visible inside the bodies.
  ModelScene(vtkRenderer* renderer, vtkRenderer* overlay);
  ~ModelScene();
  ModelScene(const ModelScene&) = delete;
  ModelScene& operator=(const ModelScene&) = delete;

  /// Replaces the scene with `model` (finalized as `tree`) at the tree's initial q. Mesh paths
  /// are resolved against `modelDirectory`.
  void build(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory,
             const Progress& progress = {});
  void clear();

  /// Moves every actor to the poses of q (size tree.nq). Allocates nothing.
  void update(const Eigen::VectorXd& q);
  /// Moves every actor to `poses` (their X_0: the world poses of a q, computed by the caller).
  void update(const kt::Kinematics& poses);

  /// Bodies above which the next build() batches (tests: compare both ways on one model).
  void setBatchThreshold(int bodies) { batchThreshold_ = bodies; }
  int batchThreshold() const { return batchThreshold_; }
  /// True when the current scene is batched.
  bool batched() const { return batches_ != nullptr; }

  /// One entry per shape when not batched (empty when batched).
  const std::vector<ShapeActor>& shapeActors() const { return shapes_; }
  int shapeActorCount() const { return static_cast<int>(shapes_.size()); }
  /// Tree index of the body a prop belongs to, or -1 (a batched prop needs its cell: bodyAt()).
  int bodyOfProp(const vtkProp* prop) const;
  /// Tree index of the body drawn by cell `cell` of `prop` (as a cell picker reports them), or -1.
  int bodyAt(const vtkProp* prop, vtkIdType cell) const;
  /// The props of the bodies' geometry (one per shape, or the batches).
  std::vector<vtkProp*> bodyProps() const;
  int bodyCount() const { return tree_.nb; }
  const kt::Tree& tree() const { return tree_; }
  /// Pose of body i (tree index) in the world as of the last update(): rotation and origin.
  const Eigen::Matrix4d& bodyPose(int body) const { return bodyPose_[static_cast<std::size_t>(body)]; }

  /// Highlights the shapes of one body (-1: none).
  void setSelectedBody(int body) { setSelectedBodies(body, {}); }
  /// Highlights the current body and the others selected with it (tree indices; out of range
  /// ones are left out).
  void setSelectedBodies(int current, const std::vector<int>& others);
  int selectedBody() const { return selected_; }
  /// Every highlighted body, ascending.
  const std::vector<int>& highlightedBodies() const { return highlighted_; }

  void setJointFramesVisible(bool visible);
  bool jointFramesVisible() const { return jointFramesVisible_; }
  void setCentresOfMassVisible(bool visible);
  bool centresOfMassVisible() const { return comVisible_; }
  void setGridVisible(bool visible);
  bool gridVisible() const { return gridVisible_; }

  /// Bounds of the body geometry at the current pose; false when there is none.
  bool modelBounds(double bounds[6]) const;
  /// A length typical of the model (diagonal of its initial bounds), for marker sizes.
  double characteristicLength() const { return length_; }

  /// Problems met while building (unreadable meshes), one line each.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Batches;
  void buildShapeActors(const kt::Model& model, const std::string& modelDirectory, const Progress& progress);
  void buildBatches(const kt::Model& model, const std::string& modelDirectory, const Progress& progress);
  void buildDecorations();
  /// Batched: the joint-frame or marker batch, made when first shown.
  void buildFrameBatch();
  void buildMarkerBatch();
  void placeFrameBatch();
  void placeMarkerBatch();
  void applyHighlight();
  void highlightBatched(int body, bool on);

  vtkRenderer* renderer_;
  vtkRenderer* overlay_;
  kt::Tree tree_;
  kt::Kinematics kin_;
  std::vector<ShapeActor> shapes_;
  std::vector<Eigen::Matrix4d> bodyPose_;               ///< (nb) body frame in world
  std::vector<vtkSmartPointer<vtkActor>> jointFrames_;  ///< (nb)
  std::vector<vtkSmartPointer<vtkActor>> comMarkers_;   ///< (nb)
  std::vector<kt::Vec3> com_;                           ///< (nb) body coordinates
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkActor> worldAxes_;
  std::vector<kt::Vec3> axis_;        ///< (nb) joint axes drawn in the frames
  std::unique_ptr<Batches> batches_;  ///< when batched
  std::vector<std::string> warnings_;
  std::vector<std::vector<kt::Shape>> skeleton_;  ///< during build(): what bodies without shapes show
  int batchThreshold_ = kDefaultBatchThreshold;
  double length_ = 1.0;
  int selected_ = -1;
  std::vector<int> highlighted_;  // selected_ and the others, ascending
  bool jointFramesVisible_ = false;
  bool comVisible_ = false;
  bool gridVisible_ = true;
};

}  // namespace kt::render
