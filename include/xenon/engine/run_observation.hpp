// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace xenon {

/// A histogram of durations in log2 buckets: bucket b counts durations of 2^b to
/// 2^(b+1) - 1 nanoseconds (bucket 0 also holds 0 ns).
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct DurationHistogram {
  static constexpr std::size_t kBuckets = 64;  ///< one per power of two of a 64-bit count
  std::array<std::uint64_t, kBuckets> buckets{};  ///< durations counted per bucket
  std::uint64_t count = 0;                        ///< durations added, all buckets
  std::uint64_t max_nanoseconds = 0;              ///< the longest added

  /// Counts one duration in its bucket.
  void add(std::uint64_t nanoseconds) noexcept {
    const std::size_t bucket =
        nanoseconds == 0 ? 0 : static_cast<std::size_t>(63 - __builtin_clzll(nanoseconds));
    ++buckets[bucket];
    ++count;
    if (nanoseconds > max_nanoseconds) max_nanoseconds = nanoseconds;
  }
  /// Adds every duration `other` counted (a node's workers into the node, nodes into the run).
  void merge(const DurationHistogram& other) noexcept {
    for (std::size_t b = 0; b < kBuckets; ++b) buckets[b] += other.buckets[b];
    count += other.count;
    if (other.max_nanoseconds > max_nanoseconds) max_nanoseconds = other.max_nanoseconds;
  }
  /// The upper bound (2^(b+1) - 1 ns, at most the maximum) of the bucket that holds the
  /// `fraction` quantile (0.5: the median); 0 when empty.
  std::uint64_t quantile_nanoseconds(double fraction) const noexcept {
    if (count == 0) return 0;
    const auto rank = static_cast<std::uint64_t>(fraction * static_cast<double>(count - 1)) + 1;
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      seen += buckets[b];
      if (seen >= rank) {
        const std::uint64_t upper = b >= 63 ? ~std::uint64_t{0} : (std::uint64_t{2} << b) - 1;
        return upper < max_nanoseconds ? upper : max_nanoseconds;
      }
    }
    return max_nanoseconds;
  }
};

/// Where one worker's time and messages went (EngineStatistics::workers).
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct WorkerObservation {
  std::uint64_t busy_nanoseconds = 0;    ///< inside receive() (read once per round)
  std::uint64_t parked_nanoseconds = 0;  ///< asleep, waiting to be woken
  /// Neither busy nor parked: moving messages, spinning and yielding.
  std::uint64_t idle_nanoseconds = 0;
  std::uint64_t messages_received = 0;    ///< handed to receive()
  /// Put by this worker into its own actors' mailboxes: sends to an actor of this very
  /// worker (and the engine's own local notices: monitors, ask answers and timeouts).
  std::uint64_t sent_to_same_worker = 0;
  std::uint64_t sent_to_other_workers = 0;  ///< through the rings to the other workers of this node
  std::uint64_t sent_to_other_nodes = 0;    ///< to actors on other nodes (through the communicator)
  /// Messages to each worker of this node, by worker (this worker's own entry: sent to
  /// itself): a row of the node's worker matrix.
  std::vector<std::uint64_t> sent_to_worker;
  /// Messages that found the ring to their consumer full and waited in the overflow queue.
  std::uint64_t ring_full_waits = 0;
  /// Time inside receive() of the first message of each round of the worker (a round
  /// runs up to 256 messages: busy, one sample in 256; lightly loaded, nearly every one),
  /// from the clock read that begins the round, so one more read per round.
  DurationHistogram receive_time;
  /// Time from send() to the start of the receive() that took the message, sampled (about
  /// one message in 64, at most one sample waiting per worker): sends to this worker's own
  /// actors, from other workers, and from other nodes counted from their arrival on this
  /// node (the clocks of two nodes differ).
  DurationHistogram queue_time;
};

/// Actors of one type on one node (EngineStatistics::actor_types): the type is the name the
/// actor gives (Actor::type_name()), by default its demangled C++ type.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct ActorTypeObservation {
  std::string type;  ///< Actor::type_name() of these actors
  std::uint64_t actors = 0;             ///< actors of this type that lived here
  std::uint64_t messages_handled = 0;   ///< handed to their receive()
  /// Most messages one of them had waiting when a turn began, among the turns that left
  /// some behind (a turn handles up to 64); 0 if every turn emptied the mailbox. Seen from
  /// the turn's end: what it handled, and what was left (then including what it sent
  /// itself meanwhile).
  std::uint64_t mailbox_high_water = 0;
};

/// What one node sent another (EngineStatistics::to_nodes, node_matrix).
/// \headerfile xenon.hpp <xenon/xenon.hpp>
struct NodePairTraffic {
  std::uint64_t frames = 0;    ///< frames (batches of records) sent
  std::uint64_t messages = 0;  ///< records in frames (the engine's own control messages too)
  std::uint64_t bytes = 0;     ///< frames and attached large payloads
  /// Messages per frame: what aggregation bought (0 with no frame).
  double aggregation() const noexcept {
    return frames == 0 ? 0.0 : static_cast<double>(messages) / static_cast<double>(frames);
  }
};

}  // namespace xenon
