// SPDX-License-Identifier: BSD-3-Clause
// The ring's publish and observe points, and the parker's fence, each in an out-of-line
// function with a fixed name, so tools/check_barriers.sh can find their instructions in the
// cross-built object and check the barriers the target needs (lwsync/sync/isync on POWER,
// stlr/ldar/dmb on ARM). The weakened_ twins use relaxed orders: the script demands that
// they lack those barriers, which shows the check can tell the difference.

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/atomics_policy.hpp"
#include "core/parker.hpp"
#include "core/spsc_ring.hpp"

namespace {

struct Item {
  std::uint64_t words[8];  // one 64-byte message, like the engine's
};

// std::atomic with every order relaxed: the negative control.
template <class T>
struct RelaxedAtomic : std::atomic<T> {
  using std::atomic<T>::atomic;
  T load(std::memory_order) const noexcept {
    return std::atomic<T>::load(std::memory_order_relaxed);
  }
  void store(T value, std::memory_order) noexcept {
    std::atomic<T>::store(value, std::memory_order_relaxed);
  }
};
struct RelaxedAtomics : xenon::StdAtomics {
  template <class T>
  using atomic = RelaxedAtomic<T>;
};

using Ring = xenon::SpscRing<Item>;
using WeakenedRing = xenon::SpscRing<Item, RelaxedAtomics>;

}  // namespace

// Release store of tail.
extern "C" __attribute__((noinline)) std::size_t xenon_barrier_publish(Ring& ring) {
  return ring.publish();
}
// Acquire load of tail.
extern "C" __attribute__((noinline)) bool xenon_barrier_observe_tail(Ring& ring) {
  return ring.empty_for_consumer();
}
// Acquire load of head (try_stage rereads head when its cached copy says full).
extern "C" __attribute__((noinline)) bool xenon_barrier_observe_head(Ring& ring, const Item& item) {
  return ring.try_stage(item);
}
// Acquire load of head: the wait before an actor leaves its worker (load balancing).
extern "C" __attribute__((noinline)) bool xenon_barrier_consumer_took_everything(Ring& ring) {
  return ring.consumer_took_everything();
}
// Release store of head (after the consumer's reads).
extern "C" __attribute__((noinline)) std::size_t xenon_barrier_release_head(Ring& ring) {
  return ring.consume([](const Item&) {}, 1);
}
// seq_cst fence before the load of "parked".
extern "C" __attribute__((noinline)) void xenon_barrier_wake(xenon::Parker& parker) {
  parker.wake();
}

extern "C" __attribute__((noinline)) std::size_t xenon_barrier_weakened_publish(
    WeakenedRing& ring) {
  return ring.publish();
}
extern "C" __attribute__((noinline)) bool xenon_barrier_weakened_observe_tail(WeakenedRing& ring) {
  return ring.empty_for_consumer();
}
