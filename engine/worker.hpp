// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "core/parker.hpp"
#include "engine/actor_monitors.hpp"
#include "engine/busy_timeline.hpp"
#include "engine/driven_mode.hpp"
#include "engine/message_pool.hpp"
#include "engine/node_context.hpp"
#include "engine/outbound_set.hpp"
#include "engine/pending_asks.hpp"
#include "engine/span_ring.hpp"
#include "engine/timer_queue.hpp"
#include "xenon/core/cache_line.hpp"
#include "xenon/engine/actor.hpp"
#include "xenon/engine/message.hpp"
#include "xenon/engine/run_observation.hpp"

namespace xenon {

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
  std::uint64_t timers_fired = 0;          // timer messages sent and ask timeouts
  std::uint64_t timers_cancelled = 0;      // by their owner's stop or the end of the run
  std::uint64_t late_responses = 0;        // to asks already answered, timed out or stopped
  std::uint64_t mailbox_reliefs = 0;  // times send() ran this worker's actors first (full mailboxes)
  std::uint64_t parked_nanoseconds = 0;   // asleep in Parker::park()
  std::uint64_t run_nanoseconds = 0;      // from the start of run() to its end
  std::uint64_t actors_moved_out = 0;  // handed to an idle worker (load balancing)
  std::uint64_t actors_moved_in = 0;   // taken from a busy worker
  std::uint64_t actors_migrated_out = 0;  // sent to another node (engine/worker_migration.cpp)
  std::uint64_t actors_migrated_in = 0;   // arrived from another node
};

// A worker thread and the actors that live on it.
//
// Everything here is touched only by the worker's own thread, except the parker (any
// producer waking us) and the rings, whose two ends belong to one producer and one consumer
// thread each. It knows the rest of the node only through its NodeContext (and, in the
// one-thread mode, the DrivenCommunicator it runs).
//
// Loop (run_until_shutdown, engine/idle_loop.hpp): take inbound messages in batches from
// every inbound ring into actor mailboxes, run ready actors (many messages per turn),
// publish what they sent to other workers and to the communicator in batches, and back off
// (spin, yield, park) when there is nothing to do. With -threads-per-node 1 the only worker
// also drives the communicator.
class Worker final : public DrivingWorker {
 public:
  Worker(NodeContext& node, int index);
  ~Worker();

  int index() const noexcept { return index_; }
  // Actor::hand_on_sent_messages(): what is staged goes now, without the first-turn rule's
  // bookkeeping (a turn that calls it before sending off the node still hands those on).
  void hand_on_sent_messages();
  NodeContext& node() noexcept { return node_; }
  Parker& parker() noexcept { return parker_; }

  // Wiring, before any thread runs. Channel worker_count() leads to the communicator.
  void add_inbound(MessageRing* ring) { inbound_.push_back(ring); }
  void connect_outbound(int channel, MessageRing* ring, Parker* consumer) {
    outbound_.connect(static_cast<std::size_t>(channel), ring, consumer);
  }
  // With one thread per node: this worker runs the communicator between its rounds, and
  // messages pass between them by direct calls instead of rings (same thread).
  void drive_communicator(DrivenCommunicator* communicator) { driven_ = communicator; }

  // Thread body; returns when the engine shuts down.
  void run();

  // From an actor running on this worker.
  void send(ActorName from, ActorName to, Action action, const PayloadSlot& payload);
  // The same, received before the normal messages waiting (engine/urgent_send.cpp).
  void send_urgent(ActorName from, ActorName to, Action action, const PayloadSlot& payload);
  ActorName spawn(std::unique_ptr<Actor> child, ActorName supervisor, int target_worker);
  std::uint64_t request_spawn(ActorName requester, int node, int worker, std::string_view type,
                              Payload arguments);

  // Monitors (engine/worker_monitors.cpp), from an actor running on this worker.
  void watch(const Actor& watcher, ActorName watched);
  void unwatch(const Actor& watcher, ActorName watched);
  // The reason the running actor gives with Actor::stop(reason), for its watchers.
  void set_stop_reason(std::string_view reason) { stop_reason_ = reason; }
  // Timers and asks (engine/worker_timers.cpp), from an actor on this worker or, before
  // the threads start, from the program (owned by their target).
  TimerId set_timer(std::uint32_t owner, ActorName from, ActorName to, Action action,
                    const PayloadSlot& payload, TimerDuration delay, TimerDuration period);
  bool cancel_timer(std::uint32_t owner, TimerId timer) noexcept {
    return timers_.cancel(timer, owner);
  }
  std::uint64_t ask(const Actor& asker, ActorName to, Action action, const PayloadSlot& payload,
                    TimerDuration timeout, AskContinuation then);

  // DrivingWorker: from the communicator this worker drives, a message for one of our
  // actors, and whether it should take more (past kArrivalBacklog waiting messages, frames
  // wait in the transport instead).
  // Its queue time is sampled from here (the sender's clock is another node's).
  void deliver_arrival(const Message& message) override {
    MessageNode* node = deliver_local(message);
    if (--arrivals_until_sample_ == 0) [[unlikely]] sample_arrival(node);
  }
  bool has_room_for_arrivals() const noexcept override {
    return pool_.nodes_in_use() < kArrivalBacklog;
  }

  // Takes in an actor that NodeContext::place() named for this worker: on this worker's
  // thread, or before the threads start.
  void adopt(Actor* actor);

  // After every thread has joined, on every worker publish_after_stop() and then
  // discard_in_flight(): nothing is delivered any more; what was left in flight is counted
  // as dead letters and freed.
  void publish_after_stop();
  void discard_in_flight();

  // Before the threads start: where this worker's busy timeline begins (Engine::run()).
  void start_busy_timeline(MonotonicClock::time_point origin) noexcept {
    busy_.start_at(origin);
    busy_cpu_.start_at(origin);
  }
  // Time spent in actors' receive(); read after the thread joined.
  const BusyTimeline& busy_timeline() const noexcept { return busy_; }
  // CPU time of this thread over the same rounds, in the same buckets
  // (EngineOptions::measure_busy_cpu; else empty); read after the thread joined.
  const BusyTimeline& busy_cpu_timeline() const noexcept { return busy_cpu_; }

  // With -trace, before the threads start: keep this worker's busy spans.
  void keep_spans() { spans_ = std::make_unique<SpanRing>(); }
  const SpanRing* spans() const noexcept { return spans_.get(); }
  // After the thread joined: what run_observation.hpp describes, for this worker.
  WorkerObservation observation() const;
  // After the thread joined: the actor types that lived here (stopped and still alive).
  std::vector<ActorTypeObservation> actor_types() const;

  const WorkerCounters& counters() const noexcept {
    counters_.pooled_message_nodes = pool_.allocated_nodes();
    return counters_;
  }

  // The hooks of run_until_shutdown() (engine/idle_loop.hpp).
  bool run_round();
  bool wait_without_parking();
  bool has_visible_work();

 private:
  // The mailbox node the message went into, or nullptr (not for a live actor here).
  MessageNode* deliver_local(const Message& message);
  void to_communicator(std::size_t channel, ActorName from, ActorName to, Action action,
                       const PayloadSlot& payload);
  void wait_for_sends();
  void release_off_node_messages();
  void deliver_to_absent(const Message& message);
  MessageNode* enqueue(Actor* actor, const Message& message);
  Actor* live_local_actor(ActorName to) const noexcept;
  void append_to_mailbox(Actor* actor, MessageNode* node) noexcept;
  void append_urgent_to_mailbox(Actor* actor, MessageNode* node) noexcept;
  // Everything send() does not do inline: other workers, other nodes, absent actors.
  [[gnu::noinline]] void send_elsewhere(ActorName from, ActorName to, Action action,
                                        const PayloadSlot& payload);
  void stage(std::size_t channel, ActorName from, ActorName to, Action action,
             const PayloadSlot& payload);
  bool drain_inbound();
  bool run_ready_actors();
  // An actor's turn; with kTimeFirst (the first turn of a round, run_timed_turn()), the
  // time from `round_began` to the end of its first receive() goes to receive_time_.
  template <bool kTimeFirst = false>
  [[gnu::always_inline]] unsigned run_turn(Actor* actor, MonotonicClock::time_point round_began = {});
  unsigned run_turn_for_relief(Actor* actor);  // run_turn(), not inlined, for relieve_mailboxes()
  [[gnu::noinline]] unsigned run_timed_turn(Actor* actor, MonotonicClock::time_point round_began);
  // Queue time (engine/queue_time_sample.cpp): one sampled message in flight at a time.
  // A message sent at `sent_at` now waits in `node`, unless another sample is pending.
  void begin_queue_time_sample(MessageNode* node, MonotonicClock::time_point sent_at) noexcept;
  // Once per round with no sample pending: the round's first same-worker send is sampled.
  void arm_same_worker_sample() noexcept;
  // send() and send_urgent() past relief_threshold_: the armed sample, then relief if due.
  [[gnu::noinline]] void past_relief_threshold(MessageNode* node);
  // The same for send(), whose node is the newest in `actor`'s mailbox.
  [[gnu::noinline]] void past_relief_threshold_after_send(Actor* actor);
  // An arrival from another node handed over by the driven communicator, 1 in 64.
  [[gnu::noinline]] void sample_arrival(MessageNode* node) noexcept;
  // A message from an inbound ring, stamped by its producer at `sent_at_nanoseconds`.
  [[gnu::noinline]] void begin_ring_sample(MessageNode* node, std::uint64_t sent_at_nanoseconds) noexcept;
  // The sampled node reached run_turn(): record its time and unmark it.
  [[gnu::noinline]] void end_queue_time_sample() noexcept;
  // A node about to be freed without a receive (its actor stopped, the run ended): unmark
  // it first, so that what reads it sees the message as sent, and a reused node never
  // gives a false time.
  void forget_queue_time_sample(MessageNode* node) noexcept {
    if (node == sampled_node_) [[unlikely]] unmark_sampled_node();
  }
  // Takes every message out of `actor`'s mailbox without a receive (it stopped, moved or
  // migrated): each, unmarked if it was the queue-time sample, goes to `take`, then its
  // node back to the pool. Every such emptying goes through here, so none can leave a
  // marked destination behind.
  template <class Take>
  void empty_mailbox(Actor* actor, Take&& take) {
    actor->mailbox_.drain([&](MessageNode* node) {
      forget_queue_time_sample(node);
      take(node->message);
      pool_.free(node);
    });
  }
  void unmark_sampled_node() noexcept;
  struct ActorTypeRecord {
    const std::type_info* type;
    ActorTypeObservation seen;
  };
  void record_actor_type(const Actor& actor, std::vector<ActorTypeRecord>& into) const;
  // Backpressure on this worker's own mailboxes (engine/mailbox_backpressure.cpp).
  [[gnu::noinline]] void relieve_mailboxes();
  void finish_stopped(Actor* actor);
  void fail_actor(Actor* actor, const std::string& reason);
  void wait_for_room(OutboundChannel& outbound);
  void dead_letter(const Message& message);
  // Monitors (engine/worker_monitors.cpp): an ACTION_MONITOR message reaching `actor`
  // (a stopped notice becomes an ACTION_DOWN for receive() unless `stopping`), the
  // notices and unwatches of an actor that stopped, an ACTION_MONITOR that reached no
  // actor, and the notices for the actors of a node that left the job.
  void receive_monitor_message(Actor* actor, const Message& message, bool stopping);
  void tell_monitors_of_stop(ActorName stopped, std::uint32_t slot, std::string_view reason);
  void answer_monitor_dead_letter(const Message& message);
  void notify_node_left(const Message& message);
  // Timers and asks (engine/worker_timers.cpp): none of it runs unless one is set.
  bool fire_due_timers(bool busy);
  void sleep_until_next_timer();
  void answer_arrived(const Message& answer);
  void ask_timed_out(std::uint64_t request);
  void run_answer(Actor* actor, const Message& answer);
  void end_timers_and_asks_of(const Actor& actor) noexcept;

  // Load balancing (engine/worker_balancing.cpp): the idle side raises a request after
  // kIdleRoundsBeforeAsking empty rounds; the busy side, between turns, hands ready actors
  // over; moved actors' messages are forwarded from their home, and taken in here.
  void note_round_for_balancing(bool busy) noexcept;
  void offer_actors();
  bool may_hand_over(const Actor& actor) const noexcept;
  void hand_over(Actor* actor, int taker);
  MessageNode* deliver_to_moved_in(const Message& message);
  void seat_arriving_actor(Actor* actor, std::string_view mechanism);
  void take_moved_in(Actor* actor);
  bool forward_to_moved(const Message& message);
  void forget_moved_actor(const Message& notice);

  // Moving actors across nodes (engine/worker_migration.cpp).
 public:
  void check_migration(const Actor& actor, int node) const;  // throws if refused

 private:
  void act_on_migrate_request(Actor* actor, const Message& request);
  void migrate_out(Actor* actor);
  void to_other_node_now(const Message& message);
  void forward_now(const Message& message, ActorName to, bool urgent);
  bool forward_to_migrated(const Message& message);
  void receive_at_forwarding_address(const Message& message);
  void take_migrated_in(Actor* actor, ActorName previous);
  bool migrated_actor_stopped(ActorName name);
  void end_migration_link(ActorName name);

  // Ready queue: an intrusive FIFO through Actor::next_ready_.
  void push_ready(Actor* actor) noexcept;
  Actor* pop_ready() noexcept;

  NodeContext& node_;
  const int index_;
  const std::uint32_t node_index_;
  const std::uint32_t node_count_;
  DrivenCommunicator* driven_ = nullptr;  // the communicator this worker drives, if any
  // The round's first turn that sends to another node hands those messages on when it ends
  // (release_off_node_messages()); later turns' wait for the end of the round.
  bool release_off_node_after_turn_ = false;
  bool off_node_released_this_round_ = false;

  std::vector<Actor*> actors_;  // by index; nullptr: not yet adopted or stopped
  std::vector<bool> stopped_;   // by index
  std::unordered_map<std::uint32_t, std::vector<Message>> waiting_for_adoption_;
  Actor* ready_head_ = nullptr;
  Actor* ready_tail_ = nullptr;
  MessagePool pool_;

  std::vector<MessageRing*> inbound_;
  OutboundSet outbound_;  // by destination worker, then the communicator
  std::uint64_t next_spawn_request_ = 0;
  std::string failure_reason_;  // of the actor being stopped by fail_actor()
  std::optional<std::string> stop_reason_;  // given by the running actor to stop(reason)
  ActorMonitors monitors_;
  TimerQueue timers_;
  PendingAsks asks_;
  TimerDuration timer_sleep_{0};  // the idle sleep while timers are pending (grows)

  // Messages a sender may have waiting for room in one ring before send() waits (4 MiB).
  static constexpr std::size_t kOverflowLimit = 64 * 1024;
  // Frames and attachments a driving worker lets the transport hold before its actors wait.
  static constexpr std::size_t kSendsInFlightLimit = 256;
  // Messages waiting in the mailboxes above which a driving worker takes no more frames.
  static constexpr std::size_t kArrivalBacklog = 4096;
  // Messages waiting in this worker's mailboxes above which send() runs ready actors first
  // (4.5 MiB of nodes); see engine/mailbox_backpressure.cpp.
  static constexpr std::size_t kMailboxLimit = 64 * 1024;
  // Relief runs actors inside send(), which may send and relieve again: at most this deep.
  static constexpr unsigned kMaxReliefDepth = 8;
  std::size_t relief_threshold_ = kMailboxLimit;  // raised while messages cannot be relieved
  // How deep relief is nested; kMaxReliefDepth (no relief) until run(): Engine::send()
  // before run() must not run actors, least of all on the program's thread.
  unsigned relief_depth_ = kMaxReliefDepth;

  // Load balancing; see engine/worker_balancing.cpp.
  bool balancing_ = false;            // NodeContext::balancing(), read in run()
  unsigned idle_rounds_ = 0;          // empty rounds in a row
  bool asked_for_work_ = false;       // raised a request since the last busy round
  std::size_t movable_actors_ = 0;    // ours, alive here, that may move (Actor::may_move_)
  unsigned turns_before_offer_ = 0;   // after an offer that gave nothing: turns to wait
  unsigned offer_backoff_ = 0;        // the next such wait: doubles while offers fail
  std::unordered_map<std::uint32_t, int> moved_out_;         // our index -> its worker now
  std::unordered_map<std::uint64_t, Actor*> moved_in_;       // by name: actors living here
  std::vector<int> takers_;                                  // scratch of offer_actors()
  std::vector<Message> handed_messages_;                     // scratch of hand_over()
  // Across nodes: by name, where an actor that left this worker went (and the forwarding
  // address of the link before, if it arrived by migration), and the actors that arrived.
  struct MigratedOut {
    std::uint32_t node;
    ActorName previous;
  };
  struct MigratedIn {
    Actor* actor;
    ActorName previous;
  };
  std::unordered_map<std::uint64_t, MigratedOut> migrated_out_;
  std::unordered_map<std::uint64_t, MigratedIn> migrated_in_;

  mutable WorkerCounters counters_;
  BusyTimeline busy_;
  bool measuring_busy_cpu_ = false;  // set in run() from the node's setting
  BusyTimeline busy_cpu_;
  DurationHistogram receive_time_;
  MonotonicClock::time_point first_receive_ended_{};  // when a round's timed receive() returned
  // Arrivals from other nodes (driven communicator) left until the next is sampled.
  static constexpr std::uint32_t kArrivalSampleInterval = 64;
  std::uint32_t arrivals_until_sample_ = kArrivalSampleInterval;
  bool same_worker_sample_armed_ = false;  // relief_threshold_ is 0 meanwhile
  // The mailbox node of the sampled message in flight (nullptr: none), when it was sent,
  // and its true destination (the node's copy carries the reply-address bit meanwhile).
  MessageNode* sampled_node_ = nullptr;
  MonotonicClock::time_point sampled_sent_at_{};
  ActorName sampled_destination_;
  DurationHistogram queue_time_;
  std::vector<ActorTypeRecord> stopped_actor_types_;  // few types: a linear search
  std::unique_ptr<SpanRing> spans_;  // with -trace only
  std::vector<std::uint64_t> sent_to_worker_;  // by worker, other than this one
  // Messages from other threads put into this worker's mailboxes, and the enqueued counts
  // of actors that stopped: what this worker enqueued itself is the difference (the
  // same-worker send needs no counter of its own).
  std::uint64_t arrived_in_mailboxes_ = 0;
  std::uint64_t enqueued_by_stopped_actors_ = 0;

  // Written by other threads: kept off the lines the worker writes on every message.
  alignas(kCacheLineSize) Parker parker_;
};

// The live actor `to` names if it is on this very worker, else nullptr.
inline Actor* Worker::live_local_actor(ActorName to) const noexcept {
  if (to.node() != node_index_ || to.worker() != static_cast<std::uint32_t>(index_)) return nullptr;
  const std::uint32_t index = to.index();
  return index < actors_.size() ? actors_[index] : nullptr;
}

// The message path's fast case, inline: a live actor on this very worker.
inline void Worker::send(ActorName from, ActorName to, Action action,
                         const PayloadSlot& payload) {
  if (Actor* actor = live_local_actor(to); actor != nullptr) {
    MessageNode* node = pool_.allocate();
    node->message.assign(from, to, action, payload);
    append_to_mailbox(actor, node);
    // Over the threshold: relief, or (threshold 0) this send is a queue-time sample. The
    // actor, not the node, is passed: the node kept for the call cost a register save, 2
    // instructions per message (callgrind).
    if (pool_.nodes_in_use() > relief_threshold_) [[unlikely]] past_relief_threshold_after_send(actor);
    return;
  }
  send_elsewhere(from, to, action, payload);
}

inline void Worker::append_to_mailbox(Actor* actor, MessageNode* node) noexcept {
  actor->mailbox_.append(node);
  ++actor->messages_enqueued_;
  if (!actor->scheduled_) {
    actor->scheduled_ = true;
    push_ready(actor);
  }
}

inline void Worker::append_urgent_to_mailbox(Actor* actor, MessageNode* node) noexcept {
  actor->mailbox_.append_urgent(node);
  ++actor->messages_enqueued_;
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
