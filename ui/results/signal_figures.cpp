// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/signal_figures.hpp"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/results/recorder.hpp"

namespace kt::ui {

std::pair<std::size_t, std::size_t> rowsInRange(const kt::Recorder& recorder, double t0, double t1) {
  std::size_t k0 = recorder.rowAtTime(t0);
  if (k0 < recorder.size() && recorder.timeOf(k0) < t0) ++k0;
  const std::size_t k1 = std::max(k0, recorder.firstRowAfter(t1));
  return {k0, k1};
}

render::ChartFigure timeFigure(const kt::Recorder& recorder, const std::vector<render::ChartSeries>& series,
                               std::size_t k0, std::size_t k1, const QString& title, int buckets) {
  render::ChartFigure f;
  f.title = title;
  k1 = std::min(k1, recorder.size());
  if (k1 <= k0) return f;
  const std::size_t n = k1 - k0;
  std::vector<double> t(n), y(n);
  t.resize(recorder.copyColumn(0, k0, k1, t.data()));
  if (t.empty()) return f;
  f.t0 = t.front();
  f.t1 = t.back();
  const std::size_t per = std::max<std::size_t>(
      1, (t.size() + static_cast<std::size_t>(buckets) - 1) / static_cast<std::size_t>(std::max(buckets, 1)));
  const double inf = std::numeric_limits<double>::infinity();
  double lo[2] = {inf, inf}, hi[2] = {-inf, -inf};
  QString units[2];
  for (const render::ChartSeries& s : series) {
    y.resize(recorder.copyColumn(s.column, k0, k0 + t.size(), y.data()));
    render::FigureSeries fs;
    fs.name = s.name;
    fs.color = s.color;
    if (units[0].isEmpty()) units[0] = s.unit;
    fs.rightAxis = s.unit != units[0];
    if (fs.rightAxis && units[1].isEmpty()) units[1] = s.unit;
    const int axis = fs.rightAxis ? 1 : 0;
    // the first and the last of (min, max) of every bucket, in time order: the exact envelope
    for (std::size_t b = 0; b < y.size(); b += per) {
      const std::size_t e = std::min(y.size(), b + per);
      std::size_t kMin = b, kMax = b;
      for (std::size_t k = b; k < e; ++k) {
        if (y[k] < y[kMin]) kMin = k;
        if (y[k] > y[kMax]) kMax = k;
      }
      for (const std::size_t k : {std::min(kMin, kMax), std::max(kMin, kMax)}) {
        const double v = s.scale * y[k];
        fs.t.push_back(t[k]);
        fs.y.push_back(v);
        if (std::isfinite(v)) {
          lo[axis] = std::min(lo[axis], v);
          hi[axis] = std::max(hi[axis], v);
        }
        if (kMin == kMax) break;
      }
    }
    f.hasRight = f.hasRight || fs.rightAxis;
    f.series.push_back(std::move(fs));
  }
  const auto fit = [](double l, double h, render::FigureAxis& axis) {
    if (!(l <= h)) l = h = 0.0;
    const double pad = h > l ? 0.05 * (h - l) : std::max(1.0, std::abs(h)) * 0.05;
    axis.min = l - pad;
    axis.max = h + pad;
  };
  fit(lo[0], hi[0], f.left);
  fit(lo[1], hi[1], f.right);
  f.left.label = units[0];
  f.right.label = units[1];
  return f;
}

SpectrumFigure spectrumFigure(const kt::Recorder& recorder, const std::vector<render::ChartSeries>& series,
                              std::size_t k0, std::size_t k1, const SpectrumChoice& choice, const QString& title) {
  SpectrumFigure out;
  render::ChartFigure& figure = out.figure;
  figure.title = title;
  figure.xName = QStringLiteral("f");
  figure.xUnit = QStringLiteral("Hz");
  k1 = std::min(k1, recorder.size());
  const double interval = recorder.timeOf(1) - recorder.timeOf(0);
  if (series.empty() || k1 <= k0 + 1 || !(interval > 0.0)) {
    out.problem = QObject::tr("no samples");
    return out;
  }
  out.rate = 1.0 / interval;
  kt::SpectrumOptions options;
  options.segment = choice.segment;
  std::vector<double> x(k1 - k0);
  QString firstUnit;
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0, rlo = lo, rhi = 0.0;
  for (const render::ChartSeries& sr : series) {
    x.resize(k1 - k0);
    x.resize(recorder.copyColumn(sr.column, k0, k1, x.data()));
    for (double& v : x) v *= sr.scale;  // as drawn (degrees for angles)
    out.samples = x.size();
    kt::Spectrum sp;
    try {
      sp = kt::welchSpectrum(x, out.rate, options);
    } catch (const std::invalid_argument&) {
      out.problem = QObject::tr("too few samples (%1) for segments of %2")
                        .arg(x.size())
                        .arg(options.segment > 0 ? options.segment : kt::defaultSegment(x.size()));
      out.spectra.clear();
      figure.series.clear();
      return out;
    }
    render::FigureSeries fs;
    fs.name = sr.name;
    fs.color = sr.color;
    if (firstUnit.isEmpty()) firstUnit = sr.unit;
    fs.rightAxis = sr.unit != firstUnit;  // a second unit (N beside N·m) on the right
    const std::vector<double>& y = choice.psd ? sp.psd : sp.amplitude;
    for (std::size_t k = 1; k < sp.frequency.size(); ++k) {  // 0 Hz is the removed mean
      fs.t.push_back(sp.frequency[k]);
      fs.y.push_back(y[k]);
      double& l = fs.rightAxis ? rlo : lo;
      double& h = fs.rightAxis ? rhi : hi;
      if (y[k] > 0.0) l = std::min(l, y[k]);
      h = std::max(h, y[k]);
    }
    if (fs.rightAxis) {
      figure.hasRight = true;
      figure.right.label = choice.psd ? sr.unit + QStringLiteral("²/Hz") : sr.unit;  // not arg(): ² reads as a digit
    }
    figure.t1 = sp.frequency.back();
    out.spectra.push_back(std::move(sp));
    figure.series.push_back(std::move(fs));
  }
  // the frequency axis up to where the lines are: the last bin of any series at 0.1 % of its
  // largest amplitude or more (the rest is the window's leakage), not less than ten bins
  double shownTo = 10.0 * out.spectra.front().resolution;
  for (const kt::Spectrum& sp : out.spectra) {
    const double top = sp.amplitude[sp.peak()];
    for (std::size_t k = sp.amplitude.size(); k-- > 1;)
      if (sp.amplitude[k] >= 1e-3 * top) {
        shownTo = std::max(shownTo, 1.2 * sp.frequency[k]);
        break;
      }
  }
  figure.t1 = std::min(figure.t1, shownTo);
  figure.t0 = 0.0;
  figure.left.label = choice.psd ? firstUnit + QStringLiteral("²/Hz") : firstUnit;
  figure.left.log = choice.log;
  // log: from six decades under the largest value up; linear: from zero
  figure.left.min = !choice.log ? 0.0 : std::isfinite(lo) ? std::max(lo, hi * 1e-6) : hi > 0.0 ? hi * 1e-6 : 1e-12;
  figure.left.max = hi > 0.0 ? hi * (choice.log ? 2.0 : 1.05) : 1.0;
  figure.right.min = 0.0;
  figure.right.max = rhi > 0.0 ? rhi * 1.05 : 1.0;
  return out;
}

}  // namespace kt::ui
