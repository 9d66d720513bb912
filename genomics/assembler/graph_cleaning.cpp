// SPDX-License-Identifier: BSD-3-Clause
// Cleaning: branches read less than the threshold beside a well-read one, tips (short dead
// ends, errors near a read's end) and bubbles (two short branches between the same junctions,
// errors inside reads) removed, in rounds with compaction between them, until a round finds
// none. Each is judged against the coverage right beside it (looks_like_error), not one figure
// for the whole sample: a genome read 10x beside one read 60x keeps its own branches.
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace xenon::genomics {
namespace {

// Coverages compared exactly, as fractions of integer sums (no division):
// whether a's mean count times `times_a` is at least b's times `times_b`;
bool read_at_least(const Unitig& a, std::uint64_t times_a, const Unitig& b, std::uint64_t times_b) {
  __extension__ using Wide = unsigned __int128;
  return static_cast<Wide>(times_a) * a.coverage_sum * b.kmers >= static_cast<Wide>(times_b) * b.coverage_sum * a.kmers;
}

// whether `unitig`'s mean count is under numerator / denominator.
bool read_under(const Unitig& unitig, std::uint64_t numerator, std::uint64_t denominator) {
  __extension__ using Wide = unsigned __int128;
  return static_cast<Wide>(denominator) * unitig.coverage_sum < static_cast<Wide>(numerator) * unitig.kmers;
}

}  // namespace

// Higher mean coverage wins (compared exactly, as fractions); on a tie, the unitig first in
// sequence order (indexes follow it).
bool UnitigGraph::better(std::size_t a, std::size_t b) const {
  __extension__ using Wide = unsigned __int128;
  const Wide left = static_cast<Wide>(unitigs_[a].coverage_sum) * unitigs_[b].kmers;
  const Wide right = static_cast<Wide>(unitigs_[b].coverage_sum) * unitigs_[a].kmers;
  if (left != right) return left > right;
  return a < b;
}

// A unitig beside a better-read one at a junction is an error only if it looks like one: read
// at most a tenth as often (errors recur in deep coverage), or less than 1.5 times the
// threshold (an error read twice at low depth). A strain's variant at a sixth of its sister's
// depth is neither, and a variant under a tenth is taken for an error.
bool UnitigGraph::looks_like_error(std::size_t weak, std::size_t strong, std::uint64_t threshold) const {
  const Unitig& w = unitigs_[weak];
  return read_at_least(unitigs_[strong], 1, w, 10) || read_under(w, 3 * threshold, 2);
}

bool UnitigGraph::read_about_as_often(std::size_t weak, std::size_t strong) const {
  return read_at_least(unitigs_[weak], 2, unitigs_[strong], 1);
}

// The threshold applied where a well-read way exists: a unitig read less than `threshold` on
// average goes when a unitig read at least that often ends at the same junction beside it. A
// thin stretch with no rival (a low-depth genome's own path, or a smaller k's bridge over
// a coverage gap) stays.
std::uint64_t UnitigGraph::remove_weak_branches(std::uint64_t threshold) {
  const auto below = [&](std::size_t index) { return read_under(unitigs_[index], threshold, 1); };
  return remove_beaten([&](const Junctions&, Oriented oriented) { return below(oriented / 2); },
                       [&](std::size_t, std::size_t rival) { return !unitigs_[rival].circular && !below(rival); });
}

// A tip has nothing before it (read one way) and ends at a junction where another, better
// covered unitig ends too, beside which it looks like an error.
std::uint64_t UnitigGraph::remove_tips(std::size_t tip_length, std::uint64_t threshold) {
  return remove_beaten(
      [&](const Junctions& joined, Oriented oriented) {
        return unitigs_[oriented / 2].bases.size() < tip_length && before(joined, oriented).empty() &&
               !after(joined, oriented).empty();
      },
      [&](std::size_t index, std::size_t rival) { return better(rival, index) && looks_like_error(index, rival, threshold); });
}

std::uint64_t UnitigGraph::remove_beaten(const std::function<bool(const Junctions&, Oriented)>& eligible,
                                         const std::function<bool(std::size_t, std::size_t)>& beats) {
  const Junctions joined = junctions();
  std::vector<bool> removed(unitigs_.size(), false);
  std::uint64_t count = 0;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular) continue;
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      if (removed[index] || !eligible(joined, oriented)) continue;
      const std::span<const Oriented> rivals = joined.ending.at(joined.last_keys[oriented]);
      if (std::any_of(rivals.begin(), rivals.end(),
                      [&](Oriented rival) { return rival / 2 != index && beats(index, rival / 2); })) {
        removed[index] = true;
        ++count;
      }
    }
  }
  if (count != 0) remove(removed);
  return count;
}

// Branches between the same two junctions, read the same way, of lengths within 5% (or 2
// bases): those that look like errors beside the best covered one go, and so do those read at
// least half as often as it: the other copy of a repeat with a variant (or a strain at the
// same depth), written once, as its best read copy. Scaffolds joined the far sides of such a
// pair's copies when both stayed. What lies between, a genome at another depth, stays.
std::uint64_t UnitigGraph::pop_bubbles(std::size_t bubble_length, std::uint64_t threshold) {
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
      if (!looks_like_error(index, best, threshold) && !read_about_as_often(index, best)) continue;
      removed[index] = true;
      ++popped;
    }
  }
  if (popped != 0) remove(removed);
  return popped;
}

CleaningReport UnitigGraph::clean(const CleaningSettings& settings, std::uint64_t threshold) {
  const std::size_t tip_length = settings.tip_length_for(k_);
  const std::size_t bubble_length = settings.bubble_length_for(k_);
  CleaningReport report;
  compact();
  for (report.rounds = 0; report.rounds < settings.rounds;) {
    ++report.rounds;
    const std::uint64_t weak = remove_weak_branches(threshold);
    if (weak != 0) compact();
    const std::uint64_t tips = remove_tips(tip_length, threshold);
    if (tips != 0) compact();
    const std::uint64_t bubbles = pop_bubbles(bubble_length, threshold);
    if (bubbles != 0) compact();
    report.weak_branches_removed += weak;
    report.tips_removed += tips;
    report.bubbles_popped += bubbles;
    if (weak == 0 && tips == 0 && bubbles == 0) break;
  }
  return report;
}

}  // namespace xenon::genomics
