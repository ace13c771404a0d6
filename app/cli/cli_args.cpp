// SPDX-License-Identifier: BSD-3-Clause
#include "app/cli/cli_args.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/dynamics/solver.hpp"
#include "core/integrate/integrator.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/interaction_events.hpp"
#include "core/io/mjcf/mjcf.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/motion_table.hpp"
#include "core/io/robot_files.hpp"
#include "core/io/urdf/urdf.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/text_util.hpp"
#include "core/sim/run_limits.hpp"

namespace kt::cli {

std::vector<std::string> splitList(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(std::move(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

bool outputsWritable(const char* command, std::initializer_list<std::string> paths) {
  try {
    for (const std::string& path : paths)
      if (!path.empty() && path != "-") checkWritable(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli %s: %s\n", command, printable(e.what()).c_str());
    return false;
  }
  return true;
}

std::string printable(const std::string& s) { return escapeControls(s); }

OptionSpec packagePathSpec() { return {"--package-path"}; }

std::vector<std::string> packagePathsOf(const ParsedArgs& parsed) {
  std::vector<std::string> paths;
  for (const auto& [name, value] : parsed.options)
    if (name == "--package-path") paths.push_back(value);
  return paths;
}

bool loadModel(const std::string& path, Model& model, const std::vector<std::string>& packagePaths) {
  try {
    std::vector<Diagnostic> warnings;
    if (path == "-") {
      // a model file on standard input (`generate ... | kinetree-cli validate -`): paths in it
      // resolve from the working directory
      std::string text;
      char buffer[65536];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0;) text.append(buffer, n);
      model = loadModelFromString(text, "<stdin>", warnings);
    } else {
      // robots are read as `kinetree-cli import` reads them (docs/mjcf.md, docs/urdf.md), so every
      // command takes one without a converted model file
      model = readModelOrRobot(path, packagePaths, warnings);
    }
    std::fputs(formatDiagnostics(warnings).c_str(), stderr);
    return true;
  } catch (const ModelLoadError& e) {
    std::fputs(formatDiagnostics(e.diagnostics()).c_str(), stderr);
    return false;
  }
}

bool parseArgs(const char* command, const char* usage, const std::vector<std::string>& args,
               const std::vector<OptionSpec>& specs, ParsedArgs& out) {
  const auto fail = [&](const std::string& message) {
    std::fprintf(stderr, "kinetree-cli %s: %s\n%s", command, message.c_str(), usage);
    return false;
  };
  bool optionsEnded = false;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (optionsEnded || a.size() < 2 || a[0] != '-') {
      out.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      optionsEnded = true;
      continue;
    }
    std::string name = a, value;
    bool inlineValue = false;
    if (const std::size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      inlineValue = true;
    }
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : specs)
      if (name == s.name || (s.alias && name == s.alias)) spec = &s;
    if (!spec) {
      std::vector<std::string> known;
      known.reserve(specs.size());
      for (const OptionSpec& s : specs) known.emplace_back(s.name);
      const std::string near = closestMatch(name, known);
      return fail("unknown option '" + printable(name) + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    if (!spec->takesValue) {
      if (inlineValue) return fail(std::string(spec->name) + " takes no value");
      out.options.emplace_back(spec->name, std::string());
      continue;
    }
    if (!inlineValue) {
      if (k + 1 >= args.size()) return fail(name + " needs a value");
      // "-o --duration 1": the value forgotten, the next option taken for it; a value that starts
      // with "--" is given as --output=--name (negative numbers, "-" for stdout pass)
      const std::string& next = args[k + 1];
      if (next.rfind("--", 0) == 0 && next.size() > 2)
        return fail(name + " needs a value before " + printable(next) + " (a value starting with -- is written " +
                    spec->name + "=VALUE)");
      value = args[++k];
    }
    out.options.emplace_back(spec->name, value);
  }
  return true;
}

bool singleModelFile(const char* command, const char* usage, const ParsedArgs& parsed, std::string& path) {
  if (parsed.positional.size() > 1) {
    std::fprintf(stderr, "kinetree-cli %s: more than one model file ('%s')\n%s", command,
                 printable(parsed.positional[1]).c_str(), usage);
    return false;
  }
  if (parsed.positional.empty()) {
    std::fputs(usage, stderr);
    return false;
  }
  path = parsed.positional[0];
  return true;
}

bool parsePositive(const char* command, const std::string& option, const std::string& text, double& out) {
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(out) || !(out > 0.0)) {
    std::fprintf(stderr, "kinetree-cli %s: %s expects a positive number, got '%s'\n", command, option.c_str(),
                 printable(text).c_str());
    return false;
  }
  return true;
}

bool parseCount(const char* command, const std::string& option, const std::string& text, long limit, const char* unit,
                long& out) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v <= 0 || errno == ERANGE) {
    std::fprintf(stderr, "kinetree-cli %s: %s expects a positive integer, got '%s'\n", command, option.c_str(),
                 printable(text).c_str());
    return false;
  }
  if (v > limit) {
    std::fprintf(stderr, "kinetree-cli %s: %s must be at most %ld %s, got %lld\n", command, option.c_str(), limit, unit,
                 v);
    return false;
  }
  out = static_cast<long>(v);
  return true;
}

std::string groupDigits(long n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && digits[k - 1] != '-' && (digits.size() - k) % 3 == 0) out.push_back(',');
    out.push_back(digits[k]);
  }
  return out;
}

bool checkRunOptions(const char* command, const std::string& modelPath, double step, bool stepGiven, double duration,
                     bool durationGiven, double tolerance, bool toleranceGiven) {
  const std::vector<RunSettingsIssue> issues = checkRunSettings(step, duration, tolerance);
  for (const RunSettingsIssue& issue : issues) {
    // the option that set the value; a value of the model that only fails together with an
    // option is blamed on the option
    std::string where;
    const bool given = issue.field == "step" ? stepGiven : issue.field == "duration" ? durationGiven : toleranceGiven;
    const double value = issue.field == "step" ? step : issue.field == "duration" ? duration : tolerance;
    if (given)
      where = "--" + issue.field + " " + formatRoundTrip(value);
    else if (durationGiven && issue.field != "tolerance")
      where = "--duration " + formatRoundTrip(duration);
    else if (stepGiven && issue.field != "tolerance")
      where = "--step " + formatRoundTrip(step);
    else
      where = printable(modelPath) + ": simulation." + issue.field;
    std::fprintf(stderr, "kinetree-cli %s: %s: %s\n", command, where.c_str(), issue.message.c_str());
  }
  return issues.empty();
}

std::vector<OptionSpec> runOptionSpecs() {
  return {{"--solver"},   {"--integrator"}, {"--step"},   {"--tolerance"},
          {"--duration"}, {"--motion"},     {"--cutoff"}, {"--events"}};
}

bool takeRunOption(const char* command, const std::string& name, const std::string& value, RunChoices& choices,
                   bool& taken) {
  const auto names = [](const std::vector<std::string>& list) {
    std::string s;
    for (const std::string& n : list) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  taken = true;
  if (name == "--solver") {
    if (!isSolverName(value)) {
      std::vector<std::string> known;
      for (const SolverInfo& info : solverRegistry()) known.push_back(info.name);
      std::fprintf(stderr, "kinetree-cli %s: unknown solver '%s' (expected one of: %s)\n", command,
                   printable(value).c_str(), names(known).c_str());
      return false;
    }
    choices.solver = value;
  } else if (name == "--integrator") {
    if (!isIntegratorName(value)) {
      std::fprintf(stderr, "kinetree-cli %s: unknown integrator '%s' (expected one of: %s)\n", command,
                   printable(value).c_str(), names(integratorNames()).c_str());
      return false;
    }
    choices.integrator = value;
  } else if (name == "--step") {
    return parsePositive(command, name, value, choices.step);
  } else if (name == "--tolerance") {
    return parsePositive(command, name, value, choices.tolerance);
  } else if (name == "--duration") {
    return parsePositive(command, name, value, choices.duration);
  } else if (name == "--events") {
    if (value.empty()) {
      std::fprintf(stderr, "kinetree-cli %s: --events expects an events file (NAME.events.json)\n", command);
      return false;
    }
    choices.events = value;
  } else if (name == "--motion") {
    if (value.empty()) {
      std::fprintf(stderr, "kinetree-cli %s: --motion expects a CSV file of joint histories\n", command);
      return false;
    }
    choices.motion = value;
  } else if (name == "--cutoff") {
    return parsePositive(command, name, value, choices.cutoff);
  } else {
    taken = false;
  }
  return true;
}

bool runSettings(const char* command, const std::string& modelPath, const Model& model, const RunChoices& choices,
                 SimulatorOptions& options, double& duration) {
  options = SimulatorOptions::fromSettings(model.simulation);
  if (!choices.solver.empty()) options.solver = choices.solver;
  if (!choices.integrator.empty()) options.integrator = choices.integrator;
  if (choices.step > 0) options.step = choices.step;
  if (choices.tolerance > 0) options.tolerance = choices.tolerance;
  duration = choices.duration > 0 ? choices.duration : model.simulation.duration;
  return checkRunOptions(command, modelPath, options.step, choices.step > 0, duration, choices.duration > 0,
                         options.tolerance, choices.tolerance > 0);
}

bool applyMotionChoice(const char* command, const RunChoices& choices, Model& model) {
  if (choices.motion.empty()) {
    if (choices.cutoff > 0)
      std::fprintf(stderr, "kinetree-cli %s: --cutoff filters the samples of --motion; give --motion FILE.csv\n",
                   command);
    return choices.cutoff == 0;
  }
  try {
    const MotionTable table = readMotionTable(choices.motion);
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(choices.motion, ec).lexically_normal().string();
    const MotionTableMatch match = applyMotionTable(model, table, ec ? choices.motion : absolute, choices.cutoff);
    for (const Diagnostic& d : match.unmatched) std::fprintf(stderr, "%s\n", printable(d.format()).c_str());
    for (const Diagnostic& d : match.problems) std::fprintf(stderr, "%s\n", printable(d.format()).c_str());
    if (!match.unmatched.empty() || !match.problems.empty()) return false;
    for (const Diagnostic& d : match.skipped) std::fprintf(stderr, "%s\n", printable(d.format()).c_str());
    if (match.joints.empty()) {
      std::fprintf(stderr, "%s:1:1: error: no column q:<joint>[k]: the file prescribes no joint\n",
                   printable(choices.motion).c_str());
      return false;
    }
  } catch (const TableError& e) {
    std::fprintf(stderr, "%s\n", printable(e.what()).c_str());
    return false;
  }
  return true;
}

bool checkTableEnd(const char* command, const Simulator& sim, double duration, bool durationGiven) {
  if (sim.tablesCover(duration)) return true;
  // the outputs are t_k = k · interval up to the first at or past the duration: the longest run
  // the tables cover ends at the last output within them
  const double end = sim.tableEnd(), h = sim.outputInterval();
  const double longest = std::floor(end / h + 1e-9) * h;
  std::fprintf(stderr, "kinetree-cli %s: %s %s s runs past the data: %s; shorten the run (--duration %s)\n", command,
               durationGiven ? "--duration" : "the model's duration", formatRoundTrip(duration).c_str(),
               printable(sim.tableEndMessage()).c_str(), formatSignificant(longest, 12).c_str());
  return false;
}

int streamingRun(const char* command, const char* usage, const std::string& modelPath,
                 const std::vector<std::string>& packagePaths, const RunChoices& choices,
                 std::unique_ptr<Simulator>& sim, double& duration) {
  if (modelPath.empty()) {
    std::fprintf(stderr, "kinetree-cli %s: the model file name is empty ('')\n%s", command, usage);
    return 2;
  }
  Model model;
  if (!loadModel(modelPath, model, packagePaths)) return 1;
  if (!applyMotionChoice(command, choices, model)) return choices.motion.empty() ? 2 : 1;
  SimulatorOptions options;
  // what cannot run is refused before anything is written
  if (!runSettings(command, modelPath, model, choices, options, duration)) return 2;
  options.record = false;
  options.interactions = !choices.events.empty();
  try {
    sim = std::make_unique<Simulator>(model, options);
  } catch (const TableError& e) {
    std::fprintf(stderr, "%s\n", printable(e.what()).c_str());
    return 1;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", printable(modelPath).c_str(), e.what());
    return 1;
  }
  if (!choices.events.empty()) {
    EventsRun recorded;
    try {
      sim->scheduleEvents(readInteractionEvents(choices.events, sim->tree(), &recorded));
    } catch (const EventsFileError& e) {
      std::fprintf(stderr, "%s\n", printable(e.what()).c_str());
      return 1;
    } catch (const std::invalid_argument& e) {  // an event this run cannot take (a pose of a driven joint)
      std::fprintf(stderr, "%s: error: %s\n", printable(choices.events).c_str(), printable(e.what()).c_str());
      return 1;
    }
    // a replay gives the recorded samples only with the run they were recorded with
    const SimulatorOptions& o = sim->options();
    const bool adaptive = o.integrator == "dopri5";
    if ((!recorded.solver.empty() && recorded.solver != o.solver) ||
        (!recorded.integrator.empty() && recorded.integrator != o.integrator) ||
        (recorded.step > 0.0 && recorded.step != o.step) ||
        (adaptive && recorded.tolerance > 0.0 && recorded.tolerance != o.tolerance))
      std::fprintf(stderr,
                   "kinetree-cli %s: warning: the events were recorded with solver %s, integrator %s, step %s s%s; "
                   "this run uses %s, %s, %s s%s (the samples will differ)\n",
                   command, printable(recorded.solver).c_str(), printable(recorded.integrator).c_str(),
                   formatRoundTrip(recorded.step).c_str(),
                   recorded.tolerance > 0.0 ? (", tolerance " + formatRoundTrip(recorded.tolerance)).c_str() : "",
                   o.solver.c_str(), o.integrator.c_str(), formatRoundTrip(o.step).c_str(),
                   adaptive ? (", tolerance " + formatRoundTrip(o.tolerance)).c_str() : "");
  }
  if (!checkTableEnd(command, *sim, duration, choices.duration > 0)) return 2;
  return 0;
}

}  // namespace kt::cli
