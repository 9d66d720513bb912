// SPDX-License-Identifier: BSD-3-Clause
// The communicator's round, the routing of messages between the node's actors and the
// wire, engine-to-engine messages, and the end of the run. Frame aggregation, termination
// and the one-thread mode have files of their own (see communicator.hpp).
#include "engine/communicator.hpp"

#include <stdexcept>
#include <string>

#include "engine/idle_loop.hpp"
#include "engine/internal_actions.hpp"
#include "engine/migration_messages.hpp"
#include "engine/monitor_messages.hpp"
#include "engine/urgent_envelope.hpp"
#include "transport/transport.hpp"
#include "xenon/engine/spawn_request.hpp"

namespace xenon {
namespace {

constexpr std::size_t kDrainBatch = 256;

}  // namespace

Communicator::Communicator(NodeContext& node, Transport& transport, std::size_t aggregation_bytes,
                           std::chrono::seconds heartbeat_timeout)
    : node_(node),
      transport_(transport),
      node_index_(static_cast<std::uint32_t>(transport.node_index())),
      node_count_(static_cast<std::uint32_t>(transport.node_count())),
      must_poll_(transport.frames_arrive_unannounced()),
      flush_bytes_(aggregation_bytes),
      outbound_(static_cast<std::size_t>(node.worker_count())),
      heartbeat_timeout_(heartbeat_timeout),
      heartbeat_interval_(std::chrono::duration_cast<std::chrono::milliseconds>(heartbeat_timeout) / 4) {
  peers_.reserve(node_count_);
  // Every frame writer stamps this node as the frames' source.
  for (std::uint32_t peer = 0; peer < node_count_; ++peer) peers_.emplace_back(node_index_);
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
        return keep_polling(after_empty_poll);
      }) > 0;
  if (take_arrivals) received_last_poll_ = received;
  outbound_.flush();
  // Memory orders: see NodeContext::take_termination_check().
  if (node_.take_termination_check()) check_termination();
  keep_heartbeats();
  const bool busy = drained.any || received;
  if (busy) {
    sleep_microseconds_ = 0;
    idle_polling_ = false;
  }
  return busy;
}

void Communicator::run() { run_until_shutdown(node_, parker_, *this, parks_, parked_nanoseconds_); }

bool Communicator::wait_without_parking() {
  // A transport that cannot wake us, or messages a worker has no room for yet: poll.
  if (must_poll_ || outbound_.has_unpublished()) {
    sleep_between_polls();
    return true;
  }
  return false;
}

bool Communicator::has_visible_work() {
  bool work_visible = node_.termination_check_pending();
  for (MessageRing* ring : inbound_) work_visible |= !ring->empty_for_consumer();
  return work_visible;
}

std::size_t Communicator::sends_in_flight() const { return transport_.sends_in_flight(); }

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
  if (is_urgent_envelope(message)) [[unlikely]] {
    route(open_urgent_envelope(message), true);  // the priority travels as the record's bit
  } else {
    route(message, false);
  }
}

void Communicator::route(const Message& message, bool urgent) {
  const ActorName to = message.destination();
  if (to.node() == node_index_) {
    // Addressed to this node's communicator (a spawn request from one of our actors).
    if (to.worker() == kCommunicatorWorker) {
      control(message.source(), message.action(), message.payload());
    } else {
      ++dead_letters_;
    }
  } else if (message.payload_size() >= kAttachBytes) {
    send_attached(to.node(), message, urgent);
    return;  // the transport releases the payload once it is sent
  } else {
    append(to.node(), message.source(), to, message.action(), message.payload(), urgent);
  }
  message.payload_slot().release();
}

// ---- Incoming ----

void Communicator::deliver(ActorName from, ActorName to, Action action,
                           std::span<const std::byte> payload, bool urgent) {
  // Spawn arguments are kept for the request that follows: as a payload of their own.
  if (to.worker() == kCommunicatorWorker && to.node() == node_index_ && !(action == ACTION_SPAWN_ARGUMENTS)) {
    control(from, action, payload);
    return;
  }
  deliver(from, to, action, Payload::copy_of(payload), urgent);
}

void Communicator::deliver(ActorName from, ActorName to, Action action, Payload payload,
                           bool urgent) {
  if (to.node() != node_index_) {
    throw WireFormatError("a message for node " + std::to_string(to.node()) +
                          " arrived at node " + std::to_string(node_index_));
  }
  if (to.worker() == kCommunicatorWorker) {
    if (action == ACTION_SPAWN_ARGUMENTS) {
      spawn_arguments_[{frame_source_, from}].push_back(std::move(payload));  // for the request that follows
    } else {
      control(from, action, payload.bytes());
    }
    return;
  }
  if (to.worker() >= outbound_.size()) {
    // A watch of no actor from another node: answered at once.
    if (is_watch_request(action, payload.bytes()) && from.node() != node_index_ &&
        from.node() < node_count_) {
      append(from.node(), to, from, ACTION_MONITOR,
             monitor_payload(MonitorKind::kStopped, kDownNoSuchActor).bytes());
      return;
    }
    ++dead_letters_;  // no such worker here: the name was never valid
    return;
  }
  stage_to_worker(to.worker(), from, to, action, payload.release_slot(), urgent);
}

void Communicator::stage_to_worker(std::size_t worker, ActorName from, ActorName to,
                                   Action action, const PayloadSlot& payload, bool urgent) {
  if (urgent) [[unlikely]] {  // to the worker as an envelope, which its mailbox puts first
    const PayloadSlot envelope = urgent_envelope_payload(Message(from, to, action, payload));
    stage_to_worker(worker, from, to, ACTION_URGENT, envelope, false);
    return;
  }
  if (driving_worker_ != nullptr) {  // that worker is this thread: straight into the mailbox
    driving_worker_->deliver_arrival(Message(from, to, action, payload));
    return;
  }
  outbound_.stage(worker, from, to, action, payload);
}

// ---- Engine-to-engine messages ----

void Communicator::send_control(std::uint32_t node, Action action,
                                std::span<const std::byte> payload) {
  if (node == node_index_) {
    control(communicator_name(node_index_), action, payload);
    return;
  }
  append(node, communicator_name(node_index_), communicator_name(node), action, payload);
  send_frame(node);  // rare and latency-bound: no reason to wait for company
}

void Communicator::control(ActorName from, Action action, std::span<const std::byte> payload) {
  if (action == ACTION_SPAWN_REQUEST) {
    spawn(from, payload);
  } else if (action == ACTION_MIGRATE) {
    migrate_in(from, payload);
  } else if (termination_control(action, payload)) {
    return;
  } else if (action == ACTION_HEARTBEAT) {
    return;  // its arrival was the news (receive_frame marked the node heard)
  } else {
    throw WireFormatError("unknown engine action code " + std::to_string(action.code()) +
                          " from node " + std::to_string(from.node()));
  }
}

// Its arguments and a request that says they came apart arrive from the same node, in order.
static_assert(SpawnRequest::kArgumentsApartBytes == Communicator::kAttachBytes,
              "spawn arguments travel apart exactly when they travel as an attachment");

void Communicator::spawn(ActorName requester, std::span<const std::byte> bytes) {
  const SpawnRequest request = SpawnRequest::decode(bytes);
  if (request.worker >= outbound_.size()) {
    throw std::out_of_range("spawn request for worker " + std::to_string(request.worker) +
                            " on node " + std::to_string(node_index_) + ", which has " +
                            std::to_string(outbound_.size()));
  }
  Payload arguments_apart;  // owns them while the actor is built
  std::span<const std::byte> arguments = request.arguments;
  if ((request.flags & SpawnRequest::kArgumentsApart) != 0) {
    const auto found = spawn_arguments_.find({frame_source_, requester});
    if (found == spawn_arguments_.end() || found->second.empty()) {
      throw WireFormatError("a spawn request of " + std::string(request.type) +
                            " whose arguments did not arrive before it");
    }
    arguments_apart = std::move(found->second.front());
    found->second.pop_front();
    if (found->second.empty()) spawn_arguments_.erase(found);
    arguments = arguments_apart.bytes();
  }
  std::unique_ptr<Actor> actor = node_.registry().create(request.type, arguments);
  // Counted as alive before the actor can run (and stop).
  const ActorName name = node_.place(*actor, static_cast<int>(request.worker), requester,
                                     "spawn request");
  ++spawn_requests_received_;
  stage_to_worker(request.worker, requester, name, ACTION_ADOPT, adopt_payload(actor.release()));
  // Tell the requester, wherever it is.
  Payload reply = SpawnedActor{request.request, name}.encode();
  if (requester.node() == node_index_) {
    deliver(name, requester, ACTION_SPAWNED, std::move(reply));
  } else {
    append(requester.node(), name, requester, ACTION_SPAWNED, reply.bytes());
  }
}
// An actor moving here (engine/worker_migration.cpp), from the worker at `from` (its
// forwarding address): built from its state, counted as alive and as a spawn request
// received (the termination waves count the move as one), and handed to the worker of the
// same index, ahead of the messages that follow it on the same path.
void Communicator::migrate_in(ActorName from, std::span<const std::byte> bytes) {
  const MigrationRequest request = MigrationRequest::decode(bytes);
  if (request.worker >= outbound_.size()) {
    throw std::out_of_range("an actor migrating to worker " + std::to_string(request.worker) +
                            " of node " + std::to_string(node_index_) + ", which has " +
                            std::to_string(outbound_.size()));
  }
  std::unique_ptr<Actor> actor = node_.registry().create(request.type, request.state);
  node_.place_migrated(*actor, request.name, request.supervisor);
  ++spawn_requests_received_;
  stage_to_worker(request.worker, from, forwarding_address(node_index_, request.worker),
                  ACTION_MIGRATED_IN, adopt_payload(actor.release()));
}

// ---- End ----

void Communicator::close() {
  // Nothing is alive any more: what is still on its way was sent to stopped actors.
  for (MessageRing* ring : inbound_) {
    ring->consume([this](const Message& message) {
      if (message.destination().worker() != kCommunicatorWorker &&
          !is_migration_stop_notice(message.action(), message.payload())) {
        ++dead_letters_;
      }
      release_undelivered(message);
    });
  }
  for (PeerState& peer : peers_) {
    dead_letters_ += peer.writer.record_count();
    peer.writer.take(peer.next_send_sequence);
  }
  outbound_.discard_overflow([this](const Message& message) {
    ++dead_letters_;
    release_undelivered(message);
  });
  // Frames still arriving go through the ordering as before (so that attachments come off
  // the wire in the order sent), but are counted and dropped instead of delivered.
  closing_ = true;
  transport_.close([this](int source, std::span<const std::byte> frame) {
    receive_frame(source, frame);
    return true;
  });
  // Frames held for their turn whose predecessor never came: undeliverable too.
  for (std::size_t node = 0; node < peers_.size(); ++node) {
    for (const auto& [sequence, frame] : peers_[node].early_frames) {
      decode_frame(frame, [this](const WireRecord& record) {
        if (record.destination.worker() != kCommunicatorWorker &&
            !is_migration_stop_notice(record.action, record.payload)) {
          ++dead_letters_;
        }
      });
    }
    peers_[node].early_frames.clear();
  }
}

}  // namespace xenon
