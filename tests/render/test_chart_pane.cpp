// SPDX-License-Identifier: BSD-3-Clause
// The chart pane on synthetic recordings: it draws rows [0, k] for the time it is given (found by
// bisection, also for uneven sample times); a 10⁵-row series is drawn as 2 points per pixel
// column, the first and last of (min, max) of the column's samples in time order; a zoomed pane
// decimates only the visible range; without a recorder it keeps the points it drew; it exports
// valid PNG, SVG and PDF files (also left in the working directory as chart_pane.png/.svg/.pdf).
// Runs under xvfb-run.
#include <vtkAxis.h>
#include <vtkChartXY.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkStringArray.h>
#include <vtkTable.h>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSurfaceFormat>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "core/results/recorder.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/charts/ticks.hpp"

using kt::Recorder;
using kt::render::ChartPane;
using kt::render::ChartSeries;

namespace {

constexpr double kStep = 1e-3;

// Rows (t, x, y, z): t = time(k); x seeded noise with rare spikes; y = k; z = cos(t).
std::unique_ptr<Recorder> makeRecording(std::size_t rows, double (*time)(std::size_t)) {
  auto rec = std::make_unique<Recorder>(4, 0, 0, 1000);  // 1000 rows per chunk: bins cross chunks
  std::mt19937 random(7);
  std::uniform_real_distribution<double> noise(-1.0, 1.0);
  const Eigen::VectorXd none;
  for (std::size_t k = 0; k < rows; ++k) {
    const double t = time(k);
    const double x = noise(random) * (k % 997 == 0 ? 10.0 : 1.0);
    const double row[4] = {t, x, double(k), std::cos(t)};
    rec->append(row, t, none, none);
  }
  return rec;
}

double evenTime(std::size_t k) { return double(k) * kStep; }
double unevenTime(std::size_t k) { return double(k) * double(k) * 1e-4; }

std::vector<ChartSeries> series(std::initializer_list<int> columns) {
  std::vector<ChartSeries> out;
  for (int c : columns)
    out.push_back({c, QStringLiteral("s%1").arg(c), QStringLiteral("m"), kt::render::seriesColor(int(out.size()))});
  return out;
}

std::vector<double> columnOf(const ChartPane& pane, int column) {
  vtkTable* table = pane.chart()->GetPlot(0)->GetInput();
  vtkDataArray* a = vtkDataArray::SafeDownCast(table->GetColumn(column));
  std::vector<double> out(static_cast<std::size_t>(table->GetNumberOfRows()));
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = a->GetTuple1(static_cast<vtkIdType>(r));
  return out;
}

}  // namespace

class TestChartPane : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    pane_ = std::make_unique<ChartPane>();
    pane_->resize(400, 200);
    pane_->show();
    QVERIFY(QTest::qWaitForWindowExposed(pane_.get()));
  }
  void cleanup() { pane_.reset(); }

  // Rows [0, k] with t_k ≤ t, even and uneven sample times; before the first sample: nothing.
  void drawsUpToTime() {
    for (double (*time)(std::size_t) : {evenTime, unevenTime}) {
      const auto rec = makeRecording(200, time);
      pane_->setSeries(series({2}));
      for (std::size_t k : {std::size_t(0), std::size_t(12), std::size_t(70), std::size_t(199)}) {
        for (double t : {time(k), 0.5 * (time(k) + time(k + 1))}) {  // on a sample, between two
          pane_->draw(*rec, t);
          QCOMPARE(pane_->rowCount(), k + 1);
          const std::vector<double> ts = columnOf(*pane_, 0), ys = columnOf(*pane_, 1);
          QCOMPARE(ts.size(), k + 1);  // fewer samples than pixels: every one
          QCOMPARE(ts.back(), time(k));
          QCOMPARE(ys.back(), double(k));
          QCOMPARE(pane_->drawnPoints(), k + 1);
        }
      }
      pane_->draw(*rec, -1.0);
      QCOMPARE(pane_->rowCount(), std::size_t(0));
      QCOMPARE(pane_->drawnPoints(), std::size_t(0));
      QVERIFY(!pane_->chart()->GetPlot(0)->GetVisible());
    }
  }

  // A free joint's loads are ±1e-14 N of rounding noise: with the dead band as the unit's noise
  // floor the axis spans ±floor around zero (a flat line at 0), not the noise at full height; a
  // load above the floor is fitted as before; N·m on the right axis has its own floor.
  void noiseIsDrawnFlat() {
    auto rec = std::make_unique<Recorder>(3, 0, 0, 1000);
    std::mt19937 random(3);
    std::uniform_real_distribution<double> noise(-1e-14, 1e-14);
    const Eigen::VectorXd none;
    for (std::size_t k = 0; k < 500; ++k) {
      const double t = evenTime(k);
      const double row[3] = {t, noise(random), 50.0 + 10.0 * std::sin(10.0 * t)};
      rec->append(row, t, none, none);
    }
    const auto span = [&](int side) {
      pane_->renderToImage();
      vtkAxis* axis = pane_->chart()->GetAxis(side);
      return std::pair{axis->GetMinimum(), axis->GetMaximum()};
    };
    pane_->setSeries({{1, "load:base.fx", "N", kt::render::seriesColor(0)}});
    pane_->draw(*rec, 1.0);
    const auto [lo0, hi0] = span(vtkAxis::LEFT);
    QVERIFY2(hi0 - lo0 < 1e-10, qPrintable(QStringLiteral("%1 %2").arg(lo0).arg(hi0)));  // no floor: the noise
    pane_->setNoiseFloor("N", 0.03);
    pane_->draw(*rec, 1.0);
    const auto [lo, hi] = span(vtkAxis::LEFT);
    QCOMPARE(lo, -0.03);
    QCOMPARE(hi, 0.03);
    // a real load next to it on the right axis (N·m, no floor): fitted to its values
    pane_->setSeries(
        {{1, "load:base.fx", "N", kt::render::seriesColor(0)}, {2, "load:J1.mz", "N*m", kt::render::seriesColor(1)}});
    pane_->draw(*rec, 1.0);
    QCOMPARE(span(vtkAxis::LEFT).first, -0.03);
    const auto [rlo, rhi] = span(vtkAxis::RIGHT);
    QVERIFY2(rlo <= 40.5 && rhi >= 59.5 && rhi - rlo < 40.0, qPrintable(QStringLiteral("%1 %2").arg(rlo).arg(rhi)));
    // a floor above a real load's span does not flatten it onto zero: around its middle
    pane_->setNoiseFloor("N*m", 100.0);
    pane_->draw(*rec, 1.0);
    QCOMPARE(span(vtkAxis::RIGHT).second - span(vtkAxis::RIGHT).first, 200.0);
    QVERIFY(span(vtkAxis::RIGHT).first == -100.0);  // 50 lies within the floor: about zero
    // pan or zoom: the user's range stays
    pane_->setAutoscale(false);
    pane_->chart()->GetAxis(vtkAxis::LEFT)->SetRange(-1.0, 1.0);
    pane_->draw(*rec, 1.0);
    QCOMPARE(span(vtkAxis::LEFT).second, 1.0);
  }

  // Automatic value axes run from the tick below the values to the tick above (joint angles of
  // −3.6° to 173° are not drawn on −100 … 200), every tick labelled, at one 1-2-5 step; panned,
  // the ticks follow the range.
  void valueAxesRunTickToTick() {
    auto rec = std::make_unique<Recorder>(2, 0, 0, 1000);
    const Eigen::VectorXd none;
    for (std::size_t k = 0; k <= 500; ++k) {
      const double t = evenTime(k);
      const double row[2] = {t, -3.6 + 176.6 * std::sin(std::numbers::pi * static_cast<double>(k) / 1000.0)};
      rec->append(row, t, none, none);
    }
    pane_->setSeries({{1, "q:J11[0]", "deg", kt::render::seriesColor(0)}});
    pane_->draw(*rec, 1.0);
    const auto check = [&](double dataLo, double dataHi) {
      pane_->renderToImage();
      pane_->renderToImage();  // the ticks for the axis length of the first
      vtkAxis* axis = pane_->chart()->GetAxis(vtkAxis::LEFT);
      const double lo = axis->GetMinimum(), hi = axis->GetMaximum();
      vtkDoubleArray* ticks = axis->GetTickPositions();
      vtkStringArray* labels = axis->GetTickLabels();
      QVERIFY(ticks && labels && ticks->GetNumberOfTuples() >= 3);
      QCOMPARE(labels->GetNumberOfValues(), ticks->GetNumberOfTuples());
      const double step = ticks->GetValue(1) - ticks->GetValue(0);
      const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
      QVERIFY2(std::abs(mantissa - 1.0) < 1e-9 || std::abs(mantissa - 2.0) < 1e-9 || std::abs(mantissa - 5.0) < 1e-9,
               qPrintable(QString::number(step)));
      for (vtkIdType k = 0; k < ticks->GetNumberOfTuples(); ++k) {
        QVERIFY(std::abs(ticks->GetValue(k) - (ticks->GetValue(0) + static_cast<double>(k) * step)) < 1e-9 * step);
        QCOMPARE(QString::fromStdString(labels->GetValue(k)), kt::render::tickText(ticks->GetValue(k), step));
      }
      QVERIFY(ticks->GetValue(0) >= lo - 1e-9 * step && ticks->GetValue(0) < lo + step);
      QVERIFY(ticks->GetValue(ticks->GetNumberOfTuples() - 1) <= hi + 1e-9 * step);
      if (pane_->autoscale()) {  // from tick to tick around the values, within a step of them
        QCOMPARE(ticks->GetValue(0), lo);
        QCOMPARE(ticks->GetValue(ticks->GetNumberOfTuples() - 1), hi);
        QVERIFY2(lo <= dataLo && lo > dataLo - step && hi >= dataHi && hi < dataHi + step,
                 qPrintable(QStringLiteral("%1 … %2, step %3").arg(lo).arg(hi).arg(step)));
      }
    };
    check(-3.6, 173.0);
    pane_->setAutoscale(false);
    pane_->chart()->GetAxis(vtkAxis::LEFT)->SetRange(-7.3, 61.9);
    check(0.0, 0.0);
  }

  // A signal constant but for rounding (an energy of 100 J that varies by 1e-14 J) is drawn as a
  // constant, about its value, and its ticks end: no step finer than the numbers can hold.
  void roundingNoiseOnAConstant() {
    auto rec = std::make_unique<Recorder>(2, 0, 0, 1000);
    const Eigen::VectorXd none;
    for (std::size_t k = 0; k <= 200; ++k) {
      const double t = evenTime(k);
      const double row[2] = {t, k % 2 == 0 ? 100.0 : std::nextafter(100.0, 200.0)};
      rec->append(row, t, none, none);
    }
    pane_->setSeries({{1, "energy", "J", kt::render::seriesColor(0)}});
    pane_->draw(*rec, 1.0);
    pane_->renderToImage();
    pane_->renderToImage();
    vtkAxis* axis = pane_->chart()->GetAxis(vtkAxis::LEFT);
    QVERIFY2(axis->GetMinimum() <= 95.0 && axis->GetMaximum() >= 105.0,
             qPrintable(QStringLiteral("%1 … %2").arg(axis->GetMinimum()).arg(axis->GetMaximum())));
    QVERIFY(axis->GetTickPositions() && axis->GetTickPositions()->GetNumberOfTuples() >= 3);
    // the ticks of a range within rounding of a constant: none, rather than a loop that cannot end
    QVERIFY(kt::render::tickValues(100.0, std::nextafter(100.0, 200.0), 1e-15).empty());
    QCOMPARE(kt::render::tickValues(-3.6, 173.0, 50.0), (std::vector<double>{0.0, 50.0, 100.0, 150.0}));
  }

  // 10⁵ rows: per pixel column the first and last time, and the column's min and max in the
  // order they occur.
  void decimationKeepsEnvelope() {
    const std::size_t n = 100000;
    const auto rec = makeRecording(n, evenTime);
    pane_->setSeries(series({1, 3}));
    pane_->draw(*rec, evenTime(n - 1));
    QCOMPARE(pane_->rowCount(), n);
    const auto pixels = static_cast<std::size_t>(std::max(100.0, pane_->width() * pane_->devicePixelRatioF()));
    const std::vector<double> ts = columnOf(*pane_, 0), xs = columnOf(*pane_, 1), zs = columnOf(*pane_, 2);
    QCOMPARE(ts.size(), 2 * pixels);
    QCOMPARE(pane_->drawnPoints(), 2 * 2 * pixels);
    const std::vector<double> x = rec->column(1);
    for (std::size_t b = 0; b < pixels; ++b) {
      const std::size_t k0 = b * n / pixels, k1 = (b + 1) * n / pixels;
      QCOMPARE(ts[2 * b], evenTime(k0));
      QCOMPARE(ts[2 * b + 1], evenTime(k1 - 1));
      const auto lo = std::min_element(x.begin() + long(k0), x.begin() + long(k1));
      const auto hi = std::max_element(x.begin() + long(k0), x.begin() + long(k1));
      QCOMPARE(xs[2 * b], lo < hi ? *lo : *hi);
      QCOMPARE(xs[2 * b + 1], lo < hi ? *hi : *lo);
    }
    QCOMPARE(*std::min_element(xs.begin(), xs.end()), *std::min_element(x.begin(), x.end()));
    QCOMPARE(*std::max_element(xs.begin(), xs.end()), *std::max_element(x.begin(), x.end()));
    QCOMPARE(*std::max_element(zs.begin(), zs.end()), 1.0);  // cos(0)
  }

  // After a zoom only the visible range (and one sample beyond each edge) is decimated;
  // setAutoscale(true) draws the whole run again.
  void zoomDecimatesVisibleRange() {
    const std::size_t n = 100000;
    const auto rec = makeRecording(n, evenTime);
    pane_->setSeries(series({1}));
    pane_->draw(*rec, evenTime(n - 1));
    pane_->setAutoscale(false);
    pane_->chart()->GetAxis(vtkAxis::BOTTOM)->SetRange(10.0005, 20.0005);  // samples 10001 … 20000
    pane_->draw(*rec, evenTime(n - 1));
    std::vector<double> ts = columnOf(*pane_, 0);
    QCOMPARE(ts.front(), evenTime(10000));
    QCOMPARE(ts.back(), evenTime(20001));
    pane_->setAutoscale(true);
    pane_->draw(*rec, evenTime(n - 1));
    ts = columnOf(*pane_, 0);
    QCOMPARE(ts.front(), 0.0);
    QCOMPARE(ts.back(), evenTime(n - 1));
  }

  // Without a recorder: the series still listed keep their points; a new one has none.
  void keepsPointsWithoutRecorder() {
    const auto rec = makeRecording(300, evenTime);
    pane_->setSeries(series({1, 2}));
    pane_->draw(*rec, evenTime(299));
    const std::vector<double> y = columnOf(*pane_, 2);
    pane_->setSeries(series({2, 3}));
    pane_->draw();
    QCOMPARE(pane_->drawnSeries(), std::size_t(1));
    QCOMPARE(pane_->chart()->GetNumberOfPlots(), vtkIdType(1));
    QCOMPARE(columnOf(*pane_, 1), y);
    QVERIFY(pane_->hintLabel()->isHidden());
    pane_->setSeries(series({3}));
    pane_->setEmptyText(QStringLiteral("nothing"));
    pane_->draw();
    QCOMPARE(pane_->drawnSeries(), std::size_t(0));
    QVERIFY(!pane_->hintLabel()->isHidden());
    QCOMPARE(pane_->hintLabel()->text(), QStringLiteral("nothing"));
  }

  // PNG, SVG and PDF are valid, non-empty files of their kind; an unknown suffix is refused.
  // Two units: the second on the right axis, its entries marked so. More: they share the left
  // axis, titled with every unit, and each entry names its own unit, in the pane and its figure.
  void legendNamesUnitsSharingAnAxis() {
    const auto rec = makeRecording(50, evenTime);
    std::vector<ChartSeries> s = series({1, 2, 3});
    s[1].unit = QStringLiteral("N");
    pane_->setSeries({s[0], s[1]});
    pane_->draw(*rec, evenTime(49));
    kt::render::ChartFigure f = pane_->figure(QString());
    QCOMPARE(f.left.label, QStringLiteral("m"));
    QCOMPARE(f.right.label, QStringLiteral("N"));
    QCOMPARE(f.series[0].name, QStringLiteral("s1"));
    QCOMPARE(f.series[1].name, QStringLiteral("s2"));
    QVERIFY(f.series[1].rightAxis);
    s[2].unit = QStringLiteral("N*m");
    pane_->setSeries(s);
    pane_->draw(*rec, evenTime(49));
    f = pane_->figure(QString());
    QCOMPARE(f.left.label, QStringLiteral("m, N, N*m"));
    QVERIFY(f.right.label.isEmpty());
    QCOMPARE(f.series[0].name, QStringLiteral("s1 (m)"));
    QCOMPARE(f.series[1].name, QStringLiteral("s2 (N)"));
    QCOMPARE(f.series[2].name, QStringLiteral("s3 (N*m)"));
    QVERIFY(!f.series[1].rightAxis && !f.series[2].rightAxis);
  }

  // Past the palette's ten colours a series repeats a colour with another line: dashed in the
  // chart, its legend and its figure.
  void seriesBeyondTheColoursAreDashed() {
    QCOMPARE(kt::render::seriesStyle(0), Qt::SolidLine);
    QCOMPARE(kt::render::seriesStyle(9), Qt::SolidLine);
    QCOMPARE(kt::render::seriesStyle(10), Qt::DashLine);
    QCOMPARE(kt::render::seriesStyle(20), Qt::DotLine);
    QCOMPARE(kt::render::seriesColor(10), kt::render::seriesColor(0));
    const auto rec = makeRecording(50, evenTime);
    std::vector<ChartSeries> s;
    for (int k = 0; k < 12; ++k) {
      ChartSeries c = series({1 + k % 3}).front();
      c.name = QStringLiteral("s%1").arg(k);
      c.color = kt::render::seriesColor(k);
      c.style = kt::render::seriesStyle(k);
      s.push_back(c);
    }
    pane_->setSeries(s);
    pane_->draw(*rec, evenTime(49));
    QCOMPARE(pane_->chart()->GetPlot(9)->GetPen()->GetLineType(), int(vtkPen::SOLID_LINE));
    QCOMPARE(pane_->chart()->GetPlot(10)->GetPen()->GetLineType(), int(vtkPen::DASH_LINE));
    const kt::render::ChartFigure f = pane_->figure(QString());
    QCOMPARE(f.series[9].style, Qt::SolidLine);
    QCOMPARE(f.series[11].style, Qt::DashLine);
  }

  // A title wider than the plot area is cut short in the middle (it ran over the right axis'
  // labels in a narrow window); one that fits is left whole, and the figure keeps the whole title.
  void longTitlesAreCutInTheMiddle() {
    const auto rec = makeRecording(50, evenTime);
    const QString title =
        QStringLiteral("Constraint forces and moments of a joint with a long name: J11 (joint frame)");
    pane_->setTitle(title);
    pane_->setSeries(series({1}));
    pane_->draw(*rec, evenTime(49));
    pane_->renderToImage();  // lays the plot area out; the title is fitted to it after the frame
    const QString shown = QString::fromStdString(pane_->chart()->GetTitle());
    QVERIFY2(shown.contains(QStringLiteral("…")) && shown.size() < title.size(), qPrintable(shown));
    QVERIFY2(shown.startsWith(QStringLiteral("Constraint")), qPrintable(shown));
    QVERIFY2(shown.endsWith(QStringLiteral("(joint frame)")), qPrintable(shown));
    QCOMPARE(pane_->figure(QString()).title, title);
    pane_->setTitle(QStringLiteral("Loads"));
    pane_->renderToImage();
    QCOMPARE(QString::fromStdString(pane_->chart()->GetTitle()), QStringLiteral("Loads"));
  }

  // An automatic axis exported: the figure takes the values' range and widens it to its own
  // ticks, which are finer than the pane's; the pane's range left empty bands (−100 … 200 for
  // values of −3 … 175).
  void figureAxesRunTickToTickAtTheirOwnStep() {
    Recorder rec(2, 0, 0);
    for (int k = 0; k <= 178; ++k) {  // y = −3 … 175
      const double row[2] = {evenTime(static_cast<std::size_t>(k)), k - 3.0};
      rec.append(row, row[0], Eigen::VectorXd(), Eigen::VectorXd());
    }
    pane_->resize(400, 130);  // a short pane: ticks 100 apart, −100 … 200
    pane_->setSeries(series({1}));
    pane_->draw(rec, evenTime(178));
    pane_->renderToImage();
    pane_->renderToImage();  // the ticks fitted to the axis' length at the last render
    QCOMPARE(pane_->chart()->GetAxis(vtkAxis::LEFT)->GetMinimum(), -100.0);
    const kt::render::ChartFigure f = pane_->figure(QString());
    QVERIFY(f.left.toTicks);
    QCOMPARE(f.left.min, -3.0);
    QCOMPARE(f.left.max, 175.0);
    const kt::render::ChartFigure::AxisRange r = f.valueRange(false);
    QVERIFY2(r.step < 100.0 && r.lo <= -3.0 && r.lo > -3.0 - r.step && r.hi >= 175.0 && r.hi < 175.0 + r.step,
             qPrintable(QStringLiteral("%1 … %2, step %3").arg(r.lo).arg(r.hi).arg(r.step)));
    // axes set by hand keep their range
    pane_->setAutoscale(false);
    QVERIFY(!pane_->figure(QString()).left.toTicks);
  }

  void exportFormats() {
    const auto rec = makeRecording(20000, evenTime);
    pane_->setTitle(QStringLiteral("Synthetic"));
    pane_->setSeries(series({1, 3}));
    pane_->draw(*rec, evenTime(19999));
    QTemporaryDir dir;
    const QString base = dir.filePath(QStringLiteral("chart_pane"));
    for (const char* suffix : {".png", ".svg", ".pdf"}) {
      QString error;
      QVERIFY2(pane_->exportTo(base + suffix, &error), qPrintable(error));
      QVERIFY(QFile(base + suffix).size() > 1000);
      QFile::remove(QDir::current().filePath(QStringLiteral("chart_pane") + suffix));
      QFile::copy(base + suffix, QDir::current().filePath(QStringLiteral("chart_pane") + suffix));
    }
    const QImage png(base + ".png");
    QVERIFY(!png.isNull());
    QVERIFY(kt::render::greyVariance(png) > 1.0);
    QVERIFY(QSvgRenderer(base + ".svg").isValid());
    QFile pdf(base + ".pdf");
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.right(32).contains("%%EOF"));
    QString error;
    QVERIFY(!pane_->exportTo(base + ".bmpx", &error));
    QVERIFY(!error.isEmpty());
  }

 private:
  std::unique_ptr<ChartPane> pane_;
};

int main(int argc, char* argv[]) {
  QSurfaceFormat::setDefaultFormat(kt::render::VtkWidget::defaultFormat());
  QApplication app(argc, argv);
  TestChartPane test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_chart_pane.moc"
