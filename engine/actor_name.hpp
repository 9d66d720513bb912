#pragma once

#include <cstdint>
#include <compare>
#include <functional>
#include <ostream>

namespace xenon {

// An actor's name: a 64-bit value that locates the actor anywhere in the runtime, so a name
// learned on one node is valid on every node.
//
//   bits 63..44  node (process) index      up to 1,048,575 nodes
//   bits 43..32  worker index on that node up to 4,095 workers
//   bits 31..0   actor index on that worker, never reused during a run
//
// The all-ones value means "no actor".
class ActorName {
 public:
  static constexpr int kNodeBits = 20;
  static constexpr int kWorkerBits = 12;
  static constexpr int kIndexBits = 32;
  static constexpr std::uint32_t kMaxNodes = (1u << kNodeBits) - 1;
  static constexpr std::uint32_t kMaxWorkers = (1u << kWorkerBits) - 1;

  constexpr ActorName() noexcept = default;

  static constexpr ActorName make(std::uint32_t node, std::uint32_t worker,
                                  std::uint32_t index) noexcept {
    return ActorName((std::uint64_t{node} << (kWorkerBits + kIndexBits)) |
                     (std::uint64_t{worker} << kIndexBits) | index);
  }
  static constexpr ActorName from_value(std::uint64_t value) noexcept { return ActorName(value); }
  static constexpr ActorName none() noexcept { return ActorName(); }

  constexpr std::uint64_t value() const noexcept { return value_; }
  constexpr bool is_none() const noexcept { return value_ == kNone; }
  constexpr std::uint32_t node() const noexcept {
    return static_cast<std::uint32_t>(value_ >> (kWorkerBits + kIndexBits));
  }
  constexpr std::uint32_t worker() const noexcept {
    return static_cast<std::uint32_t>(value_ >> kIndexBits) & kMaxWorkers;
  }
  constexpr std::uint32_t index() const noexcept { return static_cast<std::uint32_t>(value_); }

  friend constexpr auto operator<=>(ActorName a, ActorName b) noexcept = default;

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  constexpr explicit ActorName(std::uint64_t value) noexcept : value_(value) {}
  std::uint64_t value_ = kNone;
};

inline std::ostream& operator<<(std::ostream& out, ActorName name) {
  if (name.is_none()) return out << "<none>";
  return out << name.node() << '.' << name.worker() << '.' << name.index();
}

}  // namespace xenon

template <>
struct std::hash<xenon::ActorName> {
  std::size_t operator()(xenon::ActorName name) const noexcept {
    return std::hash<std::uint64_t>()(name.value());
  }
};
