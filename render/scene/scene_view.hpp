// SPDX-License-Identifier: BSD-3-Clause
// The 3D view of a model: the bridge widget showing a ModelScene, with body picking, and three
// view modes on top of it:
//
//  - Follow a body (the floating base by default): showState() translates the camera by the
//    displacement of the body's centre of mass since the previous frame, so the body keeps its
//    place on screen while the view direction, the distance and the user's own rotation, pan and
//    zoom are kept. Turning it on moves the focal point onto the body, so that the trackball
//    rotates about it.
//  - Motion trails of chosen bodies: their centres of mass at the last Trails::kDefaultCapacity
//    shown states (showState(), plus any addTrailSample() between frames), in each body's colour,
//    fading with age. Emptied by showModel() and clearTrails().
//  - Grabbing (setGrabEnabled): Ctrl+left-drag on a body grabs the point under the cursor and
//    Ctrl+right-drag turns the body: grabStarted(), grabMoved() as the cursor moves and
//    grabReleased() replace the camera's rotation while the buttons are down (a Ctrl+click
//    without dragging still toggles the body's selection). The owner applies the pull and draws
//    it with spring() (docs/interaction.md).
//  - Frame statistics: frames per second, render time of paintGL (VTK render and blit) and the
//    interval between frames, over the last second, as an overlay (toggle) and as figures.
// Nothing here allocates per frame after showModel() (the statistics text changes 4 times a
// second when shown).
#pragma once

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <QElapsedTimer>
#include <array>
#include <memory>
#include <vector>

#include "render/bridge/vtk_widget.hpp"
#include "render/scene/model_scene.hpp"

class vtkTextActor;

namespace kt::render {

class SpringMarker;
class Trails;

/// Figures of the frames painted during the last second (zero when fewer than two).
struct FrameStatistics {
  int frames = 0;                ///< frames painted in the window
  double framesPerSecond = 0.0;  ///< (frames − 1) / time from the first to the last of them
  double medianRenderMs = 0.0;   ///< paintGL: VTK render into its framebuffer and blit
  double maxRenderMs = 0.0;
  double medianIntervalMs = 0.0;  ///< between the starts of consecutive frames
  double maxIntervalMs = 0.0;
};

class SceneView : public VtkWidget {
  Q_OBJECT

 public:
  static constexpr int kProgressBodies = 1000;
  static constexpr int kProgressIntervalMs = 100;

  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  ModelScene& scene() { return *scene_; }
  const ModelScene& scene() const { return *scene_; }
  vtkRenderer* overlayRenderer() const { return overlay_; }

  /// Shows `model` at its initial pose and frames it in the isometric view. Trails start empty
  /// on defaultTrailBodies(); a view that was following a body follows the new model's
  /// defaultFollowBody() (none: following stops).
  /// `reframe` false (an edit of the same model): the camera stays where the user put it.
  /// A large model reports its progress through buildProgress().
  void showModel(const kt::Model& model, const kt::Tree& tree, const std::string& modelDirectory, bool reframe = true);
  /// Moves the bodies to q, moves the camera with the followed body, extends the trails and
  /// repaints. Allocates nothing.
  void showState(const Eigen::VectorXd& q);
  /// As showState(), with the world poses of the state computed by the caller (the shown sample's).
  void showPoses(const kt::Kinematics& poses);

  // ---- follow a body ----
  /// The body a "follow" view tracks by default: the first root on a free joint; −1 if none.
  static int defaultFollowBody(const kt::Tree& tree);
  /// Tree index of the followed body, −1 when not following.
  int followBody() const { return follow_; }

  // ---- trails ----
  /// The bodies with trails by default: the leaves of the tree (at most 8) and the default
  /// follow body.
  static std::vector<int> defaultTrailBodies(const kt::Tree& tree);
  /// Adds the trail points of an intermediate state q (a recorded sample between two displayed
  /// frames) without moving the bodies; the next showState() draws them. Fast runs show one frame
  /// per many samples, and trails sampled per frame only would be coarse polygons: a caller can
  /// feed a few recorded states per frame here. Allocates nothing.
  void addTrailSample(const Eigen::VectorXd& q);
  const Trails& trails() const { return *trails_; }
  bool trailsVisible() const;

  // ---- statistics ----
  FrameStatistics frameStatistics() const;
  /// Duration of the last paintGL in milliseconds (VTK render and blit; Qt's compositing and
  /// buffer swap come after it).
  double lastRenderMilliseconds() const { return lastRenderMs_; }
  bool statisticsVisible() const { return statisticsVisible_; }
  /// True when the OpenGL implementation rasterizes on the CPU (Mesa llvmpipe/softpipe, e.g.
  /// under Xvfb). Such a view renders without multisampling: 4× MSAA made a 670 × 720 view of
  /// the space robot take ~146 ms a frame instead of ~12 ms under llvmpipe (FXAA cost as much).
  /// KINETREE_MSAA=N in the environment forces N samples either way.
  bool softwareRendering() const { return softwareRendering_; }
  /// The text the overlay shows (also when hidden).
  QString statisticsText() const;

  // ---- grabbing ----
  /// Ctrl+drags grab bodies (signals below) instead of turning the camera, while enabled.
  void setGrabEnabled(bool enabled);
  bool grabEnabled() const { return grabEnabled_; }
  /// A grab is under way (started and not released).
  bool grabbing() const { return grab_.active; }
  /// The spring of a drag, drawn by the grab's owner.
  SpringMarker& spring() { return *spring_; }
  /// Where body `body`'s point `pointInBody` (body coordinates) is now in the world.
  Eigen::Vector3d bodyPointWorld(int body, const Eigen::Vector3d& pointInBody) const;
  /// Body coordinates of world point `world` on body `body` as it is drawn now.
  Eigen::Vector3d bodyPointFromWorld(int body, const Eigen::Vector3d& world) const;

 public slots:
  /// Highlights a body (tree index; -1 for none) without emitting bodyPicked.
  void selectBody(int body);
  /// Highlights the current body and the others selected with it (tree indices).
  void selectBodies(int current, const std::vector<int>& others);
  void setJointFramesVisible(bool visible);
  void setCentresOfMassVisible(bool visible);
  void setGridVisible(bool visible);
  /// Follows body `treeBody` (its centre of mass), or stops following (−1 or out of range).
  void setFollowBody(int treeBody);
  /// Looks from where `other`'s camera looks (position, focal point, view angle, clipping).
  void copyCamera(const SceneView& other);
  /// Trails for these bodies (tree indices; others ignored), empty at first.
  void setTrailBodies(const std::vector<int>& treeBodies);
  /// Empties every trail (the simulation was reset).
  void clearTrails();
  void setTrailsVisible(bool visible);
  void setStatisticsVisible(bool visible);

 signals:
  /// The user clicked a body (tree index), or empty space (-1).
  void bodyPicked(int body);
  /// The user Ctrl+clicked a body (tree index): to be added to the selection or taken out of it.
  void bodyToggled(int body);
  /// setFollowBody() or showModel() changed the followed body (−1: not following).
  void followBodyChanged(int treeBody);
  /// showModel() of a model of more than kProgressBodies bodies: `done` of `total` bodies are in
  /// the scene (at most every kProgressIntervalMs, and once with done == total at the end). A
  /// receiver may process events to keep the window alive.
  void buildProgress(int done, int total);
  /// Ctrl+drag started on `body` (tree index) at the world point `point` of its surface;
  /// `torque`: with the right button (turn the body rather than pull the point).
  void grabStarted(int body, const Eigen::Vector3d& point, bool torque);
  /// The cursor of a grab moved: `target`, where it is on the plane through the grasped point
  /// facing the camera (world), and `rotation`, the turn (world axes) the drag stands for since
  /// it started: half a turn across the view's height, about the axis ⊥ the drag in the view.
  void grabMoved(const Eigen::Vector3d& target, const Eigen::Matrix3d& rotation);
  void grabReleased();

 protected:
  bool sceneBounds(double bounds[6]) const override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  /// A grab ends when the view loses the keyboard focus (another window, a dialog): its button's
  /// release may never reach the view.
  void focusOutEvent(QFocusEvent* event) override;
  void initializeGL() override;
  void paintGL() override;

 private:
  /// World position of body i's centre of mass at the current pose.
  Eigen::Vector3d markerPoint(int body) const;
  /// Moves the camera rigidly so that the focal point is on the followed body.
  void centreOnFollowedBody();
  void translateCamera(const Eigen::Vector3d& delta);
  void updateStatisticsText();

  vtkSmartPointer<vtkRenderer> overlay_;
  std::unique_ptr<ModelScene> scene_;
  std::unique_ptr<Trails> trails_;
  std::vector<kt::Vec3> com_;                ///< (nb) centres of mass, body coordinates
  kt::Kinematics sampleKin_;                 ///< showState()'s and addTrailSample()'s workspace
  std::vector<Eigen::Vector3d> bodyColour_;  ///< (nb) colour of each body's first shape
  bool building_ = false;                    ///< in showModel(): the scene is incomplete
  int follow_ = -1;
  Eigen::Vector3d followAnchor_ = Eigen::Vector3d::Zero();  ///< followed point at the last frame

  // frame statistics: a ring of the last kFrameRing frames
  static constexpr int kFrameRing = 512;
  struct FrameRecord {
    qint64 startNs = 0;
    qint64 renderNs = 0;
  };
  QElapsedTimer clock_;
  std::array<FrameRecord, kFrameRing> frames_{};
  int frameHead_ = 0;
  int frameCount_ = 0;
  double lastRenderMs_ = 0.0;
  bool statisticsVisible_ = false;
  bool softwareRendering_ = false;
  qint64 statisticsTextNs_ = 0;
  vtkSmartPointer<vtkTextActor> statisticsActor_;
  // grabbing
  std::unique_ptr<SpringMarker> spring_;
  bool grabEnabled_ = false;
  struct Grab {
    bool pending = false;  ///< Ctrl+press on a body: a grab once the cursor moves
    bool active = false;   ///< grabStarted() emitted
    bool torque = false;
    Qt::MouseButton button = Qt::NoButton;  ///< the button that grabbed: only its release ends the grab
    int body = -1;
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    QPointF press;
  } grab_;
};

/// Puts `overlay` on a layer above `main` in `window`, sharing its camera: what it draws stays
/// visible in front of the geometry.
void attachOverlay(vtkRenderWindow* window, vtkRenderer* main, vtkRenderer* overlay);

}  // namespace kt::render
