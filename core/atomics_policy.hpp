// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>

namespace xenon {

/// \cond XENON_INTERNAL
// Installed with the public headers (engine.hpp includes it) but not part of the API:
// left out of the reference (make docs).

// The atomics a lock-free structure is built from. Structures take this as a template
// parameter so that a model checker (Relacy, tests/model/relacy_atomics.hpp) can substitute
// its own instrumented types and check the very code we ship, not a copy of it.
//
// A policy provides:
//  - atomic<T>: load, store, exchange with explicit orders, and wait / notify_one;
//  - plain<T>: storage for non-atomic data that one thread writes and another reads after
//    an acquire has made the write visible (the ring's slots), reached only through
//    plain_write() and plain_read(), so a checker can see every access and report a data
//    race when the orders around it are too weak;
//  - thread_fence(order).
// Here plain<T> is T itself and the accessors are identities: the shipped code compiles to
// the same instructions as a bare array.
struct StdAtomics {
  template <class T>
  using atomic = std::atomic<T>;

  template <class T>
  using plain = T;

  // The writer of a plain cell; the reference is used before the release that publishes it.
  template <class T>
  static T& plain_write(T& cell) noexcept {
    return cell;
  }

  // A reader of a plain cell, after the acquire that made its last write visible.
  template <class T>
  static const T& plain_read(const T& cell) noexcept {
    return cell;
  }

  static void thread_fence(std::memory_order order) noexcept { std::atomic_thread_fence(order); }
};

/// \endcond

}  // namespace xenon
