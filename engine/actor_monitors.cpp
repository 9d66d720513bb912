// SPDX-License-Identifier: BSD-3-Clause
#include "engine/actor_monitors.hpp"

#include <algorithm>
#include <utility>

namespace xenon {

bool ActorMonitors::start_watching(std::uint32_t watcher, ActorName watched) {
  return insert(watching_, watcher, watched);
}

bool ActorMonitors::stop_watching(std::uint32_t watcher, ActorName watched) {
  return erase(watching_, watcher, watched);
}

std::vector<ActorName> ActorMonitors::take_watched_by(std::uint32_t watcher) {
  return take(watching_, watcher);
}

void ActorMonitors::add_watcher(std::uint32_t watched, ActorName watcher) {
  insert(watchers_, watched, watcher);
}

void ActorMonitors::remove_watcher(std::uint32_t watched, ActorName watcher) {
  erase(watchers_, watched, watcher);
}

std::vector<ActorName> ActorMonitors::take_watchers(std::uint32_t watched) {
  return take(watchers_, watched);
}

// Lists are short (an actor watches, or is watched by, a handful): a linear search is the
// fastest set there is.
bool ActorMonitors::insert(Table& table, std::uint32_t key, ActorName name) {
  std::vector<ActorName>& names = table[key];
  if (std::find(names.begin(), names.end(), name) != names.end()) return false;
  names.push_back(name);
  return true;
}

bool ActorMonitors::erase(Table& table, std::uint32_t key, ActorName name) {
  const auto entry = table.find(key);
  if (entry == table.end()) return false;
  std::vector<ActorName>& names = entry->second;
  const auto found = std::find(names.begin(), names.end(), name);
  if (found == names.end()) return false;
  names.erase(found);
  if (names.empty()) table.erase(entry);
  return true;
}

std::vector<ActorName> ActorMonitors::take(Table& table, std::uint32_t key) {
  const auto entry = table.find(key);
  if (entry == table.end()) return {};
  std::vector<ActorName> names = std::move(entry->second);
  table.erase(entry);
  return names;
}

}  // namespace xenon
