// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>

namespace xenon {

/// A timer set with Actor::send_after(), Actor::send_every() or their Engine counterparts:
/// the handle that cancels it (Actor::cancel_timer()). A timer belongs to the worker of the
/// actor that set it (for Engine's, the worker of the target) and fires there; its message
/// then travels as any send, to an actor anywhere.
///
/// Termination: a timer never keeps a run alive by itself. An actor's pending timers are
/// cancelled when it stops (as Akka's actor timers are), and timers still pending when the
/// run ends (the program's own, set through Engine) are cancelled then; both are counted
/// in EngineStatistics::timers_cancelled.
///
/// \threads A value: any thread may hold it; only its setter cancels it.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct TimerId {
  std::uint64_t value = 0;  ///< unique on its worker for the whole run; 0 is never a timer
  friend bool operator==(TimerId, TimerId) = default;
};

/// The time type of delays and periods: any std::chrono duration converts to it.
using TimerDuration = std::chrono::nanoseconds;

}  // namespace xenon
