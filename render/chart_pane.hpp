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
// Export: PNG is the pane's rendered image; PDF uses vtkPDFExporter on the render window; SVG
// is written from the drawn (decimated) series with QSvgGenerator (vtkGL2PSExporter needs the
// legacy OpenGL feedback path): vector lines, axes, ticks, legend.
#pragma once

#include <vtkSmartPointer.h>
#include <QColor>
#include <QPointF>
#include <QString>
#include <cstddef>
#include <utility>
#include <vector>

#include "render/vtk_widget.hpp"

class QLabel;
class vtkChartXY;
class vtkContextActor;
class vtkContextInteractorStyle;
class vtkTable;

namespace kt {
class Recorder;
}

namespace kt::render {

/// One drawn signal: a recorder column and how it is shown.
struct ChartSeries {
  int column = -1;  ///< recorder column (column 0 is time, the x axis)
  QString name;     ///< legend entry
  QString unit;     ///< the y axis says it when every series shares it
  QColor color;

  bool operator==(const ChartSeries&) const = default;
};

class ChartPane : public VtkWidget {
  Q_OBJECT

 public:
  explicit ChartPane(QWidget* parent = nullptr);
  ~ChartPane() override;

  /// Colour of the `index`-th series of a pane (a ten-colour palette, repeated).
  static QColor seriesColor(int index);

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

  /// Writes the pane as drawn last as PNG, SVG or PDF (chosen by the file suffix). False with
  /// `error` set on failure.
  bool exportTo(const QString& path, QString* error = nullptr);

 signals:
  /// The user clicked the plot at time t (a press and release without dragging).
  void timeClicked(double t);
  /// The bottom axis shows another time range than at the last render (a pan, a zoom, new data).
  void visibleRangeChanged();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;

 private:
  /// Table and plots for `series` (rebuilt only when they changed); arrays of series kept from
  /// the last table when `keep`.
  void setPlots(const std::vector<ChartSeries>& series, bool keep);
  void fill(const kt::Recorder& recorder, double t);
  void finish();
  void placeCursor();
  void paintGL() override;
  bool writeSvg(const QString& path, QString* error) const;

  QString title_;
  std::vector<ChartSeries> series_;   ///< asked for
  std::vector<ChartSeries> plotted_;  ///< the chart's plots and table columns 1… were made for
  QLabel* hint_ = nullptr;
  vtkSmartPointer<vtkContextActor> actor_;
  vtkSmartPointer<vtkChartXY> chart_;
  vtkSmartPointer<vtkTable> table_;  ///< column 0: t; column j + 1: plotted_[j]
  vtkSmartPointer<vtkContextInteractorStyle> style_;
  QWidget* cursor_ = nullptr;                          ///< the time cursor's line
  std::pair<double, double> renderedRange_{0.0, 0.0};  ///< the bottom axis at the last render
  double cursorTime_;
  QPointF pressAt_;
  bool pressed_ = false, dragged_ = false;
  bool autoscale_ = true;
  std::size_t rows_ = 0;
  std::size_t drawn_ = 0;
};

}  // namespace kt::render
