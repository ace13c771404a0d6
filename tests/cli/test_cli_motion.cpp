// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli simulate, peaks and compare with --motion FILE.csv (docs/motion.md): a run's own
// export replayed as a prescribed motion gives back its joint histories and the efforts that
// make them; every bad file is refused before anything runs, with the file, line and column.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "support/cli_runner.hpp"

namespace {

using Run = kt::test::CliRun;
Run cli(const QStringList& args) { return kt::test::runCli(args); }
using kt::test::example;

QList<QStringList> parseCsv(const QString& text) {
  QList<QStringList> rows;
  for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) rows << line.split(',');
  return rows;
}

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text);
  return path;
}

}  // namespace

class TestCliMotion : public QObject {
  Q_OBJECT

 private slots:
  // The pendulum's free swing, exported and replayed as a motion: the same q, and the effort that
  // keeps to it is what gravity already gives, zero (to the spline's accuracy between samples).
  void replayedRunNeedsNoEffort() {
    QTemporaryDir dir;
    const QString swing = dir.filePath("swing.csv");
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--duration", "2", "--step", "0.001", "--signals", "q:*", "-o",
                  swing})
                 .code,
             0);
    const Run r = cli({"simulate", example("pendulum.yaml"), "--motion", swing, "--duration", "2", "--step", "0.001",
                       "--signals", "q:*,tau:*,power:*"});
    QCOMPARE(r.code, 0);
    const QList<QStringList> rows = parseCsv(r.out);
    QCOMPARE(rows[0], (QStringList{"time", "q:hinge[0]", "tau:hinge[0]", "power:hinge"}));
    QCOMPARE(rows.size(), 1 + 2001);
    double largest = 0.0;
    for (int k = 1; k < rows.size(); ++k) largest = std::max(largest, std::abs(rows[k][2].toDouble()));
    // the pendulum's gravity moment is about 75 N·m at its 0.8 rad swing
    QVERIFY2(largest < 1e-3, qPrintable(QString::number(largest)));
    // peaks and compare take the same option
    const Run peaks = cli({"peaks", example("pendulum.yaml"), "--motion", swing, "--duration", "2", "--step", "0.001"});
    QCOMPARE(peaks.code, 0);
    QVERIFY(peaks.out.contains("|τ|"));
    const Run compare = cli({"compare", example("pendulum.yaml"), "--motion", swing, "--duration", "0.5", "--step",
                             "0.001", "--solvers", "aba,crba,cfa-dense,poisson-ldl"});
    QCOMPARE(compare.code, 0);
    QVERIFY2(compare.out.contains("poisson-ldl"), qPrintable(compare.out));
  }

  // Degrees as Export Results writes them; a low-pass for measured data.
  void degreesAndCutoff() {
    QTemporaryDir dir;
    QByteArray text = "time,q:hinge[0] (deg)\n";
    for (int k = 0; k <= 100; ++k)
      text += QByteArray::number(0.01 * k) + "," + QByteArray::number(30.0 * std::sin(0.05 * k), 'g', 17) + "\n";
    const QString file = write(dir, "deg.csv", text);
    const Run r = cli({"simulate", example("pendulum.yaml"), "--motion", file, "--duration", "1", "--step", "0.01",
                       "--signals", "q:*"});
    QCOMPARE(r.code, 0);
    const QList<QStringList> rows = parseCsv(r.out);
    QVERIFY(std::abs(rows.last()[1].toDouble() - 30.0 * std::sin(5.0) * M_PI / 180.0) < 1e-12);
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--motion", file, "--cutoff", "5", "--duration", "1", "-o",
                  dir.filePath("out.csv")})
                 .code,
             0);
  }

  // Each bad input: its message at its file, line and column, and nothing written.
  void badInput_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QStringList none;
    QTest::newRow("no joint") << QByteArray("time,q:hinge[0],q:hnge2[0]\n0,0,0\n1,1,1\n") << none << 1
                              << "m.csv:1:17: error: the column 'q:hnge2[0]' names no joint of the model";
    QTest::newRow("nan") << QByteArray("time,q:hinge[0]\n0,0\n0.5,nan\n1,1\n") << none << 1
                         << "m.csv:3:5: error: expected a finite number in column 'q:hinge[0]', got 'nan'";
    QTest::newRow("times") << QByteArray("time,q:hinge[0]\n0,0\n1,1\n0.5,0\n") << none << 1
                           << "m.csv:4:1: error: the times must increase: t = 0.5 s follows t = 1 s";
    QTest::newRow("few") << QByteArray("time,q:hinge[0]\n0,0\n") << none << 1
                         << "m.csv:2:1: error: too few samples: 1 row(s), a motion needs at least 2";
    QTest::newRow("coordinate") << QByteArray("time,q:hinge[3]\n0,0\n1,1\n") << none << 1
                                << "m.csv:1:6: error: the joint 'hinge' has 1 coordinate";
    QTest::newRow("fixed") << QByteArray("time,q:support[0]\n0,0\n1,1\n") << none << 1
                           << "m.csv:1:6: error: the joint 'support' is fixed and cannot follow a prescribed motion";
    QTest::newRow("nothing") << QByteArray("time,qd:hinge[0]\n0,0\n1,1\n") << none << 1
                             << "m.csv:1:1: error: no column q:<joint>[k]: the file prescribes no joint";
    QTest::newRow("short") << QByteArray("time,q:hinge[0]\n0,0\n0.5,1\n") << QStringList{"--duration", "1"} << 2
                           << "kinetree-cli simulate: --duration 1 s runs past the data";
    QTest::newRow("late") << QByteArray("time,q:hinge[0]\n0.2,0\n1,1\n") << none << 1
                          << "m.csv:2:1: error: the samples start at t = 0.2 s, but a run starts at t = 0";
    QTest::newRow("cutoff") << QByteArray("time,q:hinge[0]\n0,0\n1,1\n") << QStringList{"--cutoff", "5"} << 1
                            << "filtering needs at least 10 samples, the table has 2";
    QTest::newRow("solver") << QByteArray("time,q:hinge[0]\n0,0\n1,1\n") << QStringList{"--solver", "poisson-sweep"}
                            << 1 << "the solver poisson-sweep cannot compute prescribed motions";
  }
  void badInput() {
    QFETCH(QByteArray, text);
    QFETCH(QStringList, options);
    QFETCH(int, code);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString file = write(dir, "m.csv", text);
    const QString out = dir.filePath("out.csv");
    QStringList args = {"simulate", example("pendulum.yaml"), "--motion", file, "--duration", "0.5", "-o", out};
    args << options;
    const Run r = cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    if (message.startsWith("m.csv")) QVERIFY2(r.err.startsWith(file + ":"), qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
  }

  // The effort rating is checked like the others: a motor too weak for the motion ends peaks with
  // exit status 3 and names the coordinate.
  void effortRatingReached() {
    QTemporaryDir dir;
    QFile source(example("pendulum.yaml"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray yaml = source.readAll();
    // a quarter turn in two seconds, held: about 75 N·m of gravity moment at the end, a 50 N·m motor
    yaml.replace("      q0: [0.8]\n",
                 "      motion: {type: rest_to_rest, moves: [[0, 2, 0, 1.5707963267948966]]}\n"
                 "      rating: {effort: 50}\n");
    const QString model = write(dir, "m.yaml", yaml);
    const Run r = cli({"peaks", model, "--duration", "3", "--csv"});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("hinge reached") && r.err.contains("of its effort (tau[0]) rating"), qPrintable(r.err));
    QVERIFY2(r.out.contains("effort[0]"), qPrintable(r.out));
  }

  // The outputs are k · step up to the first at or past the duration: a step that does not divide
  // the duration would take the last one past the samples, and is refused.
  void lastOutputPastTheSamples() {
    QTemporaryDir dir;
    const QString file = write(dir, "m.csv", "time,q:hinge[0]\n0,0\n0.5,0.1\n1,0\n");
    const Run r = cli({"simulate", example("pendulum.yaml"), "--motion", file, "--duration", "1", "--step", "0.3"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("runs past the data") && r.err.contains("on line 4") && r.err.contains("--duration 0.9"),
             qPrintable(r.err));
    QCOMPARE(cli({"simulate", example("pendulum.yaml"), "--motion", file, "--duration", "0.9", "--step", "0.3"}).code,
             0);
  }

  // Units: degrees or radians for an angle, metres for a length; anything else is refused at its column.
  void unitsOutsideTheListAreRefused() {
    QTemporaryDir dir;
    const QString file = write(dir, "m.csv", "time,q:hinge[0] (mm)\n0,0\n1,10\n");
    const Run r = cli({"simulate", example("pendulum.yaml"), "--motion", file, "--duration", "1"});
    QCOMPARE(r.code, 1);
    QVERIFY2(
        r.err.contains("m.csv:1:6: error: 'q:hinge[0]' is in (mm), which is not read here; write it in rad or deg"),
        qPrintable(r.err));
  }

  // A floating-base run's own export replays: the arms follow it, the base (whose q: columns
  // cannot be followed) moves under the dynamics again, and so gives back the same motion.
  void floatingBaseExportReplays() {
    QTemporaryDir dir;
    const QString run = dir.filePath("run.csv");
    QCOMPARE(cli({"simulate", example("space_robot.yaml"), "--duration", "0.5", "--step", "0.002", "-o", run}).code, 0);
    const Run r = cli({"simulate", example("space_robot.yaml"), "--motion", run, "--duration", "0.5", "--step", "0.002",
                       "--signals", "attitude:base.yaw"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("warning: the joint 'base_joint' is free and cannot follow a prescribed motion"),
             qPrintable(r.err));
    QCOMPARE(r.err.count("base_joint"), 1);  // one note for the joint, not one per column
    const QList<QStringList> replay = parseCsv(r.out);
    const QList<QStringList> original = parseCsv(cli({"simulate", example("space_robot.yaml"), "--duration", "0.5",
                                                      "--step", "0.002", "--signals", "attitude:base.yaw"})
                                                     .out);
    // the arms' PD tracking gave their motion; replayed through a spline of the 2 ms samples, the
    // base turns the same to the spline's accuracy
    QVERIFY(std::abs(replay.last()[1].toDouble() - original.last()[1].toDouble()) <
            1e-6 * (1.0 + std::abs(original.last()[1].toDouble())));
  }

  // A joint follows a file in all of its coordinates: a universal joint with one column is refused.
  void everyCoordinateOrNone() {
    QTemporaryDir dir;
    const QString file = write(dir, "m.csv", "time,q:joint01[0]\n0,0\n1,0.1\n");
    const Run r = cli({"simulate", example("cardan_chain.yaml"), "--motion", file, "--duration", "1"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("the joint 'joint01' has 2 coordinates and the file no column q:joint01[1]"),
             qPrintable(r.err));
  }

  // --cutoff alone is a usage error.
  void cutoffWithoutMotion() {
    const Run r = cli({"simulate", example("pendulum.yaml"), "--cutoff", "5", "--duration", "0.1"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--cutoff filters the samples of --motion"), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(TestCliMotion)
#include "test_cli_motion.moc"
