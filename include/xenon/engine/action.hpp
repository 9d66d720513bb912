// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string_view>

namespace xenon {

/// What a message asks for. Declare actions as named constants:
///
///     inline constexpr xenon::Action ACTION_PING{"my_program.ping"};
///
/// One naming scheme throughout, the engine's own actions included: the constant is
/// ACTION_ and what it asks for in capitals; the name is the program (or area), a dot, and
/// the same words in lower case joined by hyphens ("genomics.counter.kmer-batch").
///
/// The code on the wire is the 32-bit FNV-1a hash of the name, so every node and every build
/// agrees on it without a central registry, and no magic number appears in code. Names
/// starting with "xenon." are reserved for the engine.
///
/// \threads A constant value: any thread.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class Action {
 public:
  /// An action named `name`, which must outlive it (a string literal does).
  constexpr explicit Action(std::string_view name) noexcept : name_(name), code_(hash(name)) {}

  /// The action whose code() is `code`, without a name (as a received message carries it).
  static constexpr Action from_code(std::uint32_t code) noexcept { return Action(code); }

  /// The 32-bit code that travels in messages: the FNV-1a hash of the name.
  constexpr std::uint32_t code() const noexcept { return code_; }
  /// The declared name; empty for an action rebuilt from a received code.
  constexpr std::string_view name() const noexcept { return name_; }

  /// Same code (names are not compared: a received action has none).
  friend constexpr bool operator==(Action a, Action b) noexcept { return a.code_ == b.code_; }

 private:
  constexpr explicit Action(std::uint32_t code) noexcept : code_(code) {}

  static constexpr std::uint32_t hash(std::string_view name) noexcept {
    std::uint32_t value = 2166136261u;
    for (char c : name) {
      value ^= static_cast<unsigned char>(c);
      value *= 16777619u;
    }
    return value;
  }

  std::string_view name_;
  std::uint32_t code_;
};

/// Sent by the engine to an actor's supervisor (the actor that spawned it) when the actor
/// has stopped; the message's source is the stopped actor. The payload is empty after
/// stop(), and holds the exception's message (text) when receive() threw.
inline constexpr Action ACTION_CHILD_STOPPED{"xenon.child-stopped"};

/// Sent by the engine to an actor that called Actor::request_spawn(), once the actor exists;
/// read the payload with SpawnedActor::from(message).
inline constexpr Action ACTION_SPAWNED{"xenon.spawned"};

}  // namespace xenon
