// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>

#include "xenon/engine/actor.hpp"

namespace xenon {

/// \cond XENON_INTERNAL
// Actor types that can be spawned by name, from any node (Actor::request_spawn). Every node
// registers the same types before run(); a type is built from the request's argument bytes.
class ActorRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Actor>(std::span<const std::byte> arguments)>;

  // `cpp_type` lets a migrating actor find the name its new node builds it by.
  void add(std::string type, Factory factory, const std::type_info& cpp_type) {
    if (!factories_.emplace(type, std::move(factory)).second) {
      throw std::invalid_argument("actor type registered twice");
    }
    names_.emplace(std::type_index(cpp_type), std::move(type));
  }

  // The name `cpp_type` was registered under, or nullptr if it was not.
  const std::string* name_of(const std::type_info& cpp_type) const {
    auto found = names_.find(std::type_index(cpp_type));
    return found == names_.end() ? nullptr : &found->second;
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
  std::map<std::type_index, std::string> names_;
};
/// \endcond

}  // namespace xenon
