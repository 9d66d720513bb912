// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#include "core/parker.hpp"
#include "xenon/core/clock.hpp"
#include "engine/node_context.hpp"

namespace xenon {

// The loop a worker and the communication thread share: run rounds while they find work,
// and when one finds none, back off: spin, then yield, then park until a producer wakes the
// thread. A thread that must not park yet (it holds messages a consumer has no room for,
// polls a transport that cannot wake it, or has a timer pending: a park has no deadline)
// waits its own way instead, never past its next timer's deadline.
//
// `thread` provides:
//   bool run_round();          one round of work; true if anything happened
//   bool wait_without_parking(); waits briefly and returns true if parking is not allowed now
//   bool has_visible_work();   checked after prepare_to_park(): work that arrived meanwhile
// `parks` counts the parks and `parked_nanoseconds` their time (the clock is read around a
// park only: it is rare, and sleeps far longer than a read costs).
template <class Thread>
void run_until_shutdown(const NodeContext& node, Parker& parker, Thread& thread,
                        std::uint64_t& parks, std::uint64_t& parked_nanoseconds) {
  IdleBackoff backoff;
  while (!node.shutting_down()) {
    if (thread.run_round()) {
      backoff.reset();
      continue;
    }
    switch (backoff.next()) {
      case IdleBackoff::Step::kSpin:
        cpu_relax();
        break;
      case IdleBackoff::Step::kYield:
        std::this_thread::yield();
        break;
      case IdleBackoff::Step::kPark:
        if (thread.wait_without_parking()) break;
        parker.prepare_to_park();
        if (thread.has_visible_work() || node.shutting_down()) {
          parker.cancel_park();
        } else {
          ++parks;
          const MonotonicClock::time_point parked = MonotonicClock::now();
          parker.park();
          parked_nanoseconds += static_cast<std::uint64_t>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(MonotonicClock::now() - parked)
                  .count());
        }
        backoff.reset();
        break;
    }
  }
}

}  // namespace xenon
