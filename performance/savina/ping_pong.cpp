// SPDX-License-Identifier: BSD-3-Clause
// Savina "pingpong": two actors send a message back and forth N times (default 40,000).
// -ping-pong-placement different (default) puts them on two workers, so every message
// crosses cores: the round trip to compare with the cache-line round trip.
#include <algorithm>
#include <string>
#include <vector>

#include "performance/savina/benchmark.hpp"

namespace xenon::savina {
namespace {

inline constexpr Action ACTION_START{"savina.ping-pong.start"};
inline constexpr Action ACTION_HELLO{"savina.ping-pong.hello"};
inline constexpr Action ACTION_READY{"savina.ping-pong.ready"};
inline constexpr Action ACTION_PING{"savina.ping-pong.ping"};
inline constexpr Action ACTION_PONG{"savina.ping-pong.pong"};
inline constexpr Action ACTION_STOP{"savina.ping-pong.stop"};

// Each side counts in its own members and writes here once, when it stops, so the two
// threads never share a line while they play; main() reads it after run().
struct Counts {
  std::uint64_t pings_sent = 0;
  std::uint64_t pings_received = 0;
  std::uint64_t pongs_received = 0;
};

class Ponger final : public Actor {
 public:
  explicit Ponger(Counts& counts) : counts_(counts) {}
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_PING) {
      ++pings_received_;
      reply(message, ACTION_PONG);
    } else if (action == ACTION_HELLO) {
      reply(message, ACTION_READY);
    } else if (action == ACTION_STOP) {
      counts_.pings_received = pings_received_;
      stop();
    }
  }

 private:
  Counts& counts_;
  std::uint64_t pings_received_ = 0;
};

class Pinger final : public Actor {
 public:
  Pinger(std::uint64_t pings, std::uint64_t sample_every, int ponger_worker, Counts& counts,
         std::vector<std::uint64_t>& samples, Stopwatch& stopwatch)
      : pings_(pings), sample_every_(sample_every), ponger_worker_(ponger_worker),
        counts_(counts), samples_(samples), stopwatch_(stopwatch) {
    if (sample_every_ > 0) samples_.reserve(pings_ / sample_every_ + 1);
  }
  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_PONG) {
      ++pongs_received_;
      if (sampling_) {
        samples_.push_back(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(MonotonicClock::now() - sent_at_)
                .count()));
        sampling_ = false;
      }
      if (pings_sent_ < pings_) {
        ping(message.source());
      } else {
        stopwatch_.stop();
        send(message.source(), ACTION_STOP);
      }
    } else if (action == ACTION_START) {
      // The hello round trip makes sure the ponger is adopted before the clock starts.
      send(spawn_on<Ponger>(ponger_worker_, counts_), ACTION_HELLO);
    } else if (action == ACTION_READY) {
      stopwatch_.start();
      ping(message.source());
    } else if (action == ACTION_CHILD_STOPPED) {
      counts_.pings_sent = pings_sent_;
      counts_.pongs_received = pongs_received_;
      stop();
    }
  }

 private:
  void ping(ActorName ponger) {
    ++pings_sent_;
    if (sample_every_ > 0 && pings_sent_ % sample_every_ == 0) {
      sampling_ = true;
      sent_at_ = MonotonicClock::now();
    }
    send(ponger, ACTION_PING);
  }

  const std::uint64_t pings_;
  const std::uint64_t sample_every_;
  const int ponger_worker_;
  Counts& counts_;
  std::vector<std::uint64_t>& samples_;  // round trips timed one by one (ns)
  Stopwatch& stopwatch_;
  bool sampling_ = false;
  MonotonicClock::time_point sent_at_;
  std::uint64_t pings_sent_ = 0;
  std::uint64_t pongs_received_ = 0;
};

class PingPong final : public Benchmark {
 public:
  const char* name() const override { return "ping-pong"; }
  const char* summary() const override { return "two actors, N round trips"; }
  std::string label() const override {
    return placement_ == "same" ? "ping-pong-same-worker" : "ping-pong-different-workers";
  }
  void add_options(CommandLine& command_line) override {
    command_line.add_integer("ping-pong-pings", &pings_, 1, 1'000'000'000'000,
                             "ping-pong: round trips (Savina: 40000)");
    command_line.add_string("ping-pong-placement", &placement_,
                            "ping-pong: 'different' workers (needs 2) or the 'same' worker");
    command_line.add_integer("ping-pong-sample-every", &sample_every_, 0, 1'000'000'000,
                             "ping-pong: time every K-th round trip alone, for percentiles (0: none)");
  }
  void check_options(const EngineOptions& engine_options) const override {
    if (placement_ != "same" && placement_ != "different") {
      throw CommandLineError("option -ping-pong-placement must be 'same' or 'different', got '" +
                             placement_ + "'");
    }
    if (placement_ == "different" && engine_options.worker_count() < 2) {
      throw CommandLineError(
          "-ping-pong-placement different needs two workers (-threads-per-node 3 or more)");
    }
  }
  Outcome run(const EngineOptions& engine_options) override {
    const auto pings = static_cast<std::uint64_t>(pings_);
    Counts counts;
    std::vector<std::uint64_t> samples;
    Stopwatch stopwatch;
    Engine engine(engine_options);
    const int ponger_worker = placement_ == "same" ? 0 : engine.worker_count() - 1;
    engine.send(engine.spawn_on<Pinger>(0, pings, static_cast<std::uint64_t>(sample_every_),
                                        ponger_worker, counts, samples, stopwatch),
                ACTION_START);
    engine.run();
    Outcome outcome;
    outcome.seconds = stopwatch.seconds();
    outcome.messages = 2 * pings;
    outcome.expect_count("pings sent", counts.pings_sent, pings);
    outcome.expect_count("pings received", counts.pings_received, pings);
    outcome.expect_count("pongs received", counts.pongs_received, pings);
    outcome.extras.push_back(
        {"round-trip", stopwatch.seconds() * 1e9 / static_cast<double>(pings), "ns"});
    // The spread of single round trips: a uniform cost, or rare long stalls?
    std::sort(samples.begin(), samples.end());
    for (const auto& [name, fraction] : {std::pair{"round-trip-p50", 0.50}, {"round-trip-p90", 0.90},
                                         {"round-trip-p99", 0.99}, {"round-trip-max", 1.0}}) {
      if (samples.empty()) break;
      const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(samples.size() - 1));
      outcome.extras.push_back({name, static_cast<double>(samples[rank]), "ns"});
    }
    outcome.statistics = engine.statistics();
    return outcome;
  }

 private:
  std::int64_t pings_ = 40'000;
  std::int64_t sample_every_ = 16;
  std::string placement_ = "different";
};

}  // namespace

std::unique_ptr<Benchmark> make_ping_pong() { return std::make_unique<PingPong>(); }

}  // namespace xenon::savina
