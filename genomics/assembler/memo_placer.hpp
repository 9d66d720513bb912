// SPDX-License-Identifier: BSD-3-Clause
// Where the k-mers of one read lie, as one owner's slice of the end index says and as other
// owners answered: what finding bridges looks k-mers up in on a store that holds a slice.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "genomics/assembler/end_index.hpp"

namespace xenon::genomics {

// find_bridges looks up k-mers in an order that depends on what it found (it steps back from
// where a read leaves a unitig, and on into the gap), so it does not stop and resume as
// ReadTracer does. It runs in passes instead: a pass takes each k-mer that another owner may
// hold and has not answered as nowhere, notes it (take_needed) and is stalled(), and what it
// found is thrown away; once those are answered, the pass runs again. Every answer is the whole
// index's, so a pass that needs nothing finds what find_bridges through the whole index finds.
class MemoPlacer {
 public:
  using Place = EndIndex::Place;

  // `slice` and `read` (the bases every lookup's `bases` lie in) must outlive it.
  MemoPlacer(const EndIndex& slice, std::string_view read) : slice_(slice), read_(read) {}

  // The same bases, moved (what it noted are starts in them).
  void rebase(std::string_view read) { read_ = read; }
  void begin_pass() { stalled_ = false; }
  // Whether the pass looked up a k-mer another owner has not answered for.
  bool stalled() const { return stalled_; }
  // Those k-mers' starts in the read, each once since the last take.
  std::vector<std::size_t> take_needed() { return std::exchange(needed_, {}); }
  void answered(std::size_t start, std::optional<Place> place);

  // As ReadThreads places (bases: a part of the read).
  std::optional<Place> place(std::string_view bases, std::size_t start) const;
  std::optional<Place> next_place(std::string_view bases, std::size_t from, std::size_t step,
                                  std::size_t& found) const;
  std::size_t unitig_kmers(std::size_t index) const { return slice_.unitig_kmers(index); }
  std::size_t search_stride() const { return slice_.search_stride(); }

 private:
  // The answer another owner gave for the k-mer at `start` of `bases`; none yet, it is noted
  // as needed, the pass stalled, and taken as nowhere.
  std::optional<Place> from_other(std::string_view bases, std::size_t start) const;

  const EndIndex& slice_;
  std::string_view read_;
  // What other owners answered, and what was asked of them and not answered, by start in the
  // read. A lookup is const, as ReadThreads' is, for find_bridges; it notes what it lacks.
  std::unordered_map<std::size_t, std::optional<Place>> answers_;
  mutable std::unordered_set<std::size_t> asked_;
  mutable std::vector<std::size_t> needed_;
  mutable bool stalled_ = false;
};

}  // namespace xenon::genomics
