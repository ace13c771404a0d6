// SPDX-License-Identifier: BSD-3-Clause
// One chart pane: a vtkChartXY in the bridge widget, drawing recorded signals against time.
//
// The caller tells the pane which columns of a kt::Recorder to draw (setSeries: column, name,
// unit, colour) and draws rows [0, k] of the recording, k the newest row at or before a time t
// it gives (draw(recorder, t); rows found by binary search on column 0, the time). The pane
// keeps no copy of the run: each draw reads the recorder in place (Recorder::read) and fills the
// chart's table with a decimated view: for every pixel column of the visible time range the
// first and the last of (min, max) in time order, so a 10⁵-sample series becomes ≤ 2 × width
// points and the drawn envelope is exact. Without a recorder (the run is gone), draw() keeps the
// points drawn last for the series still listed.
//
// Axes: automatic (the whole drawn range) until the user pans (left drag) or zooms (wheel, right
// drag); then the pane decimates only the visible range; setAutoscale(true) fits them again.
// A click (left press and release without dragging) reports the time under the pointer
// (timeClicked); setCursorTime() draws a vertical time cursor across the plot, e.g. at the time
// the other views show: a thin child widget over the chart, moved without rendering the chart
// again (a scrub costs no chart render), and left out of the exported images.
// A label over the pane says emptyText() when no series is drawn (an empty vtkChartXY draws
// nothing at all).
//
// Series of one unit share the left axis; when they mix two units (N and N·m) the second unit's
// series are drawn against the right axis; more than two share the left axis, each legend entry
// naming its unit; the legend sits outside the plot area. Hovering shows a
// crosshair and the value of every series at the nearest recorded sample (setRecorder); the
// wheel zooms the time axis, Ctrl+wheel the value axes.
//
// Noise: the owner may say below which magnitude a unit's values are rounding noise
// (setNoiseFloor: for loads, kt::kLoadDeadBand of the run's largest). With automatic axes, a value
// axis whose values span less than twice that is drawn ±floor around their middle (around zero
// when that lies within the floor), so that ±5e-14 N of noise is a flat line at 0, not a wild
// curve at full height.
//
// Stacked panes (alignTimeAxes): each reports the room its own axes and legend take beside the
// plot area (margins(), after each render); given the largest room of the panes it is stacked with
// (setAlignedMargins), it pads its plot area to that, so that one time falls on one x in every pane
// whatever their units, tick labels and legend entries.
//
// Export: one vector drawing (ChartFigure, chart_figure.hpp) of what the pane shows, written as
// PNG at a chosen size and pixel ratio, SVG or PDF.
#pragma once

#include <vtkSmartPointer.h>
#include <QColor>
#include <QImage>
#include <QPointF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "render/bridge/vtk_widget.hpp"
#include "render/charts/chart_figure.hpp"

class QLabel;
class vtkChartXY;
class vtkContextActor;
class vtkContextInteractorStyle;
class vtkTable;

namespace kt {
class Recorder;
}

namespace kt::render {

class ChartLegend;

/// One drawn signal: a recorder column and how it is shown.
struct ChartSeries {
  int column = -1;  ///< recorder column (column 0 is time, the x axis)
  QString name;     ///< legend entry: the signal's name, as in the list and the CSV
  QString unit;     ///< as shown (after `scale`): the y axes are labelled with the units
  QColor color;
  double scale = 1.0;                  ///< shown value = scale × recorded value (180/π: radians shown in degrees)
  Qt::PenStyle style = Qt::SolidLine;  ///< the line (seriesStyle), in the chart and its legend

  bool operator==(const ChartSeries&) const = default;
};

/// What a pane's axes and legend take beside its plot area, in widget pixels.
struct PaneMargins {
  int left = 0;    ///< the left axis: labels and title
  int right = 0;   ///< the right axis (labels and title), or the chart's margin without one
  int legend = 0;  ///< the legend's preferred width

  bool operator==(const PaneMargins&) const = default;
};

class ChartPane : public VtkWidget {
  Q_OBJECT

 public:
  explicit ChartPane(QWidget* parent = nullptr);
  ~ChartPane() override;

  void setTitle(const QString& title);
  const QString& title() const { return title_; }
  /// The series to draw, in legend order; they take effect at the next draw.
  void setSeries(std::vector<ChartSeries> series);
  const std::vector<ChartSeries>& series() const { return series_; }
  /// What the pane says when it draws no series.
  void setEmptyText(const QString& text);
  QLabel* hintLabel() const { return hint_; }

  /// Draws rows [0, k] of `recorder`, k the newest row with time ≤ t.
  void draw(const kt::Recorder& recorder, double t);
  /// Without a recorder: the points drawn last, for the series still listed.
  void draw();

  /// A vertical line across the plot at time t; NaN: none.
  void setCursorTime(double t);
  double cursorTime() const { return cursorTime_; }
  /// The time under the widget x coordinate `x` (the bottom axis as last drawn; it may lie
  /// outside the visible range), and the widget x coordinate of time t.
  double timeAt(double x) const;
  double xOfTime(double t) const;
  /// The plot area's top and bottom in widget coordinates, as last drawn.
  std::pair<double, double> plotTopBottom() const;
  /// The visible time range [first, last] of the bottom axis as last drawn.
  std::pair<double, double> visibleTimeRange() const;

  /// Values of `unit` within ±floor are noise (see above); 0: none. Takes effect at the next draw.
  void setNoiseFloor(const QString& unit, double floor);
  double noiseFloor(const QString& unit) const;

  /// Automatic axes (true) or the range the user panned or zoomed to (false).
  void setAutoscale(bool on);
  bool autoscale() const { return autoscale_; }

  vtkChartXY* chart() const;
  /// Rows of the recording the last draw covered (k + 1; 0 before any).
  std::size_t rowCount() const { return rows_; }
  /// Points drawn at the last draw (all series; ≤ 2 × pixel width each).
  std::size_t drawnPoints() const { return drawn_; }
  /// Number of series drawn at the last draw.
  std::size_t drawnSeries() const { return plotted_.size(); }

  /// The pane as drawn last, as a vector figure (`caption`: a line under it; no time cursor).
  ChartFigure figure(const QString& caption = {}) const;
  /// Writes figure(caption) as PNG (size × pngScale pixels), SVG or PDF, by the file suffix.
  /// False with `error` set on failure.
  bool exportTo(const QString& path, QString* error = nullptr, QSizeF size = QSizeF(1600, 900), double pngScale = 2.0,
                const QString& caption = {});

  /// What this pane's own axes and legend take, as last drawn; all zero while it draws no series.
  PaneMargins margins() const { return margins_; }
  /// Lays the plot area out as if axes and legend took `room` where that exceeds their own
  /// (alignTimeAxes gives every pane the largest of a stack's margins).
  void setAlignedMargins(const PaneMargins& room);

  /// The pane as the window shows it: the chart rendered (renderToImage) and the legend beside it.
  QImage renderWithLegend();

  /// The names the legend writes, top down.
  QStringList legendNames() const;
  /// The recording the hover readout reads its values from (null: none). The owner sets it for a
  /// session and clears it before the session's Recorder goes away.
  void setRecorder(const kt::Recorder* recorder);
  /// The readout's text for the time under widget x (empty when there is nothing to read).
  QString readoutAt(double x) const;

 signals:
  /// The user clicked the plot at time t (a press and release without dragging).
  void timeClicked(double t);
  /// The bottom axis shows another time range than at the last render (a pan, a zoom, new data).
  void visibleRangeChanged();
  /// margins() differ from the last render's (new units, tick labels or legend entries).
  void marginsChanged();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  /// Table and plots for `series` (rebuilt only when they changed); arrays of series kept from
  /// the last table when `keep`.
  void setPlots(const std::vector<ChartSeries>& series, bool keep);
  void fill(const kt::Recorder& recorder, double t);
  void finish();
  /// The drawn values of the left or right axis' series, and the largest noise floor of their units.
  struct ValueBounds {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    double floor = 0.0;
  };
  ValueBounds valueBounds(int side) const;
  /// The tick step of the left or right axis over [lo, hi] at its drawn length.
  double tickStepFor(int side, double lo, double hi) const;
  /// With automatic axes: each value axis from the tick below its values to the tick above.
  void fitValueAxes();
  /// With automatic axes: a value axis whose values span less than their noise floor holds it.
  void holdNoiseFlat();
  /// The value axes' ticks and labels at multiples of a 1-2-5 step (ticks.hpp), before a render.
  void placeTicks();
  /// Sets the chart's title: title_, cut short in the middle with "…" where it is wider than the plot area as
  /// last drawn (it would run over the axes' labels). Returns whether the drawn title changed.
  bool placeTitle();
  void placeCursor();
  void paintGL() override;
  void showReadout(const QPointF& at);
  void layoutLegend();
  /// Records the margins measured at a paint (or none) and, after the frame, lays the pane out
  /// and says so (marginsChanged).
  void setMargins(const PaneMargins& margins);

  QString title_;
  std::vector<ChartSeries> series_;                      ///< asked for
  std::vector<ChartSeries> plotted_;                     ///< the chart's plots and table columns 1… were made for
  std::vector<std::pair<QString, double>> noiseFloors_;  ///< (unit, floor): setNoiseFloor
  QLabel* hint_ = nullptr;
  vtkSmartPointer<vtkContextActor> actor_;
  vtkSmartPointer<vtkChartXY> chart_;
  vtkSmartPointer<vtkTable> table_;  ///< column 0: t; column j + 1: plotted_[j]
  vtkSmartPointer<vtkContextInteractorStyle> style_;
  QWidget* cursor_ = nullptr;                          ///< the time cursor's line
  QWidget* hover_ = nullptr;                           ///< the crosshair's line
  QLabel* readout_ = nullptr;                          ///< the values under the crosshair
  const kt::Recorder* recorder_ = nullptr;             ///< for the readout (setRecorder)
  ChartLegend* legend_ = nullptr;                      ///< beside the chart
  std::pair<double, double> renderedRange_{0.0, 0.0};  ///< the bottom axis at the last render
  std::string drawnTitle_;                             ///< the chart's title as set: title_, perhaps cut short
  double cursorTime_;
  QPointF pressAt_;
  bool pressed_ = false, dragged_ = false;
  bool autoscale_ = true;
  std::size_t rows_ = 0;
  std::size_t drawn_ = 0;
  /// The value axes' ranges and tick steps fitValueAxes chose last (left, right)
  struct Fitted {
    double lo = 0.0, hi = 0.0, step = 0.0;
  };
  std::array<Fitted, 2> fitted_;
  PaneMargins margins_;  ///< the room of this pane's own axes and legend at the last render
  PaneMargins aligned_;  ///< setAlignedMargins
  int padLeft_ = 0, padRight_ = 0, legendWidth_ = 0;  ///< as laid out (layoutLegend), widget pixels
};

/// Lays out every pane of `panes`, stacked one above another, with the largest of their margins as
/// last drawn: their plot areas take the same left and right edges at the next render.
void alignPanes(const std::vector<ChartPane*>& panes);
/// alignPanes whenever the margins of one of `panes` change.
void alignTimeAxes(const std::vector<ChartPane*>& panes);

}  // namespace kt::render
