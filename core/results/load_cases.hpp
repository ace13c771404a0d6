// SPDX-License-Identifier: BSD-3-Clause
// Load cases at the peaks (docs/reports.md): for each joint's peak |force| and peak |moment| of
// the wrench it transmits (the instants PeakLoads finds, by the same rule), the state of the run
// at that instant and every joint's wrench then — what sizes a part, with all the other loads at
// the same time, as a finite-element load case needs them. Written as CSV (one row per case) or
// JSON; `kinetree-cli peaks --cases FILE` and the Peak Loads dock's Export Load Cases write them.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/model/tree.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/signals.hpp"

namespace kt {

class Recorder;

/// One instant of a run: its time, the joint positions and every joint's wrench
/// f_i = [moment; force] in its joint frame (the load: signals).
struct RunInstant {
  double t = 0.0;
  Eigen::VectorXd q;
  std::vector<Vec6> wrenches;  ///< (nb)
};

struct LoadCase {
  int joint = -1;                          ///< tree index of the joint whose peak this is
  bool moment = false;                     ///< a moment: the peak |moment|, or a component in N·m
  std::string signal;                      ///< a component case: its signal ("reaction:J11.mx", "tau:J11[0]")
  double value = 0.0;                      ///< the peak, N or N·m
  std::shared_ptr<const RunInstant> when;  ///< the run at that instant

  /// What peaked: "force", "moment", or the component's signal name.
  std::string quantity() const { return signal.empty() ? (moment ? "moment" : "force") : signal; }
};

/// Finds the load cases of a run fed row by row (a streaming run) or from its recording. An
/// instant is kept while it holds a peak; rows that make several peaks at once share it.
/// With `components`, also a case at the peak |value| of each reaction coordinate (the
/// reaction:<joint>.* signals, λ_k) and each actuated coordinate (tau:<joint>[k], τ_k), by the
/// same rule.
class LoadCaseCollector {
 public:
  LoadCaseCollector(const Tree& tree, const SignalLayout& layout, bool components = false);

  /// One recorded row (layout.size() values).
  void add(const double* row);
  /// The rows of `recorder` from `first` on whose time lies in [t0, t1] (as PeakLoads::addRecorded).
  std::size_t addRecorded(const Recorder& recorder, std::size_t first,
                          double t0 = -std::numeric_limits<double>::infinity(),
                          double t1 = std::numeric_limits<double>::infinity());
  /// The cases: per joint in tree order its force case, its moment case, then (with
  /// `components`) those of its reaction coordinates and its efforts in the layout's order. None
  /// for a peak without a finite sample, or under the peak table's dead band (kLoadDeadBand of the
  /// run's largest force or moment: rounding noise, such as a free joint's 1e-14 N, sizes
  /// nothing); none for an effort that stayed zero (a passive joint).
  std::vector<LoadCase> cases() const;

 private:
  struct Component {
    int joint = -1;
    int column = -1;
    bool moment = false;  ///< N·m (else N)
    bool effort = false;  ///< tau: (else reaction:)
    std::string name;
  };
  const SignalLayout& layout_;
  std::vector<Component> components_;  ///< the reaction: and tau: signals, with `components`
  std::vector<Peak> peaks_;            ///< (2 nb + components) force, moment per joint; then components
  std::vector<std::shared_ptr<const RunInstant>> when_;  ///< (as peaks_)
  std::vector<Vec6> f_;                                  ///< scratch
  std::vector<std::size_t> improved_;                    ///< scratch
};

/// One row per case: case, joint, quantity (force | moment | the component's signal), value, t_s, then the row's q:
/// columns and every joint's load:<joint>.fx … .mz, named as the signals (docs/signals.md).
std::string loadCasesCsv(const Tree& tree, const SignalLayout& layout, const std::vector<LoadCase>& cases);
/// The same as JSON: {"format": "kinetree-load-cases", "version": 1, "cases": [{"case": 1,
/// "joint": "J11", "quantity": "force", "value": …, "t": …, "q": {"q:J11[0]": …, …},
/// "loads": {"J11": {"fx": …, …, "mz": …}, …}}, …]}.
std::string loadCasesJson(const Tree& tree, const SignalLayout& layout, const std::vector<LoadCase>& cases);

}  // namespace kt
