// SPDX-License-Identifier: BSD-3-Clause
// Moving an actor to another node (MigratableActor::migrate): after its turn the actor's
// state is encoded by its type, sent with the type's registered name to the target node's
// communicator, which builds it there and hands it to the worker of the same index; the
// messages waiting in its mailbox follow, in order. Its name never changes.
//
// Why each guarantee holds:
//  - Order per sender, towards the moved actor. Every message to it still reaches its home
//    first (its name says so), in the order each sender sent it. The worker it left keeps a
//    forwarding entry (migrated_out_) and sends, in arrival order, the actor, its mailbox,
//    then each later arrival through the one path to the new worker: worker ->
//    communicator ring, the frames between the two nodes (put back in sequence), the
//    communicator -> worker ring. A second move leaves an entry on the second worker too:
//    the mail goes down the chain, each link a FIFO.
//  - One message at a time: the actor leaves only between turns and lives on one worker.
//  - Exact termination: a move counts as a spawn request (sent on the node it leaves,
//    received by the communicator that builds it), so the termination waves
//    (engine/communicator_termination.cpp) never end the run while an actor is on its way;
//    the node it left counts it as no longer alive only after counting the request.
//    Forwarded messages are messages like any other: nothing counts them.
//  - Memory: one entry per link of a moved actor's chain while it is alive. When it stops,
//    its notice goes back down the chain (each link forgets it); later messages are dead
//    letters, counted once, where they find no entry.
//  - What it refuses: a node that does not exist or its own; a type not registered; a
//    worker with timers, asks or monitors pending (kept by index in the worker's tables,
//    they could not follow); leaving again a worker it left before (the older link would
//    be skipped). Messages it sent before the move and after it may still pass each other
//    on their way to a receiver on another node (the frames travel from different nodes).
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/internal_actions.hpp"
#include "engine/migration_messages.hpp"
#include "engine/monitor_messages.hpp"
#include "engine/urgent_envelope.hpp"
#include "engine/worker.hpp"

namespace xenon {

void Actor::request_migration(int node) {
  worker_->check_migration(*this, node);
  migrate_to_ = node;
  stop_requested_ = true;  // ends its turn; finish_stopped() moves it instead
}

void Actor::migrate(ActorName actor, int node) {
  if (node < 0 || node >= node_count()) {
    throw std::out_of_range("migrate: node " + std::to_string(node) + " does not exist (" +
                            std::to_string(node_count()) + " nodes)");
  }
  send(actor, ACTION_MONITOR, migrate_request_payload(static_cast<std::uint32_t>(node)));
}

// Actor::migrate(name, node) reached its actor, between two of its messages: it leaves
// after this one as if it had called migrate() itself, or stays, the refusal on stderr.
void Worker::act_on_migrate_request(Actor* actor, const Message& request) {
  const auto node = static_cast<int>(migrate_request_node(request));
  try {
    if (actor->migration_state().size() == 0) {  // every typed encoding takes a byte or more
      throw std::logic_error("migrate: actor type " + actor->type_name() +
                             " is not a MigratableActor");
    }
    if (node != static_cast<int>(node_index_)) check_migration(*actor, node);
  } catch (const std::exception& refused) {
    std::ostringstream name;
    name << actor->name_;
    std::fprintf(stderr, "xenon: a request to move actor %s to node %d was refused: %s\n",
                 name.str().c_str(), node, refused.what());
    return;
  }
  if (node == static_cast<int>(node_index_)) return;  // there already
  actor->migrate_to_ = node;
  actor->stop_requested_ = true;  // ends its turn; finish_stopped() moves it
}

void Worker::check_migration(const Actor& actor, int node) const {
  if (node < 0 || static_cast<std::uint32_t>(node) >= node_count_) {
    throw std::out_of_range("migrate: node " + std::to_string(node) + " does not exist (" +
                            std::to_string(node_count_) + " nodes)");
  }
  if (static_cast<std::uint32_t>(node) == node_index_) {
    throw std::out_of_range("migrate: the actor is on node " + std::to_string(node) + " already");
  }
  if (node_.registry().name_of(typeid(actor)) == nullptr) {
    throw std::logic_error(
        "migrate: actor type " + actor.type_name() +
        " is not registered (Engine::register_actor_type): no node could build it");
  }
  if (!timers_.empty() || !asks_.empty() || !monitors_.empty()) {
    throw std::logic_error("migrate: timers, asks or monitors are pending on this worker");
  }
  if (migrated_out_.count(actor.name_.value()) != 0) {
    throw std::logic_error(
        "migrate: the actor came back to a worker it left; it may not leave it again");
  }
}

// The message leaves for another node at once: no backpressure wait, which takes in
// arrivals (and could forward a message for the moving actor ahead of its mailbox).
void Worker::to_other_node_now(const Message& message) {
  if (driven_ != nullptr) {
    driven_->route_outgoing(message);
  } else {
    outbound_.stage(outbound_.size() - 1, message.source(), message.destination(), message.action(),
                    message.payload_slot());
  }
}

void Worker::migrate_out(Actor* actor) {
  const ActorName name = actor->name_;
  const auto node = static_cast<std::uint32_t>(actor->migrate_to_);
  ActorName previous = ActorName::none();  // the link before this one, if it arrived here
  if (auto arrived = migrated_in_.find(name.value()); arrived != migrated_in_.end()) {
    previous = arrived->second.previous;
    migrated_in_.erase(arrived);
  }
  moved_in_.erase(name.value());  // moved here within the node: its home forwards here
  if (name.node() == node_index_ && name.worker() == static_cast<std::uint32_t>(index_) &&
      actor->may_move_) {
    --movable_actors_;
  }
  migrated_out_.emplace(name.value(), MigratedOut{node, previous});
  actors_[actor->slot_] = nullptr;
  enqueued_by_stopped_actors_ += actor->messages_enqueued_;

  const Payload state = actor->migration_state();
  const MigrationRequest request{name, actor->supervisor_, static_cast<std::uint32_t>(index_),
                                 *node_.registry().name_of(typeid(*actor)), state.bytes()};
  // Counted before the actor stops counting as alive here: see the head comment.
  node_.count_spawn_request_sent();
  to_other_node_now(Message(forwarding_address(node_index_, static_cast<std::uint32_t>(index_)),
                            communicator_name(node), ACTION_MIGRATE,
                            request.encode().release_slot()));
  empty_mailbox(actor, [this, name](const Message& message) { forward_now(message, name, false); });
  delete actor;
  ++counters_.actors_migrated_out;
  node_.count_stopped_actor();
}

void Worker::forward_now(const Message& message, ActorName to, bool urgent) {
  const MigratedOut& link = migrated_out_.at(to.value());
  Payload wrapped = ForwardedMessage{to, message.action(), urgent, message.payload()}.encode();
  message.payload_slot().release();
  to_other_node_now(Message(message.source(),
                            forwarding_address(link.node, static_cast<std::uint32_t>(index_)),
                            ACTION_MIGRATED_FORWARD, wrapped.release_slot()));
}

// A message for an actor that left this worker for another node: on to it. Returns false
// if it never left from here.
bool Worker::forward_to_migrated(const Message& message) {
  // An envelope has the destination of the message inside it.
  const auto link = migrated_out_.find(message.destination().value());
  if (link == migrated_out_.end()) return false;
  const bool urgent = is_urgent_envelope(message);
  const Message inner = urgent ? open_urgent_envelope(message) : message;
  if (inner.action() == ACTION_MOVED_ACTOR_STOPPED) {
    end_migration_link(inner.destination());
    return true;
  }
  Payload wrapped =
      ForwardedMessage{inner.destination(), inner.action(), urgent, inner.payload()}.encode();
  inner.payload_slot().release();
  to_communicator(outbound_.size() - 1, inner.source(),
                  forwarding_address(link->second.node, static_cast<std::uint32_t>(index_)),
                  ACTION_MIGRATED_FORWARD, wrapped.release_slot());
  return true;
}

// At this worker's forwarding address: an actor arriving, or a message for one.
void Worker::receive_at_forwarding_address(const Message& message) {
  if (message.action() == ACTION_MIGRATED_IN) {
    take_migrated_in(adopted_actor(message), message.source());
    return;
  }
  if (!(message.action() == ACTION_MIGRATED_FORWARD)) {
    dead_letter(message);
    return;
  }
  const ForwardedMessage forwarded = ForwardedMessage::decode(message.payload());
  if (auto arrived = migrated_in_.find(forwarded.to.value()); arrived != migrated_in_.end()) {
    const Message inner(message.source(), forwarded.to, forwarded.action,
                        Payload::copy_of(forwarded.payload).release_slot());
    message.payload_slot().release();
    if (forwarded.action == ACTION_MOVED_ACTOR_STOPPED) return;  // not for the actor
    MessageNode* node = pool_.allocate();
    node->message = inner;
    ++arrived_in_mailboxes_;
    if (forwarded.urgent) {
      append_urgent_to_mailbox(arrived->second.actor, node);
    } else {
      append_to_mailbox(arrived->second.actor, node);
    }
    return;
  }
  if (auto link = migrated_out_.find(forwarded.to.value()); link != migrated_out_.end()) {
    if (forwarded.action == ACTION_MOVED_ACTOR_STOPPED) {
      message.payload_slot().release();
      end_migration_link(forwarded.to);
      return;
    }
    // It left here too: down the chain, as it came.
    to_communicator(outbound_.size() - 1, message.source(),
                    forwarding_address(link->second.node, static_cast<std::uint32_t>(index_)),
                    ACTION_MIGRATED_FORWARD, message.payload_slot());
    return;
  }
  // It stopped; this was forwarded before the news: a dead letter, counted once here.
  const Message inner(message.source(), forwarded.to, forwarded.action,
                      Payload::copy_of(forwarded.payload).release_slot());
  message.payload_slot().release();
  dead_letter(inner);
}

void Worker::take_migrated_in(Actor* actor, ActorName previous) {
  seat_arriving_actor(actor, "migration");
  migrated_in_.emplace(actor->name_.value(), MigratedIn{actor, previous});
  ++counters_.actors_migrated_in;
}

// A migrated actor stopped on this worker: its notice goes back down the chain. Returns
// false if it did not arrive here by migration.
bool Worker::migrated_actor_stopped(ActorName name) {
  const auto arrived = migrated_in_.find(name.value());
  if (arrived == migrated_in_.end()) return false;
  const ActorName previous = arrived->second.previous;
  migrated_in_.erase(arrived);
  Payload notice = ForwardedMessage{name, ACTION_MOVED_ACTOR_STOPPED, false, {}}.encode();
  send(name, previous, ACTION_MIGRATED_FORWARD, notice.release_slot());
  return true;
}

// The stop notice reached a link of the chain: forget it, and pass the notice on.
void Worker::end_migration_link(ActorName name) {
  const auto link = migrated_out_.find(name.value());
  const ActorName previous = link->second.previous;
  migrated_out_.erase(link);
  if (!previous.is_none()) {
    Payload notice = ForwardedMessage{name, ACTION_MOVED_ACTOR_STOPPED, false, {}}.encode();
    send(name, previous, ACTION_MIGRATED_FORWARD, notice.release_slot());
  } else if (name.node() == node_index_ && name.worker() == static_cast<std::uint32_t>(index_)) {
    stopped_[name.index()] = true;  // its home: later messages are dead letters
  } else {
    send(name, name, ACTION_MOVED_ACTOR_STOPPED, PayloadSlot{});  // moved here within the node
  }
}

}  // namespace xenon
