// SPDX-License-Identifier: BSD-3-Clause
// What a report reads off a load signal (docs/reports.md): rainflow cycles against the worked
// example of ASTM E1049-85 and hand counts, the damage-equivalent load by hand, the range–mean
// histogram, and the Welch spectra's scaling on a sine of known amplitude and on white noise of
// known variance (Parseval).
#include <QTest>

#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "core/analysis/rainflow.hpp"
#include "core/analysis/spectrum.hpp"

using namespace kt;

namespace {

// range → cycles counted at that range
std::map<double, double> byRange(const std::vector<Cycle>& cycles) {
  std::map<double, double> m;
  for (const Cycle& c : cycles) m[c.range] += c.count;
  return m;
}

}  // namespace

class TestSignalAnalysis : public QObject {
  Q_OBJECT

 private slots:
  // ASTM E1049-85, Fig. 6 (a): the load history −2, 1, −3, 5, −1, 3, −4, 4, −2 counts, by the
  // standard's Fig. 6 (f), half a cycle of range 3, one and a half of 4, half of 6, one of 8
  // and half of 9: four cycles.
  void astmWorkedExample() {
    const std::vector<double> x = {-2, 1, -3, 5, -1, 3, -4, 4, -2};
    const std::vector<Cycle> cycles = rainflow(x);
    const std::map<double, double> expected = {{3, 0.5}, {4, 1.5}, {6, 0.5}, {8, 1.0}, {9, 0.5}};
    QVERIFY(byRange(cycles) == expected);
    QCOMPARE(cycleCount(cycles), 4.0);
    // the full cycles: −1 → 3 (range 4, mean 1) and 5 → −4's inner 4 … −4 (range 8, mean 0)
    for (const Cycle& c : cycles)
      if (c.count == 1.0 && c.range == 4.0) QCOMPARE(c.mean, 1.0);
    // the same history sampled densely (straight lines between the reversals, plateaus) counts the same
    std::vector<double> dense;
    for (std::size_t k = 0; k + 1 < x.size(); ++k)
      for (int s = 0; s < 10; ++s) dense.push_back(x[k] + (x[k + 1] - x[k]) * s / 10.0);
    dense.push_back(x.back());
    dense.insert(dense.begin() + 25, dense[25]);  // a plateau of two samples
    QVERIFY(byRange(rainflow(dense)) == expected);
  }

  // Short signals counted by hand.
  void handCounts() {
    // a full cycle 1 → 4 → 1 inside the half cycles 0 → 5 and 5 → 0
    std::vector<Cycle> c = rainflow(std::vector<double>{0, 5, 1, 4, 0});
    QCOMPARE(byRange(c), (std::map<double, double>{{3, 1.0}, {5, 1.0}}));
    QCOMPARE(c.front().count, 1.0);
    QCOMPARE(c.front().mean, 2.5);
    QCOMPARE(c.front().first, std::size_t{2});
    QCOMPARE(c.front().last, std::size_t{3});
    // two equal swings: four half cycles of range 2
    c = rainflow(std::vector<double>{0, 2, 0, 2, 0});
    QCOMPARE(byRange(c), (std::map<double, double>{{2, 2.0}}));
    QCOMPARE(c.size(), std::size_t{4});
    // a constant or a monotonic signal: no cycle, half a cycle
    QVERIFY(rainflow(std::vector<double>{3, 3, 3}).empty());
    c = rainflow(std::vector<double>{0, 1, 2, 3});
    QCOMPARE(c.size(), std::size_t{1});
    QCOMPARE(c.front().range, 3.0);
    QCOMPARE(c.front().count, 0.5);
    // turning points: plateaus and monotonic runs reduced, the ends kept
    QCOMPARE(turningPoints(std::vector<double>{1, 1, 2, 3, 3, 1, 0, 0}), (std::vector<std::size_t>{0, 3, 6}));
  }

  // DEL = (Σ nᵢ Sᵢᵐ / N_eq)^{1/m} for the cycles of {0, 5, 1, 4, 0}: one cycle of 3 and two halves
  // of 5: m = 4, N_eq = 2: ((3⁴ + 5⁴) / 2)^{1/4} = 353^{1/4}.
  void damageEquivalentLoadByHand() {
    const std::vector<Cycle> c = rainflow(std::vector<double>{0, 5, 1, 4, 0});
    QVERIFY(std::abs(damageEquivalentLoad(c, 4.0, 2.0) - std::pow(353.0, 0.25)) < 1e-14);
    // m = 1 is the mean range per equivalent cycle; one cycle of the DEL does the same damage
    QVERIFY(std::abs(damageEquivalentLoad(c, 1.0, 2.0) - 4.0) < 1e-14);
    const double del = damageEquivalentLoad(c, 10.0, 1.0);
    QVERIFY(std::abs(std::pow(del, 10.0) - (std::pow(3.0, 10.0) + std::pow(5.0, 10.0))) < 1e-12 * std::pow(5.0, 10.0));
    QCOMPARE(damageEquivalentLoad({}, 4.0, 1.0), 0.0);
  }

  // The histogram of the worked example: ranges up to 9 in three bins, means in two.
  void rangeMeanHistogramOfTheExample() {
    const std::vector<Cycle> c = rainflow(std::vector<double>{-2, 1, -3, 5, -1, 3, -4, 4, -2});
    const RangeMeanHistogram h = rangeMeanHistogram(c, 3, 2);
    QCOMPARE(h.rangeEdges, (std::vector<double>{0, 3, 6, 9}));
    double total = 0.0;
    for (double n : h.counts) total += n;
    QCOMPARE(total, 4.0);
    // ranges 3 (½) in the first bin, 4 (1½) and 6 (½) in the second, 8 (1) and 9 (½) in the third
    QCOMPARE(h.count(0, 0) + h.count(0, 1), 0.5);
    QCOMPARE(h.count(1, 0) + h.count(1, 1), 2.0);
    QCOMPARE(h.count(2, 0) + h.count(2, 1), 1.5);
  }

  // A sine of amplitude 3 at a bin frequency reads 3 at that frequency; its PSD integrates to
  // A²/2 (Parseval); a constant offset is removed by the default detrending.
  void sineOfKnownAmplitude() {
    const double fs = 1024.0, f = 40.0, A = 3.0;
    std::vector<double> x(8192);
    for (std::size_t k = 0; k < x.size(); ++k)
      x[k] = 7.0 + A * std::sin(2.0 * std::numbers::pi * f * static_cast<double>(k) / fs + 0.3);
    SpectrumOptions o;
    o.segment = 1024;
    const Spectrum s = welchSpectrum(x, fs, o);
    QCOMPARE(s.segments, std::size_t{15});
    QCOMPARE(s.resolution, 1.0);
    QCOMPARE(s.frequency.size(), std::size_t{513});
    QCOMPARE(s.frequency[s.peak()], f);
    QVERIFY2(std::abs(s.amplitude[s.peak()] - A) < 1e-12, qPrintable(QString::number(s.amplitude[s.peak()], 'g', 17)));
    double power = 0.0;
    for (double p : s.psd) power += p * s.resolution;
    QVERIFY2(std::abs(power - 0.5 * A * A) < 1e-12, qPrintable(QString::number(power, 'g', 17)));
    QVERIFY(s.amplitude[0] < 1e-12);  // the offset is detrended away
    // without detrending the offset is the 0 Hz amplitude
    o.detrend = Detrend::None;
    QVERIFY(std::abs(welchSpectrum(x, fs, o).amplitude[0] - 7.0) < 1e-12);
    // a ramp under the sine: the linear detrending removes it, the sine reads the same
    std::vector<double> ramped = x;
    for (std::size_t k = 0; k < x.size(); ++k) ramped[k] += 0.01 * static_cast<double>(k);
    o.detrend = Detrend::Linear;
    const Spectrum r = welchSpectrum(ramped, fs, o);
    QVERIFY(std::abs(r.amplitude[r.peak()] - A) < 1e-3);
    QCOMPARE(r.frequency[r.peak()], f);
  }

  // A motion slower than a segment resolves (0.3 Hz in segments of 2 s, 0.49 Hz lines): its
  // largest line is the lowest, at the wrong frequency and read low, and says so; segments long
  // enough find it at its own frequency and amplitude.
  void motionBelowTheResolution() {
    const double fs = 500.0, f = 0.3, A = 2.0;
    std::vector<double> x(5001);  // 10 s
    for (std::size_t k = 0; k < x.size(); ++k)
      x[k] = A * std::sin(2.0 * std::numbers::pi * f * static_cast<double>(k) / fs);
    const Spectrum s = welchSpectrum(x, fs);  // the default: 1024 samples
    QCOMPARE(s.segment, std::size_t{1024});
    QCOMPARE(s.peak(), std::size_t{1});
    QVERIFY(s.peakAtLowestLine());
    QVERIFY2(s.amplitude[1] < 0.9 * A, qPrintable(QString::number(s.amplitude[1])));
    SpectrumOptions o;
    o.segment = 5000;  // 0.1 Hz lines: the motion's three periods fall on the fourth
    const Spectrum whole = welchSpectrum(x, fs, o);
    QCOMPARE(whole.peak(), std::size_t{3});
    QVERIFY(!whole.peakAtLowestLine());
    QVERIFY2(std::abs(whole.amplitude[3] - A) < 0.01 * A, qPrintable(QString::number(whole.amplitude[3])));
  }

  // White noise of variance σ²: the PSD is flat at 2σ²/fs and integrates to σ² (Parseval), to
  // the statistics of 2¹⁷ samples (a fixed seed).
  void whiteNoiseOfKnownVariance() {
    const double fs = 200.0, sigma = 2.0;
    std::mt19937_64 rng(12345);
    std::normal_distribution<double> noise(0.0, sigma);
    std::vector<double> x(1 << 17);
    double variance = 0.0;
    for (double& v : x) {
      v = noise(rng);
      variance += v * v;
    }
    variance /= static_cast<double>(x.size());
    const Spectrum s = welchSpectrum(x, fs);
    QCOMPARE(s.segment, std::size_t{32768});  // the default: the largest power of two ≤ n / 4
    double power = 0.0, level = 0.0;
    for (std::size_t k = 0; k < s.psd.size(); ++k) {
      power += s.psd[k] * s.resolution;
      if (k > 0 && k + 1 < s.psd.size()) level += s.psd[k];
    }
    level /= static_cast<double>(s.psd.size() - 2);
    QVERIFY2(std::abs(power / variance - 1.0) < 0.01, qPrintable(QString::number(power / variance)));
    QVERIFY2(std::abs(level / (2.0 * sigma * sigma / fs) - 1.0) < 0.02, qPrintable(QString::number(level)));
  }

  void badInputIsRefused() {
    const std::vector<double> x(100, 1.0);
    SpectrumOptions o;
    o.segment = 200;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, welchSpectrum(x, 100.0, o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, welchSpectrum(x, 0.0));
    QCOMPARE(welchSpectrum(x, 10.0).segment, std::size_t{100});  // shorter than 256: the whole signal
  }
};

QTEST_GUILESS_MAIN(TestSignalAnalysis)
#include "test_signal_analysis.moc"
