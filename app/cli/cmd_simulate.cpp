// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli simulate: run a model headless and write the recorded signals as CSV.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/io/csv.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {
namespace {

constexpr const char* kSimulateUsage =
    "usage: kinetree-cli simulate MODEL.yaml [--solver S] [--integrator I] [--step H] [--tolerance TOL]\n"
    "                             [--duration T] [-o|--output FILE.csv|-] [--signals PATTERN,...]\n"
    "                             [--every K] [--motion FILE.csv [--cutoff HZ]] [--events FILE.events.json]\n"
    "                             [--package-path DIR]...\n";

// Interruption (SIGINT, SIGTERM, SIGHUP): the handler removes the temporary file of an atomic
// output, says so and exits 128 + the signal number (130, 143, 129), as a shell reports it.
char gTempPath[4096];  // the temporary file to remove; empty when there is none
volatile std::sig_atomic_t gTempPathSet = 0;

void writeStderr(const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<std::size_t>(w);
  }
}

extern "C" void onInterrupt(int signal) {
  if (gTempPathSet) ::unlink(gTempPath);
  writeStderr(signal == SIGINT    ? "\nkinetree-cli simulate: interrupted (SIGINT); no output file written\n"
              : signal == SIGTERM ? "kinetree-cli simulate: terminated (SIGTERM); no output file written\n"
                                  : "kinetree-cli simulate: hung up (SIGHUP); no output file written\n");
  ::_exit(128 + signal);
}

// Installs onInterrupt for SIGINT, SIGTERM and SIGHUP while it exists.
class InterruptGuard {
 public:
  explicit InterruptGuard(const std::string& tempPath) {
    if (!tempPath.empty() && tempPath.size() < sizeof gTempPath) {
      std::memcpy(gTempPath, tempPath.c_str(), tempPath.size() + 1);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the path before the flag, for the handler
      gTempPathSet = 1;
    }
    struct sigaction sa {};
    sa.sa_handler = &onInterrupt;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 3; ++k) ::sigaction(kSignals[k], &sa, &old_[k]);
  }
  ~InterruptGuard() {
    for (int k = 0; k < 3; ++k) ::sigaction(kSignals[k], &old_[k], nullptr);
    gTempPathSet = 0;
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[3];
};

// --every at most this (a run has at most 1e9 output steps, core/sim/run_limits.hpp).
constexpr long kMaxEvery = 1'000'000'000;

// A run that writes more than this is announced on stderr with its size.
constexpr double kLargeOutputBytes = 1e9;

// Bytes of a CSV of `rows` rows of `columns` numbers written as %.17g: about 22 characters and a
// separator per number (the header is negligible).
double estimatedCsvBytes(std::size_t columns, long rows) {
  return 23.0 * static_cast<double>(columns) * static_cast<double>(rows);
}

}  // namespace

int cmdSimulate(const std::vector<std::string>& args) {
  std::vector<OptionSpec> specs = runOptionSpecs();
  specs.push_back({"--output", true, "-o"});
  specs.push_back({"--signals"});
  specs.push_back({"--every"});
  specs.push_back(packagePathSpec());
  ParsedArgs parsed;
  if (!parseArgs("simulate", kSimulateUsage, args, specs, parsed)) return 2;
  std::string modelPath;
  if (!singleModelFile("simulate", kSimulateUsage, parsed, modelPath)) return 2;
  RunChoices choices;
  std::string output, signalPatterns;
  long every = 1;
  for (const auto& [name, value] : parsed.options) {
    bool taken = false;
    if (!takeRunOption("simulate", name, value, choices, taken)) return 2;
    if (name == "--output") output = value;
    if (name == "--signals") signalPatterns = value;
    if (name == "--every" && !parseCount("simulate", name, value, kMaxEvery, "output steps", every)) return 2;
  }
  std::unique_ptr<Simulator> sim;
  double duration = 0.0;
  if (const int failed =
          streamingRun("simulate", kSimulateUsage, modelPath, packagePathsOf(parsed), choices, sim, duration))
    return failed;
  std::vector<int> columns;
  std::string selectError;
  if (!selectSignals(sim->signalLayout().names(), signalPatterns, columns, selectError)) {
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", selectError.c_str());
    return 2;
  }
  // time is always the first column
  if (columns.empty() || columns.front() != 0) {
    std::erase(columns, 0);
    columns.insert(columns.begin(), 0);
  }
  std::vector<std::string> header;
  for (int c : columns) header.push_back(sim->signalLayout().names()[c]);

  // the CSV target: stdout ("-" or no --output), an atomically written file, or a FIFO or
  // device written in place (CsvWriter); an interruption removes the temporary file
  // The three signals wait while the temporary file is created and its handler installed, so
  // that no interruption falls between the two; once the file is committed they act as usual.
  sigset_t interrupts, previousMask;
  sigemptyset(&interrupts);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&interrupts, s);
  ::sigprocmask(SIG_BLOCK, &interrupts, &previousMask);
  std::unique_ptr<CsvWriter> csv;
  try {
    csv = output.empty() || output == "-" ? std::make_unique<CsvWriter>(stdout) : std::make_unique<CsvWriter>(output);
  } catch (const std::exception& e) {
    ::sigprocmask(SIG_SETMASK, &previousMask, nullptr);
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", printable(e.what()).c_str());
    return 1;
  }
  std::optional<InterruptGuard> interruptGuard(std::in_place, csv->temporaryPath());
  ::sigprocmask(SIG_SETMASK, &previousMask, nullptr);
  csv->header(header);
  std::vector<double> row(columns.size());
  auto writeSample = [&] {
    const std::vector<double>& sample = sim->sample();
    for (std::size_t k = 0; k < columns.size(); ++k) row[k] = sample[columns[k]];
    csv->row(row);
  };

  // run: outputs at t_k = k · interval, k = 0 … ⌈duration / interval⌉; rows at every `every`-th
  // and the last
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  auto lastReport = started;
  const long outputs = runOutputCount(duration, sim->outputInterval());
  const long rows = outputs / every + 1 + (outputs % every != 0 ? 1 : 0);
  if (const double bytes = estimatedCsvBytes(columns.size(), rows); bytes > kLargeOutputBytes)
    std::fprintf(stderr,
                 "kinetree-cli simulate: this run writes about %s GB (%s columns x %s rows); --signals and --every "
                 "write less\n",
                 formatSignificant(bytes / 1e9, 2).c_str(), groupDigits(static_cast<long>(columns.size())).c_str(),
                 groupDigits(rows).c_str());
  writeSample();
  bool diverged = false, wroteLast = true;
  for (long k = 0; k < outputs; ++k) {
    if (!sim->step()) {
      diverged = true;
      if (!wroteLast) writeSample();  // the last good state ends the table
      break;
    }
    wroteLast = (k + 1) % every == 0 || k + 1 == outputs;
    if (wroteLast) writeSample();
    const auto now = Clock::now();
    if (now - lastReport > std::chrono::milliseconds(tty ? 250 : 5000) && now - started > std::chrono::seconds(1)) {
      lastReport = now;
      std::fprintf(stderr, "%ssimulate: t = %s / %s s (%.0f%%)%s", tty ? "\r" : "",
                   formatSignificant(sim->time(), 6).c_str(), formatSignificant(duration, 6).c_str(),
                   100.0 * static_cast<double>(k + 1) / static_cast<double>(outputs), tty ? "" : "\n");
      std::fflush(stderr);
    }
  }
  if (tty && lastReport != started) std::fputs("\n", stderr);
  try {
    csv->finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli simulate: %s\n", e.what());
    return 1;
  }
  interruptGuard.reset();  // written: an interruption from here on no longer concerns the file
  if (diverged) {
    std::fprintf(stderr, "%s: simulation stopped: %s\n", printable(modelPath).c_str(), sim->error().c_str());
    return 1;
  }
  return 0;
}

}  // namespace kt::cli
