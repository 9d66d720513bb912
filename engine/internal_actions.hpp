#pragma once

#include "engine/action.hpp"
#include "engine/actor_name.hpp"

namespace xenon {

// Actions the engine sends to itself; never seen by actors.

// Worker to worker: carries a spawned actor (an Actor pointer) to the worker hosting it.
inline constexpr Action kActionAdopt{"xenon.adopt"};
// To a node's communicator: spawn a registered actor type there (see SpawnRequest).
inline constexpr Action kActionSpawnRequest{"xenon.spawn-request"};
// Between communicators, for termination detection (see engine/communicator.hpp).
inline constexpr Action kActionNodeIdle{"xenon.node-idle"};
inline constexpr Action kActionWaveQuery{"xenon.wave-query"};
inline constexpr Action kActionWaveAnswer{"xenon.wave-answer"};
inline constexpr Action kActionTerminate{"xenon.terminate"};

// The worker index that addresses a node's communicator instead of a worker.
inline constexpr std::uint32_t kCommunicatorWorker = ActorName::kMaxWorkers;

inline constexpr ActorName communicator_name(std::uint32_t node) {
  return ActorName::make(node, kCommunicatorWorker, 0);
}

}  // namespace xenon
