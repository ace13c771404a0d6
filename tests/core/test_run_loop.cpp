// SPDX-License-Identifier: BSD-3-Clause
// The run loop of an interactive simulation (core/sim/run_loop.hpp), without a GUI: a run stops
// at its duration with every output sample recorded, single steps add one sample each, a speed
// paces the run to real time × speed, a failed step stops the run for good with the simulator's
// message, a full recording stops it, and quit() ends run() whatever the loop is doing.
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/io/model_yaml.hpp"
#include "core/sim/run_loop.hpp"

using namespace kt;
using namespace std::chrono_literals;

namespace {

std::string exampleText(const char* name) {
  std::ifstream in(std::string(KINETREE_SOURCE_DIR "/examples/") + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::unique_ptr<Simulator> pendulum(const SimulatorOptions& options = {}) {
  return std::make_unique<Simulator>(loadModelFromString(exampleText("pendulum.yaml")), options);
}

// The loop on its own thread for the life of the object.
struct Running {
  explicit Running(std::unique_ptr<RunLoop> l) : loop(std::move(l)), thread([this] { loop->run(); }) {}
  ~Running() {
    loop->quit();
    thread.join();
  }
  std::unique_ptr<RunLoop> loop;
  std::thread thread;
};

// Waits (up to 20 s) until the loop is neither running nor has steps to take.
bool waitStopped(const RunLoop& loop, std::uint64_t steps = 0) {
  for (int i = 0; i < 20000; ++i) {
    if (!loop.running() && loop.steps() >= steps) return true;
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

}  // namespace

class TestRunLoop : public QObject {
  Q_OBJECT

 private slots:
  // As fast as possible for 0.5 s at h = 0.002: 251 samples, the last at t = 0.5, then stopped.
  void stopsAtTheDuration() {
    SimulatorOptions o;
    o.step = 0.002;
    Running r(std::make_unique<RunLoop>(pendulum(o), 0.0, 0.5, 1'000'000));
    QVERIFY(!r.loop->running());
    QCOMPARE(r.loop->recorder().size(), std::size_t{1});  // t = 0, recorded at construction
    r.loop->setRunning(true);
    QVERIFY(r.loop->running() || r.loop->steps() > 0);  // a loaded machine may see it finished already
    QVERIFY(waitStopped(*r.loop, 250));
    QCOMPARE(r.loop->recorder().size(), std::size_t{251});
    QCOMPARE(r.loop->steps(), std::uint64_t{250});
    RecordedState s;
    QVERIFY(r.loop->recorder().latest(s));
    QVERIFY(std::abs(s.t - 0.5) < 1e-12);
    QVERIFY(!r.loop->failed());
    QVERIFY(!r.loop->full());
    // Run again at the duration: nothing more (the owner builds a new simulator to run on)
    r.loop->setRunning(true);
    QVERIFY(waitStopped(*r.loop));
    QCOMPARE(r.loop->recorder().size(), std::size_t{251});
    // a longer duration continues from where the run stopped
    r.loop->setDuration(0.6);
    r.loop->setRunning(true);
    QVERIFY(waitStopped(*r.loop, 300));
    QCOMPARE(r.loop->recorder().size(), std::size_t{301});
  }

  // Pausing and resuming changes nothing of the run: the samples (energy included) are the bits of
  // a run that never paused, and an interaction applied and released while paused leaves no
  // trace either (the integrator restarts from the same state; rk4 keeps no history).
  void pauseAndResumeLeaveNoTrace() {
    SimulatorOptions o;
    o.step = 0.002;
    o.interactions = true;
    Running straight(std::make_unique<RunLoop>(pendulum(o), 0.0, 1.0, 1'000'000));
    straight.loop->setRunning(true);
    QVERIFY(waitStopped(*straight.loop, 500));
    // ten times real time: about 0.1 s of wall time, paused forty times on the way
    Running paused(std::make_unique<RunLoop>(pendulum(o), 10.0, 1.0, 1'000'000));
    for (int k = 0; k < 40 && paused.loop->steps() < 500; ++k) {
      paused.loop->setRunning(true);
      std::this_thread::sleep_for(std::chrono::microseconds(500 + 37 * k));
      paused.loop->setRunning(false);
      QVERIFY(waitStopped(*paused.loop));
      if (k % 10 == 0) {  // a push of nothing, on and off at once
        InteractionEvent push;
        push.id = k;
        push.body = 0;
        paused.loop->interact(push);
        InteractionEvent off;
        off.kind = InteractionKind::Release;
        off.id = k;
        paused.loop->interact(off);
      }
    }
    paused.loop->setRunning(true);
    QVERIFY(waitStopped(*paused.loop, 500));
    const Recorder& a = straight.loop->recorder();
    const Recorder& b = paused.loop->recorder();
    QCOMPARE(b.size(), a.size());
    const auto width = static_cast<std::size_t>(a.width());
    std::vector<double> rowsA(a.size() * width), rowsB(b.size() * width);
    a.copyRows(0, a.size(), rowsA.data());
    b.copyRows(0, b.size(), rowsB.data());
    QVERIFY2(rowsA == rowsB, "pausing changed the run");
    QVERIFY(!paused.loop->events().empty());
  }

  // Each requested step adds one sample and leaves the run paused.
  void stepsOneSampleAtATime() {
    Running r(std::make_unique<RunLoop>(pendulum(), 1.0, 0.0, 1'000'000));
    for (int k = 1; k <= 3; ++k) {
      r.loop->requestStep();
      QVERIFY(waitStopped(*r.loop, static_cast<std::uint64_t>(k)));
    }
    std::this_thread::sleep_for(20ms);  // nothing runs on by itself
    QCOMPARE(r.loop->recorder().size(), std::size_t{4});
    QVERIFY(!r.loop->running());
  }

  // At ×0.5 the run never gets ahead of half the wall time (plus one output step); a speed of 0
  // then lets it run as fast as it can. Only upper bounds on the simulated time: a busy machine
  // may make a run slower, never faster.
  void pacesToTheSpeed() {
    SimulatorOptions o;
    o.step = 0.001;
    Running r(std::make_unique<RunLoop>(pendulum(o), 0.5, 0.0, 1'000'000));
    const auto start = std::chrono::steady_clock::now();
    r.loop->setRunning(true);
    std::this_thread::sleep_for(200ms);
    RecordedState s;
    QVERIFY(r.loop->recorder().latest(s));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(s.t <= 0.5 * wall + 0.001 + 1e-9, qPrintable(QStringLiteral("t = %1 after %2 s").arg(s.t).arg(wall)));
    r.loop->setSpeed(0.0);
    r.loop->setDuration(5.0);
    QVERIFY(waitStopped(*r.loop, 5000));
    QVERIFY(r.loop->recorder().latest(s));
    QVERIFY(std::abs(s.t - 5.0) < 1e-9);
  }

  // A diverging run (a stiff spring integrated by explicit Euler, h ω ≈ 32) stops with the
  // simulator's message; neither Run nor Step takes it further.
  void aFailedStepStopsForGood() {
    std::string text = exampleText("pendulum.yaml");
    const std::string q0 = "      q0: [0.8]\n";
    QVERIFY(text.find(q0) != std::string::npos);
    text.replace(text.find(q0), q0.size(), q0 + "      drive: {type: spring_damper, stiffness: 1.0e7}\n");
    SimulatorOptions o;
    o.integrator = "euler";
    o.step = 0.01;
    Running r(
        std::make_unique<RunLoop>(std::make_unique<Simulator>(loadModelFromString(text), o), 0.0, 0.0, 1'000'000));
    r.loop->setRunning(true);
    QVERIFY(waitStopped(*r.loop, 1));
    QVERIFY(r.loop->failed());
    QVERIFY2(r.loop->error().find("NaN") != std::string::npos || r.loop->error().find("Inf") != std::string::npos,
             r.loop->error().c_str());
    const std::uint64_t steps = r.loop->steps();
    r.loop->setRunning(true);
    r.loop->requestStep();
    QVERIFY(waitStopped(*r.loop));
    std::this_thread::sleep_for(20ms);
    QCOMPARE(r.loop->steps(), steps);
  }

  // The recording limit: the run stops with maxRows rows, for good.
  void aFullRecordingStops() {
    Running r(std::make_unique<RunLoop>(pendulum(), 0.0, 0.0, 100));
    r.loop->setRunning(true);
    QVERIFY(waitStopped(*r.loop, 99));
    QVERIFY(r.loop->full());
    QCOMPARE(r.loop->recorder().size(), std::size_t{100});
    r.loop->setRunning(true);
    r.loop->requestStep();
    QVERIFY(waitStopped(*r.loop));
    std::this_thread::sleep_for(20ms);
    QCOMPARE(r.loop->recorder().size(), std::size_t{100});
  }

  // quit() ends run() while it runs, while it paces and while it waits for a command.
  // Interactions from another thread while the run steps (docs/interaction.md): drags and drive
  // changes and poses, every one applied at a step boundary, in order, moves of one drag between
  // two boundaries making one, and the run goes on while the newest rows are read. The tsan preset
  // (tools/check-sanitizers tsan) runs this for data races.
  void interactionsWhileRunning() {
    SimulatorOptions o;
    o.step = 0.001;
    o.interactions = true;
    Running r(std::make_unique<RunLoop>(pendulum(o), 0.0, 0.0, 1'000'000));
    r.loop->setRunning(true);
    const Tree& tree = r.loop->tree();
    InteractionEvent e;
    e.kind = InteractionKind::Drag;
    e.id = 1;
    e.body = tree.nb - 1;
    e.point = Vec3(0.0, 0.0, -0.9);
    e.stiffness = 400.0;
    e.damping = 20.0;
    for (int k = 0; k < 300; ++k) {
      e.target = Vec3(0.3 * std::sin(0.05 * k), 0.0, 0.5);
      r.loop->interact(e);
      if (k % 50 == 0) r.loop->setSpeed(k % 100 == 0 ? 0.0 : 4.0);
      if (k % 7 == 0) {  // the drive panel's slider: the hinge's spring moves its rest position
        InteractionEvent slide;
        slide.kind = InteractionKind::Drive;
        slide.id = 1000 + k;
        slide.body = tree.nb - 1;
        slide.drive.type = DriveType::SpringDamper;
        slide.drive.stiffness = {50.0};
        slide.drive.damping = {1.0};
        slide.drive.restPosition = {0.01 * k};
        r.loop->interact(slide);
      }
      if (k % 11 == 0) {  // the pose tab: the hinge set to an angle (a rewrite of the newest sample)
        InteractionEvent pose;
        pose.kind = InteractionKind::Pose;
        pose.id = 2000 + k;
        pose.body = tree.nb - 1;
        pose.position = {0.002 * k};
        r.loop->interact(pose);
      }
      std::this_thread::sleep_for(100us);
      (void)r.loop->eventCount();
      // what the views read meanwhile: the newest state and the newest row
      RecordedState latest;
      if (r.loop->recorder().latest(latest)) {
        std::vector<double> row(static_cast<std::size_t>(r.loop->recorder().width()));
        (void)r.loop->recorder().copyRows(latest.row, latest.row + 1, row.data());
      }
    }
    InteractionEvent off;
    off.kind = InteractionKind::Release;
    off.id = 1;
    r.loop->interact(off);
    for (int i = 0; i < 20000 && (r.loop->events().empty() || r.loop->events().back().kind != InteractionKind::Release);
         ++i)
      std::this_thread::sleep_for(1ms);
    r.loop->setRunning(false);
    QVERIFY(waitStopped(*r.loop));
    const std::vector<InteractionEvent> events = r.loop->events();
    QVERIFY(events.size() >= 2 && events.size() <= 301 + 43 + 28);
    QVERIFY(std::any_of(events.begin(), events.end(), [](const auto& e) { return e.kind == InteractionKind::Drive; }));
    QVERIFY(std::any_of(events.begin(), events.end(), [](const auto& e) { return e.kind == InteractionKind::Pose; }));
    QCOMPARE(events.back().kind, InteractionKind::Release);
    for (std::size_t k = 1; k < events.size(); ++k) QVERIFY(events[k].t >= events[k - 1].t);
    QCOMPARE(r.loop->eventCount(), events.size());
    QVERIFY(!r.loop->failed());
    QVERIFY(r.loop->interactionError().empty());
    // a bad event is refused with a reason, the run unharmed
    InteractionEvent bad = e;
    bad.id = 2;
    bad.body = 99;
    r.loop->interact(bad);
    const std::uint64_t before = r.loop->steps();
    r.loop->requestStep();
    QVERIFY(waitStopped(*r.loop, before + 1));
    for (int i = 0; i < 2000 && r.loop->interactionError().empty(); ++i) std::this_thread::sleep_for(1ms);
    QCOMPARE(r.loop->interactionError(), std::string("body 99 does not exist"));
    QVERIFY(!r.loop->failed());
  }

  void quitEndsTheThread() {
    for (double speed : {0.0, 1.0}) {
      for (bool running : {true, false}) {
        auto loop = std::make_unique<RunLoop>(pendulum(), speed, 0.0, 1'000'000);
        std::thread thread([&] { loop->run(); });
        loop->setRunning(running);
        std::this_thread::sleep_for(10ms);
        loop->quit();
        thread.join();  // hangs (and the test times out) if quit() were missed
      }
    }
  }

  // The recording limit in whole chunks of the recorder, and at least one.
  void recordingLimitInChunks() {
    const Recorder rec(10, 1, 1, 1024);  // 80 KiB a chunk
    QCOMPARE(recordingLimitRows(std::size_t{1} << 20, rec), std::size_t{12 * 1024});
    QCOMPARE(recordingLimitRows(1, rec), std::size_t{1024});
    QCOMPARE(recordingLimitBytes(3), std::size_t{3} << 20);
    QVERIFY(recordingLimitBytes() > 0);
    QVERIFY(recordingLimitBytes() <= std::size_t{4} << 30);
  }
};

QTEST_APPLESS_MAIN(TestRunLoop)
#include "test_run_loop.moc"
