// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/csv.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

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

// The process umask, without changing it (Linux reports it in /proc/self/status); where that is
// not available, set and restore it at once.
mode_t currentUmask() {
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(f);
    if (found) return static_cast<mode_t>(mask);
  }
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

// Where the bytes of `path` go: through symbolic links to the file they name, so that a rename
// replaces the target and leaves the link (a dangling link: the path it points to).
std::string resolveLinks(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
    const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
    if (n < 0) return p;
    target.resize(static_cast<std::size_t>(n));
    if (!target.empty() && target[0] != '/') {
      const std::size_t slash = p.rfind('/');
      if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
    }
    p = target;
  }
  return p;
}

}  // namespace

bool isSpecialFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

AtomicFile::AtomicFile(std::string path) : path_(resolveLinks(path)) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw std::runtime_error("cannot write " + path + ": it is a directory");
  // the mode of the file it replaces, or what open(2) would give a new one
  const mode_t mode =
      ::stat(path_.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 07777) : (0666 & ~currentUmask());
  std::string templ = path_ + ".tmpXXXXXX";
  const int fd = ::mkstemp(templ.data());
  if (fd < 0) throw std::runtime_error("cannot create a file next to " + path + ": " + std::strerror(errno));
  ::fchmod(fd, mode);
  tempPath_ = templ;
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    std::remove(tempPath_.c_str());
    throw std::runtime_error("cannot open " + tempPath_ + ": " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (file_) {
    std::fclose(file_);
    std::remove(tempPath_.c_str());
  }
}

void AtomicFile::write(std::string_view bytes) {
  if (!file_) throw std::runtime_error("write to " + path_ + " after commit");
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  if (!file_) throw std::runtime_error("commit of " + path_ + " twice");
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed || std::rename(tempPath_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(tempPath_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + reason);
  }
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
