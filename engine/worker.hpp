// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/cache_line.hpp"
#include "core/parker.hpp"
#include "engine/actor.hpp"
#include "engine/message.hpp"
#include "engine/message_pool.hpp"
#include "engine/outbound_channel.hpp"

namespace xenon {

class Engine;
class Communicator;

// Counts one worker keeps while it runs; read after its thread has joined.
struct WorkerCounters {
  std::uint64_t messages_received = 0;  // receive() calls
  std::uint64_t messages_to_other_workers = 0;
  std::uint64_t messages_to_other_nodes = 0;
  std::uint64_t dead_letters = 0;  // to stopped or never-spawned actors
  std::uint64_t actors_spawned = 0;
  std::uint64_t actors_stopped = 0;
  std::uint64_t parks = 0;
  std::uint64_t held_for_adoption = 0;  // arrived before the actor they were sent to
  std::uint64_t actors_failed = 0;      // stopped by an exception escaping receive()
  std::uint64_t overflow_peak = 0;      // most messages waiting for room in one ring
  std::uint64_t backpressure_waits = 0; // times a sender waited for a consumer
  std::uint64_t pooled_message_nodes = 0;  // mailbox nodes allocated (never shrinks)
};

// A worker thread and the actors that live on it.
//
// Everything here is touched only by the worker's own thread, except: reserve_index()
// (any thread spawning onto this worker), the parker (any producer waking us), and the
// rings, whose two ends belong to one producer and one consumer thread each.
//
// Loop: take inbound messages in batches from every inbound ring into actor mailboxes, run
// ready actors (many messages per turn), publish what they sent to other workers and to the
// communicator in batches, and back off (spin, yield, park) when there is nothing to do.
// With -threads-per-node 1 the only worker also drives the communicator.
class Worker {
 public:
  Worker(Engine& engine, int index);
  ~Worker();

  int index() const noexcept { return index_; }
  Engine& engine() noexcept { return engine_; }
  Parker& parker() noexcept { return parker_; }

  // Wiring, before any thread runs. Channel worker_count() leads to the communicator.
  void add_inbound(MessageRing* ring) { inbound_.push_back(ring); }
  void connect_outbound(int channel, MessageRing* ring, Parker* consumer);
  // With one thread per node: this worker runs the communicator between its rounds, and
  // messages pass between them by direct calls instead of rings (same thread).
  void drive_communicator(Communicator* communicator) { driven_ = communicator; }

  // Thread body; returns when the engine shuts down.
  void run();

  // From an actor running on this worker.
  void send(ActorName from, ActorName to, Action action, const PayloadSlot& payload);
  ActorName spawn(std::unique_ptr<Actor> child, ActorName supervisor, int target_worker);
  std::uint64_t request_spawn(ActorName requester, int node, int worker, std::string_view type,
                              Payload arguments);

  // From the communicator this worker drives: a message for one of our actors, and whether
  // it should take more (a frame can hold thousands of messages, more than a round runs:
  // past kArrivalBacklog waiting messages, frames wait in the transport instead).
  void deliver_from_driven_communicator(const Message& message) { deliver_local(message); }
  bool has_room_for_arrivals() const noexcept { return pool_.nodes_in_use() < kArrivalBacklog; }

  // Any thread: reserves the next actor index on this worker.
  std::uint32_t reserve_index() noexcept {
    // Relaxed: an index only has to be unique. Whoever later routes a message with this
    // index learned the name through a chain of messages that started after this increment
    // (rings are release/acquire), so its load in deliver_to_absent() sees the increment.
    return next_index_.fetch_add(1, std::memory_order_relaxed);
  }

  // Before threads start: places an actor directly.
  void adopt(Actor* actor);

  // After every thread has joined, on every worker publish_after_stop() and then
  // discard_in_flight(): nothing is delivered any more; what was left in flight is counted
  // as dead letters and freed.
  void publish_after_stop();
  void discard_in_flight();

  const WorkerCounters& counters() const noexcept {
    counters_.pooled_message_nodes = pool_.allocated_nodes();
    return counters_;
  }

 private:
  void deliver_local(const Message& message);
  void to_communicator(std::size_t channel, ActorName from, ActorName to, Action action,
                       const PayloadSlot& payload);
  void wait_for_sends();
  void deliver_to_absent(const Message& message);
  void enqueue(Actor* actor, const Message& message);
  void append_to_mailbox(Actor* actor, MessageNode* node) noexcept;
  // Everything send() does not do inline: other workers, other nodes, absent actors.
  [[gnu::noinline]] void send_elsewhere(ActorName from, ActorName to, Action action,
                                        const PayloadSlot& payload);
  void stage(std::size_t channel, ActorName from, ActorName to, Action action,
             const PayloadSlot& payload);
  bool drain_inbound();
  bool run_ready_actors();
  void flush_outbound();
  bool has_visible_inbound();
  void finish_stopped(Actor* actor);
  void fail_actor(Actor* actor, const std::string& reason);
  void wait_for_room(OutboundChannel& outbound);
  void dead_letter(const Message& message);
  void idle(IdleBackoff& backoff);

  // Ready queue: an intrusive FIFO through Actor::next_ready_.
  void push_ready(Actor* actor) noexcept;
  Actor* pop_ready() noexcept;

  Engine& engine_;
  const int index_;
  const std::uint32_t node_;
  const std::uint32_t node_count_;
  Communicator* driven_ = nullptr;  // the communicator this worker drives, if any

  std::vector<Actor*> actors_;  // by index; nullptr: not yet adopted or stopped
  std::vector<bool> stopped_;   // by index
  std::unordered_map<std::uint32_t, std::vector<Message>> waiting_for_adoption_;
  Actor* ready_head_ = nullptr;
  Actor* ready_tail_ = nullptr;
  MessagePool pool_;

  std::vector<MessageRing*> inbound_;
  std::vector<OutboundChannel> outbound_;  // by destination worker, then the communicator
  std::vector<bool> dirty_;                // by channel: staged or overflowing messages
  std::vector<std::size_t> dirty_channels_;
  std::uint64_t next_spawn_request_ = 0;
  std::string failure_reason_;  // of the actor being stopped by fail_actor()

  // Messages a sender may have waiting for room in one ring before send() waits (4 MiB).
  static constexpr std::size_t kOverflowLimit = 64 * 1024;
  // Frames and attachments a driving worker lets the transport hold before its actors wait.
  static constexpr std::size_t kSendsInFlightLimit = 256;
  // Messages waiting in the mailboxes above which a driving worker takes no more frames.
  static constexpr std::size_t kArrivalBacklog = 4096;

  mutable WorkerCounters counters_;

  // Written by other threads: kept off the lines the worker writes on every message.
  alignas(kCacheLineSize) std::atomic<std::uint32_t> next_index_{0};
  alignas(kCacheLineSize) Parker parker_;
};

// The message path's fast case, inline: a live actor on this very worker.
inline void Worker::send(ActorName from, ActorName to, Action action,
                         const PayloadSlot& payload) {
  if (to.node() == node_ && to.worker() == static_cast<std::uint32_t>(index_)) {
    const std::uint32_t index = to.index();
    if (index < actors_.size()) {
      if (Actor* actor = actors_[index]; actor != nullptr) {
        MessageNode* node = pool_.allocate();
        node->message.assign(from, to, action, payload);
        append_to_mailbox(actor, node);
        return;
      }
    }
  }
  send_elsewhere(from, to, action, payload);
}

inline void Worker::append_to_mailbox(Actor* actor, MessageNode* node) noexcept {
  actor->mailbox_.append(node);
  if (!actor->scheduled_) {
    actor->scheduled_ = true;
    push_ready(actor);
  }
}

inline void Worker::push_ready(Actor* actor) noexcept {
  actor->next_ready_ = nullptr;
  if (ready_tail_ == nullptr) {
    ready_head_ = actor;
  } else {
    ready_tail_->next_ready_ = actor;
  }
  ready_tail_ = actor;
}

}  // namespace xenon
