// SPDX-License-Identifier: BSD-3-Clause
// kinetree-cli spectrum and fatigue (docs/reports.md): each gives, for a signal of a run, what the
// core analysis gives for the same column of `simulate`'s CSV, to the last bit; the cycles and
// histogram files add up to the table; bad options are usage errors that write nothing.
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "core/analysis/rainflow.hpp"
#include "core/analysis/spectrum.hpp"
#include "core/model/text_util.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"

namespace {

// The columns of a CSV text: header names and the numbers under them.
struct Table {
  QStringList names;
  std::vector<std::vector<double>> columns;
  std::vector<double> column(const QString& name) const {
    const auto k = names.indexOf(name);
    return k < 0 ? std::vector<double>{} : columns[static_cast<std::size_t>(k)];
  }
};

Table parse(const QString& text) {
  Table t;
  const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
  if (lines.isEmpty()) return t;
  t.names = lines.front().split(',');
  t.columns.assign(static_cast<std::size_t>(t.names.size()), {});
  for (qsizetype r = 1; r < lines.size(); ++r) {
    const QStringList cells = lines[r].split(',');
    for (qsizetype c = 0; c < cells.size() && c < t.names.size(); ++c)
      t.columns[static_cast<std::size_t>(c)].push_back(cells[c].toDouble());
  }
  return t;
}

}  // namespace

class TestCliReports : public QObject {
  Q_OBJECT

 private slots:
  // The space robot's J11 reaction moment over 4 s: the spectrum command's columns are the
  // Welch spectra of simulate's column, bit for bit; the stderr summary names the largest line.
  void spectrumIsTheCoreSpectrumOfTheRun() {
    QTemporaryDir dir;
    const QString model = kt::test::example("space_robot.yaml");
    const kt::test::CliRun run =
        kt::test::runCli({"simulate", model, "--duration", "4", "--signals", "reaction:J11.mx"});
    QCOMPARE(run.code, 0);
    const std::vector<double> x = parse(run.out).column("reaction:J11.mx");
    QCOMPARE(x.size(), std::size_t{2001});
    const QString out = dir.filePath("s.csv");
    const kt::test::CliRun cli = kt::test::runCli({"spectrum", model, "--duration", "4", "--signals", "reaction:J11.mx",
                                                   "--segment", "512", "--detrend", "linear", "-o", out});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    kt::SpectrumOptions o;
    o.segment = 512;
    o.detrend = kt::Detrend::Linear;
    const kt::Spectrum s = kt::welchSpectrum(x, 500.0, o);
    const Table t = parse(QString::fromUtf8(kt::test::readAll(out)));
    QCOMPARE(t.names, (QStringList{"f_Hz", "reaction:J11.mx.amplitude", "reaction:J11.mx.psd"}));
    QVERIFY(t.column("f_Hz") == s.frequency);
    QVERIFY(t.column("reaction:J11.mx.amplitude") == s.amplitude);
    QVERIFY(t.column("reaction:J11.mx.psd") == s.psd);
    QVERIFY2(cli.err.contains("segments of 512 (6 averaged), resolution 0.9766 Hz"), qPrintable(cli.err));
    // 0.98 Hz lines: the joint's slow motion falls on the lowest, which the summary says
    QVERIFY(s.peakAtLowestLine());
    QVERIFY2(
        cli.err.contains(QStringLiteral("reaction:J11.mx: largest at or below 0.976562 Hz, the lowest line, "
                                        "amplitude %1, possibly read low (a longer --segment, or run, resolves it)")
                             .arg(QString::fromStdString(kt::formatSignificant(s.amplitude[1], 6)))),
        qPrintable(cli.err));
  }

  // fatigue: the table's cycles, largest range and DEL are the core's on simulate's column; the
  // cycles file lists every cycle, the histogram file holds them all.
  void fatigueIsTheCoreCountOfTheRun() {
    QTemporaryDir dir;
    const QString model = kt::test::example("space_robot.yaml");
    const kt::test::CliRun run =
        kt::test::runCli({"simulate", model, "--duration", "3", "--signals", "load:J12.mz,tau:J12*"});
    QCOMPARE(run.code, 0);
    const Table series = parse(run.out);
    const QString cyclesFile = dir.filePath("cycles.csv"), histogramFile = dir.filePath("histogram.csv");
    const kt::test::CliRun cli =
        kt::test::runCli({"fatigue", model, "--duration", "3", "--signals", "load:J12.mz,tau:J12*", "--wohler", "10",
                          "--csv", "--cycles", cyclesFile, "--histogram", histogramFile, "--bins", "4,3"});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    const Table table = parse(cli.out);
    QCOMPARE(table.names.front(), QStringLiteral("signal"));
    const QStringList rows = cli.out.split('\n', Qt::SkipEmptyParts).mid(1);
    QCOMPARE(rows.size(), 2);
    for (qsizetype r = 0; r < rows.size(); ++r) {
      const QStringList cells = rows[r].split(',');
      const std::vector<double> x = series.column(cells[0]);
      QVERIFY2(!x.empty(), qPrintable(cells[0]));
      const std::vector<kt::Cycle> cycles = kt::rainflow(x);
      QCOMPARE(cells[1].toDouble(), kt::cycleCount(cycles));
      double largest = 0.0;
      for (const kt::Cycle& c : cycles) largest = std::max(largest, c.range);
      QCOMPARE(cells[2].toDouble(), largest);
      // N_eq: one a second, to the time of the last sample
      const double nEq = series.column("time").back();
      QVERIFY(std::abs(nEq - 3.0) < 1e-12);
      QCOMPARE(cells[5].toDouble(), kt::damageEquivalentLoad(cycles, 10.0, nEq));
      QCOMPARE(cells[6].toDouble(), 10.0);
      QCOMPARE(cells[7].toDouble(), nEq);
      // the files: every cycle, and the histogram's 4 × 3 bins holding them all
      double listed = 0.0, binned = 0.0;
      int bins = 0;
      for (const QString& line : QString::fromUtf8(kt::test::readAll(cyclesFile)).split('\n', Qt::SkipEmptyParts))
        if (line.startsWith(cells[0] + ",")) listed += line.split(',')[3].toDouble();
      for (const QString& line : QString::fromUtf8(kt::test::readAll(histogramFile)).split('\n', Qt::SkipEmptyParts))
        if (line.startsWith(cells[0] + ",")) {
          binned += line.split(',')[5].toDouble();
          ++bins;
        }
      QCOMPARE(listed, kt::cycleCount(cycles));
      QCOMPARE(binned, kt::cycleCount(cycles));
      QCOMPARE(bins, 12);
    }
    // the readable table names the method's constants
    const kt::test::CliRun text = kt::test::runCli({"fatigue", model, "--duration", "1", "--signals", "load:J12.mz"});
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("DEL (m=4, N=1)") && text.out.contains("load:J12.mz"), qPrintable(text.out));
  }

  // Usage errors: exit 2, a message naming the option, nothing written.
  void badOptionsAreUsageErrors() {
    QTemporaryDir dir;
    const QString model = kt::test::example("pendulum.yaml");
    const QString out = dir.filePath("x.csv");
    const auto fails = [&](const QStringList& args, const char* message) {
      const kt::test::CliRun r = kt::test::runCli(args);
      QVERIFY2(r.code == 2, qPrintable(QString("%1: exit %2").arg(args.join(' ')).arg(r.code)));
      QVERIFY2(r.err.contains(message), qPrintable(r.err));
      QVERIFY(!QFile::exists(out));
    };
    fails({"spectrum", model, "-o", out}, "--signals PATTERN is required");
    fails({"spectrum", model, "--signals", "nothing:*", "-o", out}, "nothing:*");
    fails({"spectrum", model, "--signals", "q:*", "--detrend", "cubic", "-o", out},
          "--detrend: expected none, mean or linear, got 'cubic'");
    fails({"spectrum", model, "--signals", "q:*", "--duration", "0.1", "--segment", "4096", "-o", out},
          "a segment of 4096 samples is longer than the signal");
    fails({"fatigue", model, "--signals", "q:*", "--bins", "4,3", "-o", out}, "--bins needs --histogram");
    fails({"fatigue", model, "--signals", "q:*", "--histogram", out, "--bins", "4", "-o", out},
          "--bins: expected two counts");
    fails({"fatigue", model, "--signals", "q:*", "--wohler", "-1", "-o", out}, "--wohler");
  }
};

QTEST_GUILESS_MAIN(TestCliReports)
#include "test_cli_reports.moc"
