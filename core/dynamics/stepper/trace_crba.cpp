// SPDX-License-Identifier: BSD-3-Clause
// CRBA + Cholesky's steps (Featherstone 2008, Table 6.2; docs/dynamics.md §4): the calls CrbaSolver
// makes, in its order — h by RNEA, M by the composite-rigid-body algorithm, Eigen's dense LLT — so
// that q̈ and the loads are CrbaSolver's to the bit.
#include <Eigen/Cholesky>

#include "core/dynamics/rnea.hpp"
#include "core/dynamics/stepper/trace_building.hpp"

namespace kt::stepper {

AlgorithmTrace traceCrbaCholesky(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau,
                                 ExternalWrenches fext) {
  AlgorithmTrace trace;
  trace.algorithm = TracedAlgorithm::CrbaCholesky;
  trace.passes = {"Bias forces h = ID(q, ν, 0) by the RNEA", "Composite inertias, tip to base",
                  "M(q), joint by joint: each joint's column up to the base",
                  "Cholesky M = L Lᵀ, joint by joint from the base (dense)", "Solve L Lᵀ q̈ = τ − h"};
  trace.tau = tau;
  trace.loads.resize(tree);
  RneaWorkspace ws(tree);
  VectorX h(tree.nv);
  MatrixX M(tree.nv, tree.nv);
  biasForces(tree, ws, q, v, fext, h);
  massMatrix(tree, ws, q, M, /*computePositions=*/false);
  Eigen::LLT<MatrixX> llt(tree.nv);
  llt.compute(M);
  trace.qdd = tau - h;
  llt.solveInPlace(trace.qdd);
  bodyAccelerations(tree, ws.kin, trace.qdd, ws.a);
  jointWrenchesFromAccelerations(tree, ws.kin, ws.a, fext, trace.loads.f);
  completeJointLoads(tree, ws.kin, q, trace.loads);

  std::vector<std::string> labels;
  std::vector<int> starts;
  coordinateLabels(tree, labels, starts);
  {
    TracedStep s;
    s.pass = 0;
    s.equation = "h = ID(q, ν, q̈ = 0): gravity, the velocity products and the applied wrenches";
    s.values.push_back(coordinates("h", "the joint forces that hold the system at zero joint acceleration", h));
    trace.steps.push_back(std::move(s));
  }
  for (int i = tree.nb - 1; i >= 0; --i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsBase(tree, 1, i);
    s.equation = "I^c_i = I_i + Σ_c ᶜX_iᵀ I^c_c ᶜX_i";
    if (!s.targets.empty()) s.handed = "I^c_p += ⁱX_pᵀ I^c_i ⁱX_p";
    s.values.push_back(
        matrix("I^c_i", "the composite inertia of " + tree.bodyNames[n] + " and every body it carries, welded together",
               ws.Ic[n], i));
    trace.steps.push_back(std::move(s));
  }
  // M as the column blocks are written, the lower triangle and its mirror
  MatrixX shown = MatrixX::Zero(tree.nv, tree.nv);
  Eigen::MatrixXi written = Eigen::MatrixXi::Zero(tree.nv, tree.nv);
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int ni = tree.joints[n].nv;
    if (ni == 0) continue;
    const int oi = tree.vOffset[n];
    TracedStep s = towardsBase(tree, 2, i);
    s.equation =
        "F = I^c_i S_i    M_ii = S_iᵀ F\n"
        "then towards the base, from each body k to its parent j:  F ← ʲX*_k F    M_ji = S_jᵀ F";
    s.handed = "F = ᵖX*_i F";
    Eigen::MatrixXi pattern = written;
    for (int j = i; j >= 0; j = tree.parent[static_cast<std::size_t>(j)]) {
      const int nj = tree.joints[static_cast<std::size_t>(j)].nv;
      const int oj = tree.vOffset[static_cast<std::size_t>(j)];
      if (nj == 0) continue;
      shown.block(oj, oi, nj, ni) = M.block(oj, oi, nj, ni);
      shown.block(oi, oj, ni, nj) = M.block(oi, oj, ni, nj);
      written.block(oj, oi, nj, ni).setConstant(kPatternNonzero);
      written.block(oi, oj, ni, nj).setConstant(kPatternNonzero);
      pattern.block(oj, oi, nj, ni).setConstant(kPatternPivot);
      pattern.block(oi, oj, ni, nj).setConstant(kPatternPivot);
    }
    s.values.push_back(matrix("M_ii",
                              "joint " + tree.jointNames[n] +
                                  "'s diagonal block: the inertia it moves "
                                  "when every other joint is locked",
                              M.block(oi, oi, ni, ni), i));
    s.values.push_back(coordinates("M_{:,i}",
                                   "its column of M as written so far: how it couples with the joints that carry it",
                                   shown.col(oi), i));
    if (ni == 1) s.filled = "M_ii = S_iᵀ I^c_i S_i = " + number(M(oi, oi));
    s.matrix = shown;
    s.pattern = pattern;
    s.labels = labels;
    s.blockStarts = starts;
    trace.steps.push_back(std::move(s));
  }
  // L column block by column block; fill: entries of L where M has none by the tree's structure
  // (joints on different branches: CRBA writes no entry there), not where M is zero by chance
  const MatrixX L = llt.matrixL();
  MatrixX partial = MatrixX::Zero(tree.nv, tree.nv);
  Eigen::MatrixXi state = Eigen::MatrixXi::Zero(tree.nv, tree.nv);
  long fill = 0;
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    const int ni = tree.joints[n].nv;
    if (ni == 0) continue;
    const int oi = tree.vOffset[n];
    Eigen::MatrixXi pattern = state;
    for (int c = oi; c < oi + ni; ++c)
      for (int r = c; r < tree.nv; ++r) {
        if (L(r, c) == 0.0) continue;
        partial(r, c) = L(r, c);
        const bool filled = written(r, c) == 0;
        if (filled && r != c) ++fill;
        state(r, c) = filled ? kPatternFill : kPatternEliminated;
        pattern(r, c) = filled ? kPatternFill : kPatternPivot;
      }
    TracedStep s;
    s.pass = 3;
    s.body = i;
    s.equation =
        "L_ii L_iiᵀ = M_ii − Σ_k L_ik L_ikᵀ    L_ri = (M_ri − Σ_k L_rk L_ikᵀ) L_ii⁻ᵀ  (k: the columns before i)";
    s.values.push_back(
        matrix("L_ii", "joint " + tree.jointNames[n] + "'s diagonal block of the factor", L.block(oi, oi, ni, ni), i));
    s.values.push_back(coordinates("L_{:,i}", "its column of L", L.col(oi), i));
    s.filled = "fill so far: " + std::to_string(fill) + " entries of L where M has none";
    s.matrix = partial;
    s.pattern = pattern;
    s.labels = labels;
    s.blockStarts = starts;
    s.fill = fill;
    trace.steps.push_back(std::move(s));
  }
  {
    TracedStep s;
    s.pass = 4;
    s.equation = "L y = τ − h (forward)    Lᵀ q̈ = y (backward)";
    s.values.push_back(coordinates("τ − h", "the joint forces less the bias forces", VectorX(tau - h)));
    s.values.push_back(coordinates("q̈", "the joint accelerations", trace.qdd));
    trace.steps.push_back(std::move(s));
  }
  appendLoadsPass(trace, tree, ws.kin, "Joint loads, tip to base (RNEA's backward pass on q̈)");
  return trace;
}

}  // namespace kt::stepper
