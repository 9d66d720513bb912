// SPDX-License-Identifier: BSD-3-Clause
// Urgent messages (Actor::send_urgent): ahead of the normal messages waiting for the same
// actor, in order within each priority; on one worker, across workers, and through a full
// ring's overflow.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <xenon/xenon.hpp>
#include "engine/outbound_channel.hpp"
#include "engine/urgent_envelope.hpp"
#include "tests/engine/engine_test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

inline constexpr Action ACTION_HOLD{"test.priorities.hold"};
inline constexpr Action ACTION_URGENT_NUMBER{"test.priorities.urgent"};
inline constexpr Action ACTION_NORMAL_NUMBER{"test.priorities.normal"};
inline constexpr Action ACTION_ALL_PUBLISHED{"test.priorities.all-published"};

// Urgent numbers are recorded as 1000 + n, normal ones as n.
struct Received {
  std::vector<int> order;
  std::atomic<bool> holding{false};  // the recorder is in its hold (across workers)
  std::atomic<bool> sent{false};
};

class Recorder : public Actor {
 public:
  Recorder(Received& received, int expected) : received_(received), expected_(expected) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_HOLD) {
      // Release: pairs with the sender's acquire load before its first send, so that no
      // number reaches this worker's mailbox before the hold (then the rest of this turn
      // would take them before the urgent ones behind them arrive).
      received_.holding.store(true, std::memory_order_release);
      // Keep this worker from taking its ring until everything was sent and published.
      // Acquire: pairs with the sender's release store once its sends are published.
      while (!received_.sent.load(std::memory_order_acquire)) std::this_thread::yield();
      return;
    }
    const int number = message.payload_as<int>();
    received_.order.push_back(message.action() == ACTION_URGENT_NUMBER ? 1000 + number : number);
    if (static_cast<int>(received_.order.size()) == expected_) stop();
  }

 private:
  Received& received_;
  int expected_;
};

// Sends `normal` normal numbers, with urgent ones 0, 1, ... interleaved every `every`.
class MixedSender : public Actor {
 public:
  // across_workers: the recorder is on another worker and holds it (ACTION_HOLD).
  MixedSender(ActorName to, int normal, int every, Received& received, bool across_workers = false)
      : to_(to), normal_(normal), every_(every), received_(received), across_workers_(across_workers) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_ALL_PUBLISHED) {
      // A timer fires in a later round of this worker than the one that sent, and a round
      // publishes what it staged before it ends: every number is in the ring by now (not
      // after a sleep, which a loaded machine can outlast).
      // Release: pairs with the recorder's acquire load in its hold.
      received_.sent.store(true, std::memory_order_release);
      stop();
      return;
    }
    if (across_workers_) {
      // Acquire: pairs with the recorder's release store as its hold begins.
      while (!received_.holding.load(std::memory_order_acquire)) std::this_thread::yield();
    }
    int urgent = 0;
    for (int n = 0; n < normal_; ++n) {
      send_value(to_, ACTION_NORMAL_NUMBER, n);
      if (n % every_ == every_ - 1) send_urgent(to_, ACTION_URGENT_NUMBER, Payload::of(urgent++));
    }
    send_after(std::chrono::microseconds(1), self(), ACTION_ALL_PUBLISHED);
  }

 private:
  ActorName to_;
  int normal_;
  int every_;
  Received& received_;
  bool across_workers_;
};

std::vector<int> urgent_first(int normal, int every) {
  std::vector<int> order;
  for (int u = 0; u < normal / every; ++u) order.push_back(1000 + u);
  for (int n = 0; n < normal; ++n) order.push_back(n);
  return order;
}

TEST(Priorities, UrgentMessagesOvertakeNormalOnesWaitingOnTheSameWorker) {
  Engine engine(with_threads(1));
  Received received;
  const ActorName recorder = engine.spawn<Recorder>(received, 100 + 10);
  engine.send(engine.spawn<MixedSender>(recorder, 100, 10, received), ACTION_START);
  engine.run();
  EXPECT_EQ(received.order, urgent_first(100, 10));
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

TEST(Priorities, UrgentMessagesOvertakeNormalOnesWaitingAcrossWorkers) {
  Engine engine(with_threads(3));  // two workers and the communicator
  Received received;
  // Fewer than one inbound batch (256), so that all reach the mailbox in one look.
  const ActorName recorder = engine.spawn_on<Recorder>(1, received, 200 + 20);
  engine.send(recorder, ACTION_HOLD);
  engine.send(engine.spawn_on<MixedSender>(0, recorder, 200, 10, received, true), ACTION_START);
  engine.run();
  EXPECT_EQ(received.order, urgent_first(200, 10));
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

// Spawns a child on another worker, stops it, and once told it stopped sends it an urgent
// message with a heap payload: one dead letter, its envelope and payload freed (the
// sanitizer builds would report a leak).
class UrgentToStoppedChild : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      child_ = spawn_on<StopsOnAnything>(1);
      send(child_, ACTION_STOP);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      send_urgent(child_, ACTION_PING, Payload::with_size(100));
      stop();
    }
  }

 private:
  class StopsOnAnything : public Actor {
   public:
    void receive(const Message&) override { stop(); }
  };
  ActorName child_;
};

TEST(Priorities, AnUrgentMessageToAStoppedActorOnAnotherWorkerIsOneDeadLetter) {
  Engine engine(with_threads(3));
  engine.send(engine.spawn_on<UrgentToStoppedChild>(0), ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(statistics.messages_received, 3u);  // start, the child's stop, the stop notice
  EXPECT_EQ(statistics.dead_letters, 1u);
}

// ---- Through a full ring: the urgent overflow goes first ----

TEST(Priorities, AnUrgentMessageSkipsTheNormalOverflowOfAFullRing) {
  MessageRing ring(4);
  Parker consumer;
  OutboundChannel channel;
  channel.connect(&ring, &consumer);
  const ActorName to = ActorName::make(0, 1, 0);
  for (int n = 0; n < 8; ++n) channel.stage(ActorName::make(0, 0, n), to, ACTION_PING, {});
  ASSERT_EQ(channel.overflow_size(), 8u - ring.capacity());
  const Message urgent(ActorName::make(0, 0, 100), to, ACTION_PING, PayloadSlot{});
  channel.stage(urgent.source(), to, ACTION_URGENT, urgent_envelope_payload(urgent));
  channel.stage(ActorName::make(0, 0, 8), to, ACTION_PING, {});  // behind the urgent one
  std::vector<std::uint32_t> order;
  auto take = [&](const Message& message) {
    if (is_urgent_envelope(message)) {
      order.push_back(open_urgent_envelope(message).source().index());
    } else {
      order.push_back(message.source().index());
    }
  };
  while (channel.flush()) ring.consume(take);
  ring.consume(take);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{0, 1, 2, 3, 100, 4, 5, 6, 7, 8}));
}

}  // namespace
}  // namespace xenon
