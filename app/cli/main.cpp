// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli: the engine without a window. One table of subcommands (commands.hpp).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "core/model/diagnostic.hpp"
#include "core/model/text_util.hpp"
#include "core/version.hpp"

#ifdef KINETREE_TEST_HOOKS
#include <cstdlib>

#include "core/dynamics/test_perturbation.hpp"
#endif

namespace {

struct Command {
  const char* name;
  const char* summary;  ///< one line for --help
  const char* usage;    ///< full text for `help <command>`
  int (*run)(const std::vector<std::string>&);
};

// clang-format off
const Command kCommands[] = {
    {"validate", "check model files and report every problem",
     "usage: kinetree-cli validate [--package-path DIR]... [--] MODEL.yaml|ROBOT.urdf|ROBOT.xml...\n\n"
     "Reads each model file and checks it completely. Prints 'FILE: ok' on stdout for each valid\n"
     "file and every problem as 'FILE:LINE:COL: error: PATH: MESSAGE' on stderr.\n"
     "Exit status: 0 when every file is valid, 1 otherwise, 2 on a usage error.\n"
     "\nexample: kinetree-cli validate examples/*.yaml\n",
     &kt::cli::cmdValidate},
    {"info", "show a model's tree, bodies, joints, degrees of freedom and mass",
     "usage: kinetree-cli info [--package-path DIR]... [--] MODEL.yaml|ROBOT.urdf|ROBOT.xml\n\n"
     "Prints the body tree (a long run of single children shortened to its ends and a count), a table\n"
     "of bodies and joints (joint type, nq, nv, mass), the totals nq and nv, and the total mass.\n"
     "Exit status: 0, or 1 when the model is invalid.\n"
     "\nexample: kinetree-cli info examples/space_robot.yaml\n",
     &kt::cli::cmdInfo},
    {"simulate", "run a model and write its signals as CSV",
     "usage: kinetree-cli simulate MODEL.yaml [--solver S] [--integrator I] [--step H] [--tolerance TOL]\n"
     "                             [--duration T] [-o|--output FILE.csv|-] [--signals PATTERN,...]\n"
     "                             [--every K] [--motion FILE.csv [--cutoff HZ]] [--events FILE.events.json]\n"
     "                             [--package-path DIR]...\n\n"
     "Simulates the model from its initial state and writes one CSV row per output step (every H\n"
     "seconds, from t = 0 to T): a header of signal names (docs/signals.md), then numbers as %.17g.\n"
     "Defaults come from the model's simulation: block. Solvers: aba, crba, cfa-*, poisson-*;\n"
     "integrators: euler, rk4 (fixed step H), dopri5 (adaptive, relative tolerance TOL, output every H).\n"
     "What is written, columns times rows, can be large: every signal of a 1,000-body chain is 21,010\n"
     "columns, and 60 s at H = 0.002 s is 30,001 rows (about 8 GB). Two options make it smaller:\n"
     "  --signals  selects columns by comma-separated glob patterns (q:*,energy.*); time is always first;\n"
     "  --every K  keeps every K-th output step (t = 0, K H, 2K H, ...) and the last one, at T; the run\n"
     "             itself still takes steps of H. A run that will write more than 1 GB says so on stderr.\n"
     "Without --output, or with --output -, the CSV goes to stdout. A regular file is written atomically\n"
     "(a temporary file renamed over it; its mode is kept, a new file gets 0666 less the umask); a FIFO,\n"
     "device or process substitution is written in place. Settings that cannot run are refused (a step\n"
     "below 1e-12 s or longer than the duration, more than 1e9 output steps, a tolerance below 1e-14).\n"
     "--motion FILE.csv prescribes every joint the file names (columns time, q:<joint>[k], angles in rad\n"
     "or 'q:<joint>[k] (deg)', as simulate and Export Results write them; docs/motion.md): those joints\n"
     "follow the samples through a C2 spline, the model file unchanged, and tau: is the effort they need.\n"
     "--cutoff HZ low-passes the samples first (zero phase), for measured data. A column that names no\n"
     "joint, a bad number, times that do not increase or a run longer than the file is an error.\n"
     "--events FILE replays the pushes and drags of an events file (docs/interaction.md): each takes\n"
     "effect at the output time it was recorded at, and the CSV gains applied:<body>.fx ... .mz for\n"
     "every body. With the solver, integrator and step it was recorded with (a different one is\n"
     "warned about), the samples are the recorded run's, bit for bit.\n"
     "SIGINT, SIGTERM or SIGHUP removes the temporary file and exits 130, 143 or 129.\n"
     "Exit status: 0; 1 for an invalid model or a run that stopped (NaN/Inf or a failed adaptive\n"
     "step: the message names the time, the solver and the first bad quantity; the rows up to the\n"
     "last good state are written); 2 on a usage error.\n"
     "\nexample: kinetree-cli simulate examples/space_robot.yaml --duration 5 --every 10 --signals 'q:*,energy.*' \\\n"
     "           -o run.csv\n",
     &kt::cli::cmdSimulate},
    {"peaks", "run a model and list the peak load of every joint",
     "usage: kinetree-cli peaks MODEL.yaml [--solver S] [--integrator I] [--step H] [--tolerance TOL]\n"
     "                          [--duration T] [--csv] [-o|--output FILE|-] [--motion FILE.csv [--cutoff HZ]]\n"
     "                          [--events FILE.events.json] [--cases FILE.csv|FILE.json [--case-components]]\n"
     "                          [--package-path DIR]...\n\n"
     "Simulates the model as simulate does (its run options, --motion and --events included, and the\n"
     "same samples) and prints, for every joint, each with its time: the largest |force| and |moment|\n"
     "of the wrench it transmits, the largest |force| and |moment| of its reaction part, and the\n"
     "largest |tau| of its coordinates (N*m or N: a drive's force, or the effort its prescribed motion\n"
     "needs); for joints with a load rating (docs/model-format.md), the utilisation: the largest ratio\n"
     "of a peak to its rating, in % (an effort rating against the largest |tau| of each coordinate, a\n"
     "motor's peak torque).\n"
     "--csv writes the table as CSV (one row per joint; docs/signals.md, \"Peak loads\"); --output\n"
     "writes it to a file (atomically) instead of stdout. --cases writes the load cases at the peaks:\n"
     "for each joint's peak |force| and |moment|, the instant, the joint positions and every joint's\n"
     "wrench then (load:<joint>.fx ... .mz), one row per case, or as JSON for a FILE.json\n"
     "(docs/reports.md); --case-components adds a case at the peak of each reaction:<joint>.* and\n"
     "tau:<joint>[k] signal.\n"
     "A joint whose peak reached its rating is named on stderr as a warning.\n"
     "Exit status: 0; 1 for an invalid model or a run that stopped (the peaks up to the last good\n"
     "sample are printed); 2 on a usage error; 3 when a joint reached its load rating.\n"
     "\nexample: kinetree-cli peaks examples/space_robot.yaml --csv -o peaks.csv\n",
     &kt::cli::cmdPeaks},
    {"spectrum", "run a model and write the amplitude spectrum and PSD of signals",
     "usage: kinetree-cli spectrum MODEL.yaml --signals PATTERN[,PATTERN...] [--segment N]\n"
     "                             [--detrend none|mean|linear] [-o|--output FILE.csv|-]\n"
     "                             [run options as simulate: --solver --integrator --step --tolerance\n"
     "                             --duration --motion --cutoff --events --package-path]\n\n"
     "Simulates the model as simulate does and writes, for each signal --signals names (globs, as\n"
     "simulate --signals), its one-sided amplitude spectrum (the peak amplitude of a sinusoid) and\n"
     "power spectral density (units^2/Hz) by Welch's method: segments of N samples (default: the\n"
     "largest power of two at most a quarter of the run, at least 256) overlapping by half, each\n"
     "detrended (default: its mean removed) and Hann-windowed. Columns: f_Hz, then NAME.amplitude\n"
     "and NAME.psd per signal. Written to a file, the sample rate, the resolution and each signal's\n"
     "largest line are said on stderr. The scaling: docs/reports.md.\n"
     "Exit status: 0; 1 for an invalid model or a run that stopped; 2 on a usage error (a segment\n"
     "longer than the run included).\n"
     "\nexample: kinetree-cli spectrum examples/space_robot.yaml --duration 10 --signals 'reaction:J11.*' \\\n"
     "           -o j11_spectrum.csv\n",
     &kt::cli::cmdSpectrum},
    {"fatigue", "run a model and count the rainflow cycles and damage-equivalent load of signals",
     "usage: kinetree-cli fatigue MODEL.yaml --signals PATTERN[,PATTERN...] [--wohler M] [--neq N]\n"
     "                            [--csv] [-o|--output FILE|-] [--cycles FILE.csv]\n"
     "                            [--histogram FILE.csv [--bins R,M]]\n"
     "                            [run options as simulate: --solver --integrator --step --tolerance\n"
     "                            --duration --motion --cutoff --events --package-path]\n\n"
     "Simulates the model as simulate does and counts the rainflow cycles of each signal --signals\n"
     "names by ASTM E1049-85 (half cycles kept), then prints per signal the cycles counted, the\n"
     "largest range (its mean and start time) and the damage-equivalent load\n"
     "DEL = (sum n_i S_i^M / N)^(1/M): M the Woehler exponent (default 4, steel welds; 10 for\n"
     "composites), N the equivalent cycles (default: one per second of the run). --csv prints the\n"
     "table as CSV; --cycles writes every cycle (range, mean, count 1 or 0.5, its start and end\n"
     "times); --histogram the range-mean counts in R x M bins (--bins R,M, default 10,10).\n"
     "The method: docs/reports.md.\n"
     "Exit status: 0; 1 for an invalid model or a run that stopped; 2 on a usage error.\n"
     "\nexample: kinetree-cli fatigue examples/space_robot.yaml --duration 10 --signals 'load:J11.mz' --wohler 4\n",
     &kt::cli::cmdFatigue},
    {"compare", "run one model with several solvers and report their largest differences",
     "usage: kinetree-cli compare MODEL.yaml [--solvers a,b,...] [--duration T] [--step H] [--integrator I]\n"
     "                            [--tolerance TOL] [--trajectory] [--digits] [--motion FILE.csv [--cutoff HZ]]\n"
     "                            [--package-path DIR]...\n\n"
     "Compares solvers (default: every solver, aba first) against the first (docs/signals.md,\n"
     "\"Comparing solvers\"). Pointwise, the default: one run of the first solver gives the states, and\n"
     "every solver is evaluated at those same states: qdd and the joint loads against the first solver's,\n"
     "and for the impulse-form solvers p, v and pdot against M v, v and d/dt (M v); what differs is the\n"
     "solver alone. --trajectory: each solver integrates its own run and q, qd and the loads are compared\n"
     "output by output; the first solver is run again at half the step (dopri5: tolerance / 32), and a\n"
     "difference within 10 times that integrator difference counts as the integrator's. Differences are\n"
     "relative to the largest |value| of the reference over the run. Defaults for T, H and I come from\n"
     "the model's simulation: block. --digits prints the agreement as digits, -log10 of the relative\n"
     "difference (16.0: equal to the last bit; 'exact': no difference at all). With prescribed motions\n"
     "(in the model or --motion) the first solver must compute them (aba, crba, cfa-tree); pointwise,\n"
     "every solver is compared at its states with the required efforts as tau.\n"
     "Exit status: 0; 1 when a difference exceeds TOL (default 1e-10 pointwise, 1e-9 for trajectories)\n"
     "and is not the integrator's, a run stops, or the model is invalid; 2 on a usage error.\n"
     "\nexample: kinetree-cli compare examples/space_robot.yaml --solvers aba,cfa-tree,poisson-ldl --digits\n",
     &kt::cli::cmdCompare},
    {"bench", "time forward, inverse and hybrid dynamics (and optionally a whole run) per solver",
     "usage: kinetree-cli bench (--model FILE | --chain N | --cardan-chain N | --binary-tree DEPTH)\n"
     "                          [--solvers a,b,...] [--kinds forward,inverse,hybrid] [--repeat K] [--json]\n"
     "                          [--simulate] [--no-loads] [--package-path DIR]...\n\n"
     "One of --model, --chain, --cardan-chain and --binary-tree is required: the model to time.\n"
     "Times, on a fixed random state, each kind of --kinds (default all three):\n"
     "  forward  one call of each solver computing qdd and the joint loads (--no-loads: qdd only);\n"
     "  inverse  tau from qdd by the RNEA (solver rnea), alone and with every joint's wrench: the cost\n"
     "           of a prescribed motion per sample;\n"
     "  hybrid   each solver that computes hybrid dynamics, every other joint prescribed (tree order).\n"
     "Each time is a warm-up, then the median of K batches (default 7) of about 20 ms of thread CPU\n"
     "time each (time spent descheduled on a busy machine is not counted). Prints model, bodies, nv,\n"
     "kind, solver, loads, ns per call, ns per body and the ratio to aba's forward dynamics; with\n"
     "--json one JSON object per line with the keys model, bodies, nv, kind, solver, loads,\n"
     "ns_per_call, ns_per_body, ratio_to_aba.\n"
     "--simulate also times, per forward solver, a run at h = 0.002 s with rk4 (Liu et al. 2016;\n"
     "10 s, 1 s on models of more than 100 bodies), every step an output, split into its parts:\n"
     "  dynamics   a bare RK4 loop (drives and qdd at every stage, nothing else);\n"
     "  outputs    a recording run, as the application makes it, less the bare loop (the loads and\n"
     "             the measured signals, written in place in the recording);\n"
     "  beyond     outputs / dynamics;\n"
     "  derived    the first read of that recording: the derived signals (load_parent, attitude,\n"
     "             position, energy, momentum) of every row, which a recording run leaves to its readers;\n"
     "  streaming  a run that records nothing, less the bare loop: every output derived as it is made;\n"
     "  csv        every sample written as CSV (/dev/null).\n"
     "With --json one line per run, kind \"run\", with duration_s, dynamics_s, outputs_s, simulate_s\n"
     "(the whole recording run), beyond_dynamics, derived_s, streaming_s and csv_s; a solver that cannot run the\n"
     "model is not timed and says why (key error).\n"
     "Default solvers: every registered one (crba and cfa-dense only up to 1,000 bodies).\n"
     "Limits: --chain and --cardan-chain at most 1,000,000 bodies, --binary-tree at most depth 20,\n"
     "--repeat at most 1,000.\n"
     "Exit status: 0; 1 for an invalid model; 2 on a usage error.\n"
     "\nexample: kinetree-cli bench --chain 1000 --solvers aba,cfa-tree,poisson-sweep\n",
     &kt::cli::cmdBench},
    {"import", "read a URDF or MJCF robot into a Kinetree model",
     "usage: kinetree-cli import ROBOT.urdf [-o|--output MODEL.yaml|-] [--floating] [--merge-fixed]\n"
     "                           [--strict] [--density RHO] [--package-path DIR]...\n"
     "       kinetree-cli import ROBOT.xml (MJCF) [-o|--output MODEL.yaml|-] [--strict]\n\n"
     "Reads a URDF file (liburdfdom) and writes the model as YAML (docs/urdf.md): a body per link, its\n"
     "joint to its parent (revolute, continuous, prismatic, fixed, floating, planar), inertials, and box,\n"
     "cylinder, sphere and mesh visuals (STL, OBJ, COLLADA, PLY, glTF) with their colours. The root link\n"
     "is fixed to the world (--floating: free; a root link named 'world' is the world itself). Links without mass on fixed\n"
     "joints are merged into their parents (--merge-fixed: every link on a fixed joint); a link without\n"
     "mass that moves takes the links fixed to it, or is reported; --density RHO gives links without an\n"
     "<inertial> the mass of their shapes at RHO kg/m^3. An inertia that is not physical (a point mass,\n"
     "a CAD export breaking the triangle inequality) is repaired with a warning naming the link and the\n"
     "change: on a fixed joint the link is merged into its parent, elsewhere the nearest physical\n"
     "inertia replaces it; --strict refuses it instead. Meshes: package://NAME/... is looked\n"
     "for in each --package-path DIR (DIR/NAME/..., or DIR when it is named NAME), then in the URDF's\n"
     "directory and its parents; mesh paths are written relative to the output file's directory.\n"
     "What is not used (collisions, transmissions, gazebo tags, sensors, mimic, dynamics) is listed on\n"
     "stderr as warnings, with the file's line and column, as every error is.\n"
     "An MJCF file (root element <mujoco>) is compiled by MuJoCo's own compiler, with its defaults,\n"
     "classes and includes (docs/mjcf.md): hinge, slide, ball and free joints, two hinges through one\n"
     "point as a universal joint, a hinge and a slide on one axis as a cylindrical one; inertias; geoms\n"
     "(meshes and ellipsoids written as OBJ files into MODEL_meshes beside the output); motor and\n"
     "position actuators as drives; joint ranges as limits to show. Contacts, tendons, equality\n"
     "constraints, sites, sensors, the forces holding joints within their ranges and joint damping,\n"
     "armature and springs are left out, each kind named in a warning.\n"
     "Without --output, or with --output -, the YAML goes to stdout; a file is written atomically.\n"
     "Exit status: 0; 1 when the file cannot be imported; 2 on a usage error.\n"
     "\nexample: kinetree-cli import examples/arm7.urdf -o arm7.yaml\n",
     &kt::cli::cmdImport},
    {"export", "write a model as URDF",
     "usage: kinetree-cli export --urdf MODEL.yaml [-o|--output ROBOT.urdf|-]\n\n"
     "Writes the model as URDF (docs/urdf.md): a link per body with its inertial (computed from the\n"
     "shapes where the model says so) and visuals, a joint per body. Spherical, universal and\n"
     "cylindrical joints have no URDF form: the command names each one and writes nothing. What URDF\n"
     "cannot hold (gravity, drives, load ratings, initial state, applied wrenches, capsule and prism\n"
     "shapes) is left out and listed on stderr as warnings.\n"
     "Without --output, or with --output -, the URDF goes to stdout; a file is written atomically.\n"
     "Exit status: 0; 1 for an invalid model or a joint URDF cannot express; 2 on a usage error.\n"
     "\nexample: kinetree-cli export --urdf examples/double_pendulum.yaml -o double_pendulum.urdf\n",
     &kt::cli::cmdExport},
    {"sweep", "run a parameter sweep and report the worst joint loads",
     "usage: kinetree-cli sweep SPEC.yaml [-o|--output TABLE.csv] [--processes N] [--dask ADDRESS]\n"
     "                          [--batch-size K] [--max-cases N]\n\n"
     "Runs the cases a sweep file describes (docs/sweeps.md): the model, its fields to vary by YAML path\n"
     "(bodies[L16].inertial.mass: [1, 2, 4] for a grid; {low: 1, high: 4} with samples: N for a random\n"
     "sample), the run settings. Every case's peak joint loads, final state and energy drift, or why it\n"
     "failed, go into one table (CSV; Parquet for a .parquet name, with pyarrow); the worst case per\n"
     "joint and the load ratings reached are printed. The cases run on N local processes (default: every\n"
     "core) or, with --dask, on a Dask cluster (tcp://scheduler:8786). This command runs the Python\n"
     "module's sweep (python3 with numpy; Dask for --dask). The file, its parameters' paths, the run\n"
     "settings and the output are checked before the first case; more than --max-cases cases (default\n"
     "1,000,000) are refused. A table that cannot be written after the sweep is kept in the temporary\n"
     "folder.\n"
     "Exit status: 0; 1 when a case failed, the table could not be written or the file or model is\n"
     "invalid; 2 on a usage error; 3 when no case failed but a load rating was reached (as peaks).\n"
     "\nexample: kinetree-cli sweep examples/sweeps/pendulum_release.yaml --processes 2 -o pendulum.csv\n",
     &kt::cli::cmdSweep},
};
// clang-format on

const Command* findCommand(const std::string& name) {
  for (const Command& c : kCommands)
    if (name == c.name) return &c;
  return nullptr;
}

// "unknown command 'simulat' (did you mean 'simulate'?)" on stderr; exit status 2.
int unknownCommand(const std::string& name) {
  std::vector<std::string> names{"help"};
  for (const Command& c : kCommands) names.emplace_back(c.name);
  const std::string near = kt::closestMatch(name, names);
  std::fprintf(stderr, "kinetree-cli: unknown command '%s'%s; run 'kinetree-cli --help'\n",
               kt::escapeControls(name).c_str(), near.empty() ? "" : (" (did you mean '" + near + "'?)").c_str());
  return 2;
}

void printVersion() { std::printf("kinetree-cli %s\n", kt::kVersion); }

void printHelp(std::FILE* out) {
  std::fprintf(out,
               "kinetree-cli %s: tree-structured multibody models and simulation, headless\n\n"
               "usage: kinetree-cli COMMAND [OPTIONS...] [--] [FILES...]\n"
               "       kinetree-cli help COMMAND\n"
               "       kinetree-cli COMMAND --help          (its options and an example)\n"
               "       kinetree-cli -V | --version | -h | --help\n\ncommands:\n",
               kt::kVersion);
  for (const Command& c : kCommands) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fputs(
      "\nEvery MODEL.yaml may also be a URDF robot (ROBOT.urdf, or any file starting with '<') or an MJCF\n"
      "model (root element <mujoco>), read as import reads it (a URDF's package:// meshes looked for in\n"
      "each --package-path DIR).\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
#ifdef KINETREE_TEST_HOOKS
  // kinetree-cli-test only (never installed): lets tests perturb a solver in a child process
  if (const char* spec = std::getenv("KINETREE_TEST_PERTURB_SOLVER"))
    if (!kt::setSolverPerturbationForTesting(spec)) {
      std::fprintf(stderr, "kinetree-cli-test: KINETREE_TEST_PERTURB_SOLVER expects NAME:EPSILON, got '%s'\n", spec);
      return 2;
    }
#endif
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    printHelp(stderr);
    return 2;
  }
  const std::string& first = args[0];
  if (first == "--version" || first == "-V") {
    printVersion();
    return 0;
  }
  if (first == "--help" || first == "-h") {
    printHelp(stdout);
    return 0;
  }
  if (first == "help") {
    if (args.size() == 1) {
      printHelp(stdout);
      return 0;
    }
    if (const Command* c = findCommand(args[1])) {
      std::fputs(c->usage, stdout);
      return 0;
    }
    return unknownCommand(args[1]);
  }
  const Command* c = findCommand(first);
  if (!c) return unknownCommand(first);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const std::string& a : rest) {
    if (a == "--") break;  // after "--" every argument is a file name
    if (a == "--help" || a == "-h") {
      std::fputs(c->usage, stdout);
      return 0;
    }
    if (a == "--version" || a == "-V") {  // the same flag after any command
      printVersion();
      return 0;
    }
  }
  try {
    return c->run(rest);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetree-cli %s: %s\n", c->name, e.what());
    return 1;
  }
}
