// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/signal_deriver.hpp"

#include "core/dynamics/kernels/spatial_kernels.hpp"

namespace kt {

SignalDeriver::SignalDeriver(const Tree& tree, const SignalLayout& layout) : tree_(tree), layout_(layout) {
  kin_.resize(tree);
  q_.setZero(tree.nq);
  v_.setZero(tree.nv);
  for (int i = 0; i < tree.nb; ++i) com_.push_back(tree.I[i].com());
  parentColumns_.assign(static_cast<std::size_t>(tree.nb), std::array<int, 6>{});
  if (layout.derives(SignalKind::LoadWorld)) worldColumns_ = parentColumns_;
  attitudeColumns_.assign(layout.freeBodies().size(), -1);
  positionColumns_.assign(layout.freeBodies().size(), -1);
  for (const int k : layout.derivedColumns()) {
    const SignalInfo& s = layout.infos()[static_cast<std::size_t>(k)];
    const auto f = static_cast<std::size_t>(s.index);
    switch (s.kind) {
      case SignalKind::LoadParent: parentColumns_[static_cast<std::size_t>(s.body)][f] = k; break;
      case SignalKind::LoadWorld: worldColumns_[static_cast<std::size_t>(s.body)][f] = k; break;
      case SignalKind::Attitude:
        if (s.component == 0) attitudeColumns_[f] = k;
        break;
      case SignalKind::Position:
        if (s.component == 0) positionColumns_[f] = k;
        break;
      case SignalKind::Energy:
        if (s.component == 0) energyColumn_ = k;
        break;
      case SignalKind::Momentum:
        if (s.component == 0) momentumColumn_ = k;
        break;
      default: break;
    }
  }
}

void SignalDeriver::derive(double* row, const double* previous, const Kinematics* kin) {
  const Tree& tree = tree_;
  const std::vector<int>& qColumns = layout_.qColumns();
  for (std::size_t k = 0; k < qColumns.size(); ++k) q_[static_cast<Eigen::Index>(k)] = row[qColumns[k]];
  if (!kin) {
    const std::vector<int>& vColumns = layout_.vColumns();
    for (std::size_t k = 0; k < vColumns.size(); ++k) v_[static_cast<Eigen::Index>(k)] = row[vColumns[k]];
    computeKinematics(tree, q_, v_, kin_);
    kin = &kin_;
  }
  // the joint wrench in the joint frame on the parent side: (ᶜX_J)ᵀ f (load_parent:); a revolute
  // joint's X_J from the kinematics' cos q and sin q
  const std::vector<std::array<int, 6>>& loadColumns = layout_.loadColumns();
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const JointModel& joint = tree.joints[i];
    const Xform X_J = joint.type == JointType::Revolute ? joint.revoluteTransform(kin->cosSin[n][0], kin->cosSin[n][1])
                                                        : joint.transform(q_.data() + tree.qOffset[i]);
    Vec6 f;
    for (std::size_t c = 0; c < 6; ++c) f[static_cast<Eigen::Index>(c)] = row[loadColumns[n][c]];
    const Vec6 parent = X_J.inverseForce(f);
    for (std::size_t c = 0; c < 6; ++c) row[parentColumns_[n][c]] = parent[static_cast<Eigen::Index>(c)];
    if (worldColumns_.empty()) continue;
    // the wrench in world axes, ⁱE_0ᵀ f, as the solvers that omit it compute it (completeJointLoad)
    double world[6];
    kernels::rotateBackFormed(kin->X_0[n].E.data(), f.data(), world);
    kernels::rotateBackFormed(kin->X_0[n].E.data(), f.data() + 3, world + 3);
    for (std::size_t c = 0; c < 6; ++c) row[worldColumns_[n][c]] = world[c];
  }
  const std::vector<int>& freeBodies = layout_.freeBodies();
  for (std::size_t f = 0; f < freeBodies.size(); ++f) {
    AttitudeUnwrapper unwrap;
    const int a = attitudeColumns_[f];
    if (previous) unwrap.resume(Vec3(previous[a], previous[a + 1], previous[a + 2]));
    const Vec3 angles = unwrap.update(bodyRotationWorld(*kin, freeBodies[f]));
    const Vec3 position = bodyPositionWorld(*kin, freeBodies[f]);
    for (int c = 0; c < 3; ++c) {
      row[a + c] = angles[c];
      row[positionColumns_[f] + c] = position[c];
    }
  }
  const SystemTotals totals = systemTotals(tree, *kin, com_);
  row[energyColumn_] = totals.energy.kinetic;
  row[energyColumn_ + 1] = totals.energy.potential;
  row[energyColumn_ + 2] = totals.energy.total();
  for (int c = 0; c < 6; ++c) row[momentumColumn_ + c] = totals.momentum[c < 3 ? 3 + c : c - 3];
}

}  // namespace kt
