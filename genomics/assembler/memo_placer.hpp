// SPDX-License-Identifier: BSD-3-Clause
// Where the k-mers of one read lie, as one owner's slice of the end index says and as other
// owners answered: what finding bridges looks k-mers up in on a store that holds a slice.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "genomics/assembler/end_index.hpp"

namespace xenon::genomics {

// find_bridges looks up k-mers in an order that depends on what it found (it steps back from
// where a read leaves a unitig, and on into the gap), so it does not stop and resume as
// ReadTracer does. It runs in passes instead: a pass stops at the first k-mer that another
// owner may hold and has not answered for (it is stalled(), and finds nothing from there on),
// and what it found is thrown away; once that k-mer is answered, the pass runs again. Every
// answer is the whole index's, so a pass that needs nothing finds what find_bridges through
// the whole index finds. One k-mer a pass: what a pass looks up after it depends on the
// answer, so asking for more would mostly ask for k-mers the next pass never looks up
// (threading_bench -bridge-gaps 20 -owners 8: 1.04 asks a read and 475,000 reads a second
// when a pass went on and asked for every one, 0.27 and 843,000 with one).
class MemoPlacer {
 public:
  using Place = EndIndex::Place;

  // `slice` and `read` (the bases every lookup's `bases` lie in) must outlive it.
  MemoPlacer(const EndIndex& slice, std::string_view read) : slice_(slice), read_(read) {}

  // The same bases, moved (what it noted are starts in them).
  void rebase(std::string_view read) { read_ = read; }
  void begin_pass() { needed_.reset(); }
  // Whether the pass stopped at a k-mer another owner has not answered for.
  bool stalled() const { return needed_.has_value(); }
  // That k-mer's start in the read, to be asked for: once, then answered() before the next pass.
  std::size_t take_needed();
  // Refused (invalid_argument) unless `start` is the k-mer taken and not answered.
  void answered(std::size_t start, std::optional<Place> place);

  // As ReadThreads places (bases: a part of the read).
  std::optional<Place> place(std::string_view bases, std::size_t start) const;
  std::optional<Place> next_place(std::string_view bases, std::size_t from, std::size_t step,
                                  std::size_t& found) const;
  std::size_t unitig_kmers(std::size_t index) const { return slice_.unitig_kmers(index); }
  std::size_t search_stride() const { return slice_.search_stride(); }

 private:
  // The answer another owner gave for the k-mer at `start` of `bases`; none yet, it is noted
  // as needed (the pass stalled), and taken as nowhere.
  std::optional<Place> from_other(std::string_view bases, std::size_t start) const;

  const EndIndex& slice_;
  std::string_view read_;
  // What other owners answered, by start in the read, and the one asked and not answered.
  std::unordered_map<std::size_t, std::optional<Place>> answers_;
  std::optional<std::size_t> asked_;
  // The first k-mer this pass lacked. A lookup is const, as ReadThreads' is, for find_bridges;
  // it notes what it lacks.
  mutable std::optional<std::size_t> needed_;
};

}  // namespace xenon::genomics
