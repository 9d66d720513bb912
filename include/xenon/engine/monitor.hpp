// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <string_view>

#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/message.hpp"

namespace xenon {

/// Sent by the engine to an actor that watches another (Actor::watch()) when that actor has
/// stopped, once per watch; the message's source is the stopped actor and its payload the
/// reason as text. Read it with DownNotice::from(message).
inline constexpr Action ACTION_DOWN{"xenon.down"};

/// The reason of a notice for an actor that stopped with stop() and no reason of its own.
inline constexpr std::string_view kDownNormal = "normal";
/// The reason of a notice for a name that is not (or no longer) an actor when the watch
/// reaches it: it stopped before, was never spawned, or names a worker or node that does
/// not exist (Erlang's noproc).
inline constexpr std::string_view kDownNoSuchActor = "no such actor";

/// An ACTION_DOWN notice, read: which actor stopped, and why. The reason is kDownNormal,
/// the text given to Actor::stop(reason), the what() of an exception that escaped its
/// receive(), kDownNoSuchActor, or "node N left the job: WHY" when its node was found
/// silent (see the README's Monitors section).
/// \threads A plain value: any thread.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct DownNotice {
  ActorName actor;     ///< the actor that stopped (the name that was watched)
  std::string reason;  ///< why it stopped

  /// Reads an ACTION_DOWN message. Throws std::invalid_argument if it is another action.
  static DownNotice from(const Message& message);
};

}  // namespace xenon
