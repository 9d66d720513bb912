// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>

namespace xenon {

/// A timer set with Actor::send_after(), Actor::send_every() or their Engine counterparts:
/// the handle that cancels it (Actor::cancel_timer()). A timer belongs to an actor, the one
/// that set it (for a program's timer, set through Engine, its target), fires on that
/// actor's worker, and only that actor can cancel it; its message then travels as any send,
/// to an actor anywhere.
///
/// Termination: a timer never keeps a run alive. An actor's pending timers are cancelled
/// when it stops (as Akka's actor timers are) and counted in
/// EngineStatistics::timers_cancelled (as is a program's timer to a name that never became
/// an actor, left when the run ends).
///
/// \threads A value: any thread may hold it; only the actor it belongs to cancels it.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct TimerId {
  std::uint64_t value = 0;  ///< unique on its worker for the whole run; 0 is never a timer
  friend bool operator==(TimerId, TimerId) = default;
};

/// The time type of delays and periods: any std::chrono duration converts to it.
using TimerDuration = std::chrono::nanoseconds;

}  // namespace xenon
