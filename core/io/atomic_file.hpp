// SPDX-License-Identifier: BSD-3-Clause
// How Kinetree writes a file: every file the application and the CLI write (CSV, metadata, model
// and recovery files, URDF, plot figures, screenshots, videos) goes through AtomicFile or
// StagedFileSet. The bytes go to a temporary file in the target's folder, are flushed to the disk
// (fsync) and the temporary file is renamed over the target, so that the target holds either its
// old or its new contents and never a part of them (a full disk, a failing device, a crash). On
// failure the temporary file is removed, the target is untouched, and the exception says why
// (strerror: "No space left on device").
//
// Temporary names say what they are: "<name>.kinetree-partial-<pid>-XXXXXX" beside the target,
// and "kinetree-partial-<pid>-XXXXXX" for the folder of a set of files. A process killed while
// writing (kill -9, a power cut) leaves such a name behind; the first write into a folder in a
// later process removes those whose process has ended (removeStaleTemporaries).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kt {

/// A file written under a temporary name in the target's directory and renamed onto the target
/// by commit(). Destroying it without commit() removes the temporary file (the target is never
/// left half-written). The file gets the mode of the file it replaces, or for a new file 0666
/// less the process umask, as open(2) would give it. Through a symbolic link the link's target
/// is replaced and the link stays. A device or FIFO (isSpecialFile: /dev/null, /dev/stdout) is
/// written in place, since a rename would replace it with a regular file. A file the process may
/// not write (read-only, or someone else's) is refused, as open(2) would refuse it, although the
/// rename would be allowed.
class AtomicFile {
 public:
  /// Creates the temporary file. Throws std::runtime_error when it cannot.
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends bytes. Throws std::runtime_error on a write error.
  void write(std::string_view bytes);
  /// Closes the file so that another writer fills it by writePath() (the video encoder opens
  /// and writes it itself); commit() then syncs and renames what it wrote.
  void handOver();
  /// Where the bytes go: the temporary file, or a special file itself.
  const std::string& writePath() const;
  /// Flushes to the disk, closes and renames onto the target. Throws std::runtime_error on failure.
  void commit();
  const std::string& path() const { return path_; }
  /// The temporary file until commit() (empty afterwards, and for a special file): what a
  /// signal handler must remove.
  const std::string& temporaryPath() const { return tempPath_; }

 private:
  std::string path_;
  std::string tempPath_;
  int fd_ = -1;
  bool committed_ = false;
  long long written_ = 0;
  long long failAfter_ = -1;  ///< the injected failure (setWriteFailureForTesting): -1 none
};

/// Throws what AtomicFile(path) would throw (no folder, a directory, a write-protected file, a
/// full or read-only disk at the creation of the temporary file), leaving nothing behind: the check
/// of an output before a long computation. A special file is not opened (a FIFO would be taken).
void checkWritable(const std::string& path);

/// `bytes` atomically to `path` (AtomicFile). Throws std::runtime_error with the reason.
void writeFileAtomically(const std::string& path, std::string_view bytes);

/// A set of files in one directory that replaces the files of the same names only once all of
/// them were written: each is written into a temporary folder inside `directory`, and commit()
/// renames them into place one after another. Every rename is atomic, the set as a whole is not:
/// a crash during commit() (a few renames) leaves some files new and the rest old, but a failure
/// while writing (a full disk, a cancelled export) leaves every old file as it was.
class StagedFileSet {
 public:
  /// Creates the temporary folder. Throws std::runtime_error when it cannot.
  explicit StagedFileSet(std::string directory);
  /// Removes the temporary folder and what is still in it.
  ~StagedFileSet();
  StagedFileSet(const StagedFileSet&) = delete;
  StagedFileSet& operator=(const StagedFileSet&) = delete;

  /// Where to write the file `name` (a name without slashes) until commit(): in the temporary
  /// folder. Write it there by any means (writeFileAtomically keeps the reason of a failure).
  std::string stagingPath(const std::string& name);
  /// Renames every staged file over its name in the directory, in the order they were staged.
  /// Throws std::runtime_error at the first that cannot be (one never written, a failed rename).
  void commit();
  const std::string& directory() const { return directory_; }
  const std::string& stagingDirectory() const { return staging_; }

 private:
  std::string directory_;
  std::string staging_;
  std::vector<std::string> names_;
};

/// True when `path` names something a rename cannot replace and that is written in place: an
/// existing FIFO, character or block device or socket, also through symbolic links.
bool isSpecialFile(const std::string& path);

/// Removes the temporary files and folders (AtomicFile, StagedFileSet) in `directory` that a
/// process which has ended left behind: those named with the id of a process that no longer
/// exists, or with this process's id and older than this process (an earlier process of the same
/// id). Others' files in progress are left alone. Returns how many were removed. Called by the
/// first AtomicFile or StagedFileSet in each directory of a process.
int removeStaleTemporaries(const std::string& directory);

/// Fault injection for tests: from the `nthFile`-th AtomicFile made from now on (1: the next
/// one), every file fails with ENOSPC ("No space left on device") once `afterBytes` bytes were
/// written to it, a shorter one at its commit: a disk that has filled up. 0 turns it off. The
/// environment variable KINETREE_FAIL_WRITES ("N" or "N:BYTES") sets it when a process starts
/// writing, for the CLI and GUI under test.
void setWriteFailureForTesting(int nthFile, long long afterBytes = 0);

}  // namespace kt
