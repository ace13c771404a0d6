// SPDX-License-Identifier: BSD-3-Clause
#include "core/dynamics/kernels/sweep_handover.hpp"

#include <algorithm>

namespace kt {

std::vector<std::uint8_t> sweepHandover(const Tree& tree) {
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(tree.nb), 0);
  for (int i = 0; i < tree.nb; ++i) {
    const int p = tree.parent[i];
    if (!tree.children[i].empty()) flags[i] |= kHasChildren;
    if (p < 0) continue;
    if (i == *std::max_element(tree.children[p].begin(), tree.children[p].end())) flags[i] |= kStartsParent;
    if (p == i - 1) flags[i] |= kCarried;
  }
  return flags;
}

}  // namespace kt
