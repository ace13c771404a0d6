// SPDX-License-Identifier: BSD-3-Clause
#include "core/analysis/analysis.hpp"

#include <cmath>
#include <numbers>

namespace kt {

Vec3 bodyComWorld(const Tree& tree, const Kinematics& kin, int i) {
  return kin.X_0[i].r + kin.X_0[i].E.transpose() * tree.I[i].com();
}

SystemTotals systemTotals(const Tree& tree, const Kinematics& kin, std::span<const Vec3> com) {
  SystemTotals s;
  for (int i = 0; i < tree.nb; ++i) {
    const Vec6 Iv = tree.I[i] * kin.v[i];
    s.energy.kinetic += 0.5 * kin.v[i].dot(Iv);
    const Vec3 c = kin.X_0[i].r + kin.X_0[i].E.transpose() * com[static_cast<std::size_t>(i)];  // bodyComWorld
    s.energy.potential -= tree.I[i].m * tree.gravity.dot(c);
    s.momentum += kin.X_0[i].inverseForce(Iv);
  }
  return s;
}

double unwrapAngle(double angle, double previous) {
  constexpr double twoPi = 2.0 * std::numbers::pi;
  return angle + twoPi * std::round((previous - angle) / twoPi);
}

Vec3 AttitudeUnwrapper::update(const Mat3& R) {
  Vec3 a = rpyFromRotation(R);
  if (started_)
    for (int k = 0; k < 3; ++k) a[k] = unwrapAngle(a[k], previous_[k]);
  previous_ = a;
  started_ = true;
  return a;
}

std::vector<int> freeJointBodies(const Tree& tree) {
  std::vector<int> out;
  for (int i = 0; i < tree.nb; ++i)
    if (tree.joints[i].type == JointType::Free) out.push_back(i);
  return out;
}

}  // namespace kt
