// SPDX-License-Identifier: BSD-3-Clause
// Places to mount a body on another: the faces of a body's shapes, each with its centre and
// outward normal in the body frame, and the joint placement that puts a child's joint frame on
// a face with its z axis along the normal (a joint axis of z then points out of the face; x and
// y lie in the face plane).
#pragma once

#include <string>
#include <vector>

#include "core/model/model.hpp"

namespace kt {

struct MountFace {
  std::string label;  ///< "shape 1 (prism): side 2, normal +y", for lists
  int shape = 0;      ///< index into BodySpec::shapes
  Vec3 centre = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< unit, outward
};

/// The faces of each shape of `body`, body frame: a box's six faces; a prism's n sides and two
/// ends; a cylinder's two caps and four points of its side (±x, ±y of the shape frame); a
/// capsule's two ends; a sphere's six poles. Meshes have none.
std::vector<MountFace> mountFaces(const BodySpec& body);

/// The joint origin on `face`: xyz at its centre; the rotation the shortest turn taking z to the
/// normal (a roll of 180° for −z), written as roll, pitch, yaw with rounding noise removed.
Placement facePlacement(const MountFace& face);

}  // namespace kt
