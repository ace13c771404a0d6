// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli fatigue: run a model headless and count the rainflow cycles of the signals
// --signals names (ASTM E1049-85), with each signal's damage-equivalent load
// (core/analysis/rainflow.hpp); the cycles and the range–mean histogram on request.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "app/cli/signal_run.hpp"
#include "core/analysis/rainflow.hpp"
#include "core/io/csv.hpp"
#include "core/model/text_util.hpp"

namespace kt::cli {
namespace {

constexpr const char* kFatigueUsage =
    "usage: kinetree-cli fatigue MODEL.yaml --signals PATTERN[,PATTERN...] [--wohler M] [--neq N]\n"
    "                            [--csv] [-o|--output FILE|-] [--cycles FILE.csv]\n"
    "                            [--histogram FILE.csv [--bins R,M]]\n"
    "                            [--solver S] [--integrator I] [--step H] [--tolerance TOL] [--duration T]\n"
    "                            [--motion FILE.csv [--cutoff HZ]] [--events FILE.events.json]\n"
    "                            [--package-path DIR]...\n"
    "Rainflow cycles (ASTM E1049-85) and DEL = (sum n_i S_i^M / N)^(1/M) per signal: M the Woehler\n"
    "exponent (default 4: steel welds; 10 for composites), N the equivalent cycles (default one per\n"
    "second of the run). --cycles writes every cycle, --histogram the range-mean counts (default\n"
    "bins 10,10): docs/reports.md.\n";

struct Row {
  std::string name;
  double cycles = 0.0, largest = 0.0, largestMean = 0.0, largestAt = 0.0, del = 0.0;
};

std::string table(const std::vector<Row>& rows, double m, double nEq) {
  std::size_t width = 6;
  for (const Row& r : rows) width = std::max(width, r.name.size());
  const auto pad = [](std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
  };
  const std::string delTitle = "DEL (m=" + formatSignificant(m, 4) + ", N=" + formatSignificant(nEq, 6) + ")";
  std::string out = pad("signal", width) + "  " + pad("cycles", 10) + "  " + pad("largest range", 14) + "  " +
                    pad("its mean", 12) + "  " + pad("from t (s)", 11) + "  " + delTitle + "\n";
  for (const Row& r : rows)
    out += pad(r.name, width) + "  " + pad(formatSignificant(r.cycles, 6), 10) + "  " +
           pad(formatSignificant(r.largest, 6), 14) + "  " + pad(formatSignificant(r.largestMean, 6), 12) + "  " +
           pad(formatSignificant(r.largestAt, 6), 11) + "  " + formatSignificant(r.del, 6) + "\n";
  return out;
}

std::string csvTable(const std::vector<Row>& rows, double m, double nEq) {
  std::vector<FatigueTableRow> table;
  for (const Row& r : rows) table.push_back({r.name, r.cycles, r.largest, r.largestMean, r.largestAt, r.del});
  return fatigueTableCsv(table, m, nEq);
}

// "10,10" → 10 and 10
bool parseBins(const std::string& text, long& rangeBins, long& meanBins) {
  const std::vector<std::string> parts = splitList(text);
  if (parts.size() != 2) return false;
  try {
    std::size_t used = 0;
    rangeBins = std::stol(parts[0], &used);
    if (used != parts[0].size()) return false;
    meanBins = std::stol(parts[1], &used);
    if (used != parts[1].size()) return false;
  } catch (const std::exception&) {
    return false;
  }
  return rangeBins >= 1 && meanBins >= 1 && rangeBins <= 1000 && meanBins <= 1000;
}

void writeText(const std::string& path, const std::string& text) {
  CsvWriter file(path);  // atomic over a regular file
  file.raw(text);
  file.finish();
}

}  // namespace

int cmdFatigue(const std::vector<std::string>& args) {
  std::vector<OptionSpec> specs = runOptionSpecs();
  specs.push_back({"--signals"});
  specs.push_back({"--wohler"});
  specs.push_back({"--neq"});
  specs.push_back({"--csv", false});
  specs.push_back({"--output", true, "-o"});
  specs.push_back({"--cycles"});
  specs.push_back({"--histogram"});
  specs.push_back({"--bins"});
  specs.push_back(packagePathSpec());
  ParsedArgs parsed;
  if (!parseArgs("fatigue", kFatigueUsage, args, specs, parsed)) return 2;
  std::string modelPath;
  if (!singleModelFile("fatigue", kFatigueUsage, parsed, modelPath)) return 2;
  RunChoices choices;
  std::string output, patterns, cyclesPath, histogramPath;
  double m = 4.0, nEq = 0.0;
  long rangeBins = 10, meanBins = 10;
  bool csv = false, binsGiven = false;
  for (const auto& [name, value] : parsed.options) {
    bool taken = false;
    if (!takeRunOption("fatigue", name, value, choices, taken)) return 2;
    if (name == "--signals") patterns = value;
    if (name == "--wohler" && !parsePositive("fatigue", name, value, m)) return 2;
    if (name == "--neq" && !parsePositive("fatigue", name, value, nEq)) return 2;
    if (name == "--csv") csv = true;
    if (name == "--output") output = value;
    if (name == "--cycles") cyclesPath = value;
    if (name == "--histogram") histogramPath = value;
    if (name == "--bins") {
      binsGiven = true;
      if (!parseBins(value, rangeBins, meanBins)) {
        std::fprintf(stderr, "kinetree-cli fatigue: --bins: expected two counts from 1 to 1000, R,M, got '%s'\n",
                     printable(value).c_str());
        return 2;
      }
    }
  }
  if (binsGiven && histogramPath.empty()) {
    std::fprintf(stderr, "kinetree-cli fatigue: --bins needs --histogram FILE.csv\n%s", kFatigueUsage);
    return 2;
  }
  if (!outputsWritable("fatigue", {output, cyclesPath, histogramPath})) return 1;  // before the run
  SignalRun run;
  if (const int failed =
          runForSignals("fatigue", kFatigueUsage, modelPath, packagePathsOf(parsed), choices, patterns, run))
    return failed;
  if (nEq == 0.0) nEq = std::max(run.duration, run.interval);  // one cycle per second of the run

  std::vector<Row> rows;
  std::string cyclesCsv = "signal,range,mean,count,t_start,t_end\n";
  std::string histogramCsv = "signal,range_from,range_to,mean_from,mean_to,cycles\n";
  for (std::size_t s = 0; s < run.names.size(); ++s) {
    const std::vector<double>& v = run.values[s];
    const std::vector<Cycle> cycles = rainflow(v);
    const CycleSummary summary = summarizeCycles(cycles, m, nEq);
    Row r;
    r.name = run.names[s];
    r.cycles = summary.cycles;
    r.del = summary.del;
    r.largest = summary.largestRange;
    r.largestMean = summary.largestMean;
    r.largestAt = static_cast<double>(summary.largestFirst) * run.interval;
    for (const Cycle& c : cycles) {
      if (!cyclesPath.empty())
        cyclesCsv += r.name + "," + formatRoundTrip(c.range) + "," + formatRoundTrip(c.mean) + "," +
                     formatRoundTrip(c.count) + "," + formatRoundTrip(static_cast<double>(c.first) * run.interval) +
                     "," + formatRoundTrip(static_cast<double>(c.last) * run.interval) + "\n";
    }
    if (!histogramPath.empty()) {
      const RangeMeanHistogram h =
          rangeMeanHistogram(cycles, static_cast<std::size_t>(rangeBins), static_cast<std::size_t>(meanBins));
      for (std::size_t i = 0; i + 1 < h.rangeEdges.size(); ++i)
        for (std::size_t j = 0; j + 1 < h.meanEdges.size(); ++j)
          histogramCsv += r.name + "," + formatRoundTrip(h.rangeEdges[i]) + "," + formatRoundTrip(h.rangeEdges[i + 1]) +
                          "," + formatRoundTrip(h.meanEdges[j]) + "," + formatRoundTrip(h.meanEdges[j + 1]) + "," +
                          formatRoundTrip(h.count(i, j)) + "\n";
    }
    rows.push_back(r);
  }
  try {
    if (!cyclesPath.empty()) writeText(cyclesPath, cyclesCsv);
    if (!histogramPath.empty()) writeText(histogramPath, histogramCsv);
    const std::string text = csv ? csvTable(rows, m, nEq) : table(rows, m, nEq);
    if (output.empty() || output == "-")
      std::fwrite(text.data(), 1, text.size(), stdout);
    else
      writeText(output, text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli fatigue: %s\n", printable(e.what()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace kt::cli
