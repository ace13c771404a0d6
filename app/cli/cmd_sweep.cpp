// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli sweep: the parameter sweeps of the Python module (python/kinetree/sweep.py,
// docs/sweeps.md), which run on local processes or a Dask cluster. This command runs them with
// the python3 the module was built for, as `python3 -m kinetree sweep ARGS...` would.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"

namespace kt::cli {

int cmdSweep(const std::vector<std::string>& args) {
#ifndef KINETREE_PYTHON
  (void)args;
  std::fputs(
      "kinetree-cli sweep: this build has no Python module (it needs python3-dev and pybind11-dev, "
      "installer/debian-packages.txt)\n",
      stderr);
  return 1;
#else
  // python3 -I (isolated: no PYTHON* variables, no user site) runs the module of this build tree
  // (bin/../python) or the installed one (Debian's dist-packages): nothing in the environment
  // chooses which code runs the cases
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::filesystem::path buildTree = exe.parent_path().parent_path() / "python";
  std::string prefix;
  if (!ec && std::filesystem::is_directory(buildTree / "kinetree", ec)) {
    std::string quoted;
    for (char c : buildTree.string()) quoted += c == '\\' || c == '\'' ? std::string("\\") + c : std::string(1, c);
    prefix = "sys.path.insert(0, '" + quoted + "'); ";
  }
  const std::string program = "import sys; " + prefix +
                              "from kinetree.__main__ import main; sys.argv[0] = 'kinetree-cli sweep'; "
                              "sys.exit(main(['sweep'] + sys.argv[1:]))";
  std::vector<std::string> argv = {KINETREE_PYTHON, "-I", "-c", program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(cargv[0], cargv.data());
  std::fprintf(stderr, "kinetree-cli sweep: cannot run %s: %s\n", KINETREE_PYTHON, std::strerror(errno));
  return 1;
#endif
}

}  // namespace kt::cli
