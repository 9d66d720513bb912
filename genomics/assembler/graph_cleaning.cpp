// SPDX-License-Identifier: BSD-3-Clause
// Cleaning: branches read less than the threshold beside a well-read one, tips (short dead
// ends, errors near a read's end) and bubbles (two short branches between the same junctions,
// errors inside reads) removed, in rounds with compaction between them, until a round finds
// none. Each is judged against the coverage right beside it (looks_like_error), not one figure
// for the whole sample: a genome read 10x beside one read 60x keeps its own branches.
// The assembler cleans on the stores, at the junctions (junction_cleaning.*), by the same rules
// (cleaning_rules.hpp); this whole-graph cleaning is what their test holds them to.
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

#include "genomics/assembler/cleaning_rules.hpp"

namespace xenon::genomics {
namespace rules = cleaning_rules;

namespace {

rules::Coverage coverage_of(const Unitig& unitig) { return {unitig.coverage_sum, unitig.kmers}; }

}  // namespace

// Higher mean coverage wins (compared exactly, as fractions); on a tie, the unitig first in
// sequence order (indexes follow it).
bool UnitigGraph::better(std::size_t a, std::size_t b) const {
  const int compared = rules::compare(coverage_of(unitigs_[a]), coverage_of(unitigs_[b]));
  if (compared != 0) return compared > 0;
  return a < b;
}

bool UnitigGraph::looks_like_error(std::size_t weak, std::size_t strong, std::uint64_t threshold) const {
  return rules::looks_like_error(coverage_of(unitigs_[weak]), coverage_of(unitigs_[strong]), threshold);
}

bool UnitigGraph::read_about_as_often(std::size_t weak, std::size_t strong) const {
  return rules::read_about_as_often(coverage_of(unitigs_[weak]), coverage_of(unitigs_[strong]));
}

// The threshold applied where a well-read way exists: a unitig read less than `threshold` on
// average goes when a unitig read at least that often ends at the same junction beside it. A
// thin stretch with no rival (a low-depth genome's own path, or a smaller k's bridge over
// a coverage gap) stays.
std::uint64_t UnitigGraph::remove_weak_branches(std::uint64_t threshold) {
  const auto below = [&](std::size_t index) { return rules::below_threshold(coverage_of(unitigs_[index]), threshold); };
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
      if (!rules::lengths_alike(unitigs_[index].bases.size(), best_length)) continue;
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
