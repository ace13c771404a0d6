// SPDX-License-Identifier: BSD-3-Clause
// Joint types (docs/dynamics.md §2) and their dimensions.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace kt {

enum class JointType { Fixed, Revolute, Prismatic, Cylindrical, Universal, Spherical, Planar, Free, Gimbal };

inline constexpr std::array<JointType, 9> kAllJointTypes = {
    JointType::Fixed,  JointType::Revolute,  JointType::Prismatic, JointType::Cylindrical, JointType::Universal,
    JointType::Gimbal, JointType::Spherical, JointType::Planar,    JointType::Free};

/// Number of position coordinates.
constexpr int jointNq(JointType t) {
  switch (t) {
    case JointType::Fixed: return 0;
    case JointType::Revolute:
    case JointType::Prismatic: return 1;
    case JointType::Cylindrical:
    case JointType::Universal: return 2;
    case JointType::Spherical: return 4;  // unit quaternion (w, x, y, z)
    case JointType::Planar:               // angle, x, y
    case JointType::Gimbal: return 3;     // angles about axis, axis2, axis3
    case JointType::Free: return 7;       // quaternion (w, x, y, z), then position (x, y, z)
  }
  return 0;
}

/// Number of velocity coordinates (the joint's degrees of freedom).
constexpr int jointNv(JointType t) {
  switch (t) {
    case JointType::Fixed: return 0;
    case JointType::Revolute:
    case JointType::Prismatic: return 1;
    case JointType::Cylindrical:
    case JointType::Universal: return 2;
    case JointType::Spherical:
    case JointType::Planar:
    case JointType::Gimbal: return 3;
    case JointType::Free: return 6;
  }
  return 0;
}

/// True when the joint's velocity is not the derivative of its position coordinates
/// (quaternion joints use body-frame quasi-velocities; planar uses body-frame velocities).
constexpr bool jointUsesQuasiVelocity(JointType t) {
  return t == JointType::Spherical || t == JointType::Free || t == JointType::Planar;
}

/// Needs an axis (revolute, prismatic, cylindrical; planar: the plane normal; universal and gimbal:
/// the first of their two or three).
constexpr bool jointHasAxis(JointType t) {
  return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Cylindrical ||
         t == JointType::Universal || t == JointType::Gimbal || t == JointType::Planar;
}

constexpr std::string_view jointTypeName(JointType t) {
  switch (t) {
    case JointType::Fixed: return "fixed";
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Cylindrical: return "cylindrical";
    case JointType::Universal: return "universal";
    case JointType::Gimbal: return "gimbal";
    case JointType::Spherical: return "spherical";
    case JointType::Planar: return "planar";
    case JointType::Free: return "free";
  }
  return "?";
}

inline std::optional<JointType> jointTypeFromName(std::string_view s) {
  for (JointType t : kAllJointTypes)
    if (jointTypeName(t) == s) return t;
  if (s == "cardan") return JointType::Universal;
  return std::nullopt;
}

}  // namespace kt
