// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/kernels/sweep_handover.hpp"

#include <algorithm>

namespace kt {

SweepHandover::SweepHandover(const Tree& tree) : nb_(tree.nb), flags_(static_cast<std::size_t>(tree.nb), 0) {
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    if (!tree.children[i].empty()) flags_[i] |= kHasChildren;
    if (p < 0) continue;
    if (i == *std::max_element(tree.children[p].begin(), tree.children[p].end())) flags_[i] |= kStartsParent;
    if (p == i - 1) flags_[i] |= kInLocal;
  }
}

}  // namespace kt
