// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/crba.hpp"

namespace kt {

CrbaSolver::CrbaSolver(const Tree& tree) : Solver(tree), ws_(tree), M_(tree.nv, tree.nv), h_(tree.nv), llt_(tree.nv) {}

void CrbaSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                 VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  // h by RNEA with q̈ = 0 (also computes the kinematics CRBA reuses), M by CRBA
  biasForces(t, ws_, q, v, fext, h_);
  massMatrix(t, ws_, q, M_, /*computePositions=*/false);
  // M q̈ = τ − h by Cholesky
  llt_.compute(M_);
  qdd = tau - h_;
  llt_.solveInPlace(qdd);
  if (loads) {
    bodyAccelerations(t, ws_.kin, qdd, ws_.a);
    jointWrenchesFromAccelerations(t, ws_.kin, ws_.a, fext, loads->f);
    completeJointLoads(t, ws_.kin, q, *loads);
  }
}

std::unique_ptr<Solver> makeCrbaSolver(const Tree& tree) { return std::make_unique<CrbaSolver>(tree); }

}  // namespace kt
