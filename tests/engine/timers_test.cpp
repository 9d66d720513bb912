// SPDX-License-Identifier: BSD-3-Clause
// Timers: Actor::send_after / send_every / cancel_timer and Engine's program timers. Delays
// are checked from below only: the machine is shared, so a timer may fire late.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>
#include <xenon/xenon.hpp>

#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()
using namespace std::chrono_literals;

inline constexpr Action ACTION_TICK{"test.tick"};
inline constexpr Action ACTION_DONE{"test.done"};

class TimersAcrossThreads : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Threads, TimersAcrossThreads, ::testing::Values(1, 3));

// ---- A one-shot timer fires once, not before its delay ----

struct DelayResult {
  int fired = 0;
  std::chrono::nanoseconds waited{0};
  bool cancel_after_firing = true;
};

class Sleeper final : public Actor {
 public:
  explicit Sleeper(DelayResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      set_at_ = MonotonicClock::now();
      timer_ = send_after(30ms, self(), ACTION_TICK);
    } else if (message.action() == ACTION_TICK) {
      ++result_.fired;
      result_.waited = MonotonicClock::now() - set_at_;
      EXPECT_EQ(message.source(), self());
      result_.cancel_after_firing = cancel_timer(timer_);
      stop();
    }
  }

 private:
  DelayResult& result_;
  MonotonicClock::time_point set_at_;
  TimerId timer_;
};

TEST_P(TimersAcrossThreads, AOneShotTimerFiresOnceAndNotBeforeItsDelay) {
  Watchdog watchdog("one-shot timer");
  DelayResult result;
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<Sleeper>(result), ACTION_START);
  engine.run();
  EXPECT_EQ(result.fired, 1);
  EXPECT_GE(result.waited, 30ms);
  EXPECT_FALSE(result.cancel_after_firing);  // a fired one-shot is no longer pending
  EXPECT_EQ(engine.statistics().timers_fired, 1u);
  EXPECT_EQ(engine.statistics().timers_cancelled, 0u);
}

// ---- A periodic timer fires until cancelled, then never again ----

struct PeriodicResult {
  int ticks = 0;
  int ticks_at_check = -1;
  bool first_cancel = false;
  bool second_cancel = true;
  std::chrono::nanoseconds until_fifth{0};
};

class Metronome final : public Actor {
 public:
  explicit Metronome(PeriodicResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      set_at_ = MonotonicClock::now();
      timer_ = send_every(2ms, self(), ACTION_TICK);
    } else if (message.action() == ACTION_TICK) {
      if (++result_.ticks == 5) {
        result_.until_fifth = MonotonicClock::now() - set_at_;
        result_.first_cancel = cancel_timer(timer_);
        result_.second_cancel = cancel_timer(timer_);
        send_after(40ms, self(), ACTION_CHECK);  // room for ticks that should not come
      }
    } else if (message.action() == ACTION_CHECK) {
      result_.ticks_at_check = result_.ticks;
      stop();
    }
  }

 private:
  PeriodicResult& result_;
  MonotonicClock::time_point set_at_;
  TimerId timer_;
};

TEST_P(TimersAcrossThreads, APeriodicTimerFiresEveryPeriodUntilCancelled) {
  Watchdog watchdog("periodic timer");
  PeriodicResult result;
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<Metronome>(result), ACTION_START);
  engine.run();
  EXPECT_EQ(result.ticks, 5);
  EXPECT_EQ(result.ticks_at_check, 5);
  EXPECT_GE(result.until_fifth, 10ms);  // five periods
  EXPECT_TRUE(result.first_cancel);
  EXPECT_FALSE(result.second_cancel);
  EXPECT_EQ(engine.statistics().timers_fired, 6u);  // five ticks and the check
}

// ---- Cancelled before it fires: never delivered ----

struct CancelResult {
  int pings = 0;
  bool cancelled = false;
  bool cancel_of_unknown = true;
  bool checked = false;
};

class Canceller final : public Actor {
 public:
  explicit Canceller(CancelResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      const TimerId doomed = send_after(5ms, self(), ACTION_PING, Payload::with_size(100));
      result_.cancelled = cancel_timer(doomed);
      result_.cancel_of_unknown = cancel_timer(TimerId{doomed.value + 1000});
      send_after(50ms, self(), ACTION_CHECK);
    } else if (message.action() == ACTION_PING) {
      ++result_.pings;
    } else if (message.action() == ACTION_CHECK) {
      result_.checked = true;
      stop();
    }
  }

 private:
  CancelResult& result_;
};

TEST_P(TimersAcrossThreads, ATimerCancelledBeforeItFiresIsNeverDelivered) {
  Watchdog watchdog("cancelled timer");
  CancelResult result;
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<Canceller>(result), ACTION_START);
  engine.run();
  EXPECT_TRUE(result.cancelled);
  EXPECT_FALSE(result.cancel_of_unknown);
  EXPECT_TRUE(result.checked);
  EXPECT_EQ(result.pings, 0);
  EXPECT_EQ(engine.statistics().timers_fired, 1u);
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

// ---- To an actor on another worker: payloads intact, in order with the owner's sends ----

constexpr int kTicksAcross = 20;

struct AcrossResult {
  int ticks = 0;
  int bad_payloads = 0;
  int ticks_after_stop_request = 0;
};

std::vector<std::byte> pattern(std::size_t size) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>(i * 7 + 3);
  return bytes;
}

class TickCounter final : public Actor {
 public:
  TickCounter(ActorName expected_source, AcrossResult& result)
      : expected_source_(expected_source), result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_TICK) {
      ++result_.ticks;
      const auto expected = pattern(message.payload_size() == 8 ? 8 : 4096);
      if (message.source() != expected_source_ ||
          !std::equal(expected.begin(), expected.end(), message.payload().begin(),
                      message.payload().end())) {
        ++result_.bad_payloads;
      }
      if (result_.ticks == kTicksAcross) reply(message, ACTION_DONE);
    } else if (message.action() == ACTION_STOP) {
      stop();  // every tick sent before the stop request came before it
    }
  }

 private:
  ActorName expected_source_;
  AcrossResult& result_;
};

class TickSource final : public Actor {
 public:
  explicit TickSource(AcrossResult& result) : result_(result) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      counter_ = spawn_on<TickCounter>(worker_count() - 1, self(), result_);
      small_ = send_every(1ms, counter_, ACTION_TICK, Payload::copy_of(pattern(8)));
      large_ = send_every(1ms, counter_, ACTION_TICK, Payload::copy_of(pattern(4096)));
    } else if (message.action() == ACTION_DONE) {
      EXPECT_TRUE(cancel_timer(small_));
      EXPECT_TRUE(cancel_timer(large_));
      send(counter_, ACTION_STOP);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  AcrossResult& result_;
  ActorName counter_;
  TimerId small_, large_;
};

TEST_P(TimersAcrossThreads, PeriodicTimersReachAnotherWorkerWholeAndBeforeALaterSend) {
  Watchdog watchdog("timers across workers");
  AcrossResult result;
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<TickSource>(result), ACTION_START);
  engine.run();
  EXPECT_GE(result.ticks, kTicksAcross);
  EXPECT_EQ(result.bad_payloads, 0);
  // A tick that followed the stop request would be a dead letter.
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

// ---- Termination: a timer never keeps the run alive ----

class Quitter final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      send_after(1h, self(), ACTION_PING);
      send_every(1ms, self(), ACTION_TICK);
      send_after(1h, supervisor(), ACTION_PING);
      stop();
    }
  }
};

TEST_P(TimersAcrossThreads, AnActorsPendingTimersAreCancelledWhenItStops) {
  Watchdog watchdog("timers of a stopped actor", std::chrono::seconds(30));
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<Quitter>(), ACTION_START);
  const auto began = MonotonicClock::now();
  engine.run();
  EXPECT_LT(MonotonicClock::now() - began, 30s);  // did not wait for the hour
  EXPECT_EQ(engine.statistics().timers_cancelled, 3u);
  EXPECT_EQ(engine.statistics().timers_fired, 0u);
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

struct ProgramTimerResult {
  std::chrono::nanoseconds stopped_after{0};
  int ticks = 0;
  bool cancelled = false;
};

// Cancels the program's periodic timer (whose id the program sent it) after three ticks,
// and stops once that is done and the program's one-shot STOP has come.
class Waiter final : public Actor {
 public:
  explicit Waiter(ProgramTimerResult& result) : result_(result), created_(MonotonicClock::now()) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      ticks_timer_ = message.payload_as<TimerId>();
    } else if (message.action() == ACTION_TICK) {
      EXPECT_TRUE(message.source().is_none());
      if (++result_.ticks == 3) result_.cancelled = cancel_timer(ticks_timer_);
    } else if (message.action() == ACTION_STOP) {
      EXPECT_TRUE(message.source().is_none());
      result_.stopped_after = MonotonicClock::now() - created_;
      stop_came_ = true;
    }
    if (stop_came_ && result_.ticks >= 3) stop();
  }

 private:
  ProgramTimerResult& result_;
  MonotonicClock::time_point created_;
  TimerId ticks_timer_;
  bool stop_came_ = false;
};

TEST_P(TimersAcrossThreads, TheProgramsTimersBelongToTheirTargetWhichMayCancelThem) {
  Watchdog watchdog("program timers", std::chrono::seconds(30));
  ProgramTimerResult result;
  Engine engine(with_threads(GetParam()));
  const ActorName waiter = engine.spawn_on<Waiter>(engine.worker_count() - 1, result);
  engine.send(waiter, ACTION_START, Payload::of(engine.send_every(2ms, waiter, ACTION_TICK)));
  engine.send_after(30ms, waiter, ACTION_STOP);
  engine.send_after(1h, waiter, ACTION_PING);  // ends when the waiter stops
  engine.run();
  EXPECT_GE(result.stopped_after, 30ms);
  EXPECT_EQ(result.ticks, 3);
  EXPECT_TRUE(result.cancelled);
  EXPECT_EQ(engine.statistics().timers_cancelled, 1u);  // the hour's
  EXPECT_EQ(engine.statistics().dead_letters, 0u);
}

// ---- Bad arguments ----

class StopsOnRequest final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_STOP) stop();
  }
};

TEST(Timers, APeriodThatIsNotPositiveIsRefused) {
  Engine engine(with_threads(1));
  const ActorName waiter = engine.spawn<StopsOnRequest>();
  EXPECT_THROW(engine.send_every(0ms, waiter, ACTION_TICK), std::invalid_argument);
  EXPECT_THROW(engine.send_after(1ms, ActorName::make(0, 5, 0), ACTION_TICK), std::out_of_range);
  engine.send(waiter, ACTION_STOP);
  engine.run();
  EXPECT_THROW(engine.send_after(1ms, waiter, ACTION_TICK), std::logic_error);
}

}  // namespace
}  // namespace xenon
