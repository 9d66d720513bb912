// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>

namespace xenon {

// Slots per worker-to-worker ring (one 64-byte message each). Enough to keep a batch in
// flight in each direction; a full ring is never an error, the sender keeps the overflow.
std::size_t ring_capacity(int worker_count);

// The bytes of every ring of a node with `worker_count` workers: one per ordered pair of
// workers and two per worker to and from the communicator, so it grows with the square of
// the workers (255 workers: 1.1 GB).
std::uint64_t ring_bytes(int worker_count);

// The most workers a node may have: kWorkersPerCore per core this process may run on, and
// never fewer than kWorkersAlwaysAllowed (so that small machines can still test
// concurrency).
inline constexpr int kWorkersPerCore = 8;
inline constexpr int kWorkersAlwaysAllowed = 64;
// The rings may take at most this fraction (1/kRingMemoryShare) of the machine's memory.
inline constexpr std::uint64_t kRingMemoryShare = 4;

// Throws std::invalid_argument, naming the bound, when `threads_per_node` would give more
// workers than the cores allow or rings larger than a quarter of the memory: such a run
// would crawl or be killed by the kernel after minutes of allocating.
void check_thread_budget(std::int64_t threads_per_node, int worker_count);

// The same check against given resources (tests use it with a machine of their own).
void check_thread_budget(std::int64_t threads_per_node, int worker_count, int cores,
                         std::uint64_t memory_bytes);

}  // namespace xenon
