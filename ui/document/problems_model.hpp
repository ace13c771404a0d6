// SPDX-License-Identifier: BSD-3-Clause
// The problems list: every Diagnostic of kt::validate(model) (the loader's checks and messages),
// one row each, columns YAML path and message, followed by the model's warnings
// (kt::modelWarnings: likely mistakes that do not stop a run), and then by the last run's
// overloads: the joints whose peak load reached their load rating (kt::ratingExceedances, taken
// again against the model's ratings after every change). Refreshed by the Document after every
// change.
// locate() maps a YAML path to the body and field it names, so that clicking a problem can
// select the body in the tree and the field in the property editor.
#pragma once

#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "core/model/diagnostic.hpp"
#include "core/model/model.hpp"
#include "core/results/peak_loads.hpp"
#include "core/sim/interaction.hpp"

namespace kt::ui {

/// Where a YAML path points: a body field ("bodies[3].joint.axis" → body 3, field "joint.axis")
/// or a model field ("gravity", "simulation.step": body −1).
struct FieldLocation {
  int body = -1;     ///< −1: a model-level field
  int shape = -1;    ///< shapes[k] index when the field is in a shape
  QString field;     ///< path below the body ("joint.origin.xyz", "shapes[1].radius"), or the model field
  QString topField;  ///< first component: "joint", "inertial", "shapes", "name", "parent", "gravity", …
  bool operator==(const FieldLocation&) const = default;
};

class ProblemsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { PathColumn, MessageColumn, ColumnCount };
  enum Role { PathRole = Qt::UserRole + 1, BodyIndexRole, FieldRole, WarningRole };

  explicit ProblemsModel(QObject* parent = nullptr);

  /// Re-validates `model`; resets the rows only when the list changed.
  void refresh(const kt::Model& model);
  /// The errors (they stop the model from running); the first rows.
  const std::vector<kt::Diagnostic>& diagnostics() const { return diagnostics_; }
  /// No errors (there may be warnings).
  bool isEmpty() const { return diagnostics_.empty(); }
  /// The model itself is valid (it can be drawn): its only errors, if any, are in the motion or
  /// drive tables it names, which stop a run but not the picture.
  bool modelValid() const { return diagnostics_.size() == tableProblems_; }
  /// The warnings (the model's, then the last run's overloads); the rows after the errors.
  const std::vector<kt::Diagnostic>& warnings() const { return warnings_; }
  /// The peak loads of the last run (empty: none), checked against `model`'s ratings now and
  /// against the model of every refresh after.
  /// `spans`: the run's pushes and drags (kt::interactionSpans), `bodyNames` its tree's body names:
  /// a warning whose peak came while one acted names it.
  void setRunPeaks(std::vector<kt::JointPeaks> peaks, const kt::Model& model,
                   std::vector<kt::InteractionSpan> spans = {}, std::vector<std::string> bodyNames = {});
  /// The diagnostic of a row (an error or a warning).
  const kt::Diagnostic& at(int row) const;

  static FieldLocation locate(const QString& yamlPath);
  FieldLocation locationOf(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  /// The rows changed; `count` is the number of rows (errors and warnings).
  void countChanged(int count);

 private:
  /// The Where column's text for a YAML path: a body by its name.
  QString wherePath(const std::string& path) const;
  std::vector<kt::Diagnostic> diagnostics_;
  std::size_t tableProblems_ = 0;  ///< of diagnostics_, the last: problems of the tables (checkRunTables)
  std::vector<kt::Diagnostic> warnings_;
  std::vector<kt::JointPeaks> runPeaks_;
  std::vector<kt::InteractionSpan> runSpans_;  ///< of the run whose peaks these are
  std::vector<std::string> bodyNames_;         ///< the model's, for the Where column
  std::vector<std::string> runBodies_;         ///< its tree's body names
};

}  // namespace kt::ui
