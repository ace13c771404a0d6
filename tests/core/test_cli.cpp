// kinetree-cli validate / info / --version / --help: exit codes and messages, run as a process.
#include <QProcess>
#include <QtTest>

#include <cstdio>
#include <filesystem>

#include "core/io/model_yaml.hpp"
#include "core/model/tree.hpp"
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

  void infoOnInvalidModel() {
    const Run r = cli({"info", malformed("zero_axis.yaml")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("bodies[0].joint.axis: must not be zero"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
