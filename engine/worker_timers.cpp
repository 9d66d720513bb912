// SPDX-License-Identifier: BSD-3-Clause
// A worker's timers and asks: set, fired and answered on the worker's own thread, so that
// a timer's message leaves from its owner's worker (in order with the owner's own sends)
// and an answer runs in its asker's turn. While none is set, the worker pays one test of an
// empty table per round and per stop, and one bit test per message received.
#include <algorithm>
#include <stdexcept>
#include <thread>

#include "engine/worker.hpp"

namespace xenon {
namespace {

// The idle sleep while timers are pending: short at first, for a message that arrives just
// after the worker went idle, then longer, but never past the next deadline.
constexpr TimerDuration kFirstTimerSleep = std::chrono::microseconds(20);
constexpr TimerDuration kLongestTimerSleep = std::chrono::milliseconds(1);

ActorName reply_address(std::uint32_t node, int worker, std::uint64_t request) {
  return ActorName::make(node, static_cast<std::uint32_t>(worker),
                         kReplyAddressBit | static_cast<std::uint32_t>(request));
}

}  // namespace

TimerId Worker::set_timer(std::uint32_t owner, ActorName from, ActorName to, Action action,
                          const PayloadSlot& payload, TimerDuration delay, TimerDuration period) {
  Timer timer;
  timer.deadline = MonotonicClock::now() + std::max(delay, TimerDuration::zero());
  timer.period = period;
  timer.owner = owner;
  timer.source = from;
  timer.target = to;
  timer.action = action.code();
  timer.payload = payload;
  return timers_.add(timer);
}

std::uint64_t Worker::ask(const Actor& asker, ActorName to, Action action,
                          const PayloadSlot& payload, TimerDuration timeout, AskContinuation then) {
  const std::uint32_t owner = asker.slot_;
  const auto deadline = MonotonicClock::now() + timeout;
  const std::uint64_t request = asks_.open(owner, to, deadline, std::move(then));
  Timer expiry;
  expiry.deadline = deadline;
  expiry.owner = owner;
  expiry.ask_request = request;
  asks_.set_timeout(request, timers_.add(expiry));
  send(reply_address(node_index_, index_, request), to, action, payload);
  return request;
}

bool Worker::fire_due_timers(bool busy) {
  const std::size_t fired = timers_.fire_due(
      MonotonicClock::now(), [this](const Timer& timer, const PayloadSlot& payload) {
        if (timer.ask_request != 0) {
          ask_timed_out(timer.ask_request);
        } else {
          send(timer.source, timer.target, Action::from_code(timer.action), payload);
        }
      });
  counters_.timers_fired += fired;
  if (busy || fired > 0) timer_sleep_ = TimerDuration::zero();
  return busy || fired > 0;
}

void Worker::sleep_until_next_timer() {
  timer_sleep_ = std::clamp(timer_sleep_ * 2, kFirstTimerSleep, kLongestTimerSleep);
  const auto wake_at = std::min(MonotonicClock::now() + timer_sleep_, timers_.next_deadline());
  std::this_thread::sleep_until(wake_at);
}

// A response to one of our actors' asks (from any worker or node) reached its reply
// address: queued for the asker, in its mailbox's order, or dropped and counted if the ask
// was answered already, timed out, or its actor stopped. One that comes after the deadline
// but before this worker looked at its timers is late too: the timeout is what was promised.
void Worker::answer_arrived(const Message& answer) {
  const std::uint64_t request = ask_request(answer);
  PendingAsks::Ask* ask = asks_.waiting(request);
  if (ask == nullptr || MonotonicClock::now() >= ask->deadline) {
    ++counters_.late_responses;
    answer.payload_slot().release();
    if (ask != nullptr && timers_.cancel(ask->timeout, ask->owner)) {
      ++counters_.timers_fired;  // as if it had: the timeout goes out now
      ask_timed_out(request);
    }
    return;
  }
  timers_.cancel(ask->timeout, ask->owner);
  Actor* asker = actors_[ask->owner];
  asks_.answered(request);
  enqueue(asker, answer);
}

void Worker::ask_timed_out(std::uint64_t request) {
  PendingAsks::Ask* ask = asks_.waiting(request);
  if (ask == nullptr) return;  // not reached: an answer cancels the timeout
  Actor* asker = actors_[ask->owner];
  const Message timeout(ask->asked, reply_address(node_index_, index_, request), ACTION_ASK_TIMEOUT,
                        PayloadSlot{});
  asks_.answered(request);
  enqueue(asker, timeout);
}

// In the asker's turn: its continuation if it has one, else its receive().
void Worker::run_answer(Actor* actor, const Message& answer) {
  if (AskContinuation then = asks_.take_continuation(ask_request(answer))) {
    then(answer);
  } else {
    actor->receive(answer);
  }
}

void Worker::end_timers_and_asks_of(const Actor& actor) noexcept {
  const std::uint32_t owner = actor.slot_;
  counters_.timers_cancelled += timers_.cancel_owned_by(owner);
  asks_.forget_owned_by(owner);
}

}  // namespace xenon
