// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "xenon/core/typed_encoding.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

/// How a value of type T travels in a typed message (Actor::send_typed, typed_payload,
/// Message::decode), chosen at compile time: true for a trivially copyable type without a
/// declared field list, sent as its raw bytes (Payload::of: no encoding, host byte order),
/// false for every other type, sent in the typed encoding (xenon/core/typed_encoding.hpp).
template <class T>
inline constexpr bool kTravelsAsRawBytes = std::is_trivially_copyable_v<T> && !DeclaresFields<T>;

/// \cond XENON_INTERNAL
// An actor's name inside an encoded value (a field, a vector element): its 64-bit value,
// little-endian. Schema "actor". (A name on its own is trivially copyable: raw bytes.)
template <>
struct Encoding<ActorName> {
  template <class Sink>
  static constexpr void describe(Sink& schema) {
    schema.put("actor");
  }
  static std::size_t size(const ActorName&) noexcept { return 8; }
  static void write(TypedWriter& out, const ActorName& name) { out.put_le(name.value(), 8); }
  static void read(TypedReader& in, ActorName& name) {
    name = ActorName::from_value(in.take_le(8, "actor name"));
  }
};
/// \endcond

/// A payload holding `value`: its raw bytes if kTravelsAsRawBytes<T> (as Payload::of), else
/// its typed encoding, written once into the payload's own memory. Read it back with
/// Message::decode<T>() or typed_payload_value<T>().
/// \threads Any thread.
template <class T>
Payload typed_payload(const T& value) {
  if constexpr (kTravelsAsRawBytes<T>) {
    return Payload::of(value);
  } else {
    Payload payload = Payload::for_overwrite(typed_encoded_size(value));
    typed_encode_into(value, payload.writable_bytes());
    return payload;
  }
}

/// The value typed_payload<T>() put in `bytes`. Throws std::length_error if a raw value's
/// size differs, TypedDecodeError if an encoded one cannot be decoded (typed_decode()).
/// \threads Any thread.
template <class T>
T typed_payload_value(std::span<const std::byte> bytes) {
  if constexpr (kTravelsAsRawBytes<T>) {
    if (bytes.size() != sizeof(T)) {
      throw std::length_error("payload has " + std::to_string(bytes.size()) +
                              " bytes, expected " + std::to_string(sizeof(T)));
    }
    T value;
    std::memcpy(&value, bytes.data(), sizeof(T));
    return value;
  } else {
    return typed_decode<T>(bytes);
  }
}

}  // namespace xenon
