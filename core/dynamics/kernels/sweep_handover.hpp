// SPDX-License-Identifier: BSD-3-Clause
// How a tip-to-base sweep (bodies nb − 1 … 0) hands each body's sums (articulated inertia, bias
// force) to its parent without storing what the next step reads at once: the child visited
// first starts the parent's sums from the parent's own terms, and a parent visited right after
// its child (p = i − 1, every link of a chain) takes them in a local (aba pass 2, the Poisson
// solvers' backward pass; docs/benchmarks.md, "Per-body cost").
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

enum SweepHandover : std::uint8_t {
  kStartsParent = 1,  ///< body i is the child of p the sweep visits first (the highest-numbered)
  kCarried = 2,       ///< p = i − 1, the next body visited
  kHasChildren = 4,   ///< body i's own sums start from its children's
};

/// (nb) the SweepHandover flags of every body.
std::vector<std::uint8_t> sweepHandover(const Tree& tree);

}  // namespace kt
