// SPDX-License-Identifier: BSD-3-Clause
// A recorded run written as CSV in exactly the form of `kinetree-cli simulate` (core/io/csv.hpp:
// the signal names as the header, numbers as %.17g, the same column order), for the rows and
// columns a user selects: a time range, every k-th sample, any set of signals (time first), and
// on request angles in degrees.
// The application's File ▸ Export Results uses it on the run's Recorder.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/results/recorder.hpp"
#include "core/results/signals.hpp"

namespace kt {

struct RecordingSelection {
  /// Signal indices in the order of the columns; time (index 0) is put first when it is missing.
  /// Empty: every signal.
  std::vector<int> columns;
  double t0 = -std::numeric_limits<double>::infinity();  ///< first time (inclusive)
  double t1 = std::numeric_limits<double>::infinity();   ///< last time (inclusive)
  std::size_t every = 1;                                 ///< every k-th sample of the range, from its first
  /// Angles (the signals in rad, rad/s, rad/s^2) in degrees: their values × 180/π and their
  /// header names followed by the unit, e.g. "q:J1[0] (deg)". Off: SI, as simulate writes.
  bool anglesInDegrees = false;
};

/// The rows [first, end) of the recording inside the selection's time range (binary search on the
/// time column), and how many of them the selection writes.
struct RowRange {
  std::size_t first = 0, end = 0, count = 0;
};
RowRange selectedRows(const Recorder& recorder, const RecordingSelection& selection);

/// Writes the selected rows published when it is called (a run may go on recording) to `path`:
/// atomically over a regular file or a new path, in place for a FIFO or device (CsvWriter).
/// Each row is copied out under the recorder's reader lock and formatted outside it, so a run
/// still recording waits at most for one row's copy. `progress(written, total)` is called every
/// thousand rows; when it returns false the export stops, the target is left as it was, and
/// the function returns false. `written` (if given) receives the rows written. Throws
/// std::runtime_error when the file cannot be written.
bool writeRecordingCsv(const Recorder& recorder, const SignalLayout& layout, const RecordingSelection& selection,
                       const std::string& path,
                       const std::function<bool(std::size_t written, std::size_t total)>& progress = {},
                       RowRange* written = nullptr);

}  // namespace kt
