// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli simulate, run as a process: header and rows, options, signal selection, the
// atomic output file, validation errors and a stopped run.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <charconv>
#include <clocale>
#include <cstdio>

#include "core/io/csv.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/results/signals.hpp"
#include "support/cli_runner.hpp"

using namespace kt;

namespace {

using Run = kt::test::CliRun;
Run cli(const QStringList& args) { return kt::test::runCli(args); }
using kt::test::example;

// The documented header of a model: every signal of its tree (docs/signals.md).
QStringList signalNames(const QString& modelPath) {
  const Model model = loadModelFromFile(modelPath.toStdString());
  const Tree tree = finalizeOrThrow(model);
  const SignalLayout layout(tree);
  QStringList out;
  for (const std::string& n : layout.names()) out << QString::fromStdString(n);
  return out;
}

QList<QStringList> parseCsv(const QString& text) {
  QList<QStringList> rows;
  for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) rows << line.split(',');
  return rows;
}

}  // namespace

class TestCliSimulate : public QObject {
  Q_OBJECT

 private slots:
  // Header = every signal name, one row per output step from t = 0 to the duration.
  void headerAndRows() {
    const Run r = cli({"simulate", example("pendulum.yaml"), "--duration", "0.5", "--step", "0.01"});
    QCOMPARE(r.code, 0);
    const QList<QStringList> rows = parseCsv(r.out);
    QCOMPARE(rows.size(), 1 + 51);
    QCOMPARE(rows[0], signalNames(example("pendulum.yaml")));
    QCOMPARE(rows[0].front(), QString("time"));
    for (int k = 1; k < rows.size(); ++k) {
      QCOMPARE(rows[k].size(), rows[0].size());
      QCOMPARE(rows[k][0].toDouble(), (k - 1) * 0.01);
    }
    // the energy columns: total = kinetic + potential, and rk4 keeps it nearly constant
    const int ek = rows[0].indexOf("energy.kinetic"), ep = rows[0].indexOf("energy.potential"),
              et = rows[0].indexOf("energy.total");
    QVERIFY(ek > 0 && ep > 0 && et > 0);
    const double e0 = rows[1][et].toDouble();
    QVERIFY(std::abs(rows.last()[et].toDouble() - e0) < 1e-6 * std::abs(e0));
    QVERIFY(rows.last()[ek].toDouble() > 0.1);
  }

  // Options override the simulation: block; --signals selects and orders columns (time first).
  void optionsAndSignals() {
    const Run r =
        cli({"simulate", example("space_robot.yaml"), "--solver", "poisson-ldl", "--integrator", "dopri5",
             "--tolerance", "1e-9", "--step", "0.05", "--duration", "0.2", "--signals", "momentum.*,attitude:*.yaw"});
    QCOMPARE(r.code, 0);
    const QList<QStringList> rows = parseCsv(r.out);
    QCOMPARE(rows.size(), 1 + 5);
    const QStringList expected = {"time",        "momentum.px", "momentum.py", "momentum.pz",
                                  "momentum.lx", "momentum.ly", "momentum.lz", "attitude:base.yaw"};
    QCOMPARE(rows[0], expected);
    for (int k = 1; k < rows.size(); ++k)
      for (int c = 1; c <= 6; ++c) QVERIFY(std::abs(rows[k][c].toDouble()) < 1e-9);
  }

  // --every K keeps the rows of every K-th output step and the last one; they are the rows of the
  // full run (the run still steps at H).
  void everyKthStep() {
    const QStringList run = {"simulate", example("pendulum.yaml"), "--duration", "0.5", "--step", "0.01"};
    const QList<QStringList> all = parseCsv(cli(run).out);
    QCOMPARE(all.size(), 1 + 51);
    const Run r = cli(run + QStringList{"--every", "7"});
    QCOMPARE(r.code, 0);
    const QList<QStringList> kept = parseCsv(r.out);
    QList<QStringList> expected = {all[0]};
    for (int k = 0; k <= 50; k += 7) expected << all[1 + k];  // t = 0, 0.07, ..., 0.49
    expected << all.last();                                   // and t = 0.5
    QCOMPARE(kept, expected);
    // a K that divides the run does not repeat the last row
    QCOMPARE(parseCsv(cli(run + QStringList{"--every", "25"}).out).size(), 1 + 3);
    QCOMPARE(parseCsv(cli(run + QStringList{"--every", "1000"}).out).size(), 1 + 2);
    for (const char* bad : {"0", "-2", "1.5", "x", ""}) {
      const Run e = cli(run + QStringList{"--every", bad});
      QCOMPARE(e.code, 2);
      QVERIFY2(e.err.contains("--every expects a positive integer"), qPrintable(e.err));
    }
    QVERIFY(cli({"help", "simulate"}).out.contains("--every K"));
  }

  // A run that writes more than a gigabyte says so (and how to write less) before it starts.
  void largeOutputAnnounced() {
    QTemporaryDir dir;
    QProcess p;
    p.start(QStringLiteral(KINETREE_CLI), {"simulate", example("space_robot.yaml"), "--step", "1e-4", "--duration",
                                           "100", "-o", dir.filePath("big.csv")});
    QVERIFY(p.waitForStarted());
    QByteArray err;
    while (!err.contains('\n') && p.state() == QProcess::Running) {
      p.waitForReadyRead(1000);
      err += p.readAllStandardError();
    }
    p.kill();
    p.waitForFinished();
    QVERIFY2(
        err.contains("this run writes about 9.1 GB (396 columns x 1,000,001 rows); --signals and --every write less"),
        err.constData());
    const Run small = cli({"simulate", example("space_robot.yaml"), "--duration", "0.1"});
    QVERIFY(!small.err.contains("GB"));
  }

  // --output writes the same CSV atomically: no temporary file is left behind.
  void outputFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.csv");
    const Run toFile = cli({"simulate", example("pendulum.yaml"), "--duration", "0.05", "--output", path});
    QCOMPARE(toFile.code, 0);
    QVERIFY(toFile.out.isEmpty());
    const Run toStdout = cli({"simulate", example("pendulum.yaml"), "--duration", "0.05"});
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), toStdout.out);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"run.csv"});
  }

  // A corrupted model: exit 1 with the validator's file:line:col message, and no output file.
  void corruptedModel() {
    QTemporaryDir dir;
    QFile in(example("pendulum.yaml"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    QVERIFY(text.contains("axis: [0, 1, 0]"));
    text.replace("axis: [0, 1, 0]", "axis: [0, 0, 0]");
    const QString path = dir.filePath("broken.yaml");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    const Run r = cli({"simulate", path, "--output", dir.filePath("run.csv")});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QRegularExpression(R"(broken\.yaml:\d+:\d+: error: bodies\[1\]\.joint\.axis)").match(r.err).hasMatch(),
             qPrintable(r.err));
    // the same message as validate
    const Run v = cli({"validate", path});
    QCOMPARE(v.code, 1);
    QCOMPARE(r.err, v.err);
    QVERIFY(!QFile::exists(dir.filePath("run.csv")));
  }

  // A motion table a run cannot read (a misspelt column) fails validate as it fails simulate, with
  // the same message: the model file alone is valid, the run is not.
  void unreadableTableFailsValidate() {
    QTemporaryDir dir;
    QFile in(example("pendulum.yaml"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    QVERIFY(text.contains("      q0: [0.8]\n"));
    text.replace("      q0: [0.8]\n", "      motion: {type: table, file: swing.csv}\n");
    const QString path = dir.filePath("swinging.yaml");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    QFile csv(dir.filePath("swing.csv"));
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("time,q:hinge1[0]\n0,0\n1,0.2\n2,0\n");
    csv.close();
    const Run r = cli({"simulate", path, "--duration", "1", "--output", dir.filePath("run.csv")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("swing.csv:1:6: error: no column 'q:hinge[0]'") &&
                 r.err.contains("was the joint 'hinge1' renamed?"),
             qPrintable(r.err));
    const Run v = cli({"validate", path});
    QCOMPARE(v.code, 1);
    QVERIFY(v.out.isEmpty());
    QVERIFY2(v.err.contains("swing.csv:1:6: error: no column 'q:hinge[0]'"), qPrintable(v.err));
    csv.remove();
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("time,q:hinge[0]\n0,0\n1,0.2\n2,0\n");
    csv.close();
    QCOMPARE(cli({"validate", path}).code, 0);
  }

  // A run that diverges stops with time, solver and the first bad quantity (exit 1); the rows
  // up to the last good state are written.
  void divergenceStops() {
    QTemporaryDir dir;
    Model m;
    m.gravity = Vec3::Zero();
    BodySpec b;
    b.name = "cart";
    b.joint.name = "slide";
    b.joint.type = JointType::Prismatic;
    b.joint.axis = Vec3::UnitX();
    b.joint.q0 = {0.1};
    b.inertial.mass = 1.0;
    b.inertial.inertia = Mat3::Identity() * 0.01;
    b.joint.drive.type = DriveType::SpringDamper;
    b.joint.drive.stiffness = {1e6};
    b.joint.drive.damping = {0.0};
    b.joint.drive.restPosition = {0.0};
    m.bodies.push_back(b);
    m.simulation.integrator = "euler";
    m.simulation.step = 0.01;
    m.simulation.duration = 100;
    const QString path = dir.filePath("stiff.yaml");
    saveModelToFile(m, path.toStdString());
    const Run r = cli({"simulate", path, "--signals", "q:*"});
    QCOMPARE(r.code, 1);
    QVERIFY2(QRegularExpression(R"(stiff\.yaml: simulation stopped: t = [0-9.e+-]+ s, solver aba: \S+ is (NaN|Inf))")
                 .match(r.err)
                 .hasMatch(),
             qPrintable(r.err));
    const QList<QStringList> rows = parseCsv(r.out);
    QVERIFY(rows.size() > 10 && rows.size() < 10001);
    for (const QStringList& row : rows.mid(1)) QVERIFY(std::isfinite(row[1].toDouble()));
  }

  void usageErrors() {
    QCOMPARE(cli({"simulate"}).code, 2);
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--solver", "nope"}).code, 2);
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--integrator", "rk45"}).code, 2);
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--step", "-1"}).code, 2);
    const Run r = cli({"simulate", example("pendulum.yaml"), "--signals", "torque:*"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("torque:*"));
    QVERIFY(cli({"help", "simulate"}).out.contains("--signals"));
  }

  // Numbers are %.17g whatever the locale, and round-trip exactly.
  void csvNumbers() {
    std::setlocale(LC_ALL, "de_DE.UTF-8");  // a comma-decimal locale, when installed
    const double values[] = {0.1, -1.0 / 3.0, 1e-300, 6.02214076e23, 0.0, -0.0, 123456789.0, 5e-324};
    std::string row;
    appendCsvRow(row, values);
    std::setlocale(LC_ALL, "C");
    std::string expected;
    for (double x : values) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", x);
      expected += (expected.empty() ? "" : ",") + std::string(buf);
    }
    QCOMPARE(row, expected + "\n");
    std::size_t start = 0;
    for (double x : values) {
      const std::size_t end = row.find_first_of(",\n", start);
      double back = 1.0;
      std::from_chars(row.data() + start, row.data() + end, back);
      QCOMPARE(back, x);
      start = end + 1;
    }
    std::string header;
    appendCsvHeader(header, {"time", "a,b", "say \"hi\""});
    QCOMPARE(header, std::string("time,\"a,b\",\"say \"\"hi\"\"\"\n"));
  }

  // An AtomicFile that is not committed leaves neither the target nor a temporary file.
  void atomicFileAbandoned() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("out.csv").toStdString();
    {
      AtomicFile f(path);
      f.write("half");
    }
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    {
      AtomicFile f(path);
      f.write("whole\n");
      f.commit();
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"out.csv"});
  }
};

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "test_cli_simulate.moc"
