// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "core/atomics_policy.hpp"
#include "xenon/core/cache_line.hpp"

namespace xenon {

/// \cond XENON_INTERNAL
// Installed with the public headers (engine.hpp includes it) but not part of the API:
// left out of the reference (make docs).

// A bounded single-producer / single-consumer ring of trivially copyable items.
//
// Threading contract: calls under "Producer side" come from one thread only, calls under
// "Consumer side" from one (other) thread only; the two sides never wait on each other.
//
// The producer may stage several items and make them visible at once with publish(): one
// release store per batch instead of one per item. Each side caches the other side's index
// and rereads the shared one only when the cache says full (producer) or empty (consumer),
// so in steady state each batch moves the two index cache lines once.
//
// Happens-before, in full (see also core/spsc_ring.md):
//  - publish(): plain writes of the staged slots, then tail_.store(release). It pairs with
//    the consumer's tail_.load(acquire) in available_to_consumer(): a consumer that sees the
//    new tail also sees the slot contents written before it.
//  - release_consumed(): plain reads of the slots, then head_.store(release). It pairs with
//    the producer's head_.load(acquire) in free_for_producer(): a producer that sees the
//    new head has the consumer's reads of those slots happen before its overwrites.
// Indices are 64-bit and only grow, so they never wrap in practice (2^64 items).
//
// Stamps (optional, a Stamps policy other than NoRingStamps): the producer writes a 64-bit
// stamp, Stamps::stamp(position), for each position that is a multiple of
// Stamps::kInterval, into a small array beside the slots, while staging that item; a
// consumer whose visit takes (const T&, const std::uint64_t* stamp) gets it with that
// item (nullptr at other positions). The stamp is written like the slot, after the
// producer knows the slot is free and before publish(), so the same release/acquire pairs
// cover it: the tail's publishes the stamp with its slot, and the head's orders the
// consumer's read of a stamp before the producer's next write of the same stamp cell
// (reused kInterval * stamp-count >= capacity positions later, once that slot is free).
struct NoRingStamps {
  static constexpr std::uint64_t kInterval = 0;
  static std::uint64_t stamp(std::uint64_t /*position*/) noexcept { return 0; }
};

template <class T, class Atomics = StdAtomics, class Stamps = NoRingStamps>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "SpscRing moves items with plain copies");
  static constexpr bool kStamped = Stamps::kInterval != 0;
  static_assert(!kStamped || (Stamps::kInterval & (Stamps::kInterval - 1)) == 0,
                "the stamp interval must be a power of two");

 public:
  explicit SpscRing(std::size_t capacity)
      : capacity_(capacity), mask_(capacity - 1), slots_(std::make_unique<Slot[]>(capacity)) {
    if (capacity < 2 || (capacity & (capacity - 1)) != 0) {
      throw std::invalid_argument("SpscRing capacity must be a power of two >= 2");
    }
    if constexpr (kStamped) {
      const std::size_t count = capacity > Stamps::kInterval ? capacity / Stamps::kInterval : 1;
      stamp_mask_ = count - 1;
      stamps_ = std::make_unique<StampCell[]>(count);
    }
  }

  SpscRing(const SpscRing&) = delete;
  SpscRing& operator=(const SpscRing&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }

  // ---- Producer side ----

  // Writes an item into the next free slot without making it visible. Returns false when
  // the ring is full (counting staged items); the caller keeps the item.
  bool try_stage(const T& item) noexcept {
    if (staged_tail_ - cached_head_ == capacity_ && !free_for_producer()) return false;
    Atomics::plain_write(slots_[staged_tail_ & mask_]) = item;
    stamp_if_due();
    ++staged_tail_;
    return true;
  }

  // Like try_stage(), but lets fill(T&) write the item straight into its slot.
  template <class Fill>
  bool try_stage_in_place(Fill&& fill) {
    if (staged_tail_ - cached_head_ == capacity_ && !free_for_producer()) return false;
    fill(Atomics::plain_write(slots_[staged_tail_ & mask_]));
    stamp_if_due();
    ++staged_tail_;
    return true;
  }

  // Makes every staged item visible to the consumer. Returns how many became visible.
  std::size_t publish() noexcept {
    const std::uint64_t newly_visible = staged_tail_ - published_tail_;
    if (newly_visible == 0) return 0;
    // Release: pairs with the acquire load of tail in available_to_consumer(), publishing
    // the slot writes made by try_stage().
    producer_.tail.store(staged_tail_, std::memory_order_release);
    published_tail_ = staged_tail_;
    return static_cast<std::size_t>(newly_visible);
  }

  bool try_push(const T& item) noexcept {
    if (!try_stage(item)) return false;
    publish();
    return true;
  }

  std::size_t staged_count() const noexcept {
    return static_cast<std::size_t>(staged_tail_ - published_tail_);
  }

  // True when the consumer has taken every item staged so far (so nothing is staged
  // unpublished either). Everything the consumer did with those items happens before the
  // caller's next step: its head store (release) pairs with the acquire load here. Rereads
  // the shared head, so call it rarely (engine/worker_balancing.cpp: before a hand-off).
  bool consumer_took_everything() noexcept {
    // Acquire: pairs with the release store of head in release_consumed().
    cached_head_ = consumer_.head.load(std::memory_order_acquire);
    return staged_tail_ == published_tail_ && cached_head_ == staged_tail_;
  }

  // ---- Consumer side ----

  // Calls visit(const T&) for up to max_items visible items, oldest first, then frees their
  // slots with one release store. Returns how many were visited. With stamps, a visit
  // taking (const T&, const std::uint64_t*) gets each item's stamp, or nullptr.
  template <class Visit>
  std::size_t consume(Visit&& visit, std::size_t max_items = SIZE_MAX) {
    const std::uint64_t head = consumed_head_;
    std::uint64_t available = cached_tail_ - head;
    if (available == 0) {
      available = available_to_consumer(head);
      if (available == 0) return 0;
    }
    const std::uint64_t count = available < max_items ? available : max_items;
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t position = head + i;
      if constexpr (std::is_invocable_v<Visit&, const T&, const std::uint64_t*>) {
        static_assert(kStamped, "a visit that takes stamps needs a ring that writes them");
        std::uint64_t stamp = 0;
        const bool stamped = (position & (Stamps::kInterval - 1)) == 0;
        // Read after the acquire of tail in available_to_consumer() (see the class comment).
        if (stamped) [[unlikely]] stamp = Atomics::plain_read(stamps_[stamp_index(position)]);
        visit(Atomics::plain_read(slots_[position & mask_]), stamped ? &stamp : nullptr);
      } else {
        visit(Atomics::plain_read(slots_[position & mask_]));
      }
    }
    release_consumed(head + count);
    return static_cast<std::size_t>(count);
  }

  bool try_pop(T& item) noexcept {
    return consume([&item](const T& slot) { item = slot; }, 1) == 1;
  }

  // True when the consumer would find nothing to consume. Reads the shared tail (acquire),
  // so it sees every item published before it.
  bool empty_for_consumer() noexcept {
    return available_to_consumer(consumed_head_) == 0;
  }

 private:
  std::size_t stamp_index(std::uint64_t position) const noexcept {
    return static_cast<std::size_t>((position / Stamps::kInterval) & stamp_mask_);
  }
  // Producer only, for the item at staged_tail_, whose slot is known to be free.
  void stamp_if_due() noexcept {
    if constexpr (kStamped) {
      if ((staged_tail_ & (Stamps::kInterval - 1)) == 0) [[unlikely]] {
        Atomics::plain_write(stamps_[stamp_index(staged_tail_)]) = Stamps::stamp(staged_tail_);
      }
    }
  }

  // Producer only: rereads the consumer's head. True when at least one slot is free.
  bool free_for_producer() noexcept {
    // Acquire: pairs with the release store of head in release_consumed(), so the
    // consumer's reads of the freed slots happen before we overwrite them.
    cached_head_ = consumer_.head.load(std::memory_order_acquire);
    return staged_tail_ - cached_head_ < capacity_;
  }

  // Consumer only: rereads the producer's tail. Returns how many items are visible.
  std::uint64_t available_to_consumer(std::uint64_t head) noexcept {
    // Acquire: pairs with the release store of tail in publish(), so the slot writes made
    // before that publish are visible to our reads.
    cached_tail_ = producer_.tail.load(std::memory_order_acquire);
    return cached_tail_ - head;
  }

  void release_consumed(std::uint64_t new_head) noexcept {
    // Release: pairs with the acquire load of head in free_for_producer(); our reads of the
    // slots happen before the producer reuses them.
    consumer_.head.store(new_head, std::memory_order_release);
    consumed_head_ = new_head;
  }

  // Producer's line: the shared tail plus the producer's private state. The consumer reads
  // tail (one line transfer per batch); nobody else touches this line.
  struct alignas(kCacheLineSize) ProducerLine {
    typename Atomics::template atomic<std::uint64_t> tail{0};
  };
  // Consumer's line: the shared head. The producer reads it only when its cache says full.
  struct alignas(kCacheLineSize) ConsumerLine {
    typename Atomics::template atomic<std::uint64_t> head{0};
  };

  // A slot is plain data: written by the producer before publish(), read by the consumer
  // after available_to_consumer(). T itself in the shipped build (see atomics_policy.hpp).
  using Slot = typename Atomics::template plain<T>;

  const std::size_t capacity_;
  const std::uint64_t mask_;
  const std::unique_ptr<Slot[]> slots_;
  // Stamps, one per kInterval positions (at least one): plain data like the slots.
  using StampCell = typename Atomics::template plain<std::uint64_t>;
  std::unique_ptr<StampCell[]> stamps_;
  std::uint64_t stamp_mask_ = 0;

  ProducerLine producer_;
  // Producer only. The shared tail is only ever stored to; its value lives here, so the
  // producer never reads the line the consumer polls.
  std::uint64_t staged_tail_ = 0;
  std::uint64_t published_tail_ = 0;
  std::uint64_t cached_head_ = 0;  // last head seen
  alignas(kCacheLineSize) ConsumerLine consumer_;
  // Consumer only: the value of the shared head, and the last tail seen.
  std::uint64_t consumed_head_ = 0;
  std::uint64_t cached_tail_ = 0;
  char padding_[kCacheLineSize - 2 * sizeof(std::uint64_t)];  // keep the next object off our line
};

/// \endcond

}  // namespace xenon
