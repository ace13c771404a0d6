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
  bool supportsHybrid() const override { return true; }
  /// M partitioned into free (f) and prescribed (p) coordinates:
  ///   M_ff q̈_f = τ_f − h_f − M_fp q̈_p,   τ_p = M_pf q̈_f + M_pp q̈_p + h_p.
  void hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                      std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) override;
  /// h's RNEA computes the whole kinematics at every call.
  const Kinematics* kinematics() const override { return called_ ? &ws_.kin : nullptr; }

 private:
  RneaWorkspace ws_;
  bool called_ = false;
  MatrixX M_;                ///< (nv × nv)
  VectorX h_;                ///< (nv)
  Eigen::LLT<MatrixX> llt_;  ///< factor of M, storage sized once
  // hybrid dynamics: the free and prescribed coordinates, M_ff and its factor, the right-hand
  // side (sized for nv once; resized only when the number of free coordinates changes)
  std::vector<int> free_, fixed_;
  MatrixX Mff_;
  VectorX rhs_;
  Eigen::LLT<MatrixX> lltFree_;
};

std::unique_ptr<Solver> makeCrbaSolver(const Tree& tree);

}  // namespace kt
