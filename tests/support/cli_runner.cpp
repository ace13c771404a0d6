// SPDX-License-Identifier: BSD-3-Clause
#include "cli_runner.hpp"

#include <QProcess>

namespace kt::test {

CliRun runCli(const QStringList& args, const QProcessEnvironment& env) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(KINETREE_CLI), args);
  CliRun r;
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

QString example(const char* name) { return QStringLiteral(KINETREE_SOURCE_DIR "/examples/") + name; }

}  // namespace kt::test
