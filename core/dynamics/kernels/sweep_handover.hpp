// SPDX-License-Identifier: BSD-3-Clause
// How a tip-to-base sweep (bodies nb − 1 … 0) hands each body's sums to its parent: the
// articulated inertia and bias force of aba's pass 2 (Featherstone 2008, Table 7.1), M*_i with
// φ*_i or ψ_i of the Poisson solvers' backward pass (Ivanov 2017, §3, §4), the compliance Ψ_i that
// cfa-tree's elimination of joint i reads (Featherstone & Fijany 1999, §4), RNEA's joint wrenches.
//
// Nothing is stored that the next step reads at once: the child visited first (the
// highest-numbered) starts the parent's sums from the parent's own terms, and a parent visited
// right after its child (p = i − 1, every link of a chain) takes them in a local
// (docs/architecture.md, "Solvers: one interface").
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

class SweepHandover {
 public:
  SweepHandover() = default;
  explicit SweepHandover(const Tree& tree);

  /// Body i has no children: its sums start from its own terms.
  bool isLeaf(int i) const { return !(flags_[static_cast<std::size_t>(i)] & kHasChildren); }
  /// Body i is the child of p the sweep visits first: p's sums start from p's own terms and i's share.
  bool startsParent(int i) const { return flags_[static_cast<std::size_t>(i)] & kStartsParent; }
  /// p = i − 1, the next body visited: body i hands its parent's sums over in a local.
  bool handsOverInLocal(int i) const { return flags_[static_cast<std::size_t>(i)] & kInLocal; }
  /// The sweep reaches body i with its sums in the local its child i + 1 handed them over in.
  bool arrivesInLocal(int i) const { return i + 1 < nb_ && handsOverInLocal(i + 1); }

 private:
  enum : std::uint8_t { kStartsParent = 1, kInLocal = 2, kHasChildren = 4 };
  int nb_ = 0;
  std::vector<std::uint8_t> flags_;  ///< (nb)
};

/// Sums handed over in locals where a body's own are read while its parent's are written: two
/// locals taking turns, body i's at i mod 2.
template <class Sums>
class LocalPair {
 public:
  Sums& operator[](int i) { return slot_[i & 1]; }

 private:
  Sums slot_[2];
};

}  // namespace kt
