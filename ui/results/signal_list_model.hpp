// SPDX-License-Identifier: BSD-3-Clause
// The Plots dock's list of signals: the names that pass the dock's filter, each with a check box
// that says whether the chosen pane draws it. A model over the dock's name list, so that a
// 10,000-body model's 200,000 signals cost one vector of column numbers, not an item each.
#pragma once

#include <QAbstractListModel>
#include <QString>
#include <vector>

namespace kt::ui {

class SignalListModel : public QAbstractListModel {
  Q_OBJECT

 public:
  explicit SignalListModel(QObject* parent = nullptr);

  /// Shows `columns` (indices into `names`, whose units go into the tool tips), `checked` among
  /// them ticked. `names` and `units` must outlive the next call.
  void show(const std::vector<QString>& names, const std::vector<QString>& units, std::vector<int> columns,
            const std::vector<int>& checked);
  /// The signal column of a row.
  int column(int row) const { return columns_[static_cast<std::size_t>(row)]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  /// A tick or untick (Qt::CheckStateRole) says toggled(); the dock then shows the list again.
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

 signals:
  void toggled(const QString& name, bool checked);

 private:
  const std::vector<QString>* names_ = nullptr;
  const std::vector<QString>* units_ = nullptr;
  std::vector<int> columns_;
  std::vector<char> checked_;  ///< per row
};

}  // namespace kt::ui
