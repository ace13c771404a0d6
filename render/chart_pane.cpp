#include "render/chart_pane.hpp"

#include <vtkAxis.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextInteractorStyle.h>
#include <vtkContextMouseEvent.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkPDFExporter.h>
#include <vtkPlot.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>
#include <QFileInfo>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sim/recorder.hpp"

namespace kt::render {

namespace {

constexpr unsigned char kPalette[][3] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                                         {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                         {188, 189, 34},  {23, 190, 207}};
constexpr int kPaletteSize = static_cast<int>(sizeof kPalette / sizeof kPalette[0]);

void setAxesBehavior(vtkChartXY* chart, int behavior) {
  for (int a : {vtkAxis::LEFT, vtkAxis::BOTTOM}) chart->GetAxis(a)->SetBehavior(behavior);
}

// Nice tick step for a range spanning `span` with about `count` ticks.
double tickStep(double span, int count) {
  if (!(span > 0.0)) return 1.0;
  const double raw = span / count;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

vtkDoubleArray* arrayOf(vtkTable* table, vtkIdType column) {
  return vtkDoubleArray::SafeDownCast(table->GetColumn(column));
}

// First row in [0, end) whose time (column 0) is `after` (a predicate false, then true, along the
// rows): std::partition_point by bisection, reading the recording in place.
template <class After>
std::size_t firstTimeAfter(const kt::Recorder::Rows& rows, std::size_t end, After after) {
  std::size_t lo = 0, hi = end;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (after(rows.value(mid, 0))) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace

ChartPane::ChartPane(QWidget* parent) : VtkWidget(parent), cursorTime_(std::numeric_limits<double>::quiet_NaN()) {
  setMinimumHeight(120);
  renderer()->SetBackground(1.0, 1.0, 1.0);
  renderer()->GradientBackgroundOff();
  chart_ = vtkSmartPointer<vtkChartXY>::New();
  chart_->SetShowLegend(true);
  chart_->GetLegend()->SetInline(true);
  chart_->GetLegend()->GetLabelProperties()->SetFontSize(10);
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
}

ChartPane::~ChartPane() = default;

QColor ChartPane::seriesColor(int index) {
  const unsigned char* rgb = kPalette[index % kPaletteSize];
  return QColor(rgb[0], rgb[1], rgb[2]);
}

vtkChartXY* ChartPane::chart() const { return chart_; }

void ChartPane::setTitle(const QString& title) {
  title_ = title;
  chart_->SetTitle(title.toStdString());
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
  VtkWidget::paintGL();
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
  setAutoscale(false);
  VtkWidget::wheelEvent(event);
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
  QString unit;
  bool oneUnit = true;
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
    if (j == 0) unit = s.unit;
    oneUnit = oneUnit && s.unit == unit;
  }
  for (std::size_t j = 0; j < series.size(); ++j) {
    vtkPlot* plot = chart_->AddPlot(vtkChart::LINE);
    plot->SetInputData(table_, 0, static_cast<vtkIdType>(j + 1));
    const QColor& c = series[j].color;
    plot->SetColor(static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
                   static_cast<unsigned char>(c.blue()), 255);
    plot->SetWidth(1.5);
  }
  chart_->GetAxis(vtkAxis::LEFT)->SetTitle(oneUnit && !series.empty() ? unit.toStdString() : std::string());
  plotted_ = series;
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
  std::vector<vtkDoubleArray*> arrays;
  for (std::size_t j = 0; j < plotted_.size(); ++j) {
    columns.push_back(plotted_[j].column);
    arrays.push_back(arrayOf(table_, static_cast<vtkIdType>(j + 1)));
  }
  vtkDoubleArray* times = arrayOf(table_, 0);
  const double lo = chart_->GetAxis(vtkAxis::BOTTOM)->GetMinimum();
  const double hi = chart_->GetAxis(vtkAxis::BOTTOM)->GetMaximum();

  recorder.read([&](const kt::Recorder::Rows& rows) {
    // Rows [0, n): the samples at or before t.
    const std::size_t n = firstTimeAfter(rows, rows.size(), [t](double x) { return x > t; });
    rows_ = n;
    // Visible time range: the whole run (autoscale) or the axis range the user chose.
    std::size_t i0 = 0, i1 = n;
    if (!autoscale_ && n > 0) {
      i0 = firstTimeAfter(rows, n, [lo](double x) { return !(x < lo); });
      i1 = firstTimeAfter(rows, n, [hi](double x) { return x > hi; });
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
        for (std::size_t j = 0; j < columns.size(); ++j) arrays[j]->SetValue(r, row[columns[j]]);
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
          const double v = row[columns[j]];
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
  }
  hint_->setVisible(plotted_.empty());
  update();
}

bool ChartPane::exportTo(const QString& path, QString* error) {
  auto fail = [error](const QString& message) {
    if (error) *error = message;
    return false;
  };
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) {
    const QImage image = renderToImage();
    if (image.isNull()) return fail(tr("The pane could not be rendered"));
    if (!image.save(path, "PNG")) return fail(tr("Cannot write %1").arg(path));
    return true;
  }
  if (suffix == QLatin1String("pdf")) {
    renderToImage();  // lays the chart out at the widget's size
    vtkNew<vtkPDFExporter> exporter;
    exporter->SetRenderWindow(renderWindow());
    exporter->SetFileName(path.toStdString().c_str());
    exporter->SetTitle(title_.toStdString().c_str());
    exporter->Write();
    if (QFileInfo(path).size() <= 0) return fail(tr("Cannot write %1").arg(path));
    return true;
  }
  if (suffix == QLatin1String("svg")) return writeSvg(path, error);
  return fail(tr("Unknown plot format '%1' (expected .png, .svg or .pdf)").arg(suffix));
}

bool ChartPane::writeSvg(const QString& path, QString* error) const {
  // The decimated series as drawn, as vector paths, with the chart's axis ranges.
  const int width = 900, height = 420;
  const QRectF plot(70, 40, width - 70 - 20, height - 40 - 50);
  vtkAxis* xAxis = chart_->GetAxis(vtkAxis::BOTTOM);
  vtkAxis* yAxis = chart_->GetAxis(vtkAxis::LEFT);
  double x0 = xAxis->GetMinimum(), x1 = xAxis->GetMaximum();
  double y0 = yAxis->GetMinimum(), y1 = yAxis->GetMaximum();
  if (!(x1 > x0)) x1 = x0 + 1.0;
  if (!(y1 > y0)) y1 = y0 + 1.0;
  auto X = [&](double x) { return plot.left() + (x - x0) / (x1 - x0) * plot.width(); };
  auto Y = [&](double y) { return plot.bottom() - (y - y0) / (y1 - y0) * plot.height(); };

  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(title_);
  svg.setDescription(tr("Kinetree plot"));
  QPainter painter;
  if (!painter.begin(&svg)) {
    if (error) *error = tr("Cannot write %1").arg(path);
    return false;
  }
  painter.fillRect(QRect(0, 0, width, height), Qt::white);
  painter.setRenderHint(QPainter::Antialiasing);
  QFont font = painter.font();
  font.setPixelSize(12);
  painter.setFont(font);
  painter.setPen(QPen(Qt::black, 1));
  painter.drawText(QRectF(0, 8, width, 24), Qt::AlignHCenter, title_);
  // Ticks and grid.
  const double xs = tickStep(x1 - x0, 8), ys = tickStep(y1 - y0, 6);
  painter.setPen(QPen(QColor(220, 220, 220), 1));
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs)
    painter.drawLine(QPointF(X(x), plot.top()), QPointF(X(x), plot.bottom()));
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys)
    painter.drawLine(QPointF(plot.left(), Y(y)), QPointF(plot.right(), Y(y)));
  painter.setPen(QPen(Qt::black, 1));
  for (double x = std::ceil(x0 / xs) * xs; x <= x1 + 1e-9 * xs; x += xs)
    painter.drawText(QRectF(X(x) - 40, plot.bottom() + 4, 80, 16), Qt::AlignHCenter, QString::number(x, 'g', 4));
  for (double y = std::ceil(y0 / ys) * ys; y <= y1 + 1e-9 * ys; y += ys)
    painter.drawText(QRectF(0, Y(y) - 8, plot.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(std::abs(y) < 1e-12 * ys ? 0.0 : y, 'g', 4));
  painter.drawText(QRectF(plot.left(), plot.bottom() + 22, plot.width(), 16), Qt::AlignHCenter,
                   QStringLiteral("t (s)"));
  painter.drawRect(plot);
  // Series.
  painter.setClipRect(plot);
  const vtkIdType rows = table_->GetNumberOfRows();
  vtkDoubleArray* t = arrayOf(table_, 0);
  for (std::size_t j = 0; j < plotted_.size(); ++j) {
    vtkDoubleArray* a = arrayOf(table_, static_cast<vtkIdType>(j + 1));
    QPainterPath line;
    bool pen = false;
    for (vtkIdType r = 0; r < rows; ++r) {
      const double v = a->GetValue(r);
      if (!std::isfinite(v)) {
        pen = false;
        continue;
      }
      const QPointF point(X(t->GetValue(r)), Y(v));
      if (pen) {
        line.lineTo(point);
      } else {
        line.moveTo(point);
        pen = true;
      }
    }
    painter.setPen(QPen(plotted_[j].color, 1.5));
    painter.drawPath(line);
  }
  painter.setClipping(false);
  // Legend.
  double ly = plot.top() + 8;
  for (const ChartSeries& s : plotted_) {
    painter.setPen(QPen(s.color, 2));
    painter.drawLine(QPointF(plot.right() - 190, ly + 6), QPointF(plot.right() - 170, ly + 6));
    painter.setPen(Qt::black);
    painter.drawText(QRectF(plot.right() - 165, ly, 160, 14), Qt::AlignLeft | Qt::AlignVCenter, s.name);
    ly += 15;
  }
  painter.end();
  if (QFileInfo(path).size() <= 0) {
    if (error) *error = tr("Cannot write %1").arg(path);
    return false;
  }
  return true;
}

}  // namespace kt::render
