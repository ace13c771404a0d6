// SPDX-License-Identifier: BSD-3-Clause
// The algorithm stepper (docs/teaching.md, "Watch an algorithm work"): an algorithm run once at
// one state, recorded as the steps it takes body by body, each with the quantities it computes
// under their names in docs/dynamics.md, its equation, and what it hands to the next body.
//
// The numbers are the solvers' own:
//  - ABA: AbaSolver run with its pass-2 observer (I^A_i, p^A_i, I^a_i, p^a_i, the parent's sums as
//    they grow), its records U_i, D_i⁻¹, u_i, its kinematics, accelerations, q̈ and loads;
//  - RNEA: kt::inverseDynamics with its bodies' own wrenches (netWrenches), ws.kin.v, ws.a, loads;
//  - CRBA + Cholesky: the calls CrbaSolver makes (biasForces, massMatrix, Eigen's LLT), in its order;
//  - Poisson sweep: poisson-sweep's impulseFromVelocity and impulseDynamics, and its records;
//  - CFA: the loads and q̈ of cfa-tree (cfa-oddeven for its rounds); the elimination of
//    A = Tᵀ Φ T as cfa-dense assembles it, joint by joint in the order chosen or round by round,
//    with the blocks' fill as it happens.
// Derived quantities the solvers never store (a'_i in ABA's pass 3, the wrench handed to a parent)
// are formed by the solvers' own functions on their stored inputs.
#pragma once

#include <string>
#include <vector>

#include "core/dynamics/solver.hpp"
#include "core/model/tree.hpp"

namespace kt {

enum class TracedAlgorithm {
  Aba,           ///< articulated-body algorithm: 3 passes, then the loads
  Rnea,          ///< recursive Newton–Euler: 2 passes
  CrbaCholesky,  ///< composite inertias, M column by column, Cholesky M = L Lᵀ, solve
  Cfa,           ///< CFA on a tree: body sweep, elimination of A, back substitution
  PoissonSweep,  ///< Ivanov's sweep in Poisson impulses: ν and ṗ from p = M ν, then the loads
};

/// The elimination order the CFA's steps take (Cfa only).
enum class EliminationOrder {
  LeavesFirst,  ///< cfa-tree's: children before parents, no fill
  RootFirst,    ///< parents before children: fills the couplings of siblings' subtrees
  OddEven,      ///< cfa-oddeven's rounds on each chain segment: fills rows 2, 4, 8 … apart
};

/// One quantity a step computes.
struct TracedValue {
  enum class Kind {
    Motion,       ///< a spatial motion vector [ω; v] in the body's axes (drawn as arrows)
    Force,        ///< a spatial force vector [n; f] in the body's axes (drawn as arrows)
    Matrix,       ///< a matrix (an inertia, a block of A, U_i, …)
    Coordinates,  ///< joint coordinates (q̈_i, τ_i, λ_i, u_i)
  };
  std::string symbol;   ///< as docs/dynamics.md writes it: "I^A_i", "p^a_i", "q̈_i"
  std::string meaning;  ///< one line
  Kind kind = Kind::Matrix;
  Eigen::MatrixXd value;
  /// The body whose axes a Motion or Force is in (the visited body, or the parent for what was
  /// handed over).
  int body = -1;
  /// What a Motion or Force measures, which gives the units of its halves (spatialUnits).
  enum class Quantity { Velocity, Acceleration, Wrench, Momentum };
  Quantity quantity = Quantity::Velocity;
};

/// The units of a spatial value's angular and linear halves: rad/s and m/s, rad/s² and m/s²,
/// N·m and N, N·m·s and N·s.
struct SpatialUnits {
  const char* angular;
  const char* linear;
};
SpatialUnits spatialUnits(TracedValue::Quantity quantity);

/// One step: a pass's visit of one body (or, in the Cholesky and the CFA's elimination, one joint).
struct TracedStep {
  int pass = 0;                   ///< index into AlgorithmTrace::passes
  int body = -1;                  ///< tree index of the body visited (its joint, where the step is a joint's)
  std::vector<int> targets;       ///< the bodies the step hands its result to (the parent, or the children)
  std::string handed;             ///< what is handed to `targets`, in symbols
  bool takesFromTargets = false;  ///< the step takes from `targets` instead (cfa-oddeven's rounds)
  std::string equation;           ///< the step's equations in symbols
  std::string filled;             ///< the same with the numbers filled in, where they are scalars (else empty)
  std::vector<TracedValue> values;
  /// Elimination steps (CrbaCholesky's factor, Cfa's A): the matrix as it stands after the step,
  /// and each entry's state (kPattern*).
  Eigen::MatrixXd matrix;
  Eigen::MatrixXi pattern;
  /// What the matrix rows are (coordinates "J12[0]" or reaction coordinates "J12.fy").
  std::vector<std::string> labels;
  std::vector<int> blockStarts;
  long fill = 0;  ///< entries (one triangle) filled so far
};

/// Entry states of TracedStep::pattern.
inline constexpr int kPatternZero = 0;        ///< zero in the matrix and not filled
inline constexpr int kPatternNonzero = 1;     ///< nonzero in the original matrix
inline constexpr int kPatternFill = 2;        ///< zero in the original, nonzero in the factor: fill
inline constexpr int kPatternEliminated = 3;  ///< a row and column already eliminated (factor entry)
inline constexpr int kPatternPivot = 4;       ///< the block eliminated at this step

struct AlgorithmTrace {
  TracedAlgorithm algorithm = TracedAlgorithm::Aba;
  std::vector<std::string> passes;  ///< "pass 1, base to tip: velocities"
  std::vector<TracedStep> steps;
  VectorX qdd;       ///< the algorithm's result (RNEA: the q̈ given)
  VectorX tau;       ///< RNEA: the τ it computes; otherwise the τ given
  JointLoads loads;  ///< every joint's load, from the algorithm's own last pass
  /// PoissonSweep: the impulses p = M ν of the state, the ν it gives back and ṗ.
  VectorX impulses, velocities, impulseRates;
  /// The first step of each pass.
  int passStart(int pass) const;
};

/// Runs `algorithm` at (q, ν, τ) — RNEA at (q, ν, q̈) with `qddForRnea` — and records its steps.
AlgorithmTrace traceAlgorithm(TracedAlgorithm algorithm, const Tree& tree, const VectorX& q, const VectorX& v,
                              const VectorX& tau, const VectorX& qddForRnea, ExternalWrenches fext = {},
                              EliminationOrder order = EliminationOrder::LeavesFirst);

/// "ABA", "RNEA", …: the name the stepper's list shows.
std::string tracedAlgorithmName(TracedAlgorithm algorithm);

}  // namespace kt
