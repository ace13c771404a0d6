// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"

namespace kt {

using Eigen::VectorXd;

namespace {

// True when every value is finite: x · 0 is 0 for a finite x and NaN for ±∞ or NaN, and a NaN
// stays in a sum. Four sums the compiler may keep in two lanes each: a test per value costs about
// one instruction, where std::isfinite value by value (and Eigen's allFinite) cost seven.
bool allFinite(const double* row, int size) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int k = 0;
  for (; k + 4 <= size; k += 4)
    for (int j = 0; j < 4; ++j) s[j] += row[k + j] * 0.0;
  for (; k < size; ++k) s[0] += row[k] * 0.0;
  return (s[0] + s[1]) + (s[2] + s[3]) == 0.0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The ODE the integrators see: x = (q, y), y = ν or p.
//   velocity form: ẋ = (G(q) ν, q̈),  q̈ = FD(q, ν, τ(t, q, ν))
//   impulse form:  ẋ = (G(q) ν, ṗ),  (ν, ṗ₀) = impulseDynamics(q, p, τ = 0), ṗ = ṗ₀ + τ(t, q, ν)
//   prescribed motions (velocity form only): the prescribed coordinates of q and ν are replaced
//     by the motion's at t, and q̈ = HD(q, ν, τ, q̈_prescribed) (Solver::hybridDynamics)
//   interactions: their wrenches at (t, q, ν) go to the solver as fext (the impulse form first
//     finds ν = M⁻¹ p, which no wrench changes, then ṗ with them)
class Simulator::System final : public OdeSystem {
 public:
  System(const Tree& tree, Solver& solver, const Drives& drives, const PrescribedMotions& motions,
         const Interactions& interactions, bool impulse)
      : tree_(tree),
        solver_(solver),
        drives_(drives),
        motions_(motions),
        interactions_(interactions),
        impulse_(impulse) {
    q_.setZero(tree.nq);
    y_.setZero(tree.nv);
    v_.setZero(tree.nv);
    rate_.setZero(tree.nv);
    tau_.setZero(tree.nv);
    zero_.setZero(tree.nv);
    xPrimed_.setZero(tree.nq + tree.nv);
    vPrimed_.setZero(tree.nv);
    ratePrimed_.setZero(tree.nv);
    fext_.assign(static_cast<std::size_t>(tree.nb), Vec6::Zero());
    kin_.resize(tree);
    for (int i = 0; i < tree.nb; ++i)
      if (tree.joints[i].hasQuaternion()) quaternionJoints_.push_back(i);
  }

  int stateSize() const override { return tree_.nq + tree_.nv; }

  void derivative(double t, const VectorXd& x, VectorXd& xdot) override {
    const int nq = tree_.nq, nv = tree_.nv;
    q_ = x.head(nq);
    y_ = x.tail(nv);
    if (primed_ && t == tPrimed_ && x == xPrimed_) {
      // the state of the last output: its solver call already gave this derivative (RK4's k₁)
      // ν of the output: the impulse form's, or with the prescribed coordinates' q̇ in it
      positionDerivative(q_, impulse_ || !motions_.empty() ? vPrimed_ : y_, xdot);
      xdot.tail(nv) = ratePrimed_;
      return;
    }
    if (!motions_.empty()) {
      motions_.apply(t, q_.data(), y_.data(), rate_.data());
      drives_.evaluate(t, q_, y_, tau_);
      solver_.hybridDynamics(q_, y_, tau_, applied(t, q_, y_), motions_.mask(), rate_, nullptr);
      positionDerivative(q_, y_, xdot);
      xdot.tail(nv) = rate_;
    } else if (!impulse_) {
      drives_.evaluate(t, q_, y_, tau_);
      solver_.forwardDynamics(q_, y_, tau_, applied(t, q_, y_), rate_, nullptr);
      positionDerivative(q_, y_, xdot);
      xdot.tail(nv) = rate_;
    } else {
      solver_.impulseDynamics(q_, y_, zero_, {}, v_, rate_, nullptr, nullptr);
      if (!interactions_.empty())
        solver_.impulseDynamics(q_, y_, zero_, applied(t, q_, v_), v_, rate_, nullptr, nullptr);
      drives_.evaluate(t, q_, v_, tau_);
      positionDerivative(q_, v_, xdot);
      xdot.tail(nv) = rate_ + tau_;
    }
  }

  /// The derivative at (t, x) as an output evaluation found it: q̈ (velocity form) or the
  /// velocity ν and ṗ with the drive forces (impulse form). The next derivative() at exactly this
  /// (t, x), the first stage of the next fixed step, takes it instead of calling the solver again.
  void prime(double t, const VectorXd& x, const VectorXd& v, const VectorXd& rate, const VectorXd* tau = nullptr) {
    tPrimed_ = t;
    xPrimed_ = x;
    vPrimed_ = v;
    ratePrimed_ = rate;
    if (tau) ratePrimed_ += *tau;
    primed_ = true;
  }
  void forgetPrimed() { primed_ = false; }

  /// The interactions' wrenches at (t, q, ν) for the solver: none (an empty span) without
  /// interactions, otherwise fext_ (with the kinematics of the state when they need it).
  ExternalWrenches applied(double t, const VectorXd& q, const VectorXd& v) {
    if (interactions_.empty()) return {};
    const Kinematics* kin = nullptr;
    if (interactions_.needsKinematics()) {
      computeKinematics(tree_, q, v, kin_);
      kin = &kin_;
    }
    interactions_.wrenches(t, kin, fext_);
    return fext_;
  }

  void normalize(VectorXd& x) override {
    for (int i : quaternionJoints_) tree_.joints[i].normalize(x.data() + tree_.qOffset[i]);
  }

 private:
  // q̇ = G(q) ν joint by joint (JointModel::positionDerivative) into the head of xdot.
  void positionDerivative(const VectorXd& q, const VectorXd& v, VectorXd& xdot) const {
    for (int i = 0; i < tree_.nb; ++i) {
      const JointModel& joint = tree_.joints[i];
      if (joint.nq == 0) continue;
      joint.positionDerivative(q.data() + tree_.qOffset[i], v.data() + tree_.vOffset[i],
                               xdot.data() + tree_.qOffset[i]);
    }
  }

  const Tree& tree_;
  Solver& solver_;
  const Drives& drives_;
  const PrescribedMotions& motions_;
  const Interactions& interactions_;
  bool impulse_;
  std::vector<int> quaternionJoints_;
  std::vector<Vec6> fext_;                  ///< (nb) the interactions' wrenches of the last applied()
  Kinematics kin_;                          ///< of the state, for the interactions
  VectorXd q_, y_, v_, rate_, tau_, zero_;  ///< (nq), (nv)…: scratch, sized once
  bool primed_ = false;
  double tPrimed_ = 0.0;
  VectorXd xPrimed_, vPrimed_, ratePrimed_;  ///< (nq + nv), (nv), (nv): see prime()
};

// ---------------------------------------------------------------------------------------------

SimulatorOptions SimulatorOptions::fromSettings(const SimulationSettings& settings) {
  SimulatorOptions o;
  o.solver = settings.solver;
  o.integrator = settings.integrator;
  o.step = settings.step;
  o.tolerance = settings.tolerance;
  return o;
}

Simulator::Simulator(Model model, SimulatorOptions options)
    : model_(std::move(model)), tree_(std::make_unique<Tree>()), options_(std::move(options)) {
  // the model's problems, then its simulation: block's, as the loader lists them
  std::vector<Diagnostic> problems;
  const bool finalized = finalize(model_, *tree_, problems);
  appendDiagnostics(problems, checkSimulationSettings(model_.simulation));
  if (!finalized || !problems.empty()) throw std::invalid_argument(formatDiagnostics(problems));
  if (!(options_.step > 0.0) || !std::isfinite(options_.step))
    throw std::invalid_argument("the step must be a positive number of seconds (got " +
                                formatSignificant(options_.step, 6) + ")");
  if (!(options_.outputInterval >= 0.0) || !std::isfinite(options_.outputInterval))
    throw std::invalid_argument("the output interval must be positive or 0");
  if (!(options_.tolerance > 0.0) || !(options_.absTolerance >= 0.0))
    throw std::invalid_argument("the tolerance must be positive (got " + formatSignificant(options_.tolerance, 6) +
                                ")");
  const Tree& tree = *tree_;
  solver_ = makeSolver(options_.solver, tree);
  integrator_ = makeIntegrator(options_.integrator);
  impulse_ = solver_->stateForm() == StateForm::Impulse;
  tables_ = std::make_unique<MotionTables>(model_.sourceDirectory);
  drives_ = std::make_unique<Drives>(model_, tree, tables_.get());
  motions_ = std::make_unique<PrescribedMotions>(model_, tree, *tables_);
  if (!motions_->empty() && !solver_->supportsHybrid()) {
    std::string able;
    for (const std::string& name : hybridSolverNames()) able += (able.empty() ? "" : ", ") + name;
    throw std::invalid_argument("the solver " + options_.solver + " cannot compute prescribed motions (joint '" +
                                tree.jointNames[motions_->joints().front()] + "' follows one); use " + able);
  }
  inverse_ = motions_->all();
  interactions_ = std::make_unique<Interactions>();
  system_ = std::make_unique<System>(tree, *solver_, *drives_, *motions_, *interactions_, impulse_);
  // a recording run derives the world axes of the loads too where the solver can leave them out:
  // not with every joint prescribed, where the RNEA gives them
  signals_ = SignalLayout(tree, options_.interactions,
                          options_.record && options_.deriveWorldLoads && !inverse_ && solver_->omitWorldLoads());
  // chunks of 1,024 rows, fewer where rows are wide, so that one chunk stays within 8 MiB
  const std::size_t rowBytes = sizeof(double) * static_cast<std::size_t>(std::max(1, signals_.size()));
  const std::size_t chunkRows = std::clamp<std::size_t>((std::size_t{8} << 20) / rowBytes, 1, 1024);
  recorder_ = std::make_unique<Recorder>(signals_.size(), tree.nq, tree.nv, chunkRows);
  deriver_ = std::make_unique<SignalDeriver>(tree, signals_);
  recorderDeriver_ = std::make_unique<SignalDeriver>(tree, signals_);
  recorder_->setDeriver(
      [derive = recorderDeriver_.get()](double* row, const double* previous) { derive->derive(row, previous); });

  // output interval and integrator steps
  IntegratorSettings is;
  if (integrator_->adaptive()) {
    outputInterval_ = options_.outputInterval > 0.0 ? options_.outputInterval : options_.step;
    is.step = 0.0;  // automatic starting step
    is.relTolerance = options_.tolerance;
    is.absTolerance = options_.absTolerance > 0.0 ? options_.absTolerance : options_.tolerance;
    is.minStep = options_.minStep;
  } else {
    outputInterval_ = options_.outputInterval > 0.0 ? options_.outputInterval : options_.step;
    substeps_ = std::max(1, static_cast<int>(std::lround(outputInterval_ / options_.step)));
    is.step = outputInterval_ / substeps_;
  }
  const int n = tree.nq + tree.nv;
  integrator_->resize(n, is);
  x_.setZero(n);
  xOut_.setZero(n);
  xLast_.setZero(n);

  // current state and its scratch twins (outputs are computed in the twins, then swapped in)
  for (VectorXd* v : {&q_, &qS_}) v->setZero(tree.nq);
  for (VectorXd* v : {&v_, &qdd_, &tau_, &p_, &pdot_, &zeroTau_, &vS_, &qddS_, &tauS_, &pS_}) v->setZero(tree.nv);
  loads_.resize(tree);
  loadsS_.resize(tree);
  fext_.assign(static_cast<std::size_t>(tree.nb), Vec6::Zero());
  appliedWorld_ = fext_;
  kin_.resize(tree);
  sample_.assign(signals_.size(), 0.0);
  sampleS_.assign(signals_.size(), 0.0);
  samplePrevious_.assign(signals_.size(), 0.0);
  // the order in which a bad sample is described: the drive forces first (a bad τ spoils q̈)
  for (int k = 0; k < signals_.size(); ++k)
    if (signals_.infos()[k].kind == SignalKind::Tau) checkOrder_.push_back(k);
  for (int k = 0; k < signals_.size(); ++k)
    if (signals_.infos()[k].kind != SignalKind::Tau) checkOrder_.push_back(k);
  reset();
}

Simulator::~Simulator() = default;

void Simulator::reset() {
  const Tree& tree = *tree_;
  error_.clear();
  t_ = 0.0;
  tInt_ = 0.0;
  outputIndex_ = 0;
  x_.head(tree.nq) = tree.initialQ;
  x_.tail(tree.nv) = tree.initialV;
  // prescribed joints start where their motion is at t = 0 (a different q0 is a model warning)
  motions_->apply(0.0, x_.data(), x_.data() + tree.nq, nullptr);
  system_->normalize(x_);
  if (impulse_) {
    const VectorXd q0 = x_.head(tree.nq);
    solver_->impulseFromVelocity(q0, tree.initialV, p_);
    x_.tail(tree.nv) = p_;
  }
  rows_ = 0;  // the first output's attitude angles start the run's
  interactions_->clear();
  // the model's drives again where the run changed them
  for (int joint : changedDrives_)
    drives_->setDrive(
        joint, model_.bodies[static_cast<std::size_t>(tree.specIndex[static_cast<std::size_t>(joint)])].joint.drive);
  changedDrives_.clear();
  events_.clear();
  nextScheduled_ = 0;
  system_->forgetPrimed();
  recorder_->clear();
  integrator_->start(*system_, tInt_, x_);
  // The first row is the initial state exactly: in the impulse form ν is the model's ν₀, not
  // M⁻¹(M ν₀) (docs/signals.md: the t = 0 row).
  output(0.0, x_, impulse_ ? &tree.initialV : nullptr);
  applyDueEvents();  // a replay's events at t = 0
}

void Simulator::setDrive(int joint, const Drive& drive) {
  drives_->setDrive(joint, drive);
  system_->forgetPrimed();  // τ changed: the last output's derivative no longer holds
  if (!ok()) return;
  x_ = xLast_;
  tInt_ = t_;
  integrator_->start(*system_, tInt_, x_);
}

void Simulator::interact(InteractionEvent event) {
  // a push whose start has passed (a dialog left open while the run went on) starts now, whole:
  // none of a pulse is lost before it applies; the event recorded says so, so a replay is the same
  if (event.kind == InteractionKind::Push && event.start < t_) event.start = t_;
  apply(std::move(event));
}

void Simulator::apply(InteractionEvent event) {
  if (!options_.interactions)
    throw std::invalid_argument("this run does not take interactions (SimulatorOptions::interactions)");
  event.t = t_;
  interactions_->apply(event, *tree_);  // throws for an event the model cannot take
  if (event.kind == InteractionKind::Pose) checkPose(event.body);
  if (event.kind == InteractionKind::Drive) {
    drives_->setDrive(event.body, event.drive);
    if (std::find(changedDrives_.begin(), changedDrives_.end(), event.body) == changedDrives_.end())
      changedDrives_.push_back(event.body);
  }
  events_.push_back(event);
  system_->forgetPrimed();  // the wrenches changed: the last output's derivative no longer holds
  if (!ok()) return;
  x_ = xLast_;
  if (event.kind == InteractionKind::Pose) {
    // the joint's positions jump, every velocity stays (an impulse solver's p follows from ν at
    // the new q), and the sample at t_ becomes the posed state's
    const Tree& tree = *tree_;
    const int i = event.body;
    std::copy(event.position.begin(), event.position.end(), x_.data() + tree.qOffset[i]);
    system_->normalize(x_);
    const VectorXd v = v_;
    if (impulse_) {
      const VectorXd q = x_.head(tree.nq);
      VectorXd p(tree.nv);
      solver_->impulseFromVelocity(q, v, p);
      x_.tail(tree.nv) = p;
    }
    if (!output(t_, x_, impulse_ ? &v : nullptr, true)) return;
  }
  tInt_ = t_;
  integrator_->start(*system_, tInt_, x_);
}

void Simulator::checkPose(int joint) const {
  const std::vector<int>& prescribed = motions_->joints();
  if (std::find(prescribed.begin(), prescribed.end(), joint) != prescribed.end())
    throw std::invalid_argument("joint '" + tree_->jointNames[static_cast<std::size_t>(joint)] +
                                "' follows a prescribed motion: its position cannot be set");
}

void Simulator::scheduleEvents(std::vector<InteractionEvent> events) {
  if (!options_.interactions && !events.empty())
    throw std::invalid_argument("this run does not take interactions (SimulatorOptions::interactions)");
  std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
  // every event must apply when its time comes: a step does not stop halfway for a bad one
  std::vector<int> inForce;
  for (const InteractionEvent& e : events) {
    const auto at = [&] { return "the event at t = " + formatSignificant(e.t, 9) + " s: "; };
    if (const std::string problem = checkInteractionEvent(e, *tree_); !problem.empty())
      throw std::invalid_argument(at() + problem);
    if (e.kind == InteractionKind::Pose) try {
        checkPose(e.body);
      } catch (const std::invalid_argument& ex) {
        throw std::invalid_argument(at() + ex.what());
      }
    const auto same = std::find(inForce.begin(), inForce.end(), e.id);
    if (e.kind == InteractionKind::Release) {
      if (same == inForce.end())
        throw std::invalid_argument(at() + "no push or drag with id " + std::to_string(e.id) + " is in force");
      inForce.erase(same);
    } else if ((e.kind == InteractionKind::Push || e.kind == InteractionKind::Drag) && same == inForce.end()) {
      inForce.push_back(e.id);
    }
  }
  schedule_ = std::move(events);
  nextScheduled_ = 0;
  while (nextScheduled_ < schedule_.size() && schedule_[nextScheduled_].t < t_ - 1e-9 * outputInterval_)
    ++nextScheduled_;  // already past
  applyDueEvents();    // those at the current time, before its sample is read
}

void Simulator::applyDueEvents() {
  while (nextScheduled_ < schedule_.size() && schedule_[nextScheduled_].t <= t_ + 1e-9 * outputInterval_)
    apply(schedule_[nextScheduled_++]);  // as recorded: a replay changes nothing of an event
}

double Simulator::tableEnd() const { return std::min(motions_->lastTime(), drives_->lastTableTime()); }

bool Simulator::tablesCover(double duration) const { return outputsWithin(duration, outputInterval_, tableEnd()); }

std::string Simulator::tableEndMessage() const {
  if (motions_->lastTime() <= drives_->lastTableTime())
    return "the motion of joint '" + tree_->jointNames[motions_->lastTimeJoint()] + "' is read from " +
           motions_->lastTimeFile() + ", whose samples end at t = " + formatSignificant(motions_->lastTime(), 9) +
           " s on line " + std::to_string(motions_->lastTimeLine());
  return "the drive of joint '" + tree_->jointNames[drives_->lastTableJoint()] + "' is read from " +
         drives_->lastTableFile() + ", whose samples end at t = " + formatSignificant(drives_->lastTableTime(), 9) +
         " s on line " + std::to_string(drives_->lastTableLine());
}

bool Simulator::fail(double t, const std::string& what) {
  error_ = "t = " + formatSignificant(t, 6) + " s, solver " + options_.solver + ": " + what;
  return false;
}

bool Simulator::step() {
  if (!ok()) return false;
  const double tNext = static_cast<double>(outputIndex_ + 1) * outputInterval_;
  const bool adaptive = integrator_->adaptive();
  const double tEnd = adaptive ? std::numeric_limits<double>::infinity() : tNext;
  if (inverse_) {
    // every coordinate follows its motion: nothing to integrate (evaluate() sets q and ν)
    tInt_ = tNext;
    if (!output(tNext, x_)) return false;
    ++outputIndex_;
    if (nextScheduled_ < schedule_.size()) applyDueEvents();
    return ok();
  }
  while (tInt_ < tNext) {
    const double tBefore = tInt_;
    const StepStatus status = integrator_->step(*system_, tInt_, x_, tEnd);
    if (status == StepStatus::Accepted) continue;
    if (status == StepStatus::StepTooSmall)
      return fail(tBefore, "step size too small at t = " + formatSignificant(tBefore, 6) + " s: the " +
                               options_.integrator + " step fell below the minimum (" +
                               formatSignificant(integrator_->stepSize(), 6) + " s at tolerance " +
                               formatSignificant(options_.tolerance, 6) + "); " + diagnose());
    return fail(tBefore, diagnose());
  }
  if (adaptive) {
    integrator_->interpolate(tNext, xOut_);
    system_->normalize(xOut_);
  } else {
    xOut_ = x_;
  }
  if (!output(tNext, xOut_)) return false;
  ++outputIndex_;
  // the replay's events of this time, before its sample is read (a pose changes it)
  if (nextScheduled_ < schedule_.size()) applyDueEvents();
  return ok();
}

bool Simulator::advanceTo(double t) {
  while (t_ < t - 1e-9 * outputInterval_)
    if (!step()) return false;
  return ok();
}

bool Simulator::evaluate(double t, const VectorXd& x, const VectorXd* exactV, bool replace) {
  const Tree& tree = *tree_;
  qS_ = x.head(tree.nq);
  if (impulse_) {
    pS_ = x.tail(tree.nv);
    solver_->impulseDynamics(qS_, pS_, zeroTau_, {}, vS_, pdot_, nullptr, nullptr);
    const ExternalWrenches fext = applied(t, qS_, vS_);
    if (!fext.empty()) solver_->impulseDynamics(qS_, pS_, zeroTau_, fext, vS_, pdot_, nullptr, nullptr);
    drives_->evaluate(t, qS_, vS_, tauS_);
    system_->prime(t, x, vS_, pdot_, &tauS_);
    solver_->impulseDynamics(qS_, pS_, tauS_, fext, vS_, pdot_, &qddS_, &loadsS_);
    // the recorded state and what follows from it (energy, momentum) take the exact ν; the
    // integrator keeps the derivative of the state it integrates, (q, p)
    if (exactV) vS_ = *exactV;
  } else if (!motions_->empty()) {
    vS_ = x.tail(tree.nv);
    motions_->apply(t, qS_.data(), vS_.data(), qddS_.data());
    drives_->evaluate(t, qS_, vS_, tauS_);
    solver_->hybridDynamics(qS_, vS_, tauS_, applied(t, qS_, vS_), motions_->mask(), qddS_, &loadsS_);
    system_->prime(t, x, vS_, qddS_);
  } else {
    vS_ = x.tail(tree.nv);
    drives_->evaluate(t, qS_, vS_, tauS_);
    solver_->forwardDynamics(qS_, vS_, tauS_, applied(t, qS_, vS_), qddS_, &loadsS_);
    system_->prime(t, x, vS_, qddS_);
  }
  // A run that records leaves the derived signals to its recorder, which computes them when they
  // are read; otherwise they are computed here, from the solver's own kinematics when it kept
  // them whole for this state (the same pass).
  const bool derive = !options_.record;
  const bool applying = options_.interactions && !interactions_->empty();  // applied: needs the poses
  const Kinematics* kin = nullptr;
  if (derive || applying) {
    kin = solver_->kinematics();
    if (!kin) {
      computeKinematics(tree, qS_, vS_, kin_);
      kin = &kin_;
    }
  }
  if (options_.interactions)
    for (int i = 0; i < tree.nb; ++i) {
      const auto n = static_cast<std::size_t>(i);
      // a body without a wrench records exact zeros (a rotated zero could be −0)
      appliedWorld_[n] = !applying || fext_[n].isZero(0.0) ? Vec6::Zero() : wrenchInWorldAxes(*kin, i, fext_[n]);
    }
  // the sample's row: in place in the recorder when it records (but a pose's, which replaces the
  // newest), where the run leaves the derived signals to its readers
  double* row = derive || replace ? sampleS_.data() : recorder_->nextRow();
  SampleInputs in;
  in.t = t;
  in.applied = &appliedWorld_;
  in.q = &qS_;
  in.v = &vS_;
  in.qdd = &qddS_;
  in.tau = &tauS_;
  in.loads = &loadsS_;
  signals_.fill(in, row);
  // the attitude angles continue from the row before: the current output's, or for a pose, which
  // replaces it, the one before that (as the recorder derives its rows)
  if (derive) {
    const std::vector<double>& previous = replace ? samplePrevious_ : sample_;
    deriver_->derive(row, rows_ > (replace ? 1 : 0) ? previous.data() : nullptr, kin);
  }
  // one pass over the columns written; only a bad one looks for the signal to name
  bool finite = true;
  if (derive)
    finite = allFinite(row, signals_.size());
  else
    for (const auto& [first, end] : signals_.measuredRanges()) finite = allFinite(row + first, end - first) && finite;
  if (finite) return true;
  for (int k : checkOrder_)
    if ((derive || !signals_.derives(signals_.infos()[static_cast<std::size_t>(k)].kind)) && !std::isfinite(row[k])) {
      badQuantity_ = signals_.names()[k] + (std::isnan(row[k]) ? " is NaN" : " is Inf");
      return false;
    }
  return true;
}

ExternalWrenches Simulator::applied(double t, const VectorXd& q, const VectorXd& v) {
  if (interactions_->empty()) return {};
  const Kinematics* kin = nullptr;
  if (interactions_->needsKinematics()) {
    computeKinematics(*tree_, q, v, kin_);
    kin = &kin_;
  }
  interactions_->wrenches(t, kin, fext_);
  return fext_;
}

bool Simulator::output(double t, const VectorXd& x, const VectorXd* exactV, bool replace) {
  if (!evaluate(t, x, exactV, replace)) return fail(t, badQuantity_);
  q_.swap(qS_);
  v_.swap(vS_);
  qdd_.swap(qddS_);
  tau_.swap(tauS_);
  if (impulse_) p_.swap(pS_);
  std::swap(loads_, loadsS_);
  loadsWhole_ = !signals_.derives(SignalKind::LoadWorld);
  if (!replace) {
    samplePrevious_.swap(sample_);
    ++rows_;
  }
  sample_.swap(sampleS_);
  sampleDerived_ = !options_.record;
  xLast_ = x;
  t_ = t;
  if (options_.record) {
    if (replace)
      recorder_->replaceLatest(sample_.data(), t_, q_, v_);
    else
      recorder_->publish(t_, q_, v_);  // evaluate() wrote the row in the recorder's next
  }
  return true;
}

const JointLoads& Simulator::loads() const {
  if (!loadsWhole_) {
    signals_.worldWrenchesFromRow(sample().data(), loads_.fWorld);
    loadsWhole_ = true;
  }
  return loads_;
}

const std::vector<double>& Simulator::sample() const {
  if (!sampleDerived_ && recorder_->size() > 0) {
    // a recording run: the recorder's newest row is this sample, derived in order with the rows before
    const std::size_t n = recorder_->size();
    recorder_->copyRows(n - 1, n, sample_.data());
    sampleDerived_ = true;
  }
  return sample_;
}

std::string Simulator::diagnose() {
  // the derivative at the last accepted state: τ, q̈ (or ν), the loads
  if (!evaluate(tInt_, x_)) return badQuantity_;
  // otherwise the step itself produced the bad value: name the first bad state coordinate
  const Tree& tree = *tree_;
  const VectorXd& trial = integrator_->trialState();
  for (Eigen::Index i = 0; i < trial.size(); ++i) {
    if (std::isfinite(trial[i])) continue;
    const bool isQ = i < tree.nq;
    const int index = static_cast<int>(isQ ? i : i - tree.nq);
    std::string name = isQ ? "q" : "qd";
    for (const SignalInfo& s : signals_.infos())
      if (s.kind == (isQ ? SignalKind::Q : SignalKind::Qd) && s.index == index) {
        name = s.name;
        if (!isQ && impulse_) name = "p:" + name.substr(3);  // the impulse of that coordinate
        break;
      }
    const std::string what = name + (std::isnan(trial[i]) ? " is NaN" : " is Inf");
    if (integrator_->adaptive()) return what + " in the dopri5 trial steps down to the smallest one";
    return what + " after a " + options_.integrator + " step of " + formatSignificant(integrator_->stepSize(), 6) +
           " s (the step is probably too large)";
  }
  return "the error control rejected every step (a very stiff or singular motion)";
}

}  // namespace kt
