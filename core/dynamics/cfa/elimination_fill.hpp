// SPDX-License-Identifier: BSD-3-Clause
// Fill: the entries of a factor that are zero in the matrix it factors. For the teaching views
// (docs/teaching.md) and their tests: why the O(N) solvers factor in the order they do.
//  - The mass matrix M (docs/dynamics.md §4) couples joint i with joint j only when one carries
//    the other. Ivanov (2017, §4) factors it from the tips to the base (children before their
//    parent): no fill. From the base out, every joint couples all the joints it carries.
//  - The CFA's A = Tᵀ Φ T (Liu, Hu & Zhang 2016, eqs. 25–29) couples a joint with its parent's
//    and its siblings' (the joints that share one of its bodies). cfa-tree eliminates leaves
//    first: no fill. cfa-oddeven's rounds (eqs. 39–40) couple every row of a chain segment with
//    the rows 2, 4, 8 … away and spread the node couplings along the segment; its node system
//    (eqs. 41–44) is factored densely.
// Everything is counted on blocks, one per joint that has rows in the matrix, and reported in
// scalar entries of one triangle (a pair of blocks of sizes m and n counts m · n).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

/// A symmetric matrix's block pattern: block b covers rows [start[b], start[b] + size[b]) and
/// belongs to tree joint joint[b]; adjacent[b] lists (ascending) the other blocks b couples with.
struct BlockGraph {
  std::vector<int> joint, start, size;
  std::vector<std::vector<int>> adjacent;
  int blocks() const { return static_cast<int>(joint.size()); }
  bool coupled(int a, int b) const;
};

/// The pattern of `A` with one block per joint of `tree` that has rows: `rows(i)` of joint i
/// (nv for M, 6 − nv for A), in joint order. Blocks with any nonzero entry are coupled.
BlockGraph blockGraph(const Tree& tree, const Eigen::MatrixXd& A, bool constraintRows);

/// Fill of symmetric block Gaussian elimination in `order` (block indices): eliminating a block
/// couples every pair of its remaining neighbours.
long eliminationFill(const BlockGraph& g, const std::vector<int>& order);

/// Children before parents: the blocks from the highest joint index down (joints are numbered
/// depth-first, a parent before its children).
std::vector<int> leavesFirstOrder(const BlockGraph& g);
/// Parents before children: joint order.
std::vector<int> rootFirstOrder(const BlockGraph& g);

/// cfa-oddeven's chain segments (cfa_odd_even.hpp): maximal runs of joints (tree indices, base
/// to tip) where every body but the last has one child.
std::vector<std::vector<int>> chainSegments(const Tree& tree);

/// cfa-oddeven's fill on A's pattern: of the rounds (couplings any round creates that A lacks),
/// and of the dense factor of the node system (pairs of node rows A does not couple).
struct OddEvenFill {
  long rounds = 0, nodeSystem = 0;
  long total() const { return rounds + nodeSystem; }
};
OddEvenFill oddEvenFill(const Tree& tree, const BlockGraph& g);

/// M's block factor from the tips to the base (Ivanov 2017, §4): with the blocks in reverse
/// order (each block's own coordinates kept in order), P M P = L Lᵀ; returned is P L P, so that
/// M = U Uᵀ with U block upper triangular. Its diagonal block of joint i is Ivanov's L_i, the
/// Cholesky factor of S_iᵀ I^A_i S_i. Zero wherever M is zero.
Eigen::MatrixXd tipsToBaseFactor(const BlockGraph& g, const Eigen::MatrixXd& M);

}  // namespace kt
