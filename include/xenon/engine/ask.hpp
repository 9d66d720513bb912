// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <functional>

#include "xenon/engine/action.hpp"
#include "xenon/engine/message.hpp"

namespace xenon {

/// Received instead of a response when an Actor::ask() timed out: by the continuation, or
/// by receive() for an ask without one. ask_request() names the request; the payload is
/// empty and the source is the actor that was asked. A response that arrives later is
/// dropped and counted in EngineStatistics::late_responses.
inline constexpr Action ACTION_ASK_TIMEOUT{"xenon.ask-timeout"};

/// What an ask with a continuation calls, on the asking actor's worker, as part of its
/// turn (as receive() would be: send(), stop() and the rest work; an exception fails the
/// actor). It is called exactly once with the response, or with ACTION_ASK_TIMEOUT, unless
/// the asking actor stops first.
using AskContinuation = std::function<void(const Message& answer)>;

/// \cond XENON_INTERNAL
// An ask's request goes out with a reply address as its source: the asker's node and
// worker, and this bit set in the index (actor indices stay below it), with the request
// number below. reply() sends the response there, and the asker's worker routes it.
inline constexpr std::uint32_t kReplyAddressBit = 1u << 31;
/// \endcond

/// The request (as Actor::ask() returned it) that `answer` answers, a response or an
/// ACTION_ASK_TIMEOUT; 0 for any other message.
inline std::uint64_t ask_request(const Message& answer) noexcept {
  const std::uint32_t index = answer.destination().index();
  return (index & kReplyAddressBit) != 0 ? index & ~kReplyAddressBit : 0;
}

}  // namespace xenon
