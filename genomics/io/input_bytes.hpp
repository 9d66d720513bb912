// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>

namespace xenon::genomics {

// Bytes of input files (as stored: compressed bytes of a .gz) that this process read, over
// every InputFile and PositionedFile and every pass (the assembler reads its inputs twice):
// what --stats reports as this node's share of the input. \threads Any thread.
inline std::atomic<std::uint64_t>& input_bytes_read_by_this_process() {
  static std::atomic<std::uint64_t> bytes{0};
  return bytes;
}

inline void count_input_bytes(std::uint64_t bytes) {
  // Relaxed: a tally, read once the readers are done (after Engine::run, which joins them).
  input_bytes_read_by_this_process().fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace xenon::genomics
