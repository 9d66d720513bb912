// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_tracer.hpp"

#include <algorithm>
#include <stdexcept>

#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

ReadTracer::ReadTracer(const EndIndex& slice, AskOwner ask)
    : slice_(slice),
      ask_(std::move(ask)),
      k_(static_cast<std::size_t>(slice.k())),
      stride_(slice.search_stride()),
      next_ticket_(first_ticket_of(slice.owner())) {}

const std::string& ReadTracer::oldest_read() const {
  if (count_ == 0) throw std::logic_error("read tracer: no read in flight");
  return ring_[head_].read;
}

void ReadTracer::admit(std::string_view read) {
  if (count_ == ring_.size()) {  // full: a larger ring, the oldest first
    std::vector<Pending> larger(std::max<std::size_t>(16, 2 * ring_.size()));
    for (std::size_t i = 0; i < count_; ++i) larger[i] = std::move(ring_[(head_ + i) % ring_.size()]);
    ring_ = std::move(larger);
    head_ = 0;
  }
  const std::uint64_t number = first_ + count_;
  ++count_;
  Pending& added = pending(number);
  added.read.assign(read);
  added.runs.clear();
  for_each_acgt_run(added.read, k_, [&](std::size_t begin, std::string_view bases) {
    Run run;
    run.begin = begin;
    run.size = bases.size();
    added.runs.push_back(std::move(run));
  });
  added.runs_left = added.runs.size();
  for (std::size_t run = 0; run < added.runs.size(); ++run) advance(number, run);
}

void ReadTracer::answered(std::uint64_t ticket, std::optional<Place> place) {
  const auto found = ask_answered(asked_, ticket, place, slice_, "read tracer");
  const auto [read, run] = found->second;
  asked_.erase(found);
  Pending& waiting = pending(read);
  if (take(waiting.runs[run], place)) {
    advance(read, run);
  } else {
    --waiting.runs_left;
  }
}

void ReadTracer::advance(std::uint64_t read, std::size_t index) {
  Pending& waiting = pending(read);
  Run& run = waiting.runs[index];
  const std::string_view bases = std::string_view(waiting.read).substr(run.begin, run.size);
  while (true) {
    EndIndex::Route route;
    if (run.following) {  // the k-mer right after the unitig the run is in, or the run ends there
      run.tried = run.start + (slice_.unitig_kmers(run.at.unitig / 2) - run.at.offset);
      if (run.tried + k_ > run.size) break;
      route = slice_.route(bases, run.tried);
    } else {
      // Searching: on past the k-mers no owner holds and this one does not place, to the first
      // this one places or another may hold.
      std::size_t found = 0;
      route = slice_.next_route(bases, run.tried, stride_, found);
      run.tried = found;
      if (run.tried + k_ > run.size) break;
    }
    if (route.owner != slice_.owner() && route.maybe_held) {
      const std::uint64_t ticket = next_ticket_++;
      asked_.emplace(ticket, std::make_pair(read, index));
      ask_(route.owner, bases.substr(run.tried, k_), ticket);
      return;
    }
    // Held here, or by no owner (the filter forgets no end k-mer).
    if (!take(run, route.place)) break;
  }
  --waiting.runs_left;
}

// As thread_run: searching, a k-mer placed starts the path there, none moves on a stride;
// following, only the first k-mer of a unitig (offset 0) goes on into it.
bool ReadTracer::take(Run& run, const std::optional<Place>& place) const {
  if (!run.following) {
    if (!place) {
      run.tried += stride_;
      return true;
    }
    run.following = true;
    run.lead = static_cast<std::int64_t>(place->offset) - static_cast<std::int64_t>(run.tried);
    run.path.push_back(place->unitig);
  } else {
    if (!place || place->offset != 0) return false;
    run.path.push_back(place->unitig);
  }
  run.start = run.tried;
  run.at = *place;
  return true;
}

ReadThreads::Traced ReadTracer::take_oldest() {
  if (!oldest_done()) throw std::logic_error("read tracer: the oldest read is not threaded yet");
  Pending& oldest = ring_[head_];
  ReadThreads::Traced traced;
  for (Run& run : oldest.runs) {
    if (run.path.empty()) continue;
    if (traced.runs.empty()) traced.lead = run.lead - static_cast<std::int64_t>(run.begin);
    traced.runs.push_back(std::move(run.path));
  }
  head_ = (head_ + 1) % ring_.size();
  --count_;
  ++first_;
  return traced;
}

}  // namespace xenon::genomics
