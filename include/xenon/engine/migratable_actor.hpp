// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <span>
#include <utility>

#include "xenon/core/typed_encoding.hpp"
#include "xenon/engine/actor.hpp"
#include "xenon/engine/payload.hpp"
#include "xenon/engine/typed_payload.hpp"

namespace xenon {

/// An actor that can move to another node (migrate()) with its state: a struct with a
/// declared field list (xenon::fields), so that it travels in the typed encoding. Its
/// derived type T is registered on every node (Engine::register_actor_type<T>), built from
/// the encoded state (a constructor from std::span<const std::byte> that passes the bytes
/// here), and keeps everything it must carry in state(): the rest of T is built afresh.
/// Its name never changes: messages sent to it reach it wherever it is (see README.md,
/// "Moving an actor to another node").
/// \threads As Actor.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
template <class State>
class MigratableActor : public Actor {
  static_assert(DeclaresFields<State>,
                "a MigratableActor's State declares its fields (static constexpr auto fields = "
                "xenon::fields(...)): it travels in the typed encoding");

 public:
  using Actor::migrate;  // migrate(name, node): any actor may ask another to move
  /// Starts with `state` (spawned on its first node).
  explicit MigratableActor(State state) : state_(std::move(state)) {}
  /// From the typed encoding of a State: how the new node builds it (and how it may be
  /// spawned by request_spawn()). Throws TypedDecodeError if the bytes are not one.
  explicit MigratableActor(std::span<const std::byte> encoded_state)
      : state_(typed_payload_value<State>(encoded_state)) {}

 protected:
  /// What travels with it when it moves: everything else is built afresh on the new node.
  State& state() noexcept { return state_; }
  /// \copydoc state()
  const State& state() const noexcept { return state_; }

  /// Moves this actor to node `node` once the current receive() returns: its state and the
  /// messages waiting for it travel there, and every message sent to its name afterwards
  /// follows it. Throws std::out_of_range if `node` does not exist or is this node, and
  /// std::logic_error if its type is not registered here or its worker has timers, asks or
  /// monitors pending (their entries could not follow it): thrown from receive(), either
  /// stops the actor as a failure. \threads Inside receive().
  void migrate(int node) { request_migration(node); }

 private:
  Payload migration_state() const final { return typed_payload(state_); }

  State state_;
};

}  // namespace xenon
