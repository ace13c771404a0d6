// SPDX-License-Identifier: BSD-3-Clause
#include "ui/results/signal_list_model.hpp"

#include <algorithm>

namespace kt::ui {

SignalListModel::SignalListModel(QObject* parent) : QAbstractListModel(parent) {}

void SignalListModel::show(const std::vector<QString>& names, const std::vector<QString>& units,
                           std::vector<int> columns, const std::vector<int>& checked) {
  beginResetModel();
  names_ = &names;
  units_ = &units;
  columns_ = std::move(columns);
  checked_.assign(columns_.size(), 0);
  for (std::size_t r = 0; r < columns_.size(); ++r)
    checked_[r] = std::find(checked.begin(), checked.end(), columns_[r]) != checked.end() ? 1 : 0;
  endResetModel();
}

int SignalListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant SignalListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto r = static_cast<std::size_t>(index.row());
  const auto c = static_cast<std::size_t>(columns_[r]);
  switch (role) {
    case Qt::DisplayRole: return (*names_)[c];
    case Qt::ToolTipRole: return (*units_)[c];
    case Qt::CheckStateRole: return checked_[r] ? Qt::Checked : Qt::Unchecked;
    default: return {};
  }
}

Qt::ItemFlags SignalListModel::flags(const QModelIndex& index) const {
  return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable : Qt::NoItemFlags;
}

bool SignalListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::CheckStateRole || !index.isValid() || index.row() >= rowCount()) return false;
  const auto r = static_cast<std::size_t>(index.row());
  const bool on = value.toInt() == Qt::Checked;
  checked_[r] = on ? 1 : 0;
  emit dataChanged(index, index, {Qt::CheckStateRole});
  emit toggled((*names_)[static_cast<std::size_t>(columns_[r])], on);
  return true;
}

}  // namespace kt::ui
