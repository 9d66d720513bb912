// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstring>

#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/payload.hpp"

namespace xenon {

// Actions the engine sends to itself; never seen by actors.

// Worker to worker: carries a spawned actor (an Actor pointer) to the worker hosting it.
inline constexpr Action ACTION_ADOPT{"xenon.adopt"};
class Actor;

// The payload of an adopt message: the actor's address, by value.
inline PayloadSlot adopt_payload(Actor* actor) noexcept {
  PayloadSlot slot;
  slot.size = sizeof(Actor*);
  std::memcpy(slot.bytes, &actor, sizeof(Actor*));
  return slot;
}
inline Actor* adopted_actor(const Message& adopt) noexcept {
  Actor* actor;
  std::memcpy(&actor, adopt.payload().data(), sizeof(Actor*));
  return actor;
}

// To a node's communicator: spawn a registered actor type there (see SpawnRequest).
// Load balancing (engine/worker_balancing.cpp): an actor handed to another worker of its
// node, addressed to its own name and carried (as adopt_payload) inside an urgent
// envelope, so that nothing later in the ring's lanes overtakes it; and the notice its new
// worker sends to its name when it stops there, so that its home stops forwarding.
inline constexpr Action ACTION_MOVE_IN{"xenon.move-in"};
inline constexpr Action ACTION_MOVED_ACTOR_STOPPED{"xenon.moved-actor-stopped"};

inline constexpr Action ACTION_SPAWN_REQUEST{"xenon.spawn-request"};
// To another node's communicator, just before the spawn request they belong to: large
// spawn arguments, apart (SpawnRequest::kArgumentsApart).
inline constexpr Action ACTION_SPAWN_ARGUMENTS{"xenon.spawn-arguments"};
// Between communicators, for termination detection (see engine/communicator.hpp).
inline constexpr Action ACTION_NODE_IDLE{"xenon.node-idle"};
inline constexpr Action ACTION_WAVE_QUERY{"xenon.wave-query"};
inline constexpr Action ACTION_WAVE_ANSWER{"xenon.wave-answer"};
inline constexpr Action ACTION_TERMINATE{"xenon.terminate"};
// Between communicators: "this node still runs" (see engine/communicator_heartbeat.cpp).
inline constexpr Action ACTION_HEARTBEAT{"xenon.heartbeat"};

// Monitors (engine/monitor_messages.hpp): actor to actor, a watch, an unwatch or a stop
// notice that the watcher's worker filters before it becomes an ACTION_DOWN; communicator
// to worker, "this node left the job".
inline constexpr Action ACTION_MONITOR{"xenon.monitor"};
inline constexpr Action ACTION_NODE_LEFT{"xenon.node-left"};

// The worker index that addresses a node's communicator instead of a worker.
inline constexpr std::uint32_t kCommunicatorWorker = ActorName::kMaxWorkers;

// The actor index that addresses a worker itself (ACTION_NODE_LEFT): never given to an actor.
inline constexpr std::uint32_t kNoActorIndex = ~std::uint32_t{0};

inline constexpr ActorName communicator_name(std::uint32_t node) {
  return ActorName::make(node, kCommunicatorWorker, 0);
}

}  // namespace xenon
