// Joint-load arrows: for every joint (or the selected one) the wrench the joint transmits to its
// child body, as a force arrow and a moment arrow (two tips) at the joint origin, drawn in the
// overlay renderer so that they stay visible in front of the geometry.
//
//  - Input: the position vector q and each joint's wrench in child-joint (body) coordinates, as
//    the recorder stores it (signals load:<joint>.fx … mz); see update().
//  - Full wrench f, or its reaction part only: f_r = T Tᵀ f with the joint's orthonormal
//    constraint subspace T (docs/dynamics.md §2; λ = Tᵀ f is the reaction:<joint>[k] signal).
//  - Lengths: force scale in m/N and moment scale in m/(N·m), each set by the user or automatic:
//    a reference magnitude is drawn 0.3 × the model's size. The reference (one for forces, one
//    for moments) follows the recent maximum, the largest magnitude of the last
//    kAutoScaleWindow = 120 updates (2 s at the GUI's 60 Hz):
//      - it grows at once when an update holds a larger magnitude (no arrow is drawn longer than
//        0.3 × the model's size);
//      - when the recent maximum is smaller (a start-up spike has left the window), it eases down
//        to it, each update by 10 % of the way in log scale (reference/recent → (reference/recent)^0.9),
//        so that even a 1000× spike is down to a few per cent above the recent maximum in one second.
//    So a transient holds the scale for 2 s and later, smaller loads then fill the view again,
//    while a steady run keeps a steady scale (no rescaling from frame to frame).
//  - Colour: magnitude relative to a user-set limit (green at 0, yellow at half, red at and above
//    the limit); with no limit set, relative to the automatic reference.
//  - The selected joint's values are written in the view's lower-left corner.
//  - A tree of up to kBatchThreshold joints has two actors per joint, placed by their matrices;
//    a larger one has all its force arrows in one batch and all its moment arrows in another
//    (RigidBatch), so that the number of props does not grow with the joints.
// GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <Eigen/Core>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/dynamics/kinematics.hpp"
#include "core/model/tree.hpp"
#include "render/model_scene.hpp"

class vtkPolyData;

namespace kt::render {

class RigidBatch;

struct LoadArrowOptions {
  bool visible = false;
  bool selectedOnly = false;  ///< only the selected joint (none selected: none drawn)
  bool reactionOnly = false;  ///< the reaction part T Tᵀ f instead of the full wrench f
  double forceScale = 0.0;    ///< m per N; 0 = automatic
  double momentScale = 0.0;   ///< m per N·m; 0 = automatic
  double forceLimit = 0.0;    ///< N: red at and above; 0 = the recent largest force
  double momentLimit = 0.0;   ///< N·m: red at and above; 0 = the recent largest moment
                              ///< (a joint's load rating, where it has one, takes the place of both)
};

class LoadArrows {
 public:
  /// The arrows and the text go into `overlay` (a renderer drawn above the geometry).
  explicit LoadArrows(vtkRenderer* overlay);
  ~LoadArrows();
  LoadArrows(const LoadArrows&) = delete;
  LoadArrows& operator=(const LoadArrows&) = delete;

  /// Joints above which the arrows are batched (see above).
  static constexpr int kBatchThreshold = ModelScene::kDefaultBatchThreshold;

  /// One force and one moment arrow per joint of `tree`; `length` is the model's typical size.
  void build(const kt::Tree& tree, double length);
  bool batched() const { return forceBatch_ != nullptr; }
  void clear();
  /// Forgets the recent largest magnitudes (a new run).
  void resetAutoScale();
  /// Number of updates whose largest magnitudes the automatic scale follows (see above).
  static constexpr int kAutoScaleWindow = 120;

  void setOptions(const LoadArrowOptions& options);
  const LoadArrowOptions& options() const { return options_; }
  /// Tree index of the selected joint (joint i moves body i); −1 for none.
  void setSelectedJoint(int joint);
  /// The joints' load ratings (tree order; may be empty): a rated joint's arrows are red at its
  /// rating instead of the common limit.
  void setRatings(std::vector<kt::LoadRating> ratings);
  int selectedJoint() const { return selected_; }

  /// Places the arrows: q (tree nq), wrenchBody[i] = joint i's wrench [moment; force] in body i
  /// coordinates at the joint origin (nb entries).
  void update(const Eigen::VectorXd& q, const std::vector<kt::Vec6>& wrenchBody);

  // ---- what is drawn (for tests and the status line) ----
  /// World-axes [moment; force] drawn for joint i after the last update().
  const kt::Vec6& drawnWrench(int joint) const { return drawn_[joint]; }
  /// The arrows' actors; nullptr when batched.
  vtkActor* forceActor(int joint) const { return batched() ? nullptr : force_[joint].Get(); }
  vtkActor* momentActor(int joint) const { return batched() ? nullptr : moment_[joint].Get(); }
  /// Whether joint i's force or moment arrow is drawn (after update() or an option change).
  bool forceShown(int joint) const { return shown_[static_cast<std::size_t>(joint)] & kForceShown; }
  bool momentShown(int joint) const { return shown_[static_cast<std::size_t>(joint)] & kMomentShown; }
  double forceScaleInUse() const { return forceScaleUsed_; }
  double momentScaleInUse() const { return momentScaleUsed_; }
  /// The automatic references (N, N·m): drawn 0.3 × the model's size when the scale is automatic.
  double forceReference() const { return forceRecent_.reference; }
  double momentReference() const { return momentRecent_.reference; }
  /// The selected joint's values ("" when none is shown).
  std::string label() const;

 private:
  /// The arrow's placement (x along the vector, scaled to its length) and colour; false when
  /// too short or not finite to be drawn.
  bool placement(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale, double limit,
                 Eigen::Matrix4d& m, double rgb[3]) const;
  /// Places one actor (unbatched) or one part of a batch (batched); returns whether it is drawn.
  bool place(vtkActor* actor, RigidBatch* batch, int part, const Eigen::Vector3d& origin, const Eigen::Vector3d& vector,
             double scale, double limit) const;
  void refresh();

  static constexpr unsigned char kForceShown = 1;
  static constexpr unsigned char kMomentShown = 2;

  vtkSmartPointer<vtkRenderer> overlay_;  ///< held: the view may go before the arrows
  kt::Tree tree_;
  kt::Kinematics kin_;
  double length_ = 1.0;
  LoadArrowOptions options_;
  std::vector<kt::LoadRating> ratings_;  ///< (nb or empty)
  int selected_ = -1;
  vtkSmartPointer<vtkPolyData> forceShape_;
  vtkSmartPointer<vtkPolyData> momentShape_;
  std::vector<vtkSmartPointer<vtkActor>> force_;   ///< (nb)
  std::vector<vtkSmartPointer<vtkActor>> moment_;  ///< (nb)
  std::unique_ptr<RigidBatch> forceBatch_;         ///< batched: one part per joint
  std::unique_ptr<RigidBatch> momentBatch_;
  std::vector<unsigned char> shown_;  ///< (nb) kForceShown | kMomentShown
  vtkSmartPointer<vtkTextActor> text_;
  std::vector<kt::Vec6> drawn_;      ///< (nb) world axes
  std::vector<Eigen::Vector3d> at_;  ///< (nb) joint origins, world
  /// The automatic reference of one kind: the maxima of the last kAutoScaleWindow updates.
  struct RecentMaximum {
    std::array<double, kAutoScaleWindow> ring{};
    int head = 0;
    double reference = 0.0;
    void reset();
    /// Adds the largest magnitude of one update and moves the reference.
    void push(double largest);
  };

  bool haveState_ = false;
  RecentMaximum forceRecent_, momentRecent_;
  double forceScaleUsed_ = 0.0, momentScaleUsed_ = 0.0;
};

}  // namespace kt::render
