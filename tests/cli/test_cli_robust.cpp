// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli on input a careless user or a fuzzer gives it, run as a process: settings that
// cannot run (named by their option or their place in the model file), deep trees, bench limits
// and its JSON, empty and dash-led file names.
#include <cmath>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "core/io/model_yaml.hpp"
#include "core/model/generators.hpp"
#include "core/sim/run_limits.hpp"
#include "support/cli_runner.hpp"

using namespace kt;

namespace {

using Run = kt::test::CliRun;
Run cli(const QStringList& args) { return kt::test::runCli(args); }
using kt::test::example;

// The pendulum example with its simulation: block's `key: value` line replaced.
QString pendulumWith(const QTemporaryDir& dir, const QString& name, const QString& key, const QString& value) {
  QFile in(example("pendulum.yaml"));
  if (!in.open(QIODevice::ReadOnly)) return {};
  QString text = QString::fromUtf8(in.readAll());
  const QRegularExpression line(QStringLiteral("(\\n  %1: )[^\\n]*").arg(key));
  if (!line.match(text).hasMatch()) return {};
  text.replace(line, QStringLiteral("\\1") + value);
  const QString path = dir.filePath(name);
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) return {};
  out.write(text.toUtf8());
  return path;
}

// 1-based line and column of the value of `key:` in the file.
QString positionOf(const QString& path, const QString& key) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
  for (int k = 0; k < lines.size(); ++k) {
    const int col = lines[k].indexOf(QStringLiteral("%1: ").arg(key));
    if (col >= 0 && lines[k].startsWith("  ")) return QStringLiteral("%1:%2").arg(k + 1).arg(col + key.size() + 3);
  }
  return {};
}

}  // namespace

class TestCliRobust : public QObject {
  Q_OBJECT

 private slots:
  // Command-line settings that cannot run: exit 2 at once, the option named in the message.
  void runSettingsOnCommandLine_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    const QString m = example("pendulum.yaml");
    QTest::newRow("duration 1e308") << QStringList{"simulate", m, "--duration", "1e308"}
                                    << "--duration 1e+308: a run of 1e+308 s";
    QTest::newRow("duration 1e12") << QStringList{"simulate", m, "--duration", "1e12"} << "--duration 1e+12";
    QTest::newRow("step 1e-300") << QStringList{"simulate", m, "--step", "1e-300"}
                                 << "--step 1e-300: must be at least 1e-12 s";
    QTest::newRow("step above duration") << QStringList{"simulate", m, "--step", "1", "--duration", "0.5"}
                                         << "--step 1: the step (1 s) is longer than the duration (0.5 s)";
    QTest::newRow("tolerance 1e-300") << QStringList{"simulate", m, "--integrator", "dopri5", "--tolerance", "1e-300"}
                                      << "--tolerance 1e-300: must be at least 1e-14";
    QTest::newRow("compare duration 1e308")
        << QStringList{"compare", m, "--duration", "1e308"} << "kinetree-cli compare: --duration 1e+308";
    QTest::newRow("compare step 1e-300") << QStringList{"compare", m, "--step", "1e-300"}
                                         << "kinetree-cli compare: --step 1e-300";
  }
  void runSettingsOnCommandLine() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    QElapsedTimer timer;
    timer.start();
    const Run r = cli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
    QVERIFY(r.out.isEmpty() || !r.out.contains('\n') || args[0] == "compare");
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
  }

  // The same settings in a model file: file:line:col of the value, from validate and simulate.
  void runSettingsInModel_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("duration 1e300") << "duration"
                                    << "1e300"
                                    << "simulation.duration: a run of 1e+300 s";
    QTest::newRow("duration 1e12") << "duration"
                                   << "1e12"
                                   << "simulation.duration: a run of 1e+12 s";
    QTest::newRow("step 1e-300") << "step"
                                 << "1e-300"
                                 << "simulation.step: must be at least 1e-12 s";
    QTest::newRow("step 20") << "step"
                             << "20"
                             << "simulation.step: the step (20 s) is longer than the duration";
    QTest::newRow("tolerance 1e-300") << "tolerance"
                                      << "1e-300"
                                      << "simulation.tolerance: must be at least 1e-14";
  }
  void runSettingsInModel() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, fragment);
    QTemporaryDir dir;
    const QString path = pendulumWith(dir, "settings.yaml", key, value);
    QVERIFY(!path.isEmpty());
    const QString where = path + ":" + positionOf(path, key) + ": error: ";
    const Run v = cli({"validate", path});
    QCOMPARE(v.code, 1);
    QVERIFY2(v.err.startsWith(where) && v.err.contains(fragment), qPrintable(v.err + " expected " + where));
    const Run s = cli({"simulate", path});
    QCOMPARE(s.code, 1);
    QCOMPARE(s.err, v.err);
    QVERIFY(s.out.isEmpty());
  }

  // The limits themselves.
  void runLimits() {
    QVERIFY(checkRunSettings(0.002, 10, 1e-8).empty());
    QVERIFY(checkRunSettings(1e-3, 1e6, 1e-14).empty());  // 1e9 outputs: the largest run
    QCOMPARE(checkRunSettings(1e-3, 1.1e6, 1e-8).size(), std::size_t(1));
    QCOMPARE(checkRunSettings(0.002, 0.002, 1e-8).size(), std::size_t(0));
    QCOMPARE(checkRunSettings(0.003, 0.002, 1e-8).front().field, std::string("step"));
    QCOMPARE(checkRunSettings(0.002, std::numeric_limits<double>::infinity(), 1e-8).front().field,
             std::string("duration"));
    QCOMPARE(checkRunSettings(0.002, 10, 0.5e-14).front().field, std::string("tolerance"));
    QCOMPARE(runOutputCount(10, 0.002), 5000L);
  }

  // info on a deep chain: no recursion (a 25,000-body chain used to overflow the stack after
  // about 1 GB of indentation), the single-child run shortened to its ends.
  void infoDeepChain() {
    QTemporaryDir dir;
    const QString path = dir.filePath("chain.yaml");
    saveModelToFile(makeChain(25000), path.toStdString());
    QElapsedTimer timer;
    timer.start();
    const Run r = cli({"info", path});
    qInfo("info on a 25,000-body chain: %lld ms, %lld bytes", static_cast<long long>(timer.elapsed()),
          static_cast<long long>(r.out.size()));
    QVERIFY2(r.code == 0, qPrintable(r.err.left(2000)));
    QVERIFY(r.out.contains("… 24,994 more bodies in a chain …"));
    // the tree drawing: the root, 3 bodies, the elision, the last 2 bodies
    const QString drawing = r.out.section("\nworld\n", 1).section("\n\n", 0, 0);
    QCOMPARE(drawing.count('\n'), 6);
    QVERIFY2(drawing.endsWith("└── link25000  (revolute 'j_link25000')"), qPrintable(drawing));
    // linear output: the table's 25,000 rows, each short
    QVERIFY(r.out.size() < 25000 * 120);
    QVERIFY(r.out.contains("bodies: 25000\n"));
  }

  // A deep comb (every body of the spine has a leaf child): branches cannot be elided, and the
  // indentation stays bounded.
  void infoDeepComb() {
    QTemporaryDir dir;
    Model m = makeChain(2000);
    const int spine = static_cast<int>(m.bodies.size());
    for (int k = 0; k < spine; ++k) {
      BodySpec leaf = m.bodies[k];
      leaf.name = "leaf" + std::to_string(k);
      leaf.joint.name = "leaf_joint" + std::to_string(k);
      leaf.parent = m.bodies[k].name;
      m.bodies.push_back(leaf);
    }
    const QString path = dir.filePath("comb.yaml");
    saveModelToFile(m, path.toStdString());
    const Run r = cli({"info", path});
    QVERIFY2(r.code == 0, qPrintable(r.err.left(2000)));
    int longest = 0;
    for (const QString& line : r.out.split('\n')) longest = std::max(longest, int(line.size()));
    QVERIFY2(longest < 400, qPrintable(QString::number(longest)));
    QVERIFY(r.out.contains("(depth "));
  }

  // bench refuses sizes it cannot hold and repeats that would run for days, before allocating.
  void benchLimits() {
    QElapsedTimer timer;
    timer.start();
    const Run chain = cli({"bench", "--chain", "10000000"});
    QCOMPARE(chain.code, 2);
    QVERIFY2(chain.err.contains("--chain must be at most 1000000 bodies"), qPrintable(chain.err));
    const Run huge = cli({"bench", "--chain", "99999999999999999999"});
    QCOMPARE(huge.code, 2);
    const Run repeat = cli({"bench", "--chain", "3", "--repeat", "10000000"});
    QCOMPARE(repeat.code, 2);
    QVERIFY2(repeat.err.contains("--repeat must be at most 1000"), qPrintable(repeat.err));
    QVERIFY(cli({"bench", "--binary-tree", "21"}).code == 2);
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
  }

  // bench --simulate splits a run into the bare RK4 loop and what the recording run adds to it;
  // "beyond" is the second over the first, and the derived signals' first read, the run that
  // derives every output and the CSV are timed apart.
  void benchSimulateSplitsTheRun() {
    const Run r = cli({"bench", "--model", example("pendulum.yaml"), "--solvers", "aba", "--kinds", "forward",
                       "--repeat", "1", "--simulate", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    const QJsonObject run = QJsonDocument::fromJson(lines[1].toUtf8()).object();
    QCOMPARE(run.value("kind").toString(), QStringLiteral("run"));
    QCOMPARE(run.value("solver").toString(), QStringLiteral("aba"));
    QCOMPARE(run.value("duration_s").toDouble(), 10.0);
    const double dynamics = run.value("dynamics_s").toDouble(), outputs = run.value("outputs_s").toDouble(),
                 total = run.value("simulate_s").toDouble();
    QVERIFY(dynamics > 0.0 && total > 0.0 && run.value("csv_s").toDouble() > 0.0);
    QVERIFY(run.value("derived_s").toDouble() > 0.0);
    QVERIFY(run.contains("streaming_s"));
    QVERIFY(outputs < total);  // the recording run less the bare loop
    QVERIFY(std::abs(run.value("beyond_dynamics").toDouble() - outputs / dynamics) <= 1e-6);
    // the table names the parts
    const Run table = cli({"bench", "--model", example("pendulum.yaml"), "--solvers", "aba", "--kinds", "forward",
                           "--repeat", "1", "--simulate"});
    QVERIFY2(table.code == 0, qPrintable(table.err));
    for (const char* column : {"dynamics [s]", "outputs [s]", "beyond", "derived [s]", "streaming [s]", "csv [s]"})
      QVERIFY2(table.out.contains(QLatin1String(column)), column);
    // a solver that cannot run the model is not timed, says why, and the bench goes on
    const Run motion = cli({"bench", "--model", example("space_robot_motion.yaml"), "--solvers", "poisson-ldl",
                            "--kinds", "forward", "--repeat", "1", "--simulate", "--json"});
    QVERIFY2(motion.code == 0, qPrintable(motion.err));
    const QStringList motionLines = motion.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(motionLines.size(), 2);
    const QJsonObject refused = QJsonDocument::fromJson(motionLines[1].toUtf8()).object();
    QCOMPARE(refused.value("kind").toString(), QStringLiteral("run"));
    QVERIFY2(refused.value("error").toString().contains("cannot compute prescribed motions"),
             qPrintable(motionLines[1]));
  }

  // bench --json writes valid JSON whatever the model's file name.
  void benchJsonEscapes() {
    QTemporaryDir dir;
    const QString path = dir.filePath("a\"b\\c.yaml");
    QVERIFY(QFile::copy(example("pendulum.yaml"), path));
    const Run r = cli({"bench", "--model", path, "--solvers", "aba", "--repeat", "1", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    // aba's forward dynamics, the RNEA without and with the loads, aba's hybrid dynamics
    const QList<std::pair<QString, QString>> rows = {
        {"forward", "aba"}, {"inverse", "rnea"}, {"inverse", "rnea"}, {"hybrid", "aba"}};
    QCOMPARE(lines.size(), rows.size());
    for (qsizetype k = 0; k < lines.size(); ++k) {
      QJsonParseError error;
      const QJsonDocument doc = QJsonDocument::fromJson(lines[k].toUtf8(), &error);
      QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + ": " + lines[k]));
      QCOMPARE(doc.object().value("model").toString(), QStringLiteral("a\"b\\c"));
      QCOMPARE(doc.object().value("kind").toString(), rows[k].first);
      QCOMPARE(doc.object().value("solver").toString(), rows[k].second);
      QVERIFY(doc.object().value("ns_per_call").toDouble() > 0.0);
    }
    QCOMPARE(cli({"bench", "--chain", "3", "--kinds", "backward"}).code, 2);
  }

  // An output that is a directory is refused before the run (it used to fail after it).
  void outputDirectoryBeforeRun() {
    QTemporaryDir dir;
    QElapsedTimer timer;
    timer.start();
    const Run r = cli({"simulate", example("pendulum.yaml"), "--duration", "1000", "--output", dir.path()});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("is a directory"), qPrintable(r.err));
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    QVERIFY(QDir(QFileInfo(dir.path()).path())
                .entryList({QFileInfo(dir.path()).fileName() + ".kinetree-partial-*"})
                .isEmpty());
  }

  // The commands that write after a run (peaks, spectrum, fatigue) check their files first: a
  // folder that does not exist fails at once, with nothing printed, not after the whole run.
  void outputPathsBeforeTheRun() {
    const QString missing = QDir::tempPath() + "/kinetree-no-such-folder/out.csv";
    for (const QStringList& args :
         {QStringList{"peaks", example("pendulum.yaml"), "--cases", missing},
          QStringList{"peaks", example("pendulum.yaml"), "-o", missing},
          QStringList{"spectrum", example("pendulum.yaml"), "-o", missing},
          QStringList{"fatigue", example("pendulum.yaml"), "--signals", "load:*.fz", "--histogram", missing}}) {
      const Run r = cli(args);
      QCOMPARE(r.code, 1);
      QVERIFY2(r.err.contains("cannot create a file next to " + missing), qPrintable(r.err));
      QVERIFY2(r.out.isEmpty(), qPrintable(r.out));  // the table was not printed: no run
    }
  }

  // An option whose value was forgotten does not take the next option for it.
  void optionValueForgotten() {
    const Run r = cli({"simulate", example("pendulum.yaml"), "-o", "--duration", "0.1"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("-o needs a value before --duration (a value starting with -- is written --output=VALUE)"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists("--duration"));
    const Run negative = cli({"simulate", example("pendulum.yaml"), "--duration", "0.01", "-o", "-"});
    QVERIFY2(negative.code == 0, qPrintable(negative.err));  // "-" is stdout, not an option
  }

  // validate "" names the empty argument; "--" ends the options, so that names may start with '-'.
  void emptyAndDashNames() {
    const Run empty = cli({"validate", ""});
    QCOMPARE(empty.code, 1);
    QVERIFY2(empty.err.contains("argument 1 is an empty file name ('')"), qPrintable(empty.err));
    QTemporaryDir dir;
    QVERIFY(QFile::copy(example("pendulum.yaml"), dir.filePath("-p.yaml")));
    QVERIFY(QDir::setCurrent(dir.path()));
    const Run withoutDashes = cli({"validate", "-p.yaml"});
    QCOMPARE(withoutDashes.code, 2);
    QVERIFY(withoutDashes.err.contains("unknown option '-p.yaml'"));
    const Run v = cli({"validate", "--", "-p.yaml"});
    QVERIFY2(v.code == 0, qPrintable(v.err));
    QCOMPARE(v.out, QStringLiteral("-p.yaml: ok\n"));
    QCOMPARE(cli({"info", "--", "-p.yaml"}).code, 0);
    const Run s = cli({"simulate", "--duration", "0.01", "--", "-p.yaml"});
    QVERIFY2(s.code == 0, qPrintable(s.err));
    QVERIFY(s.out.startsWith("time,"));
    QCOMPARE(cli({"compare", "--duration", "0.01", "--solvers", "aba,crba", "--", "-p.yaml"}).code, 0);
    // "--help" after "--" is a file name, not a request for help
    QCOMPARE(cli({"validate", "--", "--help"}).code, 1);
    QVERIFY(QDir::setCurrent(QDir::tempPath()));
  }
};

QTEST_GUILESS_MAIN(TestCliRobust)
#include "test_cli_robust.moc"
