// SPDX-License-Identifier: BSD-3-Clause
#include "engine/outbound_channel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <span>
#include <thread>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

// Messages between workers go through OutboundChannel into rings: order kept through full
// rings, large payloads by reference, and a bounded overflow (backpressure).

// ---- Order per sender and receiver, through full rings ----

struct OrderResult {
  std::map<ActorName, std::uint64_t> next_expected;
  std::uint64_t received = 0;
  std::uint64_t out_of_order = 0;
};

class OrderedReceiver final : public Actor {
 public:
  OrderedReceiver(std::uint64_t expected_total, OrderResult& result)
      : expected_total_(expected_total), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_SEQUENCE) return;
    const auto sequence = message.payload_as<std::uint64_t>();
    std::uint64_t& next = result_.next_expected[message.source()];
    if (sequence != next) ++result_.out_of_order;
    next = sequence + 1;
    if (++result_.received == expected_total_) stop();
  }

 private:
  std::uint64_t expected_total_;
  OrderResult& result_;
};

// Sends its whole sequence in one receive(): far more than a ring holds, so most of it
// waits in the sender's overflow queue, and must still arrive complete and in order.
class Burster final : public Actor {
 public:
  Burster(ActorName target, std::uint64_t count) : target_(target), count_(count) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    for (std::uint64_t i = 0; i < count_; ++i) send_value(target_, ACTION_SEQUENCE, i);
    stop();
  }

 private:
  ActorName target_;
  std::uint64_t count_;
};

TEST(Engine, EverySendersMessagesArriveOnceAndInOrder) {
  testing::Watchdog watchdog("ordering");
  Engine engine(with_threads(4));  // three workers
  const std::uint64_t per_sender = testing::stress_items(200'000);
  constexpr int kSendersPerWorker = 3;
  const std::uint64_t total = per_sender * kSendersPerWorker * 3;
  OrderResult result;
  const ActorName receiver = engine.spawn_on<OrderedReceiver>(0, total, result);
  for (int worker = 0; worker < 3; ++worker) {
    for (int i = 0; i < kSendersPerWorker; ++i) {
      engine.send(engine.spawn_on<Burster>(worker, receiver, per_sender), ACTION_START);
    }
  }
  engine.run();
  EXPECT_EQ(result.received, total);
  EXPECT_EQ(result.out_of_order, 0u);
  ASSERT_EQ(result.next_expected.size(), 9u);
  for (const auto& [sender, next] : result.next_expected) EXPECT_EQ(next, per_sender);
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}
// ---- Large payloads travel by reference ----

struct BlobResult {
  const std::byte* sent_at = nullptr;
  const std::byte* received_at = nullptr;
  std::uint64_t checksum_sent = 0;
  std::uint64_t checksum_received = 0;
};

std::uint64_t checksum(std::span<const std::byte> bytes) {
  std::uint64_t sum = 1469598103934665603ULL;
  for (std::byte b : bytes) sum = (sum ^ static_cast<std::uint64_t>(b)) * 1099511628211ULL;
  return sum;
}

class BlobReceiver final : public Actor {
 public:
  explicit BlobReceiver(BlobResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_BLOB) return;
    result_.received_at = message.payload().data();
    result_.checksum_received = checksum(message.payload());
    stop();
  }

 private:
  BlobResult& result_;
};

class BlobSender final : public Actor {
 public:
  explicit BlobSender(BlobResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      Payload blob = Payload::with_size(8 << 20);
      std::span<std::byte> bytes = blob.writable_bytes();
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i % 251);
      result_.sent_at = blob.bytes().data();
      result_.checksum_sent = checksum(blob.bytes());
      send(spawn_on<BlobReceiver>(worker_count() - 1, result_), ACTION_BLOB, std::move(blob));
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  BlobResult& result_;
};

TEST(Engine, LargePayloadsCrossWorkersWithoutACopy) {
  Engine engine(with_threads(3));
  BlobResult result;
  engine.send(engine.spawn<BlobSender>(result), ACTION_START);
  engine.run();
  EXPECT_EQ(result.received_at, result.sent_at);
  EXPECT_EQ(result.checksum_received, result.checksum_sent);
}
// ---- Backpressure: a flood across workers stays bounded and loses nothing ----

struct FloodResult {
  std::atomic<std::uint64_t> received{0};
  std::atomic<std::uint64_t> sent{0};
};

// Sends its whole sequence in one receive(), counting as it goes.
class CountingFlooder final : public Actor {
 public:
  CountingFlooder(ActorName target, std::uint64_t count, FloodResult& result)
      : target_(target), count_(count), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_START) return;
    for (std::uint64_t i = 0; i < count_; ++i) {
      send_value(target_, ACTION_SEQUENCE, i);
      // Release: pairs with the acquire load in Blocker.
      result_.sent.store(i + 1, std::memory_order_release);
    }
    stop();
  }

 private:
  ActorName target_;
  std::uint64_t count_;
  FloodResult& result_;
};

// Holds the consumer's worker until the flooder is at the backpressure limit (its next
// message must wait), and a while longer, so the test does not depend on which thread
// happens to be faster.
class Blocker final : public Actor {
 public:
  Blocker(std::uint64_t ahead, FloodResult& result) : ahead_(ahead), result_(result) {}
  void receive(const Message&) override {
    // Acquire: pairs with the release store in CountingFlooder.
    while (result_.sent.load(std::memory_order_acquire) < ahead_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // its next send waits
    stop();
  }

 private:
  std::uint64_t ahead_;
  FloodResult& result_;
};

class FloodSink final : public Actor {
 public:
  FloodSink(std::uint64_t expected, FloodResult& result) : expected_(expected), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() != ACTION_SEQUENCE) return;
    if (message.payload_as<std::uint64_t>() != received_) ++out_of_order_;
    if (++received_ == expected_) {
      EXPECT_EQ(out_of_order_, 0u);
      result_.received.store(received_, std::memory_order_relaxed);
      stop();
    }
  }

 private:
  std::uint64_t expected_;
  FloodResult& result_;
  std::uint64_t received_ = 0;
  std::uint64_t out_of_order_ = 0;
};

TEST(Engine, AFloodAcrossWorkersIsSlowedNotBufferedWithoutBound) {
  testing::Watchdog watchdog("flood");
  const std::uint64_t messages = testing::stress_items(4'000'000);
  constexpr std::uint64_t kLimit = 64 * 1024;  // Worker::kOverflowLimit
  Engine engine(with_threads(3));
  FloodResult result;
  // Worker 0 is held until the flooder is past the limit (ring of 1024 + kLimit waiting).
  engine.send(engine.spawn_on<Blocker>(0, 1024 + kLimit, result), ACTION_START);
  const ActorName sink = engine.spawn_on<FloodSink>(0, messages, result);
  // One receive() sends everything: without backpressure all of it would wait in memory.
  engine.send(engine.spawn_on<CountingFlooder>(1, sink, messages, result), ACTION_START);
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  // Relaxed: read after run(), whose threads have joined.
  EXPECT_EQ(result.received.load(std::memory_order_relaxed), messages);
  EXPECT_EQ(statistics.dead_letters, 0u);
  // Peak memory of the message path: the sender's overflow stayed near its 64 Ki-message
  // limit (4 MiB) and the mailboxes near a few rounds, against 4 M messages (256 MiB) sent.
  EXPECT_EQ(statistics.overflow_peak, kLimit + 1);  // then the sender waited
  EXPECT_GT(statistics.backpressure_waits, 0u);
  EXPECT_LE(statistics.pooled_message_nodes, 256u * 1024);
  std::printf("[          ] flood of %llu: overflow peak %llu messages, %llu waits, %llu "
              "mailbox nodes\n",
              static_cast<unsigned long long>(messages),
              static_cast<unsigned long long>(statistics.overflow_peak),
              static_cast<unsigned long long>(statistics.backpressure_waits),
              static_cast<unsigned long long>(statistics.pooled_message_nodes));
}
}  // namespace
}  // namespace xenon
