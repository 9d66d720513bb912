// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "xenon/core/clock.hpp"

namespace xenon {

// Where one worker's time inside actors' receive() went: a total, and the same time cut
// into fixed wall-clock buckets. Bucket 0 begins at a multiple of the bucket width in Unix
// time, so the buckets of every process on one host (or on hosts whose clocks agree) line
// up: laid side by side they show when only one node had work (the serial fraction).
// Touched only by the worker's own thread; read after it joined.
class BusyTimeline {
 public:
  static constexpr std::chrono::nanoseconds kBucketWidth = std::chrono::milliseconds(50);

  // Before the worker runs: bucket 0 begins at `origin` (see Engine::run()).
  void start_at(MonotonicClock::time_point origin) noexcept { origin_ = origin; }

  // Time from `begin` to `end` was spent in receive(); an interval that crosses bucket
  // boundaries is split between the buckets.
  void add(MonotonicClock::time_point begin, MonotonicClock::time_point end) {
    if (end <= begin) return;
    total_ += nanoseconds(end - begin);
    if (begin < origin_) begin = origin_;  // cannot happen once started; kept safe
    while (begin < end) {
      const auto offset = begin - origin_;
      const std::int64_t bucket = offset / kBucketWidth;
      const MonotonicClock::time_point bucket_end =
          origin_ + std::chrono::duration_cast<MonotonicClock::duration>((bucket + 1) * kBucketWidth);
      const MonotonicClock::time_point piece_end = end < bucket_end ? end : bucket_end;
      const auto index = static_cast<std::size_t>(bucket);
      if (index >= buckets_.size()) buckets_.resize(index + 1, 0);
      buckets_[index] += nanoseconds(piece_end - begin);
      begin = piece_end;
    }
  }

  MonotonicClock::time_point origin() const noexcept { return origin_; }
  std::uint64_t total_nanoseconds() const noexcept { return total_; }
  // Nanoseconds inside receive() per bucket; the last bucket is the last one with any.
  const std::vector<std::uint64_t>& bucket_nanoseconds() const noexcept { return buckets_; }

 private:
  static std::uint64_t nanoseconds(MonotonicClock::duration span) noexcept {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(span).count());
  }

  MonotonicClock::time_point origin_{};
  std::uint64_t total_ = 0;
  std::vector<std::uint64_t> buckets_;
};

}  // namespace xenon
