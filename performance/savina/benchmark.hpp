// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>

namespace xenon::savina {

// A further figure of a run, printed after the standard ones.
struct Extra {
  std::string name;
  double value;
  std::string unit;
};

// What one run of a benchmark measured, and whether its message counts came out exact.
struct Outcome {
  double seconds = 0;               // the timed part: from the first benchmark message to the last
  std::uint64_t messages = 0;       // benchmark messages the workload defines for the timed part
  std::vector<std::string> errors;  // one sentence per count that differed; empty when exact
  std::vector<Extra> extras;        // further figures, e.g. the round trip in ns
  EngineStatistics statistics;      // the engine's totals after run()
  // Context switches of the whole process over the run (set by the suite, not the benchmark):
  // a worker that yields or parks while a message is on its way shows up here.
  std::uint64_t voluntary_context_switches = 0;
  std::uint64_t involuntary_context_switches = 0;

  // Records an error unless `actual` equals `expected`.
  void expect_count(const std::string& what, std::uint64_t actual, std::uint64_t expected) {
    if (actual != expected) {
      errors.push_back(what + " = " + std::to_string(actual) + ", expected " +
                       std::to_string(expected));
    }
  }
};

// Times the benchmark part of a run; started and stopped by actors on one worker thread,
// read by main() after Engine::run() has joined every thread.
class Stopwatch {
 public:
  void start() { started_at_ = MonotonicClock::now(); }
  void stop() { seconds_ = seconds_between(started_at_, MonotonicClock::now()); }
  double seconds() const { return seconds_; }

 private:
  MonotonicClock::time_point started_at_;
  double seconds_ = 0;
};

// One benchmark of the suite: its options (with Savina's defaults), and one run of it on a
// fresh engine.
class Benchmark {
 public:
  virtual ~Benchmark() = default;
  virtual const char* name() const = 0;
  // The prefix of its counters: the name, plus the placement where the benchmark has one.
  virtual std::string label() const { return name(); }
  virtual const char* summary() const = 0;
  // Registers this benchmark's options, each prefixed with its name.
  virtual void add_options(CommandLine& command_line) = 0;
  // Throws CommandLineError if the options cannot work with this engine layout.
  virtual void check_options(const EngineOptions&) const {}
  virtual Outcome run(const EngineOptions& engine_options) = 0;
};

// Round-robin placement used by every benchmark with many actors: actor i on worker
// i % worker_count.
inline int round_robin_worker(std::uint64_t i, int worker_count) {
  return static_cast<int>(i % static_cast<std::uint64_t>(worker_count));
}

std::unique_ptr<Benchmark> make_ping_pong();
std::unique_ptr<Benchmark> make_thread_ring();
std::unique_ptr<Benchmark> make_counting();
std::unique_ptr<Benchmark> make_fork_join_throughput();
std::unique_ptr<Benchmark> make_big();
std::unique_ptr<Benchmark> make_chameneos();

}  // namespace xenon::savina
