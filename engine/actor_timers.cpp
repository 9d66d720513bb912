// SPDX-License-Identifier: BSD-3-Clause
// Actor's timers and asks: checked here, run by its worker (engine/worker_timers.cpp).
#include <stdexcept>

#include "engine/worker.hpp"
#include "xenon/engine/actor.hpp"

namespace xenon {

TimerId Actor::send_after(TimerDuration delay, ActorName to, Action action, Payload payload) {
  return worker_->set_timer(slot_, name_, to, action, payload.release_slot(), delay,
                            TimerDuration::zero());
}

TimerId Actor::send_every(TimerDuration period, ActorName to, Action action, Payload payload) {
  if (period <= TimerDuration::zero()) {
    throw std::invalid_argument("send_every: the period must be positive");
  }
  return worker_->set_timer(slot_, name_, to, action, payload.release_slot(), period,
                            period);
}

bool Actor::cancel_timer(TimerId timer) noexcept {
  return worker_->cancel_timer(slot_, timer);
}

std::uint64_t Actor::ask(ActorName to, Action action, Payload payload, TimerDuration timeout,
                         AskContinuation then) {
  if (timeout <= TimerDuration::zero()) {
    throw std::invalid_argument("ask: the timeout must be positive");
  }
  return worker_->ask(*this, to, action, payload.release_slot(), timeout, std::move(then));
}

}  // namespace xenon
