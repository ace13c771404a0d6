// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli bench: the cost of one forward-dynamics call (q̈ plus joint loads) per solver, of
// inverse dynamics (τ by the RNEA, alone and with every joint's wrench: what a prescribed motion
// costs per sample), of hybrid dynamics (every other joint prescribed) per solver that computes
// it, and optionally of a whole run split into the dynamics and what the run adds (bench_run.hpp).
//
// Every forward and hybrid call computes q̈ and the joint loads (aba and crba by the RNEA backward
// pass on their q̈; the cfa-* solvers from λ), unless --no-loads. Timing (CPU time of the calling thread): a warm-up of
// at least 50 ms, then K batches of calls, each batch long enough to last about 20 ms; the reported time per call is
// the median over the batches.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/bench_run.hpp"
#include "app/cli/cli_args.hpp"
#include "app/cli/commands.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/model/tree.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {
namespace {

constexpr const char* kBenchUsage =
    "usage: kinetree-cli bench (--model FILE | --chain N | --cardan-chain N | --binary-tree DEPTH)\n"
    "                          [--solvers a,b,...] [--kinds forward,inverse,hybrid] [--repeat K] [--json]\n"
    "                          [--simulate] [--no-loads]\n"
    "                          [--package-path DIR]...\n";

// CPU time of the calling thread: on a shared machine, time spent descheduled is not counted.
struct Clock {
  using time_point = double;
  static double now() { return threadSeconds(); }
};

double secondsSince(Clock::time_point start) { return Clock::now() - start; }

using kt::cli::splitList;

// Upper bounds of the options, checked before anything is allocated: a generated model of a
// million bodies takes about a gigabyte, and each --repeat batch lasts about 20 ms per solver.
constexpr int kMaxBenchBodies = 1'000'000;
constexpr int kMaxBenchRepeat = 1000;

bool parsePositiveInt(const std::string& option, const std::string& text, int limit, const char* unit, int& out) {
  long v = 0;
  if (!parseCount("bench", option, text, limit, unit, v)) return false;
  out = static_cast<int>(v);
  return true;
}

// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out.push_back(ch);
    }
  }
  return out + "\"";
}

// A reproducible state: random joint positions (unit quaternions), velocities and forces.
void benchState(const Tree& tree, VectorX& q, VectorX& v, VectorX& tau) {
  SplitMix64 rng(12345);
  q.resize(tree.nq);
  v.resize(tree.nv);
  tau.resize(tree.nv);
  for (int k = 0; k < tree.nq; ++k) q[k] = rng.uniform(-1.0, 1.0);
  for (int i = 0; i < tree.nb; ++i) tree.joints[i].normalize(q.data() + tree.qOffset[i]);
  for (int k = 0; k < tree.nv; ++k) v[k] = rng.uniform(-1.0, 1.0);
  for (int k = 0; k < tree.nv; ++k) tau[k] = rng.uniform(-1.0, 1.0);
}

// Median time of one call of `call`, in nanoseconds.
template <class Call>
double timeCall(Call&& call, int repeat) {
  // warm-up: at least 3 calls and 50 ms; estimates the cost of one call
  long calls = 0;
  const auto start = Clock::now();
  while (calls < 3 || secondsSince(start) < 0.05) {
    call();
    ++calls;
  }
  const double estimate = secondsSince(start) / static_cast<double>(calls);
  const long batch = std::max(1L, static_cast<long>(std::ceil(0.02 / estimate)));
  std::vector<double> perCall;
  perCall.reserve(repeat);
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = Clock::now();
    for (long k = 0; k < batch; ++k) call();
    perCall.push_back(secondsSince(t0) / static_cast<double>(batch));
  }
  std::nth_element(perCall.begin(), perCall.begin() + repeat / 2, perCall.end());
  return 1e9 * perCall[repeat / 2];
}

// Forward dynamics with joint loads (withLoads false: q̈ only, to measure what the loads cost).
double timeForward(Solver& solver, const VectorX& q, const VectorX& v, const VectorX& tau, int repeat, bool withLoads) {
  const Tree& tree = solver.tree();
  VectorX qdd = VectorX::Zero(tree.nv);
  JointLoads loads;
  loads.resize(tree);
  JointLoads* out = withLoads ? &loads : nullptr;
  return timeCall([&] { solver.forwardDynamics(q, v, tau, {}, qdd, out); }, repeat);
}

// Inverse dynamics τ(q, ν, q̈) by the RNEA, with every joint's wrench when withLoads.
double timeInverse(const Tree& tree, const VectorX& q, const VectorX& v, const VectorX& qdd, int repeat,
                   bool withLoads) {
  RneaWorkspace ws(tree);
  VectorX tau = VectorX::Zero(tree.nv);
  JointLoads loads;
  loads.resize(tree);
  JointLoads* out = withLoads ? &loads : nullptr;
  return timeCall([&] { inverseDynamics(tree, ws, q, v, qdd, {}, tau, out); }, repeat);
}

// Hybrid dynamics with every other joint prescribed (tree order: 1, 3, 5, …), its q̈ given.
double timeHybrid(Solver& solver, const VectorX& q, const VectorX& v, const VectorX& tau, const VectorX& qdd,
                  int repeat, bool withLoads) {
  const Tree& tree = solver.tree();
  std::vector<char> prescribed(static_cast<std::size_t>(tree.nb), 0);
  for (std::size_t i = 1; i < prescribed.size(); i += 2) prescribed[i] = 1;
  VectorX tauInOut = tau, qddInOut = qdd;
  JointLoads loads;
  loads.resize(tree);
  JointLoads* out = withLoads ? &loads : nullptr;
  return timeCall(
      [&] {
        // the free joints' τ and the prescribed joints' q̈ are the inputs; a call overwrites the rest
        tauInOut = tau;
        qddInOut = qdd;
        solver.hybridDynamics(q, v, tauInOut, {}, prescribed, qddInOut, out);
      },
      repeat);
}

// Solvers whose cost grows as N³ in memory or time; left out of the default list on big models.
bool isDense(const std::string& name) { return name == "crba" || name == "cfa-dense"; }

// Branching bodies (two or more children): cfa-oddeven solves a dense system over their joints,
// (6 × branches)² doubles, so bushy trees leave it out of the default list too.
int branchingBodies(const Tree& tree) {
  int n = 0;
  for (const auto& children : tree.children) n += children.size() >= 2 ? 1 : 0;
  return n;
}

}  // namespace

int cmdBench(const std::vector<std::string>& args) {
  ParsedArgs parsed;
  if (!parseArgs("bench", kBenchUsage, args,
                 {{"--model"},
                  {"--chain"},
                  {"--cardan-chain"},
                  {"--binary-tree"},
                  {"--solvers"},
                  {"--kinds"},
                  {"--repeat"},
                  {"--json", false},
                  {"--simulate", false},
                  {"--no-loads", false},
                  packagePathSpec()},
                 parsed))
    return 2;
  if (!parsed.positional.empty()) {
    std::fprintf(stderr, "kinetree-cli bench: unexpected argument '%s'\n%s", printable(parsed.positional[0]).c_str(),
                 kBenchUsage);
    return 2;
  }
  std::string modelPath, solverList, kindList = "forward,inverse,hybrid";
  int chain = 0, cardanChain = 0, binaryDepth = 0, repeat = 7;
  bool json = false, simulate = false, withLoads = true;
  int sources = 0;
  for (const auto& [name, value] : parsed.options) {
    if (name == "--json") {
      json = true;
    } else if (name == "--simulate") {
      simulate = true;
    } else if (name == "--no-loads") {
      withLoads = false;
    } else if (name == "--model") {
      if (value.empty()) {
        std::fputs("kinetree-cli bench: --model needs a file name, got ''\n", stderr);
        return 2;
      }
      modelPath = value;
      ++sources;
    } else if (name == "--chain") {
      if (!parsePositiveInt(name, value, kMaxBenchBodies, "bodies", chain)) return 2;
      ++sources;
    } else if (name == "--cardan-chain") {
      if (!parsePositiveInt(name, value, kMaxBenchBodies, "bodies", cardanChain)) return 2;
      ++sources;
    } else if (name == "--binary-tree") {
      if (!parsePositiveInt(name, value, 20, "levels (2^20 bodies)", binaryDepth)) return 2;
      ++sources;
    } else if (name == "--solvers") {
      solverList = value;
    } else if (name == "--kinds") {
      kindList = value;
    } else if (name == "--repeat") {
      if (!parsePositiveInt(name, value, kMaxBenchRepeat, "batches (about 20 ms each)", repeat)) return 2;
    }
  }
  bool forward = false, inverse = false, hybrid = false;
  for (const std::string& k : splitList(kindList)) {
    if (k == "forward") {
      forward = true;
    } else if (k == "inverse") {
      inverse = true;
    } else if (k == "hybrid") {
      hybrid = true;
    } else {
      std::fprintf(stderr, "kinetree-cli bench: --kinds takes forward, inverse and hybrid, got '%s'\n",
                   printable(k).c_str());
      return 2;
    }
  }
  if (!forward && !inverse && !hybrid) {
    std::fputs("kinetree-cli bench: --kinds needs at least one of forward, inverse, hybrid\n", stderr);
    return 2;
  }
  if (sources != 1) {
    std::fprintf(stderr, "kinetree-cli bench: give exactly one of --model, --chain, --cardan-chain, --binary-tree\n%s",
                 kBenchUsage);
    return 2;
  }

  // the model
  Model model;
  std::string label;
  if (!modelPath.empty()) {
    if (!loadModel(modelPath, model, packagePathsOf(parsed))) return 1;
    label = std::filesystem::path(modelPath).stem().string();
  } else if (chain > 0) {
    model = makeChain(chain);
    label = "chain-" + std::to_string(chain);
  } else if (cardanChain > 0) {
    model = makeCardanChain(cardanChain);
    label = "cardan-chain-" + std::to_string(cardanChain);
  } else {
    model = makeBinaryTree(binaryDepth);
    label = "binary-tree-" + std::to_string(binaryDepth);
  }
  Tree tree;
  std::vector<Diagnostic> problems;
  if (!finalize(model, tree, problems)) {
    std::fputs(formatDiagnostics(problems).c_str(), stderr);
    return 1;
  }

  // the solvers: the given list, or every registered one (O(N³) ones only up to 1,000 bodies,
  // cfa-oddeven only up to 500 branching bodies and 100,000 bodies: its refinement step keeps every
  // round's factors, about 0.9 KB per body and round, 1.5 GB at 100,000 bodies)
  std::vector<std::string> solvers = splitList(solverList);
  if (solvers.empty()) {
    for (const SolverInfo& info : solverRegistry())
      if ((tree.nb <= 1000 || !isDense(info.name)) &&
          (info.name != "cfa-oddeven" || (branchingBodies(tree) <= 500 && tree.nb <= 100'000)))
        solvers.push_back(info.name);
  }
  for (const std::string& s : solvers)
    if (!isSolverName(s)) {
      std::string known;
      for (const SolverInfo& info : solverRegistry()) known += (known.empty() ? "" : ", ") + info.name;
      std::fprintf(stderr, "kinetree-cli bench: unknown solver '%s' (expected one of: %s)\n", s.c_str(), known.c_str());
      return 2;
    }

  VectorX q, v, tau;
  benchState(tree, q, v, tau);
  // the q̈ that inverse and hybrid dynamics are given: forward dynamics' at the same state
  VectorX qdd = VectorX::Zero(tree.nv);
  makeSolver("aba", tree)->forwardDynamics(q, v, tau, {}, qdd, nullptr);
  // aba's forward dynamics is always timed: it is the reference of the ratio column
  const double abaNs = timeForward(*makeSolver("aba", tree), q, v, tau, repeat, withLoads);

  if (!json) {
    std::printf("%-18s %7s %7s  %-8s %-14s %6s %13s %11s %8s\n", "model", "bodies", "nv", "kind", "solver", "loads",
                "ns/call", "ns/body", "ratio");
  }
  const auto row = [&](const char* kind, const std::string& solver, bool loads, double ns) {
    const double perBody = ns / std::max(1, tree.nb);
    const double ratio = ns / abaNs;
    if (json) {
      std::printf(
          "{\"model\": %s, \"bodies\": %d, \"nv\": %d, \"kind\": \"%s\", \"solver\": %s, \"loads\": %s, "
          "\"ns_per_call\": %.1f, \"ns_per_body\": %.2f, \"ratio_to_aba\": %.4f",
          jsonString(label).c_str(), tree.nb, tree.nv, kind, jsonString(solver).c_str(), loads ? "true" : "false", ns,
          perBody, ratio);
      std::printf("}\n");
    } else {
      std::printf("%-18s %7d %7d  %-8s %-14s %6s %13.0f %11.1f %8.3f\n", label.c_str(), tree.nb, tree.nv, kind,
                  solver.c_str(), loads ? "yes" : "no", ns, perBody, ratio);
    }
    std::fflush(stdout);
  };
  // a 10 s run's parts (bench_run.hpp), one row per forward solver after the call timings
  struct TimedRun {
    std::string solver;
    RunSplit split;
    std::string error;  ///< why this solver's run could not be timed (the others still are)
  };
  std::vector<TimedRun> runs;
  const auto printRuns = [&] {
    if (runs.empty()) return;
    if (!json)
      std::printf("\n%-18s %-14s %6s %13s %12s %8s %12s %14s %9s\n", "run (rk4, 2 ms)", "solver", "t [s]",
                  "dynamics [s]", "outputs [s]", "beyond", "derived [s]", "streaming [s]", "csv [s]");
    for (const auto& [solver, r, error] : runs) {
      if (!error.empty()) {
        if (json) {
          std::printf("{\"model\": %s, \"kind\": \"run\", \"solver\": %s, \"error\": %s}\n", jsonString(label).c_str(),
                      jsonString(solver).c_str(), jsonString(error).c_str());
        } else {
          std::printf("%-18s %-14s not timed: %s\n", label.c_str(), solver.c_str(), error.c_str());
        }
        continue;
      }
      if (json) {
        std::printf(
            "{\"model\": %s, \"bodies\": %d, \"nv\": %d, \"kind\": \"run\", \"solver\": %s, \"duration_s\": %g, "
            "\"dynamics_s\": %.9g, \"outputs_s\": %.9g, \"simulate_s\": %.9g, \"beyond_dynamics\": %.9g, "
            "\"derived_s\": %.9g, \"streaming_s\": %.9g, \"csv_s\": %.9g}\n",
            jsonString(label).c_str(), tree.nb, tree.nv, jsonString(solver).c_str(), r.duration, r.dynamics, r.outputs,
            r.recorded, r.overhead(), r.derived, r.streaming, r.csv);
      } else {
        std::printf("%-18s %-14s %6g %13.4f %12.4f %7.1f%% %12.4f %14.4f %9.3f\n", label.c_str(), solver.c_str(),
                    r.duration, r.dynamics, r.outputs, 100.0 * r.overhead(), r.derived, r.streaming, r.csv);
      }
    }
    std::fflush(stdout);
  };
  if (forward) {
    for (const std::string& s : solvers) {
      const double ns = s == "aba" ? abaNs : timeForward(*makeSolver(s, tree), q, v, tau, repeat, withLoads);
      row("forward", s, withLoads, ns);
      // 10 s as in Liu et al. 2016; 1 s on big models (the bench stays short, and a long chain at
      // h = 2 ms leaves RK4's region of stability after a few seconds)
      if (simulate) {
        TimedRun run{s, {}, {}};
        try {
          run.split = timeRunSplit(model, s, tree.nb > 100 ? 1.0 : 10.0, tree.nb > 100 ? 3 : 7);
        } catch (const std::exception& e) {
          run.error = e.what();
        }
        runs.push_back(std::move(run));
      }
    }
  }
  // inverse dynamics, the engine of a prescribed motion: τ alone, and with every joint's wrench
  if (inverse) {
    row("inverse", "rnea", false, timeInverse(tree, q, v, qdd, repeat, false));
    if (withLoads) row("inverse", "rnea", true, timeInverse(tree, q, v, qdd, repeat, true));
  }
  if (hybrid) {
    for (const std::string& s : solvers) {
      const std::unique_ptr<Solver> solver = makeSolver(s, tree);
      if (solver->supportsHybrid()) row("hybrid", s, withLoads, timeHybrid(*solver, q, v, tau, qdd, repeat, withLoads));
    }
  }
  printRuns();
  return 0;
}

}  // namespace kt::cli
