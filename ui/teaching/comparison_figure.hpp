// SPDX-License-Identifier: BSD-3-Clause
// What a solver comparison (Simulation ▸ Compare Solvers…) produced, and the curves and figure
// that show it over time, as Liu, Hu & Zhang (2016) show their CFA against a recursive algorithm
// (Figs. 11–12: base attitude error, arm joint angle errors):
//  - pointwise (kt::compareAtStates): per solver, the difference of one quantity (q̈, the joint
//    loads, p, ν or ṗ) from its reference at each state of the run, relative to the largest
//    |value| over the run;
//  - trajectory (kt::runForComparison): per run, |x − x_ref| of the chosen signals at each
//    output, in the signals' units, with the integrator's own difference (the reference run with
//    a finer integration) drawn in grey, for scale. A colour for each run and a line for each
//    signal, where the signals are few enough to be told apart by their lines.
// The curves keep every sample (the CSV export); the figure draws at most ~2 × kFigurePoints
// points per curve (each bucket's minimum and maximum in time order, so peaks stay), and a log
// value axis spans at most 8 decades below the largest difference.
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "core/analysis/solver_comparison.hpp"
#include "core/analysis/trajectory_comparison.hpp"
#include "render/charts/chart_figure.hpp"

namespace kt::ui {

struct ComparisonResult {
  bool trajectory = false;
  std::string reference;  ///< the reference solver
  QString label;          ///< what was compared, for captions: "space_robot · rk4, h = 0.002 s, 10 s"
  // pointwise
  std::vector<double> stateTimes;
  std::vector<kt::SolverDifference> pointwise;
  // trajectory: runs[0] the reference, runs[1] its integrator check, then the others;
  // differences[k]: runs[k] against runs[0]
  std::vector<kt::ComparedRun> runs;
  std::vector<kt::TrajectoryDifference> differences;
  std::string error;
};

enum class ComparedQuantity { Qdd, Load, P, V, Pdot };

struct CurveRequest {
  ComparedQuantity quantity = ComparedQuantity::Qdd;  ///< pointwise
  QString patterns;                                   ///< trajectory: glob patterns, comma-separated
  bool degrees = false;                               ///< trajectory: rad, rad/s, rad/s^2 shown in degrees
};

struct ComparisonCurves {
  std::vector<render::FigureSeries> series;  ///< every sample
  /// Trajectory curves of at most kStyledSignals signals take their run's colour and their
  /// signal's line; the legend then names the runs and the signals once each (otherwise empty:
  /// one entry a curve, each in its own colour).
  std::vector<render::FigureSeries> legend;
  std::vector<int> runOf, signalOf;  ///< (series) the curve's run in runLabels and signal in signalLabels
  QStringList runLabels, signalLabels;
  QString quantity;  ///< the value axis: "relative difference of qdd", "|x − x_ref| (deg)"
  QString problem;   ///< why there is nothing to draw (a pattern matched nothing, …)
};

constexpr int kFigurePoints = 2000;
constexpr int kMaxCurves = 24;
constexpr int kStyledSignals = 4;  ///< solid, dashed, dotted, dash-dotted

/// The curves' values at time t, for a readout: "t = 0.500 s" and each curve's difference, run by
/// run with the signals named once where the curves are grouped ("attitude:base.roll, .pitch:
/// crba · rk4 5.00e-16, 4.09e-16; …"). Empty without curves.
QString curvesAt(const ComparisonCurves& curves, double t);

/// The curves of `result` for `request`.
ComparisonCurves comparisonCurves(const ComparisonResult& result, const CurveRequest& request);
/// The figure of `curves`: a log value axis when `log` (zeros, exact agreement, are left out).
render::ChartFigure comparisonFigure(const ComparisonResult& result, const ComparisonCurves& curves, bool log);
/// The curves as CSV: "t" and one column per curve (empty cells past a shorter run's end).
QString curvesCsv(const ComparisonCurves& curves);

}  // namespace kt::ui
