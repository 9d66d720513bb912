// SPDX-License-Identifier: BSD-3-Clause
// Monitors on a worker: watches leave as ACTION_MONITOR messages to the watched actor, in
// order with the watcher's other messages to it; the watched actor's worker keeps the list
// of its watchers next to it (engine/actor_monitors.hpp) and, when it stops, sends each a
// stopped notice, which the watcher's worker turns into an ACTION_DOWN unless the watch
// was ended meanwhile. Every path that cannot reach an actor answers a watch at once with
// kDownNoSuchActor, so a watch never waits for a notice that cannot come.
#include <string>

#include "engine/monitor_messages.hpp"
#include "engine/worker.hpp"
#include "xenon/engine/monitor.hpp"

namespace xenon {

// Keyed by the actor's slot (Actor::slot_): its index on this worker, moved or not.
void Worker::watch(const Actor& watcher, ActorName watched) {
  if (!monitors_.start_watching(watcher.slot_, watched)) return;  // watched already
  send(watcher.name_, watched, ACTION_MONITOR, monitor_payload(MonitorKind::kWatch).release_slot());
}

void Worker::unwatch(const Actor& watcher, ActorName watched) {
  if (!monitors_.stop_watching(watcher.slot_, watched)) return;  // not watched
  send(watcher.name_, watched, ACTION_MONITOR, monitor_payload(MonitorKind::kUnwatch).release_slot());
}

void Worker::receive_monitor_message(Actor* actor, const Message& message, bool stopping) {
  const std::uint32_t index = actor->slot_;
  switch (monitor_kind(message)) {
    case MonitorKind::kWatch:
      monitors_.add_watcher(index, message.source());
      break;
    case MonitorKind::kUnwatch:
      monitors_.remove_watcher(index, message.source());
      break;
    case MonitorKind::kStopped:
      // Delivered only while the watch stands: one notice per watch, none after unwatch().
      if (monitors_.stop_watching(index, message.source()) && !stopping) {
        const std::string_view reason = monitor_reason(message);
        const Message down(message.source(), actor->name_, ACTION_DOWN,
                           Payload::copy_of(std::as_bytes(std::span(reason))).release_slot());
        // Freed however receive() ends.
        const Payload owner = Payload::adopt_slot(down.payload_slot());
        actor->receive(down);
      }
      break;
    case MonitorKind::kMigrate:
      if (!stopping) act_on_migrate_request(actor, message);
      break;
  }
}

void Worker::tell_monitors_of_stop(ActorName stopped, std::uint32_t slot, std::string_view reason) {
  for (const ActorName watcher : monitors_.take_watchers(slot)) {
    send(stopped, watcher, ACTION_MONITOR,
         monitor_payload(MonitorKind::kStopped, reason).release_slot());
  }
  // Its own watches end with it: the watched actors forget it.
  for (const ActorName watched : monitors_.take_watched_by(slot)) {
    send(stopped, watched, ACTION_MONITOR, monitor_payload(MonitorKind::kUnwatch).release_slot());
  }
}

void Worker::answer_monitor_dead_letter(const Message& message) {
  // After the run (discard_in_flight) nothing is sent any more; a notice to a stopped
  // watcher, or an unwatch of a stopped actor, is wanted by nobody.
  if (node_.shutting_down() || message.source().is_none() ||
      !is_watch_request(message.action(), message.payload())) {
    return;
  }
  send(message.destination(), message.source(), ACTION_MONITOR,
       monitor_payload(MonitorKind::kStopped, kDownNoSuchActor).release_slot());
}

void Worker::notify_node_left(const Message& message) {
  const std::string_view reason = node_left_reason(message);
  monitors_.forget_watches_of_node(
      node_left_node(message), [this, reason](std::uint32_t watcher, ActorName watched) {
        Actor* actor = actors_[watcher];  // alive: its entries go when it stops
        enqueue(actor, Message(watched, actor->name_, ACTION_DOWN,
                               Payload::copy_of(std::as_bytes(std::span(reason))).release_slot()));
      });
}

}  // namespace xenon
