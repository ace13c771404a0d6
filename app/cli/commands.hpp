// SPDX-License-Identifier: BSD-3-Clause
// Subcommands of kinetree-cli. Each takes its arguments (after the command name) and returns the
// process exit code: 0 success, 1 a model or input problem, 2 a usage error.
// To add a command: declare it here, define it in its own cmd_<name>.cpp, add one row to the
// table in main.cpp.
#pragma once

#include <string>
#include <vector>

namespace kt::cli {

/// validate MODEL...: "ok" per valid file on stdout, diagnostics on stderr; 1 if any is invalid.
int cmdValidate(const std::vector<std::string>& args);
/// info MODEL: tree drawing, body/joint table, nq/nv, total mass.
int cmdInfo(const std::vector<std::string>& args);
/// simulate MODEL [--solver S] [--integrator I] [--step H] [--tolerance TOL] [--duration T] [--output F] [--signals P]
int cmdSimulate(const std::vector<std::string>& args);
/// peaks MODEL [run options] [--csv] [--output F]: the peak load of every joint over a run.
int cmdPeaks(const std::vector<std::string>& args);
/// spectrum MODEL --signals P [run options] [--segment N] [--detrend D] [-o F]: Welch spectra as CSV.
int cmdSpectrum(const std::vector<std::string>& args);
/// fatigue MODEL --signals P [run options] [--wohler M] [--neq N] [--csv] [-o F] [--cycles F] [--histogram F]:
/// rainflow cycles and damage-equivalent loads.
int cmdFatigue(const std::vector<std::string>& args);
/// compare MODEL [--solvers a,b,...] [--duration T] [--step H] [--integrator I] [--tolerance TOL]
int cmdCompare(const std::vector<std::string>& args);
/// bench [--model FILE | --chain N | --cardan-chain N | --binary-tree D] [--solvers ...] [--repeat K] [--json]
/// [--simulate]: the cost of each solver call, and of a whole run split into its parts (bench_run.hpp)
int cmdBench(const std::vector<std::string>& args);
/// import ROBOT.urdf [-o MODEL.yaml] [--floating] [--merge-fixed] [--package-path DIR]...: URDF to a model.
int cmdImport(const std::vector<std::string>& args);
/// export --urdf MODEL.yaml [-o ROBOT.urdf]: a model as URDF.
int cmdExport(const std::vector<std::string>& args);
/// sweep SPEC.yaml [--processes N] [--dask ADDRESS] [-o TABLE]: a parameter sweep (Python module).
int cmdSweep(const std::vector<std::string>& args);

}  // namespace kt::cli
