// SPDX-License-Identifier: BSD-3-Clause
// Request and response: Actor::ask() with a continuation or to receive(), its timeout, and
// responses that come too late or twice.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <xenon/xenon.hpp>

#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

using namespace testing;  // the shared actions and with_threads()
using namespace std::chrono_literals;

inline constexpr Action ACTION_IGNORED{"test.ignored"};
inline constexpr Action ACTION_ANSWER_LATER{"test.answer-later"};
inline constexpr Action ACTION_ANSWER_TWICE{"test.answer-twice"};
inline constexpr Action ACTION_LATER{"test.later"};
inline constexpr Action ACTION_ANSWERED{"test.answered"};

class AskAcrossThreads : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Threads, AskAcrossThreads, ::testing::Values(1, 3));

// Answers PING with PONG (the number plus one), never answers IGNORED, answers
// ANSWER_LATER 60 ms later (then tells its supervisor) and ANSWER_TWICE twice; stops on
// STOP.
class Responder final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_PING) {
      reply(message, ACTION_PONG, Payload::of(message.payload_as<int>() + 1));
    } else if (message.action() == ACTION_ANSWER_LATER) {
      later_ = message.source();  // the reply address keeps
      send_after(60ms, self(), ACTION_LATER);
    } else if (message.action() == ACTION_LATER) {
      send(later_, ACTION_PONG, Payload::of(0));
      send(supervisor(), ACTION_ANSWERED);
    } else if (message.action() == ACTION_ANSWER_TWICE) {
      reply(message, ACTION_PONG, Payload::of(1));
      reply(message, ACTION_PONG, Payload::of(2));
    } else if (message.action() == ACTION_STOP) {
      stop();
    }
  }

 private:
  ActorName later_;
};

struct AskResult {
  int continuations = 0;
  int received_answers = 0;
  int timeouts = 0;
  int value = 0;
  std::chrono::nanoseconds waited{0};
  bool right_request = false;
  bool right_source = false;
};

// Asks its responder (on the last worker) as `mode` says, then stops both.
class Asker final : public Actor {
 public:
  enum class Mode { kContinuation, kReceive, kTimeout, kLate, kTwice, kBusyPastTheDeadline };
  Asker(Mode mode, AskResult& result) : mode_(mode), result_(result) {}

  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      responder_ = spawn_on<Responder>(worker_count() - 1);
      asked_at_ = MonotonicClock::now();
      switch (mode_) {
        case Mode::kContinuation:
          request_ = ask(responder_, ACTION_PING, Payload::of(41), 10s,
                         [this](const Message& answer) { on_answer(answer); });
          break;
        case Mode::kReceive:
          request_ = ask(responder_, ACTION_PING, Payload::of(41), 10s);
          break;
        case Mode::kTimeout:
          request_ = ask(responder_, ACTION_IGNORED, {}, 20ms,
                         [this](const Message& answer) { on_answer(answer); });
          break;
        case Mode::kLate:
          request_ = ask(responder_, ACTION_ANSWER_LATER, {}, 10ms,
                         [this](const Message& answer) { on_answer(answer); });
          break;
        case Mode::kBusyPastTheDeadline:
          // The answer comes at once, but this worker is busy here past the deadline, so it
          // finds the answer before it looks at its timers.
          request_ = ask(responder_, ACTION_PING, Payload::of(41), 20ms,
                         [this](const Message& answer) { on_answer(answer); });
          std::this_thread::sleep_for(60ms);
          break;
        case Mode::kTwice:
          request_ = ask(responder_, ACTION_ANSWER_TWICE, {}, 10s,
                         [this](const Message& answer) { on_answer(answer); });
          break;
      }
    } else if (ask_request(message) != 0) {  // an answer without a continuation
      ++result_.received_answers;
      record(message);
      finish();
    } else if (message.action() == ACTION_CHECK) {
      send(responder_, ACTION_STOP);
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  void on_answer(const Message& answer) {
    ++result_.continuations;
    record(answer);
    // Late or twice: leave time for the extra response to arrive (and be counted).
    if (mode_ == Mode::kLate || mode_ == Mode::kTwice) {
      send_after(150ms, self(), ACTION_CHECK);
    } else {
      finish();
    }
  }
  void record(const Message& answer) {
    result_.waited = MonotonicClock::now() - asked_at_;
    result_.right_request = ask_request(answer) == request_;
    result_.right_source = answer.source() == responder_;
    if (answer.action() == ACTION_ASK_TIMEOUT) {
      ++result_.timeouts;
    } else {
      result_.value = answer.payload_as<int>();
    }
  }
  void finish() { send(responder_, ACTION_STOP); }

  Mode mode_;
  AskResult& result_;
  ActorName responder_;
  std::uint64_t request_ = 0;
  MonotonicClock::time_point asked_at_;
};

AskResult run_asker(int threads, Asker::Mode mode, EngineStatistics& statistics) {
  Watchdog watchdog("ask");
  AskResult result;
  Engine engine(with_threads(threads));
  engine.send(engine.spawn<Asker>(mode, result), ACTION_START);
  engine.run();
  statistics = engine.statistics();
  return result;
}

TEST_P(AskAcrossThreads, TheAnswerComesToTheContinuationOnce) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kContinuation, statistics);
  EXPECT_EQ(result.continuations, 1);
  EXPECT_EQ(result.received_answers, 0);
  EXPECT_EQ(result.value, 42);
  EXPECT_TRUE(result.right_request);
  EXPECT_TRUE(result.right_source);
  EXPECT_EQ(statistics.late_responses, 0u);
  EXPECT_EQ(statistics.timers_fired, 0u);  // the timeout was cancelled by the answer
  EXPECT_EQ(statistics.dead_letters, 0u);
}

TEST_P(AskAcrossThreads, WithoutAContinuationTheAnswerComesToReceive) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kReceive, statistics);
  EXPECT_EQ(result.received_answers, 1);
  EXPECT_EQ(result.value, 42);
  EXPECT_TRUE(result.right_request);
  EXPECT_EQ(statistics.late_responses, 0u);
}

TEST_P(AskAcrossThreads, AnUnansweredAskTimesOutWithItsRequestNamed) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kTimeout, statistics);
  EXPECT_EQ(result.continuations, 1);
  EXPECT_EQ(result.timeouts, 1);
  EXPECT_GE(result.waited, 20ms);
  EXPECT_TRUE(result.right_request);
  EXPECT_TRUE(result.right_source);  // the timeout names the actor that was asked
  EXPECT_EQ(statistics.timers_fired, 1u);
}

TEST_P(AskAcrossThreads, AResponseAfterTheTimeoutIsDroppedAndCounted) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kLate, statistics);
  EXPECT_EQ(result.continuations, 1);
  EXPECT_EQ(result.timeouts, 1);
  EXPECT_EQ(statistics.late_responses, 1u);
  EXPECT_EQ(statistics.dead_letters, 0u);
}

TEST_P(AskAcrossThreads, AResponseAfterTheDeadlineIsLateEvenBeforeTheTimeoutFired) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kBusyPastTheDeadline, statistics);
  EXPECT_EQ(result.continuations, 1);
  EXPECT_EQ(result.timeouts, 1);
  EXPECT_EQ(statistics.late_responses, 1u);
}

TEST_P(AskAcrossThreads, ASecondResponseIsDroppedAndCounted) {
  EngineStatistics statistics;
  const AskResult result = run_asker(GetParam(), Asker::Mode::kTwice, statistics);
  EXPECT_EQ(result.continuations, 1);
  EXPECT_EQ(result.value, 1);
  EXPECT_EQ(statistics.late_responses, 1u);
}

// ---- The asker stops, or its continuation fails ----

// Asks `responder` to answer later, with an hour's timeout, and stops at once.
class AskThenStop final : public Actor {
 public:
  explicit AskThenStop(ActorName responder) : responder_(responder) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      ask(responder_, ACTION_ANSWER_LATER, {}, 1h,
          [](const Message&) { ADD_FAILURE() << "the continuation of a stopped actor ran"; });
      stop();  // before the answer: the hour's timeout must not hold the run
    }
  }

 private:
  ActorName responder_;
};

// Keeps the run alive until the responder has answered the stopped asker (the answer and
// ANSWERED take the same ring, in order), then stops it and itself.
class Keeper final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      responder_ = spawn_on<Responder>(worker_count() - 1);
      send(spawn<AskThenStop>(responder_), ACTION_START);
    } else if (message.action() == ACTION_ANSWERED) {
      send(responder_, ACTION_STOP);
    } else if (message.action() == ACTION_CHILD_STOPPED && message.source() == responder_) {
      stop();
    }
  }

 private:
  ActorName responder_;
};

TEST_P(AskAcrossThreads, AnAskerThatStopsEndsItsAsksAndTheirAnswersAreCountedLate) {
  Watchdog watchdog("asker stops", std::chrono::seconds(30));
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<Keeper>(), ACTION_START);
  engine.run();
  EXPECT_EQ(engine.statistics().timers_cancelled, 1u);  // the ask's timeout
  EXPECT_EQ(engine.statistics().late_responses, 1u);
}

class ThrowingContinuation final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() == ACTION_START) {
      const ActorName responder = spawn_on<Responder>(worker_count() - 1);
      ask(responder, ACTION_PING, Payload::of(1), 1h,
          [](const Message&) { throw std::runtime_error("continuation failed"); });
      send(responder, ACTION_STOP);
    }
  }
};

TEST_P(AskAcrossThreads, AnExceptionInAContinuationFailsTheAsker) {
  Watchdog watchdog("continuation throws", std::chrono::seconds(30));
  Engine engine(with_threads(GetParam()));
  engine.send(engine.spawn<ThrowingContinuation>(), ACTION_START);
  engine.run();
  EXPECT_EQ(engine.statistics().actors_failed, 1u);
  EXPECT_EQ(engine.statistics().timers_cancelled, 0u);  // the answer cancelled the timeout
  EXPECT_EQ(engine.statistics().late_responses, 0u);
}

}  // namespace
}  // namespace xenon
