// SPDX-License-Identifier: BSD-3-Clause
#include "engine/timer_queue.hpp"

namespace xenon {
namespace {

// A copy of a payload slot that holds a reference of its own (inline bytes are copied).
PayloadSlot share_slot(const PayloadSlot& slot) noexcept {
  if (slot.is_shared()) slot.shared()->add_reference();
  return slot;
}

}  // namespace

TimerId TimerQueue::add(Timer timer) {
  const std::uint64_t id = next_id_++;
  heap_.emplace(timer.deadline, id);
  timers_.emplace(id, timer);
  // Rebuild when cancelled entries outnumber the live ones (amortised O(1) per cancel).
  if (heap_.size() > 2 * timers_.size() + 64) {
    std::vector<Entry> live;
    live.reserve(timers_.size());
    for (const auto& [live_id, live_timer] : timers_)
      live.emplace_back(live_timer.deadline, live_id);
    heap_ = decltype(heap_)(std::greater<Entry>(), std::move(live));
  }
  return TimerId{id};
}

bool TimerQueue::cancel(TimerId id, std::uint32_t owner) noexcept {
  const auto timer = timers_.find(id.value);
  if (timer == timers_.end() || timer->second.owner != owner) return false;
  timer->second.payload.release();
  timers_.erase(timer);
  return true;
}

std::size_t TimerQueue::cancel_owned_by(std::uint32_t owner) noexcept {
  std::size_t cancelled = 0;
  for (auto timer = timers_.begin(); timer != timers_.end();) {
    if (timer->second.owner == owner) {
      timer->second.payload.release();
      timer = timers_.erase(timer);
      ++cancelled;
    } else {
      ++timer;
    }
  }
  return cancelled;
}

std::size_t TimerQueue::clear() noexcept {
  const std::size_t cancelled = timers_.size();
  for (auto& [id, timer] : timers_) timer.payload.release();
  timers_.clear();
  heap_ = {};
  return cancelled;
}

void TimerQueue::drop_cancelled_top() {
  while (!heap_.empty() && !timers_.contains(heap_.top().second)) heap_.pop();
}

MonotonicClock::time_point TimerQueue::next_deadline() {
  drop_cancelled_top();
  return heap_.top().first;
}

std::size_t TimerQueue::fire_due(
    MonotonicClock::time_point now,
    const std::function<void(const Timer&, const PayloadSlot&)>& fire) {
  std::size_t fired = 0;
  for (;;) {
    drop_cancelled_top();
    if (heap_.empty() || heap_.top().first > now) return fired;
    const std::uint64_t id = heap_.top().second;
    heap_.pop();
    const auto entry = timers_.find(id);
    Timer due = entry->second;
    PayloadSlot payload;
    if (due.period.count() > 0) {
      payload = share_slot(due.payload);  // the timer keeps its own reference
      auto next = due.deadline + due.period;
      if (next <= now) next = now + due.period;
      entry->second.deadline = next;
      heap_.emplace(next, id);
    } else {
      payload = due.payload;  // the timer's reference goes with its only message
      timers_.erase(entry);
    }
    ++fired;
    fire(due, payload);
  }
}

}  // namespace xenon
