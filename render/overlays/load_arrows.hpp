// SPDX-License-Identifier: BSD-3-Clause
// Joint-load arrows: for every joint (or the selected one) the wrench the joint transmits to its
// child body, as a force arrow and a moment arrow (two tips) at the joint origin, drawn in the
// overlay renderer so that they stay visible in front of the geometry.
//
//  - Input: the position vector q and each joint's wrench in child-joint (body) coordinates, as
//    the recorder stores it (signals load:<joint>.fx … mz); see update().
//  - Full wrench f, or its reaction part only: f_r = T Tᵀ f with the joint's orthonormal
//    constraint subspace T (docs/dynamics.md §2; its components are the reaction:<joint>.* signals).
//  - Lengths: force scale in m/N and moment scale in m/(N·m), each set by the user or automatic:
//    the reference magnitude (one for forces, one for moments) is drawn 0.3 × the model's size.
//    The reference is the largest of: what the owner gives (setReference: the largest load of the
//    whole recording, so that the scale stays the same while scrubbing and in a video of the
//    run), the largest drawn since the last resetAutoScale() (a guard for an owner that gives
//    none), and the model's own scale (its weight m g, and m g × its size). The legend says where
//    the scale comes from and whether it is fixed for the run.
//  - Dead band: a magnitude below deadBand × the reference (default kt::kLoadDeadBand, the one the
//    Peak Loads table and the plots use) is not drawn, so that rounding noise (1e-13 N in a free
//    joint) never shows as an arrow. Nor is a reference under 1e-9 of the model's weight under
//    standard gravity (× its size for moments): where every load is rounding noise (a robot at
//    rest in zero gravity at t = 0, 1e-14 N) there is no scale to draw it at, and the legend says so.
//  - Colour: the magnitude against a limit, green at 0, yellow at half, red at and above it; the
//    limit is the joint's load rating where the model gives one, otherwise the user's limit;
//    with neither, arrows are a neutral blue (no colour claims a load is large).
//  - Legend: the upper-right corner says how long a round force and moment are drawn and what the
//    colour means (legendText()); a colour bar shows the scale from 0 to the limit.
//  - The selected joint's values are written in the lower-left corner, in its joint frame or in
//    world axes (worldAxes), the frame the plots' loads pane uses too.
//  - A tree of up to kBatchThreshold joints has two actors per joint, placed by their matrices;
//    a larger one has all its force arrows in one batch and all its moment arrows in another
//    (RigidBatch), so that the number of props does not grow with the joints. Either is made when
//    the arrows are first shown.
// GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkActor2D.h>
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
#include "core/results/peak_loads.hpp"
#include "core/results/signals.hpp"
#include "render/scene/model_scene.hpp"

class vtkPolyData;
class vtkTransform;

namespace kt::render {

class RigidBatch;

struct LoadArrowOptions {
  bool visible = false;
  bool selectedOnly = false;            ///< only the selected joint (none selected: none drawn)
  bool reactionOnly = true;             ///< the reaction part T Tᵀ f (the constraint forces) instead of f
  bool worldAxes = false;               ///< the written values in world axes instead of the joint frame
  double forceScale = 0.0;              ///< m per N; 0 = automatic
  double momentScale = 0.0;             ///< m per N·m; 0 = automatic
  double forceLimit = 0.0;              ///< N: red at and above; 0 = none (a joint's rating applies anyway)
  double momentLimit = 0.0;             ///< N·m: red at and above; 0 = none
  double deadBand = kt::kLoadDeadBand;  ///< magnitudes below this × the reference are not drawn
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
  bool batched() const { return tree_.nb > kBatchThreshold; }
  void clear();
  /// Forgets the largest magnitudes drawn (a new run).
  void resetAutoScale();
  /// The largest force and moment of the run (0: unknown), for the automatic scale and the dead
  /// band (see above); `wholeRun`: of the whole recording (the run has stopped), not of the run
  /// so far.
  void setReference(double force, double moment, bool wholeRun = true);

  void setOptions(const LoadArrowOptions& options);
  const LoadArrowOptions& options() const { return options_; }
  /// Tree index of the selected joint (joint i moves body i); −1 for none.
  void setSelectedJoint(int joint);
  /// The joints' load ratings (tree order; may be empty): a rated joint's arrows are red at its
  /// rating instead of the common limit.
  void setRatings(std::vector<kt::LoadRating> ratings);
  /// The legend's type size in pixels (12 by default, for a window; a picture printed at a
  /// fraction of its pixels wants more) and the selected joint's label's (14 by default).
  void setTextSize(int legendPixels, int labelPixels);
  int selectedJoint() const { return selected_; }

  /// Places the arrows at the joint origins of `poses` (the world poses of the sample's q, its
  /// X_0), with the loads recorded in its row: each joint's whole wrench in its frame and in world
  /// axes as recorded, or its reaction part T_i λ_i (T_i at q), turned into world axes.
  void update(const kt::Kinematics& poses, const Eigen::VectorXd& q, const kt::SignalLayout::RecordedLoads& loads);

  // ---- what is drawn (for tests and the status line) ----
  /// World-axes [moment; force] drawn for joint i after the last update().
  const kt::Vec6& drawnWrench(int joint) const { return drawn_[joint]; }
  /// The arrows' actors; nullptr when batched, or before the arrows were first shown.
  vtkActor* forceActor(int joint) const { return batched() || force_.empty() ? nullptr : force_[joint].Get(); }
  vtkActor* momentActor(int joint) const { return batched() || moment_.empty() ? nullptr : moment_[joint].Get(); }
  /// Whether joint i's force or moment arrow is drawn (after update() or an option change).
  bool forceShown(int joint) const { return shown_[static_cast<std::size_t>(joint)] & kForceShown; }
  bool momentShown(int joint) const { return shown_[static_cast<std::size_t>(joint)] & kMomentShown; }
  /// The colour bar under the legend is drawn.
  bool colourBarShown() const;
  double forceScaleInUse() const { return forceScaleUsed_; }
  double momentScaleInUse() const { return momentScaleUsed_; }
  /// The references (N, N·m): drawn 0.3 × the model's size when the scale is automatic.
  double forceReference() const;
  double momentReference() const;
  /// The limits in use for joint i (0: none).
  double forceLimit(int joint) const;
  double momentLimit(int joint) const;
  /// The selected joint's values ("" when none is shown).
  std::string label() const;
  /// What the legend says: a round force and moment and their arrow lengths, what the colour
  /// means ("" when the arrows are hidden); in a view under kCompactHeight × kCompactWidth pixels
  /// without the dead band's line, and the colours' in one line.
  std::string legendText() const;
  static constexpr int kCompactHeight = 420;
  static constexpr int kCompactWidth = 600;
  /// The legend's text actor (for tests: where it is drawn).
  vtkTextActor* legendActor() const { return legend_; }
  /// The round force and moment the legend shows (N, N·m).
  double legendForce() const;
  double legendMoment() const;

 private:
  /// The arrow's placement (x along the vector, scaled to its length) and colour; false when
  /// too short or not finite to be drawn.
  bool placement(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector, double scale, double limit,
                 double deadBand, Eigen::Matrix4d& m, double rgb[3]) const;
  /// Places one actor (unbatched) or one part of a batch (batched); returns whether it is drawn.
  bool place(vtkActor* actor, RigidBatch* batch, int part, const Eigen::Vector3d& origin, const Eigen::Vector3d& vector,
             double scale, double limit, double deadBand) const;
  void refresh();
  void makeActors();
  /// Puts the colour bar under the legend's last line (the overlay's StartEvent).
  void placeColourBar();
  /// As each frame starts: the legend's compact form where the view is small, then the bar.
  void frameStarts();

  static constexpr unsigned char kForceShown = 1;
  static constexpr unsigned char kMomentShown = 2;

  vtkSmartPointer<vtkRenderer> overlay_;  ///< held: the view may go before the arrows
  kt::Tree tree_;
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
  vtkSmartPointer<vtkTextActor> legend_;
  vtkSmartPointer<vtkActor2D> colourBar_;
  vtkSmartPointer<vtkTransform> barPlacement_;  ///< the unit square → the strip under the legend
  unsigned long barObserver_ = 0;               ///< the overlay's StartEvent → placeColourBar
  double barTop_ = -1.0;                        ///< where placeColourBar put the bar's top (viewport)
  bool compact_ = false;                        ///< the view is small: the legend in fewer lines
  bool haveState_ = false;
  bool actorsMade_ = false;                      ///< made when first shown (makeActors)
  double givenForce_ = 0.0, givenMoment_ = 0.0;  ///< setReference()
  bool givenWholeRun_ = false;                   ///< setReference(): of the whole recording
  double seenForce_ = 0.0, seenMoment_ = 0.0;    ///< the largest drawn since resetAutoScale()
  double weight_ = 0.0;                          ///< m g of the whole model (N)
  double noiseForce_ = 0.0;                      ///< 1e-9 m g₀ (N): a reference below it is rounding noise
  std::vector<kt::Vec6> body_;                   ///< (nb) the drawn quantity, joint (body) frame
  double forceScaleUsed_ = 0.0, momentScaleUsed_ = 0.0;
};

}  // namespace kt::render
