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
// A worker keeps two: wall-clock time (add) and, where measured, the CPU time of the same
// intervals (add_spread). Touched only by the worker's own thread; read after it joined.
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
    for_each_piece(begin, end, [this](MonotonicClock::time_point from, MonotonicClock::time_point to, bool) {
      add_to_bucket(from, nanoseconds(to - from));
    });
  }

  // `amount` nanoseconds (the CPU time of the interval from `begin` to `end`) spread over the
  // buckets that interval crosses, in proportion to the part of it each one holds; the
  // total grows by exactly `amount`.
  void add_spread(MonotonicClock::time_point begin, MonotonicClock::time_point end, std::uint64_t amount) {
    if (amount == 0) return;
    total_ += amount;
    if (begin < origin_) begin = origin_;  // as in for_each_piece
    if (end <= begin) {
      add_to_bucket(begin, amount);
      return;
    }
    const auto span = static_cast<double>(nanoseconds(end - begin));
    std::uint64_t left = amount;
    for_each_piece(begin, end, [&](MonotonicClock::time_point from, MonotonicClock::time_point to, bool last) {
      // The last piece takes what rounding left, so the buckets sum to the total.
      const auto share = static_cast<std::uint64_t>(static_cast<double>(amount) *
                                                    static_cast<double>(nanoseconds(to - from)) / span);
      const std::uint64_t piece = last || share > left ? left : share;
      add_to_bucket(from, piece);
      left -= piece;
    });
  }

  MonotonicClock::time_point origin() const noexcept { return origin_; }
  std::uint64_t total_nanoseconds() const noexcept { return total_; }
  // Nanoseconds inside receive() per bucket; the last bucket is the last one with any.
  const std::vector<std::uint64_t>& bucket_nanoseconds() const noexcept { return buckets_; }

 private:
  MonotonicClock::time_point end_of_bucket(MonotonicClock::time_point at) const {
    const std::int64_t bucket = (at - origin_) / kBucketWidth;
    return origin_ + std::chrono::duration_cast<MonotonicClock::duration>((bucket + 1) * kBucketWidth);
  }
  // Calls piece(from, to, last) for each part of [begin, end) within one bucket, in order.
  template <typename Piece>
  void for_each_piece(MonotonicClock::time_point begin, MonotonicClock::time_point end, Piece&& piece) const {
    if (begin < origin_) begin = origin_;  // cannot happen once started; kept safe
    while (begin < end) {
      const MonotonicClock::time_point bucket_end = end_of_bucket(begin);
      const MonotonicClock::time_point piece_end = end < bucket_end ? end : bucket_end;
      piece(begin, piece_end, piece_end == end);
      begin = piece_end;
    }
  }
  void add_to_bucket(MonotonicClock::time_point at, std::uint64_t amount) {
    const auto index = static_cast<std::size_t>((at - origin_) / kBucketWidth);
    if (index >= buckets_.size()) buckets_.resize(index + 1, 0);
    buckets_[index] += amount;
  }

  static std::uint64_t nanoseconds(MonotonicClock::duration span) noexcept {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(span).count());
  }

  MonotonicClock::time_point origin_{};
  std::uint64_t total_ = 0;
  std::vector<std::uint64_t> buckets_;
};

}  // namespace xenon
