// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "xenon/engine/actor_name.hpp"

namespace xenon {

// The watch lists of one worker's actors, by actor index (the worker knows its own node and
// worker): for each actor, who watches it (the watched side keeps that list, next to the
// actor, so a stop needs no question to anyone) and what it watches (so that a notice that
// crossed an unwatch is dropped, and so that the watched hear when the watcher stops).
//
// Touched by the worker's thread only: no locks. An actor that watches nothing and is
// watched by nobody has no entry: it costs one lookup in these tables when it stops, and
// nothing per message.
class ActorMonitors {
 public:
  // ---- The watcher's side ----
  // Records that `watcher` watches `watched`; false if it already did (a watch is a set
  // entry: watching twice still gives one notice).
  bool start_watching(std::uint32_t watcher, ActorName watched);
  // Forgets that watch; false if there was none.
  bool stop_watching(std::uint32_t watcher, ActorName watched);
  // Everything `watcher` watches, forgotten (it stopped).
  std::vector<ActorName> take_watched_by(std::uint32_t watcher);
  // Forgets every watch of an actor on `node`, calling visit(watcher, watched) for each.
  template <class Visit>
  void forget_watches_of_node(std::uint32_t node, Visit visit);

  // ---- The watched actor's side ----
  void add_watcher(std::uint32_t watched, ActorName watcher);
  void remove_watcher(std::uint32_t watched, ActorName watcher);
  // Who watches `watched`, forgotten (it stopped).
  std::vector<ActorName> take_watchers(std::uint32_t watched);

  bool empty() const noexcept { return watching_.empty() && watchers_.empty(); }

 private:
  using Table = std::unordered_map<std::uint32_t, std::vector<ActorName>>;
  static bool insert(Table& table, std::uint32_t key, ActorName name);
  static bool erase(Table& table, std::uint32_t key, ActorName name);
  static std::vector<ActorName> take(Table& table, std::uint32_t key);

  Table watching_;  // by watcher index: the actors it watches
  Table watchers_;  // by watched index: the actors watching it
};

template <class Visit>
void ActorMonitors::forget_watches_of_node(std::uint32_t node, Visit visit) {
  for (auto entry = watching_.begin(); entry != watching_.end();) {
    std::vector<ActorName>& watched = entry->second;
    for (auto name = watched.begin(); name != watched.end();) {
      if (name->node() == node) {
        visit(entry->first, *name);
        name = watched.erase(name);
      } else {
        ++name;
      }
    }
    entry = watched.empty() ? watching_.erase(entry) : std::next(entry);
  }
}

}  // namespace xenon
