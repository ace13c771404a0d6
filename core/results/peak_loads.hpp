// SPDX-License-Identifier: BSD-3-Clause
// Peak joint loads over a run (docs/signals.md, "Peak loads"): for every joint, the largest
// |force| and |moment| of the wrench f it transmits (the load:<joint>.* signals) and of its
// reaction part T λ (T_i the joint's constraint subspace, λ from the reaction:<joint>.* signals),
// the largest |λ_k| of each reaction coordinate, the largest |τ_k| of each actuated coordinate (the
// tau:<joint>[k] signals: drive forces, or the required efforts of a prescribed motion), the time
// of each peak, and, where the model gives the joint a load rating, the utilisation: the largest
// ratio of a peak to its rating.
//
// The same computation serves the application's Peak loads dock (over the recording, or the
// rows of a time range) and `kinetree-cli peaks` (sample by sample as the run goes): add() takes
// one recorded row in the SignalLayout's order. A peak keeps the time of its first occurrence;
// non-finite values (a run that failed) are skipped. add() allocates nothing.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"
#include "core/model/tree.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"

namespace kt {

/// A largest magnitude and the time it was first reached (NaN before any sample).
struct Peak {
  double value = 0.0;
  double time = std::numeric_limits<double>::quiet_NaN();
  void add(double magnitude, double t) {
    if (!std::isfinite(magnitude)) return;  // a run that failed: its last values are not loads
    if (magnitude > value || (std::isnan(time) && magnitude == value)) {
      value = magnitude;
      time = t;
    }
  }
};

struct JointPeaks {
  int joint = -1;                        ///< tree index
  std::string name;                      ///< joint name
  Peak force, moment;                    ///< |f_force|, |f_moment| of the transmitted wrench (N, N·m)
  Peak reactionForce;                    ///< |(T λ)_force| (N)
  Peak reactionMoment;                   ///< |(T λ)_moment| (N·m)
  std::vector<Peak> lambda;              ///< (6 − n_v) |λ_k|, N·m or N
  std::vector<std::string> lambdaNames;  ///< (6 − n_v) "mx", "fy", … (reaction:<joint>.<name>)
  std::vector<Peak> effort;              ///< (n_v) |τ_k|, N·m or N
  std::vector<char> effortAngular;       ///< (n_v) 1 where τ_k is a moment (N·m), 0 a force (N)
  LoadRating rating;

  /// The largest |τ_k| over the joint's coordinates (a Peak with NaN time when it has none).
  Peak largestEffort() const;

  /// The largest ratio of a peak to its rating (force, moment, each rated λ_k and τ_k); NaN when
  /// the joint has no rating.
  double utilisation() const;
  /// What the utilisation is the ratio of ("force", "moment", "reaction.mx", "effort[0]", …), and
  /// when it peaked.
  std::string utilisationOf() const;
  double utilisationTime() const;
};

class PeakLoads {
 public:
  /// `ratings`: per tree index (Model::bodies[tree.specIndex[i]].joint.rating); may be empty.
  PeakLoads(const Tree& tree, const SignalLayout& layout, std::vector<LoadRating> ratings = {});

  /// The ratings of a model's joints by tree index.
  static std::vector<LoadRating> ratingsOf(const Model& model, const Tree& tree);

  /// Forgets every sample.
  void reset();
  /// One recorded row (layout.size() values).
  void add(const double* row);
  /// The rows of `recorder` from `first` to those published now whose time lies in [t0, t1], a
  /// block at a time under the reader lock (a run may go on recording); returns the end of what
  /// was read, the `first` of the next call.
  std::size_t addRecorded(const Recorder& recorder, std::size_t first,
                          double t0 = -std::numeric_limits<double>::infinity(),
                          double t1 = std::numeric_limits<double>::infinity());
  std::size_t samples() const { return samples_; }
  /// Time of the first and the last sample added (NaN before any).
  double firstTime() const { return firstTime_; }
  double lastTime() const { return lastTime_; }
  const std::vector<JointPeaks>& joints() const { return joints_; }

 private:
  const Tree& tree_;
  const SignalLayout& layout_;
  std::vector<JointPeaks> joints_;
  std::vector<std::vector<int>> reactionColumns_;    ///< (nb) column of λ_k
  std::vector<std::vector<double>> reactionScales_;  ///< (nb) the column holds scale · λ_k
  std::vector<std::vector<int>> effortColumns_;      ///< (nb) column of τ_k
  std::vector<Mat6N> T_;                             ///< (nb) T_i where it does not depend on q
  std::vector<Vec6> f_;                              ///< (nb) scratch: the row's joint wrenches
  Eigen::VectorXd q_;                                ///< scratch: the row's q (universal joints)
  bool needQ_ = false;
  std::size_t samples_ = 0;
  double firstTime_ = std::numeric_limits<double>::quiet_NaN();
  double lastTime_ = std::numeric_limits<double>::quiet_NaN();
};

/// Loads below this fraction of the largest load of their kind in the run (forces against the
/// largest force, moments against the largest moment) are rounding noise, not loads: a free
/// joint "transmits" 1e-14 N while the joints beside it carry 30 N. The peak tables (the Peak
/// Loads dock, `kinetree-cli peaks`) show "—" for them, the load arrows do not draw them and the
/// plots draw them as a flat line at zero (docs/signals.md, "Peak loads").
inline constexpr double kLoadDeadBand = 1e-3;

/// The largest force (N) and moment (N·m) of a run, over every joint: the reference of the dead
/// band and of the load arrows' lengths.
struct LoadScale {
  double force = 0.0;
  double moment = 0.0;
  bool operator==(const LoadScale&) const = default;
};

/// The largest peaks of `joints`, of the whole wrenches or of their reaction parts (T λ).
LoadScale loadScale(const std::vector<JointPeaks>& joints, bool reactionOnly = false);

/// A run whose largest moment is below kNoiseArm × its largest force (a lever arm of a nanometre),
/// or whose largest force is below kNoiseArm × its largest moment (per metre), has no loads of
/// that kind: all of it is rounding noise (a planar pendulum's joints "transmit" 1e-14 N·m beside
/// 30 N), which a dead band relative to its own largest would report.
inline constexpr double kNoiseArm = 1e-9;

/// The dead band's references of a run whose largest loads are `largest`: the same, but +∞ for a
/// kind that is noise beside the other (kNoiseArm), so that none of it is above the band.
LoadScale deadBandReferences(const LoadScale& largest);

/// The magnitudes under which a force and a moment of a run whose largest loads are `largest` are
/// rounding noise: kLoadDeadBand × the largest, or, for a kind that is all noise beside the other
/// (deadBandReferences), kNoiseArm × the other's largest, which every value of it lies under. The
/// plots draw a unit's values under its floor flat at zero.
LoadScale noiseFloors(const LoadScale& largest);

/// Whether `peak` is a load to report against the run's `reference` (its largest of that kind,
/// as deadBandReferences gives it): sampled, and not below kLoadDeadBand × the reference.
bool aboveDeadBand(const Peak& peak, double reference);

/// A warning for every rating a joint's peak reached (ratio ≥ 100 %; a joint's warnings the
/// furthest over first): what peaked, how far and when, at the path of the rating
/// ("bodies[k].joint.rating"). The ratings are those of `model`, found by joint name (the run may
/// be older than the model: a rating edited since counts as edited; a joint renamed or removed
/// since is left out). `times`, if given, receives the time of each warning's peak.
std::vector<Diagnostic> ratingExceedances(std::vector<JointPeaks> joints, const Model& model,
                                          std::vector<double>* times = nullptr);

/// The peak table as CSV: a header row, then one row per joint in tree order (numbers as
/// appendCsvNumber writes them; empty fields for what a joint has no value of).
std::string peakLoadsCsv(const std::vector<JointPeaks>& joints);

/// The cells of the peak table: joint; |F| and its time; |M| and its time; the reaction part's
/// |F| and |M|; the largest |τ_k| and its time; the utilisation and what it is the ratio of. Six
/// significant digits (the utilisation four), "-" where a joint has no such value or its peak lies
/// under the dead band (kLoadDeadBand). The terminal table and the report print these cells.
struct PeakTableCells {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  ///< one per joint, in tree order
};
PeakTableCells peakLoadsCells(const std::vector<JointPeaks>& joints);

/// The unit of the |τ| column: "N·m" when every coordinate of `joints` that acts (|τ| > 0) is a
/// rotation, "N" when every one is a translation, "N·m or N" when they mix (or none acts).
std::string effortUnit(const std::vector<JointPeaks>& joints);

/// The joints a report shows first, as indices into `joints`, at most `count`: those with a
/// utilisation, the largest first, then the others by the larger of |F| / (the run's largest |F|)
/// and |M| / (the run's largest |M|), the largest first (a kind whose largest is under 10⁻⁹ of the
/// other kind's is rounding noise and counts for nothing). Joints whose loads are zero or all lie
/// under the dead band are left out.
std::vector<std::size_t> mostLoadedJoints(const std::vector<JointPeaks>& joints, std::size_t count);

/// The peak table as aligned text for a terminal: peakLoadsCells in columns. The CSV keeps every
/// number as computed.
std::string peakLoadsTable(const std::vector<JointPeaks>& joints);

}  // namespace kt
