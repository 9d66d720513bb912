// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// How an urgent message crosses a ring. A Message is one cache line with no spare bit, so
// the priority cannot ride in it; instead an urgent message for another worker (or for the
// communicator) travels as an envelope: a message to the same destination whose action is
// ACTION_URGENT and whose payload is a heap block holding the whole original message (its
// payload slot, and so its payload's ownership, included). Whoever takes a message from a
// ring opens envelopes first: the destination worker puts the message ahead of the normal
// ones in the mailbox, the communicator sets the record's urgent bit in the frame. Only
// urgent messages pay for this (one allocation); a normal message costs one comparison of
// its action where it leaves a ring.

#include <cstring>
#include <span>

#include "xenon/engine/action.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

inline constexpr Action ACTION_URGENT{"xenon.urgent"};

inline bool is_urgent_envelope(const Message& message) noexcept {
  return message.action() == ACTION_URGENT;
}

// The envelope's payload: `message`, whose payload it now owns.
inline PayloadSlot urgent_envelope_payload(const Message& message) {
  // Over 40 bytes: a heap block. (Copied by copy_of, out of line: GCC's -Warray-bounds
  // took a memcpy here for one into the inline bytes.)
  return Payload::copy_of(std::as_bytes(std::span<const Message, 1>(&message, 1))).release_slot();
}

// The message an envelope carries, which owns its payload again; frees the envelope's block.
inline Message open_urgent_envelope(const Message& envelope) noexcept {
  Message message;
  // cppcheck-suppress memsetClass ; Message is trivially copyable (asserted in message.hpp)
  std::memcpy(&message, envelope.payload().data(), sizeof(Message));
  envelope.payload_slot().release();
  return message;
}

// The action of the message an envelope carries; the envelope still owns it.
inline Action enveloped_action(const Message& envelope) noexcept {
  Message message;
  // cppcheck-suppress memsetClass ; Message is trivially copyable (asserted in message.hpp)
  std::memcpy(&message, envelope.payload().data(), sizeof(Message));
  return message.action();
}

// Frees what an undelivered message owns: its payload, or an envelope's block and the
// payload of the message inside.
inline void release_undelivered(const Message& message) noexcept {
  if (is_urgent_envelope(message)) {
    open_urgent_envelope(message).payload_slot().release();
  } else {
    message.payload_slot().release();
  }
}

}  // namespace xenon
