// SPDX-License-Identifier: BSD-3-Clause
// Spectra of a uniformly sampled signal (docs/reports.md) by Welch's method (P. D. Welch, "The use
// of fast Fourier transform for the estimation of power spectra", IEEE Trans. Audio
// Electroacoustics 15(2), 1967): the signal is cut into segments of L samples overlapping by half,
// each is detrended and multiplied by the Hann window w_n = sin²(π n / L), n = 0 … L − 1 (the
// periodic form), and the squared magnitudes of their DFTs X_k are averaged over the segments.
// With fs the sample rate, one-sided, for k = 0 … L/2 at f_k = k fs / L:
//
//   PSD_k       = c_k ⟨|X_k|²⟩ / (fs Σ w_n²)      (units²/Hz)
//   amplitude_k = c_k sqrt(⟨|X_k|²⟩) / Σ w_n       (units: the peak amplitude of a sinusoid;
//                                                  at 0 Hz the mean, without detrending)
//
// c_k = 2, except at k = 0 and k = L/2 (L even) where c_k = 1. Σ_k PSD_k · fs/L is the mean
// square of the windowed, detrended segments per unit window power (Parseval), which for a
// stationary signal is its variance; a sinusoid of amplitude A whose frequency is a multiple of
// fs/L shows as amplitude A at that frequency (between bins the Hann window reads up to 15 % low).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace kt {

enum class Detrend { None, Mean, Linear };

struct SpectrumOptions {
  std::size_t segment = 0;          ///< L, samples per segment; 0: the default (defaultSegment)
  Detrend detrend = Detrend::Mean;  ///< per segment
};

struct Spectrum {
  std::vector<double> frequency;  ///< Hz, L/2 + 1 values
  std::vector<double> psd;        ///< units²/Hz
  std::vector<double> amplitude;  ///< units
  std::size_t segment = 0;        ///< L used
  std::size_t segments = 0;       ///< how many were averaged
  double resolution = 0.0;        ///< fs / L, Hz
  /// Index of the largest amplitude above 0 Hz (0 when there is none).
  std::size_t peak() const;
  /// The largest line is the lowest above 0 Hz: what it shows may lie anywhere below about 1.5
  /// resolutions (a slow motion whose period exceeds the segment, leaking into that line) and its
  /// amplitude is read low; longer segments (or a longer run) resolve it.
  bool peakAtLowestLine() const { return peak() == 1; }
};

/// L when none is asked for: the largest power of two at most n / 4 (about seven half-overlapping
/// segments), at least 256, at most n.
std::size_t defaultSegment(std::size_t n);

/// The spectra of `x` sampled at `sampleRate` Hz. Throws std::invalid_argument for fewer than
/// two samples per segment, a segment longer than the signal, or a rate that is not positive.
Spectrum welchSpectrum(std::span<const double> x, double sampleRate, const SpectrumOptions& options = {});

/// The spectra as a table, as `kinetree-cli spectrum` writes it: the header f_Hz, then NAME.amplitude
/// and NAME.psd of each spectrum (`names` one per spectrum), and one row per line (the first
/// spectrum's frequencies; all are of one segment length), each handed to `row`.
std::vector<std::string> spectraHeader(const std::vector<std::string>& names);
void spectraRows(const std::vector<Spectrum>& spectra, const std::function<void(std::span<const double>)>& row);

}  // namespace kt
