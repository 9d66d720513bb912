// SPDX-License-Identifier: BSD-3-Clause
// Backpressure on one worker (engine/mailbox_backpressure.cpp): a flood to an actor on the
// sender's own worker is received inside the sender's send() once 64 Ki messages wait, so
// the message path's memory stays bounded; floods the relief cannot reach (to oneself, to
// each other) still complete; a receiver that stops turns the rest into dead letters.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

constexpr std::uint64_t kMailboxLimit = 64 * 1024;  // Worker::kMailboxLimit

struct Tally {
  std::uint64_t received = 0;
  std::uint64_t out_of_order = 0;
};

// Checks that numbers arrive 0, 1, 2, ...; stops after `stop_after` of them.
class InOrderSink : public Actor {
 public:
  InOrderSink(Tally& tally, std::uint64_t stop_after) : tally_(tally), stop_after_(stop_after) {}
  void receive(const Message& message) override {
    if (message.payload_as<std::uint64_t>() != tally_.received) ++tally_.out_of_order;
    if (++tally_.received == stop_after_) stop();
  }

 private:
  Tally& tally_;
  std::uint64_t stop_after_;
};

// Sends 0 .. count-1 to `to`, all inside one receive(): the hardest case, since the sink
// cannot run between two receive() calls of the flooder.
class OneReceiveFlooder : public Actor {
 public:
  OneReceiveFlooder(ActorName to, std::uint64_t count) : to_(to), count_(count) {}
  void receive(const Message&) override {
    for (std::uint64_t n = 0; n < count_; ++n) send_value(to_, ACTION_SEQUENCE, n);
    stop();
  }

 private:
  ActorName to_;
  std::uint64_t count_;
};

TEST(MailboxBackpressure, AFloodOnOneWorkerIsReceivedInsideSendWithBoundedMemory) {
  Watchdog watchdog("one-worker flood");
  const std::uint64_t messages = stress_items(10'000'000);
  Engine engine(with_threads(1));
  Tally tally;
  const ActorName sink = engine.spawn<InOrderSink>(tally, messages);
  engine.send(engine.spawn<OneReceiveFlooder>(sink, messages), ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(tally.received, messages) << "every message exactly once";
  EXPECT_EQ(tally.out_of_order, 0u);
  EXPECT_EQ(statistics.dead_letters, 0u);
  EXPECT_GT(statistics.mailbox_reliefs, 0u);
  // The pool's high-water mark (in chunks of 1024 nodes): the limit and one chunk, against
  // 10 M nodes (720 MB) without the bound.
  EXPECT_LE(statistics.pooled_message_nodes, kMailboxLimit + 1024);
  std::printf("[          ] one-worker flood of %llu: %llu mailbox nodes, %llu reliefs\n",
              static_cast<unsigned long long>(messages),
              static_cast<unsigned long long>(statistics.pooled_message_nodes),
              static_cast<unsigned long long>(statistics.mailbox_reliefs));
}

TEST(MailboxBackpressure, AReceiverThatStopsMidFloodLeavesTheRestAsDeadLetters) {
  const std::uint64_t messages = 4 * kMailboxLimit;
  const std::uint64_t stop_after = kMailboxLimit / 4;
  Engine engine(with_threads(1));
  Tally tally;
  const ActorName sink = engine.spawn<InOrderSink>(tally, stop_after);
  engine.send(engine.spawn<OneReceiveFlooder>(sink, messages), ACTION_START);
  engine.run();
  EXPECT_EQ(tally.received, stop_after);
  EXPECT_EQ(tally.out_of_order, 0u);
  EXPECT_EQ(engine.statistics().dead_letters, messages - stop_after);
  EXPECT_LE(engine.statistics().pooled_message_nodes, kMailboxLimit + 1024);
}

// Sends itself `count` messages in one receive(), then counts them: relief cannot run it
// inside its own receive(), so these wait (unbounded by design) and must not hang send().
class SelfFlooder : public Actor {
 public:
  SelfFlooder(std::uint64_t count, Tally& tally) : count_(count), tally_(tally) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      for (std::uint64_t n = 0; n < count_; ++n) send_value(self(), ACTION_SEQUENCE, n);
      return;
    }
    if (message.payload_as<std::uint64_t>() != tally_.received) ++tally_.out_of_order;
    if (++tally_.received == count_) stop();
  }

 private:
  std::uint64_t count_;
  Tally& tally_;
};

TEST(MailboxBackpressure, AnActorFloodingItselfCompletes) {
  Watchdog watchdog("self flood");
  const std::uint64_t messages = 3 * kMailboxLimit;
  Engine engine(with_threads(1));
  Tally tally;
  engine.send(engine.spawn<SelfFlooder>(messages, tally), ACTION_START);
  engine.run();
  EXPECT_EQ(tally.received, messages);
  EXPECT_EQ(tally.out_of_order, 0u);
}

// Two actors on one worker flooding each other: each answers every number with one to the
// other, until one has seen `stop_after` and stops both.
class Echo : public Actor {
 public:
  Echo(Tally& tally, std::uint64_t stop_after) : tally_(tally), stop_after_(stop_after) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      peer_ = message.payload_as<ActorName>();
      return;
    }
    if (message.action() == ACTION_STOP) {
      stop();
      return;
    }
    ++tally_.received;
    if (tally_.received == stop_after_) {
      send(peer_, ACTION_STOP);  // what is still on its way to us becomes dead letters
      stop();
      return;
    }
    send_value(peer_, ACTION_SEQUENCE, tally_.received);
  }

 private:
  Tally& tally_;
  std::uint64_t stop_after_;
  ActorName peer_;
};

class BurstStarter : public Actor {
 public:
  BurstStarter(ActorName a, ActorName b, std::uint64_t burst) : a_(a), b_(b), burst_(burst) {}
  void receive(const Message&) override {
    send_value(a_, ACTION_START, b_);
    send_value(b_, ACTION_START, a_);
    for (std::uint64_t n = 0; n < burst_; ++n) send_value(a_, ACTION_SEQUENCE, n);
    stop();
  }

 private:
  ActorName a_, b_;
  std::uint64_t burst_;
};

TEST(MailboxBackpressure, ActorsFloodingEachOtherOnOneWorkerDoNotDeadlock) {
  Watchdog watchdog("mutual flood");
  const std::uint64_t burst = 2 * kMailboxLimit;
  Engine engine(with_threads(1));
  Tally at_a, at_b;
  // a answers every message to b and b every one to a: the burst keeps 2 x limit messages
  // circulating while relief runs each inside the other's send().
  const ActorName a = engine.spawn<Echo>(at_a, 4 * burst);
  const ActorName b = engine.spawn<Echo>(at_b, 4 * burst);
  engine.send(engine.spawn<BurstStarter>(a, b, burst), ACTION_START);
  engine.run();
  EXPECT_EQ(at_a.received, 4 * burst);
  EXPECT_EQ(engine.statistics().actors_stopped, 3u);
}

}  // namespace
}  // namespace xenon
