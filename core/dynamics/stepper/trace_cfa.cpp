// SPDX-License-Identifier: BSD-3-Clause
// The CFA's steps on a tree (Featherstone & Fijany 1999; Liu, Hu & Zhang 2016, eqs. 25–40;
// docs/dynamics.md §5). q̈, λ and the loads are cfa-tree's own (cfa-oddeven's for its rounds).
// cfa-tree never forms A: it carries the eliminated subtrees as compliances Ψ. The elimination
// steps show A = Tᵀ Φ T as cfa-dense assembles it (eq. 26), reduced block by block in the order
// chosen, or round by round as cfa-oddeven reduces it, so that the fill each creates, or does
// not, is seen.
#include <Eigen/Cholesky>
#include <set>

#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/cfa/cfa_odd_even.hpp"
#include "core/dynamics/cfa/cfa_tree.hpp"
#include "core/dynamics/cfa/elimination_fill.hpp"
#include "core/dynamics/stepper/trace_building.hpp"

namespace kt::stepper {

namespace {

// cfa-oddeven's rounds (Liu et al. eqs. 39–40; cfa_odd_even.hpp) on A as cfa-dense assembles it,
// one step per row and round: every row k of a chain segment takes up the rows k ± s (s = 1, 2,
// 4 …) from the previous round's values, row k ← row k − A_{k,o} A_oo⁻¹ row o for o = k ± s, which
// removes its couplings with them and adds theirs. The structure is oddEvenFill's; the fill, pairs
// of blocks coupled where A has none, ends at oddEvenFill's `rounds`.
void appendOddEvenRounds(AlgorithmTrace& trace, const Tree& tree, const BlockGraph& g, MatrixX& S,
                         const std::vector<std::string>& labels, const std::vector<int>& starts) {
  std::vector<int> blockOf(static_cast<std::size_t>(tree.nb), -1);
  for (int b = 0; b < g.blocks(); ++b) blockOf[static_cast<std::size_t>(g.joint[static_cast<std::size_t>(b)])] = b;
  const auto rows = [&](int b) {
    return std::pair{g.start[static_cast<std::size_t>(b)], g.size[static_cast<std::size_t>(b)]};
  };
  std::vector<std::set<int>> pattern(static_cast<std::size_t>(g.blocks()));
  for (int b = 0; b < g.blocks(); ++b)
    pattern[static_cast<std::size_t>(b)].insert(g.adjacent[static_cast<std::size_t>(b)].begin(),
                                                g.adjacent[static_cast<std::size_t>(b)].end());
  std::set<std::pair<int, int>> filled;
  long fill = 0;
  for (const std::vector<int>& seg : chainSegments(tree)) {
    const int length = static_cast<int>(seg.size());
    const auto blockAt = [&](int pos) {
      return pos >= 0 && pos < length ? blockOf[static_cast<std::size_t>(seg[static_cast<std::size_t>(pos)])] : -1;
    };
    for (int s = 1; s < length; s *= 2) {
      const MatrixX before = S;  // the round reads the previous round's values
      const std::vector<std::set<int>> previous = pattern;
      for (int pos = 0; pos < length; ++pos) {
        const int k = blockAt(pos);
        if (k < 0) continue;
        const auto [ok, nk] = rows(k);
        std::set<int> row = previous[static_cast<std::size_t>(k)];
        std::vector<int> others;
        for (const int other : {blockAt(pos - s), blockAt(pos + s)})
          if (other >= 0) others.push_back(other);
        for (const int o : others) {
          const auto [oo, no] = rows(o);
          const MatrixX E = before.block(oo, oo, no, no).ldlt().solve(before.block(oo, ok, no, nk)).transpose();
          S.middleRows(ok, nk) -= E * before.middleRows(oo, no);
          row.insert(previous[static_cast<std::size_t>(o)].begin(), previous[static_cast<std::size_t>(o)].end());
        }
        for (const int o : others) {
          const auto [oo, no] = rows(o);
          S.block(ok, oo, nk, no).setZero();  // what the row operation removes, exactly
          row.erase(o);
        }
        row.erase(k);
        for (const int c : row)
          if (!g.coupled(k, c) && filled.insert({std::min(k, c), std::max(k, c)}).second)
            fill += static_cast<long>(nk) * rows(c).second;
        pattern[static_cast<std::size_t>(k)] = row;

        Eigen::MatrixXi shown = Eigen::MatrixXi::Zero(tree.nlambda, tree.nlambda);
        for (int x = 0; x < g.blocks(); ++x) {
          const auto [ox, nx] = rows(x);
          for (int c : pattern[static_cast<std::size_t>(x)]) {
            const bool pair = filled.count({std::min(x, c), std::max(x, c)}) > 0;
            shown.block(ox, rows(c).first, nx, rows(c).second)
                .setConstant(x == k ? kPatternPivot
                             : pair ? kPatternFill
                                    : kPatternNonzero);
          }
          shown.block(ox, ox, nx, nx).setConstant(x == k ? kPatternPivot : kPatternNonzero);
        }
        TracedStep step;
        step.pass = 1;
        step.body = g.joint[static_cast<std::size_t>(k)];
        for (const int o : others) step.targets.push_back(g.joint[static_cast<std::size_t>(o)]);
        step.handed = "row k ← row k − A_{k,o} A_oo⁻¹ row o, the rows o = k ± " + std::to_string(s);
        step.takesFromTargets = true;
        step.equation =
            "E_k = B_k A_{k+s}⁻¹    G_k = B_{k−s}ᵀ A_{k−s}⁻¹   (eq. 39)\n"
            "A_k ← A_k − E_k B_kᵀ − G_k B_{k−s}    B_k ← −E_k B_{k+s}    C_k ← C_k − E_k C_{k+s} − G_k C_{k−s}   (eq. "
            "40)";
        step.filled = "round s = " + std::to_string(s) + ": row " +
                      tree.jointNames[static_cast<std::size_t>(step.body)] + " now couples " +
                      std::to_string(row.size()) + " other block" + (row.size() == 1 ? "" : "s") +
                      "; fill so far: " + std::to_string(fill) + " entries";
        step.values.push_back(matrix(
            "A_k",
            "joint " + tree.jointNames[static_cast<std::size_t>(step.body)] + "'s diagonal block after this round",
            S.block(ok, ok, nk, nk), step.body));
        step.matrix = S;
        step.pattern = shown;
        step.labels = labels;
        step.blockStarts = starts;
        step.fill = fill;
        trace.steps.push_back(std::move(step));
      }
    }
  }
}

}  // namespace

AlgorithmTrace traceCfa(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                        EliminationOrder order) {
  AlgorithmTrace trace;
  trace.algorithm = TracedAlgorithm::Cfa;
  const bool oddEven = order == EliminationOrder::OddEven;
  trace.passes = {"Body sweep, base to tip: velocities, velocity products, known wrenches",
                  order == EliminationOrder::LeavesFirst ? "Elimination of A = Tᵀ Φ T, leaves first (as cfa-tree)"
                  : oddEven ? "Odd-even rounds on A = Tᵀ Φ T (cfa-oddeven, Liu et al. eqs. 39–40)"
                            : "Elimination of A = Tᵀ Φ T, root first (not cfa-tree's order: see the fill)",
                  order == EliminationOrder::LeavesFirst
                      ? "Back substitution, base to tip: constraint forces λ_i, accelerations"
                  : oddEven ? "cfa-oddeven's solution, base to tip: each joint's constraint forces λ_i = T_iᵀ f_i, "
                              "accelerations"
                            : "cfa-tree's solution, base to tip: constraint forces λ_i = T_iᵀ f_i, accelerations "
                              "(root first would substitute from the tips)"};
  trace.tau = tau;
  trace.qdd.setZero(tree.nv);
  trace.loads.resize(tree);
  // q̈ and the loads of the solver whose order the steps show
  if (oddEven) {
    CfaOddEvenSolver solver(tree);
    solver.forwardDynamics(q, v, tau, fext, trace.qdd, &trace.loads);
  } else {
    CfaTreeSolver solver(tree);
    solver.forwardDynamics(q, v, tau, fext, trace.qdd, &trace.loads);
  }

  Kinematics kin;
  kin.resize(tree);
  computeKinematics(tree, q, v, kin, false);
  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsTips(tree, 0, i);
    s.handed = "v_i";
    s.equation = "v_i = ⁱX_p v_p + S_i ν_i    c_i = v_i × S_i ν_i + S̊_i ν_i    p_i = v_i ×* I_i v_i − f_i^app";
    s.values.push_back(motion("v_i", "the velocity of " + tree.bodyNames[n], kin.v[n], i));
    s.values.push_back(
        motion("c_i", "its velocity-product acceleration", kin.c[n], i, TracedValue::Quantity::Acceleration));
    s.values.push_back(force("p_i", "its bias wrench",
                             Vec6(crossForce(kin.v[n], tree.I[n] * kin.v[n]) - appliedWrench(tree, fext, i)), i));
    trace.steps.push_back(std::move(s));
  }

  // A = Tᵀ Φ T and its block pattern
  if (tree.nlambda > 0) {
    CfaDenseSolver dense(tree);
    VectorX scratch(tree.nv);
    dense.forwardDynamics(q, v, tau, fext, scratch, nullptr);
    MatrixX S = dense.constraintMatrix();
    const BlockGraph g = blockGraph(tree, S, true);
    std::vector<std::string> labels;
    std::vector<int> starts;
    for (int b = 0; b < g.blocks(); ++b) {
      const int j = g.joint[static_cast<std::size_t>(b)];
      if (b > 0) starts.push_back(g.start[static_cast<std::size_t>(b)]);
      for (int k = 0; k < g.size[static_cast<std::size_t>(b)]; ++k)
        labels.push_back(tree.jointNames[static_cast<std::size_t>(j)] + ".λ" + std::to_string(k));
    }
    if (oddEven) {
      appendOddEvenRounds(trace, tree, g, S, labels, starts);
    } else {
      const std::vector<int> sequence =
          order == EliminationOrder::LeavesFirst ? leavesFirstOrder(g) : rootFirstOrder(g);
      // block couplings as they evolve: A's, then the fill the eliminations add
      std::vector<std::set<int>> adjacent(static_cast<std::size_t>(g.blocks()));
      std::vector<std::vector<int>> original(static_cast<std::size_t>(g.blocks()),
                                             std::vector<int>(static_cast<std::size_t>(g.blocks()), 0));
      for (int b = 0; b < g.blocks(); ++b)
        for (int c : g.adjacent[static_cast<std::size_t>(b)]) {
          adjacent[static_cast<std::size_t>(b)].insert(c);
          original[static_cast<std::size_t>(b)][static_cast<std::size_t>(c)] = 1;
        }
      std::vector<char> eliminated(static_cast<std::size_t>(g.blocks()), 0);
      std::vector<int> remaining(static_cast<std::size_t>(tree.nlambda));
      for (int r = 0; r < tree.nlambda; ++r) remaining[static_cast<std::size_t>(r)] = r;
      long fill = 0;
      const auto blockOf = [&](int row) {
        int b = 0;
        while (b + 1 < g.blocks() && g.start[static_cast<std::size_t>(b) + 1] <= row) ++b;
        return b;
      };
      std::vector<int> rowBlock(static_cast<std::size_t>(tree.nlambda));
      for (int r = 0; r < tree.nlambda; ++r) rowBlock[static_cast<std::size_t>(r)] = blockOf(r);
      for (const int b : sequence) {
        const auto nb = static_cast<std::size_t>(b);
        const int j = g.joint[nb], o = g.start[nb], m = g.size[nb];
        const MatrixX pivot = S.block(o, o, m, m);
        // the Schur complement on the blocks not yet eliminated
        std::vector<int> rest;
        for (int r : remaining)
          if (rowBlock[static_cast<std::size_t>(r)] != b) rest.push_back(r);
        if (!rest.empty()) {
          MatrixX coupling(m, static_cast<Eigen::Index>(rest.size()));
          for (std::size_t c = 0; c < rest.size(); ++c)
            coupling.col(static_cast<Eigen::Index>(c)) = S.block(o, rest[c], m, 1);
          const MatrixX solved = pivot.ldlt().solve(coupling);
          const MatrixX update = coupling.transpose() * solved;
          for (std::size_t r = 0; r < rest.size(); ++r)
            for (std::size_t c = 0; c < rest.size(); ++c)
              S(rest[r], rest[c]) -= update(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
        }
        remaining = rest;
        // structure: the pivot's remaining neighbours become coupled pairwise
        std::vector<int> neighbours;
        for (int c : adjacent[nb])
          if (!eliminated[static_cast<std::size_t>(c)]) neighbours.push_back(c);
        for (std::size_t x = 0; x < neighbours.size(); ++x)
          for (std::size_t y = x + 1; y < neighbours.size(); ++y) {
            const int r = neighbours[x], c = neighbours[y];
            if (adjacent[static_cast<std::size_t>(r)].insert(c).second) {
              adjacent[static_cast<std::size_t>(c)].insert(r);
              fill += static_cast<long>(g.size[static_cast<std::size_t>(r)]) * g.size[static_cast<std::size_t>(c)];
            }
          }
        eliminated[nb] = 1;
        Eigen::MatrixXi pattern = Eigen::MatrixXi::Zero(tree.nlambda, tree.nlambda);
        for (int x = 0; x < g.blocks(); ++x)
          for (int y = 0; y < g.blocks(); ++y) {
            const bool coupled = x == y || adjacent[static_cast<std::size_t>(x)].count(y) > 0;
            if (!coupled) continue;
            int code = original[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] || x == y ? kPatternNonzero
                                                                                                    : kPatternFill;
            if (x == b || y == b) {
              code = kPatternPivot;
            } else if (code == kPatternNonzero &&
                       (eliminated[static_cast<std::size_t>(x)] || eliminated[static_cast<std::size_t>(y)])) {
              code = kPatternEliminated;
            }
            pattern
                .block(g.start[static_cast<std::size_t>(x)], g.start[static_cast<std::size_t>(y)],
                       g.size[static_cast<std::size_t>(x)], g.size[static_cast<std::size_t>(y)])
                .setConstant(code);
          }
        TracedStep s;
        s.pass = 1;
        s.body = j;
        if (order == EliminationOrder::LeavesFirst) {
          // cfa-tree carries the elimination in the parent body's compliance
          s.targets = parentOf(tree, j);
          s.handed = "Ψ_p ← Ψ_p − Vᵀ D⁻¹ V    α_p ← α_p − Vᵀ D⁻¹ z";
        } else {
          // the joints (their bodies) the Schur complement couples
          for (int c : neighbours) s.targets.push_back(g.joint[static_cast<std::size_t>(c)]);
          s.handed = "A_rs ← A_rs − A_ri A_ii⁻¹ A_is";
        }
        s.equation =
            "A_ii = L D Lᵀ    A_rs ← A_rs − A_ri A_ii⁻¹ A_is  for r, s the joints still coupled with joint i\n"
            "(cfa-tree: Q = Ψ_i + ⁱX_p Ψ_p ⁱX_pᵀ, A_ii = T_iᵀ Q T_i; eqs. 32, 37)";
        s.values.push_back(matrix("A_ii",
                                  "joint " + tree.jointNames[static_cast<std::size_t>(j)] +
                                      "'s block as it is eliminated: its subtree already in it",
                                  pivot, j));
        s.filled = "couples " + std::to_string(neighbours.size()) + " remaining block" +
                   (neighbours.size() == 1 ? "" : "s") + "; fill so far: " + std::to_string(fill) + " entries";
        s.matrix = S;
        s.pattern = pattern;
        s.labels = labels;
        s.blockStarts = starts;
        s.fill = fill;
        trace.steps.push_back(std::move(s));
      }
    }
  }

  for (int i = 0; i < tree.nb; ++i) {
    const auto n = static_cast<std::size_t>(i);
    TracedStep s = towardsTips(tree, 2, i);
    s.handed = "λ_i, a_i";
    s.equation = order == EliminationOrder::OddEven
                     ? "after the rounds each row alone: Ā_k λ_k = Ẋ_k − C_k λ_U, the node rows as one dense system "
                       "(eqs. 41–44)\nf_i = D_i τ_i + T_i λ_i    S_i q̈_i = a_i − ⁱX_p a_p − c_i"
                     : "λ_i = A_ii⁻¹ (b_i − A_ip λ_p − Σ_{j before i} A_ij λ_j)    a_i = α_i + Ψ_i T_i λ_i\n"
                       "S_i q̈_i = a_i − ⁱX_p a_p − c_i    f_i = D_i τ_i + T_i λ_i";
    if (tree.joints[n].nv < 6)
      s.values.push_back(coordinates("λ_i", "the constraint forces of joint " + tree.jointNames[n] + ", T_iᵀ f_i",
                                     reactionPart(tree, trace.loads.lambda, i), i));
    if (tree.joints[n].nv > 0)
      s.values.push_back(coordinates("q̈_i", "its acceleration", jointPart(tree, trace.qdd, i), i));
    s.values.push_back(force("f_i", "its whole load", trace.loads.f[n], i));
    if (tree.joints[n].nv == 1) s.filled = "q̈_i = " + number(trace.qdd[tree.vOffset[n]]);
    trace.steps.push_back(std::move(s));
  }
  return trace;
}

}  // namespace kt::stepper
