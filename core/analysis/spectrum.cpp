// SPDX-License-Identifier: BSD-3-Clause
#include "core/analysis/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>

#include <unsupported/Eigen/FFT>

namespace kt {

std::size_t Spectrum::peak() const {
  std::size_t best = 0;
  for (std::size_t k = 1; k < amplitude.size(); ++k)
    if (amplitude[k] > (best == 0 ? 0.0 : amplitude[best])) best = k;
  return best;
}

std::size_t defaultSegment(std::size_t n) {
  std::size_t L = 256;
  while (2 * L <= n / 4) L *= 2;
  return std::min(L, n);
}

Spectrum welchSpectrum(std::span<const double> x, double sampleRate, const SpectrumOptions& options) {
  const std::size_t n = x.size();
  if (!(sampleRate > 0.0) || !std::isfinite(sampleRate))
    throw std::invalid_argument("the sample rate must be a positive number of hertz");
  const std::size_t L = options.segment > 0 ? options.segment : defaultSegment(n);
  if (L < 2) throw std::invalid_argument("a spectrum needs at least two samples per segment");
  if (L > n)
    throw std::invalid_argument("a segment of " + std::to_string(L) + " samples is longer than the signal (" +
                                std::to_string(n) + " samples)");
  const std::size_t hop = std::max<std::size_t>(L / 2, 1);
  std::vector<double> w(L);
  double sumW = 0.0, sumW2 = 0.0;
  for (std::size_t k = 0; k < L; ++k) {
    const double s = std::sin(std::numbers::pi * static_cast<double>(k) / static_cast<double>(L));
    w[k] = s * s;
    sumW += w[k];
    sumW2 += w[k] * w[k];
  }
  const std::size_t bins = L / 2 + 1;
  std::vector<double> power(bins, 0.0);
  std::vector<double> segment(L);
  std::vector<std::complex<double>> X;
  Eigen::FFT<double> fft;
  std::size_t count = 0;
  // the mean and slope of a segment: a least-squares line over k = 0 … L − 1
  const double kMean = 0.5 * static_cast<double>(L - 1);
  double kVar = 0.0;
  for (std::size_t k = 0; k < L; ++k) kVar += (static_cast<double>(k) - kMean) * (static_cast<double>(k) - kMean);
  for (std::size_t start = 0; start + L <= n; start += hop) {
    double mean = 0.0, slope = 0.0;
    if (options.detrend != Detrend::None) {
      for (std::size_t k = 0; k < L; ++k) mean += x[start + k];
      mean /= static_cast<double>(L);
      if (options.detrend == Detrend::Linear && kVar > 0.0) {
        for (std::size_t k = 0; k < L; ++k) slope += (static_cast<double>(k) - kMean) * (x[start + k] - mean);
        slope /= kVar;
      }
    }
    for (std::size_t k = 0; k < L; ++k)
      segment[k] = (x[start + k] - mean - slope * (static_cast<double>(k) - kMean)) * w[k];
    fft.fwd(X, segment);
    for (std::size_t k = 0; k < bins; ++k) power[k] += std::norm(X[k]);
    ++count;
  }
  Spectrum s;
  s.segment = L;
  s.segments = count;
  s.resolution = sampleRate / static_cast<double>(L);
  s.frequency.resize(bins);
  s.psd.resize(bins);
  s.amplitude.resize(bins);
  for (std::size_t k = 0; k < bins; ++k) {
    const double c = k == 0 || (L % 2 == 0 && k == L / 2) ? 1.0 : 2.0;  // one-sided
    const double mean = power[k] / static_cast<double>(count);
    s.frequency[k] = static_cast<double>(k) * s.resolution;
    s.psd[k] = c * mean / (sampleRate * sumW2);
    s.amplitude[k] = c * std::sqrt(mean) / sumW;
  }
  return s;
}

std::vector<std::string> spectraHeader(const std::vector<std::string>& names) {
  std::vector<std::string> header = {"f_Hz"};
  for (const std::string& n : names) {
    header.push_back(n + ".amplitude");
    header.push_back(n + ".psd");
  }
  return header;
}

void spectraRows(const std::vector<Spectrum>& spectra, const std::function<void(std::span<const double>)>& row) {
  if (spectra.empty()) return;
  std::vector<double> values(1 + 2 * spectra.size());
  for (std::size_t k = 0; k < spectra.front().frequency.size(); ++k) {
    values[0] = spectra.front().frequency[k];
    for (std::size_t s = 0; s < spectra.size(); ++s) {
      values[1 + 2 * s] = spectra[s].amplitude[k];
      values[2 + 2 * s] = spectra[s].psd[k];
    }
    row(values);
  }
}

}  // namespace kt
