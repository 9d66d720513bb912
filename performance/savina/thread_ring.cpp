// SPDX-License-Identifier: BSD-3-Clause
// Savina "threadring": a token goes around a ring of N actors (default 100) for R passes
// (default 100,000); each pass is one message. Actor i sits on worker i % workers, so with
// two workers every pass crosses cores.
#include <vector>

#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.thread-ring.start"};
inline constexpr Action ACTION_SETUP{"savina.thread-ring.setup"};  // payload: next member
inline constexpr Action ACTION_READY{"savina.thread-ring.ready"};
inline constexpr Action ACTION_TOKEN{"savina.thread-ring.token"};  // payload: passes left
inline constexpr Action ACTION_DONE{"savina.thread-ring.done"};
inline constexpr Action ACTION_STOP{"savina.thread-ring.stop"};

class Member final : public Actor {
 public:
  // `report` receives this member's count when it stops (once, so members on different
  // workers never write neighbouring words while the token runs); main() reads it after run().
  explicit Member(std::uint64_t& report) : report_(report) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_TOKEN) {
      ++tokens_;
      const auto passes_left = message.payload_as<std::uint64_t>();
      if (passes_left == 1) {
        send(supervisor(), ACTION_DONE);
      } else {
        send_value(next_, ACTION_TOKEN, passes_left - 1);
      }
    } else if (action == ACTION_SETUP) {
      next_ = message.payload_as<ActorName>();
      reply(message, ACTION_READY);
    } else if (action == ACTION_STOP) {
      report_ = tokens_;
      stop();
    }
  }

 private:
  std::uint64_t& report_;
  std::uint64_t tokens_ = 0;
  ActorName next_;
};

class Driver final : public Actor {
 public:
  Driver(std::uint64_t passes, std::vector<std::uint64_t>& tokens, Stopwatch& stopwatch)
      : passes_(passes), tokens_(tokens), stopwatch_(stopwatch) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_START) {
      for (std::size_t i = 0; i < tokens_.size(); ++i) {
        members_.push_back(spawn_on<Member>(round_robin_worker(i, worker_count()), tokens_[i]));
      }
      for (std::size_t i = 0; i < members_.size(); ++i) {
        send_value(members_[i], ACTION_SETUP, members_[(i + 1) % members_.size()]);
      }
    } else if (action == ACTION_READY) {
      if (++ready_ == members_.size()) {
        stopwatch_.start();
        send_value(members_[0], ACTION_TOKEN, passes_);
      }
    } else if (action == ACTION_DONE) {
      stopwatch_.stop();
      for (ActorName member : members_) send(member, ACTION_STOP);
    } else if (action == ACTION_CHILD_STOPPED) {
      if (++stopped_ == members_.size()) stop();
    }
  }

 private:
  const std::uint64_t passes_;
  std::vector<std::uint64_t>& tokens_;
  Stopwatch& stopwatch_;
  std::vector<ActorName> members_;
  std::size_t ready_ = 0;
  std::size_t stopped_ = 0;
};

class ThreadRing final : public Benchmark {
 public:
  const char* name() const override { return "thread-ring"; }
  const char* summary() const override { return "a token passed around a ring of actors"; }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("thread-ring-actors", &actors_, 2, 10'000'000,
                             "thread-ring: actors in the ring (Savina: 100)");
    command_line.add_integer("thread-ring-passes", &passes_, 1, 1'000'000'000'000,
                             "thread-ring: passes of the token (Savina: 100000)");
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto passes = static_cast<std::uint64_t>(passes_);
    std::vector<std::uint64_t> tokens(static_cast<std::size_t>(actors_), 0);
    Stopwatch stopwatch;
    Engine engine(engine_options);
    engine.send(engine.spawn<Driver>(passes, tokens, stopwatch), ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    outcome.messages = passes;
    std::uint64_t total = 0;
    for (std::uint64_t count : tokens) total += count;
    outcome.expect_count("tokens received", total, passes);
    // Member i received the passes whose number is i modulo the ring size.
    const std::uint64_t ring = tokens.size();
    outcome.expect_count("tokens received by member 0", tokens[0], (passes + ring - 1) / ring);
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t actors_ = 100;
  std::int64_t passes_ = 100'000;
};

}  // namespace

std::unique_ptr<Benchmark> make_thread_ring() { return std::make_unique<ThreadRing>(); }

}  // namespace xenon::savina
