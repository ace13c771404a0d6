// SPDX-License-Identifier: BSD-3-Clause
// The articulated-body inertias I^A_i (Featherstone 2008, §7.2 and Table 7.1, pass 2): the
// inertia that body i shows to a wrench at its origin when the bodies it carries are free to
// move at their joints (no joint force), each in its own body coordinates:
//   I^A_i = I_i + Σ_c ⁱX*_c (I^A_c − U_c D_c⁻¹ U_cᵀ) ᶜX_i,   U_c = I^A_c S_c,  D_c = S_cᵀ U_c.
// For a leaf it is the rigid inertia I_i; the more freely the carried bodies move, the further
// it falls below the composite rigid inertia of the subtree. A plain version for the teaching
// view (the aba solver runs the same recursion inside its pass 2).
#pragma once

#include <vector>

#include "core/model/tree.hpp"

namespace kt {

/// I^A_i for every body (nb) at q.
std::vector<Mat6> articulatedInertias(const Tree& tree, const Eigen::VectorXd& q);

}  // namespace kt
