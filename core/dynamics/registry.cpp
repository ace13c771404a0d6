// SPDX-License-Identifier: BSD-3-Clause
// The one table of solvers, shared by GUI, CLI, tests and benchmarks.
#include <stdexcept>

#include "core/dynamics/aba.hpp"
#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/cfa/cfa_odd_even.hpp"
#include "core/dynamics/cfa/cfa_tree.hpp"
#include "core/dynamics/crba.hpp"
#include "core/dynamics/poisson/poisson_solver.hpp"
#include "core/dynamics/solver.hpp"
#include "core/dynamics/test_perturbation.hpp"

namespace kt {
namespace {

const std::vector<SolverFactoryEntry>& factories() {
  static const std::vector<SolverFactoryEntry> table = {
      {{"aba", "Articulated-body algorithm (Featherstone), O(N); the recursive reference", StateForm::Velocity},
       &makeAbaSolver},
      {{"crba", "Composite-rigid-body mass matrix + Cholesky: explicit M(q), h(q, v), O(N^3)", StateForm::Velocity},
       &makeCrbaSolver},
      {{"poisson-sweep", "Poisson impulses (Ivanov 2017, sec. 3): sweep with explicit inverses, O(N)",
        StateForm::Impulse},
       &makePoissonSweepSolver},
      {{"poisson-ldl", "Poisson impulses (Ivanov 2017, sec. 4): block Cholesky, triangular solves, O(N)",
        StateForm::Impulse},
       &makePoissonLdlSolver},
      {{"cfa-dense", "Constraint force algorithm, general form (Liu et al. 2016): dense A = T'PhiT + Cholesky",
        StateForm::Velocity},
       &makeCfaDenseSolver},
      {{"cfa-oddeven", "Constraint force algorithm, serialized (Liu et al. 2016): odd-even elimination + node system",
        StateForm::Velocity},
       &makeCfaOddEvenSolver},
      {{"cfa-tree", "Constraint force algorithm, block LDL' eliminating joints leaves-first: O(N) on every tree",
        StateForm::Velocity},
       &makeCfaTreeSolver},
  };
  return table;
}

}  // namespace

void Solver::hybridDynamics(const VectorX&, const VectorX&, VectorX&, ExternalWrenches, std::span<const char>, VectorX&,
                            JointLoads*) {
  throw std::logic_error(std::string(name()) + " does not compute the dynamics of prescribed motions");
}

void Solver::impulseFromVelocity(const VectorX&, const VectorX&, VectorX&) {
  throw std::logic_error(std::string(name()) + " does not integrate Poisson impulses");
}

void Solver::impulseDynamics(const VectorX&, const VectorX&, const VectorX&, ExternalWrenches, VectorX&, VectorX&,
                             VectorX*, JointLoads*) {
  throw std::logic_error(std::string(name()) + " does not integrate Poisson impulses");
}

const std::vector<SolverInfo>& solverRegistry() {
  static const std::vector<SolverInfo> infos = [] {
    std::vector<SolverInfo> out;
    for (const SolverFactoryEntry& e : factories()) out.push_back(e.info);
    return out;
  }();
  return infos;
}

bool isSolverName(std::string_view name) {
  for (const SolverFactoryEntry& e : factories())
    if (e.info.name == name) return true;
  return false;
}

std::vector<std::string> hybridSolverNames() {
  static const std::vector<std::string> names = [] {
    const Tree empty;  // what a solver computes does not depend on the tree
    std::vector<std::string> out;
    for (const SolverFactoryEntry& e : factories())
      if (e.make(empty)->supportsHybrid()) out.push_back(e.info.name);
    return out;
  }();
  return names;
}

std::unique_ptr<Solver> makeSolver(std::string_view name, const Tree& tree) {
  for (const SolverFactoryEntry& e : factories())
    if (e.info.name == name) return applySolverPerturbationForTesting(e.make(tree));
  std::string known;
  for (const SolverFactoryEntry& e : factories()) known += (known.empty() ? "" : ", ") + e.info.name;
  throw std::invalid_argument("unknown solver '" + std::string(name) + "' (expected one of: " + known + ")");
}

}  // namespace kt
