// SPDX-License-Identifier: BSD-3-Clause
// CSV output of a run: a header row of signal names, then one row per sample, numbers as
// printf("%.17g") would write them in the "C" locale (std::to_chars: independent of the process
// locale, round-trips every double). Fields that contain a comma, quote or line break are quoted
// (RFC 4180). A regular file (or a new path) is written atomically (AtomicFile,
// core/io/atomic_file.hpp): a temporary file in the same directory, renamed over the target only
// when everything was written; through a symbolic link the link's target is replaced and the link
// stays. Anything else (a FIFO, a character device such as /dev/null, a process substitution
// /dev/fd/N) is written straight through, since it cannot be replaced by a rename.
#pragma once

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/atomic_file.hpp"

namespace kt {

/// Appends x as "%.17g" in the "C" locale ("nan", "inf", "-inf" for non-finite values).
void appendCsvNumber(std::string& out, double x);
/// Appends a field, quoted when needed.
void appendCsvField(std::string& out, std::string_view field);
/// Appends the header row (fields joined by commas, then '\n').
void appendCsvHeader(std::string& out, const std::vector<std::string>& names);
/// Appends one row of numbers (joined by commas, then '\n').
void appendCsvRow(std::string& out, std::span<const double> values);

/// Streams CSV rows to a std::FILE* (stdout) or an AtomicFile, buffering about 1 MB at a time.
class CsvWriter {
 public:
  /// Writes to `file` (not owned; e.g. stdout).
  explicit CsvWriter(std::FILE* file);
  /// Writes atomically to `path` (finish() commits), or straight through to a special file
  /// (isSpecialFile). Throws std::runtime_error when it cannot be opened.
  explicit CsvWriter(const std::string& path);
  ~CsvWriter();
  /// The temporary file of an atomic write (empty otherwise).
  std::string temporaryPath() const { return file_ ? file_->temporaryPath() : std::string(); }

  void header(const std::vector<std::string>& names);
  void row(std::span<const double> values);
  /// Text already in CSV form (or any text), written as it is.
  void raw(std::string_view text);
  /// Flushes; for a file target, commits it. Throws std::runtime_error on a write error.
  void finish();

 private:
  void flush();
  std::FILE* stream_ = nullptr;
  bool ownsStream_ = false;  ///< a special file opened by path (closed by finish / the destructor)
  std::unique_ptr<AtomicFile> file_;
  std::string buffer_;
};

/// Whole table at once: header + rows (each of names.size() values), atomically to `path`.
void writeCsvFile(const std::string& path, const std::vector<std::string>& names,
                  std::span<const double> rowMajorValues);

}  // namespace kt
