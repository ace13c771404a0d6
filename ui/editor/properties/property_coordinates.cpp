// SPDX-License-Identifier: BSD-3-Clause
#include "ui/editor/properties/property_coordinates.hpp"

#include <QCoreApplication>

namespace kt::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("kt::ui::PropertiesDock", text); }

}  // namespace

std::vector<CoordinateGroup> positionGroups(JointType type) {
  switch (type) {
    case JointType::Fixed: return {};
    case JointType::Revolute: return {{tr("Angle (°)"), tr("q0: joint angle about the axis"), 0, 1, true}};
    case JointType::Prismatic: return {{tr("Position (m)"), tr("q0: slide along the axis"), 0, 1}};
    case JointType::Cylindrical:
      return {{tr("Angle (°)"), tr("q0[0]: rotation about the axis"), 0, 1, true},
              {tr("Slide (m)"), tr("q0[1]: translation along the axis"), 1, 1}};
    case JointType::Universal: return {{tr("Angles (°)"), tr("q0: angles about axis 1 and axis 2"), 0, 2, true}};
    case JointType::Gimbal:
      return {{tr("Angles (°)"), tr("q0: angles about axes 1, 2 and 3, in that order"), 0, 3, true}};
    case JointType::Spherical: return {{tr("Quaternion"), tr("q0: orientation as a unit quaternion w, x, y, z"), 0, 4}};
    case JointType::Planar:
      return {{tr("Angle (°)"), tr("q0[0]: rotation about the normal"), 0, 1, true},
              {tr("Position (m)"), tr("q0[1], q0[2]: in-plane x, y"), 1, 2}};
    case JointType::Free:
      return {{tr("Quaternion"), tr("q0[0..3]: orientation as a unit quaternion w, x, y, z"), 0, 4},
              {tr("Position (m)"), tr("q0[4..6]: position x, y, z in the parent frame"), 4, 3}};
  }
  return {};
}

std::vector<CoordinateGroup> velocityGroups(JointType type) {
  switch (type) {
    case JointType::Fixed: return {};
    case JointType::Revolute: return {{tr("Rate (rad/s)"), tr("v0: joint angular rate"), 0, 1}};
    case JointType::Prismatic: return {{tr("Speed (m/s)"), tr("v0: slide rate"), 0, 1}};
    case JointType::Cylindrical:
      return {{tr("Rate (rad/s)"), tr("v0[0]: angular rate about the axis"), 0, 1},
              {tr("Speed (m/s)"), tr("v0[1]: slide rate along the axis"), 1, 1}};
    case JointType::Universal: return {{tr("Rates (rad/s)"), tr("v0: rates about axis 1 and axis 2"), 0, 2}};
    case JointType::Gimbal: return {{tr("Rates (rad/s)"), tr("v0: rates about axes 1, 2 and 3"), 0, 3}};
    case JointType::Spherical: return {{tr("ω body (rad/s)"), tr("v0: angular velocity in body coordinates"), 0, 3}};
    case JointType::Planar:
      return {{tr("ω (rad/s)"), tr("v0[0]: angular rate about the normal"), 0, 1},
              {tr("v body (m/s)"), tr("v0[1], v0[2]: in-plane velocity in body coordinates"), 1, 2}};
    case JointType::Free:
      return {{tr("ω body (rad/s)"), tr("v0[0..2]: angular velocity in body coordinates"), 0, 3},
              {tr("v body (m/s)"), tr("v0[3..5]: linear velocity of the body origin, body coordinates"), 3, 3}};
  }
  return {};
}

std::vector<double> neutralPosition(JointType type) {
  std::vector<double> q(static_cast<std::size_t>(jointNq(type)), 0.0);
  if (type == JointType::Spherical || type == JointType::Free) q[0] = 1.0;
  return q;
}

bool isAngular(JointType type, int i) {
  switch (type) {
    case JointType::Fixed:
    case JointType::Prismatic: return false;
    case JointType::Revolute:
    case JointType::Universal:
    case JointType::Gimbal:
    case JointType::Spherical: return true;
    case JointType::Cylindrical:
    case JointType::Planar: return i == 0;
    case JointType::Free: return i < 3;
  }
  return false;
}

bool hasLimits(JointType type) {
  return jointNv(type) > 0 && jointNq(type) == jointNv(type) && !jointUsesQuasiVelocity(type);
}

QStringList coordinateNames(JointType type, bool radians) {
  const QString angle = radians ? QStringLiteral("rad") : QStringLiteral("°");
  switch (type) {
    case JointType::Revolute: return {tr("θ (%1)").arg(angle)};
    case JointType::Prismatic: return {tr("d (m)")};
    case JointType::Cylindrical: return {tr("θ (%1)").arg(angle), tr("d (m)")};
    case JointType::Universal: return {tr("θ1 (%1)").arg(angle), tr("θ2 (%1)").arg(angle)};
    case JointType::Gimbal: return {tr("θ1 (%1)").arg(angle), tr("θ2 (%1)").arg(angle), tr("θ3 (%1)").arg(angle)};
    default: break;
  }
  QStringList names;
  for (int i = 0; i < jointNv(type); ++i) names << tr("v%1").arg(i);
  return names;
}

QString coordinateUnits(JointType type, const QString& angular, const QString& linear) {
  QStringList units;
  for (int i = 0; i < jointNv(type); ++i) units << (isAngular(type, i) ? angular : linear);
  units.removeDuplicates();
  return units.join(QStringLiteral(", "));
}

}  // namespace kt::ui
