// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "xenon/core/clock.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/payload.hpp"
#include "xenon/engine/timer.hpp"

namespace xenon {

// One pending timer: a message to send when it is due (every `period` if that is not
// zero), or, when ask_request is not 0, the timeout of that ask.
struct Timer {
  MonotonicClock::time_point deadline;
  TimerDuration period{0};
  std::uint32_t owner = 0;  // index of the actor on this worker it ends with (see TimerId)
  ActorName source;
  ActorName target;
  std::uint32_t action = 0;  // Action::code()
  PayloadSlot payload;       // owned: one reference, released when the timer ends
  std::uint64_t ask_request = 0;
};

// A worker's pending timers: a min-heap of deadlines over a table by id. Cancelling erases
// from the table only (O(1)); a heap entry whose id is gone is skipped when it surfaces,
// and the heap is rebuilt when such entries outnumber the live ones, so asks answered long
// before their timeout do not pile up. One thread only (the worker's).
class TimerQueue {
 public:
  ~TimerQueue() { clear(); }

  bool empty() const noexcept { return timers_.empty(); }
  std::size_t size() const noexcept { return timers_.size(); }
  // Heap entries, cancelled ones included (what the rebuild keeps bounded).
  std::size_t heap_entries() const noexcept { return heap_.size(); }

  TimerId add(Timer timer);
  // True if it was pending (it never fires then); false if it fired (a one-shot) or was
  // never set by `owner`.
  bool cancel(TimerId id, std::uint32_t owner) noexcept;
  // Cancels every timer `owner` set; returns how many.
  std::size_t cancel_owned_by(std::uint32_t owner) noexcept;
  // Cancels every timer; returns how many.
  std::size_t clear() noexcept;

  // The earliest deadline; only when !empty().
  MonotonicClock::time_point next_deadline();

  // Calls fire(timer, payload) for each timer due at `now`, earliest first, handing over a
  // reference to its payload; a periodic timer is set again one period later (or one period
  // after `now`, if it fell that far behind: no burst after a stall). The queue is updated
  // before each call, so `fire` may cancel timers. Returns how many fired.
  std::size_t fire_due(MonotonicClock::time_point now,
                       const std::function<void(const Timer&, const PayloadSlot&)>& fire);

 private:
  using Entry = std::pair<MonotonicClock::time_point, std::uint64_t>;
  void drop_cancelled_top();

  std::unordered_map<std::uint64_t, Timer> timers_;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  std::uint64_t next_id_ = 1;
};

}  // namespace xenon
