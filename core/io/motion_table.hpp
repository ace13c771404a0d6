// SPDX-License-Identifier: BSD-3-Clause
// Tables of joint histories (docs/motion.md, "Trajectories from a file"): a CSV whose first column
// is `time` and whose other columns are named as the signals (q:<joint>[k] for a motion,
// tau:<joint>[k] for a tabulated drive; docs/signals.md), as kinetree-cli simulate and the
// application's Export Results write them. A column name may carry a unit in parentheses, as
// Export Results writes angles in degrees ("q:J11[0] (deg)"): degrees are converted to radians.
// Which units a column may carry is the caller's to check (the coordinates it reads: rad, deg or
// m; N·m or N). Columns of other signals are read and ignored by the caller.
//
// Every problem is a TableError naming the file, the line and the column (1-based, in
// characters), and what was expected: a header that does not start with time, a field that is
// not a finite number, a row with too many or too few fields, times that do not increase,
// fewer than two rows.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/diagnostic.hpp"

namespace kt {

struct MotionTable {
  struct Column {
    std::string name;            ///< the signal name, without its unit ("q:J11[0]")
    std::string unit;            ///< as written between the parentheses ("deg"); empty when none
    bool degrees = false;        ///< the file gave degrees (deg, deg/s, deg/s^2): values are now radians
    int fieldIndex = 0;          ///< 0-based field index in the row
    int headerColumn = 1;        ///< 1-based character column of the name in the header line
    std::vector<double> values;  ///< one per row, SI
  };
  std::string path;          ///< the file as given
  int headerLine = 1;        ///< 1-based line of the header (blank lines may precede it)
  std::vector<double> time;  ///< s, strictly increasing
  std::vector<Column> columns;
  /// Line numbers (1-based) of each row, for messages about a sample.
  std::vector<int> rowLines;

  /// The column of this signal name, or null.
  const Column* find(std::string_view name) const;
  /// "FILE:LINE:COL" of a column's header (for messages about a column).
  Diagnostic at(const Column& column, std::string message) const;
};

class TableError : public std::runtime_error {
 public:
  explicit TableError(Diagnostic d) : std::runtime_error(d.format()), diagnostic_(std::move(d)) {}
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

/// Reads the table at `path`. Throws TableError (unreadable file, malformed content).
MotionTable readMotionTable(const std::string& path);
/// The same from text; `path` names it in messages.
MotionTable parseMotionTable(std::string_view text, const std::string& path);

}  // namespace kt
