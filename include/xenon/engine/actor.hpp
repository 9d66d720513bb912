// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <memory>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"
#include "xenon/engine/ask.hpp"
#include "xenon/engine/mailbox.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/payload.hpp"
#include "xenon/engine/timer.hpp"

namespace xenon {

class Worker;

/// Base class of every actor. Derive, implement receive(), and spawn it through the engine
/// or from another actor; the engine owns it from then on and deletes it after it stops.
///
/// Threading contract: an actor lives on one worker thread, and receive() and every member
/// below are called only from that thread, one message at a time: the protected members from
/// within receive() only, never from a thread of the program's own. Messages from one sender
/// to one receiver arrive in the order they were sent.
///
/// The constructor runs on the spawner's thread (the caller of Engine::spawn, the parent's
/// worker, or for request_spawn() the target node's communication thread, its worker 0 with
/// -threads-per-node 1), before the actor has a name: self(), send() and the other members
/// work from the first receive() on. The destructor runs on the actor's worker once it has
/// stopped, or in ~Engine for an actor still alive then (run() failed or was never called).
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class Actor {
 public:
  Actor() = default;
  virtual ~Actor() = default;
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;

  /// Handles one message. `message` and its payload are valid only until receive() returns;
  /// keep a payload beyond that with Message::share_payload(). An exception escaping
  /// receive() stops this actor: it is reported on stderr, and the supervisor's
  /// ACTION_CHILD_STOPPED carries its what() text; the run goes on.
  /// \threads Called by the engine on this actor's worker thread.
  virtual void receive(const Message& message) = 0;

  /// This actor's name, valid on every node. \threads From receive() on.
  ActorName self() const noexcept { return name_; }
  /// The actor that spawned this one; none() for actors spawned by the program.
  /// \threads From receive() on.
  ActorName supervisor() const noexcept { return supervisor_; }

  /// The name of this actor's type in EngineStatistics::actor_types and the report: by
  /// default its demangled C++ type; override it to rename or to group types under one
  /// name. Asked once per C++ type and worker (the first actor of the type to stop, or
  /// after run()), so it should depend on the type alone.
  /// \threads Called by the engine on this actor's worker, or after run().
  virtual std::string type_name() const;

 protected:
  /// \name Sending
  //!@{

  /// Sends `action` to `to` with no payload, an owned Payload (moved into the message, never
  /// copied per hop), or a copy of `bytes`. Delivered exactly once, in order per
  /// sender/receiver pair; a message to a stopped or never-spawned actor is counted as a
  /// dead letter (EngineStatistics::dead_letters).
  /// Past 64 Ki messages waiting on this worker, send() first runs this worker's other
  /// ready actors until half are left (see README, "Backpressure on one worker").
  /// \threads Inside receive(). Returns at once unless it must wait for a consumer: once
  /// this worker is 64 Ki messages ahead of another worker or of the communication thread,
  /// or (with -threads-per-node 1) once over 256 sends to other nodes are unfinished, it
  /// waits here until half have been taken. It keeps taking in its own messages meanwhile,
  /// so two actors flooding each other do not deadlock.
  void send(ActorName to, Action action) { send_slot(to, action, PayloadSlot{}); }
  void send(ActorName to, Action action, Payload payload) {
    send_slot(to, action, payload.release_slot());
  }
  void send(ActorName to, Action action, std::span<const std::byte> bytes) {
    send(to, action, Payload::copy_of(bytes));
  }
  /// Sends a copy of a trivially copyable `value` (Payload::of), read back with
  /// Message::payload_as<T>(). \threads Inside receive(); may wait as send() does.
  template <class T>
  void send_value(ActorName to, Action action, const T& value) {
    send(to, action, Payload::of(value));
  }

  /// Sends `action` to `to` as urgent: it is received before the normal messages waiting in
  /// the receiver's mailbox when it arrives there (messages already taken, or still on
  /// their way in a ring or frame, are not overtaken), behind the urgent ones. Order is
  /// kept within each priority per sender/receiver pair, and an urgent message is never
  /// overtaken by a normal one sent after it by the same sender. Overloads as send().
  /// \threads Inside receive(); may wait as send() does. Cost: as send() to an actor on
  /// this worker; to another worker or node, one heap block (the message travels in it).
  void send_urgent(ActorName to, Action action) { send_urgent_slot(to, action, PayloadSlot{}); }
  void send_urgent(ActorName to, Action action, Payload payload) {
    send_urgent_slot(to, action, payload.release_slot());
  }
  void send_urgent(ActorName to, Action action, std::span<const std::byte> bytes) {
    send_urgent(to, action, Payload::copy_of(bytes));
  }

  /// Sends `value` of any encodable type: strings, vectors, maps, optionals, structs with
  /// a declared field list (xenon::fields), or a trivially copyable value as raw bytes; the
  /// path is chosen at compile time (kTravelsAsRawBytes). Read back with
  /// Message::decode<T>(). \threads Inside receive(); may wait as send() does.
  template <class T>
  void send_typed(ActorName to, Action action, const T& value) {
    send(to, action, typed_payload(value));
  }
  //!@}

  /// Hands on now what this worker has sent to other nodes and still holds, before a long
  /// computation in this turn. A message for another node otherwise waits for the end of the
  /// worker's round (to share a frame), but for those of the round's first turn that sends
  /// off the node; so one sent in a later turn, or in this turn before the long work, would
  /// keep the other nodes waiting through it (README, "How a message flows"). Costs a
  /// frame's send per node it holds messages for; nothing when it holds none.
  /// \threads Inside receive().
  void hand_on_sent_messages();

  /// \name Replying
  //!@{

  /// Sends to `request.source()`. A message sent by Engine::send() has no source: a reply
  /// to it is a dead letter. \threads Inside receive(); may wait as send() does.
  void reply(const Message& request, Action action) { send(request.source(), action); }
  void reply(const Message& request, Action action, Payload payload) {
    send(request.source(), action, std::move(payload));
  }
  /// Sends `value` to `request.source()`, as send_typed() does.
  template <class T>
  void reply_typed(const Message& request, Action action, const T& value) {
    send(request.source(), action, typed_payload(value));
  }
  //!@}

  /// \name Timers
  //!@{

  /// Sends `action` (and `payload`) to `to`, from this actor, once `delay` has passed
  /// (send_after) or every `period` from one period on (send_every), until cancelled or this
  /// actor stops; see TimerId for termination. Fires on this worker, not before its time
  /// (and at most about 1 ms late on an idle worker); its message is then an ordinary send,
  /// in order with this actor's other sends. A periodic payload is shared by its messages
  /// (read-only). send_every throws std::invalid_argument unless `period` is positive.
  /// \threads Inside receive().
  TimerId send_after(TimerDuration delay, ActorName to, Action action, Payload payload = {});
  TimerId send_every(TimerDuration period, ActorName to, Action action, Payload payload = {});
  /// Cancels a timer of this actor's (set by it, or by the program with it as the target):
  /// true if it was pending, and then it never sends again; false if it had fired (a
  /// one-shot), was cancelled already, or is not this actor's.
  /// \threads Inside receive().
  bool cancel_timer(TimerId timer) noexcept;
  //!@}

  /// \name Asking
  //!@{

  /// Sends a request to `to` and returns its number (see ask_request()). The responder
  /// answers with reply(): the request's source is a reply address for this one request,
  /// not this actor's name. The answer, or ACTION_ASK_TIMEOUT once `timeout` has passed
  /// without one, comes exactly once: to `then` if given, else to receive(). A response
  /// after that is dropped and counted (EngineStatistics::late_responses), as are the
  /// responses to an actor that stopped. Throws std::invalid_argument unless `timeout` is
  /// positive. \threads Inside receive(); may wait as send() does.
  std::uint64_t ask(ActorName to, Action action, Payload payload, TimerDuration timeout,
                    AskContinuation then = {});
  //!@}

  /// \name Spawning children
  //!@{

  /// Spawns a child on this actor's worker (best locality) or on a given worker of this node.
  /// The name is usable at once: messages sent to it wait until the child exists. This actor
  /// is its supervisor. Throws std::out_of_range if `worker` does not exist on this node.
  /// A child of spawn() may later move to an idle worker of this node (load balancing,
  /// EngineOptions::balance); one placed with spawn_on() stays on `worker` unless it calls
  /// allow_moving(). Its name stays valid either way.
  /// \threads Inside receive(). T is built from `args` here, on this thread; a child for
  /// another worker travels there in a message, so this may wait as send() does.
  template <class T, class... Args>
  ActorName spawn(Args&&... args) {
    static_assert(std::is_base_of_v<Actor, T>, "spawned types derive from xenon::Actor");
    return spawn_child(std::make_unique<T>(std::forward<Args>(args)...), worker_index(), true);
  }
  template <class T, class... Args>
  ActorName spawn_on(int worker, Args&&... args) {
    static_assert(std::is_base_of_v<Actor, T>, "spawned types derive from xenon::Actor");
    return spawn_child(std::make_unique<T>(std::forward<Args>(args)...), worker, false);
  }
  /// Asks node `node` to spawn an actor of a type registered there by name
  /// (Engine::register_actor_type), built from `arguments`, on its worker `worker`. Returns a
  /// request number; the new actor's name arrives in an ACTION_SPAWNED message (read it with
  /// SpawnedActor::from). This actor becomes the new actor's supervisor. Throws
  /// std::out_of_range if `node` does not exist or `worker` is not below this node's worker
  /// count; a type not registered on the target node fails that node's Engine::run().
  /// \threads Inside receive(); the request is a message, so this may wait as send() does.
  std::uint64_t request_spawn(int node, int worker, std::string_view type, Payload arguments = {});
  //!@}

  /// Stops this actor once the current receive() returns. Messages still in its mailbox are
  /// counted as dead letters; the supervisor receives ACTION_CHILD_STOPPED. It wins over a
  /// MigratableActor::migrate() in the same receive(). \threads Inside receive().
  void stop() noexcept {
    stop_requested_ = true;
    migrate_to_ = -1;
  }
  /// Stops like stop(), and gives `reason` (a short text) to the actors watching this one:
  /// their ACTION_DOWN carries it instead of kDownNormal. \threads Inside receive().
  void stop(std::string_view reason);

  /// Marks the start of a phase of the program (such as "counting"): it lasts until the
  /// next phase begins on this node, end_phase(), or the end of the run, and shows in the
  /// trace (--trace) and the report (--report) with its time. \threads Inside receive().
  void begin_phase(std::string_view name);
  /// Ends the open phase, if any. \threads Inside receive().
  void end_phase();
  /// Lets load balancing move this actor to an idle worker of its node even though it was
  /// placed on a worker by name (spawn_on(), Engine::spawn(), request_spawn()); children of
  /// spawn() may move without it. A move keeps every guarantee (its name, the order of
  /// messages per sender, one message at a time). \threads In the constructor.
  void allow_moving() noexcept { may_move_ = true; }

  /// Asks `actor` (a MigratableActor, on any node) to move to node `node`: a message to it,
  /// in order with this actor's others; it leaves after the messages before it, as if it
  /// had called MigratableActor::migrate(). A refusal (not a MigratableActor, or what
  /// migrate() refuses) is a line on stderr, and the actor stays; a request to an actor that
  /// is there already, or has stopped, does nothing. Throws std::out_of_range if `node` does
  /// not exist. \threads Inside receive(); may wait as send() does.
  void migrate(ActorName actor, int node);

  /// \name Watching other actors (monitors)
  //!@{

  /// Watches `actor`, on any node: when it stops, this actor receives one ACTION_DOWN
  /// (DownNotice::from) with its name and why it stopped. A name that is not an actor when
  /// the watch reaches it (stopped, never spawned) gives a notice at once, with the reason
  /// kDownNoSuchActor. Watching an actor already watched changes nothing. The watch travels
  /// as a message to `actor`, in order with this actor's other messages to it.
  /// \threads Inside receive(); may wait as send() does.
  void watch(ActorName actor);
  /// Ends a watch: no notice of `actor`'s stop reaches receive() after this call, even one
  /// already on its way. Does nothing if `actor` is not watched.
  /// \threads Inside receive(); may wait as send() does.
  void unwatch(ActorName actor);
  //!@}

  /// The worker this actor runs on now, 0 to worker_count() - 1: the worker its name
  /// names, unless load balancing moved it. \threads From receive() on.
  int worker_index() const noexcept;
  /// How many workers this node has (EngineOptions::worker_count()). \threads From receive() on.
  int worker_count() const noexcept;
  /// This actor's node (process), 0 to node_count() - 1. \threads From receive() on.
  int node_index() const noexcept { return static_cast<int>(node_); }
  /// How many nodes the runtime has (mpiexec's process count, else 1).
  /// \threads From receive() on.
  int node_count() const noexcept;

 private:
  friend class Worker;
  friend class NodeContext;  // places (names) it
  template <class State>
  friend class MigratableActor;  // the only kind that may ask to move across nodes

  // Across nodes (MigratableActor::migrate, engine/worker_migration.cpp): asks to leave for
  // `node` after this receive(); throws (failing this actor) if the move is refused.
  void request_migration(int node);
  // The state a MigratableActor carries to its new node, in the typed encoding.
  virtual Payload migration_state() const { return {}; }

  void send_slot(ActorName to, Action action, const PayloadSlot& payload);
  void send_urgent_slot(ActorName to, Action action, const PayloadSlot& payload);
  ActorName spawn_child(std::unique_ptr<Actor> child, int worker, bool may_move);

  Worker* worker_ = nullptr;
  ActorName name_;
  ActorName supervisor_;
  Mailbox mailbox_;              // touched by this actor's worker only
  Actor* next_ready_ = nullptr;  // link in the worker's ready queue
  bool scheduled_ = false;       // in the ready queue or running
  bool stop_requested_ = false;
  // Observation (run_observation.hpp): messages appended to the mailbox and handed to
  // receive(); their difference at the start of a turn is the mailbox's depth.
  std::uint64_t messages_enqueued_ = 0;
  std::uint64_t messages_handled_ = 0;
  std::uint64_t mailbox_high_water_ = 0;
  bool may_move_ = false;        // load balancing may move it (engine/worker_balancing.cpp)
  int migrate_to_ = -1;          // the node it asked to move to (request_migration), or -1
  std::uint32_t node_ = 0;       // the node it lives on: name_.node() unless it migrated
  // Its index in its worker's tables (actors, timers, asks, monitors): name_.index() on
  // the worker its name names, another index on a worker it moved to.
  std::uint32_t slot_ = 0;
};

}  // namespace xenon
