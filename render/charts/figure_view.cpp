// SPDX-License-Identifier: BSD-3-Clause
#include "render/charts/figure_view.hpp"

#include <QFontInfo>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <limits>

namespace kt::render {

FigureView::FigureView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(320, 200);
}

void FigureView::setFigure(ChartFigure figure) {
  const double cursor = figure_.cursor;
  figure_ = std::move(figure);
  figure_.cursor = cursor;
  // text as large as the application's, however small the view (a figure written to a file
  // scales its text with its size)
  figure_.minTextHeight = std::max(figure_.minTextHeight, static_cast<double>(QFontInfo(font()).pixelSize()));
  update();
}

void FigureView::setCursorTime(double t) {
  if (figure_.cursor == t) return;
  figure_.cursor = t;
  update();
}

double FigureView::timeAt(double x) const {
  const QRectF plot = figure_.plotArea(font(), QRectF(rect()));
  const auto [t0, t1] = figure_.timeRange();
  return plot.width() > 0 ? t0 + (x - plot.left()) / plot.width() * (t1 - t0) : t0;
}

QString FigureView::valuesAt(double t) const {
  QString text;
  for (const FigureSeries& s : figure_.series) {
    if (s.t.empty()) continue;
    const auto it = std::lower_bound(s.t.begin(), s.t.end(), t);
    std::size_t k = static_cast<std::size_t>(it - s.t.begin());
    if (k == s.t.size() || (k > 0 && t - s.t[k - 1] < s.t[k] - t)) k = k == 0 ? 0 : k - 1;
    if (text.isEmpty())
      text = figure_.xName == QStringLiteral("t")
                 ? tr("t = %1 s").arg(s.t[k], 0, 'f', 3)
                 : QStringLiteral("%1 = %2 %3").arg(figure_.xName, QString::number(s.t[k], 'g', 5), figure_.xUnit);
    text += QStringLiteral("   %1: %2").arg(s.name, QString::number(s.y[k], 'e', 2));
  }
  return text;
}

void FigureView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  figure_.paint(painter, QRectF(rect()));
}

void FigureView::mouseMoveEvent(QMouseEvent* event) {
  const QRectF plot = figure_.plotArea(font(), QRectF(rect()));
  if (!plot.contains(event->position())) {
    emit hovered(std::numeric_limits<double>::quiet_NaN(), {});
    return;
  }
  const double t = timeAt(event->position().x());
  emit hovered(t, valuesAt(t));
}

void FigureView::mouseReleaseEvent(QMouseEvent* event) {
  const QRectF plot = figure_.plotArea(font(), QRectF(rect()));
  if (event->button() == Qt::LeftButton && plot.contains(event->position()))
    emit timeClicked(timeAt(event->position().x()));
}

void FigureView::leaveEvent(QEvent*) { emit hovered(std::numeric_limits<double>::quiet_NaN(), {}); }

}  // namespace kt::render
