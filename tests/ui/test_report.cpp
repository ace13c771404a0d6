// SPDX-License-Identifier: BSD-3-Clause
// The report of a run (docs/reports.md, "One document"): `kinetree MODEL --run T --report FILE`
// writes a PDF whose peak table reads, cell for cell, as `kinetree-cli peaks` prints it, and an
// HTML page whose CSV downloads are byte for byte `kinetree-cli peaks --csv` and `--cases`; the
// pages rasterize to drawings; a cancelled report writes nothing and leaves the old file; a range
// reports only its rows; File ▸ Export Report… is offered once there is a recording. Saves the
// report's first two pages as report_page1.png and report_page2.png. Runs under xvfb-run.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "core/results/peak_loads.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/output/report_document.hpp"
#include "resources/resources.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/results/report/export_report_dialog.hpp"
#include "ui/results/report/run_report.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"

using kt::ui::MainWindow;
using kt::ui::SimulationController;

namespace {

using kt::test::runToEnd;

// Whitespace runs as one space: the table's cells as a line of text.
QString simplified(const QString& s) { return s.simplified(); }

// The payload of the CSV link named `name` in a report page.
QByteArray csvLink(const QByteArray& html, const QString& name) {
  const QRegularExpression link(QStringLiteral("download=\"%1\" href=\"data:text/csv;charset=utf-8;base64,([^\"]*)\"")
                                    .arg(QRegularExpression::escape(name)));
  const QRegularExpressionMatch m = link.match(QString::fromUtf8(html));
  return m.hasMatch() ? QByteArray::fromBase64(m.captured(1).toLatin1()) : QByteArray();
}

QString pdfText(const QString& path) {
  QProcess p;
  p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")});
  if (!p.waitForFinished(60000) || p.exitCode() != 0) return {};
  return QString::fromUtf8(p.readAllStandardOutput());
}

}  // namespace

class TestReport : public QObject {
  Q_OBJECT

 private slots:
  // kinetree MODEL --run T --report FILE.pdf and FILE.html, against kinetree-cli on the same run.
  void reportFromTheCommandLine() {
    QTemporaryDir dir;
    const QString model = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    const auto report = [&](const QString& file, const QString& from = {}, const char* seconds = "--run") {
      QProcess gui;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
      gui.setProcessEnvironment(env);
      gui.start(QStringLiteral(KINETREE_GUI),
                {from.isEmpty() ? model : from, seconds, "1.5", "--report", dir.filePath(file)});
      gui.waitForFinished(120000);
      return std::make_pair(gui.exitCode(), QString::fromLocal8Bit(gui.readAllStandardError()));
    };
    // a rating reached is exit status 3, as kinetree-cli peaks gives (the report is written); a
    // folder that does not exist is refused before the run; --duration is --run
    {
      QFile in(model);
      QVERIFY(in.open(QIODevice::ReadOnly));
      QByteArray text = in.readAll();
      text.replace("rating: {force: 50, moment: 40}", "rating: {force: 50, moment: 0.5}");
      QFile out(dir.filePath(QStringLiteral("overloaded.yaml")));
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(text);
    }
    const auto [overCode, overError] =
        report(QStringLiteral("over.pdf"), dir.filePath(QStringLiteral("overloaded.yaml")), "--duration");
    QVERIFY2(overCode == 3 && overError.contains(QStringLiteral("load ratings reached")), qPrintable(overError));
    QVERIFY(pdfText(dir.filePath(QStringLiteral("over.pdf"))).contains(QStringLiteral("of its moment rating")));
    QVERIFY(pdfText(dir.filePath(QStringLiteral("over.pdf"))).contains(QStringLiteral("0 s to 1.5 s")));
    const auto [lostCode, lostError] = report(QStringLiteral("nowhere/robot.pdf"));
    QCOMPARE(lostCode, 1);
    QVERIFY2(lostError.contains(QStringLiteral("does not exist")) && !lostError.contains(QStringLiteral("report 10")),
             qPrintable(lostError));
    const auto [pdfCode, pdfError] = report(QStringLiteral("robot.pdf"));
    QVERIFY2(pdfCode == 0, qPrintable(pdfError));
    const auto [htmlCode, htmlError] = report(QStringLiteral("robot.html"));
    QVERIFY2(htmlCode == 0, qPrintable(htmlError));
    // the dialog's choices from the command line: the spectra's segment, the DELs' m and N_eq; a
    // bad one is refused before the run, and they need --report
    {
      QProcess gui;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
      gui.setProcessEnvironment(env);
      const auto run = [&](const QStringList& args) {
        gui.start(QStringLiteral(KINETREE_GUI), QStringList{model, "--run", "1.5"} + args);
        gui.waitForFinished(120000);
        return std::make_pair(gui.exitCode(), QString::fromLocal8Bit(gui.readAllStandardError()));
      };
      const QString chosen = dir.filePath(QStringLiteral("chosen.pdf"));
      const auto [code, err] = run({"--report", chosen, "--segment", "256", "--wohler", "3", "--neq", "100"});
      QVERIFY2(code == 0, qPrintable(err));
      const QString chosenText = simplified(pdfText(chosen));
      QVERIFY2(chosenText.contains(QStringLiteral("segments of 256 samples")), qPrintable(chosenText.left(2000)));
      QVERIFY(chosenText.contains(QStringLiteral("DEL (m = 3, N_eq = 100)")));
      const QString refused = dir.filePath(QStringLiteral("refused.pdf"));
      for (const QStringList& bad : {QStringList{"--segment", "1"}, QStringList{"--wohler", "0.5"},
                                     QStringList{"--neq", "-1"}, QStringList{"--segment", "many"}}) {
        const auto [badCode, badError] = run(QStringList{"--report", refused} + bad);
        QVERIFY2(badCode == 2 && badError.contains(bad.front()), qPrintable(badError));
        QVERIFY(!QFile::exists(refused));
      }
      const auto [alone, aloneError] = run({"--segment", "256"});
      QVERIFY2(alone == 2 && aloneError.contains(QStringLiteral("give --report FILE")), qPrintable(aloneError));
    }
    const auto [badCode, badError] = report(QStringLiteral("robot.docx"));
    QCOMPARE(badCode, 2);
    QVERIFY2(badError.contains(QStringLiteral(".pdf or an .html")), qPrintable(badError));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("robot.docx"))));

    // the PDF's peak table: every row of kinetree-cli peaks, cell for cell
    const kt::test::CliRun peaks = kt::test::runCli({QStringLiteral("peaks"), model, "--duration", "1.5"});
    QCOMPARE(peaks.code, 0);
    const QString text = pdfText(dir.filePath(QStringLiteral("robot.pdf")));
    QVERIFY2(!text.isEmpty(), "pdftotext (poppler-utils) is needed");
    const qsizetype tableAt = text.indexOf(QStringLiteral("3 Peak loads"));
    QVERIFY(tableAt > 0);
    QStringList pdfLines = text.mid(tableAt).split(QLatin1Char('\n'));
    for (QString& l : pdfLines) l = simplified(l);
    const QStringList cliLines = peaks.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(cliLines.size(), 14);  // the header and 13 joints
    for (const QString& line : cliLines.mid(1)) {
      const QString row = simplified(line);
      const QString joint = row.section(QLatin1Char(' '), 0, 0);
      const auto found = std::find_if(pdfLines.begin(), pdfLines.end(),
                                      [&](const QString& l) { return l.startsWith(joint + QLatin1Char(' ')); });
      QVERIFY2(found != pdfLines.end(), qPrintable(joint));
      QCOMPARE(*found, row);
    }
    QVERIFY(text.contains(QStringLiteral("1 Model")) && text.contains(QStringLiteral("5 Load cases at the peaks")));
    // a drive as the model gives it: the gains and the reference they follow
    QVERIFY2(simplified(text).contains(
                 QStringLiteral("kp = 200, kd = 40, reference amplitude 0.5, 0.1 Hz, phase -1.571 rad")),
             qPrintable(text.left(3000)));
    QVERIFY(text.contains(QStringLiteral("Amplitude spectrum: loads of J22")));
    QVERIFY(text.contains(QStringLiteral("DEL (m = 4, N_eq = 1.5)")));

    // its pages are drawings: the first with the picture of the model, the second with the table
    QProcess pdftoppm;
    pdftoppm.start(QStringLiteral("pdftoppm"), {"-r", "60", "-png", dir.filePath(QStringLiteral("robot.pdf")),
                                                dir.filePath(QStringLiteral("page"))});
    QVERIFY(pdftoppm.waitForFinished(60000) && pdftoppm.exitCode() == 0);
    const QStringList pages = QDir(dir.path()).entryList({QStringLiteral("page-*.png")}, QDir::Files, QDir::Name);
    QVERIFY2(pages.size() >= 5, qPrintable(pages.join(QLatin1Char(' '))));
    for (const QString& page : pages) {
      const QImage image(dir.filePath(page));
      QCOMPARE(image.size(), QSize(496, 702));  // A4 at 60 dpi
      QVERIFY2(kt::render::greyVariance(image) > 20.0, qPrintable(page));
    }
    QVERIFY(QImage(dir.filePath(pages[0])).save(QStringLiteral("report_page1.png")));
    QVERIFY(QImage(dir.filePath(pages[1])).save(QStringLiteral("report_page2.png")));

    // the HTML page: its CSV downloads are those of kinetree-cli
    const QByteArray html = kt::test::readAll(dir.filePath(QStringLiteral("robot.html")));
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QCOMPARE(html.count("<svg"), html.count("</svg>"));
    QVERIFY(html.count("<svg") >= 9);  // three joints: loads, effort, spectrum
    QVERIFY(html.contains("data:image/png;base64,"));
    const QString casesFile = dir.filePath(QStringLiteral("cases.csv"));
    const kt::test::CliRun csv =
        kt::test::runCli({QStringLiteral("peaks"), model, "--duration", "1.5", "--csv", "--cases", casesFile});
    QCOMPARE(csv.code, 0);
    QCOMPARE(csvLink(html, QStringLiteral("peak_loads.csv")), csv.out.toUtf8());
    QCOMPARE(csvLink(html, QStringLiteral("load_cases.csv")), kt::test::readAll(casesFile));
    QVERIFY(csvLink(html, QStringLiteral("fatigue_J22.csv")).startsWith("signal,cycles,"));
  }

  // In the window: a cancelled report writes nothing and leaves the old file; a range reports its
  // rows only; the dialog is offered once there is a recording, and a recording of the initial
  // state alone is refused with the reason.
  void reportFromTheWindow() {
    auto w = kt::test::openWindow(kt::resources::kDefaultModel, QSize(1280, 860));
    QAction* action = w->findChild<QAction*>(QStringLiteral("exportReportAction"));
    QVERIFY(action);
    QString error;
    kt::ui::ReportOptions before;
    QVERIFY(!kt::ui::makeRunReport(w->videoSource(), before, {}, &error));  // only the initial state
    QVERIFY2(error.startsWith(QStringLiteral("Nothing has been run yet: run the simulation (F5)")), qPrintable(error));
    QVERIFY(runToEnd(*w, 1.0));
    QVERIFY(action->isEnabled());
    kt::ui::ReportOptions narrow;
    narrow.t0 = 0.5;
    narrow.t1 = 0.5005;  // within one 2 ms step
    QVERIFY(!kt::ui::makeRunReport(w->videoSource(), narrow, {}, &error));
    QCOMPARE(error, QStringLiteral("The chosen range holds fewer than two recorded samples: widen it"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    {
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old report");
    }
    bool cancelled = false;
    std::vector<double> seen;
    const bool written = kt::ui::writeRunReport(
        w->videoSource(), kt::ui::ReportOptions{}, path, &error,
        [&seen](double fraction) {
          seen.push_back(fraction);
          return fraction < 0.5;
        },
        &cancelled);
    QVERIFY(!written && cancelled && error.isEmpty());
    QCOMPARE(kt::test::readAll(path), QByteArray("old report"));
    QVERIFY(seen.size() >= 3 && std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"report.pdf"});

    // the range [0.2, 0.4] s: the peaks lie in it; the dialog's choices reach the report
    kt::ui::ReportOptions o;
    o.t0 = 0.2;
    o.t1 = 0.4;
    o.joints = 1;
    o.picture = false;
    const std::optional<kt::render::ReportDocument> doc = kt::ui::makeRunReport(w->videoSource(), o, {}, &error);
    QVERIFY2(doc, qPrintable(error));
    int figures = 0, pictures = 0;
    const kt::render::ReportTable* peakTable = nullptr;
    for (const kt::render::ReportBlock& b : doc->blocks) {
      figures += b.kind == kt::render::ReportBlock::Kind::Figure;
      pictures += b.kind == kt::render::ReportBlock::Kind::Picture;
      if (b.kind == kt::render::ReportBlock::Kind::Table && b.table.csvName == QStringLiteral("peak_loads.csv"))
        peakTable = &b.table;
    }
    QCOMPARE(pictures, 0);
    QCOMPARE(figures, 3);  // one joint: loads, effort, spectrum
    QVERIFY(peakTable);
    for (const QStringList& row : peakTable->rows)
      if (row[2] != QStringLiteral("-")) {
        const double t = row[2].toDouble();
        QVERIFY2(t >= 0.2 - 1e-12 && t <= 0.4 + 1e-12, qPrintable(row.join(' ')));
      }
    // the dialog starts from the Plots dock's spectrum segment, and takes N_eq as the Fatigue dock does
    kt::ui::ExportReportDialog dialog(w->videoSource(), {0.2, 0.4}, 512);
    QCOMPARE(dialog.options().spectrumSegment, std::size_t{512});
    dialog.jointsBox()->setValue(2);
    QCOMPARE(dialog.options().joints, 2);
    dialog.equivalentCyclesBox()->setValue(2e6);
    QCOMPARE(dialog.options().nEq, 2e6);
    dialog.segmentBox()->setCurrentIndex(dialog.segmentBox()->count() - 1);  // the whole range: one segment
    QVERIFY(dialog.exportTo(dir.filePath(QStringLiteral("whole.html"))));
    const QByteArray whole = kt::test::readAll(dir.filePath(QStringLiteral("whole.html")));
    QVERIFY(whole.contains("Load report: space_robot"));
    QVERIFY2(whole.contains("samples (1 averaged)") && !whole.contains("segments of 1024 samples"), whole.constData());
    QVERIFY(whole.contains("N_eq = 2e+06)"));
  }

  // The joints a report shows first: rated by utilisation, then the others by relative load.
  void mostLoadedJointsFirst() {
    std::vector<kt::JointPeaks> joints(4);
    const auto peak = [](double v) {
      kt::Peak p;
      p.add(v, 0.1);
      return p;
    };
    joints[0].force = peak(100.0);  // the largest load, unrated
    joints[1].force = peak(10.0);
    joints[1].rating.force = 50.0;  // 20 %
    joints[2].moment = peak(4.0);
    joints[2].rating.moment = 5.0;  // 80 %
    joints[3].force = peak(1e-6);   // rounding noise
    QCOMPARE(kt::mostLoadedJoints(joints, 10), (std::vector<std::size_t>{2, 1, 0}));
    QCOMPARE(kt::mostLoadedJoints(joints, 1), (std::vector<std::size_t>{2}));
    // no load at all (a free body in zero gravity): no joint
    std::vector<kt::JointPeaks> unloaded(2);
    unloaded[0].force = peak(0.0);
    unloaded[1].moment = peak(0.0);
    QVERIFY(kt::mostLoadedJoints(unloaded, 3).empty());
    // moments of rounding noise (a planar pendulum) rank nothing: the forces decide
    std::vector<kt::JointPeaks> planar(2);
    planar[0].force = peak(20.0);
    planar[0].moment = peak(1e-18);
    planar[1].force = peak(5.0);
    planar[1].moment = peak(2e-17);
    QCOMPARE(kt::mostLoadedJoints(planar, 2), (std::vector<std::size_t>{0, 1}));
  }

  // The PDF keeps every word of a paragraph longer than a page (the rest goes on to the next
  // pages), breaks a word longer than a line, and keeps a table's numbers whole when a name is
  // too long for the page.
  void longTextAndWideTables() {
    kt::render::ReportDocument doc;
    doc.title = QStringLiteral("Report of a model with a long name ") + QString(120, QLatin1Char('A'));
    QStringList words;
    for (int k = 0; k < 3000; ++k) words << QStringLiteral("word%1").arg(k);
    doc.paragraph(words.join(QLatin1Char(' ')));
    kt::render::ReportTable t;
    t.header = {"joint", "|F| (N)", "t (s)"};
    t.rows = {{QStringLiteral("joint_") + QString(150, QLatin1Char('x')) + QStringLiteral("_end"), "56.8337", "0.475"}};
    t.rightAligned = {false, true, true};
    doc.table(t);
    QString error;
    const QByteArray pdf = kt::render::reportPdf(doc, &error);
    QVERIFY2(!pdf.isEmpty(), qPrintable(error));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.pdf"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(pdf) == pdf.size());
    file.close();
    const QString text = pdfText(path);
    QVERIFY2(!text.isEmpty(), "pdftotext (poppler-utils) is needed");
    QVERIFY(text.contains(QStringLiteral("word0 ")) && text.contains(QStringLiteral("word2999")));
    QVERIFY(text.contains(QStringLiteral("page 2 of")));
    QVERIFY2(text.contains(QStringLiteral("56.8337")) && text.contains(QStringLiteral("0.475")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("…")));  // the name shortened in the middle
  }

  // A run cut short by a full recording is reported, with the warning, rather than not at all;
  // --case-components without --cases is a usage error before any model is read.
  void aFullRecordingIsReported() {
    QTemporaryDir dir;
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("KINETREE_RECORDING_LIMIT_MB"), QStringLiteral("1"));
    gui.setProcessEnvironment(env);
    const QString pdf = dir.filePath(QStringLiteral("full.pdf"));
    gui.start(QStringLiteral(KINETREE_GUI),
              {QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml"), "--run", "20", "--report", pdf});
    QVERIFY(gui.waitForFinished(120000));
    const QString err = QString::fromLocal8Bit(gui.readAllStandardError());
    QVERIFY2(gui.exitCode() == 1, qPrintable(err));  // written, and a script learns the run stopped short
    QVERIFY2(err.contains(QStringLiteral("recording full")), qPrintable(err));
    QVERIFY(pdfText(pdf).contains(QStringLiteral("The recording was full")));
    const kt::test::CliRun usage = kt::test::runCli({"peaks", "/nonexistent.yaml", "--case-components"});
    QCOMPARE(usage.code, 2);
  }

  // Report tables as CSV quote what needs quoting (RFC 4180).
  void tableCsvQuotes() {
    QCOMPARE(kt::render::tableCsv({"a", "b"}, {{"1,5", "say \"x\""}}), QByteArray("a,b\n\"1,5\",\"say \"\"x\"\"\"\n"));
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestReport>(argc, argv, "test_report"); }
#include "test_report.moc"
