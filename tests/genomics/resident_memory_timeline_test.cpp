// SPDX-License-Identifier: BSD-3-Clause
// ResidentMemoryTimeline: --stats's resident memory per 50 ms of Unix time, from which the
// scaling report gives each phase's peak on every node.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>

#include "genomics/io/run_log.hpp"
#include "genomics/run/resident_memory_timeline.hpp"

namespace {

using xenon::genomics::ResidentMemoryTimeline;

constexpr std::uint64_t kMiB = 1024 * 1024;

TEST(ResidentMemoryTimeline, ItsSamplerSeesMemoryHeldForAWhileAndItsBucketsLineUpOnUnixTime) {
  const std::int64_t before = xenon::genomics::unix_nanoseconds();
  const ResidentMemoryTimeline memory;
  const std::int64_t bucket = std::chrono::nanoseconds(ResidentMemoryTimeline::kBucket).count();
  const std::uint64_t resident = ResidentMemoryTimeline::read_resident().now;
  ASSERT_GT(resident, 0u) << "/proc/self/status has VmRSS";

  // 64 MiB touched, held until the sampler (not timeline(), which samples too) has sampled
  // twice, then given back: only the sampler can have seen it unless it set a new peak.
  constexpr std::uint64_t kHeld = 64 * kMiB;
  void* held = mmap(nullptr, kHeld, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(held, MAP_FAILED);
  std::memset(held, 1, kHeld);
  const std::uint64_t samples = memory.samples();
  for (int wait = 0; wait < 500 && memory.samples() < samples + 2; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(memory.samples(), samples + 2) << "the sampler took no sample in 5 s";
  munmap(held, kHeld);
  std::this_thread::sleep_for(2 * ResidentMemoryTimeline::kBucket);

  const ResidentMemoryTimeline::Timeline timeline = memory.timeline();
  EXPECT_EQ(timeline.start_unix_nanoseconds % bucket, 0);
  EXPECT_LE(timeline.start_unix_nanoseconds, before + bucket);
  EXPECT_GT(timeline.start_unix_nanoseconds, before - bucket);
  // Every bucket up to now, none left out: about one per 50 ms since it started.
  const auto elapsed_buckets = static_cast<std::size_t>((xenon::genomics::unix_nanoseconds() - timeline.start_unix_nanoseconds) / bucket) + 1;
  EXPECT_GE(timeline.peak_bytes.size() + 1, elapsed_buckets);
  EXPECT_LE(timeline.peak_bytes.size(), elapsed_buckets);
  const std::uint64_t most = *std::max_element(timeline.peak_bytes.begin(), timeline.peak_bytes.end());
  EXPECT_GE(most, resident + kHeld - 4 * kMiB);
  EXPECT_LT(timeline.peak_bytes.back() + kHeld / 2, most) << "given back: the last bucket holds less";
  EXPECT_GE(memory.samples(), samples + 3);
}

}  // namespace
