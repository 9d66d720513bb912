// SPDX-License-Identifier: BSD-3-Clause
// The engine's counters of where time and messages went (run_observation.hpp): exact
// counts on known workloads, on one worker and on three.
#include <gtest/gtest.h>

#include <atomic>
#include <span>
#include <string>
#include <thread>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

// Set by a Sender once it has sent everything; a holding Counter waits for it.
std::atomic<bool> all_sent{false};

// Counts what it receives and stops after `expected` messages. A holding one keeps its
// worker inside its first receive() until the Sender has sent everything, so the ring to
// that worker is sure to fill (on another worker only: on its own it would wait forever).
class Counter final : public Actor {
 public:
  explicit Counter(std::uint64_t expected, bool holding = false) : expected_(expected), holding_(holding) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_SEQUENCE) return;
    // Pairs with the release store in Sender::receive().
    while (holding_ && seen_ == 0 && !all_sent.load(std::memory_order_acquire)) std::this_thread::yield();
    if (++seen_ == expected_) stop();
  }
  std::string type_name() const override { return "counter"; }

 private:
  std::uint64_t expected_;
  bool holding_;
  std::uint64_t seen_ = 0;
};

// On ACTION_START, sends `count` messages to `target` in one receive(), then stops.
class Sender final : public Actor {
 public:
  Sender(ActorName target, std::uint64_t count) : target_(target), count_(count) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    for (std::uint64_t i = 0; i < count_; ++i) send_value(target_, ACTION_SEQUENCE, i);
    all_sent.store(true, std::memory_order_release);  // pairs with the acquire in Counter::receive()
    stop();
  }

 private:
  ActorName target_;
  std::uint64_t count_;
};

const ActorTypeObservation* find_type(const EngineStatistics& statistics, const std::string& type) {
  for (const ActorTypeObservation& observed : statistics.actor_types) {
    if (observed.type == type) return &observed;
  }
  return nullptr;
}

TEST(RunObservation, OneWorkerCountsSendsToItselfMailboxesAndSampledReceives) {
  constexpr std::uint64_t kMessages = 1000;
  Engine engine(with_threads(1));
  const ActorName counter = engine.spawn<Counter>(kMessages);
  const ActorName sender = engine.spawn<Sender>(counter, kMessages);
  engine.send(sender, ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  ASSERT_EQ(statistics.workers.size(), 1u);
  const WorkerObservation& worker = statistics.workers[0];
  EXPECT_EQ(worker.sent_to_same_worker, kMessages + 1);  // and the program's start message
  EXPECT_EQ(worker.sent_to_other_workers, 0u);
  EXPECT_EQ(worker.sent_to_other_nodes, 0u);
  EXPECT_EQ(worker.messages_received, kMessages + 1);
  ASSERT_EQ(worker.sent_to_worker.size(), 1u);
  EXPECT_EQ(worker.sent_to_worker[0], kMessages + 1);
  // The first receive() of each round of up to 256 messages (a round ends at the turn
  // that reaches 256): 257, 256, 256 and 232 messages.
  EXPECT_EQ(worker.receive_time.count, 4u);

  // The sender filled the counter's mailbox before the counter's first turn, which left
  // 936 of the 1,000 behind.
  const ActorTypeObservation* counters = find_type(statistics, "counter");
  ASSERT_NE(counters, nullptr);
  EXPECT_EQ(counters->actors, 1u);
  EXPECT_EQ(counters->messages_handled, kMessages);
  EXPECT_EQ(counters->mailbox_high_water, kMessages);
  // Without type_name(), the demangled C++ type.
  const ActorTypeObservation* senders =
      find_type(statistics, "xenon::(anonymous namespace)::Sender");
  ASSERT_NE(senders, nullptr);
  EXPECT_EQ(senders->messages_handled, 1u);
  EXPECT_EQ(senders->mailbox_high_water, 0u);  // every turn emptied its mailbox

  // One node: no traffic, and node 0's matrix is its own row.
  ASSERT_EQ(statistics.to_nodes.size(), 1u);
  EXPECT_EQ(statistics.to_nodes[0].frames, 0u);
  ASSERT_EQ(statistics.node_matrix.size(), 1u);
  // Busy time is the same figure as the busy timeline.
  EXPECT_GT(worker.busy_nanoseconds, 0u);
  EXPECT_EQ(worker.busy_nanoseconds, statistics.worker_busy_nanoseconds[0]);
}

// Two actors of one worker pass a count back and forth, each time one less: every turn
// is one message. The one that sends 0 stops, and so does the one that receives it.
class Volley final : public Actor {
 public:
  explicit Volley(ActorName partner) : partner_(partner) {}
  void receive(const Message& message) override {
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

TEST(RunObservation, EachRoundTimesItsFirstReceive) {
  constexpr std::uint64_t kVolleys = 1280;
  Engine engine(with_threads(1));
  const ActorName first = engine.spawn<Volley>(ActorName::none());
  const ActorName second = engine.spawn<Volley>(first);
  engine.send(second, ACTION_START, Payload::copy_of(std::as_bytes(std::span(&kVolleys, 1))));
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  const WorkerObservation& worker = statistics.workers[0];
  EXPECT_EQ(worker.messages_received, kVolleys + 2);  // the start, and 0 to kVolleys
  // Turns of one message each: rounds of exactly 256 messages, and the rest.
  EXPECT_EQ(worker.receive_time.count, (kVolleys + 2 + 255) / 256);
  EXPECT_EQ(statistics.receive_time.count, worker.receive_time.count);
  EXPECT_LE(worker.receive_time.quantile_nanoseconds(0.5), worker.receive_time.quantile_nanoseconds(0.99));
  EXPECT_LE(worker.receive_time.quantile_nanoseconds(0.99), worker.receive_time.max_nanoseconds);
  EXPECT_EQ(statistics.dead_letters, 0u);
}

TEST(RunObservation, ThreeWorkersCountMessagesPerPairOfWorkers) {
  constexpr std::uint64_t kMessages = 20'000;  // far more than a ring holds: some wait
  Engine engine(with_threads(4));              // three workers and the communication thread
  ASSERT_EQ(engine.worker_count(), 3);
  all_sent.store(false, std::memory_order_relaxed);  // before run() starts the workers
  const ActorName counter = engine.spawn_on<Counter>(1, kMessages, /*holding=*/true);
  const ActorName sender = engine.spawn_on<Sender>(0, counter, kMessages);
  engine.send(sender, ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  ASSERT_EQ(statistics.workers.size(), 3u);
  const WorkerObservation& from = statistics.workers[0];
  EXPECT_EQ(from.sent_to_other_workers, kMessages);
  EXPECT_EQ(from.sent_to_same_worker, 1u);  // the program's start message
  EXPECT_EQ(from.sent_to_worker, (std::vector<std::uint64_t>{1, kMessages, 0}));
  // Staged in one receive() while the counter holds its worker: 20,000 messages cannot all
  // fit a ring of 1,024 slots.
  EXPECT_GT(from.ring_full_waits, 0u);
  EXPECT_LE(from.ring_full_waits, kMessages);
  EXPECT_EQ(statistics.workers[1].messages_received, kMessages);
  EXPECT_EQ(statistics.workers[1].sent_to_other_workers, 0u);
  EXPECT_EQ(statistics.workers[2].messages_received, 0u);
  EXPECT_EQ(statistics.workers[2].busy_nanoseconds, 0u);
  const ActorTypeObservation* counters = find_type(statistics, "counter");
  ASSERT_NE(counters, nullptr);
  EXPECT_EQ(counters->messages_handled, kMessages);
  // 0 if the counter always kept up (turns of up to 64 emptied its mailbox), else the
  // depth at the start of a turn that could not: never more than was sent.
  EXPECT_LE(counters->mailbox_high_water, kMessages);
}

TEST(DurationHistogram, QuantilesAreTheBoundsOfTheirLog2Buckets) {
  DurationHistogram histogram;
  for (int i = 0; i < 98; ++i) histogram.add(100);  // bucket 6: 64..127 ns
  histogram.add(5'000);                             // bucket 12: 4096..8191 ns
  histogram.add(9'000);                             // bucket 13
  EXPECT_EQ(histogram.count, 100u);
  EXPECT_EQ(histogram.buckets[6], 98u);
  EXPECT_EQ(histogram.quantile_nanoseconds(0.5), 127u);
  EXPECT_EQ(histogram.quantile_nanoseconds(0.99), 8191u);
  EXPECT_EQ(histogram.quantile_nanoseconds(1.0), 9'000u);  // capped by the maximum
  EXPECT_EQ(histogram.max_nanoseconds, 9'000u);
  EXPECT_EQ(DurationHistogram{}.quantile_nanoseconds(0.5), 0u);
}

}  // namespace
}  // namespace xenon
