// SPDX-License-Identifier: BSD-3-Clause
// Motion trails: for each chosen body, a polyline through the recent positions of a point fixed in
// it (the 3D view uses the body's centre of mass), drawn in the body's colour and fading towards
// the background with age.
//
//  - Each trail keeps the last `capacity` points in a ring buffer sized once by setBodies(); adding
//    a point and redrawing allocates nothing (the vtkPolyData's points, colours and the one
//    polyline cell are rewritten in place, oldest point first).
//  - A point equal to the trail's newest one is not added again (a paused run adds nothing).
//  - clear() empties every trail (a new run, a reset); setBodies() replaces them.
// GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <Eigen/Core>
#include <vector>

class vtkCellArray;
class vtkPoints;
class vtkPolyData;
class vtkUnsignedCharArray;

namespace kt::render {

class Trails {
 public:
  static constexpr int kDefaultCapacity = 2000;

  /// The trail actors go into `renderer` (depth-tested with the bodies).
  explicit Trails(vtkRenderer* renderer);
  ~Trails();
  Trails(const Trails&) = delete;
  Trails& operator=(const Trails&) = delete;

  /// One empty trail per body id (any integer the caller uses, e.g. a tree body index) in the
  /// given colours (RGB in [0, 1]; missing entries are grey), each holding at most `capacity`
  /// points (≥ 2).
  void setBodies(const std::vector<int>& bodies, const std::vector<Eigen::Vector3d>& colours,
                 int capacity = kDefaultCapacity);
  const std::vector<int>& bodies() const { return bodies_; }
  int capacity() const { return capacity_; }
  /// Index of `body` in bodies(), or −1.
  int slotOf(int body) const;

  /// Appends the newest position of trail `slot` (allocates nothing). Call redraw() after the
  /// positions of one frame.
  void add(int slot, const Eigen::Vector3d& position);
  /// Copies the ring buffers into the VTK geometry (allocates nothing).
  void redraw();
  /// Empties every trail.
  void clear();

  void setVisible(bool visible);
  bool visible() const { return visible_; }

  // ---- what is held (tests) ----
  /// Points held by trail `slot` (≤ capacity()).
  int size(int slot) const;
  /// The k-th point of trail `slot`, oldest first (0 ≤ k < size(slot)).
  Eigen::Vector3d point(int slot, int k) const;
  vtkActor* actor(int slot) const;
  /// The geometry drawn for trail `slot` (one polyline through size(slot) points after redraw()).
  vtkPolyData* geometry(int slot) const;

 private:
  struct Trail {
    int body = -1;
    Eigen::Matrix3Xd ring;  ///< (3 × capacity) positions; the newest at head − 1
    int head = 0;           ///< where the next point goes
    int count = 0;
    bool dirty = false;
    unsigned char rgb[3] = {160, 160, 160};
    vtkSmartPointer<vtkPolyData> poly;
    vtkSmartPointer<vtkPoints> points;
    vtkSmartPointer<vtkUnsignedCharArray> colours;
    vtkSmartPointer<vtkCellArray> lines;  ///< one polyline over points 0…count−1 (offsets [0, count])
    vtkSmartPointer<vtkActor> actor;
  };
  void removeActors();
  void redraw(Trail& trail) const;

  vtkSmartPointer<vtkRenderer> renderer_;
  std::vector<Trail> trails_;
  std::vector<int> bodies_;
  int capacity_ = kDefaultCapacity;
  bool visible_ = true;
};

}  // namespace kt::render
