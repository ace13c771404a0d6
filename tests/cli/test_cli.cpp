// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli validate / info / --version / --help: exit codes and messages, run as a process.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <tuple>

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
    // one flag everywhere: -V too, and after any command
    for (const QStringList& args : {QStringList{"-V"}, QStringList{"simulate", "-V"}, QStringList{"bench", "--version"},
                                    QStringList{"info", "x.yaml", "--version"}}) {
      const Run v = cli(args);
      QCOMPARE(v.code, 0);
      QCOMPARE(v.out, r.out);
    }
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
    const Run bench = cli({"bench", "--help"});
    QVERIFY2(bench.out.contains("bench (--model FILE | --chain N") && bench.out.contains("is required"),
             qPrintable(bench.out));
  }

  // Every command's --help ends with an example, and the example runs as printed (in a directory
  // holding the examples, through a shell, as a user would paste it).
  void helpExamplesRun() {
    const Run top = cli({"--help"});
    QStringList commands;
    for (const QString& line : top.out.split('\n'))
      if (const auto m = QRegularExpression(R"(^  ([a-z]+) +\S)").match(line); m.hasMatch()) commands << m.captured(1);
    QVERIFY(commands.size() >= 6);
    QTemporaryDir dir;
    QVERIFY(QFile::link(QStringLiteral(KINETREE_SOURCE_DIR "/examples"), dir.filePath("examples")));
    for (const QString& command : commands) {
      const Run help = cli({command, "--help"});
      QCOMPARE(help.code, 0);
      const qsizetype at = help.out.indexOf("\nexample: ");
      QVERIFY2(at >= 0, qPrintable(command + ": no example in\n" + help.out));
      QString example = help.out.mid(at + 10).trimmed();
      QVERIFY2(example.startsWith("kinetree-cli " + command + " "), qPrintable(example));
      example.replace(0, 12, QStringLiteral("\"" KINETREE_CLI "\""));
      QProcess sh;
      sh.setWorkingDirectory(dir.path());
      sh.start(QStringLiteral("/bin/sh"), {"-c", example});
      QVERIFY(sh.waitForFinished(120'000));
      QVERIFY2(sh.exitCode() == 0, qPrintable(example + "\n" + sh.readAllStandardError()));
    }
    QVERIFY(QFile::exists(dir.filePath("run.csv")));
    QVERIFY(QFile::exists(dir.filePath("peaks.csv")));
  }

  void usageErrors() {
    const Run none = cli({});
    QCOMPARE(none.code, 2);
    QVERIFY(none.err.contains("usage"));
    const Run unknown = cli({"frobnicate"});
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.contains("unknown command 'frobnicate'"));
    QVERIFY(!unknown.err.contains("did you mean"));
    const Run typo = cli({"simulat", "x.yaml"});
    QCOMPARE(typo.code, 2);
    QVERIFY2(typo.err.contains("unknown command 'simulat' (did you mean 'simulate'?)"), qPrintable(typo.err));
    QVERIFY(cli({"help", "valdiate"}).err.contains("did you mean 'validate'?"));
    const Run option = cli({"simulate", example("pendulum.yaml"), "--signal", "q:*"});
    QCOMPARE(option.code, 2);
    QVERIFY2(option.err.contains("unknown option '--signal' (did you mean '--signals'?)"), qPrintable(option.err));
    QCOMPARE(cli({"help", "frobnicate"}).code, 2);
    QCOMPARE(cli({"validate"}).code, 2);
    QCOMPARE(cli({"info"}).code, 2);
  }

  // `-` reads a model file from standard input, its messages naming <stdin>.
  void modelOnStandardInput() {
    const auto piped = [](const QStringList& args, const QByteArray& input) {
      QProcess p;
      p.start(QStringLiteral(KINETREE_CLI), args);
      p.write(input);
      p.closeWriteChannel();
      p.waitForFinished(30000);
      return std::tuple(p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                        QString::fromUtf8(p.readAllStandardError()));
    };
    QFile pendulum(example("pendulum.yaml"));
    QVERIFY(pendulum.open(QIODevice::ReadOnly));
    const auto [code, out, err] = piped({"validate", "-"}, pendulum.readAll());
    QCOMPARE(code, 0);
    QCOMPARE(out, QStringLiteral("<stdin>: ok\n"));
    const auto [badCode, badOut, badErr] = piped({"validate", "-"}, "kinetree: 1\nbodies: [\n");
    QCOMPARE(badCode, 1);
    QVERIFY2(badErr.startsWith(QStringLiteral("<stdin>:3:1: error: YAML syntax error")), qPrintable(badErr));
  }

  // The bash completion (installed with the package) offers every command, each command's options
  // as its --help lists them, and the registered solvers.
  void bashCompletion() {
    const auto complete = [](const QStringList& words) {
      QString script = QStringLiteral("source '" KINETREE_SOURCE_DIR "/app/cli/completion/kinetree-cli.bash'\n");
      script += "COMP_WORDS=(";
      for (const QString& w : words) script += " '" + w + "'";
      script +=
          QStringLiteral(" ); COMP_CWORD=%1; _kinetree_cli; printf '%s\\n' \"${COMPREPLY[@]}\"").arg(words.size() - 1);
      QProcess bash;
      bash.start(QStringLiteral("bash"), {"-c", script});
      bash.waitForFinished(10'000);
      QStringList out = QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
      out.sort();
      return out;
    };
    const Run top = cli({"--help"});
    QStringList commands;
    for (const QString& line : top.out.split('\n'))
      if (const auto m = QRegularExpression(R"(^  ([a-z]+) +\S)").match(line); m.hasMatch()) commands << m.captured(1);
    QStringList expectedCommands = commands + QStringList{"help"};
    expectedCommands.sort();
    QCOMPARE(complete({"kinetree-cli", ""}).filter(QRegularExpression("^[a-z]")), expectedCommands);
    for (const QString& command : commands) {
      const QString help = cli({command, "--help"}).out;
      const QString synopsis = help.left(help.indexOf("\n\n"));
      QStringList options{"--help", "--version"};
      for (const auto& m : QRegularExpression(R"(--[a-z][a-z-]*)").globalMatch(synopsis)) options << m.captured(0);
      options.removeDuplicates();
      options.sort();
      QCOMPARE(complete({"kinetree-cli", command, "--"}), options);
    }
    const Run unknownSolver = cli({"simulate", example("pendulum.yaml"), "--solver", "?"});
    const QString known = unknownSolver.err.section("expected one of: ", 1).section(')', 0, 0);
    QStringList solvers = known.split(", ");
    solvers.sort();
    QVERIFY(solvers.size() >= 5);
    QCOMPARE(complete({"kinetree-cli", "simulate", "m.yaml", "--solver", ""}), solvers);
    // operands: what each command reads (a robot for every command that reads a model)
    QTemporaryDir dir;
    for (const char* name : {"a.yaml", "b.urdf", "c.xml", "d.csv"})
      QVERIFY(QFile(dir.filePath(name)).open(QIODevice::WriteOnly));
    const QString prefix = dir.path() + '/';
    const auto names = [&](const QString& command) {
      QStringList out = complete({"kinetree-cli", command, prefix});
      out.replaceInStrings(prefix, QString());
      return out;
    };
    for (const char* command : {"validate", "info", "simulate", "peaks", "compare", "export"})
      QCOMPARE(names(command), (QStringList{"a.yaml", "b.urdf", "c.xml"}));
    QCOMPARE(names("import"), (QStringList{"b.urdf", "c.xml"}));
    QCOMPARE(names("sweep"), QStringList{"a.yaml"});
  }

  // compare --digits: the agreement as -log10 of the relative difference, "exact" for none.
  void compareInDigits() {
    const Run r = cli(
        {"compare", example("space_robot.yaml"), "--duration", "0.1", "--solvers", "aba,cfa-tree,crba", "--digits"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("in digits of agreement"));
    const auto row = [&](const char* solver) {
      for (const QString& line : r.out.split('\n'))
        if (line.startsWith(QString::fromLatin1(solver) + ' ')) return line.split(' ', Qt::SkipEmptyParts);
      return QStringList();
    };
    QCOMPARE(row("aba").mid(2, 2), (QStringList{"exact", "exact"}));
    for (const char* solver : {"cfa-tree", "crba"}) {
      const QStringList cells = row(solver);
      QVERIFY2(cells.size() >= 4, solver);
      for (int c = 2; c <= 3; ++c) {  // qdd, load
        bool ok = false;
        const double digits = cells[c].toDouble(&ok);
        QVERIFY2(ok && digits >= 13.0 && digits <= 16.0, qPrintable(cells.join(' ')));
      }
    }
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

  // Every command that reads a model reads a URDF as `import` does: by its .urdf name or, under
  // another name, by the '<' it starts with (a YAML model cannot).
  void urdfOnEveryCommand() {
    const QString urdf = example("arm7.urdf");
    Run r = cli({"info", urdf});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("model: kt_arm7"));
    QVERIFY(r.out.contains("nv: 7 "));
    r = cli({"validate", "--package-path", KINETREE_TEST_DATA "/urdf", urdf});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("arm7.urdf: ok"));
    r = cli({"simulate", "--duration", "0.01", urdf});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.startsWith("time,q:a1"));
    QVERIFY(r.out.count('\n') >= 5);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString renamed = dir.filePath("robot.xml");
    QVERIFY(QFile::copy(KINETREE_TEST_DATA "/urdf/planar.urdf", renamed));
    r = cli({"info", renamed});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!r.err.contains("syntax"));
    QVERIFY(r.out.contains("hinge"));
  }

  // URDF has no actuators: the import says the robot will fall and where drives are given.
  void importSaysJointsArePassive() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run r = cli({"import", example("arm7.urdf"), "-o", dir.filePath("arm7.yaml")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("arm7.urdf: note: all 7 joints are passive (no drive): the robot will fall under gravity."),
             qPrintable(r.err));
    QVERIFY(r.err.contains("Properties dock (docs/model-format.md, \"Drives\")"));
  }

  // Implausible inertials (a placeholder inertia, a sub-gram moving link) are warned of by import
  // and validate, naming the body and the values; the model is imported and valid all the same.
  void urdfPlausibilityWarnings() {
    const QString urdf = QStringLiteral(KINETREE_TEST_DATA "/urdf/implausible.urdf");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QStringList& args :
         {QStringList{"import", urdf, "-o", dir.filePath("robot.yaml")}, QStringList{"validate", urdf}}) {
      const Run r = cli(args);
      QVERIFY2(r.code == 0, qPrintable(r.err));
      QVERIFY2(r.err.contains("implausible.urdf: warning: bodies[1].inertial.inertia: body 'hand' has a radius of "
                              "gyration of 1.58 m (sqrt(largest principal moment / mass)), more than 10 times the "
                              "largest half-extent of its shapes, 0.05 m"),
               qPrintable(args.front() + ": " + r.err));
      QVERIFY2(r.err.contains("implausible.urdf: warning: bodies[2].inertial.mass: body 'finger' moves on its joint "
                              "but has a mass of only 0.0001 kg (below 0.001 kg)"),
               qPrintable(args.front() + ": " + r.err));
      QCOMPARE(r.err.count("warning: bodies["), 2);
    }
  }

  // A link without <visual> is drawn from its collision geometry, and the import says so.
  void importDrawsCollisionGeometry() {
    const QString urdf = QStringLiteral(KINETREE_TEST_DATA "/urdf/collision_only.urdf");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString yaml = dir.filePath("robot.yaml");
    const Run r = cli({"import", urdf, "-o", yaml});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains("collision_only.urdf:7:5: warning: links without a <visual> that can be shown, each drawn "
                            "from its collision geometry: base, upper"),
             qPrintable(r.err));
    QVERIFY(!r.err.contains("<collision> geometry is not used"));
    const kt::Model model = kt::loadModelFromFile(yaml.toStdString());
    QCOMPARE(model.bodies.size(), std::size_t(3));
    QCOMPARE(model.bodies[0].shapes.size(), std::size_t(1));
    QVERIFY(model.bodies[0].shapes[0].type == kt::ShapeType::Box);
    QCOMPARE(model.bodies[0].shapes[0].origin.xyz.z(), 0.05);
    QVERIFY(model.bodies[1].shapes[0].type == kt::ShapeType::Cylinder);
    QCOMPARE(model.bodies[1].shapes[0].radius, 0.04);
    QVERIFY(model.bodies[2].shapes.empty());  // neither: the 3D view draws it as a skeleton
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
