// SPDX-License-Identifier: BSD-3-Clause
// Reads threaded through one owner's slice of the end index (EndIndex), as ReadThreads::trace
// threads them through the whole: a k-mer another owner holds is asked of it, and the read
// waits for the answer while others go on. What a node needs to thread its share of the reads
// without a copy of every unitig's ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/owner_ask.hpp"
#include "genomics/assembler/read_threads.hpp"

namespace xenon::genomics {

class ReadTracer {
 public:
  using Place = EndIndex::Place;

  // `slice` must outlive the tracer.
  ReadTracer(const EndIndex& slice, AskOwner ask);

  // Starts threading a read (reads leave in the order they came), its bases copied in.
  void admit(std::string_view read);
  // The answer to an ask; an unknown ticket, one of another owner's, or a place outside the
  // graph is refused (invalid_argument).
  void answered(std::uint64_t ticket, std::optional<Place> place);

  // Whether the oldest read admitted and not taken is threaded, its bases, and its threads:
  // exactly ReadThreads::trace() of it through the whole index.
  bool oldest_done() const { return count_ != 0 && ring_[head_].runs_left == 0; }
  const std::string& oldest_read() const;
  ReadThreads::Traced take_oldest();

  std::size_t in_flight() const { return count_; }  // admitted, not taken
  std::size_t waiting() const { return asked_.size(); }    // asks not answered
  std::uint64_t asks() const { return next_ticket_ - first_ticket_of(slice_.owner()); }

 private:
  // A run of ACGT of a read, searched every stride for a k-mer near a unitig's end, then
  // followed from unitig to unitig (trace()'s thread_run, one k-mer at a time).
  struct Run {
    std::size_t begin = 0;  // in the read
    std::size_t size = 0;
    bool following = false;  // found: going from unitig to unitig
    std::size_t tried = 0;   // the start of the k-mer looked up (or to look up, searching)
    std::size_t start = 0;   // following: the start of the k-mer that placed `at`
    Place at;
    std::int64_t lead = 0;
    std::vector<ReadThreads::Oriented> path;
  };
  struct Pending {
    std::string read;
    std::vector<Run> runs;
    std::size_t runs_left = 0;
  };

  // Looks up k-mers of a run until one must be asked for, or the run is threaded.
  void advance(std::uint64_t read, std::size_t run);
  // What a run does with the place (or none) of its k-mer at `tried`: whether it goes on.
  bool take(Run& run, const std::optional<Place>& place) const;
  Pending& pending(std::uint64_t read) { return ring_[(head_ + static_cast<std::size_t>(read - first_)) % ring_.size()]; }

  const EndIndex& slice_;
  AskOwner ask_;
  std::size_t k_;
  std::size_t stride_;
  // The reads admitted and not taken, oldest at head_: a ring whose slots are used again, so
  // that a read's bases and runs go where an earlier read's were (only a run that met the
  // graph allocates: its path, which take_oldest() hands out).
  std::vector<Pending> ring_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
  std::uint64_t first_ = 0;  // the number of the read at head_, counted from the first admitted
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::size_t>> asked_;  // ticket: read, run
  std::uint64_t next_ticket_;
};

}  // namespace xenon::genomics
