// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include <xenon/xenon.hpp>
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

// The node as a whole: its options, its first actors, and the end of its run.

// ---- Supervision and exact termination ----

struct TreeResult {
  std::atomic<int> leaves_stopped_by_notice{0};
  int root_notices = 0;
};

class Leaf final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_STOP) stop();
  }
};

// Spawns children on every worker (which spawn grandchildren), stops them all, and stops
// itself once every child's stop notice came back.
class Parent final : public Actor {
 public:
  Parent(int depth, int fan_out, TreeResult& result)
      : depth_(depth), fan_out_(fan_out), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      for (int i = 0; i < fan_out_; ++i) {
        const int worker = i % worker_count();
        const ActorName child = depth_ > 1 ? spawn_on<Parent>(worker, depth_ - 1, fan_out_, result_)
                                           : spawn_on<Leaf>(worker);
        children_.push_back(child);
        send(child, depth_ > 1 ? ACTION_START : ACTION_STOP);
      }
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      EXPECT_NE(std::find(children_.begin(), children_.end(), message.source()), children_.end());
      if (depth_ == 1) result_.leaves_stopped_by_notice.fetch_add(1, std::memory_order_relaxed);
      if (supervisor().is_none()) ++result_.root_notices;
      if (++stopped_children_ == fan_out_) stop();
    }
  }

 private:
  int depth_, fan_out_;
  TreeResult& result_;
  std::vector<ActorName> children_;
  int stopped_children_ = 0;
};

TEST(Engine, SupervisorsHearOfEveryChildAndRunEndsWhenTheLastActorStops) {
  testing::Watchdog watchdog("supervision");
  Engine engine(with_threads(4));
  TreeResult result;
  engine.send(engine.spawn<Parent>(3, 6, result), ACTION_START);
  engine.run();  // returns only because every actor stopped
  EXPECT_EQ(result.root_notices, 6);
  // Relaxed: read after run(), whose threads have joined.
  EXPECT_EQ(result.leaves_stopped_by_notice.load(std::memory_order_relaxed), 6 * 6 * 6);
  const EngineStatistics statistics = engine.statistics();
  EXPECT_EQ(statistics.actors_spawned, 1u + 6 + 36 + 216);
  EXPECT_EQ(statistics.actors_stopped, statistics.actors_spawned);
  EXPECT_EQ(statistics.dead_letters, 0u);
}

TEST(Engine, RunWithNoActorReturnsAtOnce) {
  Engine engine(with_threads(3));
  engine.run();
  EXPECT_EQ(engine.statistics().messages_received, 0u);
}

// ---- Bad use ----

TEST(Engine, RejectsBadOptionsAndBadPlacement) {
  EXPECT_THROW(Engine(with_threads(0)), std::invalid_argument);
  Engine engine(with_threads(3));
  EXPECT_THROW(engine.spawn_on<Leaf>(2), std::out_of_range);
  EXPECT_THROW(engine.spawn_on<Leaf>(-1), std::out_of_range);
  EXPECT_THROW(engine.send(ActorName::make(5, 0, 0), ACTION_START), std::out_of_range);
}

TEST(Engine, WorkerCountFollowsThreadsPerNode) {
  EXPECT_EQ(Engine(with_threads(1)).worker_count(), 1);
  EXPECT_EQ(Engine(with_threads(2)).worker_count(), 1);
  EXPECT_EQ(Engine(with_threads(3)).worker_count(), 2);
  EXPECT_EQ(Engine(with_threads(8)).worker_count(), 7);
}
}  // namespace
}  // namespace xenon
