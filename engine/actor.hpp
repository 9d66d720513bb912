#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/action.hpp"
#include "engine/actor_name.hpp"
#include "engine/message.hpp"
#include "engine/payload.hpp"

namespace xenon {

class Worker;
struct MessageNode;

// Base class of every actor. Derive, implement receive(), and spawn it through the engine
// or from another actor; the engine owns it from then on and deletes it after it stops.
//
// Threading contract: an actor lives on one worker thread, and receive() and every member
// below are called only from that thread, one message at a time. Messages from one sender
// to one receiver arrive in the order they were sent.
class Actor {
 public:
  Actor() = default;
  virtual ~Actor() = default;
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;

  virtual void receive(const Message& message) = 0;

  ActorName self() const noexcept { return name_; }
  // The actor that spawned this one; none() for actors spawned by the program.
  ActorName supervisor() const noexcept { return supervisor_; }

 protected:
  void send(ActorName to, Action action) { send_slot(to, action, PayloadSlot{}); }
  void send(ActorName to, Action action, Payload payload) {
    send_slot(to, action, payload.release_slot());
  }
  void send(ActorName to, Action action, std::span<const std::byte> bytes) {
    send(to, action, Payload::copy_of(bytes));
  }
  template <class T>
  void send_value(ActorName to, Action action, const T& value) {
    send(to, action, Payload::of(value));
  }
  void reply(const Message& request, Action action) { send(request.source(), action); }
  void reply(const Message& request, Action action, Payload payload) {
    send(request.source(), action, std::move(payload));
  }

  // Spawns a child on this actor's worker (best locality) or on a given worker of this node.
  // The name is usable at once: messages sent to it wait until the child exists.
  template <class T, class... Args>
  ActorName spawn(Args&&... args) {
    return spawn_on<T>(worker_index(), std::forward<Args>(args)...);
  }
  template <class T, class... Args>
  ActorName spawn_on(int worker, Args&&... args) {
    static_assert(std::is_base_of_v<Actor, T>, "spawned types derive from xenon::Actor");
    return spawn_child(std::make_unique<T>(std::forward<Args>(args)...), worker);
  }

  // Asks node `node` to spawn an actor of a type registered there by name
  // (Engine::register_actor_type), built from `arguments`, on its worker `worker`. Returns a
  // request number; the new actor's name arrives in an ACTION_SPAWNED message (read it with
  // SpawnedActor::from). This actor becomes the new actor's supervisor.
  std::uint64_t request_spawn(int node, int worker, std::string_view type, Payload arguments = {});

  // Stops this actor once the current receive() returns. Messages still in its mailbox are
  // counted as dead letters; the supervisor receives ACTION_CHILD_STOPPED.
  void stop() noexcept { stop_requested_ = true; }

  int worker_index() const noexcept { return static_cast<int>(name_.worker()); }
  int worker_count() const noexcept;
  int node_index() const noexcept { return static_cast<int>(name_.node()); }
  int node_count() const noexcept;

 private:
  friend class Worker;
  friend class Engine;
  friend class Communicator;

  void send_slot(ActorName to, Action action, const PayloadSlot& payload);
  ActorName spawn_child(std::unique_ptr<Actor> child, int worker);

  Worker* worker_ = nullptr;
  ActorName name_;
  ActorName supervisor_;
  // Mailbox: an intrusive FIFO of message nodes owned by this actor's worker.
  MessageNode* mailbox_head_ = nullptr;
  MessageNode* mailbox_tail_ = nullptr;
  Actor* next_ready_ = nullptr;  // link in the worker's ready queue
  bool scheduled_ = false;       // in the ready queue or running
  bool stop_requested_ = false;
};

}  // namespace xenon
