// SPDX-License-Identifier: BSD-3-Clause
// Composite-rigid-body algorithm + dense Cholesky: the explicit equations of motion
// M(q) q̈ = τ − h(q, ν), O(N³) (docs/dynamics.md §4; Featherstone 2008, §6.2).
#pragma once

#include <Eigen/Cholesky>

#include "core/dynamics/rnea.hpp"

namespace kt {

class CrbaSolver final : public Solver {
 public:
  explicit CrbaSolver(const Tree& tree);
  std::string_view name() const override { return "crba"; }
  void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext, VectorX& qdd,
                       JointLoads* loads) override;

 private:
  RneaWorkspace ws_;
  MatrixX M_;                ///< (nv × nv)
  VectorX h_;                ///< (nv)
  Eigen::LLT<MatrixX> llt_;  ///< factor of M, storage sized once
};

std::unique_ptr<Solver> makeCrbaSolver(const Tree& tree);

}  // namespace kt
