// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/spawn_request.hpp"

#include <cstring>
#include <string>

#include "engine/wire_frame.hpp"
#include "xenon/core/byte_order.hpp"

namespace xenon {

Payload SpawnRequest::encode() const {
  Payload payload = Payload::with_size(kHeaderBytes + type.size() + arguments.size());
  std::byte* out = payload.writable_bytes().data();
  store_le64(out, request);
  store_le32(out + 8, worker);
  store_le32(out + 12, static_cast<std::uint32_t>(type.size()));
  store_le32(out + 16, flags);
  std::memcpy(out + kHeaderBytes, type.data(), type.size());
  if (!arguments.empty()) std::memcpy(out + kHeaderBytes + type.size(), arguments.data(), arguments.size());
  return payload;
}

SpawnRequest SpawnRequest::decode(std::span<const std::byte> bytes) {
  if (bytes.size() < kHeaderBytes) {
    throw WireFormatError("spawn request of " + std::to_string(bytes.size()) + " bytes is shorter than its " +
                          std::to_string(kHeaderBytes) + "-byte header");
  }
  const std::uint32_t type_length = load_le32(bytes.data() + 12);
  if (type_length > bytes.size() - kHeaderBytes) {
    throw WireFormatError("spawn request names a type of " + std::to_string(type_length) +
                          " bytes but carries " + std::to_string(bytes.size() - kHeaderBytes));
  }
  const std::uint32_t flags = load_le32(bytes.data() + 16);
  if ((flags & ~kArgumentsApart) != 0) {
    throw WireFormatError("spawn request with unknown flags " + std::to_string(flags));
  }
  const std::span<const std::byte> arguments = bytes.subspan(kHeaderBytes + type_length);
  if ((flags & kArgumentsApart) != 0 && !arguments.empty()) {
    throw WireFormatError("spawn request whose arguments travel apart carries " + std::to_string(arguments.size()) +
                          " bytes of them");
  }
  return SpawnRequest{load_le64(bytes.data()), load_le32(bytes.data() + 8),
                      std::string_view(reinterpret_cast<const char*>(bytes.data() + kHeaderBytes), type_length),
                      arguments, flags};
}

Payload SpawnedActor::encode() const {
  Payload payload = Payload::with_size(16);
  store_le64(payload.writable_bytes().data(), request);
  store_le64(payload.writable_bytes().data() + 8, name.value());
  return payload;
}

SpawnedActor SpawnedActor::from(const Message& message) {
  if (!(message.action() == ACTION_SPAWNED) || message.payload_size() != 16) {
    throw WireFormatError("not a spawn reply (ACTION_SPAWNED with 16 bytes)");
  }
  const std::byte* in = message.payload().data();
  return SpawnedActor{load_le64(in), ActorName::from_value(load_le64(in + 8))};
}

}  // namespace xenon
