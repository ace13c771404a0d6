// SPDX-License-Identifier: BSD-3-Clause
// Runs kinetree-cli (the build's own, KINETREE_CLI) for the command-line tests.
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace kt::test {

struct CliRun {
  int code = -1;  ///< exit code; −1 on a time-out, −2 on a crash
  QString out, err;
};

/// Runs kinetree-cli with `args` (and `env`, the current environment by default), 60 s at most.
CliRun runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

/// Absolute path of an example model, e.g. example("pendulum.yaml").
QString example(const char* name);

}  // namespace kt::test
