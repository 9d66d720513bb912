// SPDX-License-Identifier: BSD-3-Clause
// Busy time: the time workers spend inside receive(), in total and per 50 ms bucket.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>

#include "engine/busy_timeline.hpp"
#include <xenon/xenon.hpp>

namespace xenon {
namespace {

using std::chrono::milliseconds;

inline constexpr Action kWork{"busy-test.work"};

TEST(BusyTimeline, SplitsAnIntervalAcrossTheBucketsItCrosses) {
  BusyTimeline timeline;
  const MonotonicClock::time_point origin{};
  timeline.start_at(origin);
  timeline.add(origin + milliseconds(40), origin + milliseconds(130));  // 10 + 50 + 30 ms
  timeline.add(origin + milliseconds(140), origin + milliseconds(145));
  timeline.add(origin + milliseconds(150), origin + milliseconds(150));  // empty: nothing
  const auto& buckets = timeline.bucket_nanoseconds();
  ASSERT_EQ(buckets.size(), 3u);
  EXPECT_EQ(buckets[0], 10'000'000u);
  EXPECT_EQ(buckets[1], 50'000'000u);
  EXPECT_EQ(buckets[2], 35'000'000u);
  EXPECT_EQ(timeline.total_nanoseconds(), 95'000'000u);
}

TEST(BusyTimeline, SpreadsAnAmountOverTheBucketsByTheShareOfTheIntervalInEach) {
  BusyTimeline timeline;
  const MonotonicClock::time_point origin{};
  timeline.start_at(origin);
  timeline.add_spread(origin + milliseconds(40), origin + milliseconds(130), 901);  // 10, 50 and 30 of 90 ms
  timeline.add_spread(origin + milliseconds(160), origin + milliseconds(160), 7);   // an instant: its bucket
  const auto& buckets = timeline.bucket_nanoseconds();
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets[0], 100u);
  EXPECT_EQ(buckets[1], 500u);
  EXPECT_EQ(buckets[2], 301u) << "the last piece takes what rounding left";
  EXPECT_EQ(buckets[3], 7u);
  EXPECT_EQ(timeline.total_nanoseconds(), 908u);
}

// Sleeps in receive() for as many milliseconds as each message says, then stops.
class Sleeper final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() != kWork) return;
    std::this_thread::sleep_for(milliseconds(message.payload_size()));
    if (++seen_ == 3) stop();
  }

 private:
  int seen_ = 0;
};

TEST(BusyTime, StatisticsCountTimeInReceivePerWorkerAndPerBucket) {
  EngineOptions options;
  options.threads_per_node = 3;  // two workers and the communication thread
  Engine engine(options);
  ASSERT_EQ(engine.worker_count(), 2);
  const ActorName sleeper = engine.spawn_on<Sleeper>(1);
  for (int i = 0; i < 3; ++i) engine.send(sleeper, kWork, Payload::copy_of(std::vector<std::byte>(30)));
  engine.run();
  const EngineStatistics statistics = engine.statistics();
  ASSERT_EQ(statistics.worker_busy_nanoseconds.size(), 2u);
  EXPECT_GE(statistics.worker_busy_nanoseconds[1], 90'000'000u);  // three sleeps of 30 ms
  EXPECT_LT(statistics.worker_busy_nanoseconds[0], 10'000'000u);  // worker 0 had no actor
  EXPECT_EQ(statistics.busy_nanoseconds,
            statistics.worker_busy_nanoseconds[0] + statistics.worker_busy_nanoseconds[1]);
  const auto& timeline = statistics.busy_timeline_nanoseconds;
  EXPECT_EQ(std::accumulate(timeline.begin(), timeline.end(), std::uint64_t{0}), statistics.busy_nanoseconds);
  EXPECT_GE(timeline.size(), 2u);  // 90 ms cannot fit one 50 ms bucket
  EXPECT_EQ(statistics.busy_timeline_bucket_nanoseconds, 50'000'000u);
  EXPECT_EQ(statistics.busy_timeline_start_unix_nanoseconds % 50'000'000, 0);
  EXPECT_GT(statistics.busy_timeline_start_unix_nanoseconds, 0);
}

// Computes in receive() until its thread's CPU clock advanced as many milliseconds as each
// message says, then stops after three.
class Spinner final : public Actor {
 public:
  void receive(const Message& message) override {
    if (message.action() != kWork) return;
    const std::uint64_t until = thread_cpu_nanoseconds() + message.payload_size() * 1'000'000u;
    while (thread_cpu_nanoseconds() < until) {
    }
    if (++seen_ == 3) stop();
  }

 private:
  int seen_ = 0;
};

// Busy CPU time counts what a receive() computed, not how long it took: a sleep costs next to
// none, and without measure_busy_cpu nothing is counted.
TEST(BusyTime, CpuTimeCountsComputingInReceiveAndNotSleeping) {
  for (const bool measured : {true, false}) {
    EngineOptions options;
    options.threads_per_node = 3;  // two workers and the communication thread
    options.measure_busy_cpu = measured;
    Engine engine(options);
    ASSERT_EQ(engine.worker_count(), 2);
    const ActorName sleeper = engine.spawn_on<Sleeper>(0);
    const ActorName spinner = engine.spawn_on<Spinner>(1);
    for (int i = 0; i < 3; ++i) {
      engine.send(sleeper, kWork, Payload::copy_of(std::vector<std::byte>(30)));
      engine.send(spinner, kWork, Payload::copy_of(std::vector<std::byte>(30)));
    }
    engine.run();
    const EngineStatistics statistics = engine.statistics();
    ASSERT_EQ(statistics.worker_busy_cpu_nanoseconds.size(), 2u);
    const auto& timeline = statistics.busy_cpu_timeline_nanoseconds;
    EXPECT_EQ(std::accumulate(timeline.begin(), timeline.end(), std::uint64_t{0}), statistics.busy_cpu_nanoseconds);
    EXPECT_GE(statistics.worker_busy_nanoseconds[0], 90'000'000u) << "three sleeps of 30 ms";
    if (measured) {
      EXPECT_LT(statistics.worker_busy_cpu_nanoseconds[0], 30'000'000u) << "sleeping is no work";
      EXPECT_GE(statistics.worker_busy_cpu_nanoseconds[1], 90'000'000u) << "three computations of 30 ms";
    } else {
      EXPECT_EQ(statistics.busy_cpu_nanoseconds, 0u);
    }
  }
}

}  // namespace
}  // namespace xenon
