// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The messages that move an actor to another node and carry its mail after it
// (engine/worker_migration.cpp). Every worker has a forwarding address, an actor index no
// actor gets: a migrating actor arrives there, and messages for it are forwarded there
// wrapped with the name they were sent to.

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "engine/wire_frame.hpp"
#include "xenon/core/byte_order.hpp"
#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

// Worker to the target node's communicator: a migrating actor (MigrationRequest).
inline constexpr Action ACTION_MIGRATE{"xenon.migrate"};
// Communicator to worker, at its forwarding address: the built actor (adopt_payload), its
// source the forwarding address of the worker it left (where its stop notice goes).
inline constexpr Action ACTION_MIGRATED_IN{"xenon.migrated-in"};
// Worker to a worker's forwarding address: a message for a migrated actor (ForwardedMessage).
inline constexpr Action ACTION_MIGRATED_FORWARD{"xenon.migrated-forward"};

// Above every actor index (they stay below kReplyAddressBit) and below kNoActorIndex.
inline constexpr std::uint32_t kForwardingIndex = ~std::uint32_t{0} - 1;

inline constexpr ActorName forwarding_address(std::uint32_t node, std::uint32_t worker) {
  return ActorName::make(node, worker, kForwardingIndex);
}

// Layout (little-endian): u64 name, u64 supervisor, u32 worker, u32 type length, type, state.
struct MigrationRequest {
  ActorName name;  // kept: messages to it still reach its home first
  ActorName supervisor;
  std::uint32_t worker;   // on the target node
  std::string_view type;  // as registered (Engine::register_actor_type)
  std::span<const std::byte> state;

  Payload encode() const {
    Payload payload = Payload::with_size(24 + type.size() + state.size());
    std::byte* out = payload.writable_bytes().data();
    store_le64(out, name.value());
    store_le64(out + 8, supervisor.value());
    store_le32(out + 16, worker);
    store_le32(out + 20, static_cast<std::uint32_t>(type.size()));
    std::memcpy(out + 24, type.data(), type.size());
    if (!state.empty()) std::memcpy(out + 24 + type.size(), state.data(), state.size());
    return payload;
  }

  static MigrationRequest decode(std::span<const std::byte> bytes) {
    if (bytes.size() < 24) throw WireFormatError("migration request shorter than its header");
    const std::uint32_t type_length = load_le32(bytes.data() + 20);
    if (type_length > bytes.size() - 24) {
      throw WireFormatError("migration request names a type longer than its bytes");
    }
    return MigrationRequest{
        ActorName::from_value(load_le64(bytes.data())),
        ActorName::from_value(load_le64(bytes.data() + 8)), load_le32(bytes.data() + 16),
        std::string_view(reinterpret_cast<const char*>(bytes.data() + 24), type_length),
        bytes.subspan(24 + type_length)};
  }
};

// Layout (little-endian): u64 the name it was sent to, u32 its action, u32 1 if urgent,
// then its payload.
struct ForwardedMessage {
  static constexpr std::size_t kHeaderBytes = 16;
  ActorName to;
  Action action;
  bool urgent;
  std::span<const std::byte> payload;

  Payload encode() const {
    Payload wrapped = Payload::with_size(kHeaderBytes + payload.size());
    std::byte* out = wrapped.writable_bytes().data();
    store_le64(out, to.value());
    store_le32(out + 8, action.code());
    store_le32(out + 12, urgent ? 1 : 0);
    if (!payload.empty()) std::memcpy(out + kHeaderBytes, payload.data(), payload.size());
    return wrapped;
  }

  static ForwardedMessage decode(std::span<const std::byte> bytes) {
    if (bytes.size() < kHeaderBytes)
      throw WireFormatError("forwarded message shorter than its header");
    return ForwardedMessage{ActorName::from_value(load_le64(bytes.data())),
                            Action::from_code(load_le32(bytes.data() + 8)),
                            load_le32(bytes.data() + 12) != 0, bytes.subspan(kHeaderBytes)};
  }
};

// A migrated actor's stop notice on its way back along the chain: engine-internal, so not
// a dead letter when the run ends before it arrives.
inline bool is_migration_stop_notice(Action action, std::span<const std::byte> payload) noexcept {
  return action == ACTION_MIGRATED_FORWARD && payload.size() >= ForwardedMessage::kHeaderBytes &&
         load_le32(payload.data() + 8) == Action{"xenon.moved-actor-stopped"}.code();
}

}  // namespace xenon
