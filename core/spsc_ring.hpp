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
template <class T, class Atomics = StdAtomics>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "SpscRing moves items with plain copies");

 public:
  explicit SpscRing(std::size_t capacity)
      : capacity_(capacity), mask_(capacity - 1), slots_(std::make_unique<Slot[]>(capacity)) {
    if (capacity < 2 || (capacity & (capacity - 1)) != 0) {
      throw std::invalid_argument("SpscRing capacity must be a power of two >= 2");
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
    ++staged_tail_;
    return true;
  }

  // Like try_stage(), but lets fill(T&) write the item straight into its slot.
  template <class Fill>
  bool try_stage_in_place(Fill&& fill) {
    if (staged_tail_ - cached_head_ == capacity_ && !free_for_producer()) return false;
    fill(Atomics::plain_write(slots_[staged_tail_ & mask_]));
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
  // slots with one release store. Returns how many were visited.
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
      visit(Atomics::plain_read(slots_[(head + i) & mask_]));
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
