// SPDX-License-Identifier: BSD-3-Clause
// Load balancing within a node (engine/worker_balancing.cpp): idle workers take ready
// actors from a busy one, and every guarantee holds across the move: order per sender and
// receiver, one message at a time, exact counts, termination, pinned actors staying put.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>
#include <xenon/xenon.hpp>

#include "tests/engine/engine_test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

constexpr int kChildren = 48;
constexpr std::uint64_t kMessagesPerSender = 40;

// What one child saw; written by the child's worker, read after run().
struct ChildLog {
  std::uint64_t from_root = 0;    // in-order messages from the root
  std::uint64_t from_feeder = 0;  // in-order messages from the feeder
  bool out_of_order = false;
  bool overlapping_receive = false;
  bool timer_fired = false;
  bool watched_feeder = false;   // it watched the feeder from a worker it moved to
  int downs = 0;                 // ACTION_DOWN notices of the feeder
  std::array<bool, 8> ran_on{};  // workers it received on
};

struct Logs {
  std::vector<ChildLog> children = std::vector<ChildLog>(kChildren);
  std::uint64_t children_done = 0;
};

// Spends about `duration` of the worker's time, so that its worker has more than it can do.
void compute_for(std::chrono::microseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Receives numbered messages from two senders, checks each sender's order, computes a
// little per message, then sets a timer (on whatever worker it lives on by then) and stops
// when it fires. Once it runs on another worker than worker 0 (it moved), it watches the
// feeder, and then also waits for that notice: timers and monitors of a moved actor.
class Child final : public Actor {
 public:
  explicit Child(ChildLog& log) : log_(log) {}
  void receive(const Message& message) override {
    if (in_receive_.exchange(true, std::memory_order_relaxed)) log_.overlapping_receive = true;
    log_.ran_on[static_cast<std::size_t>(worker_index())] = true;
    if (worker_index() != 0 && !log_.watched_feeder && message.action() == ACTION_SEQUENCE &&
        message.source() != supervisor()) {
      log_.watched_feeder = true;
      watch(message.source());
    }
    if (message.action() == ACTION_SEQUENCE) {
      const auto number = message.payload_as<std::uint64_t>();
      std::uint64_t& seen = message.source() == supervisor() ? log_.from_root : log_.from_feeder;
      if (number != seen) log_.out_of_order = true;
      ++seen;
      compute_for(std::chrono::microseconds(40));
      if (log_.from_root == kMessagesPerSender && log_.from_feeder == kMessagesPerSender) {
        send_after(std::chrono::milliseconds(1), self(), ACTION_CHECK);
      }
    } else if (message.action() == ACTION_CHECK) {
      log_.timer_fired = true;
    } else if (message.action() == ACTION_DOWN) {
      ++log_.downs;
    }
    if (log_.timer_fired && (!log_.watched_feeder || log_.downs > 0)) stop();
    in_receive_.store(false, std::memory_order_relaxed);
  }

 private:
  ChildLog& log_;
  std::atomic<bool> in_receive_{false};
};

// On worker 0: spawns every child there (movable: Actor::spawn), sends each its numbered
// messages, tells the feeder their names; once a child has stopped, sends it one more
// message, which must be counted as a dead letter exactly once.
class Root final : public Actor {
 public:
  Root(Logs& logs, ActorName feeder, bool pinned) : logs_(logs), feeder_(feeder), pinned_(pinned) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      std::vector<ActorName> children;
      for (ChildLog& log : logs_.children) {
        children.push_back(pinned_ ? spawn_on<Child>(worker_index(), log) : spawn<Child>(log));
      }
      for (std::uint64_t number = 0; number < kMessagesPerSender; ++number) {
        for (const ActorName child : children) send_value(child, ACTION_SEQUENCE, number);
      }
      for (const ActorName child : children) send_value(feeder_, ACTION_WORK, child.value());
      send(feeder_, ACTION_STOP);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      send(message.source(), ACTION_PING);  // a dead letter, wherever it lived
      if (++logs_.children_done == kChildren) stop();
    }
  }

 private:
  Logs& logs_;
  ActorName feeder_;
  bool pinned_;
};

// On the last worker, pinned: sends every child it is told of its own numbered messages,
// which reach the child through its home worker wherever it lives by then.
class Feeder final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_WORK) {
      const ActorName child = ActorName::from_value(message.payload_as<std::uint64_t>());
      for (std::uint64_t number = 0; number < kMessagesPerSender; ++number) {
        send_value(child, ACTION_SEQUENCE, number);
      }
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }
};

struct Outcome {
  Logs logs;
  EngineStatistics statistics;
};

void run_uneven(int threads, bool balance, bool pinned, Outcome& outcome) {
  EngineOptions options = with_threads(threads);
  options.balance = balance;
  Engine engine(options);
  const ActorName feeder = engine.spawn_on<Feeder>(engine.worker_count() - 1);
  const ActorName root = engine.spawn<Root>(outcome.logs, feeder, pinned);
  engine.send(root, ACTION_START);
  engine.run();
  outcome.statistics = engine.statistics();
}

void expect_every_guarantee(const Outcome& outcome) {
  EXPECT_EQ(outcome.logs.children_done, static_cast<std::uint64_t>(kChildren));
  for (const ChildLog& log : outcome.logs.children) {
    EXPECT_EQ(log.from_root, kMessagesPerSender);
    EXPECT_EQ(log.from_feeder, kMessagesPerSender);
    EXPECT_FALSE(log.out_of_order);
    EXPECT_FALSE(log.overlapping_receive);
    EXPECT_TRUE(log.timer_fired);
    EXPECT_EQ(log.downs, log.watched_feeder ? 1 : 0);
  }
  // Exactly one dead letter per child: the root's message after its stop.
  EXPECT_EQ(outcome.statistics.dead_letters, static_cast<std::uint64_t>(kChildren));
  EXPECT_EQ(outcome.statistics.actors_stopped, static_cast<std::uint64_t>(kChildren + 2));
}

int children_that_left_worker_0(const Outcome& outcome) {
  int left = 0;
  for (const ChildLog& log : outcome.logs.children) {
    bool elsewhere = false;
    for (std::size_t w = 1; w < log.ran_on.size(); ++w) elsewhere |= log.ran_on[w];
    left += elsewhere ? 1 : 0;
  }
  return left;
}

class BalancingWorkers : public ::testing::TestWithParam<int> {};

TEST_P(BalancingWorkers, IdleWorkersTakeActorsAndEveryGuaranteeHolds) {
  Outcome outcome;
  run_uneven(GetParam(), true, false, outcome);
  expect_every_guarantee(outcome);
  EXPECT_GT(outcome.statistics.actors_moved, 0u);
  EXPECT_EQ(children_that_left_worker_0(outcome),
            static_cast<int>(outcome.statistics.actors_moved));
  int watchers = 0;
  for (const ChildLog& log : outcome.logs.children) watchers += log.watched_feeder ? 1 : 0;
  EXPECT_EQ(watchers, static_cast<int>(outcome.statistics.actors_moved));
}

TEST_P(BalancingWorkers, PinnedActorsNeverMove) {
  Outcome outcome;
  run_uneven(GetParam(), true, true, outcome);
  expect_every_guarantee(outcome);
  EXPECT_EQ(outcome.statistics.actors_moved, 0u);
  EXPECT_EQ(children_that_left_worker_0(outcome), 0);
}

TEST_P(BalancingWorkers, OffMovesNothing) {
  Outcome outcome;
  run_uneven(GetParam(), false, false, outcome);
  expect_every_guarantee(outcome);
  EXPECT_EQ(outcome.statistics.actors_moved, 0u);
  EXPECT_EQ(children_that_left_worker_0(outcome), 0);
}

// 2 and 3 workers (a communication thread beside them).
INSTANTIATE_TEST_SUITE_P(Balancing, BalancingWorkers, ::testing::Values(3, 4),
                         [](const auto& info) { return std::to_string(info.param) + "threads"; });

TEST(Balancing, OneWorkerNeverBalances) {
  Outcome outcome;
  run_uneven(1, true, false, outcome);
  expect_every_guarantee(outcome);
  EXPECT_EQ(outcome.statistics.actors_moved, 0u);
}

TEST(Balancing, CommandLineTakesOnAndOff) {
  for (const auto& [word, expected] : {std::pair{"off", false}, std::pair{"on", true}}) {
    EngineOptions options;
    options.balance = !expected;
    CommandLine command_line("test", "balancing option");
    add_engine_options(command_line, options);
    const char* argv[] = {"test", "-balance", word, "-threads-per-node", "3"};
    ASSERT_TRUE(command_line.parse(5, argv));
    EXPECT_EQ(options.balance, expected) << word;
    EXPECT_EQ(options.threads_per_node, 3);
  }
}

}  // namespace
}  // namespace xenon
