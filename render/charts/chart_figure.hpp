// SPDX-License-Identifier: BSD-3-Clause
// A chart as one vector drawing (QPainter): the picture behind every exported plot, so that PNG,
// SVG and PDF show the same thing. Title on top; the plot area with grid, ticks and axis labels
// (time below, the first unit on the left and, when the series mix two units such as N and N·m,
// the second on the right); the legend outside the plot area, on the right; an optional caption
// line at the bottom (model, solver, integrator, step). Coordinates are transformed here and
// pens are given in the painter's own units, so a PDF gets true lines of the stated width.
#pragma once

#include <QColor>
#include <QPen>
#include <QSizeF>
#include <QString>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

class QFont;
class QPainter;
class QRectF;

namespace kt::render {

struct FigureSeries {
  QString name;
  QColor color;
  bool rightAxis = false;  ///< drawn against the right axis
  Qt::PenStyle style = Qt::SolidLine;
  std::vector<double> t, y;
};

struct FigureAxis {
  double min = 0.0, max = 1.0;
  QString label;     ///< the unit, e.g. "N·m"; the left axis may also name the quantity
  bool log = false;  ///< base-10 logarithmic (left axis only): ticks at decades, values ≤ 0 left out
  /// [min, max] is the values' range, to be widened to the figure's own ticks below and above it
  /// (an automatic axis: the figure's ticks are finer than the pane's, and the pane's range would
  /// leave empty bands)
  bool toTicks = false;
};

struct ChartFigure {
  QString title;
  QString caption;  ///< empty: none
  std::vector<FigureSeries> series;
  /// The legend's entries (name, colour and line; no values) when the series are told apart by two
  /// keys, such as colour by solver and line by signal; empty: one entry per series.
  std::vector<FigureSeries> legend;
  double t0 = 0.0, t1 = 1.0;                                         ///< the time axis (or what xName names)
  QString xName = QStringLiteral("t"), xUnit = QStringLiteral("s");  ///< the horizontal axis: "f", "Hz" for a spectrum
  FigureAxis left, right;
  bool hasRight = false;
  double cursor = std::numeric_limits<double>::quiet_NaN();  ///< a vertical line at this time (NaN: none)
  /// The smallest text height (painter units): text scales with the area drawn into, down to
  /// this; a view on screen raises it to its font's, so that a small pane stays readable.
  double minTextHeight = 8.0;

  /// Draws the figure into `area` (painter units: pixels for images, points for PDF). The plot
  /// area keeps at least `leftInset` and `rightInset` from the area's edges (stacked figures pass
  /// their largest, so that their time axes line up).
  void paint(QPainter& painter, const QRectF& area, double leftInset = 0.0, double rightInset = 0.0) const;

  struct Layout;
  /// Text sizes, axis ranges and the insets of the plot area when drawn into `area`.
  Layout layout(const QFont& base, const QRectF& area) const;
  /// The plot area (inside the axes) when drawn into `area` with font `base` by paint().
  QRectF plotArea(const QFont& base, const QRectF& area) const;
  /// The time axis as drawn: [t0, t1], widened when empty.
  std::pair<double, double> timeRange() const;
  /// The left (or right) value axis as drawn, [lo, hi] (decades' exponents on a log axis), and
  /// its tick step.
  struct AxisRange {
    double lo, hi, step;
  };
  AxisRange valueRange(bool right) const;
};

/// Colour of the `index`-th series of a chart (a ten-colour palette, repeated).
QColor seriesColor(int index);
/// Line of the `index`-th series: solid for the first ten, then dashed, dotted and dash-dotted, so
/// that a series that repeats a colour is told apart by its line.
Qt::PenStyle seriesStyle(int index);

/// Draws figures stacked top to bottom, each an equal share of `area`.
void paintFigures(QPainter& painter, const QRectF& area, const std::vector<ChartFigure>& figures);

/// Writes `figures` (stacked) to `path`, the format from its suffix: PNG at `size` × `pngScale`
/// pixels (a device pixel ratio of `pngScale`, so that text and lines keep their proportions),
/// SVG or PDF as vector drawings of `size` (pixels, 96 per inch). Written atomically: on failure
/// the old file is untouched and `error` gives the reason.
bool writeFigures(const std::vector<ChartFigure>& figures, const QString& path, QSizeF size, double pngScale,
                  QString* error = nullptr);

/// A portable file name made of `text`: an ellipsis becomes '-', every run of characters other
/// than ASCII letters, digits and . _ ( ) + - becomes one '_' (no colons, slashes or spaces).
QString safeFileName(const QString& text);

}  // namespace kt::render
