// SPDX-License-Identifier: BSD-3-Clause
#include "core/io/atomic_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kt {

namespace {

constexpr std::string_view kTag = "kinetree-partial-";

// When this process started (to the precision that matters: before any file it writes); a
// temporary file of this process's id that is older comes from an earlier process of that id.
const timespec kProcessStart = [] {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return now;
}();

std::string reasonOf(int error) { return std::strerror(error); }

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
      if (slash != std::string::npos) target.insert(0, p, 0, slash + 1);
    }
    p = target;
  }
  return p;
}

std::string directoryOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The mode a file written to `path` gets: that of the regular file it replaces, or what open(2)
// would give a new one.
mode_t modeFor(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? (st.st_mode & 07777) : (0666 & ~currentUmask());
}

// A rename needs only the folder's permission, so it would replace a file its owner made
// read-only (chmod a-w) or that belongs to someone else: refused as open(2) would refuse it.
void refuseWriteProtected(const std::string& shownPath, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), W_OK) != 0)
    throw std::runtime_error("cannot write " + shownPath + ": " + reasonOf(errno) + " (the file is write-protected)");
}

// After a rename: the directory entry itself on the disk (a failure here loses nothing that
// was there before, so it is not reported).
void syncDirectory(const std::string& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// Cleans each directory once per process: the first write there, not every one.
void removeStaleTemporariesOnce(const std::string& directory) {
  static std::mutex mutex;
  static std::set<std::string> done;
  {
    const std::lock_guard lock(mutex);
    if (!done.insert(directory).second) return;
  }
  removeStaleTemporaries(directory);
}

// The id of the process that made `name` when it is one of our temporary names
// ("<name>.kinetree-partial-<pid>-XXXXXX" or "kinetree-partial-<pid>-XXXXXX"), else 0.
long ownerOf(std::string_view name) {
  const std::size_t at = name.rfind(kTag);
  if (at == std::string_view::npos || (at > 0 && name[at - 1] != '.')) return 0;
  std::string_view rest = name.substr(at + kTag.size());
  long pid = 0;
  std::size_t k = 0;
  for (; k < rest.size() && k < 10 && rest[k] >= '0' && rest[k] <= '9'; ++k) pid = pid * 10 + (rest[k] - '0');
  if (k == 0 || k >= rest.size() || rest[k] != '-') return 0;
  rest = rest.substr(k + 1);
  if (rest.size() != 6) return 0;
  for (char c : rest)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return 0;
  return pid;
}

bool olderThanThisProcess(const struct stat& st) {
  return st.st_mtim.tv_sec < kProcessStart.tv_sec ||
         (st.st_mtim.tv_sec == kProcessStart.tv_sec && st.st_mtim.tv_nsec < kProcessStart.tv_nsec);
}

// --- fault injection ----------------------------------------------------------------------------

struct WriteFailure {
  std::mutex mutex;
  long long opened = 0;    ///< AtomicFiles made so far
  long long failFrom = 0;  ///< the first file that fails (0: none)
  long long afterBytes = 0;
  bool environmentRead = false;

  // Under the lock: KINETREE_FAIL_WRITES, once, before anything else sets the failure.
  void readEnvironment() {
    if (environmentRead) return;
    environmentRead = true;
    const char* text = std::getenv("KINETREE_FAIL_WRITES");
    if (!text || !*text) return;
    long long nth = 0, bytes = 0;
    if (std::sscanf(text, "%lld:%lld", &nth, &bytes) >= 1 && nth > 0) {
      failFrom = opened + nth;
      afterBytes = bytes < 0 ? 0 : bytes;
    }
  }
};

WriteFailure& writeFailure() {
  static WriteFailure state;
  return state;
}

// The injected failure of the file being made: the bytes after which it fails, or -1.
long long nextFileFailure() {
  WriteFailure& f = writeFailure();
  const std::lock_guard lock(f.mutex);
  f.readEnvironment();
  ++f.opened;
  return f.failFrom > 0 && f.opened >= f.failFrom ? f.afterBytes : -1;
}

}  // namespace

void setWriteFailureForTesting(int nthFile, long long afterBytes) {
  WriteFailure& f = writeFailure();
  const std::lock_guard lock(f.mutex);
  f.readEnvironment();
  f.failFrom = nthFile > 0 ? f.opened + nthFile : 0;
  f.afterBytes = afterBytes < 0 ? 0 : afterBytes;
}

bool isSpecialFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int removeStaleTemporaries(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  int removed = 0;
  const long self = static_cast<long>(::getpid());
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const long pid = ownerOf(name);
    if (pid <= 0) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    const bool stale =
        pid == self ? olderThanThisProcess(st) : ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
    if (!stale) continue;
    std::error_code ignored;
    if (fs::remove_all(it->path(), ignored) > 0) ++removed;
  }
  return removed;
}

// --- AtomicFile ---------------------------------------------------------------------------------

AtomicFile::AtomicFile(const std::string& path) : path_(resolveLinks(path)) {
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw std::runtime_error("cannot write " + path + ": it is a directory");
  if (isSpecialFile(path_)) {
    // a device or FIFO (/dev/null, /dev/stdout): a rename would put a regular file in its place
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("cannot open " + path + ": " + reasonOf(errno));
    failAfter_ = nextFileFailure();
    return;
  }
  refuseWriteProtected(path, path_);
  const mode_t mode = modeFor(path_);
  const std::string directory = directoryOf(path_);
  removeStaleTemporariesOnce(directory);
  const std::string tag = std::string(kTag) + std::to_string(::getpid()) + "-XXXXXX";
  std::string templ = path_ + "." + tag;
  fd_ = ::mkostemp(templ.data(), O_CLOEXEC);
  if (fd_ < 0 && errno == ENAMETOOLONG) {
    // a name near the limit of the file system: the tag alone, still one of ours
    templ = (directory == "/" ? directory : directory + "/") + tag;
    fd_ = ::mkostemp(templ.data(), O_CLOEXEC);
  }
  if (fd_ < 0) throw std::runtime_error("cannot create a file next to " + path + ": " + reasonOf(errno));
  ::fchmod(fd_, mode);
  tempPath_ = templ;
  failAfter_ = nextFileFailure();
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!tempPath_.empty()) ::unlink(tempPath_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
  if (fd_ < 0) throw std::runtime_error("write to " + path_ + " after commit");
  std::size_t count = bytes.size();
  if (failAfter_ >= 0 && written_ + static_cast<long long>(count) > failAfter_)
    count = static_cast<std::size_t>(failAfter_ - written_);  // the part that still fits
  const char* p = bytes.data();
  for (std::size_t left = count; left > 0;) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("cannot write " + path_ + ": " + reasonOf(n < 0 ? errno : ENOSPC));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  written_ += static_cast<long long>(count);
  if (count < bytes.size()) throw std::runtime_error("cannot write " + path_ + ": " + reasonOf(ENOSPC));
}

void AtomicFile::handOver() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

const std::string& AtomicFile::writePath() const { return tempPath_.empty() ? path_ : tempPath_; }

void AtomicFile::commit() {
  if (committed_) throw std::runtime_error("commit of " + path_ + " twice");
  committed_ = true;
  if (tempPath_.empty()) {  // a special file, written in place
    int error = failAfter_ >= 0 ? ENOSPC : 0;
    if (fd_ >= 0 && ::close(fd_) != 0 && !error) error = errno;
    fd_ = -1;
    if (error) throw std::runtime_error("cannot write " + path_ + ": " + reasonOf(error));
    return;
  }
  int error = 0;
  if (fd_ < 0) fd_ = ::open(tempPath_.c_str(), O_RDONLY | O_CLOEXEC);  // written by another writer
  if (fd_ < 0) error = errno;
  if (!error && failAfter_ >= 0) error = ENOSPC;
  if (!error && ::fsync(fd_) != 0) error = errno;
  if (fd_ >= 0 && ::close(fd_) != 0 && !error) error = errno;
  fd_ = -1;
  if (!error && std::rename(tempPath_.c_str(), path_.c_str()) != 0) error = errno;
  if (error) {
    ::unlink(tempPath_.c_str());
    tempPath_.clear();
    throw std::runtime_error("cannot write " + path_ + ": " + reasonOf(error));
  }
  tempPath_.clear();
  syncDirectory(directoryOf(path_));
}

void checkWritable(const std::string& path) {
  // AtomicFile's checks, and its temporary file made and removed at once (not an AtomicFile: that
  // would count as a file written for the fault injection of KINETREE_FAIL_WRITES)
  const std::string target = resolveLinks(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw std::runtime_error("cannot write " + path + ": it is a directory");
  if (isSpecialFile(target)) return;
  refuseWriteProtected(path, target);
  std::string probe = target + "." + std::string(kTag) + std::to_string(::getpid()) + "-XXXXXX";
  int fd = ::mkostemp(probe.data(), O_CLOEXEC);
  if (fd < 0 && errno == ENAMETOOLONG) {
    const std::string directory = directoryOf(target);
    probe =
        (directory == "/" ? directory : directory + "/") + std::string(kTag) + std::to_string(::getpid()) + "-XXXXXX";
    fd = ::mkostemp(probe.data(), O_CLOEXEC);
  }
  if (fd < 0) throw std::runtime_error("cannot create a file next to " + path + ": " + reasonOf(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

// --- StagedFileSet ------------------------------------------------------------------------------

StagedFileSet::StagedFileSet(std::string directory) : directory_(std::move(directory)) {
  if (directory_.empty()) directory_ = ".";
  removeStaleTemporariesOnce(directory_);
  std::string templ = directory_ + "/" + std::string(kTag) + std::to_string(::getpid()) + "-XXXXXX";
  if (!::mkdtemp(templ.data()))
    throw std::runtime_error("cannot write into the folder " + directory_ + ": " + reasonOf(errno));
  staging_ = templ;
}

StagedFileSet::~StagedFileSet() {
  std::error_code ignored;
  if (!staging_.empty()) std::filesystem::remove_all(staging_, ignored);
}

std::string StagedFileSet::stagingPath(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    throw std::runtime_error("not a file name: '" + name + "'");
  if (staging_.empty()) throw std::runtime_error("a file staged in " + directory_ + " after the commit");
  const std::string target = directory_ + "/" + name;
  refuseWriteProtected(target, resolveLinks(target));  // now, before anything is written
  names_.push_back(name);
  return staging_ + "/" + name;
}

void StagedFileSet::commit() {
  if (staging_.empty()) throw std::runtime_error("commit of the files in " + directory_ + " twice");
  for (const std::string& name : names_) {
    const std::string from = staging_ + "/" + name;
    const std::string to = resolveLinks(directory_ + "/" + name);
    struct stat st {};
    if (::stat(from.c_str(), &st) != 0) throw std::runtime_error(to + " was not written");
    if (::stat(to.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      throw std::runtime_error("cannot write " + to + ": it is a directory");
    ::chmod(from.c_str(), modeFor(to));
    if (std::rename(from.c_str(), to.c_str()) != 0)
      throw std::runtime_error("cannot write " + to + ": " + reasonOf(errno));
  }
  syncDirectory(directory_);
  ::rmdir(staging_.c_str());
  staging_.clear();
}

}  // namespace kt
