// SPDX-License-Identifier: BSD-3-Clause
#include "engine/worker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>
#include <typeinfo>

#include "engine/idle_loop.hpp"
#include "engine/internal_actions.hpp"
#include "engine/migration_messages.hpp"
#include "xenon/engine/monitor.hpp"
#include "engine/urgent_envelope.hpp"
#include "xenon/engine/spawn_request.hpp"

namespace xenon {
namespace {

// Messages one actor may handle per turn before the next ready actor gets the worker.
constexpr unsigned kMessagesPerTurn = 64;
// Messages a worker handles between two looks at its inbound rings and two flushes.
constexpr std::size_t kMessagesPerRound = 256;
// Items taken from one inbound ring per look.
constexpr std::size_t kInboundBatch = 256;

}  // namespace

Worker::Worker(NodeContext& node, int index)
    : node_(node),
      index_(index),
      node_index_(node.node_index()),
      node_count_(node.node_count()),
      outbound_(static_cast<std::size_t>(node.worker_count()) + 1),
      sent_to_worker_(static_cast<std::size_t>(node.worker_count()), 0) {}

Worker::~Worker() {
  for (Actor* actor : actors_) delete actor;
}

void Worker::run() {
  relief_depth_ = 0;
  balancing_ = node_.balancing();
  measuring_busy_cpu_ = node_.measuring_busy_cpu();
  const MonotonicClock::time_point began = MonotonicClock::now();
  run_until_shutdown(node_, parker_, *this, counters_.parks, counters_.parked_nanoseconds);
  counters_.run_nanoseconds = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(MonotonicClock::now() - began).count());
}

bool Worker::run_round() {
  bool busy = drain_inbound();
  if (!timers_.empty()) [[unlikely]] busy = fire_due_timers(busy);
  busy |= run_ready_actors();
  outbound_.flush();
  if (driven_ != nullptr) busy |= driven_->progress(has_room_for_arrivals());
  if (balancing_) note_round_for_balancing(busy);
  return busy;
}

bool Worker::wait_without_parking() {
  // Messages we could not hand over yet: keep retrying, but politely.
  if (outbound_.has_unpublished()) {
    std::this_thread::yield();
    return true;
  }
  // Driving a transport whose frames arrive unannounced: poll, sleeping briefly between.
  if (driven_ != nullptr && driven_->must_poll()) {
    driven_->sleep_between_polls();
    return true;
  }
  // A timer is pending: parking has no deadline, so sleep in short steps instead.
  if (!timers_.empty()) {
    sleep_until_next_timer();
    return true;
  }
  return false;
}

bool Worker::has_visible_work() {
  for (MessageRing* ring : inbound_) {
    if (!ring->empty_for_consumer()) return true;
  }
  return false;
}

bool Worker::drain_inbound() {
  bool any = false;
  for (MessageRing* ring : inbound_) {
    // Every 64th ring position carries its send time: a queue-time sample, if none waits.
    any |= ring->consume(
               [this](const Message& message, const std::uint64_t* sent_at) {
                 MessageNode* node = deliver_local(message);
                 if (sent_at != nullptr && node != nullptr) [[unlikely]] begin_ring_sample(node, *sent_at);
               },
               kInboundBatch) > 0;
  }
  return any;
}

void Worker::send_elsewhere(ActorName from, ActorName to, Action action,
                            const PayloadSlot& payload) {
  const std::uint32_t worker = to.worker();
  const std::size_t communicator = outbound_.size() - 1;
  if (to.node() == node_index_) {
    if (worker == static_cast<std::uint32_t>(index_)) {
      deliver_to_absent(Message(from, to, action, payload));
    } else if (worker < communicator) {
      ++counters_.messages_to_other_workers;
      ++sent_to_worker_[worker];
      stage(worker, from, to, action, payload);
    } else if (worker == kCommunicatorWorker) {
      to_communicator(communicator, from, to, action, payload);
    } else {
      dead_letter(Message(from, to, action, payload));  // no such worker: never valid here
    }
  } else if (to.node() < node_count_ && !to.is_none()) {
    ++counters_.messages_to_other_nodes;
    to_communicator(communicator, from, to, action, payload);
  } else {
    dead_letter(Message(from, to, action, payload));  // no such node
  }
}

void Worker::to_communicator(std::size_t channel, ActorName from, ActorName to, Action action,
                             const PayloadSlot& payload) {
  if (!off_node_released_this_round_) release_off_node_after_turn_ = true;
  if (driven_ != nullptr) {
    driven_->route_outgoing(Message(from, to, action, payload));  // same thread: no ring
    if (driven_->sends_in_flight() > kSendsInFlightLimit) wait_for_sends();
  } else {
    stage(channel, from, to, action, payload);
  }
}

// A message for another node waits for the end of the round, to share a frame with others.
// When the round's next turn is long (a store that scans its whole table, with this node's
// only worker), the other nodes would wait for that turn too, idle: on two processes that
// made half of a phase serial. So the first turn of a round that sends off the node hands
// its messages on at once; later turns' messages wait for the end of the round, so a
// flood of small messages still fills frames (at most one more frame per round).
void Worker::release_off_node_messages() {
  release_off_node_after_turn_ = false;
  off_node_released_this_round_ = true;
  if (driven_ != nullptr) {
    driven_->send_waiting_frames();
  } else {
    outbound_.flush();  // the communication thread takes them now
  }
}

void Worker::hand_on_sent_messages() {
  if (driven_ != nullptr) {
    driven_->send_waiting_frames();
  } else {
    outbound_.flush();
  }
}

// Backpressure towards the network, for a worker that drives the communicator: an actor
// that sends faster than the frames leave waits, inside send(), until half of them have
// left. The communicator keeps receiving meanwhile (into mailboxes), so two nodes flooding
// each other both progress.
void Worker::wait_for_sends() {
  ++counters_.backpressure_waits;
  IdleBackoff backoff;
  while (driven_->sends_in_flight() > kSendsInFlightLimit / 2 && !node_.shutting_down()) {
    if (driven_->progress()) {
      backoff.reset();
    } else if (backoff.next() == IdleBackoff::Step::kSpin) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

void Worker::stage(std::size_t channel, ActorName from, ActorName to, Action action,
                   const PayloadSlot& payload) {
  OutboundChannel& outbound = outbound_.stage(channel, from, to, action, payload);
  if (outbound.overflow_size() > counters_.overflow_peak) {
    counters_.overflow_peak = outbound.overflow_size();
  }
  if (outbound.overflow_size() > kOverflowLimit) wait_for_room(outbound);
}

// Backpressure: a sender that has run kOverflowLimit messages ahead of a consumer waits,
// inside send(), until the consumer has taken half of them. Meanwhile this worker keeps
// taking its own inbound messages into mailboxes (without running actors), so two workers
// flooding each other still both progress.
void Worker::wait_for_room(OutboundChannel& outbound) {
  ++counters_.backpressure_waits;
  IdleBackoff backoff;
  while (outbound.overflow_size() > kOverflowLimit / 2 && !node_.shutting_down()) {
    outbound_.flush();
    bool busy = drain_inbound();
    if (driven_ != nullptr) busy |= driven_->progress();
    if (busy) continue;
    if (backoff.next() == IdleBackoff::Step::kSpin) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

MessageNode* Worker::deliver_local(const Message& message) {
  // Only an actor that moved here from another worker has a name that names another.
  if (message.destination().worker() != static_cast<std::uint32_t>(index_)) [[unlikely]] {
    return deliver_to_moved_in(message);
  }
  const std::uint32_t index = message.destination().index();
  if (index < actors_.size()) {
    if (Actor* actor = actors_[index]; actor != nullptr) {
      ++arrived_in_mailboxes_;
      return enqueue(actor, message);
    }
  }
  deliver_to_absent(message);
  return nullptr;
}

MessageNode* Worker::enqueue(Actor* actor, const Message& message) {
  MessageNode* node = pool_.allocate();
  if (is_urgent_envelope(message)) [[unlikely]] {
    node->message = open_urgent_envelope(message);
    append_urgent_to_mailbox(actor, node);
    return node;
  }
  node->message = message;
  append_to_mailbox(actor, node);
  return node;
}

void Worker::deliver_to_absent(const Message& message) {
  const std::uint32_t index = message.destination().index();
  if (message.action() == ACTION_ADOPT) {
    adopt(adopted_actor(message));
    return;
  }
  if (index == kForwardingIndex) [[unlikely]] {  // migration (engine/worker_migration.cpp)
    receive_at_forwarding_address(message);
    return;
  }
  if (message.action() == ACTION_NODE_LEFT) {  // from the communicator, to no actor
    notify_node_left(message);
    message.payload_slot().release();
    return;
  }
  if ((index & kReplyAddressBit) != 0) {  // a response to an ask of one of our actors
    answer_arrived(is_urgent_envelope(message) ? open_urgent_envelope(message) : message);
    return;
  }
  if (!moved_out_.empty()) [[unlikely]] {  // the actor may live on another worker now
    if (forward_to_moved(message)) return;
  }
  if (!migrated_out_.empty()) [[unlikely]] {  // or on another node
    if (forward_to_migrated(message)) return;
  }
  if (index < stopped_.size() && stopped_[index]) {
    dead_letter(message);
    return;
  }
  // A name that reached us was reserved before (see NodeContext::indices_reserved()).
  if (index < node_.indices_reserved(index_)) {
    // Spawned on another worker, and this message overtook the actor itself: hold it.
    waiting_for_adoption_[index].push_back(message);
    ++counters_.held_for_adoption;
    return;
  }
  dead_letter(message);
}

void Worker::adopt(Actor* actor) {
  const std::uint32_t index = actor->name_.index();
  if (index >= actors_.size()) {
    actors_.resize(index + 1, nullptr);
    stopped_.resize(index + 1, false);
  }
  actors_[index] = actor;
  ++counters_.actors_spawned;
  if (actor->may_move_) ++movable_actors_;
  if (auto waiting = waiting_for_adoption_.find(index); waiting != waiting_for_adoption_.end()) {
    for (const Message& message : waiting->second) enqueue(actor, message);
    arrived_in_mailboxes_ += waiting->second.size();
    waiting_for_adoption_.erase(waiting);
  }
}

ActorName Worker::spawn(std::unique_ptr<Actor> child, ActorName supervisor, int target_worker) {
  const ActorName name = node_.place(*child, target_worker, supervisor, "spawn_on");
  Actor* actor = child.release();
  if (target_worker == index_) {
    adopt(actor);
  } else {
    stage(static_cast<std::size_t>(target_worker), supervisor, name, ACTION_ADOPT,
          adopt_payload(actor));
  }
  return name;
}

std::uint64_t Worker::request_spawn(ActorName requester, int node, int worker,
                                    std::string_view type, Payload arguments) {
  if (node < 0 || static_cast<std::uint32_t>(node) >= node_count_) {
    throw std::out_of_range("request_spawn: node " + std::to_string(node) + " does not exist (" +
                            std::to_string(node_count_) + " nodes)");
  }
  if (worker < 0 || worker >= node_.worker_count()) {
    throw std::out_of_range("request_spawn: worker " + std::to_string(worker) +
                            " does not exist (worker count " +
                            std::to_string(node_.worker_count()) + ")");
  }
  // Unique per requester: worker index in the top bits, a counter below.
  const std::uint64_t request = (std::uint64_t{static_cast<std::uint32_t>(index_)} << 48) |
                                next_spawn_request_++;
  SpawnRequest encoded{request, static_cast<std::uint32_t>(worker), type, arguments.bytes()};
  const ActorName communicator = communicator_name(static_cast<std::uint32_t>(node));
  const bool apart =
      arguments.size() >= SpawnRequest::kArgumentsApartBytes && static_cast<std::uint32_t>(node) != node_.node_index();
  if (apart) {
    encoded.arguments = {};
    encoded.flags = SpawnRequest::kArgumentsApart;
  }
  Payload payload = encoded.encode();  // before the arguments go: nothing left waiting if it throws
  // The same ring and the same path to that node: they arrive in this order.
  if (apart) send(requester, communicator, ACTION_SPAWN_ARGUMENTS, arguments.release_slot());
  node_.count_spawn_request_sent();
  send(requester, communicator, ACTION_SPAWN_REQUEST, payload.release_slot());
  return request;
}

bool Worker::run_ready_actors() {
  relief_threshold_ = kMailboxLimit;  // what could not be relieved last round may be now
  off_node_released_this_round_ = false;
  arm_same_worker_sample();
  std::size_t handled = 0;
  // Busy time is read once per round (up to kMessagesPerRound messages), not per message
  // or per turn: a clock read costs about as many instructions as a small message, and
  // the few instructions between turns are too few to matter.
  MonotonicClock::time_point round_began{};
  std::uint64_t round_cpu_began = 0;
  while (handled < kMessagesPerRound) {
    // Balancing's cost to a busy worker: one test per turn, and while it has actors that
    // may move, one look at a shared count.
    if (balancing_ && movable_actors_ != 0 && node_.work_requests().any()) [[unlikely]] {
      if (turns_before_offer_ == 0) {
        offer_actors();
      } else {
        --turns_before_offer_;
      }
    }
    Actor* actor = pop_ready();
    if (actor == nullptr) break;
    if (round_began == MonotonicClock::time_point{}) {
      // The round's first receive() is timed from the clock read that begins the round:
      // one more read per round, none per message.
      if (measuring_busy_cpu_) [[unlikely]] round_cpu_began = thread_cpu_nanoseconds();
      round_began = MonotonicClock::now();
      handled += run_timed_turn(actor, round_began);
    } else {
      handled += run_turn(actor);
    }
    if (release_off_node_after_turn_) [[unlikely]] release_off_node_messages();
  }
  if (round_began != MonotonicClock::time_point{}) {
    // A round of one message (a ping-pong across workers: every round) ends when its one
    // receive() did: the clock read that timed it serves, and the round costs two reads.
    // (Not when that message was an answer or a monitor notice: no read timed it.)
    const MonotonicClock::time_point round_ended =
        handled == 1 && first_receive_ended_ >= round_began ? first_receive_ended_ : MonotonicClock::now();
    busy_.add(round_began, round_ended);
    if (measuring_busy_cpu_) [[unlikely]] {
      // The CPU clock is read outside the wall-clock interval (before it began, after it
      // ended): one thread cannot compute longer than the interval lasted, so at most that.
      const std::uint64_t cpu = thread_cpu_nanoseconds() - round_cpu_began;
      const auto wall = static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(round_ended - round_began).count());
      busy_cpu_.add_spread(round_began, round_ended, std::min(cpu, wall));
    }
    if (spans_ != nullptr) [[unlikely]] {
      const auto since_origin = [this](MonotonicClock::time_point at) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(at - busy_.origin()).count();
      };
      spans_->add(since_origin(round_began), since_origin(round_ended),
                  static_cast<std::uint32_t>(handled));
    }
  }
  return handled > 0;
}

// One turn of an actor just taken from the ready queue: up to kMessagesPerTurn messages,
// then it is queued again, left idle, or finished. Returns the messages it handled. Inlined
// into run_ready_actors(): as a call it cost 18 instructions per turn, 9% of a same-worker
// ping-pong message (callgrind).
template <bool kTimeFirst>
[[gnu::always_inline]] inline unsigned Worker::run_turn(Actor* actor,
                                                        MonotonicClock::time_point round_began) {
  unsigned turn = 0;
  while (turn < kMessagesPerTurn) {
    MessageNode* node = actor->mailbox_.pop();
    if (node == nullptr) break;
    try {
      // What timers, monitors and queue-time samples cost per message: two tests,
      // predictably false. An answer to an ask (its destination a reply address) may have
      // a continuation; the sampled message carries the same bit until it is unmarked
      // here (engine/queue_time_sample.cpp), so it costs no test of its own.
      if ((node->message.destination().index() & kReplyAddressBit) != 0) [[unlikely]] {
        if (node == sampled_node_) end_queue_time_sample();
      }
      if ((node->message.destination().index() & kReplyAddressBit) != 0) [[unlikely]] {
        run_answer(actor, node->message);
      } else if (node->message.action() == ACTION_MONITOR) [[unlikely]] {
        receive_monitor_message(actor, node->message, false);
      } else if (kTimeFirst && turn == 0) {
        actor->receive(node->message);
        first_receive_ended_ = MonotonicClock::now();
        receive_time_.add(static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                         first_receive_ended_ - round_began)
                                                         .count()));
      } else {
        actor->receive(node->message);
      }
    } catch (const std::exception& error) {
      fail_actor(actor, error.what());
    } catch (...) {
      fail_actor(actor, "an exception that is not a std::exception");
    }
    node->message.payload_slot().release();
    pool_.free(node);
    ++turn;
    if (actor->stop_requested_) break;
  }
  counters_.messages_received += turn;
  actor->messages_handled_ += turn;
  if (actor->stop_requested_) {
    finish_stopped(actor);
  } else if (!actor->mailbox_.empty()) {
    // A turn that could not empty the mailbox: its depth when the turn began is what the
    // turn handled and what is left. (Turns that empty it cost nothing here: a mailbox
    // that never outlasts a turn, up to 64 messages, keeps a high-water mark of 0.)
    const std::uint64_t depth = turn + (actor->messages_enqueued_ - actor->messages_handled_);
    if (depth > actor->mailbox_high_water_) actor->mailbox_high_water_ = depth;
    push_ready(actor);
  } else {
    actor->scheduled_ = false;
  }
  return turn;
}

unsigned Worker::run_turn_for_relief(Actor* actor) { return run_turn(actor); }

unsigned Worker::run_timed_turn(Actor* actor, MonotonicClock::time_point round_began) {
  return run_turn<true>(actor, round_began);
}

// Keyed by C++ type: an actor's type_name() (a demangling by default, thousands of
// instructions) is asked once per type, not at every stop.
void Worker::record_actor_type(const Actor& actor, std::vector<ActorTypeRecord>& into) const {
  const std::type_info& type = typeid(actor);
  auto found = std::find_if(into.begin(), into.end(),
                            [&](const ActorTypeRecord& known) { return *known.type == type; });
  if (found == into.end()) {
    into.push_back({&type, {actor.type_name(), 0, 0, 0}});
    found = into.end() - 1;
  }
  ++found->seen.actors;
  found->seen.messages_handled += actor.messages_handled_;
  found->seen.mailbox_high_water = std::max(found->seen.mailbox_high_water, actor.mailbox_high_water_);
}

std::vector<ActorTypeObservation> Worker::actor_types() const {
  std::vector<ActorTypeRecord> records = stopped_actor_types_;
  for (const Actor* actor : actors_) {
    if (actor != nullptr) record_actor_type(*actor, records);
  }
  // C++ types that give the same name are one entry.
  std::vector<ActorTypeObservation> types;
  for (const ActorTypeRecord& record : records) {
    auto same = std::find_if(types.begin(), types.end(),
                             [&](const ActorTypeObservation& t) { return t.type == record.seen.type; });
    if (same == types.end()) {
      types.push_back(record.seen);
      continue;
    }
    same->actors += record.seen.actors;
    same->messages_handled += record.seen.messages_handled;
    same->mailbox_high_water = std::max(same->mailbox_high_water, record.seen.mailbox_high_water);
  }
  return types;
}

WorkerObservation Worker::observation() const {
  WorkerObservation seen;
  seen.busy_nanoseconds = busy_.total_nanoseconds();
  seen.parked_nanoseconds = counters_.parked_nanoseconds;
  const std::uint64_t accounted = seen.busy_nanoseconds + seen.parked_nanoseconds;
  seen.idle_nanoseconds = counters_.run_nanoseconds > accounted ? counters_.run_nanoseconds - accounted : 0;
  seen.messages_received = counters_.messages_received;
  std::uint64_t enqueued = enqueued_by_stopped_actors_;
  for (const Actor* actor : actors_) {
    if (actor != nullptr) enqueued += actor->messages_enqueued_;
  }
  seen.sent_to_same_worker = enqueued - arrived_in_mailboxes_;
  seen.sent_to_other_workers = counters_.messages_to_other_workers;
  seen.sent_to_other_nodes = counters_.messages_to_other_nodes;
  seen.ring_full_waits = outbound_.ring_full_waits();
  seen.sent_to_worker = sent_to_worker_;
  seen.sent_to_worker[static_cast<std::size_t>(index_)] = seen.sent_to_same_worker;
  seen.receive_time = receive_time_;
  seen.queue_time = queue_time_;
  return seen;
}

void Worker::fail_actor(Actor* actor, const std::string& reason) {
  ++counters_.actors_failed;
  std::ostringstream name;
  name << actor->name_;
  std::fprintf(stderr,
               "xenon: actor %s failed in receive(): %s (stopped; its supervisor is told)\n",
               name.str().c_str(), reason.c_str());
  failure_reason_ = reason;
  actor->stop_requested_ = true;
}

void Worker::finish_stopped(Actor* actor) {
  if (actor->migrate_to_ >= 0 && failure_reason_.empty()) [[unlikely]] {
    migrate_out(actor);  // it asked to move, and did not fail
    return;
  }
  empty_mailbox(actor, [this, actor](const Message& message) {
    if (message.action() == ACTION_MONITOR) {
      receive_monitor_message(actor, message, true);  // a watch gets the real reason
      message.payload_slot().release();
    } else {
      dead_letter(message);
    }
  });
  if (!timers_.empty() || !asks_.empty()) [[unlikely]] end_timers_and_asks_of(*actor);
  const ActorName name = actor->name_;
  const ActorName supervisor = actor->supervisor_;
  if (!monitors_.empty()) {
    tell_monitors_of_stop(name, actor->slot_,
                          !failure_reason_.empty() ? std::string_view(failure_reason_)
                          : stop_reason_           ? std::string_view(*stop_reason_)
                                                   : kDownNormal);
  }
  stop_reason_.reset();
  record_actor_type(*actor, stopped_actor_types_);
  enqueued_by_stopped_actors_ += actor->messages_enqueued_;
  actors_[actor->slot_] = nullptr;
  stopped_[actor->slot_] = true;
  if (!migrated_in_.empty() && migrated_actor_stopped(name)) [[unlikely]] {
    // It came from another node: the worker it left was told.
  } else if (name.worker() == static_cast<std::uint32_t>(index_)) {
    if (actor->may_move_) --movable_actors_;
  } else [[unlikely]] {
    // It moved here: its home worker stops forwarding (what it forwarded meanwhile is
    // counted here as dead letters, as it would have been there).
    moved_in_.erase(name.value());
    send(name, name, ACTION_MOVED_ACTOR_STOPPED, PayloadSlot{});
  }
  delete actor;
  ++counters_.actors_stopped;
  // The stop notice carries why the actor stopped when it failed, and nothing otherwise.
  Payload reason;
  if (!failure_reason_.empty()) {
    reason = Payload::copy_of(std::as_bytes(std::span(failure_reason_)));
    failure_reason_.clear();
  }
  if (!supervisor.is_none()) {
    send(name, supervisor, ACTION_CHILD_STOPPED, reason.release_slot());
  }
  node_.count_stopped_actor();
}

void Worker::dead_letter(const Message& message) {
  if (is_urgent_envelope(message)) {  // the message inside is the one not delivered
    dead_letter(open_urgent_envelope(message));
    return;
  }
  if (message.action() == ACTION_MONITOR) {  // not lost: answered, or nobody wants it
    answer_monitor_dead_letter(message);
    message.payload_slot().release();
    return;
  }
  // The end of a moved actor's forwarding, left in a ring at the end of the run: internal.
  if (message.action() == ACTION_MOVED_ACTOR_STOPPED) return;
  if (is_migration_stop_notice(message.action(), message.payload())) [[unlikely]] {
    message.payload_slot().release();
    return;
  }
  // A stop notice to a supervisor that already stopped is expected, not a lost message.
  if (message.action() != ACTION_CHILD_STOPPED) ++counters_.dead_letters;
  if (message.action() == ACTION_ADOPT || message.action() == ACTION_MOVE_IN ||
      message.action() == ACTION_MIGRATED_IN) {
    delete adopted_actor(message);
    return;
  }
  message.payload_slot().release();
}

void Worker::publish_after_stop() {
  outbound_.discard_overflow([this](const Message& message) { dead_letter(message); });
}

void Worker::discard_in_flight() {
  for (MessageRing* ring : inbound_) {
    ring->consume([this](const Message& message) { dead_letter(message); });
  }
  for (auto& [index, messages] : waiting_for_adoption_) {
    for (const Message& message : messages) dead_letter(message);
  }
  waiting_for_adoption_.clear();
  // Left only by actors still alive when the run failed, or to a name no actor took.
  counters_.timers_cancelled += timers_.clear();
  for (Actor*& actor : actors_) {
    if (actor == nullptr) continue;
    empty_mailbox(actor, [this](const Message& message) { dead_letter(message); });
  }
}

Actor* Worker::pop_ready() noexcept {
  Actor* actor = ready_head_;
  if (actor != nullptr) {
    ready_head_ = actor->next_ready_;
    if (ready_head_ == nullptr) ready_tail_ = nullptr;
  }
  return actor;
}

}  // namespace xenon
