// SPDX-License-Identifier: BSD-3-Clause
// Read bridges found through one owner's slice of the end index (EndIndex), as find_bridges
// finds them through the whole: a read whose lookups another owner must answer waits for those
// answers, then its pass runs again (MemoPlacer); its votes count once a pass needs nothing.
// A read waits on one ask at a time: a pass stops at the first k-mer it lacks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/memo_placer.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/owner_ask.hpp"

namespace xenon::genomics {

class BridgeTracer {
 public:
  using Place = EndIndex::Place;

  // `slice` and `dead` must outlive the tracer.
  BridgeTracer(const EndIndex& slice, const DeadEnds& dead, AskOwner ask);

  // Finds the bridges a read spells: at once where this slice and the filter answer every
  // lookup (most reads), else once the other owners have answered.
  // The bases are copied only when the read must wait for answers.
  void admit(std::string_view read);
  // The answer to an ask; an unknown ticket, one of another owner's, or a place outside the
  // graph is refused (invalid_argument).
  void answered(std::uint64_t ticket, std::optional<Place> place);

  std::size_t in_flight() const { return reads_.size(); }  // reads waiting for answers
  std::size_t waiting() const { return asked_.size(); }    // asks not answered
  std::uint64_t asks() const { return next_ticket_ - first_ticket_of(slice_.owner()); }
  std::uint64_t replays() const { return replays_; }  // passes run again after answers: one an ask
  // The votes of every read admitted and finished (in_flight() reads not yet among them).
  const BridgeVotes& votes() const { return votes_; }

 private:
  struct Waiting {
    std::string read;
    std::unique_ptr<MemoPlacer> placer;  // over `read`, which stays where it is in the map
  };

  // A pass over the read through `placer`: true with the votes counted, false stalled.
  bool finish(std::string_view read, const MemoPlacer& placer);
  void ask_needed(std::uint64_t id, Waiting& waiting);

  const EndIndex& slice_;
  const DeadEnds& dead_;
  AskOwner ask_;
  BridgeVotes votes_;
  std::unordered_map<std::uint64_t, Waiting> reads_;
  std::uint64_t next_read_ = 0;
  // ticket: read, start in it, and the owner asked
  struct Asked {
    std::uint64_t read;
    std::size_t start;
  };
  std::unordered_map<std::uint64_t, Asked> asked_;
  std::uint64_t next_ticket_;
  std::uint64_t replays_ = 0;
};

}  // namespace xenon::genomics
