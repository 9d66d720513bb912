// SPDX-License-Identifier: BSD-3-Clause
// Heartbeats: a node that stops answering (SIGSTOP, a hung machine, a cut link) neither
// fails nor exits, so nothing else would end the run: the others would wait for it until
// the batch system's time limit. Every node tells every other one that it still runs, and
// fails (which ends the job, naming the silent node) when one has sent nothing for the
// timeout: after giving the watchers of that node's actors their notices (node_left()).
#include <stdexcept>
#include <string>

#include "engine/communicator.hpp"
#include "engine/internal_actions.hpp"
#include "engine/monitor_messages.hpp"

namespace xenon {
namespace {

// The clock is read once per this many rounds: a round is microseconds when busy and at
// most about a millisecond when idle, so the checks stay far finer than the timeout.
constexpr unsigned kRoundsPerHeartbeatCheck = 64;

}  // namespace

void Communicator::keep_heartbeats() {
  if (heartbeat_timeout_.count() == 0 || node_count_ == 1) return;
  if (++rounds_since_heartbeat_check_ < kRoundsPerHeartbeatCheck) return;
  rounds_since_heartbeat_check_ = 0;
  const auto now = MonotonicClock::now();
  if (lost_node_failure_ && now >= lost_node_deadline_)
    throw std::runtime_error(*lost_node_failure_);
  if (last_heartbeat_sent_ == MonotonicClock::time_point{}) {  // the first check: start counting
    last_heartbeat_sent_ = now;
    for (PeerState& peer : peers_) peer.last_heard = now;
    return;
  }
  if (now - last_heartbeat_sent_ >= heartbeat_interval_) {
    last_heartbeat_sent_ = now;
    for (std::uint32_t node = 0; node < node_count_; ++node) {
      if (node != node_index_) send_control(node, ACTION_HEARTBEAT, {});
    }
  }
  for (std::uint32_t node = 0; node < node_count_; ++node) {
    if (node == node_index_) continue;
    PeerState& peer = peers_[node];
    if (peer.heard) {
      peer.heard = false;
      peer.last_heard = now;
    } else if (now - peer.last_heard > heartbeat_timeout_ && !lost_node_failure_) {
      node_left(node, now);
    }
  }
}

// A silent node has left the job, and the job ends (its actors' messages can no longer be
// delivered, nor the collective close be done). Before that, the watchers of its actors on
// this node get their notices, and kWatcherGrace to act on them (log, save what they have).
void Communicator::node_left(std::uint32_t node, MonotonicClock::time_point now) {
  const std::string why = "rank " + std::to_string(node) + " has sent nothing for " +
                          std::to_string(heartbeat_timeout_.count()) +
                          " s (-heartbeat-timeout): it is stopped, hung or unreachable";
  lost_node_failure_ = why;
  lost_node_deadline_ = now + kWatcherGrace;
  const std::string reason = "node " + std::to_string(node) + " left the job: " + why;
  for (std::size_t worker = 0; worker < outbound_.size(); ++worker) {
    // Addressed to no actor: the worker takes it on its path for absent actors.
    const ActorName to =
        ActorName::make(node_index_, static_cast<std::uint32_t>(worker), kNoActorIndex);
    stage_to_worker(worker, communicator_name(node_index_), to, ACTION_NODE_LEFT,
                    node_left_payload(node, reason).release_slot());
  }
}

}  // namespace xenon
