// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli validate / info / --version / --help: exit codes and messages, run as a process.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "support/cli_runner.hpp"

namespace {

using Run = kt::test::CliRun;
Run cli(const QStringList& args) { return kt::test::runCli(args); }
using kt::test::example;
QString malformed(const char* name) { return QStringLiteral(KINETREE_TEST_DATA "/malformed/") + name; }

QStringList allExamples() {
  QStringList out;
  for (const auto& e : std::filesystem::directory_iterator(KINETREE_SOURCE_DIR "/examples"))
    if (e.path().extension() == ".yaml") out << QString::fromStdString(e.path().string());
  out.sort();
  return out;
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private slots:
  void version() {
    const Run r = cli({"--version"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("kinetree-cli "));
    QVERIFY(QRegularExpression(R"(^kinetree-cli \d+\.\d+\.\d+\n$)").match(r.out).hasMatch());
  }

  void help() {
    const Run r = cli({"--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("validate"));
    QVERIFY(r.out.contains("info"));
    const Run h = cli({"help", "validate"});
    QCOMPARE(h.code, 0);
    QVERIFY(h.out.contains("usage: kinetree-cli validate"));
    QCOMPARE(cli({"validate", "--help"}).code, 0);
  }

  void usageErrors() {
    const Run none = cli({});
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.contains("usage"));
    const Run unknown = cli({"frobnicate"});
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.contains("unknown command 'frobnicate'"));
    QCOMPARE(cli({"help", "frobnicate"}).code, 2);
    QCOMPARE(cli({"validate"}).code, 2);
    QCOMPARE(cli({"info"}).code, 2);
  }

  void validateExamples() {
    const QStringList files = allExamples();
    QVERIFY(files.size() >= 5);
    const Run r = cli(QStringList{"validate"} + files);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.err.isEmpty());
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), files.size());
    for (int i = 0; i < files.size(); ++i) QCOMPARE(lines[i], files[i] + ": ok");
  }

  void validateReportsErrors() {
    const QString bad = malformed("mass_negative.yaml");
    const Run r = cli({"validate", bad});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err, bad + ":11:13: error: bodies[0].inertial.mass: must be > 0, got -1\n");
  }

  void validateMixed() {
    const QString good = example("pendulum.yaml"), bad = malformed("cycle_two.yaml");
    const Run r = cli({"validate", good, bad, "/nonexistent/model.yaml"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.out, good + ": ok\n");
    QVERIFY(r.err.contains(bad + ":"));
    QVERIFY(r.err.contains("form a cycle"));
    QVERIFY(r.err.contains("/nonexistent/model.yaml: error: no such file"));
  }

  void info() {
    const QString path = example("space_robot.yaml");
    const kt::Tree tree = kt::finalizeOrThrow(kt::loadModelFromFile(path.toStdString()));
    const Run r = cli({"info", path});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("model: space_robot"));
    QVERIFY(r.out.contains(QString("nq: %1\n").arg(tree.nq)));
    QVERIFY(r.out.contains(QString("nv: %1 ").arg(tree.nv)));
    char mass[64];
    std::snprintf(mass, sizeof mass, "total mass: %.6g kg", tree.totalMass());
    QVERIFY(r.out.contains(mass));
    QVERIFY(r.out.contains("world\n"));
    QVERIFY(r.out.contains("└── base  (free 'base_joint')"));
    for (const std::string& name : tree.bodyNames) QVERIFY(r.out.contains(QString::fromStdString(name)));
    // One table row per body: body, parent, joint, type, nq, nv, mass.
    QVERIFY(QRegularExpression(R"(\nL16 +L15 +J16 +revolute +1 +1 +3\n)").match(r.out).hasMatch());
  }

  // A model that loads with a warning (a joint started in degrees): every command that reads it
  // prints the warning on stderr, keeps its exit status and leaves stdout to its own output.
  void warningsOnEveryCommand() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("degrees.yaml");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: degrees\nbodies:\n  - name: a\n    parent: world\n"
        "    joint: {type: revolute, q0: [90], limits: [{lower: -2, upper: 2}]}\n"
        "    inertial: {mass: 1, com: [0, 0, -0.5], inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
        "simulation: {duration: 0.01, step: 0.001}\n");
    file.close();
    const QString warning = path + ":6:34: warning: bodies[0].joint.q0[0]: the joint starts at 90";
    const QString csv = dir.filePath("run.csv");
    const QList<QStringList> commands = {{"validate", path},
                                         {"info", path},
                                         {"simulate", path, "--output", csv},
                                         {"simulate", path, "--output", "-"},
                                         {"compare", path, "--solvers", "aba,crba"},
                                         {"bench", "--model", path, "--solvers", "aba", "--repeat", "1"}};
    for (const QStringList& args : commands) {
      const Run r = cli(args);
      QVERIFY2(r.code == 0, qPrintable(args.join(' ') + "\n" + r.err));
      QVERIFY2(r.err.contains(warning), qPrintable(args.join(' ') + ": stderr\n" + r.err));
      QVERIFY2(r.err.count("warning:") == 1, qPrintable(args.join(' ') + ": stderr\n" + r.err));
      QVERIFY2(!r.out.contains("warning"), qPrintable(args.join(' ') + ": stdout\n" + r.out.left(2000)));
    }
    // the CSV went to the file, and "-" writes it to stdout alone
    QVERIFY(QFileInfo(csv).size() > 0);
    QVERIFY(cli({"simulate", path, "--output", "-"}).out.startsWith("time,"));
  }

  // info prints names from the file with their control characters escaped as diagnostics do:
  // an escape sequence in the model name, the description or a body name cannot recolour the
  // terminal.
  void infoEscapesNames() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("escapes.yaml");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "kinetree: 1\nname: \"red\\e[31mmodel\\x9b\"\ndescription: \"title\\e]0;owned\\a\"\nbodies:\n"
        "  - name: a\n    parent: world\n    joint: {type: revolute}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n");
    file.close();
    const Run r = cli({"info", path});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("model: red\\x1B[31mmodel\\x9B\n"), qPrintable(r.out));
    QVERIFY2(r.out.contains("description: title\\x1B]0;owned\\x07\n"), qPrintable(r.out));
    QVERIFY(!r.out.contains(QChar(0x1b)));
    QVERIFY(!r.out.contains(QChar(0x07)));
    QVERIFY(!r.out.contains(QChar(0x9b)));
  }

  void infoOnInvalidModel() {
    const Run r = cli({"info", malformed("zero_axis.yaml")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("bodies[0].joint.axis: must not be zero"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
