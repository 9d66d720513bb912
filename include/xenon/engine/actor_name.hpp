// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <compare>
#include <functional>
#include <ostream>

namespace xenon {

/// An actor's name: a 64-bit value that locates the actor anywhere in the runtime, so a name
/// learned on one node is valid on every node.
///
///     bits 63..44  node (process) index      up to 1,048,575 nodes
///     bits 43..32  worker index on that node up to 4,095 workers
///     bits 31..0   actor index on that worker, never reused during a run
///
/// The all-ones value means "no actor". Send a name in a payload as value() and rebuild it
/// with from_value(). Names are ordered, printable (`node.worker.index`) and hashable
/// (`std::hash<xenon::ActorName>`).
///
/// \threads A plain value: any thread.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class ActorName {
 public:
  static constexpr int kNodeBits = 20;    ///< Bits of the node index.
  static constexpr int kWorkerBits = 12;  ///< Bits of the worker index.
  static constexpr int kIndexBits = 32;   ///< Bits of the actor index.
  /// Most nodes a runtime can have (all-ones in the node bits is "no actor").
  static constexpr std::uint32_t kMaxNodes = (1u << kNodeBits) - 1;
  /// Most workers a node can have.
  static constexpr std::uint32_t kMaxWorkers = (1u << kWorkerBits) - 1;

  /// "No actor", as none().
  constexpr ActorName() noexcept = default;

  /// The name of actor `index` on worker `worker` of node `node` (each within its bits).
  static constexpr ActorName make(std::uint32_t node, std::uint32_t worker,
                                  std::uint32_t index) noexcept {
    return ActorName((std::uint64_t{node} << (kWorkerBits + kIndexBits)) |
                     (std::uint64_t{worker} << kIndexBits) | index);
  }
  /// The name whose value() is `value`.
  static constexpr ActorName from_value(std::uint64_t value) noexcept { return ActorName(value); }
  /// "No actor": the source of messages from outside the actors, the supervisor of actors
  /// the program spawned.
  static constexpr ActorName none() noexcept { return ActorName(); }

  /// The 64-bit encoding, the same on every node.
  constexpr std::uint64_t value() const noexcept { return value_; }
  /// Whether this is none().
  constexpr bool is_none() const noexcept { return value_ == kNone; }
  /// The node (process) the actor lives on.
  constexpr std::uint32_t node() const noexcept {
    return static_cast<std::uint32_t>(value_ >> (kWorkerBits + kIndexBits));
  }
  /// The worker of that node the actor lives on.
  constexpr std::uint32_t worker() const noexcept {
    return static_cast<std::uint32_t>(value_ >> kIndexBits) & kMaxWorkers;
  }
  /// The actor's index on that worker.
  constexpr std::uint32_t index() const noexcept { return static_cast<std::uint32_t>(value_); }

  /// Names compare as their values (node, then worker, then index).
  friend constexpr auto operator<=>(ActorName a, ActorName b) noexcept = default;

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  constexpr explicit ActorName(std::uint64_t value) noexcept : value_(value) {}
  std::uint64_t value_ = kNone;
};

/// Writes "node.worker.index", or "<none>".
inline std::ostream& operator<<(std::ostream& out, ActorName name) {
  if (name.is_none()) return out << "<none>";
  return out << name.node() << '.' << name.worker() << '.' << name.index();
}

}  // namespace xenon

// Hashes an ActorName by its value(), for unordered containers (documented with ActorName;
// Doxygen cannot place a specialisation in std).
/// \cond XENON_INTERNAL
template <>
struct std::hash<xenon::ActorName> {
  std::size_t operator()(xenon::ActorName name) const noexcept {
    return std::hash<std::uint64_t>()(name.value());
  }
};
/// \endcond
