// SPDX-License-Identifier: BSD-3-Clause
// Time series of a run: one row of `width` doubles per output sample (the signals of a
// SignalLayout, in its order), stored in fixed-size chunks so that appending never moves
// recorded data, plus the newest state (t, q, ν) for the 3D view.
//
// Threading contract (one writer, any number of readers):
//   - Writer calls (the simulation thread only): clear(), reserve(), append(), nextRow(),
//     publish(), replaceLatest().
//   - Reader calls (any thread, concurrently with the writer): size(), generation(),
//     copyRows(), copyColumn(), timeOf(), rowAtTime(), firstRowAfter(), read(), latest(). They are const and
//     thread-safe.
//   - Rows [0, size()) never change until clear(); a reader copies them under a short lock that
//     the writer takes only when it adds a chunk (every chunkRows() rows, or never after
//     reserve()) or in clear(). An ordinary append() publishes the new row with a release store
//     and takes no lock, so a reader never blocks the writer for more than one copy.
//   - read() hands a callback the published rows in place, under the same lock, for a scan that
//     needs no copy (the plots' decimation); the writer waits for it only where it would wait
//     for a copy (a new chunk, clear()), and then for as long as the callback runs.
//   - latest() copies the newest state under its own small lock, which append() holds for the
//     copy of q and ν only.
//   - clear() increments generation(): a reader that sees a new generation starts over at row 0.
//     So does replaceLatest(), the one change of a published row (a pose set while paused,
//     docs/interaction.md): it rewrites the newest row under the readers' lock.
// Derived columns (setDeriver): a row may be published with some columns still to be computed
// from its others (the derived signals, core/results/signal_deriver.hpp). Every reader call that
// reads rows first computes them for the rows published when it was called, in order, under a
// lock of their own that readers take one at a time (the deriver's scratch is used by one reader
// at a time) and the writer only in clear() and replaceLatest(); not under the readers' lock,
// which a new chunk needs: the writer never waits for a derivation but in those two calls. The
// writer never touches a published row otherwise, so a reader never sees a row without its
// derived columns and each row is derived once.
// Storage grows without bound: a 500 Hz run of 100 signals takes 0.4 MB per simulated second.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <Eigen/Core>

namespace kt {

/// The newest state of a run, as copied by Recorder::latest().
struct RecordedState {
  double t = 0.0;
  Eigen::VectorXd q;    ///< (nq)
  Eigen::VectorXd v;    ///< (nv) joint velocities ν
  std::size_t row = 0;  ///< index of the sample this state belongs to
  std::uint64_t generation = 0;
};

class Recorder {
 public:
  /// width: values per row; nq, nv: sizes of the state kept for latest(); chunkRows: rows per chunk.
  Recorder(int width, int nq, int nv, std::size_t chunkRows = 1024);
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// derive(row, previous) writes the derived columns of `row` from its other columns;
  /// `previous` is the row before it (derived already), null for row 0. Set before the first
  /// append; called on whichever reader's thread reads the row first, one call at a time.
  using Deriver = std::function<void(double* row, const double* previous)>;
  void setDeriver(Deriver derive) { derive_ = std::move(derive); }

  // ---- writer (simulation thread) ----
  /// Forgets every row (keeps the storage) and starts a new generation.
  void clear();
  /// Allocates storage for at least `rows` rows now, so that appending them allocates nothing.
  void reserve(std::size_t rows);
  /// Appends one row (width() values) and publishes (t, q, ν) as the newest state.
  void append(const double* row, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// The row the next append() or publish() adds, to be written in place (width() values; it
  /// holds anything until then). Adds a chunk when the rows are used up.
  double* nextRow();
  /// Appends the row nextRow() gave, as written, with (t, q, ν) as the newest state.
  void publish(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  /// Rewrites the newest row and state (same time: the sample of a state set between steps) and
  /// starts a new generation, so that readers read the rows again. `row` may be nextRow().
  void replaceLatest(const double* row, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  // ---- readers (any thread) ----
  int width() const { return width_; }
  std::size_t chunkRows() const { return chunkRows_; }
  /// Number of published rows.
  std::size_t size() const { return size_.load(std::memory_order_acquire); }
  std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  /// Copies rows [k0, min(k1, size())) row-major into out (room for (k1 − k0) · width() values).
  /// Returns the number of rows copied.
  std::size_t copyRows(std::size_t k0, std::size_t k1, double* out) const;
  /// Copies one column (signal index) of rows [k0, min(k1, size())) into out. Returns the count.
  std::size_t copyColumn(int column, std::size_t k0, std::size_t k1, double* out) const;
  /// The time of row k (column 0); NaN when k is not recorded.
  double timeOf(std::size_t k) const;
  /// The newest row whose time (column 0) is at or before t: 0 when t precedes every row or none
  /// is recorded. Binary search, O(log size()).
  std::size_t rowAtTime(double t) const;
  /// The first row whose time is later than t (size() when none is). Binary search.
  std::size_t firstRowAfter(double t) const;
  /// Convenience: the whole column as a vector (allocates; not for hot paths).
  std::vector<double> column(int column) const;
  /// The newest state; false when nothing has been recorded in this generation.
  bool latest(RecordedState& out) const;

  /// The rows published when read() was called, in place. Valid only inside that call.
  class Rows {
   public:
    std::size_t size() const { return size_; }
    int width() const { return recorder_.width_; }
    double value(std::size_t row, int column) const { return recorder_.rowPointer(row)[column]; }
    /// The time of row k (column 0).
    double time(std::size_t row) const { return recorder_.rowPointer(row)[0]; }
    /// The first row in [0, end) whose time satisfies `after` (a predicate false, then true,
    /// along the rows, as times only grow): std::partition_point by bisection, in place.
    template <class After>
    std::size_t firstRowWhere(After&& after, std::size_t end) const {
      std::size_t lo = 0, hi = std::min(end, size_);
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (after(time(mid)))
          hi = mid;
        else
          lo = mid + 1;
      }
      return lo;
    }
    template <class After>
    std::size_t firstRowWhere(After&& after) const {
      return firstRowWhere(after, size_);
    }
    /// visit(k, row) for k in [k0, min(k1, size())) in order; `row` points at width() values.
    template <class Visit>
    void forEachRow(std::size_t k0, std::size_t k1, Visit&& visit) const {
      const std::size_t chunk = recorder_.chunkRows_, width = static_cast<std::size_t>(recorder_.width_);
      const std::size_t end = std::min(k1, size_);
      for (std::size_t k = k0; k < end;) {
        const double* row = recorder_.rowPointer(k);
        for (const std::size_t runEnd = std::min(end, k - k % chunk + chunk); k < runEnd; ++k, row += width)
          visit(k, row);  // contiguous inside one chunk
      }
    }

   private:
    friend class Recorder;
    Rows(const Recorder& recorder, std::size_t size) : recorder_(recorder), size_(size) {}
    const Recorder& recorder_;
    std::size_t size_;
  };
  /// Calls reader(rows) with the rows published now, under the reader lock, and returns its
  /// result. reader must not call this Recorder's other readers (the lock is not recursive).
  template <class Reader>
  decltype(auto) read(Reader&& reader) const {
    const std::size_t n = size_.load(std::memory_order_acquire);
    derive(n);
    std::lock_guard lock(chunkMutex_);
    return reader(Rows(*this, std::min(n, ready())));
  }

  /// Calls visit(row) for each row from `first` to those published now, in order, a block of
  /// rows at a time under the reader lock (the writer waits at most one block); returns the end
  /// of what was read, the `first` of the next call. visit must not call this Recorder's readers.
  template <class Visit>
  std::size_t scan(std::size_t first, Visit&& visit) const {
    constexpr std::size_t kBlockRows = 4096;
    for (const std::size_t end = size(); first < end;) {
      const std::size_t blockEnd = std::min(end, first + kBlockRows);
      read([&](const Rows& rows) {
        rows.forEachRow(first, blockEnd, [&](std::size_t, const double* row) { visit(row); });
      });
      first = blockEnd;
    }
    return first;
  }

  /// Direct read for the writer thread, or once the writer has stopped (no lock once the row's
  /// derived columns are written).
  double value(std::size_t row, int column) const {
    if (derive_ && row >= derived_.load(std::memory_order_acquire)) derive(size_.load(std::memory_order_acquire));
    return chunks_[row / chunkRows_][(row % chunkRows_) * width_ + column];
  }

 private:
  /// The rows a reader may read, chunkMutex_ held: published and derived in this generation (a
  /// clear() between a reader's derive() and its lock leaves none).
  std::size_t ready() const {
    return derive_ ? derived_.load(std::memory_order_acquire) : size_.load(std::memory_order_acquire);
  }
  /// Writes the derived columns of rows [derived_, end) (published rows), under deriveMutex_;
  /// takes chunkMutex_ only to find each chunk's rows.
  void derive(std::size_t end) const;
  double* rowPointer(std::size_t row) const { return chunks_[row / chunkRows_].get() + (row % chunkRows_) * width_; }
  void addChunk();  // takes chunkMutex_

  int width_;
  std::size_t chunkRows_;
  std::vector<std::unique_ptr<double[]>> chunks_;  ///< changed only under chunkMutex_
  mutable std::mutex chunkMutex_;                  ///< guards chunks_ (the directory) and clear()
  std::atomic<std::size_t> size_{0};
  Deriver derive_;                               ///< empty: no derived columns
  mutable std::atomic<std::size_t> derived_{0};  ///< rows with their derived columns; changed under deriveMutex_
  mutable std::mutex deriveMutex_;               ///< one derivation at a time; clear() and replaceLatest()
  std::atomic<std::uint64_t> generation_{0};

  mutable std::mutex stateMutex_;  ///< guards the fields below
  double latestT_ = 0.0;
  Eigen::VectorXd latestQ_, latestV_;
  std::size_t latestRow_ = 0;
  bool haveLatest_ = false;
};

}  // namespace kt
