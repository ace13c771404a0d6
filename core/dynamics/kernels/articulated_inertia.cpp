// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/kernels/articulated_inertia.hpp"

#include <Eigen/Cholesky>

#include "core/dynamics/kinematics.hpp"

namespace kt {

std::vector<Mat6> articulatedInertias(const Tree& tree, const Eigen::VectorXd& q) {
  Kinematics kin;
  kin.resize(tree);
  computePositionKinematics(tree, q, kin, /*worldPoses=*/false);
  std::vector<Mat6> IA(static_cast<std::size_t>(tree.nb));
  for (int i = 0; i < tree.nb; ++i) IA[static_cast<std::size_t>(i)] = tree.I[static_cast<std::size_t>(i)].matrix();
  for (int i = tree.nb - 1; i >= 0; --i) {  // tip to base: children first
    const auto k = static_cast<std::size_t>(i);
    const int p = tree.parent[k];
    if (p < 0) continue;
    const Eigen::MatrixXd S = kin.S[k];  // 6 × nv
    Mat6 passed = IA[k];
    if (S.cols() > 0) {
      const Eigen::MatrixXd U = IA[k] * S;
      const Eigen::MatrixXd D = S.transpose() * U;
      passed -= U * D.llt().solve(U.transpose());
    }
    IA[static_cast<std::size_t>(p)] += transformInertiaToParent(kin.X_p[k], passed);
  }
  return IA;
}

}  // namespace kt
