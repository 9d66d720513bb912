// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "xenon/core/cache_line.hpp"

namespace xenon {

// Load balancing's only shared state: which workers of a node have been idle long enough
// to want actors, and how many. An idle worker raises its request; a busy worker, between
// two actor turns, sees the count and takes requests (engine/worker_balancing.cpp).
//
// Only a hint. The actors themselves travel through the rings (release/acquire, see
// core/spsc_ring.hpp), so nothing here publishes data and every access is relaxed: a
// request seen late costs a little balance, never correctness. The exchange makes each
// request taken at most once, by one giver. The count may be briefly off by the requests
// being raised or taken at that moment (it is signed for that reason).
class WorkRequests {
 public:
  explicit WorkRequests(int workers)
      : wanting_(std::make_unique<Padded<bool>[]>(static_cast<std::size_t>(workers))) {}

  // Worker `worker` wants actors (it has been idle). Its own thread.
  void raise(int worker) noexcept {
    // Relaxed: a hint; see the class comment.
    if (!flag(worker).exchange(true, std::memory_order_relaxed)) {
      count_.value.fetch_add(1, std::memory_order_relaxed);
    }
  }
  // Takes worker `worker`'s request: true for exactly one caller per raise(). Any worker
  // (a giver, or `worker` itself withdrawing once it has work again).
  bool take(int worker) noexcept {
    // Relaxed: a hint. The plain load first keeps the common no-request case read-only.
    if (!flag(worker).load(std::memory_order_relaxed) ||
        !flag(worker).exchange(false, std::memory_order_relaxed)) {
      return false;
    }
    count_.value.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  // Whether any worker seems to want actors: a busy worker's one look per actor turn.
  bool any() const noexcept {
    // Relaxed: a hint; a request seen a turn late is taken a turn late.
    return count_.value.load(std::memory_order_relaxed) > 0;
  }

 private:
  template <class T>
  struct alignas(kCacheLineSize) Padded {
    std::atomic<T> value{};
  };
  std::atomic<bool>& flag(int worker) noexcept {
    return wanting_[static_cast<std::size_t>(worker)].value;
  }

  std::unique_ptr<Padded<bool>[]> wanting_;  // by worker: each written by its worker and givers
  Padded<int> count_;                        // raised requests not yet taken
};

}  // namespace xenon
