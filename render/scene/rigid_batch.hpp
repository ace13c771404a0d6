// SPDX-License-Identifier: BSD-3-Clause
// Many rigidly moving pieces of geometry drawn by one actor: the parts (a shape, a joint-frame
// triad, a centre-of-mass marker) are appended once, in their own frames, into one vtkPolyData,
// and place() writes the world coordinates of a part's points and normals in place. A renderer
// then holds one prop for any number of parts: adding props one by one costs a linear search
// each (vtkViewport::AddViewProp) and every prop costs a draw call per frame, so a model with
// tens of thousands of bodies needs its geometry batched.
//
//  - One kind of cell per batch: polygons (lit, with point normals) or lines (unlit).
//  - Colours are RGBA per point or per cell (chosen at construction); a part takes the
//    geometry's own colours ("Colors" scalars of the matching kind) or one uniform colour.
//  - place(), setPartColour() and commit() allocate nothing.
// GUI thread only (VTK objects).
#pragma once

#include <vtkActor.h>
#include <vtkSmartPointer.h>
#include <Eigen/Core>
#include <array>
#include <vector>

class vtkPolyData;
class vtkPoints;
class vtkFloatArray;
class vtkUnsignedCharArray;

namespace kt::render {

class RigidBatch {
 public:
  enum class Cells { Polygons, Lines };
  enum class Colours { PerPoint, PerCell };
  using Rgba = std::array<unsigned char, 4>;

  RigidBatch(Cells cells, Colours colours);
  ~RigidBatch();
  RigidBatch(const RigidBatch&) = delete;
  RigidBatch& operator=(const RigidBatch&) = delete;

  /// Appends `geometry` (its cells of the batch's kind; the others are ignored) as a new part,
  /// moved by `placement` into the part's frame. Colours: the geometry's own when it has them
  /// (3 or 4 components), else `colour`. Returns the part's index.
  int add(vtkPolyData* geometry, const Eigen::Matrix4d& placement, const Rgba& colour);
  /// Hands the appended parts to VTK; call once after the last add().
  void finish();

  int partCount() const { return static_cast<int>(parts_.size()); }
  vtkIdType pointCount() const { return static_cast<vtkIdType>(local_.size() / 3); }
  vtkIdType cellCount() const { return cellCount_; }
  /// The part a cell of the batch belongs to (a cell id from a picker), or −1.
  int partOfCell(vtkIdType cell) const;

  /// Places part `part` (its frame) at `pose` in the world. Call commit() after the last one.
  /// A pose that is not `rigid` (a scaled arrow) moves the normals by its inverse transpose
  /// and keeps them unit; a singular one (a part collapsed out of sight) leaves them.
  void place(int part, const Eigen::Matrix4d& pose, bool rigid = true);
  /// Paints every point or cell of a part in one colour, or back in its own (nullptr).
  void setPartColour(int part, const Rgba* colour);
  /// Tells VTK that the points (and colours) changed.
  void commit();

  vtkActor* actor() const { return actor_; }
  vtkPolyData* geometry() const { return poly_; }

 private:
  struct Part {
    vtkIdType firstPoint = 0;
    vtkIdType pointCount = 0;
    vtkIdType firstCell = 0;
    vtkIdType cellCount = 0;
  };
  Cells cells_;
  Colours colourMode_;
  std::vector<Part> parts_;
  std::vector<float> local_;         ///< (3 per point) part-frame coordinates
  std::vector<float> localNormals_;  ///< (3 per point) polygons only
  std::vector<unsigned char> own_;   ///< (4 per point or cell) each part's own colours
  std::vector<vtkIdType> offsets_;   ///< cell offsets into connectivity_ (cellCount + 1)
  std::vector<vtkIdType> connectivity_;
  vtkIdType cellCount_ = 0;
  bool coloursChanged_ = false;

  vtkSmartPointer<vtkPolyData> poly_;
  vtkSmartPointer<vtkPoints> points_;
  vtkSmartPointer<vtkFloatArray> normals_;
  vtkSmartPointer<vtkUnsignedCharArray> colourArray_;
  vtkSmartPointer<vtkActor> actor_;
};

}  // namespace kt::render
