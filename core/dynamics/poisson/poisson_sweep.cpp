// SPDX-License-Identifier: BSD-3-Clause
// "poisson-sweep": the Poisson passes with the factor kept as Ivanov's §3 sweep keeps it.
#include "core/dynamics/poisson/poisson_passes.hpp"

namespace kt {

template class PoissonSolver<ExplicitInverse>;

std::unique_ptr<Solver> makePoissonSweepSolver(const Tree& tree) {
  return std::make_unique<PoissonSolver<ExplicitInverse>>(tree);
}

}  // namespace kt
