// SPDX-License-Identifier: BSD-3-Clause
// The derived signals of a row (SignalLayout::derives): load_parent:, attitude:, position:,
// energy. and momentum., and load_world: where the layout derives it, computed from the row's own q, ν and load:
// columns and the model. A recording run writes only the measured columns at each output and leaves these to be
// computed when the row is first read (Recorder::setDeriver): the run's thread then spends nothing on what no one
// reads, and a reader computes each row once, bit for bit as the run would have.
#pragma once

#include <vector>

#include "core/analysis/analysis.hpp"
#include "core/results/signals.hpp"

namespace kt {

class SignalDeriver {
 public:
  /// `tree` and `layout` must outlive the deriver.
  SignalDeriver(const Tree& tree, const SignalLayout& layout);

  /// Writes the derived columns of `row` (layout.size() values, its measured columns written).
  /// `previous`: the row before it, its derived columns written (the attitude angles continue
  /// from it), or null for a run's first row. `kin`: the kinematics of the row's (q, ν) when the
  /// caller has them (a solver's own pass), otherwise computed here. Allocates nothing.
  void derive(double* row, const double* previous, const Kinematics* kin = nullptr);

 private:
  const Tree& tree_;
  const SignalLayout& layout_;
  Kinematics kin_;
  Eigen::VectorXd q_, v_;
  std::vector<Vec3> com_;                               ///< (nb) centre of mass, body coordinates
  std::vector<int> attitudeColumns_, positionColumns_;  ///< (free bodies) first column of each
  std::vector<std::array<int, 6>> parentColumns_;       ///< (nb) load_parent: f = [moment; force]
  std::vector<std::array<int, 6>> worldColumns_;        ///< (nb) load_world: where derived, else empty
  int energyColumn_ = -1, momentumColumn_ = -1;         ///< energy.kinetic, momentum.px
};

}  // namespace kt
