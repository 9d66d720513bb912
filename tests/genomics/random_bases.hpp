// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <random>
#include <string>

namespace xenon::testing {

// `length` bases drawn uniformly from ACGT: a genome with no repeat longer than chance makes.
inline std::string random_bases(std::mt19937_64& random, std::size_t length) {
  std::string bases(length, 'A');
  for (char& base : bases) base = "ACGT"[random() % 4];
  return bases;
}

}  // namespace xenon::testing
