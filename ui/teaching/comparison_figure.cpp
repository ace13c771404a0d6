// SPDX-License-Identifier: BSD-3-Clause
#include "ui/teaching/comparison_figure.hpp"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace kt::ui {

namespace {

constexpr double kLogDecades = 8.0;

const kt::DifferenceMeasure& measure(const kt::SolverDifference& d, ComparedQuantity q) {
  switch (q) {
    case ComparedQuantity::Qdd: return d.qdd;
    case ComparedQuantity::Load: return d.load;
    case ComparedQuantity::P: return d.p;
    case ComparedQuantity::V: return d.v;
    case ComparedQuantity::Pdot: return d.pdot;
  }
  return d.qdd;
}

QString quantityName(ComparedQuantity q) {
  switch (q) {
    case ComparedQuantity::Qdd: return QObject::tr("qdd");
    case ComparedQuantity::Load: return QObject::tr("joint loads");
    case ComparedQuantity::P: return QObject::tr("p (against M ν)");
    case ComparedQuantity::V: return QObject::tr("ν (from p)");
    case ComparedQuantity::Pdot: return QObject::tr("ṗ (against d/dt M ν)");
  }
  return {};
}

// At most 2 × `buckets` points: each bucket's smallest and largest value, in time order.
render::FigureSeries decimated(const render::FigureSeries& s, int buckets) {
  const std::size_t n = std::min(s.t.size(), s.y.size());
  if (n <= 2 * static_cast<std::size_t>(buckets)) return s;
  render::FigureSeries out = s;
  out.t.clear();
  out.y.clear();
  const double per = static_cast<double>(n) / buckets;
  for (int b = 0; b < buckets; ++b) {
    const auto k0 = static_cast<std::size_t>(b * per), k1 = std::min(n, static_cast<std::size_t>((b + 1) * per));
    if (k0 >= k1) continue;
    std::size_t lo = k0, hi = k0;
    for (std::size_t k = k0; k < k1; ++k) {
      if (s.y[k] < s.y[lo]) lo = k;
      if (s.y[k] > s.y[hi]) hi = k;
    }
    for (const std::size_t k : {std::min(lo, hi), std::max(lo, hi)}) {
      out.t.push_back(s.t[k]);
      out.y.push_back(s.y[k]);
      if (lo == hi) break;
    }
  }
  return out;
}

}  // namespace

ComparisonCurves comparisonCurves(const ComparisonResult& result, const CurveRequest& request) {
  ComparisonCurves c;
  int colour = 0;
  if (!result.trajectory) {
    c.quantity = QObject::tr("relative difference of %1").arg(quantityName(request.quantity));
    for (const kt::SolverDifference& d : result.pointwise) {
      if (d.solver == result.reference) continue;  // zero: measured against itself
      const kt::DifferenceMeasure& m = measure(d, request.quantity);
      if (!m.measured) continue;
      render::FigureSeries s;
      s.name = QString::fromStdString(d.solver);
      s.color = render::seriesColor(colour++);
      s.t.assign(result.stateTimes.begin(), result.stateTimes.begin() + static_cast<std::ptrdiff_t>(m.at.size()));
      s.y.resize(m.at.size());
      const double scale = m.scale > 0.0 ? m.scale : 1.0;
      std::transform(m.at.begin(), m.at.end(), s.y.begin(), [scale](double a) { return a / scale; });
      c.series.push_back(std::move(s));
    }
    if (c.series.empty())
      c.problem = request.quantity == ComparedQuantity::Qdd || request.quantity == ComparedQuantity::Load
                      ? QObject::tr("Choose a solver besides the reference.")
                      : QObject::tr("Choose a Poisson-impulse solver (poisson-sweep, poisson-ldl): only they give p.");
    return c;
  }
  if (result.runs.empty()) return c;
  const kt::SignalLayout& layout = result.runs.front().sim->signalLayout();
  std::vector<int> columns;
  std::string error;
  if (!kt::selectSignals(layout.names(), request.patterns.toStdString(), columns, error)) {
    c.problem = QString::fromStdString(error);
    return c;
  }
  columns.erase(std::remove(columns.begin(), columns.end(), 0), columns.end());  // not the time
  if (columns.empty()) {
    c.problem = QObject::tr("Name the signals to compare, e.g. attitude:* or q:J1*.");
    return c;
  }
  QStringList units;
  for (const int col : columns) {
    QString unit = QString::fromStdString(layout.infos()[static_cast<std::size_t>(col)].unit);
    if (request.degrees && unit.startsWith(QLatin1String("rad"))) unit.replace(0, 3, QStringLiteral("deg"));
    if (!units.contains(unit)) units.push_back(unit);
  }
  c.quantity = units.size() == 1 ? QObject::tr("|x − x_ref| (%1)").arg(units.front()) : QObject::tr("|x − x_ref|");
  const kt::Recorder& reference = result.runs.front().sim->recorder();
  const std::size_t curves = (result.runs.size() - 1) * columns.size();
  if (curves > static_cast<std::size_t>(kMaxCurves))
    c.problem =
        QObject::tr("%1 curves: the first %2 are drawn; choose fewer signals or solvers.").arg(curves).arg(kMaxCurves);
  // the solvers first, the integrator's own difference last, in greys; a few signals are told
  // apart by their lines, each run by its colour (grey left for the integrator's own)
  std::vector<std::size_t> order;
  for (std::size_t r = 2; r < result.runs.size(); ++r) order.push_back(r);
  if (result.runs.size() > 1) order.push_back(1);  // a stopped comparison may have the reference only
  const bool styled = columns.size() <= static_cast<std::size_t>(kStyledSignals);
  const auto nextColour = [&colour] {
    if (colour % 10 == 7) ++colour;  // the palette's grey is the integrator's
    return render::seriesColor(colour++);
  };
  static constexpr Qt::PenStyle kLines[kStyledSignals] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
  const auto signalName = [&](std::size_t j) {
    const auto& info = layout.infos()[static_cast<std::size_t>(columns[j])];
    QString name = QString::fromStdString(info.name);
    if (units.size() > 1) name += QStringLiteral(" (%1)").arg(QString::fromStdString(info.unit));
    return name;
  };
  for (std::size_t j = 0; j < columns.size(); ++j) c.signalLabels.push_back(signalName(j));
  for (const std::size_t r : order) {
    const kt::ComparedRun& run = result.runs[r];
    const QString label = QString::fromStdString(run.label());
    QColor runColour(110, 110, 110);
    if (styled && !run.integratorCheck) runColour = nextColour();
    c.runLabels.push_back(label);
    if (styled) {
      render::FigureSeries entry;
      entry.name = run.integratorCheck ? QObject::tr("%1 (the integrator's own)").arg(label) : label;
      entry.color = runColour;
      c.legend.push_back(std::move(entry));
    }
    for (std::size_t j = 0; j < columns.size(); ++j) {
      if (c.series.size() >= static_cast<std::size_t>(kMaxCurves)) break;
      const auto& info = layout.infos()[static_cast<std::size_t>(columns[j])];
      render::FigureSeries s;
      s.name = QStringLiteral("%1: %2").arg(label, c.signalLabels[static_cast<int>(j)]);
      if (styled) {
        s.color = runColour;
        s.style = kLines[j];
      } else if (run.integratorCheck) {  // dashed, in greys from dark to light
        s.style = Qt::DashLine;
        const int grey = 70 + static_cast<int>(j % 4) * 40;
        s.color = QColor(grey, grey, grey);
      } else {
        s.color = nextColour();
      }
      kt::signalDifference(run.sim->recorder(), reference, columns[j], s.t, s.y);
      if (request.degrees && info.unit.rfind("rad", 0) == 0)
        for (double& y : s.y) y *= 180.0 / std::numbers::pi;
      c.series.push_back(std::move(s));
      c.runOf.push_back(static_cast<int>(c.runLabels.size()) - 1);
      c.signalOf.push_back(static_cast<int>(j));
    }
  }
  // a legend of runs, then of signals by their lines, where a curve is told by both
  if (styled && columns.size() > 1)
    for (std::size_t j = 0; j < columns.size(); ++j) {
      render::FigureSeries entry;
      entry.name = c.signalLabels[static_cast<int>(j)];
      entry.color = QColor(40, 40, 40);
      entry.style = kLines[j];
      c.legend.push_back(std::move(entry));
    }
  return c;
}

render::ChartFigure comparisonFigure(const ComparisonResult& result, const ComparisonCurves& curves, bool log) {
  render::ChartFigure f;
  f.title = result.trajectory
                ? QObject::tr("Trajectories against %1").arg(QString::fromStdString(result.reference))
                : QObject::tr("At the run's states, against %1").arg(QString::fromStdString(result.reference));
  f.caption = result.label;
  f.left.label = curves.quantity;
  f.left.log = log;
  f.legend = curves.legend;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, t0 = lo, t1 = -lo;
  for (const render::FigureSeries& s : curves.series) {
    for (std::size_t k = 0; k < s.y.size(); ++k) {
      const double y = s.y[k];
      if (!std::isfinite(y) || (log && !(y > 0.0))) continue;
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
    if (!s.t.empty()) {
      t0 = std::min(t0, s.t.front());
      t1 = std::max(t1, s.t.back());
    }
    f.series.push_back(decimated(s, kFigurePoints));
  }
  if (!(hi >= lo)) lo = hi = log ? 1e-16 : 0.0;
  // a log axis spans at most kLogDecades below the largest difference: the dips to exact or
  // nearly exact agreement (the first outputs, sign changes) would otherwise take the plot
  if (log) lo = std::max(lo, hi * std::pow(10.0, -kLogDecades));
  f.left.min = log ? lo : std::min(0.0, lo);
  f.left.max = hi;
  f.t0 = std::isfinite(t0) ? t0 : 0.0;
  f.t1 = std::isfinite(t1) ? t1 : 1.0;
  return f;
}

QString curvesAt(const ComparisonCurves& curves, double t) {
  QString text;
  std::vector<QString> values(curves.series.size());
  for (std::size_t n = 0; n < curves.series.size(); ++n) {
    const render::FigureSeries& s = curves.series[n];
    if (s.t.empty() || s.y.size() < s.t.size()) continue;
    const auto it = std::lower_bound(s.t.begin(), s.t.end(), t);
    auto k = static_cast<std::size_t>(it - s.t.begin());
    if (k == s.t.size() || (k > 0 && t - s.t[k - 1] < s.t[k] - t)) k = k == 0 ? 0 : k - 1;
    if (text.isEmpty()) text = QObject::tr("t = %1 s").arg(s.t[k], 0, 'f', 3);
    values[n] = QString::number(s.y[k], 'e', 2);
  }
  if (text.isEmpty()) return text;
  if (curves.runOf.size() != curves.series.size()) {  // one curve a solver
    for (std::size_t n = 0; n < curves.series.size(); ++n)
      if (!values[n].isEmpty()) text += QStringLiteral("   %1: %2").arg(curves.series[n].name, values[n]);
    return text;
  }
  // the signals once ("attitude:base.roll, .pitch, .yaw"), then each run's values in that order
  QString names;
  for (int j = 0; j < curves.signalLabels.size(); ++j) {
    const QString& name = curves.signalLabels[j];
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    const bool sameStem = j > 0 && dot > 0 && curves.signalLabels[j - 1].lastIndexOf(QLatin1Char('.')) == dot &&
                          curves.signalLabels[j - 1].left(dot) == name.left(dot);
    names += (j > 0 ? QStringLiteral(", ") : QString()) + (sameStem ? name.mid(dot) : name);
  }
  text += QStringLiteral(" · %1:").arg(names);
  int run = -1;
  for (std::size_t n = 0; n < curves.series.size(); ++n) {
    if (curves.runOf[n] != run) {
      run = curves.runOf[n];
      text += (n > 0 ? QStringLiteral(";   ") : QStringLiteral("   ")) + curves.runLabels[run] + QLatin1Char(' ');
    } else {
      text += QStringLiteral(", ");
    }
    text += values[n].isEmpty() ? QStringLiteral("–") : values[n];
  }
  return text;
}

QString curvesCsv(const ComparisonCurves& curves) {
  QString text = QStringLiteral("t");
  std::size_t rows = 0, longest = 0;
  for (std::size_t k = 0; k < curves.series.size(); ++k) {
    QString name = curves.series[k].name;
    name.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    text += QStringLiteral(",\"%1\"").arg(name);
    if (curves.series[k].t.size() > rows) {
      rows = curves.series[k].t.size();
      longest = k;
    }
  }
  text += QLatin1Char('\n');
  for (std::size_t r = 0; r < rows; ++r) {
    text += QString::number(curves.series[longest].t[r], 'g', 12);
    for (const render::FigureSeries& s : curves.series)
      text += QLatin1Char(',') + (r < s.y.size() ? QString::number(s.y[r], 'g', 6) : QString());
    text += QLatin1Char('\n');
  }
  return text;
}

}  // namespace kt::ui
