// SPDX-License-Identifier: BSD-3-Clause
// Test-only hook: makes one solver deliberately wrong, so that tests can check that the tools
// comparing solvers (kinetree-cli compare) notice. Not an option of any user interface.
//
// Active only when set programmatically with setSolverPerturbationForTesting: makeSolver(NAME, …)
// then returns the solver with q̈ (and ṗ for impulse solvers) scaled by (1 + EPSILON). The library
// never reads the environment; the build-tree-only kinetree-cli-test (app/CMakeLists.txt) passes
// KINETREE_TEST_PERTURB_SOLVER="NAME:EPSILON" on, the installed kinetree-cli and kinetree do not.
#pragma once

#include <memory>
#include <string>

#include "core/dynamics/solver.hpp"

namespace kt {

/// Perturbs every solver built later with this registry name; an empty name switches it off.
void setSolverPerturbationForTesting(const std::string& name, double relative);

/// The same from "NAME:EPSILON"; false (and nothing changed) when `spec` is not of that form.
bool setSolverPerturbationForTesting(const std::string& spec);

/// Used by makeSolver: the solver as built, or wrapped in the perturbation when it is active for it.
std::unique_ptr<Solver> applySolverPerturbationForTesting(std::unique_ptr<Solver> solver);

}  // namespace kt
