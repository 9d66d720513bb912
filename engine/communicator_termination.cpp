// SPDX-License-Identifier: BSD-3-Clause
// Termination: when the node's last actor stops, the communicator decides whether the whole
// run has ended, asking every node in waves when there are several.
#include <string>

#include "engine/communicator.hpp"
#include "engine/internal_actions.hpp"
#include "xenon/core/byte_order.hpp"

namespace xenon {

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
  if (node_.live_actors() != 0) return;
  if (node_count_ == 1) {
    if (node_.spawn_requests_sent() == spawn_requests_received_) node_.request_shutdown();
    return;
  }
  if (node_index_ != 0) {
    send_control(0, ACTION_NODE_IDLE, {});
    return;
  }
  idle_notice_pending_ = true;
  maybe_start_wave();
}

void Communicator::maybe_start_wave() {
  if (terminated_ || wave_in_progress_ || !idle_notice_pending_) return;
  if (node_.live_actors() != 0) return;  // node 0 is busy; its own idleness will call back
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
  node_.request_shutdown();
}

bool Communicator::termination_control(Action action, std::span<const std::byte> payload) {
  if (action == ACTION_NODE_IDLE) {
    idle_notice_pending_ = true;
    maybe_start_wave();
  } else if (action == ACTION_WAVE_QUERY) {
    if (payload.size() != 8) throw WireFormatError("wave query must carry 8 bytes");
    std::byte answer[32];
    store_le64(answer, load_le64(payload.data()));
    store_le64(answer + 8, node_.live_actors() == 0 ? 1 : 0);
    // Read after the live count (acquire): see check_termination().
    store_le64(answer + 16, node_.spawn_requests_sent());
    store_le64(answer + 24, spawn_requests_received_);
    send_control(0, ACTION_WAVE_ANSWER, answer);
  } else if (action == ACTION_WAVE_ANSWER) {
    if (payload.size() != 32) throw WireFormatError("wave answer must carry 32 bytes");
    record_answer(load_le64(payload.data()), load_le64(payload.data() + 8) != 0,
                  load_le64(payload.data() + 16), load_le64(payload.data() + 24));
  } else if (action == ACTION_TERMINATE) {
    terminated_ = true;
    node_.request_shutdown();
  } else {
    return false;
  }
  return true;
}

}  // namespace xenon
