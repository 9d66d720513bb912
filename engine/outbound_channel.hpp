// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <deque>

#include "core/parker.hpp"
#include "core/spsc_ring.hpp"
#include "xenon/engine/message.hpp"

namespace xenon {

using MessageRing = SpscRing<Message>;

// The producer end of one ring, owned by the thread that sends into it. Messages are built
// in place in the ring and published in batches; when the ring is full they wait, in order,
// in an overflow queue that is drained first. Nothing is ever dropped.
class OutboundChannel {
 public:
  static constexpr std::size_t kPublishBatch = 64;

  void connect(MessageRing* ring, Parker* consumer) noexcept {
    ring_ = ring;
    consumer_ = consumer;
  }
  bool connected() const noexcept { return ring_ != nullptr; }
  std::size_t overflow_size() const noexcept { return overflow_.size(); }

  // Stages a message; publishes at once when a batch is full.
  void stage(ActorName from, ActorName to, Action action, const PayloadSlot& payload) {
    // Once anything overflows, later messages queue behind it to keep per-pair order.
    if (!overflow_.empty() ||
        !ring_->try_stage_in_place([&](Message& slot) { slot.assign(from, to, action, payload); })) {
      overflow_.emplace_back(from, to, action, payload);
      return;
    }
    if (ring_->staged_count() >= kPublishBatch) {
      ring_->publish();
      consumer_->wake();
    }
  }

  // Moves what fits of the overflow into the ring, publishes, and wakes the consumer if
  // anything became visible. Returns true while messages still wait in the overflow.
  bool flush() {
    while (!overflow_.empty() && ring_->try_stage(overflow_.front())) overflow_.pop_front();
    if (ring_->publish() > 0) consumer_->wake();
    return !overflow_.empty();
  }

  // After the consumer has stopped: hands every overflowing message to discard.
  template <class Discard>
  void discard_overflow(Discard&& discard) {
    ring_->publish();
    for (const Message& message : overflow_) discard(message);
    overflow_.clear();
  }

 private:
  MessageRing* ring_ = nullptr;
  Parker* consumer_ = nullptr;
  std::deque<Message> overflow_;
};

}  // namespace xenon
