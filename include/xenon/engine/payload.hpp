// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

namespace xenon {

/// \cond XENON_INTERNAL
// A reference-counted, immutable-once-sent block of bytes for payloads too large to travel
// inline. Every hop passes the pointer; the bytes are written once and never copied again.
class SharedBytes {
 public:
  static SharedBytes* allocate(std::size_t size);

  std::byte* data() noexcept { return reinterpret_cast<std::byte*>(this + 1); }
  const std::byte* data() const noexcept { return reinterpret_cast<const std::byte*>(this + 1); }
  std::size_t size() const noexcept { return size_; }

  void add_reference() noexcept {
    // Relaxed: the caller already holds a reference, so the block cannot be freed meanwhile,
    // and a new reference publishes nothing.
    references_.fetch_add(1, std::memory_order_relaxed);
  }
  void remove_reference() noexcept;

 private:
  explicit SharedBytes(std::size_t size) noexcept : size_(size) {}
  std::atomic<std::uint32_t> references_{1};
  std::size_t size_;
};

// Where a message keeps its payload: up to kInlineCapacity bytes inline (no allocation),
// otherwise a SharedBytes pointer stored in the same bytes. Trivially copyable so messages
// move through rings by plain copy; ownership is tracked by whoever holds the slot.
struct PayloadSlot {
  static constexpr std::size_t kInlineCapacity = 40;

  std::uint32_t size = 0;
  std::byte bytes[kInlineCapacity];

  bool is_shared() const noexcept { return size > kInlineCapacity; }
  SharedBytes* shared() const noexcept {
    std::array<std::byte, sizeof(SharedBytes*)> address;
    std::copy_n(bytes, address.size(), address.begin());
    return std::bit_cast<SharedBytes*>(address);
  }
  void set_shared(SharedBytes* block) noexcept {
    const auto address = std::bit_cast<std::array<std::byte, sizeof(SharedBytes*)>>(block);
    std::copy(address.begin(), address.end(), bytes);
  }
  std::span<const std::byte> view() const noexcept {
    return {is_shared() ? shared()->data() : bytes, size};
  }
  // Drops this slot's reference (no-op for inline payloads).
  void release() const noexcept {
    if (is_shared()) shared()->remove_reference();
  }
};

/// \endcond

/// An owned payload, ready to be sent. Move-only: sending it moves the bytes (or the single
/// reference to a large block) into the message without copying. Up to 40 bytes are kept
/// inline (no allocation); a larger payload is one reference-counted heap block, passed
/// between the actors of a node without copying. Payloads are limited to 4 GiB - 1 bytes.
///
/// \threads One owner at a time, which may hand it to any thread. Owners made by share() or
/// Message::share_payload() may live on different threads (the count is atomic); shared
/// bytes are read-only.
/// \headerfile xenon.hpp <xenon/xenon.hpp>
class Payload {
 public:
  /// An empty payload (size 0).
  Payload() noexcept = default;
  /// Drops this owner's bytes (a large block is freed with its last owner).
  ~Payload() { slot_.release(); }
  /// Takes `other`'s bytes; `other` is left empty.
  Payload(Payload&& other) noexcept : slot_(other.slot_) { other.slot_.size = 0; }
  /// Drops this payload's bytes and takes `other`'s; `other` is left empty.
  Payload& operator=(Payload&& other) noexcept {
    if (this != &other) {
      slot_.release();
      slot_ = other.slot_;
      other.slot_.size = 0;
    }
    return *this;
  }
  Payload(const Payload&) = delete;
  Payload& operator=(const Payload&) = delete;

  /// A zero-filled payload of the given size to write into before sending. Throws
  /// std::length_error above 4 GiB - 1 bytes.
  static Payload with_size(std::size_t size);
  /// Like with_size(), without zero-filling: for a caller that overwrites every byte.
  static Payload for_overwrite(std::size_t size) { return uninitialized(size); }
  /// A payload holding a copy of `bytes`.
  static Payload copy_of(std::span<const std::byte> bytes);
  /// A payload holding the bytes of one trivially copyable value (read back with
  /// Message::payload_as<T>()).
  template <class T>
  static Payload of(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "payload values are sent as raw bytes");
    return copy_of(std::as_bytes(std::span<const T, 1>(&value, 1)));
  }

  /// The size in bytes.
  std::size_t size() const noexcept { return slot_.size; }
  /// The bytes, valid while this payload owns them.
  std::span<const std::byte> bytes() const noexcept { return slot_.view(); }
  /// The bytes to fill in; writable only before the payload is sent or shared.
  std::span<std::byte> writable_bytes() noexcept {
    return {slot_.is_shared() ? slot_.shared()->data() : slot_.bytes, slot_.size};
  }

  /// Another owner of the same bytes: a new reference for large payloads (no copy), a copy
  /// for inline ones. Shared bytes must not be written any more.
  Payload share() const {
    if (slot_.is_shared()) {
      slot_.shared()->add_reference();
      return adopt_slot(slot_);
    }
    return copy_of(bytes());
  }

  /// \cond XENON_INTERNAL
  // Gives up ownership of the slot (the engine takes it when sending).
  PayloadSlot release_slot() noexcept {
    PayloadSlot slot = slot_;
    slot_.size = 0;
    return slot;
  }
  // Takes ownership of a slot that holds one reference.
  static Payload adopt_slot(const PayloadSlot& slot) noexcept {
    Payload payload;
    payload.slot_ = slot;
    return payload;
  }
  /// \endcond

 private:
  static Payload uninitialized(std::size_t size);
  PayloadSlot slot_;
};

}  // namespace xenon
