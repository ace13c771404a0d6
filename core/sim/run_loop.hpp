// SPDX-License-Identifier: BSD-3-Clause
// The run loop of an interactive simulation: a Simulator stepped on a thread of the caller's,
// with commands from another thread. No Qt: the GUI's SimulationController owns the thread and
// publishes the state; tests drive it directly (docs/architecture.md, "Data flow of a run").
//
//  - run() is the body of the simulation thread: it returns after quit() (or the destructor's
//    caller joining after quit()). It steps the Simulator paced to real time × speed, or as
//    fast as possible (speed 0), for a duration (0: until paused); every output sample goes into
//    the Simulator's Recorder, nothing else leaves the thread.
//  - Commands (run/pause, step, speed, duration, quit, interactions) are fields under a mutex plus an atomic
//    sequence number that run() checks after every step (one atomic load per step; the lock is
//    taken only when something changed): they take effect within one output step.
//  - The run stops by itself at the duration, on a failed step (non-finite state, dopri5 step too
//    small: failed(), error()) and when the Recorder holds maxRows rows (full()); a stop by
//    failure or a full recording is final for this loop (a new Simulator starts over).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/sim/simulator.hpp"

namespace kt {

/// Bytes of samples one interactive run may record: `megabytesOverride` when positive, otherwise
/// a quarter of the physical memory, at most 4 GiB.
std::size_t recordingLimitBytes(long megabytesOverride = 0);
/// Rows a run may record within `limitBytes`, counted in whole chunks of the recorder (the memory
/// it allocates), at least one chunk.
std::size_t recordingLimitRows(std::size_t limitBytes, const Recorder& recorder);

class RunLoop {
 public:
  /// Takes the simulator (built on the caller's thread; from run() on only the loop's thread
  /// touches its non-const parts). Starts paused.
  RunLoop(std::unique_ptr<Simulator> sim, double speed, double duration, std::size_t maxRows);
  RunLoop(const RunLoop&) = delete;
  RunLoop& operator=(const RunLoop&) = delete;

  /// The simulation thread's body; returns once quit() was called.
  void run();

  // ---- commands (any thread) ----
  void setRunning(bool running);
  /// Pauses after one more output step (requests add up).
  void requestStep();
  /// Factor of real time; 0 = as fast as possible.
  void setSpeed(double speed);
  /// Simulated seconds at which a run stops; ≤ 0: no limit.
  void setDuration(double duration);
  void quit();
  /// Applies an interaction (core/sim/interaction.hpp) at the next step boundary: at once when
  /// paused, before the next step when running. Several moves of one drag (or changes of one
  /// joint's drive) before a boundary make one event, the last. The Simulator must have been built with
  /// options.interactions.
  void interact(const InteractionEvent& event);

  // ---- state (any thread) ----
  bool running() const { return runningFlag_.load(std::memory_order_acquire); }
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  /// The recorder reached maxRows: the run paused and takes no more steps.
  bool full() const { return full_.load(std::memory_order_acquire); }
  /// The failed step's message (empty until failed()).
  std::string error() const;
  /// The interactions applied so far, in order, with their times (a copy).
  std::vector<InteractionEvent> events() const;
  /// Appends to `out` the applied interactions from the `from`-th on (a view that follows them
  /// copies each once).
  void copyEvents(std::size_t from, std::vector<InteractionEvent>& out) const;
  /// How many interactions were applied (cheap: for a view that follows them).
  std::size_t eventCount() const { return eventCount_.load(std::memory_order_acquire); }
  /// Why the last refused interaction was refused (empty when none was).
  std::string interactionError() const;
  /// Output steps taken, and nanoseconds of wall time spent in them, since construction.
  std::uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }
  std::uint64_t nanoseconds() const { return nanos_.load(std::memory_order_relaxed); }

  /// The parts other threads may read while the loop runs (see simulator.hpp).
  const Recorder& recorder() const { return static_cast<const Simulator&>(*sim_).recorder(); }
  const SignalLayout& signalLayout() const { return sim_->signalLayout(); }
  const Tree& tree() const { return sim_->tree(); }
  const Model& model() const { return sim_->model(); }
  const SimulatorOptions& options() const { return sim_->options(); }
  double outputInterval() const { return outputInterval_; }

 private:
  template <class F>
  void command(F&& change);
  void stopLocked();                                              // under mutex_: the run stopped by itself
  void applyInteractions(std::vector<InteractionEvent>& queued);  // the loop's thread, between steps
  bool stepOnce();

  std::unique_ptr<Simulator> sim_;
  std::size_t maxRows_;
  double outputInterval_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  // commands, under mutex_
  bool quit_ = false;
  bool running_ = false;
  int stepRequests_ = 0;
  double speed_ = 1.0;
  double duration_ = 0.0;
  std::string error_;
  std::vector<InteractionEvent> queued_;   ///< interactions not yet applied
  std::vector<InteractionEvent> applied_;  ///< published: what the simulator applied
  std::string interactionError_;
  std::atomic<std::size_t> eventCount_{0};
  // published
  std::atomic<std::uint64_t> commandSeq_{0};
  std::atomic<bool> runningFlag_{false};
  std::atomic<bool> failed_{false};
  std::atomic<bool> full_{false};
  std::atomic<std::uint64_t> steps_{0};
  std::atomic<std::uint64_t> nanos_{0};
};

}  // namespace kt
