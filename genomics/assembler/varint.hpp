// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xenon::genomics {

// Varints (LEB128: seven bits a byte, low bits first) for the messages of read threading and
// mate pairing: the numbers in them are small (unitig numbers, run lengths, counts), and at 8
// bytes each they made most of what the stores sent.
inline void put_varint(std::vector<std::byte>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::byte>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::byte>(value));
}

// A signed number as a varint, zigzag coded (0, -1, 1, -2, ... as 0, 1, 2, 3, ...) so that
// small ones of either sign stay short.
inline void put_signed_varint(std::vector<std::byte>& out, std::int64_t value) {
  put_varint(out, (static_cast<std::uint64_t>(value) << 1) ^ (value < 0 ? ~std::uint64_t{0} : 0));
}

// Reads varints back; a message cut short or a number too long throws std::invalid_argument
// naming the message (`what`).
class VarintReader {
 public:
  VarintReader(std::span<const std::byte> bytes, const char* what) : bytes_(bytes), what_(what) {}
  bool at_end() const { return at_ == bytes_.size(); }
  std::size_t left() const { return bytes_.size() - at_; }
  std::uint64_t next() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_end()) fail("a number cut off at the end");
      const auto byte = std::to_integer<std::uint8_t>(bytes_[at_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    fail("a number longer than 64 bits");
  }
  // A count of things that take a byte or more each: no more than the bytes left.
  std::uint64_t count(const char* of) {
    const std::uint64_t value = next();
    if (value > left()) fail(std::string("more ") + of + " than bytes");
    return value;
  }
  std::int64_t next_signed() {
    const std::uint64_t value = next();
    return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
  }
  std::uint32_t next32(const char* field) {
    const std::uint64_t value = next();
    if (value > 0xffffffffu) fail(std::string(field) + " out of range");
    return static_cast<std::uint32_t>(value);
  }
  // The next `length` bytes as they are (bases, say), as a view into the message.
  std::string_view text(std::uint64_t length, const char* of) {
    if (length > left()) fail(std::string(of) + " cut off at the end");
    const std::string_view taken(reinterpret_cast<const char*>(bytes_.data() + at_), static_cast<std::size_t>(length));
    at_ += static_cast<std::size_t>(length);
    return taken;
  }
  [[noreturn]] void fail(const std::string& problem) const { throw std::invalid_argument(what_ + (": " + problem)); }

 private:
  std::span<const std::byte> bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace xenon::genomics
