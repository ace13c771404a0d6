// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli spectrum: run a model headless and write the amplitude spectrum and the PSD of
// the signals --signals names (Welch, Hann window: core/analysis/spectrum.hpp) as CSV.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/signal_run.hpp"
#include "core/analysis/spectrum.hpp"
#include "core/io/csv.hpp"
#include "core/model/text_util.hpp"

namespace kt::cli {
namespace {

constexpr const char* kSpectrumUsage =
    "usage: kinetree-cli spectrum MODEL.yaml --signals PATTERN[,PATTERN...] [--segment N]\n"
    "                             [--detrend none|mean|linear] [-o|--output FILE.csv|-]\n"
    "                             [--solver S] [--integrator I] [--step H] [--tolerance TOL] [--duration T]\n"
    "                             [--motion FILE.csv [--cutoff HZ]] [--events FILE.events.json]\n"
    "                             [--package-path DIR]...\n"
    "Writes f_Hz, then NAME.amplitude and NAME.psd for each signal (one-sided; Welch's method,\n"
    "Hann window, segments of N samples overlapping by half, each detrended: docs/reports.md).\n";

// The run has at most 1e9 output steps (core/sim/run_limits.hpp).
constexpr long kMaxSegment = 1'000'000'000;

}  // namespace

int cmdSpectrum(const std::vector<std::string>& args) {
  std::vector<OptionSpec> specs = runOptionSpecs();
  specs.push_back({"--signals"});
  specs.push_back({"--segment"});
  specs.push_back({"--detrend"});
  specs.push_back({"--output", true, "-o"});
  specs.push_back(packagePathSpec());
  ParsedArgs parsed;
  if (!parseArgs("spectrum", kSpectrumUsage, args, specs, parsed)) return 2;
  std::string modelPath;
  if (!singleModelFile("spectrum", kSpectrumUsage, parsed, modelPath)) return 2;
  RunChoices choices;
  std::string output, patterns;
  SpectrumOptions options;
  for (const auto& [name, value] : parsed.options) {
    bool taken = false;
    if (!takeRunOption("spectrum", name, value, choices, taken)) return 2;
    if (name == "--output") output = value;
    if (name == "--signals") patterns = value;
    if (name == "--segment") {
      long n = 0;
      if (!parseCount("spectrum", name, value, kMaxSegment, "samples", n)) return 2;
      if (n < 2) {
        std::fprintf(stderr, "kinetree-cli spectrum: --segment: expected at least 2 samples, got %ld\n", n);
        return 2;
      }
      options.segment = static_cast<std::size_t>(n);
    }
    if (name == "--detrend") {
      if (value == "none")
        options.detrend = Detrend::None;
      else if (value == "mean")
        options.detrend = Detrend::Mean;
      else if (value == "linear")
        options.detrend = Detrend::Linear;
      else {
        std::fprintf(stderr, "kinetree-cli spectrum: --detrend: expected none, mean or linear, got '%s'\n",
                     printable(value).c_str());
        return 2;
      }
    }
  }
  if (!outputsWritable("spectrum", {output})) return 1;  // before the run
  SignalRun run;
  if (const int failed =
          runForSignals("spectrum", kSpectrumUsage, modelPath, packagePathsOf(parsed), choices, patterns, run))
    return failed;
  const double rate = 1.0 / run.interval;
  std::vector<Spectrum> spectra;
  try {
    for (const std::vector<double>& v : run.values) spectra.push_back(welchSpectrum(v, rate, options));
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "kinetree-cli spectrum: %s: a run of %s s at %s Hz (--segment, --duration)\n", e.what(),
                 formatSignificant(run.duration, 6).c_str(), formatSignificant(rate, 6).c_str());
    return 2;
  }
  try {
    const std::unique_ptr<CsvWriter> csv =
        output.empty() || output == "-" ? std::make_unique<CsvWriter>(stdout) : std::make_unique<CsvWriter>(output);
    csv->header(spectraHeader(run.names));
    spectraRows(spectra, [&](std::span<const double> row) { csv->row(row); });
    csv->finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli spectrum: %s\n", printable(e.what()).c_str());
    return 1;
  }
  // what the file holds, and each signal's largest line, when the CSV went to a file
  if (!output.empty() && output != "-") {
    const Spectrum& first = spectra.front();
    std::fprintf(stderr, "spectrum: %zu samples at %s Hz, segments of %zu (%zu averaged), resolution %s Hz\n",
                 run.values.front().size(), formatSignificant(rate, 6).c_str(), first.segment, first.segments,
                 formatSignificant(first.resolution, 4).c_str());
    for (std::size_t s = 0; s < spectra.size(); ++s) {
      const std::size_t p = spectra[s].peak();
      if (spectra[s].peakAtLowestLine()) {
        // one segment is the whole run already: only a longer run resolves the motion
        std::fprintf(stderr, "  %s: largest at or below %s Hz, the lowest line, amplitude %s, possibly read low (%s)\n",
                     run.names[s].c_str(), formatSignificant(spectra[s].frequency[p], 6).c_str(),
                     formatSignificant(spectra[s].amplitude[p], 6).c_str(),
                     spectra[s].segments == 1 ? "a longer run resolves it" : "a longer --segment, or run, resolves it");
      } else {
        std::fprintf(stderr, "  %s: largest at %s Hz, amplitude %s\n", run.names[s].c_str(),
                     formatSignificant(spectra[s].frequency[p], 6).c_str(),
                     formatSignificant(spectra[s].amplitude[p], 6).c_str());
      }
    }
  }
  return 0;
}

}  // namespace kt::cli
