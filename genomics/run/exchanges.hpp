// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>

namespace xenon::genomics {

// Exchanges with every store (or keeper) this process's actors took part in: each time one of
// them sent one message to every other, empty or not, as the stores joining or cleaning do at
// every step (their owners count senders), and as the assembler's coordinator does at every
// step it leads. --stats reports them, so that the scaling model charges each one a message to
// every node and back at N nodes, however few bytes it carries.
// \threads Any thread.
inline std::atomic<std::uint64_t>& exchanges_by_this_process() {
  static std::atomic<std::uint64_t> exchanges{0};
  return exchanges;
}

inline void count_exchange_with_every_peer() {
  // Relaxed: a tally, read once the run is over (after Engine::run, which joins the workers).
  exchanges_by_this_process().fetch_add(1, std::memory_order_relaxed);
}

}  // namespace xenon::genomics
