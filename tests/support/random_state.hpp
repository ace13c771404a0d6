// SPDX-License-Identifier: BSD-3-Clause
// Seeded random trees, random states and error measures shared by the solver tests.
#pragma once

#include <cstdint>

#include "core/dynamics/solver.hpp"
#include "core/model/generators.hpp"

namespace kt::test {

/// The random trees the solver tests check each other on: 1 to `maxBodies` bodies, every joint
/// type, floating and fixed bases, up to 1 + seed % `childSpread` children per body, every third
/// tree biased towards long chains, and a third of the joint axes along x, y or z (the solvers'
/// special cases).
RandomTreeOptions solverTreeOptions(std::uint64_t seed, int maxBodies, int childSpread);
/// The data column `seed` of a Qt Test data function, with the rows tree1 … tree`count`.
void addSeedRows(int count);

/// A random configuration (unit quaternions), velocity and joint force for a tree.
struct RandomState {
  VectorX q, v, tau;
};
RandomState randomState(const Tree& tree, std::uint64_t seed);

/// The same model with every body's mass and inertia scaled by a factor of its own, log-uniform
/// in [1/ratio, ratio]: light bodies carrying heavy ones and the reverse, where a solver's rounding
/// is amplified far beyond what κ(M) explains (the accuracy cases in tests/data/accuracy).
Model withSpreadMasses(Model model, std::uint64_t seed, double ratio = 1e3);

/// ‖a − b‖∞ / max(‖b‖∞, 1): relative error with an absolute floor for small references.
double relativeError(const VectorX& a, const VectorX& b);

/// 2-norm condition number of the joint-space mass matrix at q.
double massMatrixCondition(const Tree& tree, const VectorX& q);

/// The acceptance tolerance of docs/dynamics.md §9: max(1e-12, 4 κ(M) ε).
double conditionedTolerance(double kappa);

}  // namespace kt::test
