// SPDX-License-Identifier: BSD-3-Clause
// What a recorded run gives out (docs/signals.md, "Peak loads"; core/results/peak_loads.hpp,
// core/results/recording_csv.hpp): the peak-load table of `kinetree-cli peaks` against a brute-force
// scan of `simulate`'s CSV on every example, utilisation of load ratings, the same peaks from a
// Recorder as from samples, and a recording written as CSV byte for byte as `simulate` writes it,
// for the whole run and for ranges, patterns and every k-th sample.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <map>
#include <numbers>

#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/model/text_util.hpp"
#include "core/results/load_cases.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/recording_csv.hpp"
#include "core/sim/simulator.hpp"
#include "support/cli_runner.hpp"

using namespace kt;
using kt::test::example;

namespace {

const char* const kExamples[] = {"pendulum.yaml", "double_pendulum.yaml", "cardan_chain.yaml", "humanoid.yaml",
                                 "space_robot.yaml"};

struct Csv {
  QStringList header;
  std::vector<std::vector<double>> rows;  ///< empty fields as NaN
  std::vector<QStringList> text;          ///< the fields as written
  int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
};

Csv parseCsv(const QString& content) {
  Csv csv;
  const QStringList lines = content.split('\n', Qt::SkipEmptyParts);
  csv.header = lines.front().split(',');
  for (qsizetype k = 1; k < lines.size(); ++k) {
    const QStringList fields = lines[k].split(',');
    std::vector<double> row;
    for (const QString& f : fields) {
      bool ok = false;
      const double x = f.toDouble(&ok);
      row.push_back(ok ? x : std::nan(""));
    }
    csv.rows.push_back(std::move(row));
    csv.text.push_back(fields);
  }
  return csv;
}

QString readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// A simulator of `model` with its file's settings over `duration`, run to the end, recording.
std::unique_ptr<Simulator> runRecorded(const Model& model, double duration) {
  SimulatorOptions o = SimulatorOptions::fromSettings(model.simulation);
  o.record = true;
  auto sim = std::make_unique<Simulator>(model, o);
  const long outputs = static_cast<long>(std::ceil(duration / sim->outputInterval() - 1e-9));
  for (long k = 0; k < outputs; ++k)
    if (!sim->step()) break;
  return sim;
}

}  // namespace

class TestRecordedResults : public QObject {
  Q_OBJECT

 private slots:
  // Every joint's peaks as `peaks --csv` prints them = the largest |f_force|, |f_moment|, |(T λ)|
  // over the rows `simulate` writes, at the first time each is reached.
  void peaksAgreeWithABruteForceScan_data() {
    QTest::addColumn<QString>("model");
    for (const char* m : kExamples) QTest::newRow(m) << example(m);
  }
  void peaksAgreeWithABruteForceScan() {
    QFETCH(QString, model);
    const QStringList settings = {"--duration", "2"};
    const kt::test::CliRun sim = kt::test::runCli(QStringList{"simulate", model} + settings);
    QCOMPARE(sim.code, 0);
    const kt::test::CliRun peaks = kt::test::runCli(QStringList{"peaks", model, "--csv"} + settings);
    QVERIFY2(peaks.code == 0, qPrintable(peaks.err));
    const Csv data = parseCsv(sim.out);
    const Csv table = parseCsv(peaks.out);
    const Tree tree = finalizeOrThrow(loadModelFromFile(model.toStdString()));
    QCOMPARE(static_cast<int>(table.rows.size()), tree.nb);
    for (int i = 0; i < tree.nb; ++i) {
      const QString joint = QString::fromStdString(tree.jointNames[static_cast<std::size_t>(i)]);
      QCOMPARE(table.text[static_cast<std::size_t>(i)][0], joint);
      int f[6];
      const char* parts[6] = {"mx", "my", "mz", "fx", "fy", "fz"};
      for (int c = 0; c < 6; ++c) f[c] = data.column(QStringLiteral("load:%1.%2").arg(joint, parts[c]));
      std::vector<int> lambda;  // the reaction columns, in the order of T's columns, and their signs
      std::vector<double> sign;
      for (const ReactionComponent& c : reactionComponents(tree.joints[static_cast<std::size_t>(i)])) {
        lambda.push_back(data.column(QStringLiteral("reaction:%1.%2").arg(joint, QString::fromStdString(c.name))));
        sign.push_back(c.sign);
      }
      std::vector<int> q;
      for (int k = 0; data.column(QStringLiteral("q:%1[%2]").arg(joint).arg(k)) >= 0; ++k)
        q.push_back(data.column(QStringLiteral("q:%1[%2]").arg(joint).arg(k)));
      // brute force: every row, largest value, first time
      double best[4] = {-1, -1, -1, -1}, when[4] = {0, 0, 0, 0};
      for (const std::vector<double>& row : data.rows) {
        const Vec3 m(row[f[0]], row[f[1]], row[f[2]]), F(row[f[3]], row[f[4]], row[f[5]]);
        Vec6 r = Vec6::Zero();
        if (!lambda.empty()) {
          std::vector<double> qi;
          for (int c : q) qi.push_back(row[c]);
          Mat6N T;
          double none = 0.0;  // a fixed joint has no coordinates
          tree.joints[static_cast<std::size_t>(i)].constraintSubspace(qi.empty() ? &none : qi.data(), T);
          for (std::size_t k = 0; k < lambda.size(); ++k)
            r += T.col(static_cast<Eigen::Index>(k)) * (sign[k] * row[lambda[k]]);
        }
        const double values[4] = {F.norm(), m.norm(), r.tail<3>().norm(), r.head<3>().norm()};
        for (int v = 0; v < 4; ++v)
          if (values[v] > best[v]) {
            best[v] = values[v];
            when[v] = row[0];
          }
      }
      const std::vector<double>& got = table.rows[static_cast<std::size_t>(i)];
      const int columns[4] = {table.column("force_N"), table.column("moment_Nm"), table.column("reaction_force_N"),
                              table.column("reaction_moment_Nm")};
      for (int v = 0; v < 4; ++v) {
        if (v >= 2 && lambda.empty()) {  // a free joint: no reaction part, empty fields
          QVERIFY(std::isnan(got[static_cast<std::size_t>(columns[v])]));
          continue;
        }
        // the same inputs (the CSV round-trips every double) and the same arithmetic: equal
        QVERIFY2(got[static_cast<std::size_t>(columns[v])] == best[v],
                 qPrintable(QStringLiteral("%1 column %2: %3 vs %4")
                                .arg(joint)
                                .arg(table.header[columns[v]])
                                .arg(got[static_cast<std::size_t>(columns[v])], 0, 'g', 17)
                                .arg(best[v], 0, 'g', 17)));
        // the time of the peak: the first row that reaches it
        QCOMPARE(got[static_cast<std::size_t>(columns[v] + 1)], when[v]);
      }
    }
  }

  // The space robot's rated joints: utilisation = peak / rating, the governing quantity and its
  // time; unrated joints have none.
  // Load cases at the peaks (docs/reports.md): each joint's force and moment case is at the
  // instant PeakLoads gives, holds the state and every joint's wrench of that recorded row, the
  // same fed sample by sample (the CLI) as from the recording (the application); `peaks --cases`
  // writes them, CSV and JSON.
  void loadCasesAtThePeaks() {
    Model model = loadModelFromFile(example("space_robot.yaml").toStdString());
    SimulatorOptions o = SimulatorOptions::fromSettings(model.simulation);
    Simulator sim(std::move(model), o);
    const Tree& tree = sim.tree();
    const SignalLayout& layout = sim.signalLayout();
    PeakLoads peaks(tree, layout);
    LoadCaseCollector streamed(tree, layout);
    peaks.add(sim.sample().data());
    streamed.add(sim.sample().data());
    for (int k = 0; k < 500; ++k) {
      QVERIFY(sim.step());
      peaks.add(sim.sample().data());
      streamed.add(sim.sample().data());
    }
    LoadCaseCollector recorded(tree, layout);
    recorded.addRecorded(sim.recorder(), 0);
    const std::vector<LoadCase> cases = recorded.cases(), again = streamed.cases();
    // a case per peak the table shows: the free base's rounding noise is none
    const LoadScale scale = loadScale(peaks.joints());
    std::size_t shown = 0;
    for (const JointPeaks& j : peaks.joints())
      shown += (aboveDeadBand(j.force, scale.force) ? 1 : 0) + (aboveDeadBand(j.moment, scale.moment) ? 1 : 0);
    QCOMPARE(cases.size(), shown);
    QCOMPARE(cases.size(), static_cast<std::size_t>(2 * tree.nb - 2));
    QVERIFY(cases.front().joint != 0);
    QCOMPARE(again.size(), cases.size());
    std::vector<double> row(static_cast<std::size_t>(layout.size()));
    std::vector<Vec6> f;
    Eigen::VectorXd q;
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const LoadCase& lc = cases[c];
      const JointPeaks& j = peaks.joints()[static_cast<std::size_t>(lc.joint)];
      const Peak& p = lc.moment ? j.moment : j.force;
      QCOMPARE(lc.value, p.value);
      QCOMPARE(lc.when->t, p.time);
      QCOMPARE(again[c].value, lc.value);
      QCOMPARE(again[c].when->t, lc.when->t);
      // the instant is that row of the recording, whole
      const std::size_t r = sim.recorder().rowAtTime(lc.when->t);
      QCOMPARE(sim.recorder().copyRows(r, r + 1, row.data()), std::size_t{1});
      QCOMPARE(row[0], lc.when->t);
      layout.jointWrenchesFromRow(row.data(), f);
      layout.positionsFromRow(row.data(), q);
      QVERIFY(lc.when->wrenches == f && again[c].when->wrenches == f);
      QVERIFY(lc.when->q == q);
      QCOMPARE(lc.moment ? f[static_cast<std::size_t>(lc.joint)].head<3>().norm()
                         : f[static_cast<std::size_t>(lc.joint)].tail<3>().norm(),
               lc.value);
    }
    // the CLI writes the same cases
    QTemporaryDir dir;
    const QString csvPath = dir.filePath("cases.csv"), jsonPath = dir.filePath("cases.json");
    const kt::test::CliRun cli =
        kt::test::runCli({"peaks", example("space_robot.yaml"), "--duration", "1", "--cases", csvPath});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().toStdString(), loadCasesCsv(tree, layout, cases));
    QVERIFY(kt::test::runCli({"peaks", example("space_robot.yaml"), "--duration", "1", "--cases", jsonPath}).code == 0);
    // any other name is refused before the run, and nothing is written
    const QString pdfPath = dir.filePath("cases.pdf");
    const kt::test::CliRun pdf =
        kt::test::runCli({"peaks", example("space_robot.yaml"), "--duration", "1", "--cases", pdfPath});
    QCOMPARE(pdf.code, 2);
    QVERIFY2(pdf.err.contains("--cases writes FILE.csv or FILE.json, not '"), qPrintable(pdf.err));
    QVERIFY(!QFile::exists(pdfPath));
    QFile json(jsonPath);
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QByteArray text = json.readAll();
    QCOMPARE(text.toStdString(), loadCasesJson(tree, layout, cases));
    QVERIFY(text.startsWith("{\n  \"format\": \"kinetree-load-cases\""));
    QVERIFY(text.contains("\"joint\": \"J11\", \"quantity\": \"force\""));
    QVERIFY(text.contains("\"loads\": {\"base_joint\": {\"fx\": "));
    QVERIFY(!text.contains("\"joint\": \"base_joint\""));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(parseError.errorString()));
    const QJsonArray list = doc.object().value("cases").toArray();
    QCOMPARE(list.size(), static_cast<qsizetype>(cases.size()));
    QCOMPARE(list[1].toObject().value("t").toDouble(), cases[1].when->t);
    QCOMPARE(list[1].toObject().value("loads").toObject().size(), static_cast<qsizetype>(tree.nb));
  }

  // On request, a case at the peak of every reaction and effort component: each at the peak table's
  // |λ_k| and |τ_k| and its time, joint by joint after the joint's force and moment cases; a
  // passive joint's zero effort has none. The CLI writes them with --case-components.
  // A planar pendulum's joints "transmit" moments of 1e-14 N·m beside forces of 300 N: every moment
  // is rounding noise, which a dead band relative to the largest moment alone let through as
  // "|M| 7.1e-15 at t = 1.989 s" and a load case. Now no moment is shown and none makes a case;
  // the forces are as before.
  void aKindThatIsAllNoiseIsNoLoad() {
    QCOMPARE(deadBandReferences({300.0, 7e-15}).moment, std::numeric_limits<double>::infinity());
    QCOMPARE(deadBandReferences({300.0, 7e-15}).force, 300.0);
    QCOMPARE(deadBandReferences({1e-16, 20.0}).force, std::numeric_limits<double>::infinity());
    QCOMPARE(deadBandReferences({300.0, 1e-6}).moment, 1e-6);  // a micrometre's arm: a load
    // the plots' floors: the dead band, or over every value of a kind that is all noise
    QCOMPARE(noiseFloors({300.0, 20.0}).moment, kLoadDeadBand * 20.0);
    QCOMPARE(noiseFloors({300.0, 7e-15}).moment, kNoiseArm * 300.0);
    QVERIFY(noiseFloors({300.0, 7e-15}).moment > 7e-15);
    QCOMPARE(noiseFloors({300.0, 7e-15}).force, kLoadDeadBand * 300.0);
    Model model = loadModelFromFile(example("pendulum.yaml").toStdString());
    SimulatorOptions o = SimulatorOptions::fromSettings(model.simulation);
    Simulator sim(std::move(model), o);
    const SignalLayout& layout = sim.signalLayout();
    PeakLoads peaks(sim.tree(), layout);
    LoadCaseCollector cases(sim.tree(), layout);
    peaks.add(sim.sample().data());
    cases.add(sim.sample().data());
    for (int k = 0; k < 400; ++k) {
      QVERIFY(sim.step());
      peaks.add(sim.sample().data());
      cases.add(sim.sample().data());
    }
    const LoadScale largest = loadScale(peaks.joints());
    QVERIFY2(largest.moment > 0.0 && largest.moment < 1e-12 && largest.force > 100.0,
             qPrintable(QStringLiteral("%1 N·m, %2 N").arg(largest.moment).arg(largest.force)));
    const PeakTableCells table = peakLoadsCells(peaks.joints());
    QCOMPARE(table.header[3], std::string("|M| (N·m)"));
    QCOMPARE(table.header[9], std::string("|τ| (N·m or N)"));  // nothing acts: no unit to name
    for (const std::vector<std::string>& row : table.rows) {
      QCOMPARE(row[3], std::string("-"));  // |M| and its time
      QCOMPARE(row[4], std::string("-"));
      QVERIFY(row[1] != "-");  // |F|
    }
    const std::vector<LoadCase> found = cases.cases();
    QCOMPARE(found.size(), peaks.joints().size());  // one force case per joint, no moment case
    for (const LoadCase& c : found) QVERIFY(!c.moment);
  }

  void loadCasesOfComponents() {
    Model model = loadModelFromFile(example("space_robot.yaml").toStdString());
    SimulatorOptions o = SimulatorOptions::fromSettings(model.simulation);
    Simulator sim(std::move(model), o);
    const Tree& tree = sim.tree();
    const SignalLayout& layout = sim.signalLayout();
    PeakLoads peaks(tree, layout);
    LoadCaseCollector wrenches(tree, layout), components(tree, layout, true);
    const auto take = [&] {
      peaks.add(sim.sample().data());
      wrenches.add(sim.sample().data());
      components.add(sim.sample().data());
    };
    take();
    for (int k = 0; k < 500; ++k) {
      QVERIFY(sim.step());
      take();
    }
    const std::vector<LoadCase> all = components.cases(), plain = wrenches.cases();
    // every λ_k above the dead band (J15's and J25's mx are rounding noise: their axes make it zero)
    const LoadScale scale = loadScale(peaks.joints());
    std::size_t expected = plain.size();
    for (const JointPeaks& j : peaks.joints()) {
      for (std::size_t k = 0; k < j.lambda.size(); ++k)
        expected += aboveDeadBand(j.lambda[k], j.lambdaNames[k][0] == 'm' ? scale.moment : scale.force) ? 1 : 0;
      for (const Peak& e : j.effort) expected += e.value > 0.0 ? 1 : 0;
    }
    QCOMPARE(expected, static_cast<std::size_t>(96 - 2));
    QCOMPARE(all.size(), expected);
    std::size_t wrenchCase = 0;
    int lastJoint = -1;
    for (const LoadCase& lc : all) {
      QVERIFY(lc.joint >= lastJoint);  // joint by joint
      lastJoint = lc.joint;
      const JointPeaks& j = peaks.joints()[static_cast<std::size_t>(lc.joint)];
      if (lc.signal.empty()) {  // the force and moment cases, as without components
        QCOMPARE(lc.when->t, plain[wrenchCase].when->t);
        QCOMPARE(lc.value, plain[wrenchCase++].value);
        continue;
      }
      const std::string prefix = lc.signal.substr(0, lc.signal.find(':'));
      const Peak* p = nullptr;
      if (prefix == "reaction") {
        const std::string name = lc.signal.substr(lc.signal.rfind('.') + 1);
        for (std::size_t k = 0; k < j.lambdaNames.size(); ++k)
          if (j.lambdaNames[k] == name) p = &j.lambda[k];
      } else {
        QCOMPARE(prefix, std::string("tau"));
        const std::size_t k = std::stoul(lc.signal.substr(lc.signal.find('[') + 1));
        p = &j.effort[k];
      }
      QVERIFY2(p, lc.signal.c_str());
      QCOMPARE(lc.value, p->value);
      QCOMPARE(lc.when->t, p->time);
      QCOMPARE(lc.quantity(), lc.signal);
    }
    QCOMPARE(wrenchCase, plain.size());
    QTemporaryDir dir;
    const QString csvPath = dir.filePath("cases.csv");
    const kt::test::CliRun cli = kt::test::runCli(
        {"peaks", example("space_robot.yaml"), "--duration", "1", "--cases", csvPath, "--case-components"});
    QVERIFY2(cli.code == 0, qPrintable(cli.err));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray text = csv.readAll();
    QCOMPARE(text.toStdString(), loadCasesCsv(tree, layout, all));
    QVERIFY(text.contains(",J22,reaction:J22.fz,") && text.contains(",J22,tau:J22[0],"));
    const kt::test::CliRun alone =
        kt::test::runCli({"peaks", example("space_robot.yaml"), "--duration", "1", "--case-components"});
    QCOMPARE(alone.code, 2);
    QVERIFY2(alone.err.contains("--case-components needs --cases"), qPrintable(alone.err));
  }

  void utilisationOfRatings() {
    const Model model = loadModelFromFile(example("space_robot.yaml").toStdString());
    const std::unique_ptr<Simulator> sim = runRecorded(model, 10.0);
    PeakLoads peaks(sim->tree(), sim->signalLayout(), PeakLoads::ratingsOf(sim->model(), sim->tree()));
    sim->recorder().read([&](const Recorder::Rows& rows) {
      rows.forEachRow(0, rows.size(), [&](std::size_t, const double* row) { peaks.add(row); });
    });
    int rated = 0;
    for (const JointPeaks& j : peaks.joints()) {
      if (j.rating.empty()) {
        QVERIFY(std::isnan(j.utilisation()));
        continue;
      }
      ++rated;
      const double byForce = j.force.value / j.rating.force, byMoment = j.moment.value / j.rating.moment;
      QCOMPARE(j.utilisation(), std::max(byForce, byMoment));
      QCOMPARE(QString::fromStdString(j.utilisationOf()), QString(byForce > byMoment ? "force" : "moment"));
      QCOMPARE(j.utilisationTime(), byForce > byMoment ? j.force.time : j.moment.time);
    }
    QCOMPARE(rated, 4);  // J11, J12, J21, J22
    // no start-up kick: the drives start on their reference, and the largest load is not at t = 0
    double largest = 0.0, when = 0.0;
    for (const JointPeaks& j : peaks.joints())
      if (j.moment.value > largest) {
        largest = j.moment.value;
        when = j.moment.time;
      }
    QVERIFY2(when > 0.1, qPrintable(QString::number(when)));
    const std::string table = peakLoadsTable(peaks.joints());
    QVERIFY(table.find("(moment)") != std::string::npos);
    // every joint that acts is revolute (the free base never acts): |τ| is in N·m alone
    QCOMPARE(effortUnit(peaks.joints()), std::string("N·m"));
    QVERIFY(table.find("|τ| (N·m)") != std::string::npos);
    // the free base joint transmits nothing: its 1e-14 N of rounding noise is no peak
    const QString base =
        QString::fromStdString(table).section(QStringLiteral("\nbase_joint"), 1, 1).section('\n', 0, 0);
    QVERIFY2(!base.isEmpty() && base.simplified() == QStringLiteral("- - - - - - - - - - -"), qPrintable(base));
    // reaction ratings count per coordinate
    std::vector<LoadRating> ratings = PeakLoads::ratingsOf(sim->model(), sim->tree());
    const int j13 = sim->tree().jointIndex("J13");
    ratings[static_cast<std::size_t>(j13)].reaction.assign(5, 1.0);
    PeakLoads perAxis(sim->tree(), sim->signalLayout(), ratings);
    sim->recorder().read([&](const Recorder::Rows& rows) {
      rows.forEachRow(0, rows.size(), [&](std::size_t, const double* row) { perAxis.add(row); });
    });
    const JointPeaks& p = perAxis.joints()[static_cast<std::size_t>(j13)];
    double largestLambda = 0.0;
    for (const Peak& l : p.lambda) largestLambda = std::max(largestLambda, l.value);
    QCOMPARE(p.utilisation(), largestLambda);
    QVERIFY(QString::fromStdString(p.utilisationOf()).startsWith("reaction."));
  }

  // The warnings for ratings reached: the governing component with its unit, the rating's path,
  // the model's ratings found by joint name (an older run against an edited model).
  void ratingExceedancesNameWhatPeaked() {
    const Model model = loadModelFromFile(example("space_robot.yaml").toStdString());
    const std::unique_ptr<Simulator> sim = runRecorded(model, 6.0);
    PeakLoads peaks(sim->tree(), sim->signalLayout());
    QCOMPARE(peaks.addRecorded(sim->recorder(), 0), sim->recorder().size());
    QVERIFY(ratingExceedances(peaks.joints(), model).empty());  // the example's ratings hold
    Model edited = model;
    std::size_t j22 = 0, j13 = 0;
    for (std::size_t b = 0; b < edited.bodies.size(); ++b) {
      if (edited.bodies[b].joint.name == "J22") j22 = b;
      if (edited.bodies[b].joint.name == "J13") j13 = b;
    }
    edited.bodies[j22].joint.rating.moment = 1.0;
    edited.bodies[j13].joint.rating.reaction.assign(5, 1e6);
    edited.bodies[j13].joint.rating.reaction[3] = 1e-3;  // fy, N
    Model both = edited;  // J22's force too: each rating reached is a warning, the furthest first
    both.bodies[j22].joint.rating.force = 1e-3;
    std::vector<double> times;
    const std::vector<Diagnostic> all = ratingExceedances(peaks.joints(), both, &times);
    QCOMPARE(all.size(), std::size_t{3});
    QCOMPARE(times.size(), std::size_t{3});
    QVERIFY2(
        all[1].message.find("J22 reached ") == 0 && all[1].message.find(" % of its force rating") != std::string::npos,
        all[1].message.c_str());
    QVERIFY2(all[2].message.find(" % of its moment rating") != std::string::npos, all[2].message.c_str());
    QCOMPARE(all[1].path, all[2].path);
    for (std::size_t k = 0; k < times.size(); ++k)
      QVERIFY2(all[k].message.find("at t = " + formatSignificant(times[k], 6) + " s)") != std::string::npos,
               all[k].message.c_str());
    std::vector<Diagnostic> d = ratingExceedances(peaks.joints(), edited);
    QCOMPARE(d.size(), std::size_t{2});
    QCOMPARE(d[0].path, "bodies[" + std::to_string(j13) + "].joint.rating");
    QVERIFY2(d[0].warning && d[0].message.find("J13 reached ") == 0 &&
                 d[0].message.find(" % of its constraint force fy rating in the run (") != std::string::npos,
             d[0].message.c_str());
    QVERIFY(d[0].message.find(" N of 0.001 N at t = ") != std::string::npos);
    QVERIFY2(
        d[1].message.find("J22 reached ") == 0 && d[1].message.find(" % of its moment rating") != std::string::npos,
        d[1].message.c_str());
    QVERIFY(d[1].message.find(" N·m of 1 N·m at t = ") != std::string::npos);
    // the peaks' own ratings do not count, the model's do; a renamed joint is left out
    Model renamed = edited;
    renamed.bodies[j22].joint.name = "elbow";
    QCOMPARE(ratingExceedances(peaks.joints(), renamed).size(), std::size_t{1});

    // kinetree-cli peaks names them on stderr and exits 3, for scripts that check loads
    QTemporaryDir dir;
    const QString file = dir.filePath("overloaded.yaml");
    saveModelToFile(edited, file.toStdString());
    const kt::test::CliRun cli = kt::test::runCli({"peaks", file, "--duration", "6"});
    QCOMPARE(cli.code, 3);
    QVERIFY2(cli.err.contains(QString("warning: bodies[%1].joint.rating: J22 reached ").arg(j22)), qPrintable(cli.err));
    QCOMPARE(cli.err.count('\n'), 2);
    QVERIFY(cli.out.contains("J22"));  // the table as always
  }

  // A failed run's non-finite values are not loads: the peaks skip them.
  void nonFiniteValuesAreSkipped() {
    const Model model = loadModelFromFile(example("pendulum.yaml").toStdString());
    const std::unique_ptr<Simulator> sim = runRecorded(model, 0.1);
    PeakLoads peaks(sim->tree(), sim->signalLayout());
    std::vector<double> row(static_cast<std::size_t>(sim->recorder().width()));
    sim->recorder().copyRows(3, 4, row.data());
    peaks.add(row.data());
    const JointPeaks before = peaks.joints().front();
    for (double bad : {std::numeric_limits<double>::infinity(), std::nan("")}) {
      std::vector<double> broken = row;
      for (std::size_t c = 1; c < broken.size(); ++c) broken[c] = bad;
      peaks.add(broken.data());
    }
    QCOMPARE(peaks.joints().front().force.value, before.force.value);
    QCOMPARE(peaks.joints().front().force.time, before.force.time);
    QVERIFY(std::isfinite(peaks.joints().front().moment.value));
  }

  // A recording written as CSV = what simulate writes for the same model and duration, byte for
  // byte; and ranges, patterns and every k-th sample select the expected rows and columns.
  void recordingCsvIsSimulatesCsv_data() { peaksAgreeWithABruteForceScan_data(); }
  void recordingCsvIsSimulatesCsv() {
    QFETCH(QString, model);
    const double duration = 1.0;
    const kt::test::CliRun cli = kt::test::runCli({"simulate", model, "--duration", "1"});
    QCOMPARE(cli.code, 0);
    const std::unique_ptr<Simulator> sim = runRecorded(loadModelFromFile(model.toStdString()), duration);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.csv");
    QVERIFY(writeRecordingCsv(sim->recorder(), sim->signalLayout(), {}, path.toStdString()));
    QCOMPARE(readFile(path), cli.out);

    // the samples from 0.2 s to 0.6 s, every 3rd, the q and energy columns
    const kt::test::CliRun sel = kt::test::runCli({"simulate", model, "--duration", "1", "--signals", "q:*,energy.*"});
    QCOMPARE(sel.code, 0);
    const Csv all = parseCsv(sel.out);
    RecordingSelection s;
    std::string error;
    QVERIFY(selectSignals(sim->signalLayout().names(), "q:*,energy.*", s.columns, error));
    s.t0 = 0.2;
    s.t1 = 0.6;
    s.every = 3;
    QVERIFY(writeRecordingCsv(sim->recorder(), sim->signalLayout(), s, path.toStdString()));
    const Csv part = parseCsv(readFile(path));
    QCOMPARE(part.header, all.header);
    std::vector<QStringList> expected;
    std::size_t first = 0;
    while (all.rows[first][0] < 0.2) ++first;
    for (std::size_t k = first; k < all.rows.size() && all.rows[k][0] <= 0.6; k += 3) expected.push_back(all.text[k]);
    QVERIFY(!expected.empty());
    QCOMPARE(part.text.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) QCOMPARE(part.text[k], expected[k]);
    QCOMPARE(selectedRows(sim->recorder(), s).count, expected.size());

    // angles in degrees on request: the angle columns × 180/π and named with their unit, the rest as is
    s.anglesInDegrees = true;
    QVERIFY(writeRecordingCsv(sim->recorder(), sim->signalLayout(), s, path.toStdString()));
    const Csv deg = parseCsv(readFile(path));
    QCOMPARE(deg.rows.size(), part.rows.size());
    int converted = 0;
    for (qsizetype c = 0; c < part.header.size(); ++c) {
      const SignalInfo& info =
          sim->signalLayout().infos()[static_cast<std::size_t>(sim->signalLayout().find(part.header[c].toStdString()))];
      const bool angle = info.unit == "rad";
      QCOMPARE(deg.header[c], angle ? part.header[c] + " (deg)" : part.header[c]);
      converted += angle ? 1 : 0;
      for (std::size_t k = 0; k < part.rows.size(); ++k) {
        const double expectedValue = angle ? part.rows[k][static_cast<std::size_t>(c)] * 180.0 / std::numbers::pi
                                           : part.rows[k][static_cast<std::size_t>(c)];
        QVERIFY(std::abs(deg.rows[k][static_cast<std::size_t>(c)] - expectedValue) <=
                1e-14 * std::max(1.0, std::abs(expectedValue)));
      }
    }
    QVERIFY(converted > 0);  // every example has a revolute joint
  }

  // Cancelled: the target is left as it was and no temporary file remains.
  void cancelledExportLeavesNothing() {
    const Model model = loadModelFromFile(example("space_robot.yaml").toStdString());
    const std::unique_ptr<Simulator> sim = runRecorded(model, 10.0);  // 5001 rows: several blocks
    QTemporaryDir dir;
    const QString path = dir.filePath("run.csv");
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old\n");
    old.close();
    int calls = 0;
    QVERIFY(!writeRecordingCsv(sim->recorder(), sim->signalLayout(), {}, path.toStdString(),
                               [&](std::size_t, std::size_t) { return ++calls < 2; }));
    QCOMPARE(readFile(path), QString("old\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"run.csv"});
  }
};

QTEST_GUILESS_MAIN(TestRecordedResults)
#include "test_recorded_results.moc"
