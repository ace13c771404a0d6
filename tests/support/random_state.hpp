// Seeded random states and error measures shared by the solver tests.
#pragma once

#include <cstdint>

#include "core/dynamics/solver.hpp"
#include "core/model/generators.hpp"

namespace kt::test {

/// A random configuration (unit quaternions), velocity and joint force for a tree.
struct RandomState {
  VectorX q, v, tau;
};
RandomState randomState(const Tree& tree, std::uint64_t seed);

/// ‖a − b‖∞ / max(‖b‖∞, 1): relative error with an absolute floor for small references.
double relativeError(const VectorX& a, const VectorX& b);

/// 2-norm condition number of the joint-space mass matrix at q.
double massMatrixCondition(const Tree& tree, const VectorX& q);

/// The acceptance tolerance of DYNAMICS.md §9: max(1e-12, 4 κ(M) ε).
double conditionedTolerance(double kappa);

}  // namespace kt::test
