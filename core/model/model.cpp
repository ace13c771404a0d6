// SPDX-License-Identifier: BSD-3-Clause
#include "core/model/model.hpp"

#include <algorithm>

namespace kt {

Mat3 Placement::rotation() const {
  if (useQuaternion) return Quat(quat[0], quat[1], quat[2], quat[3]).normalized().toRotationMatrix();
  return rotationFromRpy(rpy);
}

Xform Placement::transformFromParent() const { return {rotation().transpose(), xyz}; }

int Model::findBody(const std::string& bodyName) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == bodyName) return static_cast<int>(i);
  return -1;
}

PassiveJoints passiveJoints(const Model& model) {
  PassiveJoints count;
  for (const BodySpec& body : model.bodies) {
    const JointSpec& j = body.joint;
    if (j.type == JointType::Fixed || j.type == JointType::Free) continue;
    ++count.moving;
    const bool zeroTorque = j.drive.type == DriveType::Constant &&
                            std::all_of(j.drive.value.begin(), j.drive.value.end(), [](double t) { return t == 0.0; });
    if (j.motion.type == MotionType::None && (j.drive.type == DriveType::None || zeroTorque)) ++count.passive;
  }
  return count;
}

std::string_view driveTypeName(DriveType type) {
  switch (type) {
    case DriveType::None: return "none";
    case DriveType::Constant: return "constant";
    case DriveType::Sinusoid: return "sinusoid";
    case DriveType::PdSinusoid: return "pd_sinusoid";
    case DriveType::PdPiecewise: return "pd_piecewise";
    case DriveType::SpringDamper: return "spring_damper";
    case DriveType::Table: return "table";
  }
  return "none";
}

std::optional<DriveType> driveTypeFromName(std::string_view name) {
  for (DriveType t : {DriveType::None, DriveType::Constant, DriveType::Sinusoid, DriveType::PdSinusoid,
                      DriveType::PdPiecewise, DriveType::SpringDamper, DriveType::Table})
    if (driveTypeName(t) == name) return t;
  return std::nullopt;
}

std::string_view motionTypeName(MotionType type) {
  switch (type) {
    case MotionType::None: return "none";
    case MotionType::Spline: return "spline";
    case MotionType::RestToRest: return "rest_to_rest";
    case MotionType::Sinusoid: return "sinusoid";
    case MotionType::Table: return "table";
  }
  return "none";
}

std::optional<MotionType> motionTypeFromName(std::string_view name) {
  for (MotionType t :
       {MotionType::None, MotionType::Spline, MotionType::RestToRest, MotionType::Sinusoid, MotionType::Table})
    if (motionTypeName(t) == name) return t;
  return std::nullopt;
}

std::string_view shapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::Box: return "box";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Prism: return "prism";
    case ShapeType::Mesh: return "mesh";
  }
  return "box";
}

std::optional<ShapeType> shapeTypeFromName(std::string_view name) {
  for (ShapeType t :
       {ShapeType::Box, ShapeType::Cylinder, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Prism, ShapeType::Mesh})
    if (shapeTypeName(t) == name) return t;
  return std::nullopt;
}

bool isValidName(const std::string& s) {
  if (s.empty()) return false;
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!letter(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace kt
