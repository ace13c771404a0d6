// SPDX-License-Identifier: BSD-3-Clause
// "poisson-ldl": the Poisson passes with the factor kept as Ivanov's §4 Cholesky form keeps it.
#include "core/dynamics/poisson/poisson_passes.hpp"

namespace kt {

template class PoissonSolver<CholeskyFactor>;

std::unique_ptr<Solver> makePoissonLdlSolver(const Tree& tree) {
  return std::make_unique<PoissonSolver<CholeskyFactor>>(tree);
}

}  // namespace kt
