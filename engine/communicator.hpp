// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/parker.hpp"
#include "engine/driven_mode.hpp"
#include "engine/node_context.hpp"
#include "engine/outbound_set.hpp"
#include "engine/wire_frame.hpp"
#include "xenon/core/cache_line.hpp"
#include "xenon/core/clock.hpp"
#include "xenon/engine/run_observation.hpp"

namespace xenon {

class Transport;

// The node's link to the other nodes, run by the communication thread (or, with
// -threads-per-node 1, by the only worker between its rounds).
//
// Outgoing: workers hand remote messages over through one SPSC ring each. The communicator
// appends them to one frame per destination node (aggregation) and sends a frame when it
// reaches EngineOptions::aggregation_bytes (60 KiB: a frame then fits one posted receive),
// or when a round of draining took everything the workers had (the burst is over: light
// traffic leaves at once), or when its first message has waited kFlushDeadline.
// Incoming: frames are put back in sequence per source node (the transport may reorder),
// checked whole, and split into messages for the workers' rings.
//
// It also spawns actors requested by name (Actor::request_spawn) and detects termination
// across nodes: see the comment on check_termination() in communicator_termination.cpp.
// It knows the rest of the node only through its NodeContext (and, in the one-thread mode,
// the DrivingWorker that runs it).
//
// Its code follows its sections: communicator.cpp (the round, routing, engine-to-engine
// messages, the end), communicator_frames.cpp (frame aggregation and sequencing),
// communicator_termination.cpp (termination waves), communicator_driven.cpp (the one-thread
// mode and polling).
class Communicator final : public DrivenCommunicator {
 public:
  static constexpr std::chrono::microseconds kFlushDeadline{50};
  // Payloads at least this large travel as attachments, from and into their own memory,
  // instead of being copied into a frame (and out of it on arrival).
  static constexpr std::size_t kAttachBytes = 32 * 1024;
  // How long an idle poller keeps polling (yielding between polls) before it sleeps: a
  // reply that comes within it costs no wake-up delay.
  static constexpr std::chrono::microseconds kPollBeforeSleeping{2000};

  // `aggregation_bytes`: EngineOptions::aggregation_bytes; `heartbeat_timeout`:
  // EngineOptions::heartbeat_timeout_seconds (zero: no heartbeats).
  Communicator(NodeContext& node, Transport& transport, std::size_t aggregation_bytes,
               std::chrono::seconds heartbeat_timeout = std::chrono::seconds{0});

  // Wiring, before any thread runs.
  void add_inbound(MessageRing* ring) { inbound_.push_back(ring); }
  void connect_outbound(int worker, MessageRing* ring, Parker* consumer) {
    outbound_.connect(static_cast<std::size_t>(worker), ring, consumer);
  }
  // The node's only worker runs this communicator between its rounds (no own thread).
  void set_driving_worker(DrivingWorker* worker) noexcept { driving_worker_ = worker; }
  Parker& parker() noexcept { return parker_; }

  // DrivenCommunicator: one round of work; true if anything happened. Without
  // take_arrivals it only sends (its driving worker has enough to do).
  bool progress(bool take_arrivals = true) override;
  // A message from an actor of this node for another node (or for this communicator).
  // Workers hand them over through their rings; the worker that drives this communicator
  // calls it directly.
  void route_outgoing(const Message& message) override;
  // Whether an idle driver must keep polling (the transport cannot wake it).
  bool must_poll() const noexcept override { return must_poll_; }
  void sleep_between_polls() override;
  std::size_t sends_in_flight() const override;  // frames and attachments the transport holds
  void send_waiting_frames() override { flush_frames(true); }

  // The communication thread's body; returns when the node shuts down.
  void run();

  // After every thread has joined: counts what is still in flight as dead letters and
  // closes the transport (collectively).
  void close();

  // The hooks of run_until_shutdown() (engine/idle_loop.hpp).
  bool run_round() { return progress(); }
  bool wait_without_parking();
  bool has_visible_work();

  std::uint64_t dead_letters() const noexcept { return dead_letters_; }
  std::uint64_t frames_sent() const noexcept { return frames_sent_; }
  // Bytes of frames and attached payloads handed to the transport.
  std::uint64_t bytes_sent() const noexcept { return bytes_sent_; }
  std::uint64_t frames_received() const noexcept { return frames_received_; }
  // What this node sent each node (by node index; its own entry stays zero).
  std::vector<NodePairTraffic> traffic_to_nodes() const {
    std::vector<NodePairTraffic> traffic;
    for (const PeerState& peer : peers_) traffic.push_back(peer.sent);
    return traffic;
  }

 private:
  struct PeerState {
    FrameWriter writer;
    MonotonicClock::time_point first_kept;  // when a flush first let the frame wait
    std::uint64_t next_send_sequence = 0;
    std::uint64_t next_receive_sequence = 0;
    std::map<std::uint64_t, std::vector<std::byte>> early_frames;  // arrived out of order
    bool heard = false;  // a frame came since the last heartbeat check
    NodePairTraffic sent;  // to this node
    MonotonicClock::time_point last_heard;  // by the heartbeat check's clock
    explicit PeerState(std::uint32_t node) : writer(node) {}
  };

  struct Drained {
    bool any = false;         // took at least one message
    bool everything = true;   // left nothing visible behind
  };
  Drained drain_workers();
  void append(std::uint32_t node, ActorName from, ActorName to, Action action,
              std::span<const std::byte> payload, bool urgent = false);
  void route(const Message& message, bool urgent);
  void flush_frames(bool everything);
  void send_frame(std::uint32_t node);
  void receive_frame(int source, std::span<const std::byte> frame);
  void deliver_frame(std::uint32_t source, std::span<const std::byte> frame);
  void discard_frame(std::uint32_t source, std::span<const std::byte> frame);
  void keep_heartbeats();
  void node_left(std::uint32_t node, MonotonicClock::time_point now);
  void send_attached(std::uint32_t node, const Message& message, bool urgent);
  void deliver(ActorName from, ActorName to, Action action, std::span<const std::byte> payload,
               bool urgent = false);
  void deliver(ActorName from, ActorName to, Action action, Payload payload, bool urgent = false);
  void control(ActorName from, Action action, std::span<const std::byte> payload);
  void spawn(ActorName requester, std::span<const std::byte> request);
  void migrate_in(ActorName from, std::span<const std::byte> request);
  void send_control(std::uint32_t node, Action action, std::span<const std::byte> payload);
  void check_termination();
  // Handles a termination message between communicators; false if `action` is none.
  bool termination_control(Action action, std::span<const std::byte> payload);
  void maybe_start_wave();
  void record_answer(std::uint64_t wave, bool idle, std::uint64_t sent, std::uint64_t received);
  void terminate_everywhere();
  void stage_to_worker(std::size_t worker, ActorName from, ActorName to, Action action,
                       const PayloadSlot& payload, bool urgent = false);
  bool keep_polling(bool after_empty_poll) const noexcept;

  NodeContext& node_;
  Transport& transport_;
  const std::uint32_t node_index_;
  const std::uint32_t node_count_;
  const bool must_poll_;
  const std::size_t flush_bytes_;

  std::vector<MessageRing*> inbound_;
  OutboundSet outbound_;                   // by worker
  std::vector<PeerState> peers_;           // by node
  std::vector<std::uint32_t> pending_frames_;  // nodes whose writer holds records
  bool received_attachment_ = false;  // in this round's poll
  bool closing_ = false;  // in close(): frames that arrive, in order, are dead letters
  // Heartbeats (communicator_heartbeat.cpp): sent every heartbeat_interval_, a node silent
  // for heartbeat_timeout_ fails the run. The clock is read every kRoundsPerHeartbeatCheck
  // rounds only.
  std::chrono::seconds heartbeat_timeout_;
  std::chrono::milliseconds heartbeat_interval_;
  unsigned rounds_since_heartbeat_check_ = 0;
  MonotonicClock::time_point last_heartbeat_sent_;
  // A node found silent: the failure that ends the run once the watchers of its actors had
  // kWatcherGrace to take their notices (node_left()).
  static constexpr std::chrono::seconds kWatcherGrace{1};
  std::optional<std::string> lost_node_failure_;
  MonotonicClock::time_point lost_node_deadline_;
  DrivingWorker* driving_worker_ = nullptr;  // set in the one-thread mode
  bool received_last_poll_ = false;
  unsigned sleep_microseconds_ = 0;
  bool idle_polling_ = false;
  MonotonicClock::time_point idle_since_;

  // Termination (see check_termination()).
  std::uint64_t spawn_requests_received_ = 0;
  // Large spawn arguments that came apart, for the requester's next spawn requests from the
  // same node: by that node and the requester (an actor that moved to another node between
  // two requests sends the later one on another path, which may overtake the earlier).
  std::map<std::pair<std::uint32_t, ActorName>, std::deque<Payload>> spawn_arguments_;
  std::uint32_t frame_source_ = 0;  // the node whose frame is being delivered
  bool idle_notice_pending_ = false;  // node 0: someone became idle since the last wave
  bool wave_in_progress_ = false;
  std::uint64_t wave_ = 0;
  std::uint32_t answers_ = 0;
  bool wave_all_idle_ = true;
  std::uint64_t wave_sent_ = 0, wave_received_ = 0;
  bool previous_wave_idle_ = false;
  std::uint64_t previous_sent_ = 0, previous_received_ = 0;
  bool terminated_ = false;

  std::uint64_t dead_letters_ = 0;
  std::uint64_t frames_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
  std::uint64_t frames_received_ = 0;
  std::uint64_t parks_ = 0;
  std::uint64_t parked_nanoseconds_ = 0;

  alignas(kCacheLineSize) Parker parker_;
};

}  // namespace xenon
