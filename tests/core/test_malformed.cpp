// SPDX-License-Identifier: BSD-3-Clause
// The malformed-model corpus (tests/data/malformed/): every file must be rejected with its
// expected message fragment at the expected line:column, in the documented
// "file:line:col: error: path: message" form. Absurd inputs (10,000-deep nesting, a 100 MB
// file, a 65 MiB string) are generated here at run time and must be rejected quickly.
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "core/io/model_yaml.hpp"

namespace {

const std::string kDir = std::string(KINETREE_TEST_DATA) + "/malformed/";

struct Expectation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string fragment;
};

std::vector<Expectation> readExpectations() {
  std::vector<Expectation> out;
  std::ifstream in(kDir + "expected.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Expectation e;
    std::string pos;
    ls >> e.file >> pos;
    std::getline(ls >> std::ws, e.fragment);
    const auto colon = pos.find(':');
    e.line = std::stoi(pos.substr(0, colon));
    e.column = std::stoi(pos.substr(colon + 1));
    out.push_back(e);
  }
  return out;
}

// Loads `path`, expecting a ModelLoadError; returns its diagnostics.
std::vector<kt::Diagnostic> rejectFile(const std::string& path) {
  try {
    kt::loadModelFromFile(path);
  } catch (const kt::ModelLoadError& e) {
    return e.diagnostics();
  }
  return {};
}

std::vector<kt::Diagnostic> rejectText(const std::string& text) {
  try {
    kt::loadModelFromString(text, "generated.yaml");
  } catch (const kt::ModelLoadError& e) {
    return e.diagnostics();
  }
  return {};
}

bool mentions(const std::vector<kt::Diagnostic>& ds, const std::string& fragment) {
  for (const auto& d : ds)
    if (d.format().find(fragment) != std::string::npos) return true;
  return false;
}

}  // namespace

class TestMalformed : public QObject {
  Q_OBJECT

 private slots:
  void corpusIsLargeEnough() {
    const auto all = readExpectations();
    QVERIFY2(all.size() >= 60, qPrintable(QString("only %1 corpus entries").arg(all.size())));
    // Every .yaml file of the corpus has an expectation (no silently skipped file).
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kDir))
      if (entry.path().extension() == ".yaml") ++files;
    QCOMPARE(files, all.size());
  }

  void corpus_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("fragment");
    for (const auto& e : readExpectations())
      QTest::newRow(e.file.c_str()) << QString::fromStdString(e.file) << e.line << e.column
                                    << QString::fromStdString(e.fragment);
  }

  void corpus() {
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, fragment);
    const std::string path = kDir + file.toStdString();
    const auto diags = rejectFile(path);
    QVERIFY2(!diags.empty(), "the file was accepted");
    const std::regex form(R"(^.+:[0-9]+:[0-9]+: error: .+$)");
    const kt::Diagnostic* hit = nullptr;
    for (const auto& d : diags) {
      QCOMPARE(d.file, path);
      QVERIFY2(d.line > 0 && d.column > 0, qPrintable(QString::fromStdString(d.format())));
      QVERIFY2(std::regex_match(d.format(), form), qPrintable(QString::fromStdString(d.format())));
      if (!hit && d.format().find(fragment.toStdString()) != std::string::npos) hit = &d;
    }
    QVERIFY2(hit, qPrintable("no diagnostic contains '" + fragment + "':\n" +
                             QString::fromStdString(kt::formatDiagnostics(diags))));
    QVERIFY2(
        hit->line == line && hit->column == column,
        qPrintable(
            QString("expected at %1:%2, got %3").arg(line).arg(column).arg(QString::fromStdString(hit->format()))));
  }

  // The message of the issue's example, reproduced exactly.
  void exampleMessageFormat() {
    const auto diags = rejectFile(kDir + "mass_negative.yaml");
    QVERIFY(!diags.empty());
    QCOMPARE(
        QString::fromStdString(diags.front().format()),
        QString::fromStdString(kDir + "mass_negative.yaml:11:13: error: bodies[0].inertial.mass: must be > 0, got -1"));
  }

  void deepFlowNestingIsRejectedQuickly() {
    QElapsedTimer timer;
    timer.start();
    const std::string text =
        "kinetree: 1\nname: deep\nbodies: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
    const auto diags = rejectText(text);
    QVERIFY(mentions(diags, "nesting is deeper than"));
    QCOMPARE(diags.front().line, 3);
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
  }

  void deepMappingNestingIsRejectedQuickly() {
    std::string text = "kinetree: 1\nname: deep\nbodies:\n  - name: a\n    joint: ";
    for (int i = 0; i < 10000; ++i) text += "{a: ";
    text += "1" + std::string(10000, '}') + "\n";
    const auto diags = rejectText(text);
    QVERIFY(mentions(diags, "nesting is deeper than"));
  }

  void deepBlockSequenceIsRejectedQuickly() {
    std::string text = "kinetree: 1\nname: deep\nbodies:\n";
    for (int i = 0; i < 10000; ++i) text += "- ";
    text += "x\n";
    QVERIFY(mentions(rejectText(text), "nesting is deeper than"));
  }

  void deepIndentationIsRejectedQuickly() {
    // 10,000 nested block mappings, one space deeper each (50 MB of indentation would be
    // needed for all of them; the scan stops at the limit, so build only the first 200 levels
    // and pad the rest with a long flat tail).
    std::string text = "kinetree: 1\nname: deep\nbodies:\n";
    for (int i = 1; i <= 200; ++i) text += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
    text += std::string(201, ' ') + "b: 1\n";
    QVERIFY(mentions(rejectText(text), "nesting is deeper than"));
  }

  void hugeFileIsRejectedBeforeReading() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("huge.yaml").toStdString();
    { std::ofstream(path) << "kinetree: 1\n"; }
    std::filesystem::resize_file(path, 100ull * 1024 * 1024);  // sparse: nothing is written
    QElapsedTimer timer;
    timer.start();
    const auto diags = rejectFile(path);
    QVERIFY(mentions(diags, "model files are limited to 64 MiB"));
    QCOMPARE(diags.front().file, path);
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
  }

  void hugeStringIsRejected() {
    const std::string text(65u * 1024 * 1024, '#');
    QVERIFY(mentions(rejectText(text), "limited to 64 MiB"));
  }

  void aliasExpansionIsBounded() {
    // Each level refers nine times to the previous one: 9^8 ≈ 43 million numbers if expanded.
    std::string text = "kinetree: 1\nname: laughs\nl0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
    for (int i = 1; i <= 8; ++i) {
      text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
      for (int k = 0; k < 9; ++k) text += (k ? ", *l" : "*l") + std::to_string(i - 1);
      text += "]\n";
    }
    text +=
        "bodies:\n  - name: a\n    parent: world\n    joint: {type: revolute, q0: *l8}\n"
        "    inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n";
    QElapsedTimer timer;
    timer.start();
    const auto diags = rejectText(text);
    QVERIFY(!diags.empty());
    QVERIFY(mentions(diags, "unknown key 'l0'"));
    qInfo("%lld ms", static_cast<long long>(timer.elapsed()));  // a benchmark, not a check
  }

  // An alias is the anchor's node, never a copy: a 2 MB anchored text named 2,000 times would
  // otherwise ask for 4 GB. Checked on the process's peak memory (VmHWM), not on time.
  void aliasesShareTheAnchor() {
    const auto peakKb = [] {
      QFile status(QStringLiteral("/proc/self/status"));
      if (!status.open(QIODevice::ReadOnly)) return -1LL;
      for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').front().toLongLong();
      return -1LL;
    };
    std::string text = "kinetree: 1\nname: shared\nbig: &big \"" + std::string(2u * 1024 * 1024, 'x') + "\"\nmany: [";
    for (int i = 0; i < 2000; ++i) text += i ? ", *big" : "*big";
    text += "]\nbodies: []\n";
    {  // start the peak from the current size (Linux: "5" resets VmHWM)
      QFile reset(QStringLiteral("/proc/self/clear_refs"));
      if (reset.open(QIODevice::WriteOnly)) reset.write("5");
    }
    const long long before = peakKb();
    if (before < 0) QSKIP("no /proc/self/status here");
    const auto diags = rejectText(text);
    QVERIFY(mentions(diags, "unknown key 'big'"));
    const long long grown = peakKb() - before;
    qInfo("peak memory grew by %lld KB", grown);
    QVERIFY2(grown < 256 * 1024, qPrintable(QStringLiteral("the peak grew by %1 MB").arg(grown / 1024)));
  }

  // 20,000 bodies whose parents are all misspelled: at most 100 problems and a closing count,
  // and quickly (a nearest-name search per unknown parent used to take minutes).
  void manyUnknownParentsAreCappedAndFast() {
    std::string text = "kinetree: 1\nname: misspelled\nbodies:\n";
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      const std::string parent = i == 0 ? "world" : "lnik" + std::to_string(i - 1);
      text += "  - {name: link" + std::to_string(i) + ", parent: " + parent +
              ", joint: {type: revolute}, inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}}\n";
    }
    QElapsedTimer timer;
    timer.start();
    const auto diags = rejectText(text);
    const qint64 ms = timer.elapsed();
    QCOMPARE(diags.size(), std::size_t(101));
    QVERIFY(mentions({diags.front()}, "unknown parent 'lnik0'"));
    QVERIFY(mentions({diags.front()}, "did you mean 'link0'?"));
    QVERIFY2(mentions({diags.back()}, "... and 19899 more problems"),
             qPrintable(QString::fromStdString(diags.back().format())));
    qInfo("20,000 unknown parents: %lld ms", static_cast<long long>(ms));
  }

  // 250 bodies with an unknown key each: the reader's own cap keeps the first 100, in file order,
  // and ends with the validator's closing count of the rest.
  void readerErrorsAreCappedWithACount() {
    std::string text = "kinetree: 1\nname: typos\nbodies:\n";
    const int n = 250;
    for (int i = 0; i < n; ++i)
      text += "  - {name: b" + std::to_string(i) + ", parent: world, joint: {type: revolute, axsi: [0, 0, 1]}, " +
              "inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}}\n";
    const auto diags = rejectText(text);
    QCOMPARE(diags.size(), std::size_t(101));
    QVERIFY(mentions({diags.front()}, "bodies[0].joint.axsi: unknown key 'axsi'"));
    QVERIFY(mentions({diags[99]}, "bodies[99].joint.axsi"));
    const std::string last = diags.back().format();
    QVERIFY2(last.find("error: ... and 150 more problems (the first 100 are shown)") != std::string::npos,
             last.c_str());
    // exactly at the cap: no closing line
    std::string exact = "kinetree: 1\nname: typos\nbodies:\n";
    for (int i = 0; i < 100; ++i)
      exact += "  - {name: b" + std::to_string(i) + ", parent: world, joint: {type: revolute, axsi: [0, 0, 1]}, " +
               "inertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}}\n";
    const auto atCap = rejectText(exact);
    QCOMPARE(atCap.size(), std::size_t(100));
    QVERIFY(!mentions(atCap, "more problems"));
  }

  void missingAndUnreadableFiles() {
    QVERIFY(mentions(rejectFile(kDir + "no_such_file.yaml"), "no such file"));
    QVERIFY(mentions(rejectFile(kDir), "is a directory"));
  }

  void binaryGarbageDoesNotCrash() {
    std::string text;
    std::uint64_t s = 12345;
    for (int i = 0; i < 20000; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      text += static_cast<char>(s >> 56);
    }
    QVERIFY(!rejectText(text).empty());
  }

  void truncatedExamplesAreRejectedWithoutCrashing() {
    // Every prefix length of a real model (cut at each line) either loads or is rejected.
    std::ifstream in(std::string(KINETREE_SOURCE_DIR) + "/examples/double_pendulum.yaml");
    const std::string full((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QVERIFY(!full.empty());
    int rejected = 0;
    for (std::size_t cut = full.find('\n'); cut != std::string::npos; cut = full.find('\n', cut + 1)) {
      try {
        kt::loadModelFromString(full.substr(0, cut / 2 + cut % 7));
      } catch (const kt::ModelLoadError& e) {
        QVERIFY(!e.diagnostics().empty());
        ++rejected;
      }
    }
    QVERIFY(rejected > 0);
  }
};

QTEST_GUILESS_MAIN(TestMalformed)
#include "test_malformed.moc"
