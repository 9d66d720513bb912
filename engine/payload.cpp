// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/engine/payload.hpp"

#include <new>
#include <stdexcept>

namespace xenon {

SharedBytes* SharedBytes::allocate(std::size_t size) {
  void* memory = ::operator new(sizeof(SharedBytes) + size);
  return new (memory) SharedBytes(size);
}

void SharedBytes::remove_reference() noexcept {
  // acq_rel: the release half orders this holder's reads of the bytes before the count
  // drops; the acquire half, in the holder that drops the last reference, pairs with every
  // other holder's release so that all their reads happen before the free below.
  if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    this->~SharedBytes();
    ::operator delete(this);
  }
}

Payload Payload::uninitialized(std::size_t size) {
  if (size > UINT32_MAX) throw std::length_error("payloads are limited to 4 GiB - 1 bytes");
  Payload payload;
  payload.slot_.size = static_cast<std::uint32_t>(size);
  if (size > PayloadSlot::kInlineCapacity) {
    payload.slot_.set_shared(SharedBytes::allocate(size));
  }
  return payload;
}

Payload Payload::with_size(std::size_t size) {
  Payload payload = uninitialized(size);
  std::span<std::byte> bytes = payload.writable_bytes();
  if (!bytes.empty()) std::memset(bytes.data(), 0, bytes.size());
  return payload;
}

Payload Payload::copy_of(std::span<const std::byte> bytes) {
  Payload payload = uninitialized(bytes.size());
  if (!bytes.empty()) std::memcpy(payload.writable_bytes().data(), bytes.data(), bytes.size());
  return payload;
}

}  // namespace xenon
