// SPDX-License-Identifier: BSD-3-Clause
// Simulator = Tree + solver (by registry name) + integrator (by name) + drives, stepping one
// output interval at a time and recording every signal (signals.hpp) into a Recorder.
//
// State forms (core/dynamics/solver.hpp):
//   Velocity solvers: the integrators advance x = (q, ν), ẋ = (G(q) ν, q̈).
//   Impulse solvers (Poisson impulses, Ivanov 2017): x = (q, p), ẋ = (G(q) ν, ṗ) with
//     ν = M(q)⁻¹ p from Solver::impulseDynamics. p is set from ν at reset with
//     impulseFromVelocity; every output converts back to (q, ν), so the signals, the current
//     state and the recorded samples are the same for every solver. Drives may read ν, which an
//     impulse solver only gives together with ṗ: each evaluation calls impulseDynamics with
//     τ = 0 and adds τ(t, q, ν) to ṗ (ṗ = τ + terms independent of τ, docs/dynamics.md §6); outputs
//     call it again with the drive τ for q̈ and the joint loads.
//
// Prescribed motions (docs/motion.md): the coordinates of joints with a `motion:` are set from
// q(t), q̇(t), q̈(t) at every evaluation, whatever the integrator holds for them, and the solver's
// hybrid dynamics gives the other joints' q̈ and the prescribed joints' required effort, which
// the tau: signals record. Only solvers with Solver::supportsHybrid() run such a model (the
// constructor refuses the others, naming those that can). When every joint with coordinates is
// prescribed the run is inverse dynamics: nothing is integrated, each output evaluates the
// motion and the solver once.
//
// Output times are t_k = k · outputInterval (k = 0 at reset). Fixed-step integrators take
// round(outputInterval / step) equal steps per output; dopri5 steps freely and samples its
// continuous extension at t_k (quaternions renormalized). Each output evaluates the solver once
// more (twice for impulse solvers) at the output state for q̈, τ and the joint loads.
//
// Interactions (options.interactions, core/sim/interaction.hpp): pushes and drags the user applies
// take effect at an output time through interact(), or from a schedule of events (a replay:
// scheduleEvents), and act on every evaluation from then on as applied wrenches (fext). The
// layout then has the applied:<body> signals of every body, and events() lists what was applied
// and when: replaying those events with the same solver, integrator and step gives the same
// samples, bit for bit.
//
// Failure: a non-finite derivative, state or signal, or a dopri5 step below the minimum, stops
// the run. ok() becomes false, error() says when, with which solver, and the first bad quantity
// ("t = 1.234 s, solver aba: qdd:j_elbow[0] is NaN"), and the current state stays at the last
// good output. step() and advanceTo() then return false until reset().
//
// Threading: a Simulator lives on one thread (the simulation thread): every non-const call and
// the current-state accessors belong to it. Other threads may read, while the Simulator exists,
// its recorder() (see the contract in recorder.hpp) and the immutable model(), tree(),
// signalLayout() and options().
//
// Typical use (GUI): build it on the simulation thread, recorder().reserve(expected rows), then
// loop step(); the GUI thread polls recorder().size() / copyRows() / copyColumn() for the plots
// and recorder().latest() for the 3D view, and restarts its plots when generation() changes.
#pragma once

#include <memory>
#include <string>

#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/model_files.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signal_deriver.hpp"
#include "core/results/signals.hpp"
#include "core/sim/drives.hpp"
#include "core/sim/interaction.hpp"
#include "core/sim/prescribed_motion.hpp"

namespace kt {

struct SimulatorOptions {
  std::string solver = "aba";
  std::string integrator = "rk4";
  double step = 0.002;        ///< s: fixed step of euler/rk4; the output interval of every integrator
  double outputInterval = 0;  ///< s: 0 = step (for fixed-step integrators a multiple of step)
  double tolerance = 1e-8;    ///< dopri5 relative tolerance
  double absTolerance = 0;    ///< dopri5 absolute tolerance; 0 = the relative tolerance
  double minStep = 0;         ///< dopri5 minimum step; 0 = 1e-12 · max(1, |t|)
  bool record = true;         ///< append every output sample to the recorder
  bool interactions = false;  ///< take interaction events; the layout has the applied: signals
  /// A recording run leaves the loads' world axes to its recorder where the solver can
  /// (Solver::omitWorldLoads: aba); false: the solver computes them as every solver does (runs
  /// whose step times are compared between solvers).
  bool deriveWorldLoads = true;

  /// Solver, integrator, step and tolerance from a model file's `simulation:` block.
  static SimulatorOptions fromSettings(const SimulationSettings& settings);
};

class Simulator {
 public:
  /// Validates and finalizes `model` with its mesh files (finalize, core/io/model_files.hpp), builds
  /// solver, integrator, drives and prescribed motions (reading their tables), then reset().
  /// Throws std::invalid_argument for an invalid model (the formatted diagnostics), an unknown
  /// solver or integrator name, a non-positive step or tolerance, or prescribed motions with a
  /// solver that cannot compute them; TableError (core/io/motion_table.hpp) for a bad table.
  Simulator(Model model, SimulatorOptions options);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  /// Back to the model's initial state at t = 0; clears the recorder and records the t = 0 sample.
  void reset();
  /// Advances one output interval and records the sample. False when stopped (see error()).
  bool step();
  /// Steps until time() ≥ t (up to rounding). False when stopped.
  bool advanceTo(double t);

  bool ok() const { return error_.empty(); }
  /// Why the run stopped; empty while ok().
  const std::string& error() const { return error_; }

  // ---- state at the current output time (the last good sample) ----
  double time() const { return t_; }
  long outputIndex() const { return outputIndex_; }
  double outputInterval() const { return outputInterval_; }
  const Eigen::VectorXd& q() const { return q_; }      ///< (nq)
  const Eigen::VectorXd& v() const { return v_; }      ///< (nv) joint velocities ν
  const Eigen::VectorXd& qdd() const { return qdd_; }  ///< (nv)
  const Eigen::VectorXd& tau() const { return tau_; }  ///< (nv) drive forces
  /// The joint loads of the current output. Where a recording run leaves the world axes to its
  /// recorder (load_world: derived, Solver::omitWorldLoads), fWorld is read from sample() on the
  /// first call after an output.
  const JointLoads& loads() const;
  /// The values of every signal at the current output time (signalLayout().size() values). A
  /// run that records computes the derived signals (SignalLayout::derives) when they are first read: here
  /// on the first call after an output, from the recorder, which derives its rows in order.
  const std::vector<double>& sample() const;

  const Model& model() const { return model_; }
  const Tree& tree() const { return *tree_; }
  const SignalLayout& signalLayout() const { return signals_; }
  const SimulatorOptions& options() const { return options_; }
  Solver& solver() { return *solver_; }
  const Integrator& integrator() const { return *integrator_; }
  const Drives& drives() const { return *drives_; }
  const PrescribedMotions& motions() const { return *motions_; }
  /// The last time every table (motions and drives) covers, +∞ when none: a run past it would
  /// extrapolate the samples, which callers refuse before running (tableEndMessage()).
  double tableEnd() const;
  /// True when every output of a run of `duration` s (t_k = k · outputInterval() up to the first
  /// at or past the duration, runOutputCount) lies within the tables.
  bool tablesCover(double duration) const;
  /// "the motion table FILE of joint J ends at T s": what limits tableEnd(), for messages.
  std::string tableEndMessage() const;
  /// Replaces the drive of tree joint `joint` from the current time on (live drive changes):
  /// the integrator restarts from the current output state (dopri5 forgets its cached
  /// derivative). Not allocation-free; call it between steps.
  void setDrive(int joint, const Drive& drive);
  Recorder& recorder() { return *recorder_; }
  const Recorder& recorder() const { return *recorder_; }

  /// Applies an interaction at the current output time (event.t is set to time()), gives a
  /// joint the drive of a Drive event (until reset() restores the model's), or sets a joint's
  /// position (Pose: velocities kept; the sample at time() is replaced by the posed state's,
  /// Recorder::replaceLatest), and restarts the integrator from the current output state, as
  /// setDrive does. Throws std::invalid_argument for an event the model cannot take
  /// (checkInteractionEvent, a release of an unknown id, a pose of a prescribed joint) or when
  /// the options do not take interactions. Call it between steps.
  void interact(InteractionEvent event);
  /// Events to apply during the run (a replay): each at the first output time at or past its t
  /// (within 10⁻⁹ of the interval), as soon as that sample is made (within step(), or at once
  /// for those at the current time), before it is read. Kept across reset(). Throws like
  /// interact() for an event the model cannot take, and for a release of an id no earlier
  /// push or drag started.
  void scheduleEvents(std::vector<InteractionEvent> events);
  /// The interactions applied since reset(), in order, with the times they took effect.
  const std::vector<InteractionEvent>& events() const { return events_; }
  const Interactions& interactions() const { return *interactions_; }

 private:
  class System;

  /// Stops the run: error() = "t = <t> s, solver <name>: <what>". Returns false.
  bool fail(double t, const std::string& what);
  /// Evaluates every output at (t, x) into the scratch twins; false (and badQuantity_) if one
  /// is not finite.
  /// exactV: the velocity the state holds, where it is known exactly (the initial ν of the impulse
  /// form, which M⁻¹(M ν₀) would give only to κ(M)ε); null elsewhere.
  /// replace: the output replaces the current one (a pose), whose attitude angles its own do not
  /// continue.
  bool evaluate(double t, const Eigen::VectorXd& x, const Eigen::VectorXd* exactV = nullptr, bool replace = false);
  /// evaluate(), then make it the current state and record it (in place of the newest sample
  /// with `replace`: a pose); false (and stops) if not finite.
  bool output(double t, const Eigen::VectorXd& x, const Eigen::VectorXd* exactV = nullptr, bool replace = false);
  /// Throws std::invalid_argument when tree joint `joint` cannot be posed (a prescribed motion
  /// gives its position).
  void checkPose(int joint) const;
  /// The interactions' wrenches at (t, q, ν) into fext_ (zero without interactions), as the
  /// solver takes them: an empty span when there are none.
  ExternalWrenches applied(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// Applies the scheduled events due at the current output time.
  void applyDueEvents();
  /// interact() without its adjustment of a live push: an event exactly as given.
  void apply(InteractionEvent event);
  /// Describes the first non-finite quantity at the integrator's last good state or in its
  /// failed step (for error messages).
  std::string diagnose();

  Model model_;
  std::unique_ptr<Tree> tree_;
  SimulatorOptions options_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<MotionTables> tables_;
  std::unique_ptr<Drives> drives_;
  std::unique_ptr<PrescribedMotions> motions_;
  std::unique_ptr<Interactions> interactions_;
  std::vector<InteractionEvent> events_, schedule_;
  std::size_t nextScheduled_ = 0;
  std::vector<int> changedDrives_;         ///< joints whose drive an event changed (reset() restores them)
  std::vector<Vec6> fext_, appliedWorld_;  ///< (nb) at the output: body coordinates; world axes (applied:)
  bool inverse_ = false;                   ///< every joint prescribed: outputs without integration
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<System> system_;
  SignalLayout signals_;
  /// The derived signals: of each output as it is made (a run that does not record), and of the
  /// recorder's rows when they are first read (its own: readers call it on their threads).
  std::unique_ptr<SignalDeriver> deriver_, recorderDeriver_;
  std::unique_ptr<Recorder> recorder_;
  bool impulse_ = false;

  double outputInterval_ = 0.0;
  int substeps_ = 1;
  long outputIndex_ = 0;
  double tInt_ = 0.0;      ///< integrator time (dopri5 may be ahead of t_)
  Eigen::VectorXd x_;      ///< (nq + nv) integrator state (q, ν) or (q, p)
  Eigen::VectorXd xOut_;   ///< (nq + nv) state at an output time
  Eigen::VectorXd xLast_;  ///< (nq + nv) integrator-form state of the current output

  // the current (last good) output; the ...S_ twins receive a new output before it is swapped in
  double t_ = 0.0;
  Eigen::VectorXd q_, v_, qdd_, tau_, p_;       ///< (nq), (nv)
  Eigen::VectorXd qS_, vS_, qddS_, tauS_, pS_;  ///< scratch twins
  Eigen::VectorXd pdot_, zeroTau_;              ///< (nv) impulse-form scratch
  mutable JointLoads loads_;
  JointLoads loadsS_;
  mutable bool loadsWhole_ = false;  ///< loads_.fWorld is written
  Kinematics kin_;
  mutable std::vector<double> sample_;  ///< (signals) the current output's
  std::vector<double> sampleS_;         ///< (signals) its twin
  std::vector<double> samplePrevious_;  ///< (signals) the output's before it (a run that does not record)
  mutable bool sampleDerived_ = false;  ///< sample_'s derived signals are written
  long rows_ = 0;                       ///< outputs since reset() (a pose replaces one: not counted)
  std::vector<int> checkOrder_;         ///< signals in the order a bad one is named
  std::string badQuantity_;
  std::string error_;
};

}  // namespace kt
