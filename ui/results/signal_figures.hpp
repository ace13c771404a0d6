// SPDX-License-Identifier: BSD-3-Clause
// Figures of recorded signals (render/charts/chart_figure.hpp) made straight from a recording,
// for what draws without a chart pane: the Plots dock's spectrum box and the report
// (ui/results/report). A time figure draws each series decimated as the panes draw it: for every
// bucket of rows the first and the last of (min, max) in time order, so the drawn envelope is
// exact. A spectrum figure is the amplitude spectrum or the PSD of each series by Welch's method
// (core/analysis/spectrum.hpp) over the same rows.
#pragma once

#include <QString>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/analysis/spectrum.hpp"
#include "render/charts/chart_figure.hpp"
#include "render/charts/chart_pane.hpp"

namespace kt {
class Recorder;
}

namespace kt::ui {

/// Rows [k0, k1) of `recorder` whose time lies in [t0, t1].
std::pair<std::size_t, std::size_t> rowsInRange(const kt::Recorder& recorder, double t0, double t1);

/// `series` (scaled as shown) against time over rows [k0, k1), at most 2 × `buckets` points each.
/// The first unit is on the left axis, a second on the right; each axis spans its values with a
/// margin of 5 %.
render::ChartFigure timeFigure(const kt::Recorder& recorder, const std::vector<render::ChartSeries>& series,
                               std::size_t k0, std::size_t k1, const QString& title, int buckets = 1000);

struct SpectrumChoice {
  bool psd = false;         ///< the PSD (units²/Hz) instead of the amplitude spectrum
  bool log = false;         ///< a logarithmic value axis (six decades under the largest line)
  std::size_t segment = 0;  ///< Welch segment length; 0: kt::defaultSegment
};

struct SpectrumFigure {
  render::ChartFigure figure;         ///< from 0 Hz to where the lines end (see spectrumFigure)
  std::vector<kt::Spectrum> spectra;  ///< one per series
  std::size_t samples = 0;            ///< samples per series
  double rate = 0.0;                  ///< Hz
  QString problem;                    ///< why there is no spectrum (empty when there is)
};

/// The spectra of `series` over rows [k0, k1). The frequency axis ends at 1.2 × the last bin of
/// any series with at least 0.1 % of its largest amplitude (the rest is the window's leakage), and
/// shows at least ten bins; 0 Hz (the removed mean) is not drawn.
SpectrumFigure spectrumFigure(const kt::Recorder& recorder, const std::vector<render::ChartSeries>& series,
                              std::size_t k0, std::size_t k1, const SpectrumChoice& choice, const QString& title);

}  // namespace kt::ui
