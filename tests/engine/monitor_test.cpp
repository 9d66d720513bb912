// SPDX-License-Identifier: BSD-3-Clause
// Monitors in one process: watch and unwatch on the same worker and across workers, each
// stop reason, watches of names that are no actor, and one notice per watch. Across nodes:
// tests/examples/monitor_test.cpp (the example under mpiexec) and tests/mpi/mpi_test.cpp
// (a node that leaves the job).
#include "xenon/engine/monitor.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include <xenon/xenon.hpp>

#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()

// To a Target: how to end, as text: "normal" (stop()), "throw:WHAT" (an exception), "say
// bye" (an ACTION_PONG to the sender, then stop), or a reason of its own (stop(reason)).
inline constexpr Action ACTION_END{"test.monitor.end"};

Payload text(const std::string& value) { return Payload::copy_of(std::as_bytes(std::span(value))); }
std::string text_of(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

class Target final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() != ACTION_END) return;
    const std::string how = text_of(message.payload());
    if (how == "say bye") {  // a last message, then the stop notice right behind it
      reply(message, ACTION_PONG);
      stop(how);
    } else if (how == "normal") {
      stop();
    } else if (how.starts_with("throw:")) {
      throw std::runtime_error(how.substr(6));
    } else {
      stop(how);
    }
  }
};

// What a watcher saw, in order; read after run() (its threads have joined).
struct Seen {
  std::vector<std::pair<ActorName, std::string>> notices;
  std::map<ActorName, std::string> expected;  // by watched name: the reason it should give
};

void record_notice(const Message& message, Seen& seen) {
  const DownNotice notice = DownNotice::from(message);
  EXPECT_EQ(notice.actor, message.source());
  seen.notices.emplace_back(notice.actor, notice.reason);
}

// Watches one target per way of stopping, on `target_worker`, and ends each.
class EachReasonWatcher final : public Actor {
 public:
  EachReasonWatcher(int target_worker, Seen& seen) : target_worker_(target_worker), seen_(seen) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      const std::pair<std::string, std::string> ways[] = {
          {"normal", std::string(kDownNormal)},
          {"finished the batch", "finished the batch"},
          // Longer than a payload holds inline (40 bytes): a shared payload, to be freed.
          {"finished the batch; wrote all 1000 records to the output file",
           "finished the batch; wrote all 1000 records to the output file"},
          {"throw:disk full", "disk full"}};
      for (const auto& [how, reason] : ways) {
        const ActorName target = spawn_on<Target>(target_worker_);
        watch(target);
        send(target, ACTION_END, text(how));
        seen_.expected[target] = reason;
      }
    } else if (message.action() == ACTION_DOWN) {
      record_notice(message, seen_);
      if (seen_.notices.size() == seen_.expected.size()) stop();
    }
  }

 private:
  int target_worker_;
  Seen& seen_;
};

TEST(Monitors, AWatcherHearsOnceWhyEachActorStoppedOnItsWorkerAndOnAnother) {
  Watchdog watchdog("monitors: reasons");
  for (int threads : {1, 3}) {
    for (int target_worker : {0, with_threads(threads).worker_count() - 1}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", targets on worker " +
                   std::to_string(target_worker));
      Engine run_engine(with_threads(threads));
      Seen seen;
      run_engine.send(run_engine.spawn<EachReasonWatcher>(target_worker, seen), ACTION_START);
      run_engine.run();
      ASSERT_EQ(seen.notices.size(), 4u);
      for (const auto& [actor, reason] : seen.notices) {
        EXPECT_EQ(actor.worker(), static_cast<std::uint32_t>(target_worker));
        EXPECT_EQ(reason, seen.expected.at(actor));
      }
      EXPECT_EQ(run_engine.statistics().actors_failed, 1u);
      EXPECT_EQ(run_engine.statistics().dead_letters, 0u);  // monitor messages are not lost ones
    }
  }
}

// Watches a target that has stopped, and names that never were actors: each gives a notice
// at once.
class DeadNamesWatcher final : public Actor {
 public:
  DeadNamesWatcher(int target_worker, Seen& seen) : target_worker_(target_worker), seen_(seen) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      send(spawn_on<Target>(target_worker_), ACTION_END, text("normal"));
    } else if (message.action() == ACTION_CHILD_STOPPED) {  // it has stopped: watch it now
      const std::uint32_t worker = static_cast<std::uint32_t>(target_worker_);
      const ActorName dead_names[] = {
          message.source(),                 // stopped
          ActorName::make(0, worker, 999),  // never spawned on a worker that exists
          ActorName::make(0, 40, 0),        // a worker this node does not have
          ActorName::make(7, 0, 0),         // a node the run does not have
          ActorName::none()};
      for (const ActorName name : dead_names) {
        watch(name);
        seen_.expected[name] = std::string(kDownNoSuchActor);
      }
    } else if (message.action() == ACTION_DOWN) {
      record_notice(message, seen_);
      if (seen_.notices.size() == seen_.expected.size()) stop();
    }
  }

 private:
  int target_worker_;
  Seen& seen_;
};

TEST(Monitors, WatchingANameThatIsNoActorGivesANoticeAtOnce) {
  Watchdog watchdog("monitors: dead names");
  for (int threads : {1, 3}) {
    for (int target_worker : {0, threads == 1 ? 0 : 1}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", target on worker " +
                   std::to_string(target_worker));
      Engine engine(with_threads(threads));
      Seen seen;
      engine.send(engine.spawn<DeadNamesWatcher>(target_worker, seen), ACTION_START);
      engine.run();
      ASSERT_EQ(seen.notices.size(), 5u);
      for (const auto& [actor, reason] : seen.notices) {
        ASSERT_TRUE(seen.expected.contains(actor)) << actor;
        EXPECT_EQ(reason, kDownNoSuchActor) << actor;
      }
    }
  }
}

// Watches `twice` twice, `unwatched` and then unwatches it before it stops, and
// `crossing` until its last message, when its notice is already on its way.
// A target's notice is sent before its ACTION_CHILD_STOPPED to the same actor, so once all
// three stop notices are in, every monitor notice that was coming has come.
class WatchUnwatchWatcher final : public Actor {
 public:
  WatchUnwatchWatcher(int target_worker, Seen& seen) : target_worker_(target_worker), seen_(seen) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      const ActorName twice = spawn_on<Target>(target_worker_);
      watch(twice);
      watch(twice);
      send(twice, ACTION_END, text("twice"));
      seen_.expected[twice] = "twice";
      const ActorName unwatched = spawn_on<Target>(target_worker_);
      watch(unwatched);
      unwatch(unwatched);
      unwatch(unwatched);  // no longer watched: nothing
      send(unwatched, ACTION_END, text("unwatched"));
      const ActorName crossing = spawn_on<Target>(target_worker_);
      watch(crossing);
      send(crossing, ACTION_END, text("say bye"));
    } else if (message.action() == ACTION_PONG) {
      // The crossing target's notice is already behind this message, in our mailbox.
      unwatch(message.source());
    } else if (message.action() == ACTION_DOWN) {
      record_notice(message, seen_);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      if (++stopped_ == 3) stop();
    }
  }

 private:
  int target_worker_;
  Seen& seen_;
  int stopped_ = 0;
};

TEST(Monitors, OneNoticePerWatchAndNoneAfterUnwatch) {
  Watchdog watchdog("monitors: unwatch");
  for (int threads : {1, 3}) {
    for (int target_worker : {0, threads == 1 ? 0 : 1}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + ", targets on worker " +
                   std::to_string(target_worker));
      Engine engine(with_threads(threads));
      Seen seen;
      engine.send(engine.spawn<WatchUnwatchWatcher>(target_worker, seen), ACTION_START);
      engine.run();
      ASSERT_EQ(seen.notices.size(), 1u);
      EXPECT_EQ(seen.notices[0].second, "twice");
      EXPECT_EQ(seen.expected.at(seen.notices[0].first), "twice");
      EXPECT_EQ(engine.statistics().dead_letters, 0u);
    }
  }
}

// Many watchers, on every worker, of one actor: each hears once; a watcher that stopped
// before it gets no notice, and what the target sends it is no dead letter.
class CrowdWatcher final : public Actor {
 public:
  CrowdWatcher(ActorName watched, bool leave_first, Seen& seen)
      : watched_(watched), leave_first_(leave_first), seen_(seen) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      watch(watched_);
      if (leave_first_) stop();
    } else if (message.action() == ACTION_DOWN) {
      record_notice(message, seen_);
      stop();
    }
  }

 private:
  ActorName watched_;
  bool leave_first_;
  Seen& seen_;
};

class CrowdRoot final : public Actor {
 public:
  CrowdRoot(int watchers, std::vector<Seen>& seen) : watchers_(watchers), seen_(seen) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      target_ = spawn_on<Target>(worker_count() - 1);
      for (int i = 0; i < watchers_; ++i) {
        const ActorName watcher = spawn_on<CrowdWatcher>(i % worker_count(), target_, i % 2 == 1,
                                                         seen_[static_cast<std::size_t>(i)]);
        send(watcher, ACTION_START);
      }
    } else if (message.action() == ACTION_CHILD_STOPPED && message.source() != target_) {
      // A watcher that left stopped; once all of those have, end the target.
      if (++left_ == watchers_ / 2) send(target_, ACTION_END, text("crowd dispersed"));
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  int watchers_;
  std::vector<Seen>& seen_;
  ActorName target_;
  int left_ = 0;
};

TEST(Monitors, EveryWatcherOnEveryWorkerHearsOnceAndOnesThatLeftHearNothing) {
  Watchdog watchdog("monitors: crowd");
  constexpr int kWatchers = 40;
  Engine engine(with_threads(4));
  std::vector<Seen> seen(kWatchers);
  engine.send(engine.spawn<CrowdRoot>(kWatchers, seen), ACTION_START);
  engine.run();
  for (int i = 0; i < kWatchers; ++i) {
    const Seen& one = seen[static_cast<std::size_t>(i)];
    if (i % 2 == 1) {
      EXPECT_TRUE(one.notices.empty()) << "watcher " << i << " had left";
    } else {
      ASSERT_EQ(one.notices.size(), 1u) << "watcher " << i;
      EXPECT_EQ(one.notices[0].second, "crowd dispersed");
    }
  }
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

TEST(Monitors, DownNoticeRefusesAnotherAction) {
  const Message other(ActorName::make(0, 0, 1), ActorName::make(0, 0, 2), ACTION_PING,
                      PayloadSlot{});
  EXPECT_THROW(DownNotice::from(other), std::invalid_argument);
}

}  // namespace
}  // namespace xenon
