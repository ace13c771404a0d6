// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/kinematics.hpp"

#include <cmath>

#include "core/dynamics/kernels/spatial_kernels.hpp"

namespace kt {

void Kinematics::resize(const Tree& tree) {
  X_p.resize(tree.nb);
  X_0.resize(tree.nb);
  S.resize(tree.nb);
  v.resize(tree.nb);
  c.resize(tree.nb);
  cosSin.assign(static_cast<std::size_t>(tree.nb), {1.0, 0.0});
  turnAxis.assign(static_cast<std::size_t>(tree.nb), -1);
  // S_i is constant but for universal joints: set here, and per call only where it turns with q
  // (motionSubspace reads q only for those)
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    // exactly no rotation: the identity's entries are exact, and so are the products with them
    if (joint.type == JointType::Revolute && joint.unitAxis >= 0 && tree.X_T[i].E == Mat3::Identity())
      turnAxis[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(joint.unitAxis);
    if (joint.subspacesDependOnQ()) {
      S[i].setZero(6, joint.nv);
    } else {
      joint.motionSubspace(nullptr, S[i]);
    }
  }
}

void computePositionKinematics(const Tree& tree, const Eigen::VectorXd& q, Kinematics& kin, bool worldPoses) {
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    const double* qi = q.data() + tree.qOffset[i];
    const int p = tree.parent[i];
    if (worldPoses && joint.type == JointType::Revolute) {
      auto& [c, s] = kin.cosSin[static_cast<std::size_t>(i)];
      c = std::cos(qi[0]);
      s = std::sin(qi[0]);
      kin.X_p[i] = joint.revolutePlacement(c, s, tree.X_T[i]);
      // ⁱX_0 = ⁱX_p ᵖX_0, by rows of ᵖX_0 where ⁱX_p is the joint's turn and a translation
      switch (p < 0 ? -1 : kin.turnAxis[static_cast<std::size_t>(i)]) {
        case 0: kernels::composeTurned<0>(c, s, tree.X_T[i].r, kin.X_0[p], kin.X_0[i]); break;
        case 1: kernels::composeTurned<1>(c, s, tree.X_T[i].r, kin.X_0[p], kin.X_0[i]); break;
        case 2: kernels::composeTurned<2>(c, s, tree.X_T[i].r, kin.X_0[p], kin.X_0[i]); break;
        default: kin.X_0[i] = p < 0 ? kin.X_p[i] : kin.X_p[i] * kin.X_0[p]; break;
      }
    } else {
      kin.X_p[i] = joint.placement(qi, tree.X_T[i]);
      if (worldPoses) kin.X_0[i] = p < 0 ? kin.X_p[i] : kin.X_p[i] * kin.X_0[p];
    }
    if (joint.subspacesDependOnQ()) joint.motionSubspace(qi, kin.S[i]);
  }
}

void computeKinematics(const Tree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Kinematics& kin,
                       bool worldPoses) {
  computePositionKinematics(tree, q, kin, worldPoses);
  for (int i = 0; i < tree.nb; ++i) {
    const JointModel& joint = tree.joints[i];
    const double* qi = q.data() + tree.qOffset[i];
    const double* vi = v.data() + tree.vOffset[i];
    const Vec6 vJ = joint.jointVelocity(qi, vi);
    const int p = tree.parent[i];
    kin.v[i] = p < 0 ? vJ : Vec6(kin.X_p[i].applyMotion(kin.v[p]) + vJ);
    kin.c[i] = crossMotion(kin.v[i], vJ) + joint.velocityProduct(qi, vi);
  }
}

}  // namespace kt
