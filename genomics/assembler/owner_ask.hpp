// SPDX-License-Identifier: BSD-3-Clause
// An ask between the owners of an end index's slices, and its answer: where a k-mer another
// owner holds lies (what ReadTracer and BridgeTracer ask, and the stores' lookup messages carry).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
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

// The entry of `asked` (ticket: what waits on it) that an answer answers, once the answer is
// checked: a ticket of another owner, one never asked or answered already, or a place outside
// the graph is refused (invalid_argument, naming `tracer`), and the ask left waiting.
template <class Asked>
typename Asked::iterator ask_answered(Asked& asked, std::uint64_t ticket, const std::optional<EndIndex::Place>& place,
                                      const EndIndex& slice, const char* tracer) {
  if (asker_of(ticket) != slice.owner()) {
    throw std::invalid_argument(std::string(tracer) + ": owner " + std::to_string(slice.owner()) +
                                " got an answer for owner " + std::to_string(asker_of(ticket)));
  }
  const auto found = asked.find(ticket);
  if (found == asked.end()) {
    throw std::invalid_argument(std::string(tracer) + ": an answer to ticket " + std::to_string(ticket) +
                                ", never asked or answered already");
  }
  slice.check_answer(place);
  return found;
}

}  // namespace xenon::genomics
