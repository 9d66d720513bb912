// SPDX-License-Identifier: BSD-3-Clause
#include "engine/worker.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

// The worker: delivery to actors on this and other workers, scheduling, failures, parking.

// ---- Ping-pong between two actors on chosen workers ----

struct PingPongResult {
  std::uint64_t pongs = 0;
  std::uint64_t pings_seen = 0;
};

class Ponger final : public Actor {
 public:
  explicit Ponger(PingPongResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_PING) {
      ++result_.pings_seen;
      reply(message, ACTION_PONG);
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }

 private:
  PingPongResult& result_;
};

class Pinger final : public Actor {
 public:
  Pinger(int ponger_worker, std::uint64_t rounds, PingPongResult& result)
      : ponger_worker_(ponger_worker), rounds_(rounds), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      ponger_ = spawn_on<Ponger>(ponger_worker_, result_);
      send(ponger_, ACTION_PING);  // may overtake the ponger's adoption: must still arrive
    } else if (message.action() == ACTION_PONG) {
      if (++result_.pongs < rounds_) {
        send(ponger_, ACTION_PING);
      } else {
        send(ponger_, ACTION_STOP);
      }
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      EXPECT_EQ(message.source(), ponger_);
      stop();
    }
  }

 private:
  int ponger_worker_;
  std::uint64_t rounds_;
  PingPongResult& result_;
  ActorName ponger_;
};

void ping_pong(int threads, int pinger_worker, int ponger_worker) {
  testing::Watchdog watchdog("ping-pong");
  Engine engine(with_threads(threads));
  PingPongResult result;
  const std::uint64_t rounds = testing::stress_items(100'000);
  const ActorName pinger = engine.spawn_on<Pinger>(pinger_worker, ponger_worker, rounds, result);
  engine.send(pinger, ACTION_START);
  engine.run();
  EXPECT_EQ(result.pongs, rounds);
  EXPECT_EQ(result.pings_seen, rounds);
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(statistics.dead_letters, 0u);
  EXPECT_EQ(statistics.actors_spawned, 2u);
  EXPECT_EQ(statistics.actors_stopped, 2u);
  // start + every ping and pong + stop + the stop notice
  EXPECT_EQ(statistics.messages_received, 1 + 2 * rounds + 2);
}

TEST(Engine, PingPongOnOneWorker) { ping_pong(1, 0, 0); }
TEST(Engine, PingPongAcrossTwoWorkers) { ping_pong(3, 0, 1); }
TEST(Engine, PingPongAcrossWorkersWithSpareOnes) { ping_pong(5, 3, 1); }

// ---- Dead letters are counted, never silently dropped ----

class Quitter final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) stop();
  }
};

class LateSender final : public Actor {
 public:
  explicit LateSender(int quitter_worker) : quitter_worker_(quitter_worker) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      quitter_ = spawn_on<Quitter>(quitter_worker_);
      send(quitter_, ACTION_START);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      send(quitter_, ACTION_PING);  // to a stopped actor: a dead letter
      send(quitter_, ACTION_PING);
      stop();
    }
  }

 private:
  int quitter_worker_;
  ActorName quitter_;
};

TEST(Engine, MessagesToStoppedActorsAreCountedAsDeadLetters) {
  for (int worker : {0, 1}) {
    Engine engine(with_threads(3));
    engine.send(engine.spawn<LateSender>(worker), ACTION_START);
    engine.run();
    EXPECT_EQ(engine.statistics().dead_letters, 2u) << "quitter on worker " << worker;
  }
}

// ---- Failures and bad use ----

class Thrower final : public Actor {
 public:
  void receive(const Message&) override { throw std::runtime_error("actor failed on purpose"); }
};

struct FailureResult {
  std::string reason;
  ActorName failed;
  int notices = 0;
};

// Spawns a thrower on another worker and a well-behaved child, pokes both, and records the
// stop notices it gets.
class FailureSupervisor final : public Actor {
 public:
  explicit FailureSupervisor(FailureResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      thrower_ = spawn_on<Thrower>(1);
      send(thrower_, ACTION_START);
      send(spawn<Quitter>(), ACTION_START);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      if (message.source() == thrower_) {
        result_.failed = message.source();
        result_.reason.assign(reinterpret_cast<const char*>(message.payload().data()),
                              message.payload_size());
      } else {
        EXPECT_EQ(message.payload_size(), 0u) << "a normal stop carries no reason";
      }
      if (++result_.notices == 2) stop();
    }
  }

 private:
  FailureResult& result_;
  ActorName thrower_;
};

TEST(Engine, AnExceptionInReceiveStopsThatActorAndItsSupervisorHearsWhy) {
  Engine engine(with_threads(3));
  FailureResult result;
  engine.send(engine.spawn<FailureSupervisor>(result), ACTION_START);
  engine.run();  // ends: the failed actor counts as stopped
  EXPECT_EQ(result.notices, 2);
  EXPECT_EQ(result.failed.worker(), 1u);
  EXPECT_EQ(result.reason, "actor failed on purpose");
  EXPECT_EQ(engine.statistics().actors_failed, 1u);
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

// ---- Idle workers park instead of spinning ----

class Sleeper final : public Actor {
 public:
  void receive(const Message&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop();
  }
};

TEST(Engine, IdleWorkersPark) {
  Engine engine(with_threads(4));
  engine.send(engine.spawn<Sleeper>(), ACTION_START);
  engine.run();
  // Workers 1 and 2 had nothing to do for 200 ms: each must have parked.
  EXPECT_GE(engine.statistics().parks, 2u);
}

// ---- Scheduling: one busy actor does not starve the others on its worker ----

inline constexpr Action ACTION_WORK{"test.work"};
inline constexpr Action ACTION_CHECK{"test.check"};

struct FairnessResult {
  std::uint64_t flooder_handled = 0;
  std::uint64_t flooder_handled_when_observer_ran = 0;
};

class Observer final : public Actor {
 public:
  explicit Observer(FairnessResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_CHECK) {
      result_.flooder_handled_when_observer_ran = result_.flooder_handled;
      stop();
    }
  }

 private:
  FairnessResult& result_;
};

class Flooder final : public Actor {
 public:
  explicit Flooder(FairnessResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      for (int i = 0; i < 1000; ++i) send(self(), ACTION_WORK);  // 1000 queued in our own mailbox
      send(spawn<Observer>(result_), ACTION_CHECK);              // queued after all of them
    } else if (message.action() == ACTION_WORK) {
      if (++result_.flooder_handled == 1000) stop();
    }
  }

 private:
  FairnessResult& result_;
};

TEST(Scheduling, ABusyActorYieldsItsWorkerAfterATurn) {
  Engine engine(with_threads(1));
  FairnessResult result;
  engine.send(engine.spawn<Flooder>(result), ACTION_START);
  engine.run();
  EXPECT_EQ(result.flooder_handled, 1000u);
  // The observer's single message was sent after 1000 others to a busy actor, yet it ran
  // after at most one turn of the flooder (64 messages), not after all 1000.
  EXPECT_LE(result.flooder_handled_when_observer_ran, 64u);
}
// ---- A message that overtakes the actor it is sent to waits for it ----
//
// The child's adoption travels from worker 0 to worker 1 while a ping to the child travels
// from worker 2 to worker 1. A worker publishes what its actors sent only after their
// receive() returns, so the spawner holds its adoption message back, by not returning,
// until a witness on worker 1 has run after the ping: the ping always arrives first, finds
// no actor under a name already handed out, and must be held until the child is adopted.

struct OvertakeSteps {
  std::uint64_t child_name = 0;          // written before `spawned` is released
  std::atomic<bool> spawned{false};      // the spawner has named the child
  std::atomic<bool> ping_arrived{false};  // worker 1 took in the ping (and the witness's check)
  std::atomic<bool> child_got_ping{false};
};

// Waits, sleeping, until `flag` is set. Acquire: pairs with the release store that sets it.
void wait_for(const std::atomic<bool>& flag) {
  while (!flag.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

class Child final : public Actor {
 public:
  explicit Child(OvertakeSteps& steps) : steps_(steps) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_PING) {
      // Relaxed: read after run(), whose threads have joined.
      steps_.child_got_ping.store(true, std::memory_order_relaxed);
      stop();
    }
  }

 private:
  OvertakeSteps& steps_;
};

// On worker 0: spawns the child on worker 1 and keeps its adoption unpublished until the
// ping has reached worker 1.
class Spawner final : public Actor {
 public:
  explicit Spawner(OvertakeSteps& steps) : steps_(steps) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    steps_.child_name = spawn_on<Child>(1, steps_).value();
    // Release: pairs with the acquire in the relay's wait_for(spawned).
    steps_.spawned.store(true, std::memory_order_release);
    wait_for(steps_.ping_arrived);
    stop();
  }

 private:
  OvertakeSteps& steps_;
};

// On worker 2: pings the child as soon as it has a name, then tells the witness.
class Relay final : public Actor {
 public:
  Relay(ActorName witness, OvertakeSteps& steps) : witness_(witness), steps_(steps) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    wait_for(steps_.spawned);
    send(ActorName::from_value(steps_.child_name), ACTION_PING);
    send(witness_, ACTION_CHECK);  // same ring, behind the ping
    stop();
  }

 private:
  ActorName witness_;
  OvertakeSteps& steps_;
};

// On worker 1: its check arrives behind the ping, so when it runs the ping was taken in.
class Witness final : public Actor {
 public:
  explicit Witness(OvertakeSteps& steps) : steps_(steps) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_CHECK) return;
    // Release: pairs with the acquire in the spawner's wait_for(ping_arrived).
    steps_.ping_arrived.store(true, std::memory_order_release);
    stop();
  }

 private:
  OvertakeSteps& steps_;
};

TEST(Engine, AMessageThatOvertakesANewActorWaitsForIt) {
  testing::Watchdog watchdog("overtaking");
  Engine engine(with_threads(4));  // three workers
  OvertakeSteps steps;
  const ActorName witness = engine.spawn_on<Witness>(1, steps);
  engine.send(engine.spawn_on<Relay>(2, witness, steps), ACTION_START);
  engine.send(engine.spawn_on<Spawner>(0, steps), ACTION_START);
  engine.run();
  // Relaxed: read after run(), whose threads have joined.
  EXPECT_TRUE(steps.child_got_ping.load(std::memory_order_relaxed));
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(statistics.held_for_adoption, 1u) << "the ping did not overtake the child";
  EXPECT_EQ(statistics.dead_letters, 0u);
  EXPECT_EQ(statistics.actors_stopped, 4u);
}

}  // namespace
}  // namespace xenon
