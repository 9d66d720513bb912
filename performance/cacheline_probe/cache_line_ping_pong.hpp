// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>

#include <xenon/xenon.hpp>
#include "performance/cacheline_probe/spin_wait.hpp"

namespace xenon::bench {

// How the two threads of the ping-pong share memory.
enum class LineLayout {
  // The initiator writes only the ping line, the responder only the pong line; each reads
  // the other's. One round trip = the ping line moving to the responder, the pong line
  // moving to the initiator: the floor for any message there and back (and the layout the
  // engine's rings use: each index has one writer).
  kOneWriterPerLine,
  // Both threads write the same line (a counter both increment in turn): the textbook
  // ping-pong. Every store must first take the line from the other core, whose spinning
  // loads keep pulling it back, so it costs more than the floor.
  kSharedLine,
};

// The physical floor of any message between two cores: cache lines bouncing between two
// threads. The initiator publishes an odd number, the responder waits for it and answers
// with the next even number, the initiator waits for that. Both sides spin on plain loads
// with no pause hint (SpinWait), so the figure is the coherence protocol's latency.
//
// `pin(slot)` places the calling thread: slot 0 is the initiator, slot 1 the responder.
// Returns nanoseconds per round trip over `rounds` timed round trips (after `warmup`
// untimed ones). Throws std::runtime_error if a round went missing.
template <class Pin>
double cache_line_round_trip_ns(LineLayout layout, std::uint64_t rounds, std::uint64_t warmup,
                                const Pin& pin) {
  struct alignas(kCacheLineSize) Line {
    std::atomic<std::uint64_t> value{0};
  };
  Line ping_line;  // written by the initiator only (both, with kSharedLine)
  Line pong_line;  // written by the responder only (unused with kSharedLine)
  Line& pong = layout == LineLayout::kSharedLine ? ping_line : pong_line;
  const std::uint64_t total = warmup + rounds;
  std::uint64_t responder_rounds = 0;
  std::thread responder([&] {
    pin(1);
    SpinWait wait;
    for (std::uint64_t round = 0; round < total; ++round) {
      const std::uint64_t ping = 2 * round + 1;
      // Acquire: pairs with the initiator's release store of `ping` below.
      while (ping_line.value.load(std::memory_order_acquire) != ping) wait.poll();
      // Release: pairs with the initiator's acquire load that waits for ping + 1.
      pong.value.store(ping + 1, std::memory_order_release);
      ++responder_rounds;
    }
  });
  pin(0);
  SpinWait wait;
  MonotonicClock::time_point start = MonotonicClock::now();
  for (std::uint64_t round = 0; round < total; ++round) {
    if (round == warmup) start = MonotonicClock::now();
    const std::uint64_t ping = 2 * round + 1;
    // Release: pairs with the responder's acquire load that waits for `ping`.
    ping_line.value.store(ping, std::memory_order_release);
    // Acquire: pairs with the responder's release store of ping + 1.
    while (pong.value.load(std::memory_order_acquire) != ping + 1) wait.poll();
  }
  const double seconds = seconds_between(start, MonotonicClock::now());
  responder.join();
  // Relaxed: the join above already ordered the responder's last store before this load.
  const std::uint64_t final_value = pong.value.load(std::memory_order_relaxed);
  if (responder_rounds != total || final_value != 2 * total) {
    throw std::runtime_error("cache-line ping-pong: " + std::to_string(responder_rounds) +
                             " responder rounds and final value " + std::to_string(final_value) +
                             ", expected " + std::to_string(total) + " and " +
                             std::to_string(2 * total));
  }
  return seconds * 1e9 / static_cast<double>(rounds);
}

}  // namespace xenon::bench
