// SPDX-License-Identifier: BSD-3-Clause
// An ask between the owners of an end index's slices, and its answer: where a k-mer another
// owner holds lies (what ReadTracer and BridgeTracer ask, and the stores' lookup messages carry).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "genomics/assembler/end_index.hpp"

namespace xenon::genomics {

// Asks `owner` where `kmer` (k bases of a read, as the read has them) lies; the answer comes
// back through the asking tracer's answered() with the same ticket. The view lasts only for the
// call, and the call must not go back into the tracer (answered(), admit()): it is in the
// middle of a read.
using AskOwner = std::function<void(std::size_t owner, std::string_view kmer, std::uint64_t ticket)>;

struct KmerAsk {
  std::size_t from = 0;  // the owner whose tracer asked
  std::size_t to = 0;    // the owner that holds the k-mer
  std::string kmer;
  std::uint64_t ticket = 0;
};
struct KmerAnswer {
  std::size_t to = 0;  // the owner that asked
  std::uint64_t ticket = 0;
  std::optional<EndIndex::Place> place;
};

// The answer of `slice` (ask.to's) to an ask, or invalid_argument (EndIndex::place_owned).
inline KmerAnswer answer_of(const EndIndex& slice, const KmerAsk& ask) {
  return {ask.from, ask.ticket, slice.place_owned(ask.kmer)};
}

// A tracer's tickets name its owner in their top 16 bits (EndIndex allows at most 2^16
// owners), so that an answer delivered to another owner is refused rather than taken for one
// of that owner's own asks.
inline std::uint64_t first_ticket_of(std::size_t owner) { return static_cast<std::uint64_t>(owner) << 48; }
inline std::size_t asker_of(std::uint64_t ticket) { return static_cast<std::size_t>(ticket >> 48); }

}  // namespace xenon::genomics
