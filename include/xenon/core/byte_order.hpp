// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>

namespace xenon {

/// \name Little-endian bytes
/// Fixed little-endian encoding for bytes that cross machines, whatever the host's order
/// (POWER7 is big-endian). Written with shifts, so it is correct on every host and the
/// compiler turns it into a plain load or store (plus a byte swap on big-endian hosts).
/// \threads Pure functions: any thread.
//!@{

/// Writes `value` to out[0..3], least significant byte first.
inline void store_le32(std::byte* out, std::uint32_t value) noexcept {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
/// Writes `value` to out[0..7], least significant byte first.
inline void store_le64(std::byte* out, std::uint64_t value) noexcept {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::byte>(value >> (8 * i));
}
/// Writes `value` to out[0..1], least significant byte first.
inline void store_le16(std::byte* out, std::uint16_t value) noexcept {
  out[0] = static_cast<std::byte>(value);
  out[1] = static_cast<std::byte>(value >> 8);
}
/// Reads the 16-bit value stored by store_le16().
inline std::uint16_t load_le16(const std::byte* in) noexcept {
  return static_cast<std::uint16_t>(std::to_integer<std::uint16_t>(in[0]) |
                                    (std::to_integer<std::uint16_t>(in[1]) << 8));
}
/// Reads the 32-bit value stored by store_le32().
inline std::uint32_t load_le32(const std::byte* in) noexcept {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= std::to_integer<std::uint32_t>(in[i]) << (8 * i);
  return value;
}
/// Reads the 64-bit value stored by store_le64().
inline std::uint64_t load_le64(const std::byte* in) noexcept {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= std::to_integer<std::uint64_t>(in[i]) << (8 * i);
  return value;
}
//!@}

}  // namespace xenon
