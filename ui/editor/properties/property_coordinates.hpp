// SPDX-License-Identifier: BSD-3-Clause
// What the coordinates of each joint type are called in the property editor, and their units
// (docs/dynamics.md §2: free q = (qw, qx, qy, qz, x, y, z), ν = (ω_body, v_body); spherical q = quaternion;
// planar q = (angle, x, y)).
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "core/model/joint_type.hpp"

namespace kt::ui {

/// Consecutive coordinates edited together ("Quaternion (w, x, y, z)", "Position (m)").
struct CoordinateGroup {
  QString label;
  QString tip;
  int start = 0;
  int count = 0;
  bool degrees = false;  ///< an angle, shown in degrees (stored in radians)
};

std::vector<CoordinateGroup> positionGroups(JointType type);
std::vector<CoordinateGroup> velocityGroups(JointType type);
/// q of the neutral pose (identity quaternion, zeros elsewhere).
std::vector<double> neutralPosition(JointType type);
/// Velocity coordinate `i` is a rotation (rad, rad/s, N·m) rather than a translation (m, m/s, N).
bool isAngular(JointType type, int i);
/// Joints whose coordinates can carry display limits (nq == nv, no quaternion).
bool hasLimits(JointType type);
/// One name per velocity coordinate with its unit: "θ (°)", "d (m)" (`radians`: "θ (rad)").
QStringList coordinateNames(JointType type, bool radians = false);
/// The unit of every velocity coordinate, e.g. "rad" or "rad, m" (`angular` / `linear` spelled by the caller).
QString coordinateUnits(JointType type, const QString& angular, const QString& linear);

}  // namespace kt::ui
