// SPDX-License-Identifier: BSD-3-Clause
#include "xenon/core/typed_bytes.hpp"

namespace xenon {

std::byte* TypedWriter::reserve(std::size_t size) {
  if (size > out_.size() - position_) {
    throw std::logic_error("typed encoding: a value wrote more bytes than its size() reported");
  }
  std::byte* out = out_.data() + position_;
  position_ += size;
  return out;
}

const std::byte* TypedReader::take(std::size_t size, const char* what) {
  if (size > remaining()) {
    fail(what, "needs " + std::to_string(size) + " bytes, only " + std::to_string(remaining()) +
                   " left (truncated payload)");
  }
  const std::byte* in = in_.data() + position_;
  position_ += size;
  return in;
}

std::uint64_t TypedReader::take_varint(const char* what) {
  const std::size_t start = position_;
  std::uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    if (remaining() == 0) fail_at(start, what, "varint runs past the end (truncated payload)");
    const std::uint8_t byte = std::to_integer<std::uint8_t>(in_[position_++]);
    // The tenth byte holds bit 63 alone: any other bit, or an eleventh byte, exceeds 64 bits.
    if (shift == 63 && byte > 1) fail_at(start, what, "varint exceeds 64 bits");
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      // A last byte of 0 after others adds nothing: the value has a shorter encoding.
      if (byte == 0 && shift != 0) fail_at(start, what, "varint is not in its shortest form");
      return value;
    }
  }
}

std::size_t TypedReader::take_count(const char* what) {
  const std::size_t start = position_;
  const std::uint64_t count = take_varint(what);
  if (count > remaining()) {
    fail_at(start, what,
            std::to_string(count) + " items run past the end (only " +
                std::to_string(remaining()) + " bytes left)");
  }
  return static_cast<std::size_t>(count);
}

void TypedReader::fail(const char* what, const std::string& problem) const {
  fail_at(position_, what, problem);
}

void TypedReader::fail_at(std::size_t position, const char* what,
                          const std::string& problem) const {
  throw TypedDecodeError("typed payload: " + std::string(what) + " at byte " +
                         std::to_string(position) + ": " + problem);
}

}  // namespace xenon
