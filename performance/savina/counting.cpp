// SPDX-License-Identifier: BSD-3-Clause
// Savina "count": a producer sends N increments (default 1,000,000) to one counting actor,
// then asks for the total and gets it back. The producer sits on worker 0 and the counter
// on the last worker, so with two workers the whole burst crosses cores.
#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.counting.start"};
inline constexpr Action ACTION_HELLO{"savina.counting.hello"};
inline constexpr Action ACTION_READY{"savina.counting.ready"};
inline constexpr Action ACTION_INCREMENT{"savina.counting.increment"};
inline constexpr Action ACTION_RETRIEVE{"savina.counting.retrieve"};
inline constexpr Action ACTION_TOTAL{"savina.counting.total"};  // payload: the count
inline constexpr Action ACTION_STOP{"savina.counting.stop"};

struct Counts {
  std::uint64_t increments_received = 0;  // written by the counter once, when it stops
  std::uint64_t total_reported = 0;       // the total the producer got back
};

class Counter final : public Actor {
 public:
  explicit Counter(Counts& counts) : counts_(counts) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_INCREMENT) {
      ++count_;
    } else if (action == ACTION_RETRIEVE) {
      send_value(message.source(), ACTION_TOTAL, count_);
    } else if (action == ACTION_HELLO) {
      reply(message, ACTION_READY);
    } else if (action == ACTION_STOP) {
      counts_.increments_received = count_;
      stop();
    }
  }

 private:
  Counts& counts_;
  std::uint64_t count_ = 0;
};

class Producer final : public Actor {
 public:
  Producer(std::uint64_t increments, Counts& counts, Stopwatch& stopwatch)
      : increments_(increments), counts_(counts), stopwatch_(stopwatch) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      send(spawn_on<Counter>(worker_count() - 1, counts_), ACTION_HELLO);
    } else if (action == ACTION_READY) {
      stopwatch_.start();
      for (std::uint64_t i = 0; i < increments_; ++i) send(message.source(), ACTION_INCREMENT);
      send(message.source(), ACTION_RETRIEVE);
    } else if (action == ACTION_TOTAL) {
      stopwatch_.stop();
      counts_.total_reported = message.payload_as<std::uint64_t>();
      send(message.source(), ACTION_STOP);
    } else if (action == ACTION_CHILD_STOPPED) {
      stop();
    }
  }

 private:
  const std::uint64_t increments_;
  Counts& counts_;
  Stopwatch& stopwatch_;
};

class Counting final : public Benchmark {
 public:
  const char* name() const override { return "counting"; }
  const char* summary() const override { return "N increments into one actor, then its total"; }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("counting-messages", &increments_, 1, 1'000'000'000'000,
                             "counting: increments sent (Savina: 1000000)");
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto increments = static_cast<std::uint64_t>(increments_);
    Counts counts;
    Stopwatch stopwatch;
    Engine engine(engine_options);
    engine.send(engine.spawn_on<Producer>(0, increments, counts, stopwatch), ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    outcome.messages = increments + 2;  // the increments, the request, the total
    outcome.expect_count("increments received", counts.increments_received, increments);
    outcome.expect_count("total reported", counts.total_reported, increments);
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t increments_ = 1'000'000;
};

}  // namespace

std::unique_ptr<Benchmark> make_counting() { return std::make_unique<Counting>(); }

}  // namespace xenon::savina
