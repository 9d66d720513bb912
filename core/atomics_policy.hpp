#pragma once

#include <atomic>

namespace xenon {

// The atomics a lock-free structure is built from. Structures take this as a template
// parameter so that a model checker (Relacy) can substitute its own instrumented atomics
// and check the very code we ship, not a copy of it.
struct StdAtomics {
  template <class T>
  using atomic = std::atomic<T>;

  static void thread_fence(std::memory_order order) noexcept { std::atomic_thread_fence(order); }
};

}  // namespace xenon
