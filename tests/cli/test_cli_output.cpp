// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli simulate --output, run as a process: where the CSV goes and what happens to what
// was there. A regular file or a new path is written atomically (its mode kept, or 0666 less the
// umask); a FIFO, a device or a symbolic link to one is written in place and stays what it was;
// "-" is standard output; -o is --output; an interruption leaves no temporary file behind; a
// full disk keeps the old file and says so; what a kill -9 leaves is named for what it is and
// removed by the next run.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/stat.h>
#include <unistd.h>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"

using namespace kt;

namespace {

using Run = kt::test::CliRun;
Run cli(const QStringList& args) { return kt::test::runCli(args); }
using kt::test::example;

const QStringList kShortRun = {"--duration", "0.05"};

using kt::test::readAll;

// Files in `dir` named as temporary files (core/io/atomic_file.hpp): left-over ones.
QStringList temporaryFiles(const QString& dir) {
  QStringList out;
  for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::System | QDir::Hidden))
    if (name.contains("kinetree-partial-")) out << name;
  return out;
}

// Starts a long `simulate` of a 40-link chain into `out` and returns once its temporary file
// holds its first bytes: the names of the temporaries then, empty if it never started writing.
QStringList startWriting(QProcess& p, const QString& dir, const QString& model, const QString& out) {
  saveModelToFile(makeChain(40), model.toStdString());
  p.start(QStringLiteral(KINETREE_CLI), {"simulate", model, "--duration", "5000", "--step", "0.001", "--output", out});
  if (!p.waitForStarted()) return {};
  QElapsedTimer timer;
  timer.start();
  QStringList writing;
  while (writing.isEmpty() && timer.elapsed() < 60000 && p.state() == QProcess::Running) {
    for (const QString& name : temporaryFiles(dir))
      if (QFileInfo(QDir(dir).filePath(name)).size() > 0) writing << name;
    if (writing.isEmpty()) QTest::qWait(20);
  }
  return writing;
}

mode_t modeOf(const QString& path) {
  struct stat st {};
  if (::lstat(QFile::encodeName(path).constData(), &st) != 0) return 0;
  return st.st_mode;
}

// kinetree-cli run by /bin/sh with `umask` set first.
int runWithUmask(const char* umask, const QStringList& args) {
  QProcess p;
  QStringList shArgs = {"-c", QStringLiteral("umask %1; exec \"$0\" \"$@\"").arg(umask), QStringLiteral(KINETREE_CLI)};
  p.start("/bin/sh", shArgs + args);
  if (!p.waitForFinished(60000)) return -1;
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

}  // namespace

class TestCliOutput : public QObject {
  Q_OBJECT

 private slots:
  // -o is --output (it used to be taken for a second model file), "-" is standard output.
  void shortOptionAndDash() {
    QTemporaryDir dir;
    const Run toStdout = cli(QStringList{"simulate", example("pendulum.yaml")} + kShortRun);
    QCOMPARE(toStdout.code, 0);
    QVERIFY(toStdout.out.size() > 100);
    const QString path = dir.filePath("o.csv");
    const Run shortOption = cli(QStringList{"simulate", example("pendulum.yaml"), "-o", path} + kShortRun);
    QVERIFY2(shortOption.code == 0, qPrintable(shortOption.err));
    QCOMPARE(QString::fromUtf8(readAll(path)), toStdout.out);
    const Run dash = cli(QStringList{"simulate", example("pendulum.yaml"), "--output", "-"} + kShortRun);
    QCOMPARE(dash.code, 0);
    QCOMPARE(dash.out, toStdout.out);
    QVERIFY(!QFile::exists("-"));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
  }

  // A FIFO is written in place, read by its reader, and is still a FIFO afterwards.
  void fifoWithReader() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath("pipe.csv");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QProcess reader;
    reader.start("cat", {fifo});
    QVERIFY(reader.waitForStarted());
    const Run r = cli(QStringList{"simulate", example("pendulum.yaml"), "--output", fifo} + kShortRun);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(reader.waitForFinished(30000));
    const Run toStdout = cli(QStringList{"simulate", example("pendulum.yaml")} + kShortRun);
    QCOMPARE(QString::fromUtf8(reader.readAllStandardOutput()), toStdout.out);
    QVERIFY(S_ISFIFO(modeOf(fifo)));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
  }

  // A symbolic link to a character device (/dev/null) stays a link to it; a link to a regular
  // file stays a link and its target gets the new content.
  void symbolicLinks() {
    QTemporaryDir dir;
    const QString toNull = dir.filePath("null.csv");
    QVERIFY(QFile::link("/dev/null", toNull));
    const Run r = cli(QStringList{"simulate", example("pendulum.yaml"), "--output", toNull} + kShortRun);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(S_ISLNK(modeOf(toNull)));
    QCOMPARE(QFileInfo(toNull).symLinkTarget(), QStringLiteral("/dev/null"));
    QVERIFY(S_ISCHR(modeOf("/dev/null")));

    const QString target = dir.filePath("target.csv"), link = dir.filePath("link.csv");
    {
      QFile f(target);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("old\n");
    }
    QVERIFY(QFile::link("target.csv", link));  // relative, as ln -s writes it
    const Run viaLink = cli(QStringList{"simulate", example("pendulum.yaml"), "-o", link} + kShortRun);
    QVERIFY2(viaLink.code == 0, qPrintable(viaLink.err));
    QVERIFY(S_ISLNK(modeOf(link)));
    QVERIFY(readAll(target).startsWith("time,"));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
  }

  // A link to /dev/stdout (itself a link to the process's standard output, here a pipe) is
  // written through, not replaced by a regular file.
  void linkToDevStdout() {
    QTemporaryDir dir;
    const QString link = dir.filePath("stdout.csv");
    QVERIFY(QFile::link("/dev/stdout", link));
    const Run r = cli(QStringList{"simulate", example("pendulum.yaml"), "--output", link} + kShortRun);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Run toStdout = cli(QStringList{"simulate", example("pendulum.yaml")} + kShortRun);
    QCOMPARE(r.out, toStdout.out);
    QVERIFY(S_ISLNK(modeOf(link)));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
  }

  // A process substitution (bash's >(...), a /dev/fd/N pipe) is written through.
  void processSubstitution() {
    if (!QFile::exists("/bin/bash")) QSKIP("no /bin/bash");
    QTemporaryDir dir;
    const QString copy = dir.filePath("copy.csv");
    QProcess p;
    p.start("/bin/bash", {"-c",
                          "\"$0\" simulate \"$1\" --duration 0.05 --output >(cat > \"$2\"); status=$?; wait; "
                          "exit $status",
                          QStringLiteral(KINETREE_CLI), example("pendulum.yaml"), copy});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QTRY_VERIFY_WITH_TIMEOUT(readAll(copy).endsWith('\n') && readAll(copy).count('\n') > 10, 10000);
    const Run toStdout = cli(QStringList{"simulate", example("pendulum.yaml")} + kShortRun);
    QCOMPARE(QString::fromUtf8(readAll(copy)), toStdout.out);
  }

  // A new file gets 0666 less the umask; an existing file keeps its mode.
  void fileModes() {
    QTemporaryDir dir;
    const QString fresh = dir.filePath("new.csv");
    QCOMPARE(runWithUmask("027", QStringList{"simulate", example("pendulum.yaml"), "-o", fresh} + kShortRun), 0);
    QCOMPARE(modeOf(fresh) & 07777, mode_t(0640));
    QCOMPARE(
        runWithUmask("002", QStringList{"simulate", example("pendulum.yaml"), "-o", dir.filePath("g.csv")} + kShortRun),
        0);
    QCOMPARE(modeOf(dir.filePath("g.csv")) & 07777, mode_t(0664));

    const QString existing = dir.filePath("kept.csv");
    {
      QFile f(existing);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("old\n");
    }
    QCOMPARE(::chmod(QFile::encodeName(existing).constData(), 0600), 0);
    QCOMPARE(runWithUmask("022", QStringList{"simulate", example("pendulum.yaml"), "-o", existing} + kShortRun), 0);
    QCOMPARE(modeOf(existing) & 07777, mode_t(0600));
    QVERIFY(readAll(existing).startsWith("time,"));
  }

  // SIGTERM, SIGINT or SIGHUP during a long run: the temporary file is removed, neither it nor
  // the target is left, the exit status is 128 + the signal, and a message says why.
  void interrupted_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("status");
    QTest::newRow("SIGTERM") << int(SIGTERM) << 143;
    QTest::newRow("SIGINT") << int(SIGINT) << 130;
    QTest::newRow("SIGHUP") << int(SIGHUP) << 129;
  }
  void interrupted() {
    QFETCH(int, signal);
    QFETCH(int, status);
    QTemporaryDir dir;
    const QString model = dir.filePath("chain.yaml");
    const QString out = dir.filePath("run.csv");
    QProcess p;
    const bool writing = !startWriting(p, dir.path(), model, out).isEmpty();
    QVERIFY2(writing, p.readAllStandardError().constData());
    QCOMPARE(::kill(static_cast<pid_t>(p.processId()), signal), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), status);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains("no output file written"), qPrintable(err));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
    QVERIFY(!QFile::exists(out));
  }

  // kill -9 while writing: no handler runs, so the temporary file stays, named after the target
  // and the process ("run.csv.kinetree-partial-<pid>-XXXXXX"); the next run into the folder
  // removes it.
  void killedRunIsCleanedUpByTheNext() {
    QTemporaryDir dir;
    const QString model = dir.filePath("chain.yaml");
    const QString out = dir.filePath("run.csv");
    QProcess p;
    const QStringList left = startWriting(p, dir.path(), model, out);
    QCOMPARE(left.size(), 1);
    const qint64 pid = p.processId();
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
    QVERIFY2(QRegularExpression(QStringLiteral("^run\\.csv\\.kinetree-partial-%1-[A-Za-z0-9]{6}$").arg(pid))
                 .match(left.front())
                 .hasMatch(),
             qPrintable(left.front()));
    QCOMPARE(temporaryFiles(dir.path()), left);
    const Run next = cli(QStringList{"simulate", model, "-o", dir.filePath("next.csv")} + kShortRun);
    QVERIFY2(next.code == 0, qPrintable(next.err));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
    QVERIFY(!QFile::exists(out));
  }

  // A full disk (injected through KINETREE_FAIL_WRITES: ENOSPC after 1000 bytes) fails every
  // command that writes a file with status 1 and the reason, and the old file keeps its bytes.
  void fullDiskKeepsTheOldFile_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("name");
    QTest::newRow("simulate") << QStringList{"simulate", example("pendulum.yaml"), "--duration", "1", "-o"}
                              << "run.csv";
    QTest::newRow("peaks") << QStringList{"peaks", example("pendulum.yaml"), "--duration", "1", "--csv", "-o"}
                           << "peaks.csv";
    QTest::newRow("export --urdf") << QStringList{"export", "--urdf", example("pendulum.yaml"), "-o"} << "robot.urdf";
  }
  void fullDiskKeepsTheOldFile() {
    QFETCH(QStringList, args);
    QFETCH(QString, name);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    {
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old contents\n");
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("KINETREE_FAIL_WRITES", "1:10");
    const Run r = kt::test::runCli(args + QStringList{path}, env);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("No space left on device") && r.err.contains(path), qPrintable(r.err));
    QCOMPARE(readAll(path), QByteArray("old contents\n"));
    QCOMPARE(temporaryFiles(dir.path()), QStringList());
    const Run ok = cli(args + QStringList{path});
    QVERIFY2(ok.code == 0, qPrintable(ok.err));
    QVERIFY(readAll(path) != QByteArray("old contents\n"));
  }
};

QTEST_GUILESS_MAIN(TestCliOutput)
#include "test_cli_output.moc"
