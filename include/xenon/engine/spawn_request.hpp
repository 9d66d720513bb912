// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

/// \cond XENON_INTERNAL
// Asks a node's communicator to spawn a registered actor type on one of its workers.
// Payload layout (little-endian): u64 request, u32 worker, u32 type length, u32 flags, type,
// arguments. Arguments of kArgumentsApartBytes or more for another node travel apart, as an
// ACTION_SPAWN_ARGUMENTS message just before the request (the flag kArgumentsApart, no
// arguments here): the requester's payload itself, shared, where a request holding them
// would be a copy per node (an actor that spawns one child a node with megabytes of
// arguments would hold as many copies at once).
struct SpawnRequest {
  static constexpr std::size_t kArgumentsApartBytes = 32 * 1024;  // the communicator's attachment size
  static constexpr std::uint32_t kArgumentsApart = 1;

  std::uint64_t request;
  std::uint32_t worker;
  std::string_view type;
  std::span<const std::byte> arguments;
  std::uint32_t flags = 0;

  static constexpr std::size_t kHeaderBytes = 20;

  Payload encode() const;
  // Views into bytes; throws WireFormatError if they are not a spawn request.
  static SpawnRequest decode(std::span<const std::byte> bytes);
};
/// \endcond

/// The answer to Actor::request_spawn(), sent to the requester with ACTION_SPAWNED: which
/// request, and the new actor's name (its supervisor is the requester).
/// \threads A plain value: any thread.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct SpawnedActor {
  std::uint64_t request;  ///< the number request_spawn() returned
  ActorName name;         ///< the new actor, usable at once

  /// \cond XENON_INTERNAL
  Payload encode() const;  // the engine's side: the reply's payload
  /// \endcond
  /// Reads an ACTION_SPAWNED message. Throws a std::runtime_error (the engine's
  /// WireFormatError) if the message is not such a reply.
  static SpawnedActor from(const Message& message);
};

}  // namespace xenon
