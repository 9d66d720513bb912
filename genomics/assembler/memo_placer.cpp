// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/memo_placer.hpp"

#include <stdexcept>
#include <string>

namespace xenon::genomics {

std::size_t MemoPlacer::take_needed() {
  if (!needed_ || asked_) throw std::logic_error("bridges: a k-mer to ask for while none is needed or one is asked");
  asked_ = needed_;
  return *needed_;
}

void MemoPlacer::answered(std::size_t start, std::optional<Place> place) {
  if (asked_ != start) {
    throw std::invalid_argument("bridges: an answer for the k-mer at " + std::to_string(start) + ", not asked for");
  }
  asked_.reset();
  answers_.emplace(start, place);
}

std::optional<MemoPlacer::Place> MemoPlacer::place(std::string_view bases, std::size_t start) const {
  if (stalled()) return std::nullopt;
  const EndIndex::Route route = slice_.route(bases, start);
  if (route.owner == slice_.owner() || !route.maybe_held) return route.place;
  return from_other(bases, start);
}

// Rolled and prefetched as ReadThreads searches (EndIndex::next_route), stopping only at a
// k-mer this slice places or another owner may hold.
std::optional<MemoPlacer::Place> MemoPlacer::next_place(std::string_view bases, std::size_t from, std::size_t step,
                                                        std::size_t& found) const {
  for (std::size_t at = from; !stalled(); at = found + step) {
    const EndIndex::Route route = slice_.next_route(bases, at, step, found);
    if (!route.maybe_held) return std::nullopt;  // none left; `found` is past the last
    if (route.owner == slice_.owner()) return route.place;
    if (std::optional<Place> answered = from_other(bases, found)) return answered;
  }
  // Stalled: found nothing, as a search that runs out leaves `found` (the first start tried
  // with fewer than k bases after it).
  const auto k = static_cast<std::size_t>(slice_.k());
  const std::size_t too_short = bases.size() < k ? 0 : bases.size() - k + 1;
  found = from >= too_short ? from : from + (too_short - from + step - 1) / step * step;
  return std::nullopt;
}

std::optional<MemoPlacer::Place> MemoPlacer::from_other(std::string_view bases, std::size_t start) const {
  const auto in_read = static_cast<std::size_t>(bases.data() - read_.data()) + start;
  if (const auto answer = answers_.find(in_read); answer != answers_.end()) return answer->second;
  needed_ = in_read;
  return std::nullopt;
}

}  // namespace xenon::genomics
