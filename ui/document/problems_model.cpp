// SPDX-License-Identifier: BSD-3-Clause
#include "ui/document/problems_model.hpp"

#include <QFileInfo>
#include <QRegularExpression>

#include "core/io/model_files.hpp"
#include "core/model/tree.hpp"
#include "core/sim/run_limits.hpp"

namespace kt::ui {
namespace {

bool sameList(const std::vector<kt::Diagnostic>& a, const std::vector<kt::Diagnostic>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].path != b[i].path || a[i].message != b[i].message || a[i].warning != b[i].warning) return false;
  return true;
}

}  // namespace

ProblemsModel::ProblemsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProblemsModel::refresh(const kt::Model& model) {
  std::vector<kt::Diagnostic> fresh = kt::validateWithSettings(model);
  // a valid model whose motion or drive tables a run cannot read (a misnamed column): the run
  // would be refused, so it is a problem now, at its file, line and column
  std::size_t tableProblems = 0;
  if (fresh.empty() && kt::readsTables(model)) {
    kt::Tree tree;
    if (kt::finalize(model, tree, fresh)) {
      fresh = kt::checkRunTables(model, tree);
      tableProblems = fresh.size();
    }
  }
  std::vector<kt::Diagnostic> freshWarnings = kt::modelWarnings(model);
  std::vector<double> peakTimes;
  std::vector<kt::Diagnostic> reached = kt::ratingExceedances(runPeaks_, model, &peakTimes);
  for (std::size_t n = 0; n < reached.size(); ++n) {
    // a peak the user caused (a push or a drag at that time) says so, as Peak Loads colours it
    kt::Diagnostic& d = reached[n];
    std::vector<std::string> during;
    for (const kt::InteractionSpan& s : runSpans_)
      if (s.covers(peakTimes[n]))
        during.push_back(
            (s.kind == kt::InteractionKind::Drag ? "the drag of " : "push " + std::to_string(s.id) + " on ") +
            (s.body >= 0 && static_cast<std::size_t>(s.body) < runBodies_.size()
                 ? runBodies_[static_cast<std::size_t>(s.body)]
                 : std::string("a body")));
    for (std::size_t k = 0; k < during.size(); ++k)
      d.message += (k == 0 ? "; at that time the user applied " : ", ") + during[k];
    freshWarnings.push_back(std::move(d));
  }
  std::vector<std::string> names;
  names.reserve(model.bodies.size());
  for (const kt::BodySpec& b : model.bodies) names.push_back(b.name);
  if (sameList(fresh, diagnostics_) && sameList(freshWarnings, warnings_) && names == bodyNames_) return;
  beginResetModel();
  bodyNames_ = std::move(names);
  diagnostics_ = std::move(fresh);
  tableProblems_ = tableProblems;
  warnings_ = std::move(freshWarnings);
  endResetModel();
  emit countChanged(rowCount());
}

void ProblemsModel::setRunPeaks(std::vector<kt::JointPeaks> peaks, const kt::Model& model,
                                std::vector<kt::InteractionSpan> spans, std::vector<std::string> bodyNames) {
  runPeaks_ = std::move(peaks);
  runSpans_ = std::move(spans);
  runBodies_ = std::move(bodyNames);
  refresh(model);
}

QString ProblemsModel::wherePath(const std::string& path) const {
  // "bodies[8].joint.rating" as "L22 · joint.rating": the body by its name (the file's path stays
  // in the tooltip and PathRole)
  const FieldLocation where = locate(QString::fromStdString(path));
  if (where.body < 0 || static_cast<std::size_t>(where.body) >= bodyNames_.size()) return QString::fromStdString(path);
  const QString name = QString::fromStdString(bodyNames_[static_cast<std::size_t>(where.body)]);
  return where.field.isEmpty() ? name : QStringLiteral("%1 · %2").arg(name, where.field);
}

const kt::Diagnostic& ProblemsModel::at(int row) const {
  const auto r = static_cast<std::size_t>(row);
  return r < diagnostics_.size() ? diagnostics_[r] : warnings_[r - diagnostics_.size()];
}

FieldLocation ProblemsModel::locate(const QString& yamlPath) {
  static const QRegularExpression bodyRe(QStringLiteral("^bodies\\[(\\d+)\\](?:\\.(.*))?$"));
  static const QRegularExpression shapeRe(QStringLiteral("^shapes\\[(\\d+)\\]"));
  FieldLocation loc;
  const QRegularExpressionMatch m = bodyRe.match(yamlPath);
  if (!m.hasMatch()) {
    loc.field = yamlPath;
    loc.topField = yamlPath.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('['), 0, 0);
    return loc;
  }
  loc.body = m.captured(1).toInt();
  loc.field = m.captured(2);
  loc.topField = loc.field.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('['), 0, 0);
  if (const QRegularExpressionMatch s = shapeRe.match(loc.field); s.hasMatch()) loc.shape = s.captured(1).toInt();
  return loc;
}

FieldLocation ProblemsModel::locationOf(int row) const {
  if (row < 0 || row >= rowCount()) return {};
  return locate(QString::fromStdString(at(row).path));
}

int ProblemsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(diagnostics_.size() + warnings_.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProblemsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const kt::Diagnostic& d = at(index.row());
  switch (role) {
    case Qt::DisplayRole:
      if (index.column() != PathColumn) return QString::fromStdString(d.message);
      // a problem in a file the model names (a motion table): where in that file
      if (d.path.empty() && !d.file.empty())
        return QStringLiteral("%1:%2:%3")
            .arg(QFileInfo(QString::fromStdString(d.file)).fileName())
            .arg(d.line)
            .arg(d.column);
      return wherePath(d.path);
    case Qt::ToolTipRole: return QString::fromStdString(d.format());
    case PathRole: return QString::fromStdString(d.path);
    case BodyIndexRole: return locate(QString::fromStdString(d.path)).body;
    case FieldRole: return locate(QString::fromStdString(d.path)).field;
    case WarningRole: return d.warning;
    default: return {};
  }
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == PathColumn ? tr("Where") : tr("Problem");
}

}  // namespace kt::ui
