// SPDX-License-Identifier: BSD-3-Clause
// Savina "fjthrput" (fork-join throughput): a driver sends N messages (default 10,000) to
// each of A actors (default 60), interleaved (message 1 to every actor, then message 2, ...);
// each actor does Savina's small computation per message and reports when it has all N.
// Actors are placed round-robin over the workers.
#include <cmath>
#include <stdexcept>
#include <vector>

#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.fjthrput.start"};
inline constexpr Action ACTION_HELLO{"savina.fjthrput.hello"};
inline constexpr Action ACTION_READY{"savina.fjthrput.ready"};
inline constexpr Action ACTION_WORK{"savina.fjthrput.work"};  // payload: theta (double)
inline constexpr Action ACTION_DONE{"savina.fjthrput.done"};
inline constexpr Action ACTION_STOP{"savina.fjthrput.stop"};

// Savina's ThroughputConfig.performComputation: a sine, squared, checked.
inline void perform_computation(double theta) {
  const double sine = std::sin(theta);
  if (sine * sine <= 0) throw std::logic_error("fjthrput: sin^2 of theta came out <= 0");
}

class ThroughputActor final : public Actor {
 public:
  ThroughputActor(std::uint64_t messages, std::uint64_t& report) : messages_(messages), report_(report) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_WORK) {
      perform_computation(message.payload_as<double>());
      if (++received_ == messages_) send(supervisor(), ACTION_DONE);
    } else if (action == ACTION_HELLO) {
      reply(message, ACTION_READY);
    } else if (action == ACTION_STOP) {
      report_ = received_;  // once, at the end: no line shared while the work runs
      stop();
    }
  }

 private:
  const std::uint64_t messages_;
  std::uint64_t& report_;
  std::uint64_t received_ = 0;
};

class Driver final : public Actor {
 public:
  Driver(std::uint64_t messages, std::vector<std::uint64_t>& received, Stopwatch& stopwatch)
      : messages_(messages), received_(received), stopwatch_(stopwatch) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      for (std::size_t i = 0; i < received_.size(); ++i) {
        workers_.push_back(
            spawn_on<ThroughputActor>(round_robin_worker(i, worker_count()), messages_, received_[i]));
        send(workers_.back(), ACTION_HELLO);
      }
    } else if (action == ACTION_READY) {
      if (++ready_ == workers_.size()) {
        stopwatch_.start();
        for (std::uint64_t m = 0; m < messages_; ++m) {
          for (ActorName worker : workers_) send_value(worker, ACTION_WORK, kTheta);
        }
      }
    } else if (action == ACTION_DONE) {
      if (++done_ == workers_.size()) {
        stopwatch_.stop();
        for (ActorName worker : workers_) send(worker, ACTION_STOP);
      }
    } else if (action == ACTION_CHILD_STOPPED) {
      if (++stopped_ == workers_.size()) stop();
    }
  }

 private:
  static constexpr double kTheta = 37.2;  // Savina's argument to performComputation
  const std::uint64_t messages_;
  std::vector<std::uint64_t>& received_;
  Stopwatch& stopwatch_;
  std::vector<ActorName> workers_;
  std::size_t ready_ = 0;
  std::size_t done_ = 0;
  std::size_t stopped_ = 0;
};

class ForkJoinThroughput final : public Benchmark {
 public:
  const char* name() const override { return "fork-join-throughput"; }
  const char* summary() const override { return "N messages to each of A actors (fjthrput)"; }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("fork-join-throughput-actors", &actors_, 1, 10'000'000,
                             "fork-join-throughput: actors (Savina: 60)");
    command_line.add_integer("fork-join-throughput-messages", &messages_, 1, 1'000'000'000'000,
                             "fork-join-throughput: messages per actor (Savina: 10000)");
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto messages = static_cast<std::uint64_t>(messages_);
    std::vector<std::uint64_t> received(static_cast<std::size_t>(actors_), 0);
    Stopwatch stopwatch;
    Engine engine(engine_options);
    engine.send(engine.spawn<Driver>(messages, received, stopwatch), ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    outcome.messages = messages * received.size();
    for (std::size_t i = 0; i < received.size(); ++i) {
      outcome.expect_count("messages received by actor " + std::to_string(i), received[i],
                           messages);
    }
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t actors_ = 60;
  std::int64_t messages_ = 10'000;
};

}  // namespace

std::unique_ptr<Benchmark> make_fork_join_throughput() {
  return std::make_unique<ForkJoinThroughput>();
}

}  // namespace xenon::savina
