// SPDX-License-Identifier: BSD-3-Clause
// Cleaning: tips (short dead ends, errors near a read's end) removed and bubbles (two short
// branches between the same junctions, errors inside reads) popped, in rounds with compaction
// between them, until a round finds neither.
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace xenon::genomics {

// Higher mean coverage wins (compared exactly, as fractions); on a tie, the unitig first in
// sequence order (indexes follow it).
bool UnitigGraph::better(std::size_t a, std::size_t b) const {
  __extension__ using Wide = unsigned __int128;
  const Wide left = static_cast<Wide>(unitigs_[a].coverage_sum) * unitigs_[b].kmers;
  const Wide right = static_cast<Wide>(unitigs_[b].coverage_sum) * unitigs_[a].kmers;
  if (left != right) return left > right;
  return a < b;
}

// A tip has nothing before it (read one way) and ends at a junction where another, better
// covered unitig ends too.
std::uint64_t UnitigGraph::remove_tips(std::size_t tip_length) {
  const Junctions joined = junctions();
  std::vector<bool> removed(unitigs_.size(), false);
  std::uint64_t tips = 0;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular || unitigs_[index].bases.size() >= tip_length) continue;
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      if (!before(joined, oriented).empty() || after(joined, oriented).empty()) continue;
      const std::vector<Oriented>& rivals = joined.ending.at(last_junction(oriented));
      const bool beaten = std::any_of(rivals.begin(), rivals.end(), [&](Oriented rival) {
        return rival / 2 != index && better(rival / 2, index);
      });
      if (beaten && !removed[index]) {
        removed[index] = true;
        ++tips;
      }
    }
  }
  if (tips != 0) remove(removed);
  return tips;
}

// Branches between the same two junctions, read the same way, of lengths within 5% (or 2
// bases): all but the best covered one go.
std::uint64_t UnitigGraph::pop_bubbles(std::size_t bubble_length) {
  std::map<std::pair<std::string, std::string>, std::vector<Oriented>> branches;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular || unitigs_[index].bases.size() > bubble_length) continue;
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      branches[{first_junction(oriented), last_junction(oriented)}].push_back(oriented);
    }
  }
  std::vector<bool> removed(unitigs_.size(), false);
  std::uint64_t popped = 0;
  for (const auto& [ends, members] : branches) {
    if (members.size() < 2) continue;
    std::size_t best = members.front() / 2;
    for (const Oriented member : members) {
      if (better(member / 2, best)) best = member / 2;
    }
    const std::size_t best_length = unitigs_[best].bases.size();
    for (const Oriented member : members) {
      const std::size_t index = member / 2;
      if (index == best || removed[index]) continue;
      const std::size_t length = unitigs_[index].bases.size();
      const std::size_t difference = length > best_length ? length - best_length : best_length - length;
      if (difference > std::max<std::size_t>(2, best_length / 20)) continue;
      removed[index] = true;
      ++popped;
    }
  }
  if (popped != 0) remove(removed);
  return popped;
}

CleaningReport UnitigGraph::clean(const CleaningSettings& settings) {
  const std::size_t tip_length = settings.tip_length_for(k_);
  const std::size_t bubble_length = settings.bubble_length_for(k_);
  CleaningReport report;
  compact();
  for (report.rounds = 0; report.rounds < settings.rounds;) {
    ++report.rounds;
    const std::uint64_t tips = remove_tips(tip_length);
    if (tips != 0) compact();
    const std::uint64_t bubbles = pop_bubbles(bubble_length);
    if (bubbles != 0) compact();
    report.tips_removed += tips;
    report.bubbles_popped += bubbles;
    if (tips == 0 && bubbles == 0) break;
  }
  return report;
}

}  // namespace xenon::genomics
