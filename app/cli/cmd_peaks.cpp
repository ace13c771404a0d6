// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli peaks: run a model headless and print the peak load of every joint.
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/io/csv.hpp"
#include "core/model/text_util.hpp"
#include "core/results/load_cases.hpp"
#include "core/results/peak_loads.hpp"
#include "core/sim/run_limits.hpp"

namespace kt::cli {
namespace {

constexpr const char* kPeaksUsage =
    "usage: kinetree-cli peaks MODEL.yaml [--solver S] [--integrator I] [--step H] [--tolerance TOL]\n"
    "                          [--duration T] [--csv] [-o|--output FILE|-] [--motion FILE.csv [--cutoff HZ]]\n"
    "                          [--events FILE.events.json] [--cases FILE.csv|FILE.json [--case-components]]\n"
    "                          [--package-path DIR]...\n";

}  // namespace

int cmdPeaks(const std::vector<std::string>& args) {
  std::vector<OptionSpec> specs = runOptionSpecs();
  specs.push_back({"--csv", false});
  specs.push_back({"--cases"});
  specs.push_back({"--case-components", false});
  specs.push_back({"--output", true, "-o"});
  specs.push_back(packagePathSpec());
  ParsedArgs parsed;
  if (!parseArgs("peaks", kPeaksUsage, args, specs, parsed)) return 2;
  std::string modelPath;
  if (!singleModelFile("peaks", kPeaksUsage, parsed, modelPath)) return 2;
  RunChoices choices;
  std::string output, casesPath;
  bool csv = false, components = false;
  for (const auto& [name, value] : parsed.options) {
    bool taken = false;
    if (!takeRunOption("peaks", name, value, choices, taken)) return 2;
    if (name == "--csv") csv = true;
    if (name == "--output") output = value;
    if (name == "--cases") casesPath = value;
    if (name == "--case-components") components = true;
  }
  if (components && casesPath.empty()) {
    std::fprintf(stderr, "kinetree-cli peaks: --case-components needs --cases FILE\n%s", kPeaksUsage);
    return 2;
  }
  // the format follows the name: a FILE.pdf would otherwise receive CSV under a name that lies
  const auto endsWith = [&casesPath](std::string_view suffix) {
    if (casesPath.size() < suffix.size()) return false;
    for (std::size_t k = 0; k < suffix.size(); ++k)
      if (std::tolower(static_cast<unsigned char>(casesPath[casesPath.size() - suffix.size() + k])) != suffix[k])
        return false;
    return true;
  };
  const bool casesJson = endsWith(".json");
  if (!casesPath.empty() && !casesJson && !endsWith(".csv")) {
    std::fprintf(stderr, "kinetree-cli peaks: --cases writes FILE.csv or FILE.json, not '%s'\n%s",
                 printable(casesPath).c_str(), kPeaksUsage);
    return 2;
  }
  if (!outputsWritable("peaks", {output, casesPath})) return 1;  // checked before the run, not after it
  std::unique_ptr<Simulator> sim;
  double duration = 0.0;
  if (const int failed = streamingRun("peaks", kPeaksUsage, modelPath, packagePathsOf(parsed), choices, sim, duration))
    return failed;

  // the same outputs as simulate writes: t_k = k · interval, k = 0 … ⌈duration / interval⌉
  PeakLoads peaks(sim->tree(), sim->signalLayout(), PeakLoads::ratingsOf(sim->model(), sim->tree()));
  std::optional<LoadCaseCollector> cases;
  if (!casesPath.empty()) cases.emplace(sim->tree(), sim->signalLayout(), components);
  const auto take = [&] {
    peaks.add(sim->sample().data());
    if (cases) cases->add(sim->sample().data());
  };
  take();
  const long outputs = runOutputCount(duration, sim->outputInterval());
  bool stopped = false;
  for (long k = 0; k < outputs; ++k) {
    if (!sim->step()) {
      stopped = true;
      break;
    }
    take();
  }

  const std::string text = csv ? peakLoadsCsv(peaks.joints()) : peakLoadsTable(peaks.joints());
  try {
    if (output.empty() || output == "-") {
      std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
      CsvWriter file(output);  // atomic over a regular file, in place for a FIFO or device
      file.raw(text);
      file.finish();
    }
    if (cases) {
      // the state and every joint's wrench at each joint's peak |force| and |moment|
      CsvWriter file(casesPath);
      file.raw(casesJson ? loadCasesJson(sim->tree(), sim->signalLayout(), cases->cases())
                         : loadCasesCsv(sim->tree(), sim->signalLayout(), cases->cases()));
      file.finish();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli peaks: %s\n", printable(e.what()).c_str());
    return 1;
  }
  if (stopped) {
    std::fprintf(stderr, "%s: simulation stopped: %s (peaks up to t = %s s)\n", printable(modelPath).c_str(),
                 sim->error().c_str(), formatSignificant(peaks.lastTime(), 6).c_str());
    return 1;
  }
  std::vector<Diagnostic> reached = ratingExceedances(peaks.joints(), sim->model());
  for (Diagnostic& d : reached) {
    d.file = modelPath;
    std::fprintf(stderr, "%s\n", d.format().c_str());
  }
  return reached.empty() ? 0 : 3;
}

}  // namespace kt::cli
