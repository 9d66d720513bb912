// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>

namespace xenon::genomics {

// The mean k-mer count of `kmers` k-mers whose counts add up to `sum` (0 for none).
inline double mean_count(std::uint64_t sum, std::uint64_t kmers) {
  return kmers == 0 ? 0 : static_cast<double>(sum) / static_cast<double>(kmers);
}

// A stretch of assembled sequence: its bases (ACGT), the counts of its k-mers added up, how
// many k-mers it holds, and whether it is a cycle (then its last k-1 bases repeat its first
// ones). Sums stay integers, so that joining pieces gives the same numbers however the
// pieces were cut.
struct Unitig {
  std::string bases;
  std::uint64_t coverage_sum = 0;
  std::uint64_t kmers = 0;
  bool circular = false;

  // The mean k-mer count.
  double coverage() const { return mean_count(coverage_sum, kmers); }
};

}  // namespace xenon::genomics
