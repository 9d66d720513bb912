// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>

namespace xenon::genomics {

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
  double coverage() const { return kmers == 0 ? 0 : static_cast<double>(coverage_sum) / static_cast<double>(kmers); }
};

}  // namespace xenon::genomics
