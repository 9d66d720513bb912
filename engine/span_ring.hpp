// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <vector>

namespace xenon {

// A worker's busy spans (one per round of actor turns) for the trace (-trace), bounded:
// when the ring is full, every other span is dropped and from then on only one round in
// twice as many is kept, so a run of any length keeps at most kCapacity spans spread over
// all of it. Touched only by the worker's own thread; read after it joined.
class SpanRing {
 public:
  static constexpr std::size_t kCapacity = 1 << 13;  // about 1.3 MB of JSON per worker

  struct Span {
    std::int64_t begin_nanoseconds;  // since the run's origin
    std::int64_t end_nanoseconds;
    std::uint32_t messages;
  };

  void add(std::int64_t begin, std::int64_t end, std::uint32_t messages) {
    if (++skipped_ < stride_) return;
    skipped_ = 0;
    if (spans_.size() == kCapacity) thin();
    spans_.push_back({begin, end, messages});
  }

  const std::vector<Span>& spans() const noexcept { return spans_; }
  // One round in this many was kept (1 until the ring first filled).
  std::uint64_t stride() const noexcept { return stride_; }

 private:
  void thin() {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < spans_.size(); i += 2) spans_[kept++] = spans_[i];
    spans_.resize(kept);
    stride_ *= 2;
  }

  std::vector<Span> spans_;
  std::uint64_t stride_ = 1;
  std::uint64_t skipped_ = 0;
};

}  // namespace xenon
