// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The payloads of the monitors' engine-internal messages (ACTION_MONITOR, ACTION_NODE_LEFT
// in engine/internal_actions.hpp). They travel between nodes like any payload, so every
// field is bytes or little-endian.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "engine/internal_actions.hpp"
#include "engine/wire_frame.hpp"
#include "xenon/core/byte_order.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/monitor.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

// An ACTION_MONITOR message, from the watcher to the watched actor (watch, unwatch) or back
// (stopped, followed by the reason). Its first byte says which.
// kMigrate is not a monitor: Actor::migrate(name, node), which the actor's worker acts on
// between messages like a watch (u32 node follows); it rides here so that receiving it
// costs the turn loop no test of its own.
enum class MonitorKind : std::uint8_t { kWatch = 1, kUnwatch = 2, kStopped = 3, kMigrate = 4 };

inline Payload monitor_payload(MonitorKind kind, std::string_view reason = {}) {
  Payload payload = Payload::for_overwrite(1 + reason.size());
  std::span<std::byte> bytes = payload.writable_bytes();
  bytes[0] = static_cast<std::byte>(kind);
  if (!reason.empty()) std::memcpy(bytes.data() + 1, reason.data(), reason.size());
  return payload;
}

// The kind of an ACTION_MONITOR message; throws WireFormatError for bytes that are none.
inline MonitorKind monitor_kind(const Message& message) {
  const std::span<const std::byte> bytes = message.payload();
  if (bytes.empty() || bytes[0] < std::byte{1} || bytes[0] > std::byte{4}) {
    throw WireFormatError("malformed monitor message (" + std::to_string(bytes.size()) + " bytes)");
  }
  return static_cast<MonitorKind>(bytes[0]);
}

// Whether a message is a watch, without throwing on malformed bytes: for the dead-letter
// paths, which answer a watch of no actor with a notice at once.
inline bool is_watch_request(Action action, std::span<const std::byte> payload) noexcept {
  return action == ACTION_MONITOR && !payload.empty() &&
         payload[0] == static_cast<std::byte>(MonitorKind::kWatch);
}

// The reason a kStopped message carries.
inline std::string_view monitor_reason(const Message& message) {
  const std::span<const std::byte> bytes = message.payload().subspan(1);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A kMigrate message: the node the actor is asked to move to.
inline Payload migrate_request_payload(std::uint32_t node) {
  Payload payload = Payload::for_overwrite(5);
  std::span<std::byte> bytes = payload.writable_bytes();
  bytes[0] = static_cast<std::byte>(MonitorKind::kMigrate);
  store_le32(bytes.data() + 1, node);
  return payload;
}
inline std::uint32_t migrate_request_node(const Message& message) {
  if (message.payload_size() != 5) throw WireFormatError("a migrate request must carry 5 bytes");
  return load_le32(message.payload().data() + 1);
}

// ACTION_NODE_LEFT, from the communicator to each of its node's workers: u32 node, then the
// reason the watchers of its actors get.
inline Payload node_left_payload(std::uint32_t node, std::string_view reason) {
  Payload payload = Payload::for_overwrite(4 + reason.size());
  std::span<std::byte> bytes = payload.writable_bytes();
  store_le32(bytes.data(), node);
  if (!reason.empty()) std::memcpy(bytes.data() + 4, reason.data(), reason.size());
  return payload;
}
inline std::uint32_t node_left_node(const Message& message) {
  return load_le32(message.payload().data());
}
inline std::string_view node_left_reason(const Message& message) {
  const std::span<const std::byte> bytes = message.payload().subspan(4);
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace xenon
