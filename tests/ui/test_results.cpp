// SPDX-License-Identifier: BSD-3-Clause
// The recorded run as something to inspect and export, in the main window: the timeline
// (scrubbing shows the recorded q in the 3D view, keys step one sample, replay reads the
// recording back without simulating, a click on a plot moves the shown time), the run label and
// the status ("finished", "applies at the next run"), File ▸ Export Results (byte for byte the CSV
// of kinetree-cli simulate, with its metadata record), the Peak Loads dock (byte for byte
// kinetree-cli peaks --csv) and File ▸ Export Video (decoded back: codec, size, frame count,
// frames that change); on a full disk each of them, and kinetree --screenshot, keeps the old file
// and gives the reason. Runs under xvfb-run; saves screenshots of the timeline and the dock.
#include <vtkActor.h>
#include <vtkAxis.h>
#include <vtkChartXY.h>
#include <vtkCoordinate.h>
#include <vtkProperty.h>
#include <vtkTextActor.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>
#include <utility>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include "core/dynamics/cfa/cfa_dense.hpp"
#include "core/dynamics/kernels/articulated_inertia.hpp"
#include "core/dynamics/kinematics.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"
#include "core/io/atomic_file.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/recorder.hpp"
#include "render/bridge/offscreen.hpp"
#include "render/charts/chart_pane.hpp"
#include "render/charts/figure_view.hpp"
#include "render/charts/matrix_view.hpp"
#include "render/output/video_writer.hpp"
#include "render/overlays/free_body_arrows.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/model_scene.hpp"
#include "render/scene/scene_view.hpp"
#include "resources/resources.hpp"
#include "support/cli_runner.hpp"
#include "support/files.hpp"
#include "support/window_fixture.hpp"
#include "support/window_test_main.hpp"
#include "ui/document/document.hpp"
#include "ui/document/edit_commands.hpp"
#include "ui/document/field_commands.hpp"
#include "ui/document/problems_model.hpp"
#include "ui/editor/problems_dock.hpp"
#include "ui/editor/selection.hpp"
#include "ui/files/file_actions.hpp"
#include "ui/results/export/export_results_dialog.hpp"
#include "ui/results/export/results_export.hpp"
#include "ui/results/fatigue_dock.hpp"
#include "ui/results/joint_load_view.hpp"
#include "ui/results/peak_loads_dock.hpp"
#include "ui/results/plots_dock.hpp"
#include "ui/results/video/video_export.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/simulation/simulation_controller.hpp"
#include "ui/simulation/timeline_bar.hpp"
#include "ui/teaching/compare_solvers_dialog.hpp"
#include "ui/teaching/mathematics_dock.hpp"

using kt::ui::Document;
using kt::ui::MainWindow;
namespace edit = kt::ui::edit;
using kt::ui::SimulationController;

namespace {

std::unique_ptr<MainWindow> openWindow(const QString& model) { return kt::test::openWindow(model, QSize(1280, 860)); }

using kt::test::readAll;
using kt::test::runToEnd;

// What a decoded video holds.
struct Decoded {
  QString codec;
  int width = 0, height = 0, frames = 0;
  QImage first, middle, last;
};

Decoded decode(const QString& path) {
  Decoded d;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, path.toLocal8Bit().constData(), nullptr, nullptr) < 0) return d;
  avformat_find_stream_info(format, nullptr);
  const int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  const AVCodecParameters* par = format->streams[stream]->codecpar;
  const AVCodec* codec = avcodec_find_decoder(par->codec_id);
  d.codec = QString::fromLatin1(avcodec_get_name(par->codec_id));
  d.width = par->width;
  d.height = par->height;
  AVCodecContext* ctx = avcodec_alloc_context3(codec);
  avcodec_parameters_to_context(ctx, par);
  avcodec_open2(ctx, codec, nullptr);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  SwsContext* sws = nullptr;
  std::vector<QImage> images;
  const auto take = [&] {
    while (avcodec_receive_frame(ctx, frame) == 0) {
      QImage image(frame->width, frame->height, QImage::Format_RGB32);
      sws =
          sws_getCachedContext(sws, frame->width, frame->height, static_cast<AVPixelFormat>(frame->format),
                               frame->width, frame->height, AV_PIX_FMT_RGB32, SWS_BILINEAR, nullptr, nullptr, nullptr);
      uint8_t* dst[1] = {image.bits()};
      const int stride[1] = {static_cast<int>(image.bytesPerLine())};
      sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, stride);
      images.push_back(image);
    }
  };
  while (av_read_frame(format, packet) >= 0) {
    if (packet->stream_index == stream) {
      avcodec_send_packet(ctx, packet);
      take();
    }
    av_packet_unref(packet);
  }
  avcodec_send_packet(ctx, nullptr);
  take();
  d.frames = static_cast<int>(images.size());
  if (!images.empty()) {
    d.first = images.front();
    d.middle = images[images.size() / 2];
    d.last = images.back();
  }
  sws_freeContext(sws);
  av_frame_free(&frame);
  av_packet_free(&packet);
  avcodec_free_context(&ctx);
  avformat_close_input(&format);
  return d;
}

}  // namespace

class TestResults : public QObject {
  Q_OBJECT

 private slots:
  // Scrubbing to a recorded time moves every body of the 3D view to the pose of the recorded q
  // there; the status bar and the timeline say that a recorded time is shown; Live goes back.
  void scrubbingShowsTheRecordedState() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runToEnd(*w, 1.0));
    SimulationController* sim = w->simulation();
    kt::ui::TimelineBar* timeline = w->timeline();
    QSlider* slider = timeline->slider();
    const kt::Recorder& rec = *sim->recorder();
    QCOMPARE(slider->maximum(), static_cast<int>(rec.size()) - 1);
    QCOMPARE(slider->value(), slider->maximum());  // live: the newest sample
    for (const int row : {0, 137, 250, 499}) {
      slider->setValue(row);
      QVERIFY(!sim->showsLive());
      QCOMPARE(sim->shownIndex(), static_cast<std::size_t>(row));
      std::vector<double> recorded(static_cast<std::size_t>(rec.width()));
      rec.copyRows(static_cast<std::size_t>(row), static_cast<std::size_t>(row) + 1, recorded.data());
      QCOMPARE(sim->shownTime(), recorded[0]);
      Eigen::VectorXd q;
      sim->signalLayout()->positionsFromRow(recorded.data(), q);
      kt::Kinematics kin;
      kin.resize(*sim->tree());
      kt::computePositionKinematics(*sim->tree(), q, kin);
      const kt::render::ModelScene& scene = w->sceneView()->scene();
      for (int i = 0; i < sim->tree()->nb; ++i) {
        const Eigen::Matrix3d R = kin.X_0[static_cast<std::size_t>(i)].E.transpose();
        const Eigen::Vector3d p = kin.X_0[static_cast<std::size_t>(i)].r;
        const Eigen::Matrix4d& pose = scene.bodyPose(i);
        QVERIFY2((pose.topLeftCorner<3, 3>() - R).norm() < 1e-12 && (pose.topRightCorner<3, 1>() - p).norm() < 1e-12,
                 qPrintable(QStringLiteral("body %1 at row %2").arg(i).arg(row)));
      }
      QVERIFY(w->statusBar()->findChild<QLabel*>(QStringLiteral("simTimeLabel"))->text().contains("recorded"));
      QVERIFY(timeline->timeLabel()->text().contains(QStringLiteral("of 1.000 s")));
    }
    timeline->showLive();
    QVERIFY(sim->showsLive());
    QCOMPARE(slider->value(), slider->maximum());
    QVERIFY(!w->statusBar()->findChild<QLabel*>(QStringLiteral("simTimeLabel"))->text().contains("recorded"));
  }

  // Arrow keys step one sample, Page keys a twentieth, Home and End jump to the ends.
  void timelineKeys() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runToEnd(*w, 0.5));
    SimulationController* sim = w->simulation();
    QSlider* slider = w->timeline()->slider();
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    QCOMPARE(sim->shownIndex(), std::size_t(0));
    QTest::keyClick(slider, Qt::Key_Right);
    QTest::keyClick(slider, Qt::Key_Right);
    QCOMPARE(sim->shownIndex(), std::size_t(2));
    QCOMPARE(sim->shownTime(), 2 * sim->activeOptions().step);
    QTest::keyClick(slider, Qt::Key_Left);
    QCOMPARE(sim->shownIndex(), std::size_t(1));
    QTest::keyClick(slider, Qt::Key_End);
    QCOMPARE(sim->shownIndex(), sim->recorder()->size() - 1);
  }

  // Replay reads the recording back (no new samples) at the chosen speed and stops at its end.
  void replayReadsTheRecordingBack() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runToEnd(*w, 0.5));
    SimulationController* sim = w->simulation();
    kt::ui::TimelineBar* timeline = w->timeline();
    const std::size_t rows = sim->recorder()->size();
    timeline->setReplaySpeed(0.5);
    timeline->showSample(0);
    timeline->replay(true);
    QVERIFY(timeline->isReplaying());
    QTest::qWait(300);
    const double t = sim->shownTime();
    QVERIFY2(t > 0.05 && t < 0.5, qPrintable(QString::number(t)));  // about 0.15 s at ×0.5
    QCOMPARE(sim->recorder()->size(), rows);                        // nothing simulated
    QVERIFY(QTest::qWaitFor([&] { return !timeline->isReplaying(); }, 5000));
    QCOMPARE(sim->shownIndex(), rows - 1);
  }

  // A click on a plot pane shows that time everywhere, and every pane draws its time cursor.
  void clickOnAPlotMovesTheShownTime() {
    auto w = openWindow(kt::resources::kDefaultModel);
    w->plotsDock()->show();
    QVERIFY(runToEnd(*w, 1.0));
    SimulationController* sim = w->simulation();
    w->plotsDock()->redraw();
    auto* pane = static_cast<kt::render::ChartPane*>(w->plotsDock()->paneWidget(0));
    pane->renderToImage();  // lays the axes out
    const auto [t0, t1] = pane->visibleTimeRange();
    QVERIFY(t1 > t0);
    // the pixel of t = 0.3 s, from the pane's own mapping, clicked
    int x = 0;
    while (x < pane->width() && pane->timeAt(x) < 0.3) ++x;
    QTest::mouseClick(pane, Qt::LeftButton, {}, QPoint(x, pane->height() / 2));
    QVERIFY(!sim->showsLive());
    QVERIFY2(std::abs(sim->shownTime() - 0.3) < 0.01, qPrintable(QString::number(sim->shownTime())));
    QVERIFY(pane->autoscale());  // a click is not a pan
    for (int p = 0; p < kt::ui::PlotsDock::kPaneCount; ++p) QCOMPARE(w->plotsDock()->cursorTime(p), sim->shownTime());
    w->timeline()->showLive();
    QVERIFY(std::isnan(w->plotsDock()->cursorTime(0)));
  }

  // The run label says what produced the run and that it finished; the status says "finished";
  // a solver chosen for the next run says so until then.
  void runLabelAndPendingSettings() {
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = w->simulation();
    QVERIFY(w->timeline()->runLabel()->text().contains(QStringLiteral("space_robot · aba · rk4, h = 0.002 s")));
    QVERIFY(w->timeline()->runLabel()->text().contains(QStringLiteral("ready at t = 0")));
    QVERIFY(runToEnd(*w, 0.2));
    QVERIFY2(w->timeline()->runLabel()->text().contains(QStringLiteral("finished at t = 0.200 s")),
             qPrintable(w->timeline()->runLabel()->text()));
    QCOMPARE(w->statusBar()->findChild<QLabel*>(QStringLiteral("realTimeFactorLabel"))->text(), QString("finished"));
    auto* pending = w->findChild<QAction*>(QStringLiteral("pendingSettingsAction"));
    QVERIFY(pending && !pending->isVisible());
    sim->setSolver(QStringLiteral("cfa-tree"));
    QVERIFY(pending->isVisible());
    QVERIFY(w->timeline()->runLabel()->text().contains(QStringLiteral("· aba ·")));  // the run shown
    sim->run();                                                                      // a new run with the new solver
    QVERIFY(!pending->isVisible());
    QVERIFY(w->timeline()->runLabel()->text().contains(QStringLiteral("· cfa-tree ·")));
    sim->pause();
  }

  // Peak Loads ▸ Load Cases…: the state and every joint's wrench at each peak, the file
  // `kinetree-cli peaks --cases` writes for the same run (CSV and JSON), and with
  // --case-components also at each reaction and effort component's peak.
  void loadCasesFromThePeakLoadsDock() {
    const QString model = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    auto w = openWindow(model);
    QVERIFY(runToEnd(*w, 1.0));
    kt::ui::PeakLoadsDock* dock = w->peakLoadsDock();
    dock->show();
    dock->raise();
    dock->refresh();
    QPushButton* cases = dock->findChild<QPushButton*>(QStringLiteral("peakCasesButton"));
    QVERIFY(cases && cases->isEnabled());
    // every time to the output step's place (2 ms: three decimals), whatever its column's largest
    // (a column of times under 1 s read "0.2800" beside "3.634"); |τ| in the unit of the joints
    // that act, all revolute here
    const QAbstractItemModel* table = dock->table()->model();
    for (int r = 0; r < table->rowCount(); ++r)
      for (int c :
           {kt::ui::PeakLoadsDock::ForceTime, kt::ui::PeakLoadsDock::MomentTime, kt::ui::PeakLoadsDock::EffortTime}) {
        const QString text = table->index(r, c).data().toString();
        QVERIFY2(text == QStringLiteral("\u2014") || text.section(QLatin1Char('.'), 1).size() == 3, qPrintable(text));
      }
    QCOMPARE(table->headerData(kt::ui::PeakLoadsDock::Effort, Qt::Horizontal).toString(), QStringLiteral("|τ| (N·m)"));
    QTemporaryDir dir;
    for (const char* name : {"cases.csv", "cases.json"}) {
      const QString mine = dir.filePath(QStringLiteral("app-") + name), cli = dir.filePath(name);
      QString error;
      QVERIFY2(dock->exportLoadCases(mine, &error), qPrintable(error));
      const kt::test::CliRun run = kt::test::runCli({"peaks", model, "--duration", "1", "--cases", cli});
      QVERIFY2(run.code == 0, qPrintable(run.err));
      QCOMPARE(readAll(mine), readAll(cli));
    }
    // with every reaction and effort component's peak (the button's second menu entry)
    QVERIFY(cases->menu() && dock->findChild<QAction*>(QStringLiteral("componentCasesAction")));
    const QString mine = dir.filePath(QStringLiteral("app-components.csv")), cli = dir.filePath("components.csv");
    QString error;
    QVERIFY2(dock->exportLoadCases(mine, &error, true), qPrintable(error));
    const kt::test::CliRun run =
        kt::test::runCli({"peaks", model, "--duration", "1", "--cases", cli, "--case-components"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    QCOMPARE(readAll(mine), readAll(cli));
    QVERIFY(readAll(mine).contains(",J11,tau:J11[0],"));
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QVERIFY(dock->grab().save(QStringLiteral("/tmp/kinetree-shots/peak-loads-cases.png")));
  }

  // View ▸ Fatigue: the selected joint's load signals counted as `kinetree-cli fatigue --csv`
  // counts them, to the last bit; m and N_eq change the DEL; Export writes the same CSV.
  void fatigueDockIsTheCli() {
    const QString model = QStringLiteral(KINETREE_SOURCE_DIR "/examples/space_robot.yaml");
    auto w = openWindow(model);
    kt::ui::FatigueDock* dock = w->fatigueDock();
    QAction* show = w->findChild<QAction*>(QStringLiteral("fatigueDockAction"));
    QVERIFY(show);
    show->trigger();
    QVERIFY(dock->isVisible());
    QVERIFY(runToEnd(*w, 1.0));
    const kt::Tree& tree = *w->simulation()->tree();
    const int j11 =
        static_cast<int>(std::find(tree.jointNames.begin(), tree.jointNames.end(), "J11") - tree.jointNames.begin());
    // before a joint is asked for, the most loaded one; the free base's loads are rounding noise
    kt::PeakLoads peaks(tree, *w->simulation()->signalLayout());
    peaks.addRecorded(*w->simulation()->recorder(), 0);
    const std::vector<std::size_t> most = kt::mostLoadedJoints(peaks.joints(), 1);
    QCOMPARE(most.size(), std::size_t{1});
    QCOMPARE(dock->joint(), peaks.joints()[most.front()].joint);
    QVERIFY(dock->joint() != 0);
    dock->setJoint(0);
    QCOMPARE(dock->table()->item(0, 0)->text(), QStringLiteral("load:base_joint.fx"));
    QCOMPARE(dock->table()->item(0, 5)->text(), QStringLiteral("-"));
    QVERIFY(dock->table()->item(0, 5)->toolTip().startsWith(QStringLiteral("Rounding noise")));
    dock->setJoint(j11);
    QCOMPARE(dock->joint(), j11);
    // load: (6), reaction: (5 of a revolute joint), tau: (1)
    QCOMPARE(dock->table()->rowCount(), 12);
    const kt::test::CliRun cli = kt::test::runCli(
        {"fatigue", model, "--duration", "1", "--signals", "load:J11.*,reaction:J11.*,tau:J11*", "--csv"});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QCOMPARE(QString::fromStdString(dock->csv()), cli.out);
    dock->setWohler(10.0);
    dock->setEquivalentCycles(1e6);
    const kt::test::CliRun ten =
        kt::test::runCli({"fatigue", model, "--duration", "1", "--signals", "load:J11.*,reaction:J11.*,tau:J11*",
                          "--csv", "--wohler", "10", "--neq", "1e6"});
    QCOMPARE(QString::fromStdString(dock->csv()), ten.out);
    QTemporaryDir dir;
    const QString file = dir.filePath("fatigue.csv");
    QString error;
    QVERIFY2(dock->exportCsv(file, &error), qPrintable(error));
    QCOMPARE(readAll(file), ten.out.toUtf8());
    QVERIFY(QDir().mkpath(QStringLiteral("/tmp/kinetree-shots")));
    QVERIFY(dock->grab().save(QStringLiteral("/tmp/kinetree-shots/fatigue-dock.png")));
    QVERIFY(w->grab().save(QStringLiteral("/tmp/kinetree-shots/fatigue-window.png")));
  }

  // File ▸ Export Results: the CSV of kinetree-cli simulate, byte for byte, with its metadata;
  // the plots' time range, a pattern and every k-th sample select rows and columns.
  void exportedCsvIsSimulatesCsv_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("space robot") << QStringLiteral(":/examples/space_robot.yaml");
    QTest::newRow("humanoid") << QStringLiteral(":/examples/humanoid.yaml");
  }
  void exportedCsvIsSimulatesCsv() {
    QFETCH(QString, model);
    QTemporaryDir dir;
    // the example as a file, for the CLI and for the metadata's file hash
    const QString file = dir.filePath(QFileInfo(model).fileName());
    QVERIFY(QFile::copy(model, file));
    auto w = openWindow(file);
    QVERIFY(runToEnd(*w, 1.0));
    const kt::test::CliRun cli = kt::test::runCli({"simulate", file, "--duration", "1"});
    QCOMPARE(cli.code, 0);
    const QString csv = dir.filePath("run.csv");
    QString error;
    QVERIFY2(kt::ui::ResultsExport::write(*w->simulation(), {}, csv, &error), qPrintable(error));
    QCOMPARE(readAll(csv), cli.out.toUtf8());
    // the metadata record
    const QString meta = kt::ui::ResultsExport::metadataPath(csv);
    QCOMPARE(QFileInfo(meta).fileName(), QString("run.meta.json"));
    const QJsonObject root = QJsonDocument::fromJson(readAll(meta)).object();
    QCOMPARE(root["run"].toObject()["solver"].toString(), QString("aba"));
    QCOMPARE(root["model"].toObject()["file"].toString(), file);
    QCOMPARE(root["model"].toObject()["file_sha256"].toString().size(), 64);
    QCOMPARE(root["data"].toObject()["rows"].toInt(), cli.out.count('\n') - 1);
    QVERIFY(root["run"].toObject()["state"].toString().startsWith("finished"));
    // a full disk (injected: ENOSPC after 100 bytes) at the CSV or at its metadata: the reason,
    // and the file that failed keeps its old bytes
    const QByteArray oldMeta = readAll(meta);
    QVERIFY(QFile::resize(csv, 10));  // an old CSV that differs from the new one
    for (int nth : {1, 2}) {
      kt::setWriteFailureForTesting(nth, 100);
      const bool written = kt::ui::ResultsExport::write(*w->simulation(), {}, csv, &error);
      kt::setWriteFailureForTesting(0);
      QVERIFY(!written);
      QVERIFY2(error.contains("No space left on device"), qPrintable(error));
      QCOMPARE(readAll(meta), oldMeta);
      QCOMPARE(readAll(csv).size(), nth == 1 ? 10 : cli.out.toUtf8().size());
    }

    // through the dialog: the plots' range, a pattern, every 4th sample
    kt::ui::ExportResultsDialog dialog(*w->simulation(), {}, {0.25, 0.5}, w.get());
    kt::ui::ResultsExportOptions o;
    o.wholeRun = false;
    o.t0 = 0.25;
    o.t1 = 0.5;
    o.pattern = QStringLiteral("q:*");
    o.every = 4;
    dialog.setOptions(o);
    const QString part = dir.filePath("part.csv");
    QVERIFY2(dialog.exportTo(part), qPrintable(dialog.lastError()));
    const QStringList lines = QString::fromUtf8(readAll(part)).split('\n', Qt::SkipEmptyParts);
    const kt::test::CliRun qs = kt::test::runCli({"simulate", file, "--duration", "1", "--signals", "q:*"});
    const QStringList all = qs.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.front(), all.front());
    QStringList expected;
    for (int k = 1; k < all.size(); ++k) {
      const double t = all[k].section(',', 0, 0).toDouble();
      if (t >= 0.25 && t <= 0.5) expected << all[k];
    }
    QStringList everyFourth;
    for (int k = 0; k < expected.size(); k += 4) everyFourth << expected[k];
    QCOMPARE(lines.mid(1), everyFourth);
    QCOMPARE(QJsonDocument::fromJson(readAll(kt::ui::ResultsExport::metadataPath(part)))
                 .object()["data"]
                 .toObject()["angles"]
                 .toString(),
             QString("rad"));

    // angles in degrees when asked: the dialog's check box, the columns' names and the metadata say so
    o.anglesInDegrees = true;
    dialog.setOptions(o);
    QVERIFY(dialog.findChild<QCheckBox*>("exportDegrees")->isChecked());
    const QString deg = dir.filePath("deg.csv");
    QVERIFY2(dialog.exportTo(deg), qPrintable(dialog.lastError()));
    const QStringList degLines = QString::fromUtf8(readAll(deg)).split('\n', Qt::SkipEmptyParts);
    QVERIFY2(degLines.front().contains("[0] (deg),"), qPrintable(degLines.front()));
    QVERIFY(!degLines.front().contains("q:pelvis[0] (deg)"));  // positions stay in metres
    QCOMPARE(QJsonDocument::fromJson(readAll(kt::ui::ResultsExport::metadataPath(deg)))
                 .object()["data"]
                 .toObject()["angles"]
                 .toString(),
             QString("deg"));
  }

  // A joint whose peak reached its rating is a warning in the Problems dock once the run stops,
  // at its rating field; a rating raised after the run clears it, and so does File ▸ New, or
  // opening a model that cannot run (the run's end must not bring its warnings back).
  void ratingsReachedAreProblems() {
    auto w = openWindow(kt::resources::kDefaultModel);
    Document* doc = &w->document();
    const auto warnings = [&] {
      QStringList out;
      for (const kt::Diagnostic& d : doc->problems()->warnings())
        out << QString::fromStdString(d.path + ": " + d.message);
      return out;
    };
    int j22 = -1;
    for (std::size_t b = 0; b < doc->model().bodies.size(); ++b)
      if (doc->model().bodies[b].joint.name == "J22") j22 = static_cast<int>(b);
    QVERIFY(j22 >= 0);
    QVERIFY(runToEnd(*w, 2.0));  // J22 stays below 100 % of its rating in the first 2 s
    QVERIFY2(warnings().isEmpty(), qPrintable(warnings().join('\n')));
    kt::LoadRating low = doc->model().bodies[static_cast<std::size_t>(j22)].joint.rating;
    low.moment = 1.0;  // N·m: far below what J22 carries
    doc->push(edit::setRating(*doc, j22, low));
    QVERIFY2(warnings().size() == 1, qPrintable(warnings().join('\n')));  // the kept run against the new rating
    const QString text = warnings().front();
    QVERIFY2(text.startsWith(QString("bodies[%1].joint.rating: J22 reached ").arg(j22)), qPrintable(text));
    QVERIFY2(text.contains(" % of its moment rating in the run (") && text.contains(" N·m of 1 N·m at t = "),
             qPrintable(text));
    QVERIFY(w->problemsDock()->summary().contains("warning"));
    doc->undoStack()->undo();  // the rating back: no warning
    QVERIFY2(warnings().isEmpty(), qPrintable(warnings().join('\n')));
    doc->push(edit::setRating(*doc, j22, low));
    QVERIFY(runToEnd(*w, 1.0));          // a new run: its own peaks
    QTRY_COMPARE(warnings().size(), 1);  // set when the results see the run stop, after its state
    // the same joints with the same low rating, and a body of negative mass: it opens to be fixed
    kt::Model broken = doc->model();
    broken.bodies.back().inertial.mass = -1.0;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.yaml"));
    QString error;
    QVERIFY2(Document::writeModelFile(broken, path, &error), qPrintable(error));
    w->files().setUnsavedChangesAnswerForTesting([] { return QMessageBox::Discard; });
    QVERIFY2(w->files().loadModel(path, error), qPrintable(error));
    QVERIFY(!w->isRunnable());
    QVERIFY2(warnings().filter(QStringLiteral("J22 reached")).isEmpty(), qPrintable(warnings().join('\n')));
    doc->newDocument();
    QVERIFY(warnings().isEmpty());
  }

  // The Mathematics dock at the shown sample: M(q) equals the inverse-dynamics columns
  // M e_j = ID(q, 0, e_j) − ID(q, 0, 0), A equals cfa-dense's, zero where the tree does not
  // couple, and L11's free-body diagram balances.
  void mathematicsDock() {
    auto w = openWindow(kt::resources::kDefaultModel);
    w->resize(1400, 950);
    kt::ui::MathematicsDock* dock = w->mathematicsDock();
    QVERIFY(!dock->isVisible());  // opened from the View menu
    dock->show();
    dock->raise();
    QVERIFY(runToEnd(*w, 1.0));
    int l11 = -1;
    for (std::size_t b = 0; b < w->document().model().bodies.size(); ++b)
      if (w->document().model().bodies[b].name == "L11") l11 = static_cast<int>(b);
    w->selection().selectBody(l11);
    w->simulation()->showTime(0.5);
    QApplication::processEvents();
    dock->refresh();
    const kt::Tree& tree = *w->simulation()->tree();
    const Eigen::VectorXd q = w->simulation()->shownPositions();
    // M by columns of inverse dynamics, without gravity
    kt::Tree still = tree;
    still.gravity.setZero();
    kt::RneaWorkspace ws(still);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(tree.nv);
    Eigen::VectorXd h(tree.nv), col(tree.nv);
    kt::inverseDynamics(still, ws, q, zero, zero, {}, h);
    const Eigen::MatrixXd& M = dock->massMatrixView()->matrix();
    QCOMPARE(M.rows(), static_cast<Eigen::Index>(tree.nv));
    for (int j = 0; j < tree.nv; ++j) {
      kt::inverseDynamics(still, ws, q, zero, Eigen::VectorXd::Unit(tree.nv, j), {}, col);
      QVERIFY((M.col(j) - (col - h)).cwiseAbs().maxCoeff() <= 1e-12 * M.cwiseAbs().maxCoeff());
    }
    // arm 1 and arm 2 do not couple: J1k × J2k blocks are zero
    const int j11 = tree.vOffset[static_cast<std::size_t>(tree.jointIndex("J11"))];
    const int j21 = tree.vOffset[static_cast<std::size_t>(tree.jointIndex("J21"))];
    QVERIFY(M.block(j11, j21, 6, 6).isZero(0.0));
    QVERIFY(dock->massMatrixView()->zeroCount() >= 72);
    QVERIFY(dock->massMatrixView()->valueTextAt(QPoint(-5, -5)).isEmpty());
    // A: cfa-dense's at the same state
    Eigen::VectorXd v, qdd, tau;
    const kt::SignalLayout& layout = *w->simulation()->signalLayout();
    layout.velocityVectorFromRow(kt::SignalKind::Qd, w->simulation()->shownRow().data(), v);
    layout.velocityVectorFromRow(kt::SignalKind::Tau, w->simulation()->shownRow().data(), tau);
    kt::CfaDenseSolver cfa(tree);
    cfa.forwardDynamics(q, v, tau, {}, qdd, nullptr);
    QCOMPARE(dock->constraintMatrixView()->matrix(), cfa.constraintMatrix());
    // the fill of the factors: none in the orders the O(N) solvers use; from the base out, the
    // two arms' 6 × 6 coordinates couple (36 entries of M's factor, and the entries of an arm
    // that happen to be zero at this state)
    QVERIFY2(dock->constraintSummary().contains("leaves first, as cfa-tree eliminates, 0;"),
             qPrintable(dock->constraintSummary()));
    const QString massNote = dock->massSummary();
    QVERIFY2(massNote.contains("it fills 0 entries; from the base out, "), qPrintable(massNote));
    QVERIFY2(massNote.contains("72 because joints on different branches"), qPrintable(massNote));  // the arms
    const int baseFirst = massNote.section("from the base out, ", 1).section('.', 0, 0).toInt();
    QVERIFY2(baseFirst >= 36, qPrintable(massNote));
    // Poisson impulses: p = M ν beside ν, and Ivanov's factor M = U Uᵀ
    QTableWidget* impulses = dock->impulseTable();
    QCOMPARE(impulses->rowCount(), tree.nv);
    const Eigen::VectorXd p = M * v;
    for (int k = 0; k < tree.nv; ++k) QCOMPARE(impulses->item(k, 2)->text(), QString::number(p[k], 'g', 4));
    const Eigen::MatrixXd& U = dock->impulseFactorView()->matrix();
    QVERIFY((U * U.transpose() - M).cwiseAbs().maxCoeff() <= 1e-12 * M.cwiseAbs().maxCoeff());
    QVERIFY(U.block(j11, j21, 6, 6).isZero(0.0) && U.block(j21, j11, 6, 6).isZero(0.0));
    QVERIFY2(
        dock->impulseSummary().contains(QStringLiteral("(0 entries filled; from the base out, %1)").arg(baseFirst)),
        qPrintable(dock->impulseSummary()));
    // L11's free body: its joint, J12 reversed, gravity; then the momentum rate and the residual
    QTableWidget* table = dock->freeBodyTable();
    QCOMPARE(table->rowCount(), 5);
    QVERIFY(table->item(0, 0)->text().startsWith("joint J11 (from base)"));
    QVERIFY(table->item(1, 0)->text().startsWith("joint J12 (to L12), reversed"));
    const QString summary = dock->freeBodySummary();
    QVERIFY2(summary.startsWith("Body L11") && summary.contains("Residual "), qPrintable(summary));
    const double residual = summary.section("Residual ", 1).section(' ', 0, 0).toDouble();
    QVERIFY2(residual < 1e-10, qPrintable(summary));
    // the same diagram in the 3D view while its tab is shown: each wrench where it acts; about
    // the world origin, the terms add up to the momentum rate
    auto* tabWidget = dock->findChild<QTabWidget*>();
    QVERIFY(dock->freeBodyArrows() == nullptr || !dock->freeBodyArrows()->visible());
    tabWidget->setCurrentIndex(3);
    QApplication::processEvents();
    const kt::render::FreeBodyArrows* arrows = dock->freeBodyArrows();
    QVERIFY(arrows && arrows->visible());
    QCOMPARE(arrows->drawn().size(), std::size_t(4));  // J11, J12 reversed, gravity; the momentum rate
    Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
    double largest = 0.0;
    for (std::size_t k = 0; k + 1 < arrows->drawn().size(); ++k) {
      const auto& d = arrows->drawn()[k];
      force += d.force;
      moment += d.moment + d.point.cross(d.force);
      largest = std::max({largest, d.force.norm(), d.moment.norm()});
    }
    const auto& rate = arrows->drawn().back();
    QVERIFY((force - rate.force).norm() <= 1e-9 * largest);
    QVERIFY((moment - rate.moment - rate.point.cross(rate.force)).norm() <= 1e-9 * largest * 10.0);
    QVERIFY(arrows->drawn()[0].forceShown && arrows->drawn()[1].forceShown);
    // J12's load acts at J12's origin, which is not L11's origin
    QVERIFY((arrows->drawn()[1].point - arrows->drawn()[0].point).norm() > 0.1);
    QCOMPARE(arrows->legendLines().size(), std::size_t(5));  // a title and a line per term
    // with the dock's tab behind the Plots the diagram goes, and comes back with it
    w->plotsDock()->raise();
    QTRY_VERIFY(!arrows->visible());
    dock->raise();
    QTRY_VERIFY(arrows->visible());
    // short lines in the lower right corner: none reaches across the view to the model
    for (const std::string& line : arrows->legendLines()) QVERIFY2(line.size() < 70, line.c_str());
    tabWidget->setCurrentIndex(0);
    QApplication::processEvents();
    QVERIFY(!arrows->visible());
    // the space robot floats without gravity and is driven: momentum kept (to the integrator's
    // error), energy not
    const QString kept = dock->conservationSummary();
    QVERIFY2(kept.contains("should conserve the linear and angular momentum") && kept.contains("Drives do work"),
             qPrintable(kept));
    QTableWidget* conservation = dock->conservationTable();
    QCOMPARE(conservation->rowCount(), 9);  // energy: 3, momentum: 6
    for (int r = 3; r < 9; ++r) {
      QVERIFY(conservation->item(r, 0)->text().startsWith("momentum."));
      QVERIFY2(std::abs(conservation->item(r, 4)->text().toDouble()) < 1e-9,
               qPrintable(conservation->item(r, 4)->text()));
    }
    // L11's articulated inertia: what aba propagates, less than the composite of the arm
    const kt::Mat6 IA = kt::articulatedInertias(tree, q)[static_cast<std::size_t>(tree.jointIndex("J11"))];
    QCOMPARE(dock->articulatedInertiaView()->matrix(), Eigen::MatrixXd(IA));
    QVERIFY(IA(3, 3) > dock->rigidInertiaView()->matrix()(3, 3));  // the arm beyond adds to a push
    // a screenshot of each tab (in the build directory's tests/)
    const QStringList tabs = {"mass_matrix", "cfa_system",          "poisson_impulses",
                              "free_body",   "articulated_inertia", "conservation"};
    for (int t = 0; t < tabs.size(); ++t) {
      dock->findChild<QTabWidget*>()->setCurrentIndex(t);
      QApplication::processEvents();
      QVERIFY(w->grab().save(QStringLiteral("screenshot_mathematics_%1.png").arg(tabs[t])));
    }
  }

  // Simulation ▸ Compare Solvers: every solver at the recorded states, the same figures as
  // kinetree-cli compare prints for the same run; the table exports as CSV.
  void compareSolversMatchesTheCli() {
    QTemporaryDir dir;
    const QString file = dir.filePath("space_robot.yaml");
    QVERIFY(QFile::copy(kt::resources::kDefaultModel, file));
    auto w = openWindow(file);
    QVERIFY(runToEnd(*w, 1.0));
    QVERIFY(w->findChild<QAction*>("compareSolversAction")->isEnabled());
    kt::ui::CompareSolversDialog dialog(*w->simulation(), w.get());
    dialog.compareAndWait();
    QCOMPARE(dialog.results().size(), kt::solverRegistry().size());
    QCOMPARE(dialog.results().front().solver, std::string("aba"));
    for (const kt::SolverDifference& d : dialog.results()) QVERIFY2(d.worst() <= 1e-10, d.solver.c_str());
    QVERIFY2(dialog.summary().contains("every solver agrees with aba"), qPrintable(dialog.summary()));
    // no combining diaeresis ("q̈"): fonts without it draw a bare "q"
    const QChar diaeresis(0x0308);
    QVERIFY2(!dialog.summary().contains(diaeresis), qPrintable(dialog.summary()));
    for (int c = 0; c < dialog.table()->columnCount(); ++c) {
      const QTableWidgetItem* header = dialog.table()->horizontalHeaderItem(c);
      QVERIFY2(!header->text().contains(diaeresis) && !header->toolTip().contains(diaeresis),
               qPrintable(header->toolTip()));
    }
    const kt::test::CliRun cli = kt::test::runCli({"compare", file, "--duration", "1"});
    QCOMPARE(cli.code, 0);
    QVERIFY(cli.out.contains("at the 501 states"));
    QTableWidget* table = dialog.table();
    for (int r = 0; r < table->rowCount(); ++r) {
      const QString solver = table->item(r, 0)->text();
      const QString line = cli.out.section('\n' + solver + ' ', 1, 1).section('\n', 0, 0);
      const QStringList cols = line.simplified().split(' ');
      QVERIFY2(cols.size() >= 3, qPrintable(line));
      QCOMPARE(table->item(r, 2)->text(), cols[1]);  // q̈
      QCOMPARE(table->item(r, 3)->text(), cols[2]);  // loads
    }
    const QString csv = dir.filePath("comparison.csv");
    QVERIFY(dialog.exportCsv(csv));
    const QStringList lines = QString::fromUtf8(readAll(csv)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), table->rowCount() + 1);
    QVERIFY(lines.front().startsWith("solver,form,qdd_rel,load_rel"));
    // the figure: one curve per solver besides the reference, q̈'s relative difference over the run
    const kt::render::ChartFigure& figure = dialog.figureView()->figure();
    QCOMPARE(figure.series.size(), dialog.results().size() - 1);
    QVERIFY(figure.left.log);
    for (const kt::render::FigureSeries& s : figure.series) {
      QCOMPARE(s.t.size(), std::size_t(501));
      QVERIFY2(*std::max_element(s.y.begin(), s.y.end()) <= 1e-10, qPrintable(s.name));
    }
    dialog.show();
    QApplication::processEvents();
    QVERIFY(dialog.grab().save(QStringLiteral("screenshot_compare_solvers.png")));
  }

  // Each solver's own run, in the application: the same figures as kinetree-cli compare
  // --trajectory, Liu et al.'s Fig. 11 (the base attitude's difference) drawn on a log scale with
  // the integrator's own difference, the time cursor following the timeline and a click on the
  // figure moving it; the table, the curves and the figure export.
  void compareSolversByTrajectory() {
    QTemporaryDir dir;
    const QString file = dir.filePath("space_robot.yaml");
    QVERIFY(QFile::copy(kt::resources::kDefaultModel, file));
    auto w = openWindow(file);
    QVERIFY(runToEnd(*w, 1.0));
    w->findChild<QAction*>("compareSolversAction")->trigger();
    auto* dialog = w->findChild<kt::ui::CompareSolversDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    dialog->setTrajectory(true);
    dialog->setSolvers({"cfa-tree", "poisson-ldl"});
    dialog->compareAndWait();
    const kt::ui::ComparisonResult& r = dialog->result();
    QVERIFY2(r.error.empty(), r.error.c_str());
    QCOMPARE(r.runs.size(), std::size_t(4));  // aba, aba at h/2, cfa-tree, poisson-ldl
    QVERIFY(r.runs[1].integratorCheck);
    const kt::test::CliRun cli =
        kt::test::runCli({"compare", file, "--trajectory", "--duration", "1", "--solvers", "aba,cfa-tree,poisson-ldl"});
    QCOMPARE(cli.code, 0);
    QTableWidget* table = dialog->table();
    QCOMPARE(table->rowCount(), 4);
    for (int row : {2, 3}) {
      const QString solver = table->item(row, 0)->text().section(' ', 0, 0);
      const QStringList cols = cli.out.section('\n' + solver + ' ', 1, 1).section('\n', 0, 0).simplified().split(' ');
      QVERIFY2(cols.size() >= 4, qPrintable(cli.out));
      QCOMPARE(table->item(row, 1)->text(), cols[0]);  // q
      QCOMPARE(table->item(row, 3)->text(), cols[2]);  // loads
    }
    QVERIFY2(dialog->summary().startsWith("Every run agrees with aba"), qPrintable(dialog->summary()));
    // the figure: roll, pitch and yaw of the base for each solver, then the integrator's own in
    // grey; a colour for each run, a line for each signal, and a legend naming each once
    const kt::render::ChartFigure& figure = dialog->figureView()->figure();
    QCOMPARE(figure.series.size(), std::size_t(9));
    QVERIFY(figure.left.log);
    QVERIFY2(figure.left.label.contains("rad"), qPrintable(figure.left.label));
    QCOMPARE(figure.legend.size(), std::size_t(6));
    QCOMPARE(figure.legend[0].name, QStringLiteral("poisson-ldl · rk4"));
    QVERIFY2(figure.legend[2].name.endsWith("(the integrator's own)"), qPrintable(figure.legend[2].name));
    QCOMPARE(figure.legend[5].name, QStringLiteral("attitude:base.yaw"));
    QCOMPARE(figure.legend[5].style, Qt::DotLine);
    double cfa = 0.0, poisson = 0.0, integrator = 0.0;
    for (std::size_t k = 0; k < figure.series.size(); ++k) {
      const kt::render::FigureSeries& s = figure.series[k];
      QCOMPARE(s.color, figure.legend[k / 3].color);
      QCOMPARE(s.style, figure.legend[3 + k % 3].style);
      const double peak = *std::max_element(s.y.begin(), s.y.end());
      if (s.name.startsWith("cfa-tree")) cfa = std::max(cfa, peak);
      if (s.name.startsWith("poisson-ldl")) poisson = std::max(poisson, peak);
      if (s.name.contains("h/2")) integrator = std::max(integrator, peak);
    }
    QCOMPARE(figure.legend[2].color, QColor(110, 110, 110));
    QVERIFY(figure.legend[0].color != figure.legend[1].color);
    QVERIFY2(cfa < 1e-12, qPrintable(QString::number(cfa)));  // the same state variables
    QVERIFY2(poisson > 10 * cfa && poisson < 10 * integrator, qPrintable(QString::number(poisson)));
    // the timeline moves the cursor; a click on the figure moves the timeline
    w->simulation()->showTime(0.5);
    QApplication::processEvents();
    QCOMPARE(dialog->figureView()->figure().cursor, w->simulation()->shownTime());
    const QString readout = dialog->findChild<QLabel*>("compareReadout")->text();
    QVERIFY2(readout.startsWith("t = 0.500 s · attitude:base.roll, .pitch, .yaw:   poisson-ldl · rk4 "),
             qPrintable(readout));
    QCOMPARE(readout.count("attitude"), 1);
    QVERIFY2(readout.contains(";   cfa-tree · rk4 "), qPrintable(readout));
    // more signals than lines: a colour for each curve, one legend entry each
    dialog->setSignals("q:J1*");
    QCOMPARE(dialog->figureView()->figure().series.size(), std::size_t(18));
    QVERIFY(dialog->figureView()->figure().legend.empty());
    QVERIFY(dialog->figureView()->figure().series[0].color != dialog->figureView()->figure().series[1].color);
    dialog->setSignals("attitude:*");
    emit dialog->figureView()->timeClicked(0.25);
    QApplication::processEvents();
    QCOMPARE(w->simulation()->shownTime(), 0.25);
    // exports
    const QString curves = dir.filePath("curves.csv"), pdf = dir.filePath("comparison.pdf"),
                  png = dir.filePath("comparison.png"), table_csv = dir.filePath("table.csv");
    QVERIFY(dialog->exportCurves(curves));
    QVERIFY(dialog->exportFigure(pdf));
    QVERIFY(dialog->exportFigure(png));
    QVERIFY(dialog->exportCsv(table_csv));
    const QStringList lines = QString::fromUtf8(readAll(curves)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 502);  // header and 501 outputs
    QVERIFY2(lines.front().startsWith("t,\"poisson-ldl · rk4: attitude:base.roll\""), qPrintable(lines.front()));
    QCOMPARE(lines[1].count(','), 9);
    QCOMPARE(QString::fromUtf8(readAll(table_csv)).count('\n'), 5);
    QVERIFY(QImage(png).width() == 2400);
    for (const auto& [from, to] : {std::pair(png, QStringLiteral("export_compare_trajectory.png")),
                                   std::pair(pdf, QStringLiteral("export_compare_trajectory.pdf"))}) {
      QFile::remove(to);
      QVERIFY(QFile::copy(from, to));
    }
    QVERIFY(dialog->grab().save(QStringLiteral("screenshot_compare_trajectory.png")));
    // the run's own integrator as the second adds nothing; runs that would record more than a
    // recording may take are refused before they start
    dialog->setSecondIntegrator("rk4");
    dialog->compareAndWait();
    QCOMPARE(dialog->result().runs.size(), std::size_t(4));
    qputenv("KINETREE_RECORDING_LIMIT_MB", "1");
    dialog->compare();
    qunsetenv("KINETREE_RECORDING_LIMIT_MB");
    QVERIFY2(dialog->summary().startsWith("The 4 runs would record"), qPrintable(dialog->summary()));
    QCOMPARE(dialog->result().runs.size(), std::size_t(4));  // the last comparison stays
    // Stop ends the runs between steps; what ran is kept and said
    QPushButton* stop = nullptr;
    QSignalSpy done(dialog, &kt::ui::CompareSolversDialog::finished);
    dialog->compare();
    for (QPushButton* b : dialog->findChildren<QPushButton*>())
      if (b->text() == "Stop") stop = b;
    QVERIFY(stop);
    stop->click();
    QVERIFY(done.wait(60000));
    QVERIFY2(dialog->summary().startsWith("Stopped"), qPrintable(dialog->summary()));
    for (const kt::render::FigureSeries& s : dialog->figureView()->figure().series) {  // curves of runs that ran
      bool ran = false;
      for (const kt::ComparedRun& run : dialog->result().runs)
        ran = ran || s.name.startsWith(QString::fromStdString(run.label()) + ":");
      QVERIFY2(ran, qPrintable(s.name));
    }
    QCOMPARE(stop->text(), QString("Compare"));
    // a second integrator: every chosen solver (the reference too) again with it
    dialog->setSecondIntegrator("dopri5");
    dialog->compareAndWait();
    QCOMPARE(dialog->result().runs.size(), std::size_t(7));
    QCOMPARE(dialog->result().runs.back().label(), std::string("cfa-tree · dopri5"));
    QCOMPARE(dialog->table()->rowCount(), 7);
  }

  // The Peak Loads dock: the same table as kinetree-cli peaks --csv, byte for byte; a double
  // click shows the time of the peak and selects the joint.
  void peakLoadsDockIsTheCliTable() {
    QTemporaryDir dir;
    const QString file = dir.filePath("space_robot.yaml");
    QVERIFY(QFile::copy(kt::resources::kDefaultModel, file));
    auto w = openWindow(file);
    kt::ui::PeakLoadsDock* dock = w->peakLoadsDock();
    dock->show();
    dock->raise();
    QVERIFY(runToEnd(*w, 6.0));
    dock->refresh();
    const QString csv = dir.filePath("peaks.csv");
    QVERIFY(dock->exportCsv(csv));
    const kt::test::CliRun cli = kt::test::runCli({"peaks", file, "--duration", "6", "--csv"});
    QCOMPARE(cli.code, 0);
    QCOMPARE(readAll(csv), cli.out.toUtf8());
    // J22 comes close to its moment rating: its utilisation cell says so (orange from 80 %)
    QTableView* table = dock->table();
    int j22 = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r)
      if (table->model()->index(r, 0).data().toString() == "J22") j22 = r;
    QVERIFY(j22 >= 0);
    const QModelIndex u = table->model()->index(j22, kt::ui::PeakLoadsDock::Utilisation);
    QVERIFY(u.data(Qt::UserRole).toDouble() > 80.0);
    QVERIFY(u.data(Qt::BackgroundRole).isValid());
    // sorting by |M| puts the largest last (and the base's "—", rounding noise, first)
    table->sortByColumn(kt::ui::PeakLoadsDock::Moment, Qt::AscendingOrder);
    const int last = table->model()->rowCount() - 1;
    QVERIFY(std::isnan(table->model()->index(0, kt::ui::PeakLoadsDock::Moment).data(Qt::UserRole).toDouble()));
    QVERIFY(table->model()->index(last, kt::ui::PeakLoadsDock::Moment).data(Qt::UserRole).toDouble() >=
            table->model()->index(1, kt::ui::PeakLoadsDock::Moment).data(Qt::UserRole).toDouble());
    // double click on a time column: that time everywhere, the joint selected
    QSignalSpy activated(dock, &kt::ui::PeakLoadsDock::jointActivated);
    const QModelIndex cell = table->model()->index(last, kt::ui::PeakLoadsDock::MomentTime);
    emit table->doubleClicked(cell);
    QCOMPARE(activated.count(), 1);
    const int joint = activated.front()[0].toInt();
    QCOMPARE(w->simulation()->shownTime(), dock->peaks()[static_cast<std::size_t>(joint)].moment.time);
    QCOMPARE(w->selection().treeIndexOf(w->selection().selectedBody()), joint);
    QTest::qWait(100);
    QVERIFY(w->grab().save(QStringLiteral("screenshot_peak_loads.png")));
  }

  // The Peak Loads dock as a new user meets it, at the window's default layout: whole numbers
  // (never elided) with as many decimals down a column, the full name on hover, "—" for the
  // free base joint, which transmits nothing but rounding noise; File ▸ New empties it and
  // disables Export.
  void peakLoadsReadableAndClearedByNew() {
    auto w = openWindow(kt::resources::kDefaultModel);
    kt::ui::PeakLoadsDock* dock = w->peakLoadsDock();
    dock->show();
    dock->raise();
    auto* exportButton = dock->findChild<QPushButton*>(QStringLiteral("peakExportButton"));
    QVERIFY(exportButton);
    QVERIFY(runToEnd(*w, 2.0));
    dock->refresh();
    QApplication::processEvents();
    QVERIFY(exportButton->isEnabled() && dock->canExport());
    QTableView* table = dock->table();
    QAbstractItemModel* model = table->model();
    const QFontMetrics metrics = table->fontMetrics();
    int base = -1, columnsWidth = 0;
    for (int c = 0; c < model->columnCount(); ++c) columnsWidth += table->columnWidth(c);
    for (int r = 0; r < model->rowCount(); ++r) {
      const QString name = model->index(r, kt::ui::PeakLoadsDock::Joint).data().toString();
      QCOMPARE(model->index(r, kt::ui::PeakLoadsDock::Joint).data(Qt::ToolTipRole).toString(), name);
      if (name == "base_joint") base = r;
      for (int c = kt::ui::PeakLoadsDock::Force; c < model->columnCount(); ++c) {
        const QString text = model->index(r, c).data().toString();
        QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(text));
        // the whole figure fits its column: nothing is elided when drawn
        QVERIFY2(metrics.horizontalAdvance(text) + 6 <= table->columnWidth(c),
                 qPrintable(QStringLiteral("%1 in a column %2 px wide").arg(text).arg(table->columnWidth(c))));
      }
    }
    // wider than the dock: it scrolls sideways to the columns on the right
    if (columnsWidth > table->viewport()->width()) {
      QVERIFY(table->horizontalScrollBar()->maximum() > 0);
      QVERIFY(table->horizontalScrollBar()->isVisible());
    }
    // the base joint is free: its rounding noise is no peak, and says why on hover
    QVERIFY(base >= 0);
    for (int c : {kt::ui::PeakLoadsDock::Force, kt::ui::PeakLoadsDock::ForceTime, kt::ui::PeakLoadsDock::Moment,
                  kt::ui::PeakLoadsDock::ReactionForce, kt::ui::PeakLoadsDock::ReactionMoment})
      QCOMPARE(model->index(base, c).data().toString(), QString(QChar(0x2014)));
    QVERIFY2(model->index(base, kt::ui::PeakLoadsDock::Force).data(Qt::ToolTipRole).toString().contains("noise"),
             qPrintable(model->index(base, kt::ui::PeakLoadsDock::Force).data(Qt::ToolTipRole).toString()));
    // one number format down a column: as many decimals in every figure, the full figure on hover
    for (int c : {kt::ui::PeakLoadsDock::Force, kt::ui::PeakLoadsDock::Moment, kt::ui::PeakLoadsDock::MomentTime}) {
      QSet<int> decimals;
      for (int r = 0; r < model->rowCount(); ++r) {
        const QString text = model->index(r, c).data().toString();
        if (text != QString(QChar(0x2014))) decimals.insert(static_cast<int>(text.size() - text.indexOf('.')));
      }
      QCOMPARE(decimals.size(), 1);
    }
    const int j22 = [&] {
      for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data().toString() == "J22") return r;
      return -1;
    }();
    QVERIFY(j22 >= 0);
    const double moment = model->index(j22, kt::ui::PeakLoadsDock::Moment).data(Qt::UserRole).toDouble();
    QVERIFY2(model->index(j22, kt::ui::PeakLoadsDock::Moment)
                 .data(Qt::ToolTipRole)
                 .toString()
                 .startsWith(QString::number(moment, 'g', 10) + " N·m at t = "),
             qPrintable(model->index(j22, kt::ui::PeakLoadsDock::Moment).data(Qt::ToolTipRole).toString()));
    QVERIFY(w->grab().save(QStringLiteral("screenshot_peak_loads_dock.png")));
    // File ▸ New: nothing of the old model's run stays
    QVERIFY(w->files().newModel());
    QApplication::processEvents();
    QCOMPARE(model->rowCount(), 0);
    QVERIFY(!exportButton->isEnabled());
    QVERIFY(!dock->canExport());
    QVERIFY(dock->peaks().empty());
  }

  // The automatic arrow scale is the run's: the same at two scrubbed times, in the legend (which
  // says it is fixed for the run) and in a video of the run; the free-body legend keeps clear of
  // the load legend.
  void arrowScaleFixedForTheRun() {
    auto w = openWindow(kt::resources::kDefaultModel);
    w->jointLoadView()->setArrowsVisible(true);
    QVERIFY(runToEnd(*w, 6.0));
    SimulationController* sim = w->simulation();
    kt::render::LoadArrows* arrows = w->jointLoadView()->arrows();
    const auto scaleAt = [&](double t) {
      sim->showTime(t);
      QApplication::processEvents();
      return std::tuple{arrows->forceScaleInUse(), arrows->momentScaleInUse(), arrows->legendText()};
    };
    const auto early = scaleAt(0.5);
    const auto late = scaleAt(5.0);
    QCOMPARE(std::get<0>(early), std::get<0>(late));
    QCOMPARE(std::get<1>(early), std::get<1>(late));
    QCOMPARE(std::get<2>(early), std::get<2>(late));
    QVERIFY2(std::get<2>(late).find("fixed for this run") != std::string::npos, std::get<2>(late).c_str());
    // an edit that changes the model's extent (an arm's initial angle), and its undo, keep the
    // kept run's arrows as they were: the recording did not change
    {
      kt::ui::Document& doc = w->document();
      const int j13 = doc.model().findBody("L13");
      QString error;
      QVERIFY2(kt::ui::edit::apply(doc, kt::ui::edit::setInitialPosition(doc, j13, {2.5}, &error)), qPrintable(error));
      QApplication::processEvents();
      QCOMPARE(std::get<0>(scaleAt(5.0)), std::get<0>(late));
      doc.undoStack()->undo();
      QApplication::processEvents();
      QCOMPARE(std::get<0>(scaleAt(5.0)), std::get<0>(late));
    }
    // the run's largest loads by a scan of its own, as the video takes them
    const auto recordingScale = [&](bool reactionOnly) {
      kt::PeakLoads peaks(*sim->tree(), *sim->signalLayout());
      peaks.addRecorded(*sim->recorder(), 0);
      return kt::loadScale(peaks.joints(), reactionOnly);
    };
    const kt::LoadScale whole = recordingScale(arrows->options().reactionOnly);
    QCOMPARE(arrows->forceReference(), whole.force);
    QCOMPARE(arrows->momentReference(), whole.moment);
    // the plots take the same dead band: a pane of rounding noise is drawn flat
    const auto* pane = qobject_cast<kt::render::ChartPane*>(w->plotsDock()->paneWidget(2));
    QVERIFY(pane);
    const kt::LoadScale loads = recordingScale(false);
    QCOMPARE(pane->noiseFloor("N"), kt::kLoadDeadBand * loads.force);
    QCOMPARE(pane->noiseFloor("N·m"), kt::kLoadDeadBand * loads.moment);
    // under the unit the pane draws (set under "N*m", the CSV's spelling, it held no moment flat)
    const std::string left = pane->chart()->GetAxis(vtkAxis::LEFT)->GetTitle();
    const std::string right = pane->chart()->GetAxis(vtkAxis::RIGHT)->GetTitle();
    QVERIFY2(left == "N·m" || right == "N·m", (left + " | " + right).c_str());
    // the free-body diagram of L11 beside the load arrows: the legends apart
    kt::ui::MathematicsDock* maths = w->mathematicsDock();
    maths->show();
    maths->raise();
    for (std::size_t b = 0; b < w->document().model().bodies.size(); ++b)
      if (w->document().model().bodies[b].name == "L11") w->selection().selectBody(static_cast<int>(b));
    maths->findChild<QTabWidget*>()->setCurrentIndex(3);
    sim->showTime(0.5);
    QApplication::processEvents();
    maths->refresh();
    const kt::render::FreeBodyArrows* freeBody = maths->freeBodyArrows();
    QVERIFY(freeBody && freeBody->visible());
    vtkRenderer* overlay = w->sceneView()->overlayRenderer();
    w->sceneView()->renderToImage();
    // x0, x1, y0, y1 in the view's pixels (GetBoundingBox: about the text's anchor)
    const auto boxOf = [overlay](vtkTextActor* text, double box[4]) {
      text->GetBoundingBox(overlay, box);
      const int* at = text->GetPositionCoordinate()->GetComputedViewportValue(overlay);
      for (int k = 0; k < 4; ++k) box[k] += at[k / 2];
    };
    double load[4];
    boxOf(arrows->legendActor(), load);
    QVERIFY(load[1] > load[0] && load[3] > load[2]);
    for (const auto& line : freeBody->legendActors()) {
      if (!line->GetVisibility()) continue;
      double box[4];
      boxOf(line, box);
      const bool apart = box[1] < load[0] || load[1] < box[0] || box[3] < load[2] || load[3] < box[2];
      QVERIFY2(apart, qPrintable(QStringLiteral("%1: %2 %3 %4 %5 against the load legend's %6 %7 %8 %9")
                                     .arg(QString::fromUtf8(line->GetInput()))
                                     .arg(box[0])
                                     .arg(box[1])
                                     .arg(box[2])
                                     .arg(box[3])
                                     .arg(load[0])
                                     .arg(load[1])
                                     .arg(load[2])
                                     .arg(load[3])));
    }
    QVERIFY(w->grab().save(QStringLiteral("screenshot_load_and_free_body_legends.png")));
  }

  // File ▸ Export Video: an H.264 MP4 of the chosen size with one frame per 1/fps of playback,
  // frames that change as the robot moves; a PNG sequence of the same frames; no partial file
  // when cancelled.
  void exportedVideoDecodesBack() {
    auto w = openWindow(kt::resources::kDefaultModel);
    w->plotsDock()->show();
    QVERIFY(runToEnd(*w, 2.0));
    QTemporaryDir dir;
    kt::ui::VideoExportOptions o;
    o.width = 640;
    o.height = 360;
    o.fps = 10.0;
    o.speed = 1.0;
    o.plots = true;
    QCOMPARE(kt::ui::VideoExport::frameCount(*w->simulation(), o), 21);  // t = 0, 0.1, …, 2
    const QString mp4 = dir.filePath("run.mp4");
    QString error;
    QVERIFY2(kt::ui::VideoExport::write(w->videoSource(), o, mp4, &error), qPrintable(error));
    const Decoded d = decode(mp4);
    QCOMPARE(d.codec, QString("h264"));
    QCOMPARE(d.width, 640);
    QCOMPARE(d.height, 360);
    QCOMPARE(d.frames, 21);
    QVERIFY(kt::render::greyVariance(d.first) > 50.0);
    QVERIFY2(kt::render::meanAbsoluteDifference(d.first, d.last) > 1.0,
             qPrintable(QString::number(kt::render::meanAbsoluteDifference(d.first, d.last))));
    QVERIFY(d.middle.save(QStringLiteral("video_frame_middle.png")));
    // slow motion: twice the frames
    o.speed = 0.5;
    QCOMPARE(kt::ui::VideoExport::frameCount(*w->simulation(), o), 41);
    // PNG frames
    o.speed = 2.0;
    const QString png = dir.filePath("frames.png");
    QVERIFY2(kt::ui::VideoExport::write(w->videoSource(), o, png, &error), qPrintable(error));
    QVERIFY(QFileInfo::exists(kt::render::VideoWriter::pngFramePath(png, 11)));
    QVERIFY(!QFileInfo::exists(kt::render::VideoWriter::pngFramePath(png, 12)));
    QCOMPARE(QImage(kt::render::VideoWriter::pngFramePath(png, 1)).size(), QSize(640, 360));
    // a full disk (injected): the reason, and the old video and frames as they were
    const QByteArray oldMp4 = readAll(mp4);
    kt::setWriteFailureForTesting(1);  // the MP4 at its commit
    QVERIFY(!kt::ui::VideoExport::write(w->videoSource(), o, mp4, &error));
    kt::setWriteFailureForTesting(0);
    QVERIFY2(error.contains("No space left on device"), qPrintable(error));
    QCOMPARE(readAll(mp4), oldMp4);
    QVERIFY(QFile::resize(kt::render::VideoWriter::pngFramePath(png, 1), 10));  // an old frame 1
    const QByteArray oldFrame = readAll(kt::render::VideoWriter::pngFramePath(png, 1));
    kt::setWriteFailureForTesting(3);  // the third frame
    QVERIFY(!kt::ui::VideoExport::write(w->videoSource(), o, png, &error));
    kt::setWriteFailureForTesting(0);
    QVERIFY2(error.contains("No space left on device"), qPrintable(error));
    QCOMPARE(readAll(kt::render::VideoWriter::pngFramePath(png, 1)), oldFrame);
    QVERIFY(QDir(dir.path()).entryList({"*kinetree-partial*"}, QDir::AllEntries | QDir::Hidden).isEmpty());
    // cancelled after three frames: nothing left
    bool cancelled = false;
    const QString gone = dir.filePath("gone.mp4");
    QVERIFY(!kt::ui::VideoExport::write(
        w->videoSource(), o, gone, &error, [](int frame, int) { return frame < 3; }, &cancelled));
    QVERIFY(cancelled);
    QVERIFY(!QFileInfo::exists(gone));
    for (const QString& f : QDir(dir.path()).entryList(QDir::Files | QDir::Hidden))
      QVERIFY2(!f.contains("gone"), qPrintable(f));
  }

  // A rated joint's arrows are red at its rating, whatever the common limit; the rating is the
  // model's, so an edit of it recolours the kept run's arrows.
  void ratedArrowsAreRedAtTheirRating() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runToEnd(*w, 6.0));
    SimulationController* sim = w->simulation();
    const int j22 = w->tree().jointIndex("J22"), j23 = w->tree().jointIndex("J23");
    const int body = w->selection().bodyOfTreeIndex(j22);
    const auto rate = [&](double moment) {
      kt::LoadRating rating = w->document().model().bodies[static_cast<std::size_t>(body)].joint.rating;
      rating.moment = moment;
      QString error;
      QVERIFY(kt::ui::edit::apply(w->document(), kt::ui::edit::setRating(w->document(), body, rating, &error)));
    };
    const auto colourAt = [&](int joint) {
      kt::render::LoadArrows* arrows = w->jointLoadView()->arrows();
      kt::render::LoadArrowOptions o;
      o.visible = true;
      o.reactionOnly = false;  // the whole wrench: 38 N·m at J22
      o.momentLimit = 1e9;     // the common limit far away: only a rating can make an arrow red
      arrows->setOptions(o);
      sim->showTime(4.984);  // J22 carries 38 N·m here
      const double* c = arrows->momentActor(joint)->GetProperty()->GetColor();
      return std::pair{c[0], c[1]};
    };
    rate(20.0);  // an edit: the run is kept, its arrows follow the edited rating
    QVERIFY(sim->outdated());
    const auto [r, g] = colourAt(j22);
    QVERIFY2(r > 0.9 && g < 0.2, qPrintable(QStringLiteral("%1 %2").arg(r).arg(g)));
    const auto [ur, ug] = colourAt(j23);  // unrated, 1e9 limit: green
    QVERIFY(ur < 0.2 && ug > 0.7);
    rate(380.0);  // 10 %: green
    const auto [tr_, tg] = colourAt(j22);
    QVERIFY2(tg > 0.7, qPrintable(QString::number(tg)));
  }

  // An edit keeps the run: the views show its shown sample again at once (the edited model's
  // scene, same joints), Step does nothing to an outdated run and is disabled, and a run whose
  // recording was full can still be started over from the edited model.
  void anEditKeepsTheShownSample() {
    qputenv("KINETREE_RECORDING_LIMIT_MB", "1");  // about 400 samples of the space robot
    auto w = openWindow(kt::resources::kDefaultModel);
    SimulationController* sim = w->simulation();
    sim->setSpeed(0.0);
    sim->setUntilStopped(true);
    sim->run();
    QVERIFY(QTest::qWaitFor([&] { return sim->recordingFull(); }, 20000));
    qunsetenv("KINETREE_RECORDING_LIMIT_MB");
    sim->poll();
    sim->showTime(0.25);
    const Eigen::VectorXd q = sim->shownPositions();
    QString error;
    QVERIFY(kt::ui::edit::apply(w->document(), kt::ui::edit::setMass(w->document(), 3, 9.0, &error)));
    QVERIFY(sim->outdated());
    QCOMPARE(sim->shownPositions(), q);
    kt::Kinematics kin;
    kin.resize(*sim->tree());
    kt::computePositionKinematics(*sim->tree(), q, kin);
    for (int i = 0; i < sim->tree()->nb; ++i)
      QVERIFY(
          (w->sceneView()->scene().bodyPose(i).topRightCorner<3, 1>() - kin.X_0[static_cast<std::size_t>(i)].r).norm() <
          1e-12);
    auto* step = w->findChild<QAction*>(QStringLiteral("actionStep"));
    auto* run = w->findChild<QAction*>(QStringLiteral("actionRun"));
    QVERIFY(!step->isEnabled());
    QVERIFY(run->isEnabled());  // full, but outdated: Run starts the edited model over
    run->trigger();
    QVERIFY(!sim->outdated());
    QVERIFY(!sim->recordingFull());
    QVERIFY(QTest::qWaitFor([&] { return sim->simulationTime() > 0.0; }, 10000));
    sim->pause();
  }

  // The plots' time range exists only while they show one: hidden, they offer none.
  void plotsRangeOnlyWhenShown() {
    auto w = openWindow(kt::resources::kDefaultModel);
    QVERIFY(runToEnd(*w, 0.5));
    w->plotsDock()->hide();
    QVERIFY(std::isnan(w->plotsDock()->visibleTimeRange().first));
    kt::ui::ExportResultsDialog hidden(*w->simulation(), {}, w->plotsDock()->visibleTimeRange(), w.get());
    QVERIFY(!hidden.findChildren<QRadioButton*>().at(1)->isEnabled());
    w->plotsDock()->show();
    w->plotsDock()->redraw();
    w->plotsDock()->paneWidget(0)->renderToImage();
    const auto [t0, t1] = w->plotsDock()->visibleTimeRange();
    QVERIFY2(t0 <= 0.0 && t1 >= 0.5 && t1 < 1.0, qPrintable(QStringLiteral("%1 %2").arg(t0).arg(t1)));
  }

  // kinetree --screenshot FILE on a full disk (injected): status 1, the reason, and the old file
  // as it was; with room, the screenshot.
  void screenshotOnAFullDisk() {
    QTemporaryDir dir;
    const QString shot = dir.filePath("shot.png");
    {
      QFile old(shot);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old screenshot");
    }
    const auto screenshot = [&](const QString& failWrites) {
      QProcess gui;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
      if (!failWrites.isEmpty()) env.insert(QStringLiteral("KINETREE_FAIL_WRITES"), failWrites);
      gui.setProcessEnvironment(env);
      gui.start(QStringLiteral(KINETREE_GUI), {QStringLiteral("--screenshot"), shot});
      gui.waitForFinished(60000);
      return std::make_pair(gui.exitCode(), QString::fromLocal8Bit(gui.readAllStandardError()));
    };
    const auto [failedCode, failedError] = screenshot(QStringLiteral("1:100"));
    QCOMPARE(failedCode, 1);
    QVERIFY2(failedError.contains("No space left on device") && failedError.contains(shot), qPrintable(failedError));
    QCOMPARE(readAll(shot), QByteArray("old screenshot"));
    QCOMPARE(QDir(dir.path()).entryList({"*kinetree-partial*"}, QDir::AllEntries | QDir::Hidden), QStringList());
    const auto [code, error] = screenshot(QString());
    QVERIFY2(code == 0, qPrintable(error));
    QVERIFY(kt::render::greyVariance(QImage(shot)) > 10.0);
  }

  // The screenshot of the window with the timeline scrubbed back and the plots showing the cursor.
  void screenshotOfTheTimeline() {
    auto w = openWindow(kt::resources::kDefaultModel);
    w->plotsDock()->show();
    w->selection().selectBody(2);
    QVERIFY(runToEnd(*w, 4.0));
    w->timeline()->slider()->setValue(700);
    w->plotsDock()->redraw();
    QTest::qWait(100);
    const QImage shot = w->grab().toImage();
    QVERIFY(shot.save(QStringLiteral("screenshot_timeline.png")));
    QVERIFY(kt::render::greyVariance(shot) > 100.0);
  }
};

int main(int argc, char* argv[]) { return kt::test::runWindowTest<TestResults>(argc, argv, "test_results"); }
#include "test_results.moc"
