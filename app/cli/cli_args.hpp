// SPDX-License-Identifier: BSD-3-Clause
// Small helpers shared by the kinetree-cli commands: one option parser for every command, number
// parsing with the option's name in the message, and the run-settings check.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/simulator.hpp"

namespace kt::cli {

/// "a,b,,c" → {"a", "b", "c"} (empty items dropped).
std::vector<std::string> splitList(const std::string& s);

struct OptionSpec {
  const char* name;             ///< "--output"
  bool takesValue = true;       ///< false for a flag ("--json")
  const char* alias = nullptr;  ///< a short form ("-o"), or null
};

struct ParsedArgs {
  std::vector<std::string> positional;  ///< operands in order (files; anything after "--")
  /// Options in the order given: the spec's name (also for its alias) and the value ("" for a flag).
  std::vector<std::pair<std::string, std::string>> options;
};

/// Parses ARGS of `command` against `specs`: "--name VALUE", "--name=VALUE", "-o VALUE" for an
/// alias, flags, and operands; "--" ends the options (what follows is an operand even when it
/// starts with '-'); "-" alone is an operand. On a usage error prints "kinetree-cli COMMAND:
/// MESSAGE" and `usage` on stderr and returns false.
bool parseArgs(const char* command, const char* usage, const std::vector<std::string>& args,
               const std::vector<OptionSpec>& specs, ParsedArgs& out);

/// The one model file of a command that takes exactly one: false, with "kinetree-cli COMMAND:
/// more than one model file" or the usage on stderr, when there is none or more than one.
bool singleModelFile(const char* command, const char* usage, const ParsedArgs& parsed, std::string& path);

/// A positive finite number ("--step expects a positive number, got 'x'" on stderr otherwise).
bool parsePositive(const char* command, const std::string& option, const std::string& text, double& out);

/// A positive integer of at most `limit` (`unit` names what it counts in the message), e.g.
/// "--chain must be at most 1000000 bodies, got 2000000" on stderr otherwise.
bool parseCount(const char* command, const std::string& option, const std::string& text, long limit, const char* unit,
                long& out);

/// 12345 → "12,345".
std::string groupDigits(long n);

/// Checks the settings of a run (core/sim/run_limits.hpp). Each problem is printed on stderr,
/// naming the command-line option that set the value ("--duration 1e308: ...") when it was given
/// (`*Given`), otherwise the model file's simulation.<field>. False when there is one.
bool checkRunOptions(const char* command, const std::string& modelPath, double step, bool stepGiven, double duration,
                     bool durationGiven, double tolerance, bool toleranceGiven);

/// The settings of one run on a command line: --solver, --integrator, --step, --tolerance and
/// --duration (zero or empty: the model file's), and --motion FILE.csv with its --cutoff
/// (docs/motion.md: every joint the file names follows it, the model file unchanged).
struct RunChoices {
  std::string solver, integrator;
  double step = 0.0, tolerance = 0.0, duration = 0.0;
  std::string motion;
  double cutoff = 0.0;
  std::string events;  ///< --events FILE: interactions to replay (core/io/interaction_events.hpp)
};
/// The option specs of RunChoices, for a command's parseArgs list.
std::vector<OptionSpec> runOptionSpecs();
/// Takes `name` = `value` into `choices` when it is one of runOptionSpecs(): returns false (with
/// the message on stderr) for a value that is not a positive number or not a known solver or
/// integrator; sets `taken` when the option was a run option.
bool takeRunOption(const char* command, const std::string& name, const std::string& value, RunChoices& choices,
                   bool& taken);
/// The simulator options and duration of a run of `model` with `choices` over the model file's
/// simulation: block; false (messages on stderr, as checkRunOptions) when they cannot run.
bool runSettings(const char* command, const std::string& modelPath, const Model& model, const RunChoices& choices,
                 SimulatorOptions& options, double& duration);

/// Prescribes the joints named in `choices.motion` (applyMotionTable). False, with every problem
/// on stderr (file:line:col), when the file cannot be read or does not fit the model. Nothing to
/// do without --motion; --cutoff without it is a usage error.
bool applyMotionChoice(const char* command, const RunChoices& choices, Model& model);
/// False, with the reason on stderr, when a run of `duration` s would pass the end of a table the
/// simulator's motions or drives read.
bool checkTableEnd(const char* command, const Simulator& sim, double duration, bool durationGiven);

/// The simulator of a command that runs one model file sample by sample (simulate, peaks): the
/// file loaded (its diagnostics printed), `choices` applied to its simulation: block and checked,
/// nothing recorded (the caller takes each sample). Returns 0 with `sim` and `duration` set, or
/// the exit status of the failure: 1 for the model, 2 for the command line.
int streamingRun(const char* command, const char* usage, const std::string& modelPath,
                 const std::vector<std::string>& packagePaths, const RunChoices& choices,
                 std::unique_ptr<Simulator>& sim, double& duration);

/// Text of a file name or model value for a message: control characters (terminal escapes) as \xNN.
std::string printable(const std::string& s);

/// Checks, before a run, that the files it will write can be written (kt::checkWritable; "" and
/// "-" are stdout): false after "kinetree-cli COMMAND: cannot …" on stderr, so that a bad path
/// fails at once instead of after the computation.
bool outputsWritable(const char* command, std::initializer_list<std::string> paths);

/// The --package-path DIR option of every command that reads a model (a URDF's package:// meshes,
/// as `kinetree-cli import` takes it).
OptionSpec packagePathSpec();
/// The --package-path values of `parsed`, in the order given.
std::vector<std::string> packagePathsOf(const ParsedArgs& parsed);

/// Loads a model file for a command: a Kinetree model, or an MJCF model or a URDF imported as
/// `kinetree-cli import` imports it without an output file (core/io/robot_files.hpp), a URDF's
/// package:// meshes looked for in `packagePaths`; "-" reads a model file from standard input.
/// Its warnings (file:line:col: warning: ...) are printed on stderr and it is loaded; when it is
/// invalid, its diagnostics are printed and false returned.
bool loadModel(const std::string& path, Model& model, const std::vector<std::string>& packagePaths = {});

}  // namespace kt::cli
