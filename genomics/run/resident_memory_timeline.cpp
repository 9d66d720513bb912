// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/run/resident_memory_timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "genomics/io/run_log.hpp"

namespace xenon::genomics {
namespace {

constexpr std::int64_t kBucketNanoseconds =
    std::chrono::duration_cast<std::chrono::nanoseconds>(ResidentMemoryTimeline::kBucket).count();

}  // namespace

ResidentMemoryTimeline::ResidentMemoryTimeline() {
  // Aligned on Unix time as Engine::start_busy_timelines aligns its buckets, then counted on
  // the steady clock, so that a step of the system clock cannot move a sample's bucket.
  const std::int64_t now = unix_nanoseconds();
  const std::int64_t into_bucket = now % kBucketNanoseconds;
  start_unix_ = now - into_bucket;
  origin_ = std::chrono::steady_clock::now() - std::chrono::nanoseconds(into_bucket);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    last_peak_ = read_resident().peak;  // the peak so far came before the timeline
    sample();
  }
  sampler_ = std::thread([this] { sample_until_stopped(); });
}

ResidentMemoryTimeline::~ResidentMemoryTimeline() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  sampler_.join();
}

ResidentMemoryTimeline::Timeline ResidentMemoryTimeline::timeline() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  sample();
  return {start_unix_, peaks_};
}

std::uint64_t ResidentMemoryTimeline::samples() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return samples_;
}

ResidentMemoryTimeline::Resident ResidentMemoryTimeline::read_resident() {
  Resident resident;
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return resident;
  char line[256];
  // "VmRSS:\t  123456 kB"
  const auto kib_after = [&line](std::size_t name) { return std::strtoull(line + name, nullptr, 10) * 1024; };
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::strncmp(line, "VmRSS:", 6) == 0) resident.now = kib_after(6);
    if (std::strncmp(line, "VmHWM:", 6) == 0) resident.peak = kib_after(6);
  }
  std::fclose(status);
  return resident;
}

void ResidentMemoryTimeline::sample() const {
  const Resident resident = read_resident();
  if (resident.now == 0) return;  // no /proc: no timeline (NodeStatistics then writes none)
  const auto bucket = static_cast<std::size_t>((std::chrono::steady_clock::now() - origin_) / kBucket);
  std::uint64_t most = resident.now;
  if (resident.peak > last_peak_) most = std::max(most, resident.peak);  // a new peak since the last sample
  // Buckets no sample fell in (the sampler was not run for a while): the memory was somewhere
  // between the samples on either side; the larger stands for it.
  if (peaks_.size() <= bucket) {
    peaks_.resize(bucket, std::max(last_sample_, resident.now));
    peaks_.push_back(most);
  } else {
    peaks_[bucket] = std::max(peaks_[bucket], most);
  }
  last_sample_ = resident.now;
  last_peak_ = std::max(last_peak_, resident.peak);
  ++samples_;
}

void ResidentMemoryTimeline::sample_until_stopped() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kSample, [this] { return stopping_; })) sample();
}

}  // namespace xenon::genomics
