// SPDX-License-Identifier: BSD-3-Clause
#include "render/charts/chart_pane.hpp"

#include <vtkAxis.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextInteractorStyle.h>
#include <vtkContextMouseEvent.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkRect.h>
#include <vtkStringArray.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>
#include <QFileInfo>
#include <QLabel>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPointer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/results/recorder.hpp"
#include "render/charts/ticks.hpp"

namespace kt::render {

namespace {

void setAxesBehavior(vtkChartXY* chart, int behavior) {
  for (int a : {vtkAxis::LEFT, vtkAxis::BOTTOM, vtkAxis::RIGHT}) chart->GetAxis(a)->SetBehavior(behavior);
}

vtkDoubleArray* arrayOf(vtkTable* table, vtkIdType column) {
  return vtkDoubleArray::SafeDownCast(table->GetColumn(column));
}

}  // namespace

// The legend beside the chart: a line of each series' colour and its name, top down; what does
// not fit is counted.
class ChartLegend : public QWidget {
 public:
  explicit ChartLegend(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("legend"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, Qt::white);
    setPalette(p);
  }
  struct Entry {
    QString text;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
  };
  void setEntries(std::vector<Entry> entries) {
    entries_ = std::move(entries);
    update();
  }
  int preferredWidth() const {
    int w = 0;
    for (const Entry& e : entries_) w = std::max(w, fontMetrics().horizontalAdvance(e.text));
    return entries_.empty() ? 0 : w + 40;
  }
  const std::vector<Entry>& entries() const { return entries_; }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const int line = fontMetrics().height() + 2;
    const int fit = std::max(1, (height() - 8) / line);
    for (int k = 0; k < static_cast<int>(entries_.size()); ++k) {
      const int y = 6 + k * line;
      if (k == fit - 1 && static_cast<int>(entries_.size()) > fit) {
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(8, y, width() - 10, line), Qt::AlignVCenter,
                         tr("… and %1 more").arg(static_cast<int>(entries_.size()) - k));
        break;
      }
      const Entry& e = entries_[static_cast<std::size_t>(k)];
      painter.setPen(QPen(e.color, 2.0, e.style, Qt::FlatCap));
      painter.drawLine(QPointF(8, y + line / 2.0), QPointF(28, y + line / 2.0));
      painter.setPen(palette().color(QPalette::WindowText));
      painter.drawText(QRect(32, y, width() - 34, line), Qt::AlignVCenter,
                       fontMetrics().elidedText(e.text, Qt::ElideRight, width() - 34));
    }
  }

 private:
  std::vector<Entry> entries_;
};

ChartPane::ChartPane(QWidget* parent) : VtkWidget(parent), cursorTime_(std::numeric_limits<double>::quiet_NaN()) {
  setMinimumHeight(120);
  renderer()->SetBackground(1.0, 1.0, 1.0);
  renderer()->GradientBackgroundOff();
  chart_ = vtkSmartPointer<vtkChartXY>::New();
  // the legend is a Qt widget beside the chart (legend_): it never covers a curve, and it writes
  // every name exactly as the signal list and the CSV do
  chart_->SetShowLegend(false);
  chart_->GetTitleProperties()->SetFontSize(12);
  chart_->GetAxis(vtkAxis::BOTTOM)->SetTitle("t (s)");
  chart_->GetAxis(vtkAxis::LEFT)->SetTitle("");
  chart_->SetActionToButton(vtkChart::PAN, vtkContextMouseEvent::LEFT_BUTTON);
  chart_->SetActionToButton(vtkChart::ZOOM_AXIS, vtkContextMouseEvent::RIGHT_BUTTON);
  actor_ = vtkSmartPointer<vtkContextActor>::New();
  actor_->GetScene()->AddItem(chart_);
  actor_->GetScene()->SetRenderer(renderer());
  renderer()->AddActor(actor_);
  style_ = vtkSmartPointer<vtkContextInteractorStyle>::New();
  style_->SetScene(actor_->GetScene());
  interactor()->SetInteractorStyle(style_);
  hint_ = new QLabel(this);
  hint_->setAlignment(Qt::AlignCenter);
  hint_->setWordWrap(true);
  hint_->setAttribute(Qt::WA_TransparentForMouseEvents);
  hint_->setStyleSheet(QStringLiteral("color: #505050; background: transparent;"));
  auto* overlay = new QVBoxLayout(this);
  overlay->addWidget(hint_);
  table_ = vtkSmartPointer<vtkTable>::New();
  vtkNew<vtkDoubleArray> t;
  t->SetName("t");
  table_->AddColumn(t);
  cursor_ = new QWidget(this);
  cursor_->setObjectName(QStringLiteral("timeCursor"));
  cursor_->setAttribute(Qt::WA_TransparentForMouseEvents);
  cursor_->setAutoFillBackground(true);
  QPalette palette = cursor_->palette();
  palette.setColor(QPalette::Window, QColor(60, 60, 60));
  cursor_->setPalette(palette);
  cursor_->hide();
  hover_ = new QWidget(this);
  hover_->setObjectName(QStringLiteral("hoverLine"));
  hover_->setAttribute(Qt::WA_TransparentForMouseEvents);
  hover_->setAutoFillBackground(true);
  palette.setColor(QPalette::Window, QColor(150, 150, 150));
  hover_->setPalette(palette);
  hover_->hide();
  readout_ = new QLabel(this);
  readout_->setObjectName(QStringLiteral("readout"));
  readout_->setAttribute(Qt::WA_TransparentForMouseEvents);
  readout_->setStyleSheet(
      QStringLiteral("background: rgba(255, 255, 255, 230); border: 1px solid #999; padding: 2px; color: black;"));
  readout_->hide();
  legend_ = new ChartLegend(this);
  legend_->hide();
  setMouseTracking(true);
}

void ChartPane::resizeEvent(QResizeEvent* event) {
  VtkWidget::resizeEvent(event);
  layoutLegend();
}

void ChartPane::layoutLegend() {
  // the legend takes the right of the pane (at most 40 %); the chart the rest, its plot area padded
  // to the margins of the panes stacked with it (setAlignedMargins)
  const bool drawn = !legend_->entries().empty();
  const int own = drawn ? legend_->preferredWidth() : 0;
  legendWidth_ = drawn ? std::min(std::max(own, aligned_.legend), width() * 2 / 5) : 0;
  // the padding never takes more than half of what is left beside the legend
  const int spare = std::max(0, width() - legendWidth_) / 2;
  padLeft_ = drawn ? std::clamp(aligned_.left - margins_.left, 0, spare) : 0;
  padRight_ = drawn ? std::clamp(aligned_.right - margins_.right, 0, spare - padLeft_) : 0;
  legend_->setGeometry(width() - legendWidth_, 0, legendWidth_, height());
  legend_->setVisible(legendWidth_ > 0);
  const double dpr = devicePixelRatioF();
  chart_->SetAutoSize(false);
  const int chartWidth = std::max(0, width() - legendWidth_ - padLeft_ - padRight_);
  chart_->SetSize(vtkRectf(static_cast<float>(padLeft_ * dpr), 0.0f, static_cast<float>(chartWidth * dpr),
                           static_cast<float>(height() * dpr)));
  update();
}

void ChartPane::setMargins(const PaneMargins& margins) {
  if (margins == margins_) return;
  margins_ = margins;
  // this pane's padding from its own new margins, and the stack's, after this frame: a render
  // asked for while one is painted would be dropped with it
  QMetaObject::invokeMethod(
      this,
      [this] {
        layoutLegend();
        emit marginsChanged();
      },
      Qt::QueuedConnection);
}

void ChartPane::setAlignedMargins(const PaneMargins& room) {
  if (room == aligned_) return;
  aligned_ = room;
  layoutLegend();
}

void alignPanes(const std::vector<ChartPane*>& panes) {
  PaneMargins room;
  for (const ChartPane* p : panes) {
    const PaneMargins m = p->margins();
    room.left = std::max(room.left, m.left);
    room.right = std::max(room.right, m.right);
    room.legend = std::max(room.legend, m.legend);
  }
  for (ChartPane* p : panes) p->setAlignedMargins(room);
}

void alignTimeAxes(const std::vector<ChartPane*>& panes) {
  const std::vector<QPointer<ChartPane>> stack(panes.begin(), panes.end());  // a pane may go before the others
  for (ChartPane* pane : panes) {
    QObject::connect(pane, &ChartPane::marginsChanged, pane, [stack] {
      std::vector<ChartPane*> live;
      for (const QPointer<ChartPane>& p : stack)
        if (p) live.push_back(p);
      alignPanes(live);
    });
  }
}

QImage ChartPane::renderWithLegend() {
  QImage image = renderToImage();
  if (legend_->isVisibleTo(this) && !image.isNull()) {
    QPainter painter(&image);  // logical pixels: the image carries the device pixel ratio
    legend_->render(&painter, legend_->pos());
  }
  return image;
}

QStringList ChartPane::legendNames() const {
  QStringList out;
  for (const ChartLegend::Entry& e : legend_->entries()) out << e.text;
  return out;
}

ChartPane::~ChartPane() = default;

vtkChartXY* ChartPane::chart() const { return chart_; }

void ChartPane::setTitle(const QString& title) {
  title_ = title;
  placeTitle();
}

bool ChartPane::placeTitle() {
  // centred over the plot area, a title wider than it runs over the right axis' labels (a
  // narrow window, a long joint name): cut short in the middle, so that both what the pane shows
  // and of which joint, at its end, stay in sight
  std::string text = title_.toStdString();
  vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
  const double room = axis->GetPoint2()[0] - axis->GetPoint1()[0];
  vtkTextRenderer* measure = vtkTextRenderer::GetInstance();
  const int dpi = renderWindow()->GetDPI();
  const auto width = [&](const std::string& s) {
    int box[4] = {0, 0, 0, 0};
    return measure && measure->GetBoundingBox(chart_->GetTitleProperties(), s, box, dpi) ? box[1] - box[0] : 0;
  };
  if (room > 0.0 && !title_.isEmpty() && width(text) > room) {
    const auto cut = [&](qsizetype n) {  // n characters of the title kept, the first half before the ellipsis
      return (title_.left(n - n / 2).trimmed() + QStringLiteral("…") + title_.right(n / 2).trimmed()).toStdString();
    };
    qsizetype lo = 0, hi = title_.size();  // the most characters that fit with the ellipsis: lo
    while (lo < hi) {
      const qsizetype mid = (lo + hi + 1) / 2;
      if (width(cut(mid)) <= room)
        lo = mid;
      else
        hi = mid - 1;
    }
    text = cut(lo);
  }
  if (text == drawnTitle_) return false;
  drawnTitle_ = text;
  chart_->SetTitle(text);
  return true;
}

void ChartPane::setSeries(std::vector<ChartSeries> series) { series_ = std::move(series); }

void ChartPane::setEmptyText(const QString& text) { hint_->setText(text); }

void ChartPane::setAutoscale(bool on) {
  autoscale_ = on;
  if (!on) setAxesBehavior(chart_, vtkAxis::FIXED);
}

void ChartPane::setCursorTime(double t) {
  if (t == cursorTime_ || (std::isnan(t) && std::isnan(cursorTime_))) return;
  cursorTime_ = t;
  placeCursor();
}

void ChartPane::paintGL() {
  placeTicks();
  VtkWidget::paintGL();
  // the room the axes took at this render: the chart's own borders in device pixels, as vtkChart
  // places them in the rect it was given, which the padding does not change (no feedback)
  PaneMargins now;
  vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
  if (!plotted_.empty() && axis->GetPoint2()[0] > axis->GetPoint1()[0]) {  // an empty chart lays nothing out
    const double dpr = devicePixelRatioF();
    const vtkRectf rect = chart_->GetSize();
    const int x0 = static_cast<int>(rect.GetX());
    const double left = axis->GetPoint1()[0] - x0;
    const double right = static_cast<int>(rect.GetWidth()) + x0 - axis->GetPoint2()[0];
    now.left = std::max(0, static_cast<int>(std::ceil(left / dpr)));
    now.right = std::max(0, static_cast<int>(std::ceil(right / dpr)));
    now.legend = legend_->preferredWidth();
  }
  setMargins(now);
  // the plot area changed its width: the title fitted to it in the next frame, asked for after
  // this one (asked for during it, the frame would be dropped with it)
  if (placeTitle())
    QMetaObject::invokeMethod(
        this, [this] { update(); }, Qt::QueuedConnection);
  placeCursor();  // the axes may have moved
  if (visibleTimeRange() != renderedRange_) {
    renderedRange_ = visibleTimeRange();
    emit visibleRangeChanged();
  }
}

void ChartPane::placeCursor() {
  const double x = xOfTime(cursorTime_);
  const auto [top, bottom] = plotTopBottom();
  const auto [t0, t1] = visibleTimeRange();
  const bool shown = std::isfinite(x) && !plotted_.empty() && cursorTime_ >= t0 && cursorTime_ <= t1 && bottom > top;
  if (shown) {
    const QRect line(static_cast<int>(std::lround(x)), static_cast<int>(std::lround(top)), 1,
                     static_cast<int>(std::lround(bottom - top)));
    if (cursor_->geometry() != line) cursor_->setGeometry(line);
  }
  if (cursor_->isVisible() != shown) cursor_->setVisible(shown);
}

double ChartPane::xOfTime(double t) const {
  vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
  const double x0 = axis->GetPoint1()[0], x1 = axis->GetPoint2()[0];  // scene (device) pixels
  const double span = axis->GetMaximum() - axis->GetMinimum();
  if (!(x1 > x0) || !(span > 0.0) || std::isnan(t)) return std::numeric_limits<double>::quiet_NaN();
  return (x0 + (t - axis->GetMinimum()) / span * (x1 - x0)) / devicePixelRatioF();
}

std::pair<double, double> ChartPane::plotTopBottom() const {
  vtkAxis* axis = chart_->GetAxis(vtkAxis::LEFT);  // scene y grows upwards
  const double dpr = devicePixelRatioF();
  const double h = height();
  return {h - axis->GetPoint2()[1] / dpr, h - axis->GetPoint1()[1] / dpr};
}

double ChartPane::timeAt(double x) const {
  vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
  const double x0 = axis->GetPoint1()[0], x1 = axis->GetPoint2()[0];  // scene (device) pixels
  if (!(x1 > x0)) return std::numeric_limits<double>::quiet_NaN();
  const double device = x * devicePixelRatioF();
  return axis->GetMinimum() + (device - x0) / (x1 - x0) * (axis->GetMaximum() - axis->GetMinimum());
}

std::pair<double, double> ChartPane::visibleTimeRange() const {
  vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
  return {axis->GetMinimum(), axis->GetMaximum()};
}

void ChartPane::mousePressEvent(QMouseEvent* event) {
  pressed_ = event->button() == Qt::LeftButton;
  dragged_ = false;
  pressAt_ = event->position();
  if (event->button() != Qt::LeftButton) setAutoscale(false);  // right drag zooms
  VtkWidget::mousePressEvent(event);
}

void ChartPane::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() == Qt::NoButton) showReadout(event->position());
  if (pressed_ && !dragged_ && (event->position() - pressAt_).manhattanLength() > 3.0) {
    dragged_ = true;
    setAutoscale(false);  // the user takes over the axes: pan and zoom keep them
  }
  VtkWidget::mouseMoveEvent(event);
}

void ChartPane::mouseReleaseEvent(QMouseEvent* event) {
  VtkWidget::mouseReleaseEvent(event);
  const bool click = pressed_ && !dragged_ && event->button() == Qt::LeftButton;
  pressed_ = false;
  if (click && !plotted_.empty()) {
    const double t = timeAt(event->position().x());
    if (std::isfinite(t)) emit timeClicked(t);
  }
}

void ChartPane::wheelEvent(QWheelEvent* event) {
  // the time axis about the pointer; with Ctrl the value axes (both, about the pointer's height)
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0.0 || plotted_.empty()) return;
  const double factor = std::pow(0.8, steps);  // a notch zooms in by 20 %
  setAutoscale(false);
  const double dpr = devicePixelRatioF();
  const auto zoom = [&](vtkAxis* axis, double pixel, double p1, double p2) {
    const double lo = axis->GetMinimum(), hi = axis->GetMaximum();
    if (!(p2 > p1) || !(hi > lo)) return;
    const double at = lo + (pixel - p1) / (p2 - p1) * (hi - lo);
    axis->SetRange(at - (at - lo) * factor, at + (hi - at) * factor);
  };
  if (event->modifiers() & Qt::ControlModifier) {
    const double y = (height() - event->position().y()) * dpr;  // scene y grows upwards
    for (int a : {vtkAxis::LEFT, vtkAxis::RIGHT}) {
      vtkAxis* axis = chart_->GetAxis(a);
      zoom(axis, y, axis->GetPoint1()[1], axis->GetPoint2()[1]);
    }
  } else {
    vtkAxis* axis = chart_->GetAxis(vtkAxis::BOTTOM);
    zoom(axis, event->position().x() * dpr, axis->GetPoint1()[0], axis->GetPoint2()[0]);
  }
  chart_->Update();
  update();
  event->accept();
}

void ChartPane::setPlots(const std::vector<ChartSeries>& series, bool keep) {
  if (series == plotted_) return;
  const vtkSmartPointer<vtkTable> old = table_;
  chart_->ClearPlots();
  table_ = vtkSmartPointer<vtkTable>::New();
  if (keep) {
    table_->AddColumn(old->GetColumn(0));
  } else {
    vtkNew<vtkDoubleArray> t;
    t->SetName("t");
    table_->AddColumn(t);
  }
  // the units: one or two, the first on the left axis and the second on the right; more than two
  // all share the left axis, titled with every unit, and each legend entry names its own
  QStringList units;
  for (const ChartSeries& s : series)
    if (!units.contains(s.unit)) units << s.unit;
  const QString rightUnit = units.size() == 2 ? units[1] : QString();
  for (std::size_t j = 0; j < series.size(); ++j) {
    const ChartSeries& s = series[j];
    vtkSmartPointer<vtkDoubleArray> a;
    if (keep) {
      for (std::size_t i = 0; i < plotted_.size() && !a; ++i)
        if (plotted_[i].column == s.column) a = arrayOf(old, static_cast<vtkIdType>(i + 1));
    }
    if (!a) a = vtkSmartPointer<vtkDoubleArray>::New();  // filled by the draw that follows
    a->SetName(s.name.toStdString().c_str());
    table_->AddColumn(a);
  }
  for (std::size_t j = 0; j < series.size(); ++j) {
    vtkPlot* plot = chart_->AddPlot(vtkChart::LINE);
    plot->SetInputData(table_, 0, static_cast<vtkIdType>(j + 1));
    plot->SetLabel(series[j].name.toStdString());  // as written in the list and the CSV
    const QColor& c = series[j].color;
    plot->SetColor(static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
                   static_cast<unsigned char>(c.blue()), 255);
    plot->SetWidth(1.5);
    plot->GetPen()->SetLineType(series[j].style == Qt::DashLine      ? vtkPen::DASH_LINE
                                : series[j].style == Qt::DotLine     ? vtkPen::DOT_LINE
                                : series[j].style == Qt::DashDotLine ? vtkPen::DASH_DOT_LINE
                                                                     : vtkPen::SOLID_LINE);
    if (!rightUnit.isEmpty() && series[j].unit == rightUnit) chart_->SetPlotCorner(plot, 1);
  }
  chart_->GetAxis(vtkAxis::LEFT)
      ->SetTitle(units.size() == 1 || units.size() == 2 ? units[0].toStdString()
                 : units.isEmpty()                      ? std::string()
                                                        : units.join(", ").toStdString());
  chart_->GetAxis(vtkAxis::RIGHT)->SetTitle(rightUnit.toStdString());
  std::vector<ChartLegend::Entry> entries;
  for (const ChartSeries& s : series)
    entries.push_back({s.name + (!rightUnit.isEmpty() && s.unit == rightUnit ? QStringLiteral(" (right axis)")
                                 : units.size() > 2                          ? QStringLiteral(" (%1)").arg(s.unit)
                                                                             : QString()),
                       s.color, s.style});
  legend_->setEntries(std::move(entries));
  layoutLegend();
  plotted_ = series;
  setMargins({});  // measured again at its next paint: a pane scrolled out of view holds no stale room
}

void ChartPane::draw(const kt::Recorder& recorder, double t) {
  std::vector<ChartSeries> series;
  for (const ChartSeries& s : series_)
    if (s.column >= 0 && s.column < recorder.width()) series.push_back(s);
  setPlots(series, false);
  fill(recorder, t);
  finish();
}

void ChartPane::draw() {
  // Series drawn before whose points are still in the table; the others have none to show.
  std::vector<ChartSeries> kept;
  for (const ChartSeries& s : series_)
    for (const ChartSeries& p : plotted_)
      if (p.column == s.column && p.name == s.name) {
        kept.push_back(s);
        break;
      }
  setPlots(kept, true);
  finish();
}

void ChartPane::fill(const kt::Recorder& recorder, double t) {
  const std::size_t pixels = static_cast<std::size_t>(std::max(100.0, width() * devicePixelRatioF()));
  std::vector<int> columns;
  std::vector<double> scales;
  std::vector<vtkDoubleArray*> arrays;
  for (std::size_t j = 0; j < plotted_.size(); ++j) {
    columns.push_back(plotted_[j].column);
    scales.push_back(plotted_[j].scale);
    arrays.push_back(arrayOf(table_, static_cast<vtkIdType>(j + 1)));
  }
  vtkDoubleArray* times = arrayOf(table_, 0);
  const double lo = chart_->GetAxis(vtkAxis::BOTTOM)->GetMinimum();
  const double hi = chart_->GetAxis(vtkAxis::BOTTOM)->GetMaximum();

  recorder.read([&](const kt::Recorder::Rows& rows) {
    // Rows [0, n): the samples at or before t.
    const std::size_t n = rows.firstRowWhere([t](double x) { return x > t; });
    rows_ = n;
    // Visible time range: the whole run (autoscale) or the axis range the user chose.
    std::size_t i0 = 0, i1 = n;
    if (!autoscale_ && n > 0) {
      i0 = rows.firstRowWhere([lo](double x) { return !(x < lo); }, n);
      i1 = rows.firstRowWhere([hi](double x) { return x > hi; }, n);
      i0 = i0 > 0 ? i0 - 1 : 0;  // one sample beyond each edge, so lines reach the border
      i1 = std::min(n, i1 + 1);
    }
    const std::size_t count = i1 > i0 ? i1 - i0 : 0;
    const bool decimate = count > 2 * pixels;
    const std::size_t out = decimate ? 2 * pixels : count;
    table_->SetNumberOfRows(static_cast<vtkIdType>(out));
    if (!decimate) {
      rows.forEachRow(i0, i1, [&](std::size_t k, const double* row) {
        const auto r = static_cast<vtkIdType>(k - i0);
        times->SetValue(r, row[0]);
        for (std::size_t j = 0; j < columns.size(); ++j) arrays[j]->SetValue(r, scales[j] * row[columns[j]]);
      });
      return;
    }
    // Per pixel column b, samples [k0, k1): two points, the extremes in time order, at the
    // column's first and last time (min/max decimation: the drawn envelope is exact).
    struct Extremes {
      std::size_t kMin, kMax;
      double min, max;
    };
    std::vector<Extremes> e(columns.size());
    for (std::size_t b = 0; b < pixels; ++b) {
      const std::size_t k0 = i0 + b * count / pixels, k1 = i0 + (b + 1) * count / pixels;
      times->SetValue(static_cast<vtkIdType>(2 * b), rows.value(k0, 0));
      times->SetValue(static_cast<vtkIdType>(2 * b + 1), rows.value(k1 - 1, 0));
      rows.forEachRow(k0, k1, [&](std::size_t k, const double* row) {
        for (std::size_t j = 0; j < columns.size(); ++j) {
          const double v = scales[j] * row[columns[j]];
          if (k == k0) {
            e[j] = {k, k, v, v};
            continue;
          }
          if (v < e[j].min) e[j] = {k, e[j].kMax, v, e[j].max};
          if (v > e[j].max) e[j] = {e[j].kMin, k, e[j].min, v};
        }
      });
      for (std::size_t j = 0; j < columns.size(); ++j) {
        const bool minFirst = e[j].kMin <= e[j].kMax;
        arrays[j]->SetValue(static_cast<vtkIdType>(2 * b), minFirst ? e[j].min : e[j].max);
        arrays[j]->SetValue(static_cast<vtkIdType>(2 * b + 1), minFirst ? e[j].max : e[j].min);
      }
    }
  });
}

void ChartPane::finish() {
  for (vtkIdType c = 0; c < table_->GetNumberOfColumns(); ++c) table_->GetColumn(c)->Modified();
  table_->Modified();
  const auto rows = static_cast<std::size_t>(table_->GetNumberOfRows());
  drawn_ = rows * plotted_.size();
  for (vtkIdType j = 0; j < chart_->GetNumberOfPlots(); ++j) chart_->GetPlot(j)->SetVisible(rows >= 2);
  if (autoscale_) {
    setAxesBehavior(chart_, vtkAxis::AUTO);
    chart_->RecalculateBounds();
    fitValueAxes();
    holdNoiseFlat();
  }
  hint_->setVisible(plotted_.empty() || rows < 2);  // never a blank pane without a word
  update();
}

void ChartPane::setNoiseFloor(const QString& unit, double floor) {
  const double value = std::isfinite(floor) && floor > 0.0 ? floor : 0.0;
  for (auto& [u, f] : noiseFloors_)
    if (u == unit) {
      f = value;
      return;
    }
  noiseFloors_.emplace_back(unit, value);
}

double ChartPane::noiseFloor(const QString& unit) const {
  for (const auto& [u, f] : noiseFloors_)
    if (u == unit) return f;
  return 0.0;
}

ChartPane::ValueBounds ChartPane::valueBounds(int side) const {
  ValueBounds b;
  const vtkIdType rows = table_->GetNumberOfRows();
  const QString rightUnit = QString::fromStdString(chart_->GetAxis(vtkAxis::RIGHT)->GetTitle());
  for (std::size_t j = 0; j < plotted_.size() && rows >= 2; ++j) {
    const bool right = !rightUnit.isEmpty() && plotted_[j].unit == rightUnit;
    if (right != (side == vtkAxis::RIGHT)) continue;
    b.floor = std::max(b.floor, noiseFloor(plotted_[j].unit));
    vtkDoubleArray* a = arrayOf(table_, static_cast<vtkIdType>(j + 1));
    for (vtkIdType r = 0; r < rows; ++r) {
      const double v = a->GetValue(r);
      if (!std::isfinite(v)) continue;
      b.lo = std::min(b.lo, v);
      b.hi = std::max(b.hi, v);
    }
  }
  return b;
}

double ChartPane::tickStepFor(int side, double lo, double hi) const {
  // the finest 1-2-5 step whose ticks over [lo, hi], from the one below lo to the one above hi, are
  // 18 px apart or more on the axis as last drawn (before any render: on 60 % of the pane)
  vtkAxis* axis = chart_->GetAxis(side);
  const double length = axis->GetPoint2()[1] - axis->GetPoint1()[1];
  const double pixels = std::max(36.0, length > 0.0 ? length / devicePixelRatioF() : 0.6 * height());
  double step = tickStep(hi - lo, std::max(2, static_cast<int>(pixels / 18.0)));
  for (int k = 0; k < 8 && pixels / (std::ceil(hi / step) - std::floor(lo / step)) < 18.0; ++k)
    step = tickStep(2.5 * step, 1);  // the next 1-2-5 step up
  return step;
}

void ChartPane::fitValueAxes() {
  // each value axis from the tick below its smallest value to the tick above its largest
  for (const int side : {vtkAxis::LEFT, vtkAxis::RIGHT}) {
    const ValueBounds b = valueBounds(side);
    if (!(b.hi >= b.lo)) continue;
    double lo = b.lo, hi = b.hi;
    if (!(hi - lo > 1e-9 * std::max(std::abs(lo), std::abs(hi)))) {  // a constant, or within rounding of one
      const double middle = 0.5 * (lo + hi);
      const double pad = std::abs(middle) > 0.0 ? 0.1 * std::abs(middle) : 1.0;
      lo = middle - pad;
      hi = middle + pad;
    }
    const double step = tickStepFor(side, lo, hi);
    Fitted& fit = fitted_[side == vtkAxis::LEFT ? 0 : 1];
    fit = {std::floor(lo / step) * step, std::ceil(hi / step) * step, step};
    vtkAxis* axis = chart_->GetAxis(side);
    axis->SetBehavior(vtkAxis::FIXED);
    axis->SetRange(fit.lo, fit.hi);
  }
}

void ChartPane::holdNoiseFlat() {
  for (const int side : {vtkAxis::LEFT, vtkAxis::RIGHT}) {
    const ValueBounds b = valueBounds(side);
    if (!(b.floor > 0.0) || !(b.hi >= b.lo) || !(b.hi - b.lo < 2.0 * b.floor)) continue;
    double middle = 0.5 * (b.lo + b.hi);
    if (std::abs(middle) <= b.floor) middle = 0.0;
    vtkAxis* axis = chart_->GetAxis(side);
    axis->SetBehavior(vtkAxis::FIXED);
    axis->SetRange(middle - b.floor, middle + b.floor);
  }
}

void ChartPane::placeTicks() {
  // the value axes' ticks at multiples of a 1-2-5 step, as the exported figure draws them; with
  // automatic axes fitted again for the axes' length at the last render
  if (autoscale_ && !plotted_.empty()) {
    fitValueAxes();
    holdNoiseFlat();
  }
  for (const int side : {vtkAxis::LEFT, vtkAxis::RIGHT}) {
    vtkAxis* axis = chart_->GetAxis(side);
    const double lo = axis->GetMinimum(), hi = axis->GetMaximum();
    if (!(hi > lo) || !std::isfinite(hi - lo)) {
      axis->SetCustomTickPositions(nullptr);
      continue;
    }
    const Fitted& fit = fitted_[side == vtkAxis::LEFT ? 0 : 1];
    const double step = lo == fit.lo && hi == fit.hi ? fit.step : tickStepFor(side, lo, hi);
    vtkNew<vtkDoubleArray> positions;
    vtkNew<vtkStringArray> labels;
    for (const double y : tickValues(lo, hi, step)) {
      positions->InsertNextValue(y);
      labels->InsertNextValue(tickText(y, step).toStdString());
    }
    if (positions->GetNumberOfTuples() == 0) {  // a range within rounding: VTK's own ticks
      axis->SetCustomTickPositions(nullptr);
      continue;
    }
    axis->SetCustomTickPositions(positions, labels);
  }
}

ChartFigure ChartPane::figure(const QString& caption) const {
  ChartFigure f;
  f.title = title_;
  f.caption = caption;
  const auto [t0, t1] = visibleTimeRange();
  f.t0 = t0;
  f.t1 = t1;
  vtkAxis* left = chart_->GetAxis(vtkAxis::LEFT);
  vtkAxis* right = chart_->GetAxis(vtkAxis::RIGHT);
  f.left = {left->GetMinimum(), left->GetMaximum(), QString::fromStdString(left->GetTitle())};
  f.right = {right->GetMinimum(), right->GetMaximum(), QString::fromStdString(right->GetTitle())};
  // automatic axes: the values' range, which the figure widens to its own (finer) ticks; a range
  // held flat as noise, or within rounding of a constant, keeps the pane's
  if (autoscale_)
    for (const int side : {vtkAxis::LEFT, vtkAxis::RIGHT}) {
      const ValueBounds b = valueBounds(side);
      const bool flat = b.floor > 0.0 && b.hi - b.lo < 2.0 * b.floor;
      if (!(b.hi - b.lo > 1e-9 * std::max(std::abs(b.lo), std::abs(b.hi))) || flat) continue;
      FigureAxis& axis = side == vtkAxis::LEFT ? f.left : f.right;
      axis.min = b.lo;
      axis.max = b.hi;
      axis.toTicks = true;
    }
  const vtkIdType rows = table_->GetNumberOfRows();
  vtkDoubleArray* t = arrayOf(table_, 0);
  QStringList units;  // more than two share the left axis: each entry names its unit, as in the pane
  for (const ChartSeries& s : plotted_)
    if (!units.contains(s.unit)) units << s.unit;
  for (std::size_t j = 0; j < plotted_.size(); ++j) {
    FigureSeries s;
    s.name = units.size() > 2 ? QStringLiteral("%1 (%2)").arg(plotted_[j].name, plotted_[j].unit) : plotted_[j].name;
    s.color = plotted_[j].color;
    s.style = plotted_[j].style;
    s.rightAxis = !f.right.label.isEmpty() && plotted_[j].unit == f.right.label;
    f.hasRight = f.hasRight || s.rightAxis;
    vtkDoubleArray* a = arrayOf(table_, static_cast<vtkIdType>(j + 1));
    for (vtkIdType r = 0; r < rows && rows >= 2; ++r) {
      s.t.push_back(t->GetValue(r));
      s.y.push_back(a->GetValue(r));
    }
    f.series.push_back(std::move(s));
  }
  return f;
}

bool ChartPane::exportTo(const QString& path, QString* error, QSizeF size, double pngScale, const QString& caption) {
  renderToImage();  // lays the axes out at the widget's size, as the user sees them
  return writeFigures({figure(caption)}, path, size, pngScale, error);
}

void ChartPane::setRecorder(const kt::Recorder* recorder) {
  recorder_ = recorder;
  if (!recorder_) readout_->hide();
}

QString ChartPane::readoutAt(double x) const {
  const double t = timeAt(x);
  if (!recorder_ || plotted_.empty() || !std::isfinite(t) || recorder_->size() == 0) return {};
  std::vector<double> row(static_cast<std::size_t>(recorder_->width()));
  // the recorded sample nearest to t
  std::size_t k = recorder_->rowAtTime(t);
  const double tn = recorder_->timeOf(k + 1);  // NaN past the last row
  if (std::abs(tn - t) < std::abs(t - recorder_->timeOf(k))) ++k;
  if (recorder_->copyRows(k, k + 1, row.data()) != 1) return {};
  QString text = tr("t = %1 s").arg(row[0], 0, 'g', 6);
  for (const ChartSeries& s : plotted_)
    if (s.column >= 0 && s.column < recorder_->width())
      text += QStringLiteral("\n%1 = %2 %3")
                  .arg(s.name)
                  .arg(s.scale * row[static_cast<std::size_t>(s.column)], 0, 'g', 6)
                  .arg(s.unit);
  return text;
}

void ChartPane::showReadout(const QPointF& at) {
  const auto [top, bottom] = plotTopBottom();
  const double t = timeAt(at.x());
  const auto [t0, t1] = visibleTimeRange();
  const QString text = (t >= t0 && t <= t1 && at.y() >= top && at.y() <= bottom) ? readoutAt(at.x()) : QString();
  if (text.isEmpty()) {
    hover_->hide();
    readout_->hide();
    return;
  }
  hover_->setGeometry(static_cast<int>(std::lround(at.x())), static_cast<int>(std::lround(top)), 1,
                      static_cast<int>(std::lround(bottom - top)));
  hover_->show();
  readout_->setText(text);
  readout_->adjustSize();
  // beside the pointer, on the side with room within the plot area: past its right end lie the
  // right axis and the legend, which the readout would cover
  vtkAxis* timeAxis = chart_->GetAxis(vtkAxis::BOTTOM);
  const double right = std::min(static_cast<double>(width()), timeAxis->GetPoint2()[0] / devicePixelRatioF());
  int x = static_cast<int>(at.x()) + 12;
  if (x + readout_->width() > right) x = static_cast<int>(at.x()) - 12 - readout_->width();
  const int y =
      std::clamp(static_cast<int>(at.y()) - readout_->height() / 2, 0, std::max(0, height() - readout_->height()));
  readout_->move(std::max(0, x), y);
  readout_->show();
  readout_->raise();
}

void ChartPane::leaveEvent(QEvent* event) {
  hover_->hide();
  readout_->hide();
  VtkWidget::leaveEvent(event);
}

}  // namespace kt::render
