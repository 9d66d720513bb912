// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>

#include "core/parker.hpp"
#include "core/spsc_ring.hpp"
#include "engine/urgent_envelope.hpp"
#include "xenon/core/clock.hpp"
#include "xenon/engine/message.hpp"

namespace xenon {

// The send time (MonotonicClock, nanoseconds) of every 64th message through a ring, for
// the receiving worker's queue-time samples (engine/queue_time_sample.cpp).
struct QueueTimeStamps {
  static constexpr std::uint64_t kInterval = 64;
  static std::uint64_t stamp(std::uint64_t /*position*/) noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          MonotonicClock::now().time_since_epoch())
                                          .count());
  }
};

using MessageRing = SpscRing<Message, StdAtomics, QueueTimeStamps>;

// The producer end of one ring, owned by the thread that sends into it. Messages are built
// in place in the ring and published in batches; when the ring is full they wait, in order,
// in an overflow queue that is drained first. Nothing is ever dropped. Urgent envelopes
// (engine/urgent_envelope.hpp) have an overflow queue of their own, drained before the
// normal one: an urgent message waits behind earlier urgent ones only, never behind normal
// messages for other receivers (a ring is one FIFO, so it does wait behind those already in
// the ring).
class OutboundChannel {
 public:
  static constexpr std::size_t kPublishBatch = 64;

  void connect(MessageRing* ring, Parker* consumer) noexcept {
    ring_ = ring;
    consumer_ = consumer;
  }
  bool connected() const noexcept { return ring_ != nullptr; }
  std::size_t overflow_size() const noexcept { return overflow_.size() + urgent_overflow_.size(); }
  // Messages that found the ring full (or others already waiting) and went to the overflow.
  std::uint64_t ring_full_waits() const noexcept { return ring_full_waits_; }

  // Stages a message; publishes at once when a batch is full.
  void stage(ActorName from, ActorName to, Action action, const PayloadSlot& payload) {
    if (action == ACTION_URGENT) [[unlikely]] {
      stage_urgent(Message(from, to, action, payload));
      return;
    }
    // Once anything overflows, later messages queue behind it to keep per-pair order (and
    // behind waiting urgent ones, so that an urgent message is never overtaken by a normal
    // one sent after it).
    if (!overflow_.empty() || !urgent_overflow_.empty() ||
        !ring_->try_stage_in_place([&](Message& slot) { slot.assign(from, to, action, payload); })) {
      overflow_.emplace_back(from, to, action, payload);
      ++ring_full_waits_;
      return;
    }
    publish_full_batch();
  }

  // Moves what fits of the overflow into the ring, publishes, and wakes the consumer if
  // anything became visible. Returns true while messages still wait in the overflow.
  bool flush() {
    while (!urgent_overflow_.empty() && ring_->try_stage(urgent_overflow_.front())) {
      urgent_overflow_.pop_front();
    }
    if (urgent_overflow_.empty()) {
      while (!overflow_.empty() && ring_->try_stage(overflow_.front())) overflow_.pop_front();
    }
    if (ring_->publish() > 0) consumer_->wake();
    return !overflow_.empty() || !urgent_overflow_.empty();
  }

  // Whether the consumer has taken every message sent through this channel (none
  // overflows, none is staged, the ring is empty). Rereads the consumer's head: rare calls.
  bool taken_by_consumer() noexcept {
    return overflow_.empty() && urgent_overflow_.empty() && ring_->consumer_took_everything();
  }

  // After the consumer has stopped: hands every overflowing message to discard.
  template <class Discard>
  void discard_overflow(Discard&& discard) {
    ring_->publish();
    for (const Message& message : urgent_overflow_) discard(message);
    for (const Message& message : overflow_) discard(message);
    urgent_overflow_.clear();
    overflow_.clear();
  }

 private:
  // An urgent envelope goes into the ring ahead of the normal overflow, behind earlier
  // urgent ones.
  void stage_urgent(const Message& envelope) {
    if (!urgent_overflow_.empty() || !ring_->try_stage(envelope)) {
      urgent_overflow_.push_back(envelope);
      ++ring_full_waits_;
      return;
    }
    publish_full_batch();
  }
  void publish_full_batch() {
    if (ring_->staged_count() >= kPublishBatch) {
      ring_->publish();
      consumer_->wake();
    }
  }

  MessageRing* ring_ = nullptr;
  Parker* consumer_ = nullptr;
  std::deque<Message> overflow_;
  std::deque<Message> urgent_overflow_;  // envelopes, drained into the ring before overflow_
  std::uint64_t ring_full_waits_ = 0;
};

}  // namespace xenon
