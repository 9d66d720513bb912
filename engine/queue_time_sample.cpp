// SPDX-License-Identifier: BSD-3-Clause
// Queue time: from send() to the start of the receive() that takes the message, sampled.
//
// A message has no room for a send time (it is exactly 64 bytes), and the message path
// has no instructions to spare (the limit: +2% on latency_probe, counters
// included), so sampling costs no test per message of its own:
//  - At most one sampled message is in flight per worker. Its time, its mailbox node and
//    its true destination are kept here, and the node's copy of the message is marked with
//    the reply-address bit (kReplyAddressBit): run_turn() already tests that bit on every
//    message (for answers to asks), and only there compares the node with sampled_node_,
//    unmarks it and records the time before the message is dispatched as sent.
//  - Same-worker sends: a round with no sample pending arms one by setting the relief
//    threshold to 0, which send() already compares with on every message; the round's next
//    send (send() or send_urgent()) lands in past_relief_threshold(), takes the sample and
//    puts the threshold back. So about one sample per round (up to 256 messages).
//  - From another worker or the communicator: the producer stamps ring positions that are
//    a multiple of 64 (QueueTimeStamps, core/spsc_ring.hpp); the consumer, moving such a
//    message into a mailbox, takes the stamp as its send time (Worker::drain_inbound()).
//  - From another node: the clocks of two nodes differ, so the time counts from arrival on
//    this node: the communicator's ring stamp, or with one thread per node 1 in 64 of the
//    arrivals the driven communicator hands over. The path between nodes is left out (the
//    node-pair counters count its frames).
// A node freed without a receive (its actor stopped, the run ended) is unmarked first
// (Worker::empty_mailbox()), so it is read as sent and a reused node gives no false time.
#include <chrono>

#include "engine/worker.hpp"
#include "xenon/engine/ask.hpp"

namespace xenon {

void Worker::begin_queue_time_sample(MessageNode* node, MonotonicClock::time_point sent_at) noexcept {
  if (sampled_node_ != nullptr || node == nullptr) return;  // one in flight already; no node
  sampled_node_ = node;
  sampled_sent_at_ = sent_at;
  sampled_destination_ = node->message.destination();
  node->message.set_destination(ActorName::make(sampled_destination_.node(), sampled_destination_.worker(),
                                                sampled_destination_.index() | kReplyAddressBit));
}

void Worker::unmark_sampled_node() noexcept {
  sampled_node_->message.set_destination(sampled_destination_);
  sampled_node_ = nullptr;
}

void Worker::arm_same_worker_sample() noexcept {
  same_worker_sample_armed_ = sampled_node_ == nullptr;  // not while a ring sample waits
  if (same_worker_sample_armed_) relief_threshold_ = 0;
}

void Worker::past_relief_threshold(MessageNode* node) {
  if (same_worker_sample_armed_) {
    same_worker_sample_armed_ = false;
    relief_threshold_ = kMailboxLimit;  // as the round set it
    begin_queue_time_sample(node, MonotonicClock::now());
    if (pool_.nodes_in_use() <= relief_threshold_) return;
  }
  relieve_mailboxes();
}

void Worker::past_relief_threshold_after_send(Actor* actor) {
  past_relief_threshold(actor->mailbox_.newest());
}

void Worker::sample_arrival(MessageNode* node) noexcept {
  arrivals_until_sample_ = kArrivalSampleInterval;
  begin_queue_time_sample(node, MonotonicClock::now());
}

void Worker::begin_ring_sample(MessageNode* node, std::uint64_t sent_at_nanoseconds) noexcept {
  begin_queue_time_sample(node, MonotonicClock::time_point(std::chrono::duration_cast<MonotonicClock::duration>(
                                    std::chrono::nanoseconds(sent_at_nanoseconds))));
}

void Worker::end_queue_time_sample() noexcept {
  const auto waited = MonotonicClock::now() - sampled_sent_at_;
  unmark_sampled_node();
  queue_time_.add(waited.count() <= 0 ? 0
                                      : static_cast<std::uint64_t>(
                                            std::chrono::duration_cast<std::chrono::nanoseconds>(waited).count()));
}

}  // namespace xenon
