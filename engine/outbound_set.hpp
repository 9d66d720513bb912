// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <vector>

#include "engine/outbound_channel.hpp"

namespace xenon {

// The producer ends one thread holds, one OutboundChannel per consumer, and which of them
// hold messages not yet handed over (staged or overflowing). A worker has one (to every
// other worker and to the communicator), the communicator another (to every worker).
// Touched only by the owning thread.
class OutboundSet {
 public:
  explicit OutboundSet(std::size_t channels) : channels_(channels), unpublished_(channels, false) {}

  // Wiring, before any thread runs.
  void connect(std::size_t channel, MessageRing* ring, Parker* consumer) noexcept {
    channels_[channel].connect(ring, consumer);
  }
  std::size_t size() const noexcept { return channels_.size(); }
  // Messages that waited for room in a full ring, over every channel.
  std::uint64_t ring_full_waits() const noexcept {
    std::uint64_t waits = 0;
    for (const OutboundChannel& channel : channels_) waits += channel.ring_full_waits();
    return waits;
  }

  // Stages a message for `channel` (published at once when a batch is full) and returns
  // that channel, whose overflow the caller may bound.
  OutboundChannel& stage(std::size_t channel, ActorName from, ActorName to, Action action,
                         const PayloadSlot& payload) {
    if (!unpublished_[channel]) {
      unpublished_[channel] = true;
      unpublished_channels_.push_back(channel);
    }
    OutboundChannel& outbound = channels_[channel];
    outbound.stage(from, to, action, payload);
    return outbound;
  }

  // Publishes every channel holding messages; those still overflowing stay listed.
  void flush() {
    std::size_t kept = 0;
    for (std::size_t channel : unpublished_channels_) {
      if (channels_[channel].flush()) {
        unpublished_channels_[kept++] = channel;
      } else {
        unpublished_[channel] = false;
      }
    }
    unpublished_channels_.resize(kept);
  }

  // Whether messages wait for room in a consumer's ring (or were staged since flush()).
  bool has_unpublished() const noexcept { return !unpublished_channels_.empty(); }

  // Publishes what it can, then whether every consumer has taken every message this
  // thread sent it (engine/worker_balancing.cpp: before an actor leaves this thread).
  bool all_taken_by_consumers() {
    flush();
    if (has_unpublished()) return false;
    for (OutboundChannel& channel : channels_) {
      if (channel.connected() && !channel.taken_by_consumer()) return false;
    }
    return true;
  }

  // After every consumer has stopped: publishes what was staged and hands each overflowing
  // message to `discard`.
  template <class Discard>
  void discard_overflow(Discard&& discard) {
    for (OutboundChannel& channel : channels_) {
      if (channel.connected()) channel.discard_overflow(discard);
    }
    unpublished_channels_.clear();
    unpublished_.assign(unpublished_.size(), false);
  }

 private:
  std::vector<OutboundChannel> channels_;  // by consumer
  std::vector<bool> unpublished_;          // by consumer: listed in unpublished_channels_
  std::vector<std::size_t> unpublished_channels_;
};

}  // namespace xenon
