// SPDX-License-Identifier: BSD-3-Clause
// Which store owns a key the stores meet at (a junction's k-1 bases, a pair of junctions): by
// FNV-1a, so that every node finds the same owner, whatever its standard library hashes with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace xenon::genomics {

inline std::size_t owner_of_key(std::string_view key, std::size_t stores) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char letter : key) {
    hash ^= static_cast<unsigned char>(letter);
    hash *= 1099511628211ull;
  }
  return static_cast<std::size_t>(hash % stores);
}

}  // namespace xenon::genomics
