// SPDX-License-Identifier: BSD-3-Clause
#include "engine/communicator.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "core/byte_order.hpp"
#include "engine/engine.hpp"
#include "engine/internal_actions.hpp"
#include "engine/spawn_request.hpp"
#include "engine/worker.hpp"
#include "transport/transport.hpp"

namespace xenon {
namespace {

constexpr std::size_t kDrainBatch = 256;

}  // namespace

Communicator::Communicator(Engine& engine, Transport& transport)
    : engine_(engine),
      transport_(transport),
      node_(static_cast<std::uint32_t>(transport.node_index())),
      node_count_(static_cast<std::uint32_t>(transport.node_count())),
      must_poll_(transport.frames_arrive_unannounced()),
      flush_bytes_(static_cast<std::size_t>(engine.options().aggregation_bytes)) {
  outbound_.resize(static_cast<std::size_t>(engine.worker_count()));
  dirty_.resize(outbound_.size(), false);
  peers_.reserve(node_count_);
  for (std::uint32_t node = 0; node < node_count_; ++node) peers_.emplace_back(node_);
}

void Communicator::connect_outbound(int worker, MessageRing* ring, Parker* consumer) {
  outbound_[static_cast<std::size_t>(worker)].connect(ring, consumer);
}

bool Communicator::progress(bool take_arrivals) {
  const Drained drained = drain_workers();
  // Taking everything the workers had ends a burst: send every frame now (before testing
  // for arrivals, which costs more than a reply should wait). While they produce faster than
  // we drain, frames fill up instead (or leave at the deadline).
  flush_frames(drained.everything);
  // A frame that brought a large payload ends the poll: its actor runs (and frees the
  // payload) before the next large one is allocated, so those bytes stay warm in cache.
  // So does a full mailbox backlog on the worker that drives us, and, for that worker, the
  // first frame after an empty poll: a message to an idle node is run (and its reply sent)
  // before anything else is tested, while a steady flow of frames is taken whole.
  received_attachment_ = false;
  const bool after_empty_poll = !received_last_poll_;
  const bool received =
      take_arrivals && transport_.poll([this, after_empty_poll](int source,
                                                                std::span<const std::byte> frame) {
        receive_frame(source, frame);
        if (received_attachment_) return false;
        return !driven_by_worker_ ||
               (!after_empty_poll && engine_.worker(0).has_room_for_arrivals());
      }) > 0;
  if (take_arrivals) received_last_poll_ = received;
  flush_workers();
  // Relaxed first look, so the common case costs no read-modify-write; the exchange's
  // acquire pairs with the release store in request_termination_check().
  if (termination_check_requested_.load(std::memory_order_relaxed) &&
      termination_check_requested_.exchange(false, std::memory_order_acquire)) {
    check_termination();
  }
  const bool busy = drained.any || received;
  if (busy) {
    sleep_microseconds_ = 0;
    idle_polling_ = false;
  }
  return busy;
}

void Communicator::run() {
  IdleBackoff backoff;
  while (!engine_.shutting_down()) {
    if (progress()) {
      backoff.reset();
      continue;
    }
    switch (backoff.next()) {
      case IdleBackoff::Step::kSpin:
        cpu_relax();
        break;
      case IdleBackoff::Step::kYield:
        std::this_thread::yield();
        break;
      case IdleBackoff::Step::kPark:
        if (must_poll_ || !dirty_workers_.empty()) {
          sleep_between_polls();
          break;
        }
        parker_.prepare_to_park();
        bool work_visible = engine_.shutting_down() ||
                            termination_check_requested_.load(std::memory_order_relaxed);
        for (MessageRing* ring : inbound_) work_visible |= !ring->empty_for_consumer();
        if (work_visible) {
          parker_.cancel_park();
        } else {
          parker_.park();
        }
        backoff.reset();
        break;
    }
  }
}

void Communicator::sleep_between_polls() {
  // Frames can arrive without anyone waking us. Keep polling for kPollBeforeSleeping (a
  // reply is usually that close), then sleep between polls: 20 us at first, up to 1 ms when
  // nothing comes (at most ~1000 wake-ups per second when idle).
  // While our sends are unfinished, MPI needs our calls to finish them: keep polling.
  if (transport_.sends_in_flight() > 0) {
    std::this_thread::yield();
    return;
  }
  const auto now = MonotonicClock::now();
  if (!idle_polling_) {
    idle_polling_ = true;
    idle_since_ = now;
  }
  if (now - idle_since_ < kPollBeforeSleeping) {
    std::this_thread::yield();
    return;
  }
  sleep_microseconds_ = sleep_microseconds_ == 0 ? 20 : std::min(2 * sleep_microseconds_, 1000u);
  std::this_thread::sleep_for(std::chrono::microseconds(sleep_microseconds_));
}

void Communicator::request_termination_check() noexcept {
  // Release: pairs with the acquire exchange in progress(); the caller's decrement of the
  // live count happens before the check that reads it.
  termination_check_requested_.store(true, std::memory_order_release);
  wake_driver();
}

std::size_t Communicator::sends_in_flight() const { return transport_.sends_in_flight(); }

void Communicator::wake_driver() noexcept { wake_target_->wake(); }

// ---- Outgoing ----

Communicator::Drained Communicator::drain_workers() {
  Drained drained;
  for (MessageRing* ring : inbound_) {
    const std::size_t taken =
        ring->consume([this](const Message& message) { route_outgoing(message); }, kDrainBatch);
    drained.any |= taken > 0;
    drained.everything &= taken < kDrainBatch;
  }
  return drained;
}

void Communicator::route_outgoing(const Message& message) {
  const ActorName to = message.destination();
  if (to.node() == node_) {
    // Addressed to this node's communicator (a spawn request from one of our actors).
    if (to.worker() == kCommunicatorWorker) {
      control(message.source(), message.action(), message.payload());
    } else {
      ++dead_letters_;
    }
  } else if (message.payload_size() >= kAttachBytes) {
    send_attached(to.node(), message);
    return;  // the transport releases the payload once it is sent
  } else {
    append(to.node(), message.source(), to, message.action(), message.payload());
  }
  message.payload_slot().release();
}

void Communicator::send_attached(std::uint32_t node, const Message& message) {
  send_frame(node);  // what is already queued for that node goes first
  PeerState& peer = peers_[node];
  peer.writer.append_attached(message.source(), message.destination(), message.action(),
                              message.payload_size());
  send_frame(node);
  const PayloadSlot slot = message.payload_slot();
  transport_.send_attachment(static_cast<int>(node),
                             {message.payload(), [slot] { slot.release(); }});
}

void Communicator::append(std::uint32_t node, ActorName from, ActorName to, Action action,
                          std::span<const std::byte> payload) {
  PeerState& peer = peers_[node];
  if (peer.writer.empty()) {
    peer.first_kept = MonotonicClock::time_point{};  // set by flush_frames() if it waits
    pending_frames_.push_back(node);
  }
  peer.writer.append(from, to, action, payload);
  if (peer.writer.size() >= flush_bytes_) send_frame(node);
}

void Communicator::flush_frames(bool everything) {
  if (pending_frames_.empty()) return;
  // The clock is read only when a frame may wait (a reply on its way does not); the
  // deadline counts from the first round that kept the frame.
  const auto now = everything ? MonotonicClock::time_point{} : MonotonicClock::now();
  std::size_t kept = 0;
  for (std::uint32_t node : pending_frames_) {
    PeerState& peer = peers_[node];
    if (peer.writer.empty()) continue;  // already sent because it was full
    if (peer.first_kept == MonotonicClock::time_point{}) peer.first_kept = now;
    if (everything || now - peer.first_kept >= kFlushDeadline) {
      send_frame(node);
    } else {
      pending_frames_[kept++] = node;
    }
  }
  pending_frames_.resize(kept);
}

void Communicator::send_frame(std::uint32_t node) {
  PeerState& peer = peers_[node];
  if (peer.writer.empty()) return;
  transport_.send(static_cast<int>(node),
                  peer.writer.take(peer.next_send_sequence++, transport_.spare_frame_buffer()));
  ++frames_sent_;
}

// ---- Incoming ----

void Communicator::receive_frame(int source, std::span<const std::byte> frame) {
  const FrameHeader header = read_frame_header(frame);
  if (source < 0 || static_cast<std::uint32_t>(source) >= node_count_ ||
      header.source_node != static_cast<std::uint32_t>(source)) {
    throw WireFormatError("frame from node " + std::to_string(source) + " says it comes from node " +
                          std::to_string(header.source_node));
  }
  ++frames_received_;
  PeerState& peer = peers_[static_cast<std::size_t>(source)];
  if (header.sequence < peer.next_receive_sequence ||
      peer.early_frames.count(header.sequence) != 0) {
    throw WireFormatError("frame " + std::to_string(header.sequence) + " from node " +
                          std::to_string(source) + " arrived twice");
  }
  if (header.sequence > peer.next_receive_sequence) {
    // Overtook an earlier frame (another tag or receive slot): hold it until its turn.
    peer.early_frames.emplace(header.sequence, std::vector<std::byte>(frame.begin(), frame.end()));
    return;
  }
  deliver_frame(static_cast<std::uint32_t>(source), frame);
  ++peer.next_receive_sequence;
  for (auto next = peer.early_frames.find(peer.next_receive_sequence);
       next != peer.early_frames.end();
       next = peer.early_frames.find(peer.next_receive_sequence)) {
    deliver_frame(static_cast<std::uint32_t>(source), next->second);
    peer.early_frames.erase(next);
    ++peer.next_receive_sequence;
  }
}

void Communicator::deliver_frame(std::uint32_t source, std::span<const std::byte> frame) {
  decode_frame(frame, [this, source](const WireRecord& record) {
    if (record.attached_length == 0) {
      deliver(record.source, record.destination, record.action, record.payload);
      return;
    }
    // Straight from the wire into the payload the actor will read.
    Payload payload = Payload::for_overwrite(record.attached_length);
    transport_.receive_attachment(static_cast<int>(source), payload.writable_bytes());
    received_attachment_ = true;
    deliver(record.source, record.destination, record.action, std::move(payload));
  });
}

void Communicator::deliver(ActorName from, ActorName to, Action action,
                           std::span<const std::byte> payload) {
  if (to.worker() == kCommunicatorWorker && to.node() == node_) {
    control(from, action, payload);
    return;
  }
  deliver(from, to, action, Payload::copy_of(payload));
}

void Communicator::deliver(ActorName from, ActorName to, Action action, Payload payload) {
  if (to.node() != node_) {
    throw WireFormatError("a message for node " + std::to_string(to.node()) +
                          " arrived at node " + std::to_string(node_));
  }
  if (to.worker() == kCommunicatorWorker) {
    control(from, action, payload.bytes());
    return;
  }
  if (to.worker() >= outbound_.size()) {
    ++dead_letters_;  // no such worker here: the name was never valid
    return;
  }
  stage_to_worker(to.worker(), from, to, action, payload.release_slot());
}

void Communicator::stage_to_worker(std::size_t worker, ActorName from, ActorName to,
                                   Action action, const PayloadSlot& payload) {
  if (driven_by_worker_) {  // that worker is this thread: straight into the mailbox
    engine_.worker(static_cast<int>(worker)).deliver_from_driven_communicator(
        Message(from, to, action, payload));
    return;
  }
  if (!dirty_[worker]) {
    dirty_[worker] = true;
    dirty_workers_.push_back(worker);
  }
  outbound_[worker].stage(from, to, action, payload);
}

void Communicator::flush_workers() {
  std::size_t kept = 0;
  for (std::size_t worker : dirty_workers_) {
    if (outbound_[worker].flush()) {
      dirty_workers_[kept++] = worker;
    } else {
      dirty_[worker] = false;
    }
  }
  dirty_workers_.resize(kept);
}

// ---- Engine-to-engine messages ----

void Communicator::send_control(std::uint32_t node, Action action,
                                std::span<const std::byte> payload) {
  if (node == node_) {
    control(communicator_name(node_), action, payload);
    return;
  }
  append(node, communicator_name(node_), communicator_name(node), action, payload);
  send_frame(node);  // rare and latency-bound: no reason to wait for company
}

void Communicator::control(ActorName from, Action action, std::span<const std::byte> payload) {
  if (action == ACTION_SPAWN_REQUEST) {
    spawn(from, payload);
  } else if (action == ACTION_NODE_IDLE) {
    idle_notice_pending_ = true;
    maybe_start_wave();
  } else if (action == ACTION_WAVE_QUERY) {
    if (payload.size() != 8) throw WireFormatError("wave query must carry 8 bytes");
    std::byte answer[32];
    store_le64(answer, load_le64(payload.data()));
    store_le64(answer + 8, engine_.live_actors() == 0 ? 1 : 0);
    // Read after the live count (acquire): see check_termination().
    store_le64(answer + 16, engine_.spawn_requests_sent());
    store_le64(answer + 24, spawn_requests_received_);
    send_control(0, ACTION_WAVE_ANSWER, answer);
  } else if (action == ACTION_WAVE_ANSWER) {
    if (payload.size() != 32) throw WireFormatError("wave answer must carry 32 bytes");
    record_answer(load_le64(payload.data()), load_le64(payload.data() + 8) != 0,
                  load_le64(payload.data() + 16), load_le64(payload.data() + 24));
  } else if (action == ACTION_TERMINATE) {
    terminated_ = true;
    engine_.request_shutdown();
  } else {
    throw WireFormatError("unknown engine action code " + std::to_string(action.code()) +
                          " from node " + std::to_string(from.node()));
  }
}

void Communicator::spawn(ActorName requester, std::span<const std::byte> bytes) {
  const SpawnRequest request = SpawnRequest::decode(bytes);
  if (request.worker >= outbound_.size()) {
    throw std::out_of_range("spawn request for worker " + std::to_string(request.worker) +
                            " on node " + std::to_string(node_) + ", which has " +
                            std::to_string(outbound_.size()));
  }
  std::unique_ptr<Actor> actor = engine_.registry().create(request.type, request.arguments);
  Worker& host = engine_.worker(static_cast<int>(request.worker));
  const ActorName name = ActorName::make(node_, request.worker, host.reserve_index());
  actor->worker_ = &host;
  actor->name_ = name;
  actor->supervisor_ = requester;
  engine_.count_spawned_actor();  // before the actor can run (and stop)
  ++spawn_requests_received_;
  stage_to_worker(request.worker, requester, name, ACTION_ADOPT, adopt_payload(actor.release()));
  // Tell the requester, wherever it is.
  Payload reply = SpawnedActor{request.request, name}.encode();
  if (requester.node() == node_) {
    deliver(name, requester, ACTION_SPAWNED, std::move(reply));
  } else {
    append(requester.node(), name, requester, ACTION_SPAWNED, reply.bytes());
  }
}

// ---- Termination ----
//
// A node is idle when none of its actors is alive. An idle node can only become busy again
// by receiving a spawn request, so the runtime has ended when every node is idle and no
// spawn request is in flight. Every node counts spawn requests sent (by its actors) and
// received (executed by its communicator). One node: idle and sent == received, both read
// on this thread, the only one that executes requests. Several nodes: node 0 asks every node
// for (idle, sent, received) in waves; it ends the run after two consecutive waves in which
// every node was idle and the totals were identical and balanced. Counters only grow, so
// identical totals mean no node received a request between its two answers (so none became
// busy), and a request counted as received in the second wave was sent before any node's
// second answer, so balanced totals mean none is in flight.
void Communicator::check_termination() {
  // Acquire: pairs with the acq_rel decrement of the live count; the spawn-request counters
  // of every stopped actor's worker are visible below.
  if (engine_.live_actors() != 0) return;
  if (node_count_ == 1) {
    if (engine_.spawn_requests_sent() == spawn_requests_received_) engine_.request_shutdown();
    return;
  }
  if (node_ != 0) {
    send_control(0, ACTION_NODE_IDLE, {});
    return;
  }
  idle_notice_pending_ = true;
  maybe_start_wave();
}

void Communicator::maybe_start_wave() {
  if (terminated_ || wave_in_progress_ || !idle_notice_pending_) return;
  if (engine_.live_actors() != 0) return;  // node 0 is busy; its own idleness will call back
  idle_notice_pending_ = false;
  wave_in_progress_ = true;
  ++wave_;
  answers_ = 0;
  wave_all_idle_ = true;
  wave_sent_ = wave_received_ = 0;
  std::byte query[8];
  store_le64(query, wave_);
  for (std::uint32_t node = 0; node < node_count_; ++node) {
    send_control(node, ACTION_WAVE_QUERY, query);  // node 0 answers itself at once
  }
}

void Communicator::record_answer(std::uint64_t wave, bool idle, std::uint64_t sent,
                                 std::uint64_t received) {
  if (wave != wave_ || !wave_in_progress_) return;  // an answer to an abandoned wave
  ++answers_;
  wave_all_idle_ &= idle;
  wave_sent_ += sent;
  wave_received_ += received;
  if (answers_ < node_count_) return;
  wave_in_progress_ = false;
  if (wave_all_idle_) {
    if (previous_wave_idle_ && wave_sent_ == wave_received_ && wave_sent_ == previous_sent_ &&
        wave_received_ == previous_received_) {
      terminate_everywhere();
      return;
    }
    previous_wave_idle_ = true;
    previous_sent_ = wave_sent_;
    previous_received_ = wave_received_;
    idle_notice_pending_ = true;  // confirm with a second wave
  } else {
    previous_wave_idle_ = false;  // the busy nodes will say when they are idle
  }
  maybe_start_wave();
}

void Communicator::terminate_everywhere() {
  terminated_ = true;
  for (std::uint32_t node = 1; node < node_count_; ++node) {
    send_control(node, ACTION_TERMINATE, {});
  }
  engine_.request_shutdown();
}

// ---- End ----

void Communicator::close() {
  // Nothing is alive any more: what is still on its way was sent to stopped actors.
  for (MessageRing* ring : inbound_) {
    ring->consume([this](const Message& message) {
      if (message.destination().worker() != kCommunicatorWorker) ++dead_letters_;
      message.payload_slot().release();
    });
  }
  for (PeerState& peer : peers_) {
    dead_letters_ += peer.writer.record_count();
    peer.writer.take(peer.next_send_sequence);
  }
  for (OutboundChannel& channel : outbound_) {
    if (channel.connected()) {
      channel.discard_overflow([this](const Message& message) {
        ++dead_letters_;
        message.payload_slot().release();
      });
    }
  }
  transport_.close([this](int source, std::span<const std::byte> frame) {
    decode_frame(frame, [this, source](const WireRecord& record) {
      if (record.attached_length > 0) {  // take it off the wire, then drop it
        std::vector<std::byte> discard(record.attached_length);
        transport_.receive_attachment(source, discard);
      }
      if (record.destination.worker() != kCommunicatorWorker) ++dead_letters_;
    });
    return true;
  });
}

}  // namespace xenon
