// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "xenon/engine/actor.hpp"

namespace xenon {

/// \cond XENON_INTERNAL
// Actor types that can be spawned by name, from any node (Actor::request_spawn). Every node
// registers the same types before run(); a type is built from the request's argument bytes.
class ActorRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Actor>(std::span<const std::byte> arguments)>;

  void add(std::string type, Factory factory) {
    if (!factories_.emplace(std::move(type), std::move(factory)).second) {
      throw std::invalid_argument("actor type registered twice");
    }
  }

  std::unique_ptr<Actor> create(std::string_view type, std::span<const std::byte> arguments) const {
    auto found = factories_.find(type);
    if (found == factories_.end()) {
      throw std::runtime_error("no actor type '" + std::string(type) +
                               "' is registered on this node (Engine::register_actor_type)");
    }
    return found->second(arguments);
  }

 private:
  std::map<std::string, Factory, std::less<>> factories_;
};
/// \endcond

}  // namespace xenon
