// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

namespace xenon {

/// A typed payload that cannot be decoded: truncated, malformed, of another type, or with
/// bytes left over. what() names the problem and the byte offset where it was found.
class TypedDecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Writes a typed encoding (what an Encoding<T>::write() is given) into a buffer sized
/// beforehand by the encodings' size() functions. Every write is checked against that size:
/// an Encoding whose size() disagrees with its write() is a bug, reported as
/// std::logic_error rather than a write out of bounds.
/// \threads One thread at a time.
class TypedWriter {
 public:
  /// Writes into `out`, from its first byte.
  explicit TypedWriter(std::span<std::byte> out) noexcept : out_(out) {}

  /// One byte.
  void put_byte(std::uint8_t value) { *reserve(1) = static_cast<std::byte>(value); }
  /// The `bytes` (1 to 8) low bytes of `value`, least significant first.
  void put_le(std::uint64_t value, std::size_t bytes) {
    std::byte* out = reserve(bytes);
    for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
  }
  /// `value` as an unsigned LEB128 varint, in its shortest form.
  void put_varint(std::uint64_t value) {
    while (value >= 0x80) {
      put_byte(static_cast<std::uint8_t>(value | 0x80));
      value >>= 7;
    }
    put_byte(static_cast<std::uint8_t>(value));
  }
  /// `size` bytes from `data`, as they are.
  void put_bytes(const void* data, std::size_t size) {
    if (size != 0) std::memcpy(reserve(size), data, size);
  }
  /// Bytes written so far.
  std::size_t position() const noexcept { return position_; }

  /// Bytes a varint of `value` takes: 1 to 10.
  static constexpr std::size_t varint_size(std::uint64_t value) noexcept {
    std::size_t size = 1;
    while (value >= 0x80) {
      value >>= 7;
      ++size;
    }
    return size;
  }

 private:
  std::byte* reserve(std::size_t size);
  std::span<std::byte> out_;
  std::size_t position_ = 0;
};

/// Reads a typed encoding (what an Encoding<T>::read() is given), checking every length
/// against the bytes left: it never reads out of bounds, and throws TypedDecodeError naming
/// what it was reading (`what`) and where. \threads One thread at a time.
class TypedReader {
 public:
  /// Reads `in`, from its first byte.
  explicit TypedReader(std::span<const std::byte> in) noexcept : in_(in) {}

  /// One byte.
  std::uint8_t take_byte(const char* what) { return std::to_integer<std::uint8_t>(*take(1, what)); }
  /// A value of `bytes` (1 to 8) bytes, least significant first.
  std::uint64_t take_le(std::size_t bytes, const char* what) {
    const std::byte* in = take(bytes, what);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < bytes; ++i) value |= std::to_integer<std::uint64_t>(in[i]) << (8 * i);
    return value;
  }
  /// An unsigned LEB128 varint in its shortest form (one encoding per value), at most 64
  /// bits.
  std::uint64_t take_varint(const char* what);
  /// A varint count of items, each at least one byte: more than the bytes left is malformed
  /// (and would otherwise make the decoder reserve memory for a lie).
  std::size_t take_count(const char* what);
  /// The next `size` bytes (valid as long as the input), or TypedDecodeError if fewer are
  /// left.
  const std::byte* take(std::size_t size, const char* what);

  /// Bytes read so far.
  std::size_t position() const noexcept { return position_; }
  /// Bytes left to read.
  std::size_t remaining() const noexcept { return in_.size() - position_; }
  /// Throws TypedDecodeError "typed payload: WHAT at byte P: PROBLEM", P the current
  /// position.
  [[noreturn]] void fail(const char* what, const std::string& problem) const;
  /// The same, naming byte `position` (where the item being read began).
  [[noreturn]] void fail_at(std::size_t position, const char* what,
                            const std::string& problem) const;

 private:
  std::span<const std::byte> in_;
  std::size_t position_ = 0;
};

}  // namespace xenon
