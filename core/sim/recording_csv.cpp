#include "core/sim/recording_csv.hpp"

#include <algorithm>

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

}  // namespace

RowRange selectedRows(const Recorder& recorder, const RecordingSelection& selection) {
  return recorder.read([&](const Recorder::Rows& rows) {
    const auto firstWhere = [&](auto after) {  // first row whose time is `after`
      std::size_t lo = 0, hi = rows.size();
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (after(rows.value(mid, 0))) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    };
    RowRange r;
    r.first = firstWhere([&](double t) { return t >= selection.t0; });
    r.end = std::max(r.first, firstWhere([&](double t) { return t > selection.t1; }));
    const std::size_t every = std::max<std::size_t>(selection.every, 1);
    r.count = (r.end - r.first + every - 1) / every;
    return r;
  });
}

bool writeRecordingCsv(const Recorder& recorder, const SignalLayout& layout, const RecordingSelection& selection,
                       const std::string& path,
                       const std::function<bool(std::size_t written, std::size_t total)>& progress) {
  const std::vector<int> columns = columnsOf(layout, selection);
  const RowRange range = selectedRows(recorder, selection);
  const std::size_t every = std::max<std::size_t>(selection.every, 1);
  std::vector<std::string> header;
  header.reserve(columns.size());
  for (int c : columns) header.push_back(layout.names()[static_cast<std::size_t>(c)]);

  CsvWriter csv(path);
  csv.header(header);
  // Rows are read a block at a time under the recorder's reader lock, so that a run still
  // recording waits at most for one block.
  constexpr std::size_t kBlockRows = 2048;
  std::vector<double> out(columns.size());
  std::size_t written = 0;
  for (std::size_t k = range.first; k < range.end;) {
    const std::size_t blockEnd = std::min(range.end, k + kBlockRows * every);
    recorder.read([&](const Recorder::Rows& rows) {
      for (; k < blockEnd; k += every) {
        for (std::size_t c = 0; c < columns.size(); ++c) out[c] = rows.value(k, columns[c]);
        csv.row(out);
        ++written;
      }
    });
    if (progress && !progress(written, range.count)) return false;  // the destructor drops the file
  }
  csv.finish();
  if (progress) progress(written, range.count);
  return true;
}

}  // namespace kt
