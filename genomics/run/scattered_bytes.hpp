// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>

namespace xenon::genomics {

// Bytes this process sent other nodes as shares of data it alone held, each node a different
// share (node 0's shares of the carried sequences for the stores): what --stats reports, so
// that the scaling model takes them for a volume split over the nodes, not for a broadcast
// that every added node gets whole. \threads Any thread.
inline std::atomic<std::uint64_t>& bytes_scattered_by_this_process() {
  static std::atomic<std::uint64_t> bytes{0};
  return bytes;
}

inline void count_scattered_bytes(std::uint64_t bytes) {
  // Relaxed: a tally, read once the run is over (after Engine::run, which joins the workers).
  bytes_scattered_by_this_process().fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace xenon::genomics
