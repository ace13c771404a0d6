// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/export/results_export.hpp"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <stdexcept>

#include "core/io/interaction_events.hpp"
#include "core/io/model_yaml.hpp"
#include "core/results/recording_csv.hpp"
#include "core/version.hpp"
#include "render/output/atomic_write.hpp"
#include "ui/simulation/simulation_controller.hpp"

namespace kt::ui {

namespace {

bool selectAnyColumns(const kt::SignalLayout& layout, const ResultsExportOptions& options, std::vector<int>& columns,
                      QString* error);

// The columns the options select: every signal, the named ones, or the pattern's matches. A run
// without interactions leaves out the applied: signals, which are all zero (the CSV is then the
// one `kinetree-cli simulate` writes; with interactions, the one `simulate --events` writes).
bool selectColumns(const kt::SignalLayout& layout, const ResultsExportOptions& options, bool interacted,
                   std::vector<int>& columns, QString* error) {
  const bool ok = selectAnyColumns(layout, options, columns, error);
  if (!ok || interacted) return ok;
  const auto applied = [&](int c) {
    return layout.infos()[static_cast<std::size_t>(c)].kind == kt::SignalKind::Applied;
  };
  if (columns.empty()) {
    if (layout.find("time") >= 0 && std::none_of(layout.infos().begin(), layout.infos().end(),
                                                 [](const auto& s) { return s.kind == kt::SignalKind::Applied; }))
      return true;  // every signal
    for (int c = 0; c < layout.size(); ++c)
      if (!applied(c)) columns.push_back(c);
    return true;
  }
  std::erase_if(columns, applied);
  if (columns.empty()) {
    if (error) *error = QObject::tr("The applied: signals are zero: this run had no interactions");
    return false;
  }
  return true;
}

bool selectAnyColumns(const kt::SignalLayout& layout, const ResultsExportOptions& options, std::vector<int>& columns,
                      QString* error) {
  columns.clear();
  if (!options.names.isEmpty()) {
    for (const QString& name : options.names)
      if (const int c = layout.find(name.toStdString()); c >= 0) columns.push_back(c);
    if (columns.empty()) {
      if (error) *error = QObject::tr("None of the plotted signals is in this run");
      return false;
    }
    return true;
  }
  std::string message;
  if (!kt::selectSignals(layout.names(), options.pattern.trimmed().toStdString(), columns, message)) {
    if (error) *error = QString::fromStdString(message);
    return false;
  }
  return true;
}

kt::RecordingSelection selectionOf(const ResultsExportOptions& options, std::vector<int> columns) {
  kt::RecordingSelection s;
  s.columns = std::move(columns);
  if (!options.wholeRun) {
    s.t0 = options.t0;
    s.t1 = options.t1;
  }
  s.every = std::max<std::size_t>(options.every, 1);
  s.anglesInDegrees = options.anglesInDegrees;
  return s;
}

QString sha256(const QByteArray& bytes) {
  return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

}  // namespace

namespace {
// "run.csv" → "run" + suffix beside it
QString besideCsv(const QString& csvPath, const QString& suffix) {
  const QFileInfo info(csvPath);
  const QString base =
      info.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0 ? info.completeBaseName() : info.fileName();
  return info.dir().filePath(base + suffix);
}
}  // namespace

QString ResultsExport::metadataPath(const QString& csvPath) { return besideCsv(csvPath, QStringLiteral(".meta.json")); }

QString ResultsExport::eventsPath(const QString& csvPath) { return besideCsv(csvPath, QStringLiteral(".events.json")); }

bool ResultsExport::count(const SimulationController& simulation, const ResultsExportOptions& options,
                          std::size_t& rows, std::size_t& columns, QString* error) {
  rows = columns = 0;
  const kt::Recorder* rec = simulation.recorder();
  const kt::SignalLayout* layout = simulation.signalLayout();
  if (!rec || !layout) return true;
  std::vector<int> cols;
  if (!selectColumns(*layout, options, simulation.eventCount() > 0, cols, error)) return false;
  columns = cols.empty() ? static_cast<std::size_t>(layout->size())
                         : cols.size() + (cols.front() == 0 ? 0 : 1);  // time is always written
  rows = kt::selectedRows(*rec, selectionOf(options, cols)).count;
  return true;
}

bool ResultsExport::write(const SimulationController& simulation, const ResultsExportOptions& options,
                          const QString& path, QString* error, const Progress& progress, bool* cancelled) {
  if (cancelled) *cancelled = false;
  const kt::Recorder* rec = simulation.recorder();
  const kt::SignalLayout* layout = simulation.signalLayout();
  if (!rec || !layout || rec->size() == 0) {
    if (error) *error = QObject::tr("There is no recorded run to export");
    return false;
  }
  std::vector<int> columns;
  const std::vector<kt::InteractionEvent> events = simulation.events();
  if (!selectColumns(*layout, options, !events.empty(), columns, error)) return false;
  const kt::RecordingSelection selection = selectionOf(options, columns);
  if (kt::selectedRows(*rec, selection).count == 0) {
    if (error) *error = QObject::tr("No samples of the run lie in the chosen time range");
    return false;
  }
  kt::RowRange range;  // the rows written (a run still recording may have added some since)
  try {
    if (!kt::writeRecordingCsv(*rec, *layout, selection, path.toStdString(), progress, &range)) {
      if (cancelled) *cancelled = true;
      if (error) *error = QObject::tr("The export was cancelled; no file was written");
      return false;
    }
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  // the interactions, for `kinetree-cli simulate --events` to replay the run
  if (!events.empty() && simulation.tree()) {
    const kt::SimulatorOptions& o = simulation.activeOptions();
    const std::string json =
        kt::formatInteractionEvents(events, *simulation.tree(), {o.solver, o.integrator, o.step, o.tolerance});
    QString reason;
    if (!render::writeFileAtomically(eventsPath(path), QByteArray::fromStdString(json), &reason)) {
      if (error) *error = QObject::tr("The CSV was written, but its events file could not be: %1").arg(reason);
      return false;
    }
  } else if (QFile old(eventsPath(path)); old.open(QIODevice::ReadOnly)) {
    // the events of an earlier export to this name would replay a run this CSV is not
    const bool ours = old.read(256).contains("\"format\": \"kinetree-events\"");
    old.close();
    if (ours) old.remove();
  }
  if (!options.metadata) return true;

  // The metadata record: what produced the run, and what this file holds.
  const kt::SimulatorOptions& o = simulation.activeOptions();
  QJsonObject model;
  if (const kt::Model* m = simulation.sessionModel()) {
    model[QStringLiteral("name")] = QString::fromStdString(m->name);
    // the model that ran, in the canonical form `Save` writes
    model[QStringLiteral("sha256_canonical")] = sha256(QByteArray::fromStdString(kt::saveModelToString(*m)));
  }
  const QString file = simulation.sessionFile();
  model[QStringLiteral("file")] = file;
  if (!file.isEmpty()) {
    QFile in(file);
    if (in.open(QIODevice::ReadOnly)) model[QStringLiteral("file_sha256")] = sha256(in.readAll());
  }
  model[QStringLiteral("unsaved_changes")] = simulation.sessionUnsaved();
  model[QStringLiteral("edited_since_run")] = simulation.outdated();
  QJsonObject run;
  run[QStringLiteral("solver")] = QString::fromStdString(o.solver);
  run[QStringLiteral("integrator")] = QString::fromStdString(o.integrator);
  run[QStringLiteral("step_s")] = o.step;
  run[QStringLiteral("tolerance")] = o.tolerance;
  run[QStringLiteral("state")] = simulation.runStateText();
  run[QStringLiteral("interactions")] = static_cast<qint64>(events.size());
  if (!events.empty()) run[QStringLiteral("events_file")] = QFileInfo(eventsPath(path)).fileName();
  QJsonObject data;
  data[QStringLiteral("file")] = QFileInfo(path).fileName();
  data[QStringLiteral("format")] =
      selection.anglesInDegrees
          ? QStringLiteral("CSV as written by kinetree-cli simulate (docs/signals.md), angles in degrees")
          : QStringLiteral("CSV as written by kinetree-cli simulate (docs/signals.md)");
  data[QStringLiteral("angles")] = selection.anglesInDegrees ? QStringLiteral("deg") : QStringLiteral("rad");
  data[QStringLiteral("rows")] = static_cast<qint64>(range.count);
  data[QStringLiteral("every")] = static_cast<qint64>(selection.every);
  if (range.count > 0)
    data[QStringLiteral("time_range_s")] =
        QJsonArray{rec->timeOf(range.first), rec->timeOf(range.first + (range.count - 1) * selection.every)};
  data[QStringLiteral("signals")] = !options.names.isEmpty()    ? QStringLiteral("plotted")
                                    : options.pattern.isEmpty() ? QStringLiteral("all")
                                                                : options.pattern;
  QJsonObject root;
  root[QStringLiteral("kinetree_version")] = QString::fromLatin1(kt::kVersion);
  root[QStringLiteral("exported_utc")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
  root[QStringLiteral("model")] = model;
  root[QStringLiteral("run")] = run;
  root[QStringLiteral("data")] = data;
  QString reason;
  if (!render::writeFileAtomically(metadataPath(path), QJsonDocument(root).toJson(), &reason)) {
    if (error) *error = QObject::tr("The CSV was written, but its metadata file could not be: %1").arg(reason);
    return false;
  }
  return true;
}

}  // namespace kt::ui
