// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>

#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/payload.hpp"
#include "xenon/engine/typed_payload.hpp"

namespace xenon {

/// One message: who sent it, to whom, what it asks (the action) and its payload. Exactly one
/// cache line, trivially copyable, so it moves through rings and mailboxes by plain copy.
/// An actor receives it by const reference, valid during Actor::receive(); to keep a large
/// payload beyond that without copying it, take share_payload().
///
/// \threads Read it inside the receive() it was given to; the engine frees its payload
/// reference when receive() returns.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class Message {
 public:
  /// \cond XENON_INTERNAL
  // The engine builds messages; actors only receive them.
  Message() noexcept = default;
  Message(ActorName source, ActorName destination, Action action,
          const PayloadSlot& payload) noexcept {
    assign(source, destination, action, payload);
  }

  // Fills this message in place (in a mailbox node or a ring slot), copying only the payload
  // bytes in use: nothing for an empty payload, the pointer for a shared one.
  void assign(ActorName source, ActorName destination, Action action,
              const PayloadSlot& payload) noexcept {
    source_ = source;
    destination_ = destination;
    action_ = action.code();
    payload_.size = payload.size;
    if (payload.size != 0) {
      std::memcpy(payload_.bytes, payload.bytes,
                  payload.is_shared() ? sizeof(SharedBytes*) : payload.size);
    }
  }
  // Engine use: marks a queued message for the receive side (engine/queue_time_sample.cpp).
  void set_destination(ActorName destination) noexcept { destination_ = destination; }
  /// \endcond

  /// The sender; none() for a message sent by Engine::send().
  ActorName source() const noexcept { return source_; }
  /// The receiving actor.
  ActorName destination() const noexcept { return destination_; }
  /// What the message asks for; its name() is empty (only the code travels).
  Action action() const noexcept { return Action::from_code(action_); }

  /// The payload's bytes, valid until receive() returns (empty if there is none).
  std::span<const std::byte> payload() const noexcept { return payload_.view(); }
  /// The payload's size in bytes.
  std::size_t payload_size() const noexcept { return payload_.size; }

  /// The payload read as one trivially copyable value (as Actor::send_value() sent it);
  /// throws std::length_error if the sizes differ.
  template <class T>
  T payload_as() const {
    static_assert(std::is_trivially_copyable_v<T>, "payload values are sent as raw bytes");
    if (payload_.size != sizeof(T)) {
      throw std::length_error("payload has " + std::to_string(payload_.size) +
                              " bytes, expected " + std::to_string(sizeof(T)));
    }
    T value;
    std::memcpy(&value, payload_.view().data(), sizeof(T));
    return value;
  }

  /// The payload read as a value of type T, as Actor::send_typed() sent it: raw bytes for
  /// trivially copyable types (as payload_as<T>()), the typed encoding otherwise. Throws
  /// std::length_error or TypedDecodeError if the payload does not hold a T.
  template <class T>
  T decode() const {
    return typed_payload_value<T>(payload_.view());
  }

  /// A payload sharing this message's bytes: a new reference for large payloads (no copy),
  /// a copy for inline ones. It may outlive the message, be kept or sent on; its bytes are
  /// read-only.
  Payload share_payload() const {
    if (!payload_.is_shared()) return Payload::copy_of(payload_.view());
    payload_.shared()->add_reference();
    return Payload::adopt_slot(payload_);
  }

  /// \cond XENON_INTERNAL
  // Engine use: the slot this message owns.
  const PayloadSlot& payload_slot() const noexcept { return payload_; }
  /// \endcond

 private:
  ActorName source_;
  ActorName destination_;
  std::uint32_t action_ = 0;
  PayloadSlot payload_;
};

static_assert(sizeof(Message) == 64, "a message is one cache line");
static_assert(std::is_trivially_copyable_v<Message>);

}  // namespace xenon
