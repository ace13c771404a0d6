// SPDX-License-Identifier: BSD-3-Clause
#include "render/charts/chart_figure.hpp"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <algorithm>

#include "render/charts/ticks.hpp"
#include "render/output/atomic_write.hpp"

namespace kt::render {

namespace {

// A range with some room: a flat series still gets a visible axis.
void widen(double& lo, double& hi) {
  if (!(hi - lo > 1e-9 * std::max(std::abs(lo), std::abs(hi)))) {  // a constant, or within rounding of one
    const double pad = std::abs(lo) > 0.0 ? 0.1 * std::abs(lo) : 1.0;
    lo -= pad;
    hi += pad;
  }
}

// A log axis's tick text: the decade, "1e-13" (and "1" for 10⁰).
QString decadeText(double exponent) {
  const int e = static_cast<int>(std::lround(exponent));
  return e == 0 ? QStringLiteral("1") : QStringLiteral("1e%1").arg(e);
}

QString legendText(const FigureSeries& s) { return s.rightAxis ? QObject::tr("%1 (right axis)").arg(s.name) : s.name; }

}  // namespace

// What the plot area leaves around it in `area`: text sizes, axis ranges and the insets.
struct ChartFigure::Layout {
  double unit = 8.0;  ///< the text height
  QFont font, small;
  double legendWidth = 0.0, leftAxisWidth = 0.0, rightAxisWidth = 0.0;
  double lo = 0.0, hi = 1.0, rlo = 0.0, rhi = 1.0, ls = 1.0, rs = 1.0;
  double titleHeight = 0.0, captionHeight = 0.0;
  double leftInset = 0.0, rightInset = 0.0;  ///< from the area's edges to the plot area's
};

ChartFigure::AxisRange ChartFigure::valueRange(bool right) const {
  const Layout l = layout(QFont(), QRectF(0.0, 0.0, 1000.0, 500.0));  // the ranges do not depend on the size
  return right ? AxisRange{l.rlo, l.rhi, l.rs} : AxisRange{l.lo, l.hi, l.ls};
}

ChartFigure::Layout ChartFigure::layout(const QFont& base, const QRectF& area) const {
  Layout l;
  l.unit = std::max(minTextHeight, std::min(area.width() / 70.0, area.height() / 25.0));
  l.font = base;
  l.font.setPixelSize(static_cast<int>(std::lround(l.unit)));
  l.small = base;
  l.small.setPixelSize(static_cast<int>(std::lround(0.85 * l.unit)));
  const QFontMetricsF sm(l.small);
  // the legend: outside the plot area, on the right
  const std::vector<FigureSeries>& entries = legend.empty() ? series : legend;
  for (const FigureSeries& s : entries) l.legendWidth = std::max(l.legendWidth, sm.horizontalAdvance(legendText(s)));
  l.legendWidth = entries.empty() ? 0.0 : std::min(l.legendWidth + 2.8 * l.unit, 0.35 * area.width());
  l.titleHeight = title.isEmpty() ? 0.4 * l.unit : 1.8 * l.unit;
  l.captionHeight = caption.isEmpty() ? 0.0 : 1.5 * l.unit;
  l.lo = left.min, l.hi = left.max, l.rlo = right.min, l.rhi = right.max;
  if (left.log) {  // decades: lo and hi are exponents
    l.lo = left.min > 0.0 ? std::floor(std::log10(left.min)) : -16.0;
    l.hi = left.max > 0.0 ? std::ceil(std::log10(left.max)) : l.lo + 1.0;
    if (!(l.hi > l.lo)) l.hi = l.lo + 1.0;
  }
  widen(l.lo, l.hi);
  widen(l.rlo, l.rhi);
  l.ls = left.log ? std::max(1.0, std::ceil((l.hi - l.lo) / 8.0)) : tickStep(l.hi - l.lo, 6);
  l.rs = tickStep(l.rhi - l.rlo, 6);
  // an automatic axis runs from the tick below its values to the tick above, as in the pane
  const auto toTicks = [](double& lo, double& hi, double step) {
    if (!(step > 0.0)) return;
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
  };
  if (left.toTicks && !left.log) toTicks(l.lo, l.hi, l.ls);
  if (right.toTicks) toTicks(l.rlo, l.rhi, l.rs);
  for (const double y : tickValues(l.lo, l.hi, l.ls))
    l.leftAxisWidth = std::max(l.leftAxisWidth, sm.horizontalAdvance(left.log ? decadeText(y) : tickText(y, l.ls)));
  if (hasRight)
    for (const double y : tickValues(l.rlo, l.rhi, l.rs))
      l.rightAxisWidth = std::max(l.rightAxisWidth, sm.horizontalAdvance(tickText(y, l.rs)));
  l.leftInset = l.leftAxisWidth + 2.4 * l.unit;
  l.rightInset = l.legendWidth + (hasRight ? l.rightAxisWidth + 2.4 * l.unit : 0.8 * l.unit);
  return l;
}

namespace {

QRectF plotRect(const ChartFigure::Layout& l, const QRectF& area, double leftInset, double rightInset) {
  leftInset = std::max(leftInset, l.leftInset);
  rightInset = std::max(rightInset, l.rightInset);
  return {area.left() + leftInset, area.top() + l.titleHeight, area.width() - leftInset - rightInset,
          area.height() - l.titleHeight - 2.8 * l.unit - l.captionHeight};
}

}  // namespace

QRectF ChartFigure::plotArea(const QFont& base, const QRectF& area) const {
  return plotRect(layout(base, area), area, 0.0, 0.0);
}

std::pair<double, double> ChartFigure::timeRange() const {
  double a = t0, b = t1;
  widen(a, b);
  return {a, b};
}

void ChartFigure::paint(QPainter& painter, const QRectF& area, double leftInset, double rightInset) const {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(area, Qt::white);
  const Layout l = layout(painter.font(), area);
  const double unit = l.unit;
  const QFont &font = l.font, &small = l.small;
  const QFontMetricsF fm(font), sm(small);
  const double legendWidth = l.legendWidth, rightAxisWidth = l.rightAxisWidth;
  const double lo = l.lo, hi = l.hi, rlo = l.rlo, rhi = l.rhi, ls = l.ls, rs = l.rs;
  const double titleHeight = l.titleHeight, captionHeight = l.captionHeight;
  // the plot area; stacked figures share their insets so that their time axes line up
  const QRectF plot = plotRect(l, area, leftInset, rightInset);
  if (plot.width() < 10 || plot.height() < 10) {
    painter.restore();
    return;
  }
  double t0v = t0, t1v = t1;
  widen(t0v, t1v);
  const auto X = [&](double t) { return plot.left() + (t - t0v) / (t1v - t0v) * plot.width(); };
  const auto Y = [&](double y, bool r) {
    return r ? plot.bottom() - (y - rlo) / (rhi - rlo) * plot.height()
             : plot.bottom() - (y - lo) / (hi - lo) * plot.height();
  };

  // title
  painter.setFont(font);
  painter.setPen(Qt::black);
  if (!title.isEmpty())
    painter.drawText(QRectF(area.left(), area.top(), area.width(), titleHeight), Qt::AlignCenter,
                     fm.elidedText(title, Qt::ElideRight, area.width()));

  // grid and ticks
  const double ts = tickStep(t1v - t0v, std::max(2, static_cast<int>(plot.width() / (6.0 * unit))));
  painter.setFont(small);
  painter.setPen(QPen(QColor(225, 225, 225), 0.08 * unit));
  for (const double t : tickValues(t0v, t1v, ts))
    painter.drawLine(QPointF(X(t), plot.top()), QPointF(X(t), plot.bottom()));
  for (const double y : tickValues(lo, hi, ls))
    painter.drawLine(QPointF(plot.left(), Y(y, false)), QPointF(plot.right(), Y(y, false)));
  painter.setPen(QPen(Qt::black, 0.08 * unit));
  for (const double t : tickValues(t0v, t1v, ts))
    painter.drawText(QRectF(X(t) - 4 * unit, plot.bottom() + 0.2 * unit, 8 * unit, 1.2 * unit), Qt::AlignHCenter,
                     tickText(t, ts));
  for (const double y : tickValues(lo, hi, ls))
    painter.drawText(QRectF(area.left(), Y(y, false) - 0.6 * unit, plot.left() - area.left() - 0.4 * unit, 1.2 * unit),
                     Qt::AlignRight | Qt::AlignVCenter, left.log ? decadeText(y) : tickText(y, ls));
  if (hasRight)
    for (const double y : tickValues(rlo, rhi, rs))
      painter.drawText(QRectF(plot.right() + 0.4 * unit, Y(y, true) - 0.6 * unit, rightAxisWidth + unit, 1.2 * unit),
                       Qt::AlignLeft | Qt::AlignVCenter, tickText(y, rs));
  painter.drawText(QRectF(plot.left(), plot.bottom() + 1.4 * unit, plot.width(), 1.2 * unit), Qt::AlignHCenter,
                   QStringLiteral("%1 (%2)").arg(xName, xUnit));
  // axis labels, written upwards beside the ticks
  const auto verticalLabel = [&](const QString& text, double x) {
    painter.save();
    painter.translate(x, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, -0.6 * unit, plot.height(), 1.2 * unit), Qt::AlignCenter, text);
    painter.restore();
  };
  if (!left.label.isEmpty()) verticalLabel(left.label, area.left() + 0.7 * unit);
  if (hasRight && !right.label.isEmpty()) verticalLabel(right.label, plot.right() + rightAxisWidth + 1.5 * unit);
  painter.drawRect(plot);

  // the series, clipped to the plot area
  painter.save();
  painter.setClipRect(plot);
  for (const FigureSeries& s : series) {
    QPainterPath line;
    bool pen = false;
    const bool log = left.log && !s.rightAxis;
    for (std::size_t k = 0; k < s.t.size() && k < s.y.size(); ++k) {
      const double y = log ? (s.y[k] > 0.0 ? std::log10(s.y[k]) : std::nan("")) : s.y[k];
      if (!std::isfinite(y)) {  // a gap (and on a log axis: exact zeros)
        pen = false;
        continue;
      }
      const QPointF p(X(s.t[k]), Y(y, s.rightAxis));
      if (pen) {
        line.lineTo(p);
      } else {
        line.moveTo(p);
        pen = true;
      }
    }
    painter.setPen(QPen(s.color, 0.15 * unit, s.style, Qt::RoundCap, Qt::RoundJoin));
    painter.drawPath(line);
  }
  if (std::isfinite(cursor) && cursor >= t0v && cursor <= t1v) {
    painter.setPen(QPen(QColor(60, 60, 60), 0.1 * unit));
    painter.drawLine(QPointF(X(cursor), plot.top()), QPointF(X(cursor), plot.bottom()));
  }
  painter.restore();

  // legend entries, top down beside the plot; what does not fit is counted
  painter.setFont(small);
  const double entry = 1.25 * unit;
  const double lx = plot.right() + (hasRight ? rightAxisWidth + 2.4 * unit : 0.8 * unit);
  const int fit = std::max(1, static_cast<int>(plot.height() / entry));
  const std::vector<FigureSeries>& entries = legend.empty() ? series : legend;
  for (int k = 0; k < static_cast<int>(entries.size()); ++k) {
    const double ly = plot.top() + k * entry;
    if (k == fit - 1 && static_cast<int>(entries.size()) > fit) {
      painter.setPen(Qt::black);
      painter.drawText(QRectF(lx, ly, legendWidth, entry), Qt::AlignLeft | Qt::AlignVCenter,
                       QObject::tr("… and %1 more").arg(static_cast<int>(entries.size()) - k));
      break;
    }
    const FigureSeries& s = entries[static_cast<std::size_t>(k)];
    painter.setPen(QPen(s.color, 0.25 * unit, s.style));
    painter.drawLine(QPointF(lx, ly + entry / 2), QPointF(lx + 1.4 * unit, ly + entry / 2));
    painter.setPen(Qt::black);
    painter.drawText(QRectF(lx + 1.8 * unit, ly, legendWidth - 1.8 * unit, entry), Qt::AlignLeft | Qt::AlignVCenter,
                     sm.elidedText(legendText(s), Qt::ElideRight, legendWidth - 1.8 * unit));
  }

  if (!caption.isEmpty()) {
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(
        QRectF(area.left() + 0.5 * unit, area.bottom() - captionHeight, area.width() - unit, captionHeight),
        Qt::AlignLeft | Qt::AlignVCenter, sm.elidedText(caption, Qt::ElideRight, area.width() - unit));
  }
  painter.restore();
}

QColor seriesColor(int index) {
  static constexpr unsigned char kPalette[][3] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                                                  {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                                  {188, 189, 34},  {23, 190, 207}};
  constexpr int size = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);
  const unsigned char* rgb = kPalette[((index % size) + size) % size];
  return {rgb[0], rgb[1], rgb[2]};
}

Qt::PenStyle seriesStyle(int index) {
  static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
  constexpr int colours = 10, styles = static_cast<int>(sizeof kStyles / sizeof kStyles[0]);
  return kStyles[(std::max(index, 0) / colours) % styles];
}

void paintFigures(QPainter& painter, const QRectF& area, const std::vector<ChartFigure>& figures) {
  if (figures.empty()) return;
  const double h = area.height() / static_cast<double>(figures.size());
  const auto slot = [&](std::size_t k) {
    return QRectF(area.left(), area.top() + static_cast<double>(k) * h, area.width(), h);
  };
  double leftInset = 0.0, rightInset = 0.0;
  for (std::size_t k = 0; k < figures.size(); ++k) {
    const ChartFigure::Layout l = figures[k].layout(painter.font(), slot(k));
    leftInset = std::max(leftInset, l.leftInset);
    rightInset = std::max(rightInset, l.rightInset);
  }
  for (std::size_t k = 0; k < figures.size(); ++k) figures[k].paint(painter, slot(k), leftInset, rightInset);
}

bool writeFigures(const std::vector<ChartFigure>& figures, const QString& path, QSizeF size, double pngScale,
                  QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (figures.empty()) return fail(QObject::tr("Nothing to write to %1").arg(path));
  // The drawing is made in memory and written in one atomic step (render/output/atomic_write.hpp):
  // QSvgGenerator and QPdfWriter report no write errors, and writing them straight to the
  // target left a truncated file over the old one on a full disk.
  const QString suffix = QFileInfo(path).suffix().toLower();
  const QRectF area(QPointF(0, 0), size);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (suffix == QLatin1String("png")) {
    QImage image((size * pngScale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(pngScale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintFigures(painter, area, figures);
    painter.end();
    if (image.isNull() || !image.save(&buffer, "PNG"))
      return fail(QObject::tr("Cannot write %1: the image of %2 × %3 pixels could not be made")
                      .arg(path)
                      .arg(image.width())
                      .arg(image.height()));
  } else if (suffix == QLatin1String("svg")) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size.toSize());
    // 96 pixels an inch, as the PDF's page (QSvgGenerator's own 90 made the SVG 7 % larger on paper)
    svg.setResolution(96);
    svg.setViewBox(area);
    svg.setTitle(figures.front().title);
    svg.setDescription(QObject::tr("Kinetree plot"));
    QPainter painter;
    if (!painter.begin(&svg)) return fail(QObject::tr("Cannot write %1").arg(path));
    paintFigures(painter, area, figures);
    painter.end();
  } else if (suffix == QLatin1String("pdf")) {
    QPdfWriter pdf(&buffer);
    pdf.setTitle(figures.front().title);
    pdf.setCreator(QStringLiteral("Kinetree"));
    pdf.setResolution(96);  // one painter unit is one pixel of `size`
    pdf.setPageSize(QPageSize(size * 72.0 / 96.0, QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&pdf)) return fail(QObject::tr("Cannot write %1").arg(path));
    paintFigures(painter, area, figures);
    painter.end();
  } else {
    return fail(QObject::tr("Unknown plot format '%1' (expected .png, .svg or .pdf)").arg(suffix));
  }
  buffer.close();
  if (bytes.isEmpty()) return fail(QObject::tr("Cannot write %1: the drawing came out empty").arg(path));
  return writeFileAtomically(path, bytes, error);
}

QString safeFileName(const QString& text) {
  QString out = text;
  out.replace(QRegularExpression(QStringLiteral("\\s*\\x{2026}\\s*")), QStringLiteral("-"));  // "J11 … J16"
  out.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._()+-]+")), QStringLiteral("_"));
  out.replace(QRegularExpression(QStringLiteral("^[_.]+|_+$")), QString());
  return out.isEmpty() ? QStringLiteral("plot") : out;
}

}  // namespace kt::render
