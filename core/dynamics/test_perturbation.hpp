// Test-only hook: makes one solver deliberately wrong, so that tests can check that the tools
// comparing solvers (kinetree-cli compare) notice. Not an option of any user interface.
//
// Active when set programmatically with setSolverPerturbationForTesting, or, for a child process
// (a test running kinetree-cli), when the environment variable KINETREE_TEST_PERTURB_SOLVER holds
// "NAME:EPSILON": makeSolver(NAME, …) then returns the solver with q̈ (and ṗ for impulse solvers)
// scaled by (1 + EPSILON).
#pragma once

#include <memory>
#include <string>

#include "core/dynamics/solver.hpp"

namespace kt {

/// Perturbs every solver built later with this registry name; an empty name switches it off.
void setSolverPerturbationForTesting(const std::string& name, double relative);

/// Used by makeSolver: the solver as built, or wrapped in the perturbation when it is active for it.
std::unique_ptr<Solver> applySolverPerturbationForTesting(std::unique_ptr<Solver> solver);

}  // namespace kt
