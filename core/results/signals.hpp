// SPDX-License-Identifier: BSD-3-Clause
// The recorded signals of a run: one value per signal per output sample. The names are the CSV
// column names and the plot names (docs/signals.md documents every one):
//
//   time
//   q:<joint>[k]  qd:<joint>[k]  qdd:<joint>[k]  tau:<joint>[k]     (k: position / velocity coordinate)
//   power:<joint>                           τᵀν, the mechanical power the joint's actuation supplies
//   load:<joint>.fx|fy|fz|mx|my|mz          joint wrench, child joint (body) frame
//   load_world:<joint>.fx|fy|fz|mx|my|mz    the same wrench, world axes
//   load_parent:<joint>.fx|fy|fz|mx|my|mz   the same wrench in the joint frame fixed to the parent
//   reaction:<joint>.mx|my|mz|fx|fy|fz      λ = Tᵀ f, the constraint part (T's columns along the
//                                           joint frame's axes; m1, m2, f1, f2 across other axes)
//   attitude:<body>.roll|pitch|yaw          free-joint bodies: ZYX angles, unwrapped
//   position:<body>.x|y|z                   free-joint bodies: body origin in world
//   energy.kinetic|potential|total
//   momentum.px|py|pz|lx|ly|lz              whole system, world axes, about the world origin
//   applied:<body>.fx|fy|fz|mx|my|mz        runs that take interactions (core/sim/interaction.hpp):
//                                           the wrench the user applies, world axes, at the body
//                                           origin
//
// load_parent:, attitude:, position:, energy. and momentum. are derived signals: they follow from
// the row's own q, ν and load: columns and the model, so a recording run leaves them to be
// computed when the row is first read (SignalDeriver, Recorder::setDeriver); so is load_world:
// where the layout is made so (its solver omits the loads' world axes, Solver::omitWorldLoads).
// Every other signal is measured, written by fill() at each output.
//
// qd is the joint velocity ν, not the derivative of q: for spherical and free joints it is the
// body-frame angular velocity (and, for free joints, the body-frame velocity of the body origin),
// for planar joints the body-frame in-plane velocity (see JointModel).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/analysis.hpp"
#include "core/dynamics/solver.hpp"

namespace kt {

enum class SignalKind {
  Time,
  Q,
  Qd,
  Qdd,
  Tau,
  Power,
  Load,
  LoadWorld,
  LoadParent,
  Reaction,
  Attitude,
  Position,
  Energy,
  Momentum,
  Applied
};

struct SignalInfo {
  std::string name;
  SignalKind kind = SignalKind::Time;
  int body = -1;       ///< tree index of the joint/body, −1 for system-wide signals
  int component = 0;   ///< coordinate, or component within the group (fx…mz = 0…5, roll/pitch/yaw = 0…2, …);
                       ///< power: the joint's number of velocity coordinates
  int index = 0;       ///< index into q, ν, λ, or the component of the source vector (power: ν's first)
  std::string unit;    ///< SI unit ("rad", "m/s", "N·m", "1" for quaternion coordinates, …)
  double scale = 1.0;  ///< reaction signals: the signal is scale · λ_index (±1, reactionComponents)
};

/// What one sample's measured signals are made of (the simulator fills it at each output time).
struct SampleInputs {
  double t = 0.0;
  const Eigen::VectorXd* q = nullptr;          ///< (nq)
  const Eigen::VectorXd* v = nullptr;          ///< (nv)
  const Eigen::VectorXd* qdd = nullptr;        ///< (nv)
  const Eigen::VectorXd* tau = nullptr;        ///< (nv) joint forces: drives, required efforts of motions
  const JointLoads* loads = nullptr;           ///< joint wrenches, λ
  const std::vector<Vec6>* applied = nullptr;  ///< (nb) applied: wrenches, world axes; with `applied` layouts
};

/// The ordered signal list of a tree.
class SignalLayout {
 public:
  SignalLayout() = default;
  /// `applied`: also the applied:<body> signals of every body, last (a run that takes interactions).
  /// `worldLoadsDerived`: load_world: is derived (SignalDeriver), not measured.
  explicit SignalLayout(const Tree& tree, bool applied = false, bool worldLoadsDerived = false);

  /// True for the kinds a SignalDeriver computes from a row's other columns.
  bool derives(SignalKind kind) const {
    return kind == SignalKind::LoadParent || kind == SignalKind::Attitude || kind == SignalKind::Position ||
           kind == SignalKind::Energy || kind == SignalKind::Momentum ||
           (kind == SignalKind::LoadWorld && worldLoadsDerived_);
  }

  int size() const { return static_cast<int>(signals_.size()); }
  const std::vector<SignalInfo>& infos() const { return signals_; }
  const std::vector<std::string>& names() const { return names_; }
  /// Index of a signal by exact name, −1 when absent.
  int find(std::string_view name) const;
  /// Free-joint bodies (tree indices), in the order of the attitude/position signals.
  const std::vector<int>& freeBodies() const { return freeBodies_; }

  /// Writes one sample's measured columns into row (size() values; the derived ones are left as
  /// they are: SignalDeriver writes them). Allocates nothing.
  void fill(const SampleInputs& in, double* row) const;
  /// Column of q[k] (nq), of ν[k] (nv), and the six columns of f_i = [moment; force] (nb).
  const std::vector<int>& qColumns() const { return qColumns_; }
  const std::vector<int>& vColumns() const { return vColumns_; }
  const std::vector<std::array<int, 6>>& loadColumns() const { return loadColumns_; }
  /// The derived columns in order (derives()), each with its kind, body, component and index.
  const std::vector<int>& derivedColumns() const { return derivedColumns_; }
  /// The measured columns as ranges [first, end) of consecutive columns, in order.
  const std::vector<std::pair<int, int>>& measuredRanges() const { return measuredRanges_; }

  // ---- reading a recorded row back (the views show a recorded time this way) ----
  /// Joint coordinates q (nq) from a row's q:<joint>[k] columns.
  void positionsFromRow(const double* row, Eigen::VectorXd& q) const;
  /// ν (kind Qd), q̈ (Qdd) or τ (Tau), nv values, from a row's columns of that kind. Scans the
  /// layout: for views, not for a hot path.
  void velocityVectorFromRow(SignalKind kind, const double* row, Eigen::VectorXd& out) const;
  /// Joint wrenches f_i = [moment; force] (nb, child joint frame) from a row's load:<joint>.* columns.
  void jointWrenchesFromRow(const double* row, std::vector<Vec6>& f) const;
  /// The same wrenches in world axes (nb) from the row's load_world:<joint>.* columns.
  void worldWrenchesFromRow(const double* row, std::vector<Vec6>& f) const;
  /// A joint's loads as recorded: f_i in its joint frame (load:), in world axes (load_world:) and
  /// the constraint-force coordinates λ (reaction:, with reactionComponents' signs undone).
  struct RecordedLoads {
    std::vector<Vec6> f;       ///< (nb) joint frame
    std::vector<Vec6> fWorld;  ///< (nb) world axes
    Eigen::VectorXd lambda;    ///< (nλ) as the solvers give it (Tree::lambdaOffset)
  };
  void loadsFromRow(const double* row, RecordedLoads& loads) const;

 private:
  std::vector<SignalInfo> signals_;
  std::vector<std::string> names_;
  std::vector<int> freeBodies_;
  bool worldLoadsDerived_ = false;
  std::vector<int> qColumns_;        ///< (nq) column of q[k]
  std::vector<int> vColumns_;        ///< (nv) column of ν[k]
  std::vector<int> derivedColumns_;  ///< columns of the derived kinds, in order
  std::vector<std::pair<int, int>> measuredRanges_;
  std::vector<std::array<int, 6>> loadColumns_;   ///< (nb) columns of f_i = [moment; force]
  std::vector<std::array<int, 6>> worldColumns_;  ///< (nb) columns of f_i in world axes
  std::vector<int> reactionColumns_;              ///< (nλ) column of λ_k (its sign: signals_[column].scale)
  /// What fill() reads, in column order: runs of columns that copy consecutive doubles of one
  /// source (q, ν, q̈, τ, λ, or the wrenches, which lie six to a body one body after the other)
  /// and single columns that need a computation. A sample is then a few dozen copies instead of a
  /// dispatch per signal.
  struct Run {
    SignalKind kind;
    int column;  ///< first column
    int length;  ///< columns (1 for the computed kinds)
    int start;   ///< first double of the source: index; for wrenches 6 · body + column (fx … mz = 0 … 5)
    int body, component, index;  ///< of the first signal (the computed kinds)
  };
  std::vector<Run> runs_;
  std::vector<double> reactionScale_;  ///< (columns) ±1 for reaction columns (SignalInfo::scale)
};

/// A reaction signal of a joint: its name ("mx", "fy", …, or "m1", "f2" …) and the sign that makes
/// it the component along the named axis: the signal is sign · λ_k.
struct ReactionComponent {
  std::string name;
  int sign = 1;
};
/// A joint's reaction signals, in the order of T's columns: mx, my, mz, fx, fy, fz for a column
/// along that axis of the joint frame (either way: the signal is then the component along +axis),
/// otherwise m1, m2 (moments) and f1, f2 (forces) along T's other columns (docs/signals.md,
/// "Coordinates per joint type").
std::vector<ReactionComponent> reactionComponents(const JointModel& joint);

/// True when `name` matches the glob `pattern` (`*`: any run of characters, `?`: one character;
/// everything else, brackets included, matches itself).
bool globMatch(std::string_view pattern, std::string_view name);

/// Signal indices selected by a comma-separated list of glob patterns, in the order of the
/// patterns (each pattern's matches in layout order), without duplicates. An empty list selects
/// every signal. Returns false and sets `error` when a pattern matches nothing.
bool selectSignals(const std::vector<std::string>& names, std::string_view patterns, std::vector<int>& selected,
                   std::string& error);

}  // namespace kt
