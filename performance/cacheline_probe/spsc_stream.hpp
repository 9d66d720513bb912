// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>

#include <xenon/xenon.hpp>
#include "core/spsc_ring.hpp"
#include "performance/cacheline_probe/spin_wait.hpp"

namespace xenon::bench {

// The physical ceiling of a one-way message stream between two cores: 8-byte items (their
// sequence numbers) through xenon::SpscRing, the engine's own ring, with nothing else on
// the path: no actor, no mailbox, no dispatch. With `batch` > 1 the producer stages that
// many items per release store and the consumer takes up to `batch` per acquire load (how
// the engine uses the ring); with `batch` == 1 every item is published and consumed alone.
//
// `pin(slot)` places the calling thread: slot 0 is the consumer, slot 1 the producer.
// Returns items per second. Throws std::runtime_error if an item was lost or reordered.
template <class Pin>
double spsc_stream_items_per_second(std::uint64_t items, std::size_t capacity, std::size_t batch,
                                    const Pin& pin) {
  SpscRing<std::uint64_t> ring(capacity);
  std::atomic<bool> go{false};
  std::thread producer([&] {
    pin(1);
    SpinWait wait;
    // Acquire: pairs with the consumer's release store of `go`.
    while (!go.load(std::memory_order_acquire)) wait.poll();
    for (std::uint64_t next = 0; next < items;) {
      if (ring.try_stage(next)) {
        ++next;
        if (ring.staged_count() >= batch) ring.publish();
      } else {
        ring.publish();  // full: make what is staged visible so the consumer can free slots
        wait.poll();
      }
    }
    ring.publish();
  });
  pin(0);
  std::uint64_t expected = 0;
  std::uint64_t out_of_order = 0;
  const auto start = MonotonicClock::now();
  // Release: pairs with the producer's acquire load of `go`.
  go.store(true, std::memory_order_release);
  SpinWait wait;
  while (expected < items) {
    const std::size_t taken = ring.consume(
        [&](std::uint64_t item) {
          out_of_order += (item != expected);
          ++expected;
        },
        batch);
    if (taken == 0) wait.poll();
  }
  const double seconds = seconds_between(start, MonotonicClock::now());
  producer.join();
  if (out_of_order != 0 || !ring.empty_for_consumer()) {
    throw std::runtime_error("spsc stream: " + std::to_string(out_of_order) +
                             " item(s) out of sequence or extra items after " +
                             std::to_string(items));
  }
  return static_cast<double>(items) / seconds;
}

}  // namespace xenon::bench
