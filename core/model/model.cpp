#include "core/model/model.hpp"

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

}  // namespace kt
