// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/crba.hpp"

namespace kt {

CrbaSolver::CrbaSolver(const Tree& tree)
    : Solver(tree), ws_(tree), M_(tree.nv, tree.nv), h_(tree.nv), llt_(tree.nv), rhs_(tree.nv) {
  free_.reserve(static_cast<std::size_t>(tree.nv));
  fixed_.reserve(static_cast<std::size_t>(tree.nv));
}

void CrbaSolver::forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                                 VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  // h by RNEA with q̈ = 0 (also computes the kinematics CRBA reuses), M by CRBA
  biasForces(t, ws_, q, v, fext, h_);
  called_ = true;
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

void CrbaSolver::hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                                std::span<const char> prescribed, VectorX& qdd, JointLoads* loads) {
  const Tree& t = *tree_;
  free_.clear();
  fixed_.clear();
  for (int i = 0; i < t.nb; ++i)
    for (int k = 0; k < t.joints[i].nv; ++k)
      (prescribed[static_cast<std::size_t>(i)] ? fixed_ : free_).push_back(t.vOffset[i] + k);
  biasForces(t, ws_, q, v, fext, h_);
  called_ = true;
  massMatrix(t, ws_, q, M_, /*computePositions=*/false);
  const int nf = static_cast<int>(free_.size());
  if (nf > 0) {
    // M_ff q̈_f = τ_f − h_f − M_fp q̈_p
    if (Mff_.rows() != nf) Mff_.resize(nf, nf);
    for (int a = 0; a < nf; ++a) {
      const int r = free_[static_cast<std::size_t>(a)];
      double s = tau[r] - h_[r];
      for (int c : fixed_) s -= M_(r, c) * qdd[c];
      rhs_[a] = s;
      for (int b = 0; b < nf; ++b) Mff_(a, b) = M_(r, free_[static_cast<std::size_t>(b)]);
    }
    lltFree_.compute(Mff_);
    auto x = rhs_.head(nf);
    lltFree_.solveInPlace(x);
    for (int a = 0; a < nf; ++a) qdd[free_[static_cast<std::size_t>(a)]] = x[a];
  }
  // τ_p = (M q̈ + h)_p
  for (int r : fixed_) tau[r] = M_.row(r).dot(qdd) + h_[r];
  if (loads) {
    bodyAccelerations(t, ws_.kin, qdd, ws_.a);
    jointWrenchesFromAccelerations(t, ws_.kin, ws_.a, fext, loads->f);
    completeJointLoads(t, ws_.kin, q, *loads);
  }
}

std::unique_ptr<Solver> makeCrbaSolver(const Tree& tree) { return std::make_unique<CrbaSolver>(tree); }

}  // namespace kt
