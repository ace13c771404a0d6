// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/recording_csv.hpp"

#include <algorithm>
#include <numbers>

#include "core/io/csv.hpp"

namespace kt {

namespace {

std::vector<int> columnsOf(const SignalLayout& layout, const RecordingSelection& selection) {
  std::vector<int> columns = selection.columns;
  if (columns.empty()) {
    columns.resize(static_cast<std::size_t>(layout.size()));
    for (int c = 0; c < layout.size(); ++c) columns[static_cast<std::size_t>(c)] = c;
  }
  if (columns.front() != 0) {
    std::erase(columns, 0);
    columns.insert(columns.begin(), 0);
  }
  return columns;
}

// The unit in degrees of an angle unit ("rad/s" → "deg/s"), empty for other units.
std::string degreeUnit(const std::string& unit) {
  if (unit.rfind("rad", 0) != 0) return {};
  return "deg" + unit.substr(3);
}

}  // namespace

RowRange selectedRows(const Recorder& recorder, const RecordingSelection& selection) {
  return recorder.read([&](const Recorder::Rows& rows) {
    RowRange r;
    r.first = rows.firstRowWhere([&](double t) { return t >= selection.t0; });
    r.end = std::max(r.first, rows.firstRowWhere([&](double t) { return t > selection.t1; }));
    const std::size_t every = std::max<std::size_t>(selection.every, 1);
    r.count = (r.end - r.first + every - 1) / every;
    return r;
  });
}

bool writeRecordingCsv(const Recorder& recorder, const SignalLayout& layout, const RecordingSelection& selection,
                       const std::string& path,
                       const std::function<bool(std::size_t written, std::size_t total)>& progress, RowRange* written) {
  const std::vector<int> columns = columnsOf(layout, selection);
  const RowRange range = selectedRows(recorder, selection);
  if (written) *written = range;
  const std::size_t every = std::max<std::size_t>(selection.every, 1);
  std::vector<std::string> header;
  std::vector<double> scale(columns.size(), 1.0);
  header.reserve(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const SignalInfo& info = layout.infos()[static_cast<std::size_t>(columns[c])];
    header.push_back(info.name);
    if (const std::string deg = degreeUnit(info.unit); selection.anglesInDegrees && !deg.empty()) {
      scale[c] = 180.0 / std::numbers::pi;
      header.back() += " (" + deg + ")";
    }
  }

  CsvWriter csv(path);
  csv.header(header);
  constexpr std::size_t kProgressRows = 1024;
  std::vector<double> row(static_cast<std::size_t>(recorder.width()));
  std::vector<double> out(columns.size());
  std::size_t done = 0;
  for (std::size_t k = range.first; k < range.end; k += every) {
    recorder.copyRows(k, k + 1, row.data());
    for (std::size_t c = 0; c < columns.size(); ++c) out[c] = scale[c] * row[static_cast<std::size_t>(columns[c])];
    csv.row(out);
    if (++done % kProgressRows == 0 && progress && !progress(done, range.count))
      return false;  // the destructor drops the file
  }
  csv.finish();
  if (progress) progress(done, range.count);
  return true;
}

}  // namespace kt
