// SPDX-License-Identifier: BSD-3-Clause
// Savina "big": W actors (default 120) each send N pings (default 20,000), one at a time,
// to actors chosen uniformly at random, and wait for each pong: many-to-many traffic.
// Actors are placed round-robin over the workers.
#include <cstring>
#include <vector>

#include <xenon/xenon.hpp>
#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.big.start"};
inline constexpr Action ACTION_SETUP{"savina.big.setup"};  // payload: every actor's name
inline constexpr Action ACTION_READY{"savina.big.ready"};
inline constexpr Action ACTION_GO{"savina.big.go"};
inline constexpr Action ACTION_PING{"savina.big.ping"};
inline constexpr Action ACTION_PONG{"savina.big.pong"};
inline constexpr Action ACTION_DONE{"savina.big.done"};
inline constexpr Action ACTION_STOP{"savina.big.stop"};

// One actor's counts, written once when it stops; main() reads them after run().
struct Counts {
  std::uint64_t pings_sent = 0;
  std::uint64_t pings_received = 0;
  std::uint64_t pongs_received = 0;
};

class BigActor final : public Actor {
 public:
  BigActor(std::uint64_t pings, std::uint64_t seed, std::uint64_t position, Counts& report)
      : pings_(pings), random_(seed * 0x9e3779b97f4a7c15ULL + position), position_(position),
        report_(report) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_PING) {
      ++counts_.pings_received;
      reply(message, ACTION_PONG);
    } else if (action == ACTION_PONG) {
      ++counts_.pongs_received;
      if (counts_.pings_sent < pings_) {
        ping();
      } else {
        send(supervisor(), ACTION_DONE);
      }
    } else if (action == ACTION_GO) {
      ping();
    } else if (action == ACTION_SETUP) {
      names_ = message.share_payload();  // one list shared by every actor
      actor_count_ = names_.size() / sizeof(ActorName);
      reply(message, ACTION_READY);
    } else if (action == ACTION_STOP) {
      report_ = counts_;
      stop();
    }
  }

 private:
  void ping() {
    // Uniform over every actor but this one.
    std::uint64_t target = random_.below(actor_count_ - 1);
    if (target >= position_) ++target;
    ActorName name;
    std::memcpy(&name, names_.bytes().data() + target * sizeof(ActorName), sizeof name);
    ++counts_.pings_sent;
    send(name, ACTION_PING);
  }

  const std::uint64_t pings_;
  Random random_;
  const std::uint64_t position_;
  Counts& report_;
  Counts counts_;
  Payload names_;
  std::uint64_t actor_count_ = 0;
};

class Sink final : public Actor {
 public:
  Sink(std::uint64_t pings, std::uint64_t seed, std::vector<Counts>& counts, Stopwatch& stopwatch)
      : pings_(pings), seed_(seed), counts_(counts), stopwatch_(stopwatch) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_DONE) {
      if (++done_ == actors_.size()) {
        stopwatch_.stop();
        for (ActorName actor : actors_) send(actor, ACTION_STOP);
      }
    } else if (action == ACTION_START) {
      for (std::size_t i = 0; i < counts_.size(); ++i) {
        actors_.push_back(spawn_on<BigActor>(round_robin_worker(i, worker_count()), pings_, seed_,
                                             i, counts_[i]));
      }
      Payload names = Payload::copy_of(std::as_bytes(std::span(actors_)));
      for (ActorName actor : actors_) send(actor, ACTION_SETUP, names.share());
    } else if (action == ACTION_READY) {
      if (++ready_ == actors_.size()) {
        stopwatch_.start();
        for (ActorName actor : actors_) send(actor, ACTION_GO);
      }
    } else if (action == ACTION_CHILD_STOPPED) {
      if (++stopped_ == actors_.size()) stop();
    }
  }

 private:
  const std::uint64_t pings_;
  const std::uint64_t seed_;
  std::vector<Counts>& counts_;
  Stopwatch& stopwatch_;
  std::vector<ActorName> actors_;
  std::size_t ready_ = 0;
  std::size_t done_ = 0;
  std::size_t stopped_ = 0;
};

class Big final : public Benchmark {
 public:
  const char* name() const override { return "big"; }
  const char* summary() const override { return "many-to-many random pings and pongs"; }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("big-actors", &actors_, 2, 10'000'000,
                             "big: actors (Savina: 120)");
    command_line.add_integer("big-pings", &pings_, 1, 1'000'000'000'000,
                             "big: pings each actor sends (Savina: 20000)");
    command_line.add_unsigned("big-seed", &seed_, "big: seed of the random targets");
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto pings = static_cast<std::uint64_t>(pings_);
    std::vector<Counts> counts(static_cast<std::size_t>(actors_));
    Stopwatch stopwatch;
    Engine engine(engine_options);
    engine.send(engine.spawn<Sink>(pings, seed_, counts, stopwatch), ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    const std::uint64_t all_pings = pings * counts.size();
    outcome.messages = 2 * all_pings;
    Counts total;
    for (const Counts& one : counts) {
      outcome.expect_count("pongs received by one actor", one.pongs_received, pings);
      total.pings_sent += one.pings_sent;
      total.pings_received += one.pings_received;
      total.pongs_received += one.pongs_received;
    }
    outcome.expect_count("pings sent", total.pings_sent, all_pings);
    outcome.expect_count("pings received", total.pings_received, all_pings);
    outcome.expect_count("pongs received", total.pongs_received, all_pings);
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t actors_ = 120;
  std::int64_t pings_ = 20'000;
  std::uint64_t seed_ = 1;
};

}  // namespace

std::unique_ptr<Benchmark> make_big() { return std::make_unique<Big>(); }

}  // namespace xenon::savina
