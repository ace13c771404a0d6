// SPDX-License-Identifier: BSD-3-Clause
// One interface for every forward-dynamics solver (docs/architecture.md, "Solvers: one interface").
//
// A solver is built for one Tree and owns a workspace sized once in its constructor; calls
// allocate nothing. Two state forms:
//   Velocity: state (q, ν); the solver gives ν̇ = q̈ (docs/dynamics.md §4–5).
//   Impulse:  state (q, p), p = M(q) ν the Poisson impulses; the solver gives ν and ṗ
//             (docs/dynamics.md §6, Ivanov 2017).
// Both forms can report q̈ and the joint loads (docs/dynamics.md §3).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/tree.hpp"

namespace kt {

using VectorX = Eigen::VectorXd;
using MatrixX = Eigen::MatrixXd;

/// Wrenches applied to bodies, one per body, [moment; force] in body coordinates at the body
/// origin. An empty span means none. The tree's constant applied wrenches and gravity are
/// always added by the solver.
using ExternalWrenches = std::span<const Vec6>;

/// What every joint transmits from its parent into the subtree of its child (docs/dynamics.md §3).
struct JointLoads {
  std::vector<Vec6> f;       ///< (nb) wrench at the joint origin, child-joint (body) coordinates
  std::vector<Vec6> fWorld;  ///< (nb) the same wrench at the joint origin, world axes
  VectorX tau;               ///< (nv) actuation part τ_i = S_iᵀ f_i
  VectorX lambda;            ///< (nlambda) reaction part λ_i = T_iᵀ f_i (T orthonormal)

  void resize(const Tree& tree);
};

struct Kinematics;  // core/dynamics/kinematics.hpp

enum class StateForm { Velocity, Impulse };

class Solver {
 public:
  explicit Solver(const Tree& tree) : tree_(&tree) {}
  virtual ~Solver() = default;
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  virtual std::string_view name() const = 0;
  virtual StateForm stateForm() const { return StateForm::Velocity; }
  const Tree& tree() const { return *tree_; }

  /// Forward dynamics: q̈ (nv) from q (nq), ν (nv), τ (nv) and applied wrenches; joint loads
  /// when `loads` is not null (sized by the caller with JointLoads::resize).
  virtual void forwardDynamics(const VectorX& q, const VectorX& v, const VectorX& tau, ExternalWrenches fext,
                               VectorX& qdd, JointLoads* loads) = 0;

  /// Hybrid dynamics (prescribed motion, Featherstone 2008 §9.2): the joints with prescribed[i]
  /// ≠ 0 (tree order, nb entries) follow the q̈ given in their entries of `qdd`; the others move
  /// under the τ given in their entries of `tau`. On return `qdd` holds every coordinate's q̈ and
  /// `tau` every coordinate's generalized force, for a prescribed joint the force it must supply
  /// (its required effort); the joint loads when asked. With every joint prescribed this is
  /// inverse dynamics. Only solvers with supportsHybrid() compute it; the others throw
  /// std::logic_error.
  virtual bool supportsHybrid() const { return false; }
  virtual void hybridDynamics(const VectorX& q, const VectorX& v, VectorX& tau, ExternalWrenches fext,
                              std::span<const char> prescribed, VectorX& qdd, JointLoads* loads);

  /// The kinematics of the last call that computed joint loads, whole (computeKinematics with the
  /// world poses, at that call's q and ν), for callers that need them too; nullptr when the solver
  /// keeps no such record (the default) or the last call did not compute them.
  virtual const Kinematics* kinematics() const { return nullptr; }

  /// From now on, leaves the loads' world axes out where the solver can (JointLoads::fWorld is
  /// then left as it was), for a caller that derives them from the body poses itself
  /// (SignalDeriver: kernels::rotateBackFormed on computeKinematics' ⁱE_0). Returns whether it
  /// does; a solver may only where its own fWorld is that, bit for bit (the default: no).
  virtual bool omitWorldLoads() { return false; }

  /// Impulse form only: p = M(q) ν.
  virtual void impulseFromVelocity(const VectorX& q, const VectorX& v, VectorX& p);
  /// Impulse form only: ν = M(q)⁻¹ p, and ṗ (docs/dynamics.md §6). q̈ and loads when asked.
  virtual void impulseDynamics(const VectorX& q, const VectorX& p, const VectorX& tau, ExternalWrenches fext,
                               VectorX& v, VectorX& pdot, VectorX* qdd, JointLoads* loads);

 protected:
  const Tree* tree_;
};

struct SolverInfo {
  std::string name;         ///< registry name: "aba", "crba", "cfa-tree", …
  std::string description;  ///< one line, for menus and --help
  StateForm form = StateForm::Velocity;
};

/// Every solver the engine has, in menu order.
const std::vector<SolverInfo>& solverRegistry();
/// True when `name` is in the registry.
bool isSolverName(std::string_view name);
/// The registry names of the solvers that compute hybrid dynamics (prescribed motions), in menu order.
std::vector<std::string> hybridSolverNames();
/// Builds a solver for `tree` (which must outlive it). Throws std::invalid_argument for an unknown name.
std::unique_ptr<Solver> makeSolver(std::string_view name, const Tree& tree);

/// Registration hook used by each solver's .cpp (static registration in one table).
struct SolverFactoryEntry {
  SolverInfo info;
  std::unique_ptr<Solver> (*make)(const Tree&);
};

}  // namespace kt
