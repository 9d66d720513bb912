// SPDX-License-Identifier: BSD-3-Clause
// Heartbeats: a node that stops answering (SIGSTOP, a hung machine, a cut link) neither
// fails nor exits, so nothing else would end the run: the others would wait for it until
// the batch system's time limit. Every node tells every other one that it still runs, and
// fails (which ends the job, naming the silent node) when one has sent nothing for the
// timeout.
#include <stdexcept>
#include <string>

#include "engine/communicator.hpp"
#include "engine/internal_actions.hpp"

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
    } else if (now - peer.last_heard > heartbeat_timeout_) {
      throw std::runtime_error(
          "rank " + std::to_string(node) + " has sent nothing for " +
          std::to_string(heartbeat_timeout_.count()) +
          " s (-heartbeat-timeout): it is stopped, hung or unreachable");
    }
  }
}

}  // namespace xenon
