// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// An atomics policy (see core/atomics_policy.hpp) backed by the Relacy race detector, so
// that the model tests run the shipped SpscRing and BasicParker under Relacy's C++ memory
// model: atomics may return any value the model allows, plain slot accesses are checked for
// data races and uninitialised reads, and a thread that waits for good is a deadlock.
//
// A Weaken parameter rewrites the orders the structure asks for; the tests use it to prove
// that a weakened order is caught (Faithful leaves them alone).

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <source_location>

// Relacy defines new, delete, malloc, assert, errno and memory_order_* as macros for
// programs written against it; we write against std:: and the policy, so take them back.
#pragma push_macro("assert")
#pragma push_macro("errno")
#include <relacy/relacy.hpp>
#undef memory_order_relaxed
#undef memory_order_consume
#undef memory_order_acquire
#undef memory_order_release
#undef memory_order_acq_rel
#undef memory_order_seq_cst
#undef new
#undef delete
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef VAR
#undef VAR_T
#undef TLS_T
#undef assert
#undef errno
#pragma pop_macro("assert")
#pragma pop_macro("errno")

namespace xenon::model {

inline rl::memory_order to_relacy(std::memory_order order) {
  switch (order) {
    case std::memory_order_relaxed:
      return rl::mo_relaxed;
    case std::memory_order_consume:
      return rl::mo_consume;
    case std::memory_order_acquire:
      return rl::mo_acquire;
    case std::memory_order_release:
      return rl::mo_release;
    case std::memory_order_acq_rel:
      return rl::mo_acq_rel;
    case std::memory_order_seq_cst:
      return rl::mo_seq_cst;
  }
  return rl::mo_seq_cst;
}

// Relacy reports the line of the structure's code that made the access.
inline rl::debug_info where(const std::source_location& at) {
  return rl::debug_info(at.function_name(), at.file_name(), at.line());
}

// The orders exactly as written.
struct Faithful {
  static constexpr std::memory_order access(std::memory_order order) { return order; }
  static constexpr std::memory_order fence(std::memory_order order) { return order; }
};

// A release store becomes relaxed (acq_rel keeps only its acquire half).
struct ReleaseAsRelaxed {
  static constexpr std::memory_order access(std::memory_order order) {
    if (order == std::memory_order_release) return std::memory_order_relaxed;
    if (order == std::memory_order_acq_rel) return std::memory_order_acquire;
    return order;
  }
  static constexpr std::memory_order fence(std::memory_order order) { return order; }
};

// An acquire load becomes relaxed (acq_rel keeps only its release half).
struct AcquireAsRelaxed {
  static constexpr std::memory_order access(std::memory_order order) {
    if (order == std::memory_order_acquire) return std::memory_order_relaxed;
    if (order == std::memory_order_acq_rel) return std::memory_order_release;
    return order;
  }
  static constexpr std::memory_order fence(std::memory_order order) { return order; }
};

// A seq_cst fence becomes acq_rel: no longer orders a store before a later load.
struct SeqCstFenceAsAcqRel {
  static constexpr std::memory_order access(std::memory_order order) { return order; }
  static constexpr std::memory_order fence(std::memory_order order) {
    return order == std::memory_order_seq_cst ? std::memory_order_acq_rel : order;
  }
};

template <class T, class Weaken>
class RelacyAtomic {
 public:
  RelacyAtomic(T initial, std::source_location at = std::source_location::current()) {
    value_.store(initial, rl::mo_relaxed, where(at));
  }
  RelacyAtomic(const RelacyAtomic&) = delete;
  RelacyAtomic& operator=(const RelacyAtomic&) = delete;

  T load(std::memory_order order, std::source_location at = std::source_location::current()) const {
    return value_.load(to_relacy(Weaken::access(order)), where(at));
  }
  void store(T value, std::memory_order order,
             std::source_location at = std::source_location::current()) {
    value_.store(value, to_relacy(Weaken::access(order)), where(at));
  }
  T exchange(T value, std::memory_order order,
             std::source_location at = std::source_location::current()) {
    return value_.exchange(value, to_relacy(Weaken::access(order)), where(at));
  }
  T fetch_add(T value, std::memory_order order,
              std::source_location at = std::source_location::current()) {
    return value_.fetch_add(value, to_relacy(Weaken::access(order)), where(at));
  }

  // std::atomic::wait as a futex behaves: block while the value equals old, and let no
  // notify_one() that follows a changing store slip between the check and the sleep.
  void wait(T old, std::memory_order order,
            std::source_location at = std::source_location::current()) const {
    mutex_.lock(where(at));
    while (load(order, at) == old) condvar_.wait(mutex_, where(at));
    mutex_.unlock(where(at));
  }
  void notify_one(std::source_location at = std::source_location::current()) {
    mutex_.lock(where(at));
    condvar_.notify_one(where(at));
    mutex_.unlock(where(at));
  }
  void notify_all(std::source_location at = std::source_location::current()) {
    mutex_.lock(where(at));
    condvar_.notify_all(where(at));
    mutex_.unlock(where(at));
  }

 private:
  rl::atomic<T> value_;
  // Stand in for the kernel's futex queue (Relacy has no futex); the waker holds none.
  mutable rl::mutex mutex_;
  mutable rl::condition_variable condvar_;
};

// A plain cell: Relacy records every write and read of it (through marker_), and reports a
// data race when a write and another access are not ordered by happens-before, or a read of
// a cell nobody wrote.
template <class T>
class RelacyCell {
 public:
  T& write(const std::source_location& at) {
    marker_(where(at)).store(1);
    return value_;
  }
  const T& read(const std::source_location& at) const {
    static_cast<void>(marker_(where(at)).load());
    return value_;
  }

 private:
  rl::var<int> marker_;
  T value_{};
};

template <class Weaken = Faithful>
struct RelacyAtomics {
  template <class T>
  using atomic = RelacyAtomic<T, Weaken>;

  template <class T>
  using plain = RelacyCell<T>;

  template <class T>
  static T& plain_write(RelacyCell<T>& cell,
                        std::source_location at = std::source_location::current()) {
    return cell.write(at);
  }
  template <class T>
  static const T& plain_read(const RelacyCell<T>& cell,
                             std::source_location at = std::source_location::current()) {
    return cell.read(at);
  }

  static void thread_fence(std::memory_order order,
                           std::source_location at = std::source_location::current()) {
    rl::atomic_thread_fence(to_relacy(Weaken::fence(order)), where(at));
  }
};

}  // namespace xenon::model
