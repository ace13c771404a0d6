// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/cfa/elimination_fill.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <set>

namespace kt {

namespace {

long pairEntries(const BlockGraph& g, int a, int b) {
  return static_cast<long>(g.size[static_cast<std::size_t>(a)]) * g.size[static_cast<std::size_t>(b)];
}

}  // namespace

bool BlockGraph::coupled(int a, int b) const {
  const std::vector<int>& n = adjacent[static_cast<std::size_t>(a)];
  return std::binary_search(n.begin(), n.end(), b);
}

BlockGraph blockGraph(const Tree& tree, const Eigen::MatrixXd& A, bool constraintRows) {
  BlockGraph g;
  int row = 0;
  for (int i = 0; i < tree.nb; ++i) {
    const int nv = tree.joints[static_cast<std::size_t>(i)].nv;
    const int n = constraintRows ? 6 - nv : nv;
    if (n == 0) continue;
    g.joint.push_back(i);
    g.start.push_back(row);
    g.size.push_back(n);
    row += n;
  }
  g.adjacent.resize(g.joint.size());
  for (int a = 0; a < g.blocks(); ++a)
    for (int b = 0; b < g.blocks(); ++b) {
      const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
      if (a != b && !A.block(g.start[ua], g.start[ub], g.size[ua], g.size[ub]).isZero(0.0)) g.adjacent[ua].push_back(b);
    }
  return g;
}

long eliminationFill(const BlockGraph& g, const std::vector<int>& order) {
  std::vector<std::set<int>> adjacent(g.adjacent.size());
  for (std::size_t b = 0; b < g.adjacent.size(); ++b) adjacent[b].insert(g.adjacent[b].begin(), g.adjacent[b].end());
  std::vector<bool> done(g.adjacent.size(), false);
  long fill = 0;
  for (const int e : order) {
    done[static_cast<std::size_t>(e)] = true;
    std::vector<int> remaining;
    for (const int n : adjacent[static_cast<std::size_t>(e)])
      if (!done[static_cast<std::size_t>(n)]) remaining.push_back(n);
    for (std::size_t x = 0; x < remaining.size(); ++x)
      for (std::size_t y = x + 1; y < remaining.size(); ++y) {
        const int a = remaining[x], b = remaining[y];
        if (adjacent[static_cast<std::size_t>(a)].insert(b).second) {
          adjacent[static_cast<std::size_t>(b)].insert(a);
          fill += pairEntries(g, a, b);
        }
      }
  }
  return fill;
}

std::vector<int> leavesFirstOrder(const BlockGraph& g) {
  std::vector<int> order(g.joint.size());
  for (int b = 0; b < g.blocks(); ++b) order[static_cast<std::size_t>(b)] = g.blocks() - 1 - b;
  return order;
}

std::vector<int> rootFirstOrder(const BlockGraph& g) {
  std::vector<int> order(g.joint.size());
  for (int b = 0; b < g.blocks(); ++b) order[static_cast<std::size_t>(b)] = b;
  return order;
}

std::vector<std::vector<int>> chainSegments(const Tree& tree) {
  // a joint continues its parent's segment when the parent body has one child (depth-first
  // numbering: it is then the parent's index + 1)
  std::vector<std::vector<int>> segments;
  std::vector<int> segmentOf(static_cast<std::size_t>(tree.nb), -1);
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[static_cast<std::size_t>(i)];
    if (p < 0 || tree.children[static_cast<std::size_t>(p)].size() != 1) {
      segmentOf[static_cast<std::size_t>(i)] = static_cast<int>(segments.size());
      segments.emplace_back();
    } else {
      segmentOf[static_cast<std::size_t>(i)] = segmentOf[static_cast<std::size_t>(p)];
    }
    segments[static_cast<std::size_t>(segmentOf[static_cast<std::size_t>(i)])].push_back(i);
  }
  return segments;
}

OddEvenFill oddEvenFill(const Tree& tree, const BlockGraph& g) {
  std::vector<int> blockOf(static_cast<std::size_t>(tree.nb), -1);
  for (int b = 0; b < g.blocks(); ++b) blockOf[static_cast<std::size_t>(g.joint[static_cast<std::size_t>(b)])] = b;
  const std::vector<std::vector<int>> segments = chainSegments(tree);
  // the rows' patterns (block indices), round by round (eq. 40): row k takes up the couplings of
  // rows k ± s and loses those two
  std::vector<std::set<int>> pattern(g.adjacent.size());
  for (std::size_t b = 0; b < g.adjacent.size(); ++b) pattern[b].insert(g.adjacent[b].begin(), g.adjacent[b].end());
  std::set<std::pair<int, int>> filled;
  const auto note = [&](int a, int b) {
    if (a != b && !g.coupled(a, b)) filled.insert({std::min(a, b), std::max(a, b)});
  };
  for (const std::vector<int>& seg : segments) {
    const int length = static_cast<int>(seg.size());
    const auto blockAt = [&](int pos) {
      return pos >= 0 && pos < length ? blockOf[static_cast<std::size_t>(seg[static_cast<std::size_t>(pos)])] : -1;
    };
    for (int s = 1; s < length; s *= 2) {
      std::vector<std::set<int>> next(static_cast<std::size_t>(length));
      for (int pos = 0; pos < length; ++pos) {
        const int k = blockAt(pos);
        if (k < 0) continue;
        std::set<int>& row = next[static_cast<std::size_t>(pos)];
        row = pattern[static_cast<std::size_t>(k)];
        for (const int other : {blockAt(pos - s), blockAt(pos + s)}) {
          if (other < 0) continue;
          row.insert(pattern[static_cast<std::size_t>(other)].begin(), pattern[static_cast<std::size_t>(other)].end());
        }
        for (const int other : {blockAt(pos - s), blockAt(pos + s), k}) row.erase(other);
        for (const int c : row) note(k, c);
      }
      for (int pos = 0; pos < length; ++pos)
        if (const int k = blockAt(pos); k >= 0)
          pattern[static_cast<std::size_t>(k)] = std::move(next[static_cast<std::size_t>(pos)]);
    }
  }
  OddEvenFill fill;
  for (const auto& [a, b] : filled) fill.rounds += pairEntries(g, a, b);
  // the node rows (eqs. 41–44): joints of node bodies and of their children, factored densely
  const auto isNode = [&](int body) { return body >= 0 && tree.children[static_cast<std::size_t>(body)].size() >= 2; };
  std::vector<int> nodes;
  for (int b = 0; b < g.blocks(); ++b) {
    const int i = g.joint[static_cast<std::size_t>(b)];
    if (isNode(i) || isNode(tree.parent[static_cast<std::size_t>(i)])) nodes.push_back(b);
  }
  for (std::size_t x = 0; x < nodes.size(); ++x)
    for (std::size_t y = x + 1; y < nodes.size(); ++y)
      if (!g.coupled(nodes[x], nodes[y]) && !filled.count({nodes[x], nodes[y]}))
        fill.nodeSystem += pairEntries(g, nodes[x], nodes[y]);
  return fill;
}

Eigen::MatrixXd tipsToBaseFactor(const BlockGraph& g, const Eigen::MatrixXd& M) {
  // P: the blocks in reverse order, each block's coordinates in their own order
  const Eigen::Index n = M.rows();
  std::vector<Eigen::Index> from;  // row r of P M P is row from[r] of M
  from.reserve(static_cast<std::size_t>(n));
  for (int b = g.blocks() - 1; b >= 0; --b)
    for (int k = 0; k < g.size[static_cast<std::size_t>(b)]; ++k)
      from.push_back(g.start[static_cast<std::size_t>(b)] + k);
  Eigen::MatrixXd PMP(n, n);
  for (Eigen::Index r = 0; r < n; ++r)
    for (Eigen::Index c = 0; c < n; ++c)
      PMP(r, c) = M(from[static_cast<std::size_t>(r)], from[static_cast<std::size_t>(c)]);
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(PMP).matrixL();
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index r = 0; r < n; ++r)
    for (Eigen::Index c = 0; c <= r; ++c)
      U(from[static_cast<std::size_t>(r)], from[static_cast<std::size_t>(c)]) = L(r, c);
  return U;
}

}  // namespace kt
