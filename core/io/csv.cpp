// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/csv.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/model/text_util.hpp"

namespace kt {

void appendCsvNumber(std::string& out, double x) { appendSignificant(out, x, 17); }

void appendCsvField(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void appendCsvHeader(std::string& out, const std::vector<std::string>& names) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (k) out.push_back(',');
    appendCsvField(out, names[k]);
  }
  out.push_back('\n');
}

void appendCsvRow(std::string& out, std::span<const double> values) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (k) out.push_back(',');
    appendCsvNumber(out, values[k]);
  }
  out.push_back('\n');
}

// ---------------------------------------------------------------------------------------------

namespace {
constexpr std::size_t kFlushBytes = 1 << 20;
}

CsvWriter::CsvWriter(std::FILE* file) : stream_(file) { buffer_.reserve(kFlushBytes + 4096); }

CsvWriter::CsvWriter(const std::string& path) {
  if (isSpecialFile(path)) {
    // a FIFO or device: opened as it is (a FIFO waits here for its reader), never replaced
    stream_ = std::fopen(path.c_str(), "wb");
    if (!stream_) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    ownsStream_ = true;
  } else {
    file_ = std::make_unique<AtomicFile>(path);
  }
  buffer_.reserve(kFlushBytes + 4096);
}

CsvWriter::~CsvWriter() {
  if (ownsStream_ && stream_) std::fclose(stream_);
}

void CsvWriter::flush() {
  if (file_) {
    file_->write(buffer_);
  } else if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), stream_) != buffer_.size()) {
    throw std::runtime_error(std::string("cannot write the CSV output: ") + std::strerror(errno));
  }
  buffer_.clear();
}

void CsvWriter::header(const std::vector<std::string>& names) {
  appendCsvHeader(buffer_, names);
  if (buffer_.size() >= kFlushBytes) flush();
}

void CsvWriter::row(std::span<const double> values) {
  appendCsvRow(buffer_, values);
  if (buffer_.size() >= kFlushBytes) flush();
}

void CsvWriter::raw(std::string_view text) {
  buffer_ += text;
  if (buffer_.size() >= kFlushBytes) flush();
}

void CsvWriter::finish() {
  flush();
  if (file_) {
    file_->commit();
  } else if (ownsStream_) {
    const int closed = std::fclose(stream_);
    stream_ = nullptr;
    if (closed != 0) throw std::runtime_error(std::string("cannot write the CSV output: ") + std::strerror(errno));
  } else if (std::fflush(stream_) != 0) {
    throw std::runtime_error(std::string("cannot write the CSV output: ") + std::strerror(errno));
  }
}

void writeCsvFile(const std::string& path, const std::vector<std::string>& names,
                  std::span<const double> rowMajorValues) {
  CsvWriter w(path);
  w.header(names);
  const std::size_t width = names.size();
  for (std::size_t k = 0; width > 0 && k + width <= rowMajorValues.size(); k += width)
    w.row(rowMajorValues.subspan(k, width));
  w.finish();
}

}  // namespace kt
