// SPDX-License-Identifier: BSD-3-Clause
// A ChartFigure (chart_figure.hpp) on screen: the drawing an export writes, so that what the user
// sees is what the file gets. Used where the series are computed rather than recorded (the
// solver comparison's differences). A click reports the time under the pointer (timeClicked);
// hovering reports that time and the value of every series at the nearest sample (hovered; NaN
// and an empty text off the plot area, so that a view can word its own readout); setCursorTime()
// moves the figure's time cursor (the time the other views show).
#pragma once

#include <QWidget>

#include "render/charts/chart_figure.hpp"

namespace kt::render {

class FigureView : public QWidget {
  Q_OBJECT

 public:
  explicit FigureView(QWidget* parent = nullptr);

  void setFigure(ChartFigure figure);
  const ChartFigure& figure() const { return figure_; }
  void setCursorTime(double t);
  /// The time under widget x (the time axis as drawn).
  double timeAt(double x) const;
  /// "t = 1.250 s   aba: 1.2e-13 …": every series at the sample nearest time t.
  QString valuesAt(double t) const;
  QSize sizeHint() const override { return {720, 360}; }

 signals:
  void timeClicked(double t);
  void hovered(double t, const QString& text);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  ChartFigure figure_;
};

}  // namespace kt::render
