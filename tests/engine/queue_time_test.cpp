// SPDX-License-Identifier: BSD-3-Clause
// Sampled queue time, send to receive (engine/queue_time_sample.cpp): exact sample counts
// on one worker, a receiver kept busy, a sampled message its receiver never takes, and
// messages through the rings between three workers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <span>
#include <thread>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()
using std::chrono::milliseconds;

constexpr std::uint64_t kTwentyMilliseconds = 20'000'000;

// Passes a count back and forth with its partner, one less each time (one message per
// turn); stops after sending 0 or receiving it. Every message it receives must show its
// true destination: a sampled message is marked only while it waits.
class Volley final : public Actor {
 public:
  explicit Volley(ActorName partner) : partner_(partner) {}
  void receive(const Message& message) override {
    EXPECT_EQ(message.destination(), self());
    if (message.action() == ACTION_START) {
      send_value(partner_, ACTION_PING, message.payload_as<std::uint64_t>());
      return;
    }
    if (message.action() != ACTION_PING) return;
    const auto remaining = message.payload_as<std::uint64_t>();
    if (remaining > 0) send_value(message.source(), ACTION_PING, remaining - 1);
    if (remaining <= 1) stop();
  }

 private:
  ActorName partner_;
};

Payload count_payload(const std::uint64_t& count) {
  return Payload::copy_of(std::as_bytes(std::span(&count, 1)));
}

TEST(QueueTime, OneSamplePerRoundOfSameWorkerSends) {
  constexpr std::uint64_t kVolleys = 1280;
  Engine engine(with_threads(1));
  const ActorName first = engine.spawn<Volley>(ActorName::none());
  const ActorName second = engine.spawn<Volley>(first);
  engine.send(second, ACTION_START, count_payload(kVolleys));
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  const WorkerObservation& worker = statistics.workers[0];
  ASSERT_EQ(worker.messages_received, kVolleys + 2);
  // Rounds of exactly 256 one-message turns, and the rest: each round's first receive()
  // sends, that send is sampled, and the next turn of the round receives it.
  EXPECT_EQ(worker.queue_time.count, (kVolleys + 2 + 255) / 256);
  EXPECT_EQ(statistics.queue_time.count, worker.queue_time.count);
  EXPECT_LE(worker.queue_time.quantile_nanoseconds(0.5), worker.queue_time.quantile_nanoseconds(0.99));
  EXPECT_LE(worker.queue_time.quantile_nanoseconds(0.99), worker.queue_time.max_nanoseconds);
  EXPECT_EQ(statistics.dead_letters, 0u);
}

// On ACTION_START sends one message to `target`, then sleeps `pause` inside receive().
class SendThenSleep final : public Actor {
 public:
  SendThenSleep(ActorName target, milliseconds pause) : target_(target), pause_(pause) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    send(target_, ACTION_PING);
    std::this_thread::sleep_for(pause_);
    stop();
  }

 private:
  ActorName target_;
  milliseconds pause_;
};

// Stops at its first message.
class StopAtFirst final : public Actor {
 public:
  void receive(const Message&) override { stop(); }
};

TEST(QueueTime, CountsTheTimeTheReceiverWasBusyElsewhere) {
  Engine engine(with_threads(1));
  const ActorName target = engine.spawn<StopAtFirst>();
  const ActorName sleeper = engine.spawn<SendThenSleep>(target, milliseconds(20));
  engine.send(sleeper, ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  // The round's first send, received only after the sender's receive() returned.
  ASSERT_EQ(statistics.queue_time.count, 1u);
  EXPECT_GE(statistics.queue_time.max_nanoseconds, kTwentyMilliseconds);
  EXPECT_GE(statistics.queue_time.quantile_nanoseconds(0.5), kTwentyMilliseconds);
}

// On ACTION_START: one message to `doomed`, then a volley of `volleys` with `partner`.
class SendToDoomedThenVolley final : public Actor {
 public:
  SendToDoomedThenVolley(ActorName doomed, ActorName partner, std::uint64_t volleys)
      : doomed_(doomed), partner_(partner), volleys_(volleys) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    send(doomed_, ACTION_PING);  // the round's first send: the sample
    send_value(partner_, ACTION_START, volleys_);
    stop();
  }

 private:
  ActorName doomed_, partner_;
  std::uint64_t volleys_;
};

TEST(QueueTime, ASampleItsReceiverNeverTakesIsForgotten) {
  constexpr std::uint64_t kVolleys = 1024;
  Engine engine(with_threads(1));
  const ActorName doomed = engine.spawn<StopAtFirst>();
  const ActorName first = engine.spawn<Volley>(ActorName::none());
  const ActorName second = engine.spawn<Volley>(first);
  const ActorName starter = engine.spawn<SendToDoomedThenVolley>(doomed, second, kVolleys);
  // The starter runs first; `doomed` then stops at the stop message, before the sampled
  // message behind it, which becomes a dead letter.
  engine.send(starter, ACTION_START);
  engine.send(doomed, ACTION_STOP);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(statistics.dead_letters, 1u);
  // Forgotten, not stuck: the later rounds of the volley sample again (kVolleys + 2
  // messages after the first round: at least 4 more rounds), and none of them is the
  // dead letter's node, reused, timed from the dead letter's send.
  EXPECT_GE(statistics.queue_time.count, 4u);
  EXPECT_LT(statistics.queue_time.max_nanoseconds, 10 * kTwentyMilliseconds);
}

// Sends `count` messages to `target` in one receive(), then raises `sent`.
class FloodThenFlag final : public Actor {
 public:
  FloodThenFlag(ActorName target, std::uint64_t count, std::atomic<bool>* sent)
      : target_(target), count_(count), sent_(sent) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    for (std::uint64_t i = 0; i < count_; ++i) send_value(target_, ACTION_SEQUENCE, i);
    sent_->store(true, std::memory_order_release);
    stop();
  }

 private:
  ActorName target_;
  std::uint64_t count_;
  std::atomic<bool>* sent_;
};

// At its first message, waits until every message to it was sent, then sleeps 20 ms;
// stops after `expected` messages.
class SlowToStart final : public Actor {
 public:
  SlowToStart(std::uint64_t expected, std::atomic<bool>* sent) : expected_(expected), sent_(sent) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_SEQUENCE) return;
    if (seen_++ == 0) {
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!sent_->load(std::memory_order_acquire) && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::yield();
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
    if (seen_ == expected_) stop();
  }

 private:
  std::uint64_t expected_;
  std::atomic<bool>* sent_;
  std::uint64_t seen_ = 0;
};

TEST(QueueTime, MessagesFromAnotherWorkerCarryTheirRingStamp) {
  // Fits the ring (1,024 slots), so every message is staged, and stamped, inside the
  // sender's receive(); twice what one look at a ring takes (256), so stamped messages
  // are still in the ring when the receiver wakes from its sleep.
  constexpr std::uint64_t kMessages = 512;
  std::atomic<bool> sent{false};
  Engine engine(with_threads(4));  // three workers and the communication thread
  ASSERT_EQ(engine.worker_count(), 3);
  const ActorName receiver = engine.spawn_on<SlowToStart>(1, kMessages, &sent);
  const ActorName sender = engine.spawn_on<FloodThenFlag>(0, receiver, kMessages, &sent);
  engine.send(sender, ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  ASSERT_EQ(statistics.workers.size(), 3u);
  EXPECT_EQ(statistics.workers[1].messages_received, kMessages);
  const DurationHistogram& received = statistics.workers[1].queue_time;
  // Every 64th ring position is stamped: a sample at one of them before the sleep, and
  // one after it, sent before the sleep began.
  EXPECT_GE(received.count, 2u);
  EXPECT_LE(received.count, kMessages / 64);
  EXPECT_GE(received.max_nanoseconds, kTwentyMilliseconds);
  EXPECT_EQ(statistics.workers[2].queue_time.count, 0u);  // it received nothing
}

}  // namespace
}  // namespace xenon
