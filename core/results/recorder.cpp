// SPDX-License-Identifier: BSD-3-Clause
#include "core/results/recorder.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace kt {

Recorder::Recorder(int width, int nq, int nv, std::size_t chunkRows)
    : width_(width), chunkRows_(std::max<std::size_t>(chunkRows, 1)) {
  latestQ_.setZero(nq);
  latestV_.setZero(nv);
  chunks_.reserve(64);
}

void Recorder::addChunk() {
  auto chunk = std::make_unique<double[]>(chunkRows_ * static_cast<std::size_t>(std::max(width_, 1)));
  std::lock_guard lock(chunkMutex_);
  chunks_.push_back(std::move(chunk));
}

void Recorder::clear() {
  {
    std::scoped_lock lock(deriveMutex_, chunkMutex_);
    size_.store(0, std::memory_order_release);
    derived_.store(0, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  std::lock_guard lock(stateMutex_);
  haveLatest_ = false;
}

void Recorder::reserve(std::size_t rows) {
  while (chunks_.size() * chunkRows_ < rows) addChunk();
}

double* Recorder::nextRow() {
  const std::size_t k = size_.load(std::memory_order_relaxed);  // only this thread writes size_
  if (k / chunkRows_ >= chunks_.size()) addChunk();
  return rowPointer(k);
}

void Recorder::append(const double* row, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  std::memcpy(nextRow(), row, sizeof(double) * static_cast<std::size_t>(width_));
  publish(t, q, v);
}

void Recorder::publish(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const std::size_t k = size_.load(std::memory_order_relaxed);
  if (k / chunkRows_ >= chunks_.size()) addChunk();  // a row nobody wrote: as new storage holds it
  size_.store(k + 1, std::memory_order_release);
  std::lock_guard lock(stateMutex_);
  latestT_ = t;
  latestQ_ = q;  // same sizes: no allocation
  latestV_ = v;
  latestRow_ = k;
  haveLatest_ = true;
}

void Recorder::replaceLatest(const double* row, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const std::size_t n = size_.load(std::memory_order_relaxed);
  if (n == 0) {
    if (row != nextRow()) std::memcpy(nextRow(), row, sizeof(double) * static_cast<std::size_t>(width_));
    publish(t, q, v);
    return;
  }
  {
    std::scoped_lock lock(deriveMutex_, chunkMutex_);
    std::memcpy(rowPointer(n - 1), row, sizeof(double) * static_cast<std::size_t>(width_));
    derived_.store(std::min(derived_.load(std::memory_order_relaxed), n - 1), std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  std::lock_guard lock(stateMutex_);
  latestT_ = t;
  latestQ_ = q;
  latestV_ = v;
  latestRow_ = n - 1;
  haveLatest_ = true;
}

void Recorder::derive(std::size_t end) const {
  if (!derive_ || derived_.load(std::memory_order_acquire) >= end) return;
  std::lock_guard lock(deriveMutex_);
  // published in this generation: a clear() between the caller's size() and this lock started over
  end = std::min(end, size_.load(std::memory_order_acquire));
  std::size_t k = derived_.load(std::memory_order_relaxed);
  const double* previous = nullptr;
  while (k < end) {
    // the rows of one chunk: its storage stays where it is until clear(), which waits for us
    double* row = nullptr;
    std::size_t runEnd = 0;
    {
      std::lock_guard chunks(chunkMutex_);
      if (k > 0 && !previous) previous = rowPointer(k - 1);
      row = rowPointer(k);
      runEnd = std::min(end, k - k % chunkRows_ + chunkRows_);
    }
    for (; k < runEnd; ++k, row += width_) {
      derive_(row, previous);
      previous = row;
    }
    derived_.store(k, std::memory_order_release);
  }
}

std::size_t Recorder::copyRows(std::size_t k0, std::size_t k1, double* out) const {
  const std::size_t n = size_.load(std::memory_order_acquire);
  derive(n);
  std::lock_guard lock(chunkMutex_);
  const std::size_t end = std::min({k1, n, ready()});
  std::size_t k = k0;
  while (k < end) {
    // contiguous run inside one chunk
    const std::size_t run = std::min(end - k, chunkRows_ - k % chunkRows_);
    std::memcpy(out, rowPointer(k), sizeof(double) * run * static_cast<std::size_t>(width_));
    out += run * static_cast<std::size_t>(width_);
    k += run;
  }
  return end > k0 ? end - k0 : 0;
}

std::size_t Recorder::copyColumn(int column, std::size_t k0, std::size_t k1, double* out) const {
  const std::size_t n = size_.load(std::memory_order_acquire);
  derive(n);
  std::lock_guard lock(chunkMutex_);
  const std::size_t end = std::min({k1, n, ready()});
  for (std::size_t k = k0; k < end; ++k) *out++ = rowPointer(k)[column];
  return end > k0 ? end - k0 : 0;
}

double Recorder::timeOf(std::size_t k) const {
  std::lock_guard lock(chunkMutex_);
  return k < size_.load(std::memory_order_acquire) ? rowPointer(k)[0] : std::numeric_limits<double>::quiet_NaN();
}

std::size_t Recorder::firstRowAfter(double t) const {
  return read([t](const Rows& rows) { return rows.firstRowWhere([t](double tk) { return tk > t; }); });
}

std::size_t Recorder::rowAtTime(double t) const {
  const std::size_t after = firstRowAfter(t);
  return after > 0 ? after - 1 : 0;
}

std::vector<double> Recorder::column(int column) const {
  std::vector<double> out(size());
  out.resize(copyColumn(column, 0, out.size(), out.data()));
  return out;
}

bool Recorder::latest(RecordedState& out) const {
  std::lock_guard lock(stateMutex_);
  if (!haveLatest_) return false;
  out.t = latestT_;
  out.q = latestQ_;
  out.v = latestV_;
  out.row = latestRow_;
  out.generation = generation_.load(std::memory_order_acquire);
  return true;
}

}  // namespace kt
