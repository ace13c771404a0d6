// SPDX-License-Identifier: BSD-3-Clause
#include "core/sim/run_loop.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <unistd.h>

namespace kt {

std::size_t recordingLimitBytes(long megabytesOverride) {
  if (megabytesOverride > 0) return static_cast<std::size_t>(megabytesOverride) << 20;
  constexpr std::size_t kMax = std::size_t{4} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return kMax;
  return std::min(kMax, static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize) / 4);
}

std::size_t recordingLimitRows(std::size_t limitBytes, const Recorder& recorder) {
  const std::size_t chunkBytes =
      recorder.chunkRows() * sizeof(double) * static_cast<std::size_t>(std::max(1, recorder.width()));
  return std::max<std::size_t>(1, limitBytes / chunkBytes) * recorder.chunkRows();
}

RunLoop::RunLoop(std::unique_ptr<Simulator> sim, double speed, double duration, std::size_t maxRows)
    : sim_(std::move(sim)),
      maxRows_(maxRows),
      outputInterval_(sim_->outputInterval()),
      speed_(speed),
      duration_(duration) {}

template <class F>
void RunLoop::command(F&& change) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    change();
    commandSeq_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
}

void RunLoop::setRunning(bool running) {
  command([&] {
    running_ = running;
    runningFlag_.store(running, std::memory_order_release);
  });
}
void RunLoop::requestStep() {
  command([&] { ++stepRequests_; });
}
void RunLoop::setSpeed(double speed) {
  command([&] { speed_ = speed; });
}
void RunLoop::setDuration(double duration) {
  command([&] { duration_ = duration; });
}
void RunLoop::quit() {
  command([&] { quit_ = true; });
}
void RunLoop::interact(const InteractionEvent& event) {
  command([&] {
    // a drag moved again, or a drive slid or a pose moved again, before the last change was
    // applied: only the newest counts
    const bool again = !queued_.empty() && queued_.back().kind == event.kind &&
                       ((event.kind == InteractionKind::Drag && queued_.back().id == event.id) ||
                        ((event.kind == InteractionKind::Drive || event.kind == InteractionKind::Pose) &&
                         queued_.back().body == event.body));
    if (again)
      queued_.back() = event;
    else
      queued_.push_back(event);
  });
}

std::vector<InteractionEvent> RunLoop::events() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return applied_;
}

void RunLoop::copyEvents(std::size_t from, std::vector<InteractionEvent>& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (from < applied_.size())
    out.insert(out.end(), applied_.begin() + static_cast<std::ptrdiff_t>(from), applied_.end());
}

std::string RunLoop::interactionError() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return interactionError_;
}

void RunLoop::applyInteractions(std::vector<InteractionEvent>& queued) {
  std::string refused;
  const std::size_t before = sim_->events().size();
  for (const InteractionEvent& e : queued) {
    try {
      sim_->interact(e);
    } catch (const std::invalid_argument& ex) {
      refused = ex.what();
    }
  }
  queued.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  const std::vector<InteractionEvent>& done = sim_->events();
  applied_.insert(applied_.end(), done.begin() + static_cast<std::ptrdiff_t>(before), done.end());
  eventCount_.store(applied_.size(), std::memory_order_release);
  if (!refused.empty()) interactionError_ = refused;
  // a pose whose state cannot be evaluated stops the run, as a failed step does
  if (!sim_->ok() && !failed_.load(std::memory_order_relaxed)) {
    error_ = sim_->error();
    failed_.store(true, std::memory_order_release);
    stepRequests_ = 0;
    stopLocked();
  }
}

std::string RunLoop::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void RunLoop::stopLocked() {
  running_ = false;
  runningFlag_.store(false, std::memory_order_release);
  commandSeq_.fetch_add(1, std::memory_order_release);
}

bool RunLoop::stepOnce() {
  if (sim_->recorder().size() >= maxRows_) {  // the memory a run may record into is used up
    std::lock_guard<std::mutex> lock(mutex_);
    full_.store(true, std::memory_order_release);
    stepRequests_ = 0;
    stopLocked();
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = sim_->step();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  nanos_.fetch_add(static_cast<std::uint64_t>(ns), std::memory_order_relaxed);
  steps_.fetch_add(1, std::memory_order_relaxed);
  if (ok) return true;
  std::lock_guard<std::mutex> lock(mutex_);
  error_ = sim_->error();
  failed_.store(true, std::memory_order_release);
  stepRequests_ = 0;
  stopLocked();
  return false;
}

void RunLoop::run() {
  using Clock = std::chrono::steady_clock;
  std::uint64_t seen = ~std::uint64_t{0};
  bool running = false;
  double speed = 1.0, duration = 0.0;
  int pendingSteps = 0;
  std::vector<InteractionEvent> interactions;
  Clock::time_point anchorWall = Clock::now();
  double anchorSim = 0.0;
  const double dt = outputInterval_;

  for (;;) {
    // commands: taken over once per change
    if (commandSeq_.load(std::memory_order_acquire) != seen) {
      std::lock_guard<std::mutex> lock(mutex_);
      seen = commandSeq_.load(std::memory_order_relaxed);
      if (quit_) return;
      // Pace from here on after a resume, a speed or duration change or a step (none must make up
      // for lost time), but not after an interaction alone: a drag sends one per mouse move, and
      // pacing again at each would hold the run back while the user drags.
      const bool paceAgain = running != running_ || speed != speed_ || duration != duration_ || stepRequests_ > 0;
      running = running_;
      speed = speed_;
      duration = duration_;
      pendingSteps += stepRequests_;
      stepRequests_ = 0;
      interactions.swap(queued_);
      if (paceAgain) {
        anchorWall = Clock::now();
        anchorSim = sim_->time();
      }
    }
    if (!interactions.empty()) applyInteractions(interactions);
    // a failure or a full recording ends the run for good: no more steps, even requested ones
    if (failed_.load(std::memory_order_relaxed) || full_.load(std::memory_order_relaxed)) {
      pendingSteps = 0;
      if (running) {  // a Run that crossed the failure or the full recording: it stays stopped
        std::lock_guard<std::mutex> lock(mutex_);
        stopLocked();
        running = false;
      }
    }

    // single steps first (they pause the run)
    if (pendingSteps > 0) {
      --pendingSteps;
      stepOnce();
      continue;
    }
    // paused: sleep until the next command
    if (!running || failed_.load(std::memory_order_relaxed) || full_.load(std::memory_order_relaxed)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return commandSeq_.load(std::memory_order_relaxed) != seen; });
      continue;
    }
    // the duration is reached: stop
    if (duration > 0.0 && sim_->time() >= duration - 0.5 * dt) {
      std::lock_guard<std::mutex> lock(mutex_);
      stopLocked();
      continue;
    }
    // pacing: wait (at most 5 ms at a time, so commands stay prompt) while the next sample is early
    if (speed > 0.0) {
      const double wall = std::chrono::duration<double>(Clock::now() - anchorWall).count();
      const double target = anchorSim + speed * wall;
      const double ahead = sim_->time() + dt - target;  // simulated seconds the next sample is early
      if (ahead > 0.0) {
        const double waitSeconds = std::min(ahead / speed, 0.005);
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait_for(lock, std::chrono::duration<double>(waitSeconds),
                       [&] { return commandSeq_.load(std::memory_order_relaxed) != seen; });
        continue;
      }
      if (-ahead > 0.25 * speed) {  // far behind (slow model or a stall): do not race to catch up
        anchorWall = Clock::now();
        anchorSim = sim_->time();
      }
    }
    stepOnce();
  }
}

}  // namespace kt
