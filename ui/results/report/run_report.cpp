// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/report/run_report.hpp"

#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "core/analysis/rainflow.hpp"
#include "core/dynamics/kinematics.hpp"
#include "core/model/joint_type.hpp"
#include "core/model/text_util.hpp"
#include "core/results/load_cases.hpp"
#include "core/results/peak_loads.hpp"
#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"
#include "render/output/atomic_write.hpp"
#include "render/overlays/load_arrows.hpp"
#include "render/scene/scene_view.hpp"
#include "ui/results/signal_figures.hpp"
#include "ui/shared/number_text.hpp"
#include "ui/shared/qt_text.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunReport", text); }

QString unitText(const std::string& unit) { return q(unit).replace(QLatin1Char('*'), QChar(0x00B7)); }  // N·m
QString sig(double x, int digits = 6) {
  return std::isfinite(x) ? q(kt::formatSignificant(x, digits)) : QStringLiteral("-");
}

QString listText(const std::vector<double>& v) {
  QStringList parts;
  for (const double x : v) parts << sig(x, 4);
  return parts.size() == 1 ? parts.front() : QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

// offset + amplitude sin(2π f t + phase) as its numbers: the phase and the offset where not zero.
QString sinusoidText(const std::vector<double>& amplitude, const std::vector<double>& frequency,
                     const std::vector<double>& phase, const std::vector<double>& offset) {
  const auto zero = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x == 0.0; });
  };
  QString text = tr("amplitude %1, %2 Hz").arg(listText(amplitude), listText(frequency));
  if (!zero(phase)) text += tr(", phase %1 rad").arg(listText(phase));
  if (!zero(offset)) text += tr(", offset %1").arg(listText(offset));
  return text;
}

// How a joint moves: its prescribed motion or its drive, in a few words.
QString howItMoves(const kt::JointSpec& j) {
  const kt::Motion& m = j.motion;
  if (m.type != kt::MotionType::None) {
    QString text = tr("prescribed: %1").arg(q(std::string(kt::motionTypeName(m.type))));
    switch (m.type) {
      case kt::MotionType::Spline: text += tr(", %1 knots").arg(m.knots.empty() ? 0 : m.knots.front().size()); break;
      case kt::MotionType::RestToRest:
        text += tr(", %1 moves").arg(m.moves.empty() ? 0 : m.moves.front().size());
        break;
      case kt::MotionType::Sinusoid:
        text += QStringLiteral(", ") + sinusoidText(m.amplitude, m.frequency, m.phase, m.offset);
        break;
      case kt::MotionType::Table:
        text += QStringLiteral(", %1").arg(q(m.file));
        if (m.cutoff > 0.0) text += tr(" (low-pass %1 Hz)").arg(sig(m.cutoff, 4));
        break;
      case kt::MotionType::None: break;
    }
    return text;
  }
  const kt::Drive& d = j.drive;
  if (d.type == kt::DriveType::None) return tr("passive");
  QString text = tr("drive: %1").arg(q(std::string(kt::driveTypeName(d.type))));
  switch (d.type) {
    case kt::DriveType::Constant: text += tr(", τ = %1").arg(listText(d.value)); break;
    case kt::DriveType::Sinusoid:
      text += QStringLiteral(", ") + sinusoidText(d.amplitude, d.frequency, d.phase, d.offset);
      break;
    case kt::DriveType::PdSinusoid:  // the gains and the reference they follow
      text += tr(", kp = %1, kd = %2, reference %3")
                  .arg(sig(d.kp, 4), sig(d.kd, 4), sinusoidText(d.amplitude, d.frequency, d.phase, d.offset));
      break;
    case kt::DriveType::PdPiecewise:
      text += tr(", kp = %1, kd = %2, reference through %3 knots")
                  .arg(sig(d.kp, 4), sig(d.kd, 4))
                  .arg(d.knots.empty() ? 0 : d.knots.front().size());
      break;
    case kt::DriveType::SpringDamper:
      text += tr(", stiffness %1, damping %2").arg(listText(d.stiffness), listText(d.damping));
      break;
    case kt::DriveType::Table: text += QStringLiteral(", %1").arg(q(d.file)); break;
    case kt::DriveType::None: break;
  }
  return text;
}

// The signals of one joint of a kind, in the layout's order, as chart series.
std::vector<render::ChartSeries> seriesOf(const kt::SignalLayout& layout, int joint, kt::SignalKind kind) {
  std::vector<render::ChartSeries> out;
  for (const kt::SignalInfo& s : layout.infos())
    if (s.body == joint && s.kind == kind) {
      render::ChartSeries c;
      c.column = layout.find(s.name);
      c.name = q(s.name);
      c.unit = unitText(s.unit);
      c.color = render::seriesColor(static_cast<int>(out.size()));
      c.style = render::seriesStyle(static_cast<int>(out.size()));
      out.push_back(std::move(c));
    }
  return out;
}

constexpr int kPictureWidth = 1200, kPictureHeight = 720;

// A picture of the model at row `row` with the joints' load arrows (the whole wrench each joint
// transmits), through the window's camera.
QImage modelPicture(const VideoSource& source, std::size_t row, const kt::LoadScale& scale) {
  const SimulationController& simulation = *source.simulation;
  const kt::Recorder& rec = *simulation.recorder();
  const kt::SignalLayout& layout = *simulation.signalLayout();
  const kt::Tree& tree = *simulation.tree();
  render::SceneView scene;
  scene.setAttribute(Qt::WA_DontShowOnScreen);
  scene.resize(kPictureWidth, kPictureHeight);
  scene.showModel(*simulation.sessionModel(), tree, source.modelDirectory, true);
  if (source.view) {
    scene.copyCamera(*source.view);
    scene.setFollowBody(source.followBody);
  }
  scene.setJointFramesVisible(false);
  render::LoadArrows arrows(scene.overlayRenderer());
  arrows.setTextSize(20, 22);  // the picture prints at about half its pixels: a legend of 8 pt or so
  arrows.build(tree, scene.scene().characteristicLength());
  render::LoadArrowOptions o;
  o.visible = true;
  o.reactionOnly = false;  // the wrench of the peak table
  arrows.setOptions(o);
  arrows.setRatings(kt::PeakLoads::ratingsOf(*simulation.sessionModel(), tree));
  arrows.setReference(scale.force, scale.moment, true);
  std::vector<double> values(static_cast<std::size_t>(rec.width()));
  if (rec.copyRows(row, row + 1, values.data()) != 1) return {};
  Eigen::VectorXd qs;
  layout.positionsFromRow(values.data(), qs);
  kt::Kinematics poses;
  poses.resize(tree);
  kt::computePositionKinematics(tree, qs, poses);
  scene.showPoses(poses);
  kt::SignalLayout::RecordedLoads loads;
  layout.loadsFromRow(values.data(), loads);
  arrows.update(poses, qs, loads);
  scene.renderToImage();  // lays the view out at its size
  // The window's camera may not see the model at that instant (it moved, or the window looks
  // elsewhere): then the camera is fitted to the pose, looking the same way.
  double b[6];
  if (scene.scene().modelBounds(b)) {
    vtkRenderer* r = scene.renderer();
    vtkMatrix4x4* projection = r->GetActiveCamera()->GetCompositeProjectionTransformMatrix(
        static_cast<double>(kPictureWidth) / kPictureHeight, -1.0, 1.0);
    bool inside = true;
    for (int k = 0; k < 8 && inside; ++k) {
      const double corner[4] = {b[k & 1], b[2 + ((k >> 1) & 1)], b[4 + ((k >> 2) & 1)], 1.0};
      double p[4];
      projection->MultiplyPoint(corner, p);
      inside = p[3] > 0.0 && std::abs(p[0]) <= p[3] && std::abs(p[1]) <= p[3];
    }
    if (!inside) {
      r->ResetCamera(b);
      r->ResetCameraClippingRange();
    }
  }
  return scene.renderToImage();
}

render::ReportTable textTable(const QStringList& header, std::vector<QStringList> rows, int leftColumns,
                              const QString& csvName = {}) {
  render::ReportTable t;
  t.header = header;
  t.rows = std::move(rows);
  for (qsizetype c = 0; c < header.size(); ++c) t.rightAligned.push_back(c >= leftColumns);
  if (!csvName.isEmpty()) {
    t.csvName = csvName;
    t.csv = render::tableCsv(t.header, t.rows);
  }
  return t;
}

}  // namespace

std::optional<render::ReportDocument> makeRunReport(const VideoSource& source, const ReportOptions& o,
                                                    const ReportProgress& progress, QString* error) {
  const auto fail = [error](const QString& message) -> std::optional<render::ReportDocument> {
    if (error) *error = message;
    return std::nullopt;
  };
  const auto cancelled = [&](double fraction) { return progress && !progress(fraction); };
  if (error) error->clear();
  const SimulationController* simulation = source.simulation;
  const kt::Recorder* rec = simulation ? simulation->recorder() : nullptr;
  const kt::SignalLayout* layout = simulation ? simulation->signalLayout() : nullptr;
  const kt::Tree* treePtr = simulation ? simulation->tree() : nullptr;
  const kt::Model* modelPtr = simulation ? simulation->sessionModel() : nullptr;
  if (!rec || !layout || !treePtr || !modelPtr) return fail(tr("There is no recorded run to report"));
  const kt::Tree& tree = *treePtr;
  const kt::Model& model = *modelPtr;
  const auto [k0, k1] = rowsInRange(*rec, o.t0, o.t1);
  if (k1 <= k0 + 1)
    return fail(rec->size() < 2 ? tr("Nothing has been run yet: run the simulation (F5), then export its report")
                                : tr("The chosen range holds fewer than two recorded samples: widen it"));
  const double first = rec->timeOf(k0), last = rec->timeOf(k1 - 1);
  const std::size_t rows = k1 - k0;
  if (cancelled(0.0)) return std::nullopt;

  // one scan of the range for the peaks and the load cases (the rows `kinetree-cli peaks` reads)
  kt::PeakLoads peaks(tree, *layout, kt::PeakLoads::ratingsOf(model, tree));
  kt::LoadCaseCollector caseCollector(tree, *layout);
  peaks.addRecorded(*rec, 0, first, last);
  caseCollector.addRecorded(*rec, 0, first, last);
  const std::vector<kt::JointPeaks>& joints = peaks.joints();
  const std::vector<kt::LoadCase> cases = caseCollector.cases();
  const kt::LoadScale scale = kt::loadScale(joints);
  const std::vector<std::size_t> loaded = kt::mostLoadedJoints(joints, static_cast<std::size_t>(std::max(0, o.joints)));
  const std::vector<std::size_t> governing = kt::mostLoadedJoints(joints, 1);  // the picture's, whatever o.joints
  if (cancelled(0.15)) return std::nullopt;

  render::ReportDocument doc;
  const QString modelName = q(model.name).isEmpty() ? tr("untitled") : q(model.name);
  doc.title = tr("Load report: %1").arg(modelName);
  if (!simulation->sessionFile().isEmpty())
    doc.subtitle << tr("Model file: %1").arg(QDir::toNativeSeparators(simulation->sessionFile()));
  doc.subtitle << tr("Run: %1").arg(simulation->runLabel());
  doc.subtitle << tr("Made with Kinetree %1 on %2")
                      .arg(QCoreApplication::applicationVersion(),
                           QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));

  // --- the model
  doc.heading(tr("1 Model"));
  if (!model.description.empty()) doc.paragraph(q(model.description));
  // the governing instant: the case of the most loaded joint's larger peak
  std::size_t pictureRow = k0;
  QString pictureCaption = tr("At t = %1 s, the start of the range").arg(sig(first));
  if (!governing.empty()) {
    const kt::JointPeaks& j = joints[governing.front()];
    const double u = j.utilisation();
    const bool moment = scale.moment > 0.0 && scale.force > 0.0
                            ? j.moment.value / scale.moment > j.force.value / scale.force
                            : scale.moment > 0.0;
    const kt::Peak& p = moment ? j.moment : j.force;
    const double at = std::isnan(u) ? p.time : j.utilisationTime();
    if (std::isfinite(at)) {
      pictureRow = rec->rowAtTime(at);
      pictureCaption =
          (std::isnan(u) ? tr("At t = %1 s, the peak |%2| of %3 (%4 %5)")
                               .arg(sig(at), moment ? QStringLiteral("M") : QStringLiteral("F"), q(j.name),
                                    sig(p.value), moment ? QStringLiteral("N·m") : QStringLiteral("N"))
                         : tr("At t = %1 s, the largest utilisation: %2 of %3 at %4 % of its rating")
                               .arg(sig(at), q(j.utilisationOf()), q(j.name), sig(100.0 * u, 4))) +
          tr("; arrows: each joint's transmitted force (single head) and moment (double head), scaled to the "
             "run's largest");
    }
  }
  if (o.picture) doc.picture(modelPicture(source, pictureRow, scale), pictureCaption);
  if (cancelled(0.25)) return std::nullopt;
  doc.paragraph(tr("%1, %2 (%3), total mass %4 kg, gravity (%5, %6, %7) m/s².")
                    .arg(countText(tree.nb, tr("body"), tr("bodies")),
                         countText(tree.nv, tr("degree of freedom"), tr("degrees of freedom")),
                         countText(tree.nq, tr("position coordinate"), tr("position coordinates")))
                    .arg(sig(tree.totalMass()))
                    .arg(sig(tree.gravity.x(), 4), sig(tree.gravity.y(), 4), sig(tree.gravity.z(), 4)));
  {
    std::vector<QStringList> body;
    std::vector<int> depth(static_cast<std::size_t>(tree.nb), 0);
    // depth-first, children under their parent, so that the indentation draws the tree
    std::vector<int> order;
    std::vector<int> stack(tree.roots.rbegin(), tree.roots.rend());
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      order.push_back(i);
      const std::vector<int>& ch = tree.children[static_cast<std::size_t>(i)];
      for (auto it = ch.rbegin(); it != ch.rend(); ++it) {
        depth[static_cast<std::size_t>(*it)] = depth[static_cast<std::size_t>(i)] + 1;
        stack.push_back(*it);
      }
    }
    std::vector<QStringList> csv;
    constexpr int kDrawnDepth = 8;  // deeper levels are given as a number, not drawn
    for (const int i : order) {
      const std::size_t k = static_cast<std::size_t>(i);
      const kt::JointSpec& spec = model.bodies[static_cast<std::size_t>(tree.specIndex[k])].joint;
      const int d = depth[k];
      const QString indent = d == 0 ? QString()
                             : d <= kDrawnDepth
                                 ? QString(2 * (d - 1), QChar(0x00A0)) + QChar(0x2514) + QChar(0x00A0)
                                 : QString(2 * (kDrawnDepth - 1), QChar(0x00A0)) + QStringLiteral("└%1 ").arg(d);
      const QString parent =
          tree.parent[k] < 0 ? tr("world") : q(tree.bodyNames[static_cast<std::size_t>(tree.parent[k])]);
      const QString type = q(std::string(kt::jointTypeName(tree.joints[k].type)));
      body.push_back(
          {indent + q(tree.bodyNames[k]), q(tree.jointNames[k]), type, parent, sig(tree.I[k].m), howItMoves(spec)});
      csv.push_back({q(tree.bodyNames[k]), QString::number(d), q(tree.jointNames[k]), type, parent,
                     q(kt::formatRoundTrip(tree.I[k].m)), howItMoves(spec)});
    }
    render::ReportTable t = textTable(
        {tr("body"), tr("joint"), tr("type"), tr("parent"), tr("mass (kg)"), tr("motion")}, std::move(body), 4);
    t.rightAligned = {false, false, false, false, true, false};  // the mass is a number between text columns
    t.csvName = QStringLiteral("model.csv");
    t.csv = render::tableCsv(
        {QStringLiteral("body"), QStringLiteral("depth"), QStringLiteral("joint"), QStringLiteral("type"),
         QStringLiteral("parent"), QStringLiteral("mass_kg"), QStringLiteral("motion")},
        csv);
    doc.table(std::move(t));
  }

  // --- the run
  doc.heading(tr("2 Run"));
  const kt::SimulatorOptions& run = simulation->activeOptions();
  {
    std::vector<QStringList> rowsOfRun = {
        {tr("solver"), q(run.solver)},
        {tr("integrator"), q(run.integrator)},
        {run.integrator == "dopri5" ? tr("output interval") : tr("step"), tr("%1 s").arg(sig(run.step))},
        {tr("time reported"), tr("%1 s to %2 s (%3 samples)").arg(sig(first), sig(last)).arg(rows)},
        {tr("recording"),
         tr("%1 s to %2 s, %3")
             .arg(sig(rec->timeOf(0)), sig(rec->timeOf(rec->size() - 1)), simulation->runStateText(false))},
    };
    if (run.integrator == "dopri5") rowsOfRun.insert(rowsOfRun.begin() + 2, {tr("tolerance"), sig(run.tolerance, 3)});
    const std::size_t events = simulation->eventCount();
    if (events > 0)
      rowsOfRun.push_back(
          {tr("interactions"), tr("%1 applied during the run (pushes, drags, drive changes, poses)").arg(events)});
    doc.table(textTable({tr("quantity"), tr("value")}, std::move(rowsOfRun), 2));
  }

  // --- the warnings
  std::vector<QString> warnings;
  if (simulation->hasFailed())
    warnings.push_back(
        tr("The run failed: %1. The loads are those recorded before it stopped.").arg(simulation->errorMessage()));
  if (simulation->recordingFull())
    warnings.push_back(
        tr("The recording was full: the run stopped at t = %1 s.").arg(sig(rec->timeOf(rec->size() - 1))));
  if (simulation->isRunning() || simulation->runState() == SimulationController::RunState::Paused)
    warnings.push_back(tr("The run was not over when the report was made (%1): the report covers %2 s to %3 s.")
                           .arg(simulation->runStateText(), sig(first), sig(last)));
  if (simulation->outdated())
    warnings.push_back(tr("The model was edited after this run: the report is of the run, not of the edited model."));
  for (const kt::Diagnostic& d : kt::ratingExceedances(joints, model))
    warnings.push_back(tr("%1: %2").arg(q(d.path), q(d.message)));
  doc.heading(tr("3 Peak loads"));
  doc.paragraph(tr("For every joint the largest magnitude of the force |F| and of the moment |M| of the wrench it "
                   "transmits (in its joint frame), of its reaction part (the constraint force), and of its "
                   "effort |τ| (drive force or the effort a prescribed motion requires), with the time of each. "
                   "The utilisation is the largest ratio of a peak to the joint's rating. \"-\": no such "
                   "value, or a load under %1 of the run's largest (rounding noise).")
                    .arg(QStringLiteral("%1 %").arg(100.0 * kt::kLoadDeadBand)));
  if (warnings.empty()) {
    doc.note(
        tr("No warnings: no rating was reached, and the run ended as asked (%1).").arg(simulation->runStateText()));
  } else {
    doc.subheading(tr("Warnings"));
    for (const QString& w : warnings) doc.paragraph(QStringLiteral("⚠ ") + w);
  }
  {
    const kt::PeakTableCells cells = kt::peakLoadsCells(joints);
    QStringList header;
    for (const std::string& h : cells.header) header << q(h);
    std::vector<QStringList> body;
    std::vector<QColor> colours;
    for (std::size_t r = 0; r < cells.rows.size(); ++r) {
      QStringList row;
      for (const std::string& c : cells.rows[r]) row << q(c);
      body.push_back(row);
      const double u = joints[r].utilisation();
      colours.push_back(u >= 1.0 ? QColor(190, 0, 0) : u >= 0.8 ? QColor(170, 100, 0) : QColor());
    }
    render::ReportTable t = textTable(header, std::move(body), 1);
    t.rowColors = std::move(colours);
    t.csvName = QStringLiteral("peak_loads.csv");
    t.csv = QByteArray::fromStdString(kt::peakLoadsCsv(joints));
    doc.table(std::move(t));
    doc.note(
        tr("Red: a rating reached (utilisation ≥ 100 %); amber: at least 80 %. The CSV keeps every number "
           "as computed."));
  }
  if (cancelled(0.3)) return std::nullopt;

  // --- the most loaded joints
  doc.heading(tr("4 The most loaded joints"));
  if (governing.empty()) {
    doc.paragraph(tr("No joint carries a load above the dead band."));
  } else if (loaded.empty()) {
    doc.paragraph(tr("No joint was asked for (Joints with figures: 0)."));
  } else {
    QStringList names;
    for (const std::size_t j : loaded) names << q(joints[j].name);
    doc.paragraph(tr("%1, %2: those with a rating by utilisation, the others by their largest force or moment "
                     "against the run's largest. Below: their loads and efforts against time, the amplitude "
                     "spectrum of their loads, and their fatigue cycles.")
                      .arg(names.join(QStringLiteral(", ")),
                           loaded.size() == 1 ? tr("the most loaded joint") : tr("the most loaded first")));
  }
  const double nEq = o.nEq > 0.0 ? o.nEq : std::max(last - first, rec->timeOf(k0 + 1) - first);
  std::vector<double> t(rows), x(rows);
  t.resize(rec->copyColumn(0, k0, k1, t.data()));
  for (std::size_t n = 0; n < loaded.size(); ++n) {
    const kt::JointPeaks& jp = joints[loaded[n]];
    const int joint = jp.joint;
    const QString name = q(jp.name);
    doc.subheading(tr("4.%1 %2").arg(n + 1).arg(name));
    const double u = jp.utilisation();
    doc.paragraph(tr("Peak |F| %1 N at t = %2 s, peak |M| %3 N·m at t = %4 s%5.")
                      .arg(sig(jp.force.value), sig(jp.force.time), sig(jp.moment.value), sig(jp.moment.time))
                      .arg(std::isnan(u)
                               ? tr("; no rating")
                               : tr("; utilisation %1 % (%2) at t = %3 s")
                                     .arg(sig(100.0 * u, 4), q(jp.utilisationOf()), sig(jp.utilisationTime()))));
    const std::vector<render::ChartSeries> load = seriesOf(*layout, joint, kt::SignalKind::Load);
    doc.figure(timeFigure(*rec, load, k0, k1, tr("Loads of %1 (joint frame)").arg(name)));
    std::vector<render::ChartSeries> effort = seriesOf(*layout, joint, kt::SignalKind::Tau);
    if (!effort.empty() && jp.largestEffort().value > 0.0)
      doc.figure(timeFigure(*rec, effort, k0, k1, tr("Effort of %1").arg(name)),
                 0.36);  // not flatter than the spectrum's: a figure's text scales with its height below that
    SpectrumChoice choice;
    choice.segment = std::min(o.spectrumSegment, rows);
    constexpr std::size_t kSpectrumSamples = 64;  // fewer: a spectrum of a handful of bins says nothing
    const SpectrumFigure spectrum =
        rows >= kSpectrumSamples
            ? spectrumFigure(*rec, load, k0, k1, choice, tr("Amplitude spectrum: loads of %1").arg(name))
            : SpectrumFigure{{}, {}, rows, 0.0, tr("%1 samples, fewer than %2").arg(rows).arg(kSpectrumSamples)};
    if (spectrum.problem.isEmpty()) {
      doc.figure(spectrum.figure, 0.36);
      const kt::Spectrum& s0 = spectrum.spectra.front();
      // the lines found at their frequency, and those on the lowest line (a motion slower than a
      // segment resolves: the frequency is an upper bound and the amplitude may be read low)
      QStringList lines, lowest;
      for (std::size_t s = 0; s < spectrum.spectra.size(); ++s) {
        const kt::Spectrum& sp = spectrum.spectra[s];
        const std::size_t peak = sp.peak();
        const QString amplitude = QStringLiteral("%1 %2").arg(sig(sp.amplitude[peak], 4), load[s].unit);
        if (peak == 0 || !std::isfinite(sp.amplitude[peak]))
          lines << tr("%1 none").arg(load[s].name);
        else if (sp.peakAtLowestLine())
          lowest << QStringLiteral("%1 %2").arg(load[s].name, amplitude);
        else
          lines << QStringLiteral("%1 %2 Hz (%3)").arg(load[s].name, sig(sp.frequency[peak], 4), amplitude);
      }
      QStringList note{tr("Welch's method, Hann window, mean removed per segment: segments of %1 samples (%2 "
                          "averaged) at %3 Hz, resolution %4 Hz.")
                           .arg(s0.segment)
                           .arg(s0.segments)
                           .arg(sig(spectrum.rate, 6), sig(s0.resolution, 4))};
      if (!lines.isEmpty()) note << tr("Largest lines: %1.").arg(lines.join(QStringLiteral("; ")));
      if (!lowest.isEmpty())
        note << (s0.segments == 1 ? tr("Largest at or below %1 Hz, the lowest line, with amplitudes possibly read "
                                       "low (a motion too slow for the run to resolve: a longer run resolves it): %2.")
                                  : tr("Largest at or below %1 Hz, the lowest line, with amplitudes possibly read "
                                       "low (a motion too slow for the segment to resolve: longer segments, chosen "
                                       "when the report is made, or a longer run, resolve it): %2."))
                    .arg(sig(s0.resolution, 4), lowest.join(QStringLiteral("; ")));
      doc.note(note.join(QLatin1Char(' ')));
    } else {
      doc.note(tr("No spectrum: %1.").arg(spectrum.problem));
    }
    // fatigue: the joint's wrench, reaction part and effort, as the Fatigue dock counts them
    std::vector<QStringList> fatigue;
    std::vector<kt::FatigueTableRow> fatigueRows;
    for (const kt::SignalKind kind : {kt::SignalKind::Load, kt::SignalKind::Reaction, kt::SignalKind::Tau})
      for (const kt::SignalInfo& s : layout->infos()) {
        if (s.body != joint || s.kind != kind) continue;
        x.resize(t.size());
        x.resize(rec->copyColumn(layout->find(s.name), k0, k0 + t.size(), x.data()));
        const std::vector<kt::Cycle> cycles = kt::rainflow(x);
        const kt::CycleSummary c = kt::summarizeCycles(cycles, o.wohler, nEq);
        const QString unit = unitText(s.unit);
        const auto withUnit = [&unit](double x) {
          return std::isfinite(x) ? sig(x) + QLatin1Char(' ') + unit : QStringLiteral("-");
        };
        const double at = c.cycles > 0.0 ? t[c.largestFirst] : 0.0;
        fatigue.push_back({q(s.name), sig(c.cycles), withUnit(c.largestRange), withUnit(c.largestMean),
                           c.cycles > 0.0 ? sig(at) : QStringLiteral("-"), withUnit(c.del)});
        fatigueRows.push_back({s.name, c.cycles, c.largestRange, c.largestMean, at, c.del});
      }
    render::ReportTable fatigueTable =
        textTable({tr("signal"), tr("cycles"), tr("largest range"), tr("its mean"), tr("t (s)"),
                   tr("DEL (m = %1, N_eq = %2)").arg(sig(o.wohler, 4), sig(nEq, 6))},
                  std::move(fatigue), 1);
    fatigueTable.csvName = QStringLiteral("fatigue_%1.csv").arg(name);  // as kinetree-cli fatigue --csv writes it
    fatigueTable.csv = QByteArray::fromStdString(kt::fatigueTableCsv(fatigueRows, o.wohler, nEq));
    doc.table(std::move(fatigueTable));
    doc.note(tr("Rainflow counting by ASTM E1049-85 (half cycles count ½); DEL = (Σ nᵢ Sᵢᵐ / N_eq)^(1/m) with "
                "m = %1 and N_eq = %2 cycles.")
                 .arg(sig(o.wohler, 4), sig(nEq, 6)));
    if (cancelled(0.3 + 0.55 * static_cast<double>(n + 1) / static_cast<double>(loaded.size()))) return std::nullopt;
  }

  // --- the load cases
  doc.heading(tr("5 Load cases at the peaks"));
  doc.paragraph(
      tr("For each joint's peak |F| and peak |M|: the instant, and every joint's wrench at that instant "
         "(what sizes a part, with all the other loads at the same time). The CSV (as kinetree-cli peaks "
         "--cases writes it) has the state and every joint's six components for each case."));
  {
    std::vector<QStringList> body;
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const kt::LoadCase& lc = cases[c];
      body.push_back({QString::number(c + 1), q(tree.jointNames[static_cast<std::size_t>(lc.joint)]),
                      lc.moment ? tr("moment") : tr("force"),
                      sig(lc.value) + (lc.moment ? QStringLiteral(" N·m") : QStringLiteral(" N")), sig(lc.when->t)});
    }
    render::ReportTable table =
        textTable({tr("case"), tr("joint"), tr("peak of"), tr("value"), tr("t (s)")}, std::move(body), 3);
    table.rightAligned = {true, false, false, true, true};
    table.csvName = QStringLiteral("load_cases.csv");
    table.csv = QByteArray::fromStdString(kt::loadCasesCsv(tree, *layout, cases));
    doc.table(std::move(table));
  }
  const std::set<std::size_t> shown(loaded.begin(), loaded.end());
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const kt::LoadCase& lc = cases[c];
    bool ofShown = false;
    for (const std::size_t j : shown) ofShown = ofShown || joints[j].joint == lc.joint;
    if (!ofShown) continue;
    doc.subheading(tr("Case %1: peak |%2| of %3 at t = %4 s")
                       .arg(c + 1)
                       .arg(lc.moment ? QStringLiteral("M") : QStringLiteral("F"),
                            q(tree.jointNames[static_cast<std::size_t>(lc.joint)]), sig(lc.when->t)));
    std::vector<QStringList> body;
    for (int i = 0; i < tree.nb; ++i) {
      const kt::Vec6& f = lc.when->wrenches[static_cast<std::size_t>(i)];  // [moment; force]
      // as the peak table: "-" for rounding noise (under the dead band of the run's largest, or
      // of a kind that is all noise)
      const kt::LoadScale floor = kt::noiseFloors(scale);
      const auto force = [&](double x) { return std::abs(x) < floor.force ? QStringLiteral("-") : sig(x); };
      const auto moment = [&](double x) { return std::abs(x) < floor.moment ? QStringLiteral("-") : sig(x); };
      body.push_back({q(tree.jointNames[static_cast<std::size_t>(i)]), force(f[3]), force(f[4]), force(f[5]),
                      force(f.tail<3>().norm()), moment(f[0]), moment(f[1]), moment(f[2]), moment(f.head<3>().norm())});
    }
    doc.table(textTable({tr("joint"), tr("fx (N)"), tr("fy (N)"), tr("fz (N)"), tr("|F| (N)"), tr("mx (N·m)"),
                         tr("my (N·m)"), tr("mz (N·m)"), tr("|M| (N·m)")},
                        std::move(body), 1));
  }
  doc.note(
      tr("How each number is computed: docs/reports.md of Kinetree (peak loads, load cases, spectra, "
         "rainflow and DEL)."));
  if (cancelled(0.9)) return std::nullopt;
  return doc;
}

bool writeRunReport(const VideoSource& source, const ReportOptions& options, const QString& path, QString* error,
                    const ReportProgress& progress, bool* cancelled) {
  if (cancelled) *cancelled = false;
  QString why;
  const QString suffix = QFileInfo(path).suffix().toLower();
  const bool html = suffix == QLatin1String("html") || suffix == QLatin1String("htm");
  if (!html && suffix != QLatin1String("pdf")) {
    if (error) *error = tr("Unknown report format '%1' (expected .pdf or .html)").arg(suffix);
    return false;
  }
  const std::optional<render::ReportDocument> doc = makeRunReport(source, options, progress, &why);
  if (!doc) {
    if (why.isEmpty() && cancelled) *cancelled = true;
    if (error) *error = why;
    return false;
  }
  const QByteArray bytes = html ? render::reportHtml(*doc) : render::reportPdf(*doc, &why);
  if (bytes.isEmpty()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, why);
    return false;
  }
  if (progress && !progress(0.97)) {
    if (cancelled) *cancelled = true;
    if (error) error->clear();
    return false;
  }
  const bool written = render::writeFileAtomically(path, bytes, error);
  if (written && progress) progress(1.0);
  return written;
}

}  // namespace kt::ui
