// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>

#include "core/atomics_policy.hpp"

namespace xenon {

/// \cond XENON_INTERNAL
// Installed with the public headers (engine.hpp includes it) but not part of the API:
// left out of the reference (make docs).

// Lets one owner thread sleep until another thread hands it work, without losing a wake-up.
//
// Owner:  prepare_to_park(); if (work is visible) cancel_park(); else park();
// Waker:  make the work visible (a release store), then wake();
//
// Both sides put a seq_cst fence between their store and their load (Dekker's pattern):
// either the owner's recheck sees the work, or the waker sees the owner's "parked" flag and
// wakes it. Waking costs one fence plus one load when the owner is not parked.
template <class Atomics = StdAtomics>
class BasicParker {
 public:
  // Owner only. Announces the intent to park; the caller must then recheck for work.
  void prepare_to_park() noexcept {
    state_.store(kParked, std::memory_order_relaxed);
    // seq_cst fence: orders the store above before the owner's recheck of its work queues;
    // pairs with the fence in wake().
    Atomics::thread_fence(std::memory_order_seq_cst);
  }

  // Owner only: work turned up during the recheck.
  void cancel_park() noexcept { state_.store(kRunning, std::memory_order_relaxed); }

  // Owner only: sleeps until wake() (returns at once if wake() already ran).
  void park() noexcept {
    // Acquire: pairs with the acq_rel exchange in wake(); what the waker published before
    // waking us is visible when we return.
    while (state_.load(std::memory_order_acquire) == kParked) {
      state_.wait(kParked, std::memory_order_acquire);
    }
  }

  // Any thread, after publishing work for the owner.
  void wake() noexcept {
    // seq_cst fence: orders the caller's publishing store before the load of state_;
    // pairs with the fence in prepare_to_park().
    Atomics::thread_fence(std::memory_order_seq_cst);
    if (state_.load(std::memory_order_relaxed) != kParked) return;
    // acq_rel: release pairs with the acquire load in park(); only one waker notifies.
    if (state_.exchange(kRunning, std::memory_order_acq_rel) == kParked) state_.notify_one();
  }

  bool parked() const noexcept { return state_.load(std::memory_order_relaxed) == kParked; }

 private:
  static constexpr std::uint32_t kRunning = 0;
  static constexpr std::uint32_t kParked = 1;
  typename Atomics::template atomic<std::uint32_t> state_{kRunning};
};

using Parker = BasicParker<>;

// How an idle thread backs off: spin with a pause hint, then yield the core, then park.
// Spinning keeps wake-up latency near the cache-line round trip while work is merely late;
// parking keeps an idle runtime off the CPU.
class IdleBackoff {
 public:
  enum class Step { kSpin, kYield, kPark };

  Step next() noexcept {
    ++idle_rounds_;
    if (idle_rounds_ <= kSpinRounds) return Step::kSpin;
    if (idle_rounds_ <= kSpinRounds + kYieldRounds) return Step::kYield;
    return Step::kPark;
  }
  void reset() noexcept { idle_rounds_ = 0; }

 private:
  static constexpr unsigned kSpinRounds = 256;
  static constexpr unsigned kYieldRounds = 32;
  unsigned idle_rounds_ = 0;
};

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#elif defined(__powerpc64__) || defined(__powerpc__)
  asm volatile("or 27,27,27" ::: "memory");  // lower SMT priority while spinning
#endif
}

/// \endcond

}  // namespace xenon
