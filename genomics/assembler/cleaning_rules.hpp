// SPDX-License-Identifier: BSD-3-Clause
// The rules cleaning judges unitigs by, in one place for node 0's UnitigGraph::clean()
// (graph_cleaning.cpp) and the stores' cleaning at the junctions (junction_cleaning.cpp), which
// must decide alike to the byte. Coverages are compared exactly, as fractions of integer sums
// (no division); ties are broken by each caller by sequence order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace xenon::genomics::cleaning_rules {

// A unitig's k-mer counts added up, and how many k-mers it holds: its mean count is sum / kmers.
struct Coverage {
  std::uint64_t sum = 0;
  std::uint64_t kmers = 0;
};

__extension__ using Wide = unsigned __int128;

// Whether a's mean count times `times_a` is at least b's times `times_b`.
inline bool read_at_least(Coverage a, std::uint64_t times_a, Coverage b, std::uint64_t times_b) {
  return static_cast<Wide>(times_a) * a.sum * b.kmers >= static_cast<Wide>(times_b) * b.sum * a.kmers;
}

// Whether a mean count is under numerator / denominator.
inline bool read_under(Coverage coverage, std::uint64_t numerator, std::uint64_t denominator) {
  return static_cast<Wide>(denominator) * coverage.sum < static_cast<Wide>(numerator) * coverage.kmers;
}

// -1, 0 or 1 as a's mean count is under, equal to or over b's.
inline int compare(Coverage a, Coverage b) {
  const Wide left = static_cast<Wide>(a.sum) * b.kmers;
  const Wide right = static_cast<Wide>(b.sum) * a.kmers;
  return left < right ? -1 : left > right ? 1 : 0;
}

// A weak branch: read less than the threshold on average.
inline bool below_threshold(Coverage coverage, std::uint64_t threshold) { return read_under(coverage, threshold, 1); }

// A unitig beside a better-read one is an error only if it looks like one: read at most a tenth
// as often (errors recur in deep coverage), or less than 1.5 times the threshold (an error read
// twice at low depth). A strain's variant at a sixth of its sister's depth is neither.
inline bool looks_like_error(Coverage weak, Coverage strong, std::uint64_t threshold) {
  return read_at_least(strong, 1, weak, 10) || read_under(weak, 3 * threshold, 2);
}

// Read at least half as often as the strong one (a bubble's other copy of a repeat).
inline bool read_about_as_often(Coverage weak, Coverage strong) { return read_at_least(weak, 2, strong, 1); }

// A bubble's branches are alike in length when within 5% of the best's (or 2 bases).
inline bool lengths_alike(std::size_t length, std::size_t best_length) {
  const std::size_t difference = length > best_length ? length - best_length : best_length - length;
  return difference <= std::max<std::size_t>(2, best_length / 20);
}

}  // namespace xenon::genomics::cleaning_rules
