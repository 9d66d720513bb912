// SPDX-License-Identifier: BSD-3-Clause
// The program's own timers, set before run() on the worker of their target, which owns
// them: they end when it stops, and it may cancel them.
#include <stdexcept>

#include "engine/worker.hpp"
#include "xenon/engine/engine.hpp"

namespace xenon {
namespace {

void check_program_timer(bool ran, ActorName to, int node_index, int worker_count,
                         const char* who) {
  if (ran)
    throw std::logic_error(std::string("Engine::") + who +
                           " after run(): set it from an actor instead");
  if (to.node() != static_cast<std::uint32_t>(node_index) ||
      to.worker() >= static_cast<std::uint32_t>(worker_count)) {
    throw std::out_of_range(std::string("Engine::") + who +
                            ": no actor of this node is named like that");
  }
}

}  // namespace

TimerId Engine::send_after(TimerDuration delay, ActorName to, Action action, Payload payload) {
  check_program_timer(ran_, to, node_index_, worker_count(), "send_after");
  return worker(static_cast<int>(to.worker()))
      .set_timer(to.index(), ActorName::none(), to, action, payload.release_slot(), delay,
                 TimerDuration::zero());
}

TimerId Engine::send_every(TimerDuration period, ActorName to, Action action, Payload payload) {
  check_program_timer(ran_, to, node_index_, worker_count(), "send_every");
  if (period <= TimerDuration::zero()) {
    throw std::invalid_argument("Engine::send_every: the period must be positive");
  }
  return worker(static_cast<int>(to.worker()))
      .set_timer(to.index(), ActorName::none(), to, action, payload.release_slot(), period, period);
}

}  // namespace xenon
