// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

void UnitigGraph::add(std::string bases, std::uint64_t coverage_sum, bool circular) {
  if (bases.size() < static_cast<std::size_t>(k_)) {
    throw std::invalid_argument("a unitig of " + std::to_string(bases.size()) + " bases is shorter than k");
  }
  Unitig unitig;
  unitig.coverage_sum = coverage_sum;
  unitig.kmers = bases.size() - static_cast<std::size_t>(k_) + 1;
  unitig.bases = std::move(bases);
  unitig.circular = circular;
  unitigs_.push_back(std::move(unitig));
}

std::string UnitigGraph::oriented_bases(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  return oriented % 2 == 0 ? bases : reverse_complement(bases);
}

std::string UnitigGraph::first_junction(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? bases.substr(0, length)
                           : reverse_complement(std::string_view(bases).substr(bases.size() - length));
}

std::string UnitigGraph::last_junction(Oriented oriented) const {
  const std::string& bases = unitigs_[oriented / 2].bases;
  const std::size_t length = static_cast<std::size_t>(k_) - 1;
  return oriented % 2 == 0 ? bases.substr(bases.size() - length)
                           : reverse_complement(std::string_view(bases).substr(0, length));
}

UnitigGraph::Junctions UnitigGraph::junctions() const {
  Junctions junctions;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular) continue;
    for (const Oriented oriented : {2 * index, 2 * index + 1}) {
      junctions.beginning[first_junction(oriented)].push_back(oriented);
      junctions.ending[last_junction(oriented)].push_back(oriented);
    }
  }
  return junctions;
}

const std::vector<UnitigGraph::Oriented>& UnitigGraph::after(const Junctions& junctions, Oriented oriented) const {
  static const std::vector<Oriented> kNone;
  const auto found = junctions.beginning.find(last_junction(oriented));
  return found == junctions.beginning.end() ? kNone : found->second;
}

const std::vector<UnitigGraph::Oriented>& UnitigGraph::before(const Junctions& junctions, Oriented oriented) const {
  static const std::vector<Oriented> kNone;
  const auto found = junctions.ending.find(first_junction(oriented));
  return found == junctions.ending.end() ? kNone : found->second;
}

std::vector<std::pair<UnitigGraph::Oriented, UnitigGraph::Oriented>> UnitigGraph::links() const {
  const Junctions joined = junctions();
  std::vector<std::pair<Oriented, Oriented>> links;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (unitigs_[index].circular) {  // its last k-1 bases are its first: it follows itself
      links.emplace_back(2 * index, 2 * index);
      continue;
    }
    for (const Oriented from : {2 * index, 2 * index + 1}) {
      for (const Oriented to : after(joined, from)) {
        // Of the link and the same link read the other way, the smaller pair is listed.
        if (std::pair(from, to) <= std::pair(to ^ 1, from ^ 1)) links.emplace_back(from, to);
      }
    }
  }
  std::sort(links.begin(), links.end());
  return links;
}

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

void UnitigGraph::remove(const std::vector<bool>& removed) {
  std::vector<Unitig> kept;
  kept.reserve(unitigs_.size());
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (!removed[index]) kept.push_back(std::move(unitigs_[index]));
  }
  unitigs_ = std::move(kept);
}

void UnitigGraph::compact() {
  sort_canonically();
  const Junctions joined = junctions();
  // The one unitig after `oriented` when the junction between them has one way in and one out.
  const auto next = [&](Oriented oriented) -> std::optional<Oriented> {
    const std::vector<Oriented>& following = after(joined, oriented);
    if (following.size() != 1 || following[0] / 2 == oriented / 2) return std::nullopt;
    if (before(joined, following[0]).size() != 1) return std::nullopt;
    return following[0];
  };
  std::vector<bool> used(unitigs_.size(), false);
  std::vector<Unitig> joined_unitigs;
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (used[index]) continue;
    if (unitigs_[index].circular) {
      used[index] = true;
      joined_unitigs.push_back(unitigs_[index]);
      continue;
    }
    // Back to the chain's first unitig, or around a cycle to this one.
    Oriented first = 2 * index;
    bool circular = false;
    for (std::size_t steps = 0; steps <= unitigs_.size(); ++steps) {
      const std::optional<Oriented> previous = next(first ^ 1);
      if (!previous) break;
      if (*previous / 2 == index) {
        circular = true;
        first = 2 * index;
        break;
      }
      first = *previous ^ 1;
    }
    std::vector<Oriented> chain{first};
    used[first / 2] = true;
    for (std::optional<Oriented> following = next(first); following && !used[*following / 2];
         following = next(*following)) {
      chain.push_back(*following);
      used[*following / 2] = true;
    }
    if (chain.size() == 1) {  // a unitig that ends where it begins and meets nothing else
      const std::vector<Oriented>& following = after(joined, first);
      circular = following.size() == 1 && following[0] == first && before(joined, first).size() == 1;
    }
    Unitig merged;
    merged.circular = circular;
    for (const Oriented oriented : chain) {
      const std::string bases = oriented_bases(oriented);
      merged.bases += merged.bases.empty() ? bases : bases.substr(static_cast<std::size_t>(k_) - 1);
      merged.coverage_sum += unitigs_[oriented / 2].coverage_sum;
      merged.kmers += unitigs_[oriented / 2].kmers;
    }
    joined_unitigs.push_back(std::move(merged));
  }
  unitigs_ = std::move(joined_unitigs);
  sort_canonically();
}

// A cycle's bases read from its smallest k-mer (either strand), so the same cycle is always
// written the same way whoever walked it from wherever. Keeps the k-1 bases repeated at the end.
std::string UnitigGraph::canonical_rotation(const std::string& bases) const {
  const std::size_t k = static_cast<std::size_t>(k_);
  const std::string circle = bases.substr(0, bases.size() - (k - 1));
  const std::size_t length = circle.size();
  const std::string doubled = circle + circle;
  std::string best;
  std::size_t best_start = 0;
  bool best_reversed = false;
  for (std::size_t start = 0; start < length; ++start) {
    const std::string_view kmer = std::string_view(doubled).substr(start, std::min(k, length));
    const std::string reverse = reverse_complement(kmer);
    if (best.empty() || kmer < best) {
      best.assign(kmer);
      best_start = start;
      best_reversed = false;
    }
    if (reverse < best) {
      best = reverse;
      best_start = start;
      best_reversed = true;
    }
  }
  std::string rotated;
  if (!best_reversed) {
    rotated = doubled.substr(best_start, length);
  } else {
    // The smallest k-mer is the reverse complement of the one at best_start: read the
    // reversed circle from where that k-mer begins in it.
    const std::string reverse = reverse_complement(circle);
    const std::size_t from = (2 * length - best_start - std::min(k, length)) % length;
    rotated = (reverse + reverse).substr(from, length);
  }
  // The k-1 bases after the end, read around the circle (however short it is).
  std::string closed = rotated;
  for (std::size_t i = 0; i + 1 < k; ++i) closed += rotated[i % length];
  return closed;
}

void UnitigGraph::sort_canonically() {
  for (Unitig& unitig : unitigs_) {
    if (unitig.circular) {
      unitig.bases = canonical_rotation(unitig.bases);
      continue;
    }
    std::string reverse = reverse_complement(unitig.bases);
    if (reverse < unitig.bases) unitig.bases = std::move(reverse);
  }
  std::sort(unitigs_.begin(), unitigs_.end(), [](const Unitig& a, const Unitig& b) { return a.bases < b.bases; });
}

std::uint64_t UnitigGraph::resolve_repeats(const Passages& passages, std::uint32_t minimum_passages) {
  const Junctions joined = junctions();
  std::vector<bool> used(unitigs_.size(), false);
  struct Plan {
    std::size_t repeat;
    std::vector<std::pair<Oriented, Oriented>> paths;  // way in, way out
  };
  std::vector<Plan> plans;
  for (std::size_t repeat = 0; repeat < unitigs_.size(); ++repeat) {
    if (unitigs_[repeat].circular || used[repeat]) continue;
    const std::vector<Oriented>& ins = before(joined, 2 * repeat);
    const std::vector<Oriented>& outs = after(joined, 2 * repeat);
    if (ins.size() < 2 || ins.size() != outs.size()) continue;
    std::vector<std::size_t> neighbours;
    for (const Oriented oriented : ins) neighbours.push_back(oriented / 2);
    for (const Oriented oriented : outs) neighbours.push_back(oriented / 2);
    std::sort(neighbours.begin(), neighbours.end());
    const bool distinct = std::adjacent_find(neighbours.begin(), neighbours.end()) == neighbours.end();
    if (!distinct || std::binary_search(neighbours.begin(), neighbours.end(), repeat) ||
        std::any_of(neighbours.begin(), neighbours.end(), [&](std::size_t index) { return used[index]; })) {
      continue;
    }
    // The repeat must be the only way on from each way in, and the only way into each way out:
    // otherwise joining them would cut the links to the others.
    const bool alone = std::all_of(ins.begin(), ins.end(), [&](Oriented in) {
      const std::vector<Oriented>& on = after(joined, in);
      return on.size() == 1 && on[0] == 2 * repeat;
    }) && std::all_of(outs.begin(), outs.end(), [&](Oriented out) {
      const std::vector<Oriented>& from = before(joined, out);
      return from.size() == 1 && from[0] == 2 * repeat;
    });
    if (!alone) continue;
    Plan plan{repeat, {}};
    std::vector<bool> out_taken(outs.size(), false);
    bool settled = true;
    for (const Oriented in : ins) {
      std::size_t chosen = outs.size();
      std::uint32_t others = 0;
      for (std::size_t o = 0; o < outs.size(); ++o) {
        const std::uint32_t reads = passages(in, 2 * repeat, outs[o]);
        if (reads >= minimum_passages && chosen == outs.size()) {
          chosen = o;
        } else {
          others += reads;
        }
      }
        if (chosen == outs.size() || others > 1 || out_taken[chosen]) {
        settled = false;
        break;
      }
      out_taken[chosen] = true;
      plan.paths.emplace_back(in, outs[chosen]);
    }
    if (!settled) continue;
    used[repeat] = true;
    for (const std::size_t index : neighbours) used[index] = true;
    plans.push_back(std::move(plan));
  }
  if (plans.empty()) return 0;
  const std::size_t overlap = static_cast<std::size_t>(k_) - 1;
  std::vector<Unitig> joined_paths;
  for (const Plan& plan : plans) {
    // Each copy of the repeat gets an equal share of its counts.
    const Unitig& repeat = unitigs_[plan.repeat];
    for (const auto& [in, out] : plan.paths) {
      Unitig path;
      path.bases = oriented_bases(in) + oriented_bases(2 * plan.repeat).substr(overlap) + oriented_bases(out).substr(overlap);
      path.coverage_sum = unitigs_[in / 2].coverage_sum + repeat.coverage_sum / plan.paths.size() +
                          unitigs_[out / 2].coverage_sum;
      path.kmers = unitigs_[in / 2].kmers + repeat.kmers + unitigs_[out / 2].kmers;
      joined_paths.push_back(std::move(path));
    }
  }
  remove(used);
  for (Unitig& path : joined_paths) unitigs_.push_back(std::move(path));
  compact();
  return plans.size();
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

// The unitigs after `start`, one way on at a time: the only one, or the one reads choose.
std::vector<UnitigGraph::Oriented> UnitigGraph::way_on(const Junctions& joined, Oriented start,
                                                       const NextAfter& reads, const MatesAfter& mates) const {
  constexpr std::size_t kAnchorLength = 300;  // a unitig this long is taken for unique
  constexpr std::size_t kMateReach = 300;     // bases from the anchor's end to the branch, at most
  constexpr std::uint32_t kMinimumPairs = 3;
  constexpr std::size_t kSteps = 64;
  constexpr std::size_t kLongestContext = 8;
  std::vector<Oriented> path{start};
  while (path.size() <= kSteps) {
    const std::vector<Oriented>& following = after(joined, path.back());
    std::optional<Oriented> next;
    if (following.size() == 1) {
      next = following[0];
    } else if (following.size() > 1 && reads) {
      // The longest stretch of the path's end that at least two reads crossed decides.
      for (std::size_t length = std::min(kLongestContext, path.size()); length >= 1 && !next; --length) {
        const std::vector<Oriented> context(path.end() - static_cast<std::ptrdiff_t>(length), path.end());
        const std::map<Oriented, std::uint32_t> votes = reads(context);
        std::uint32_t total = 0;
        for (const auto& [way, count] : votes) total += count;
        if (total < 2) continue;
        for (const auto& [way, count] : votes) {
          if (count == total && std::find(following.begin(), following.end(), way) != following.end()) next = way;
        }
        break;  // enough reads at this length: they agreed or they did not
      }
      if (!next && mates) {
        // Pairs whose first mate lies in the last long unitig, close enough to the branch for
        // the other mate to reach past it.
        std::size_t reach = 0;
        std::optional<Oriented> anchor;
        for (auto it = path.rbegin(); it != path.rend() && reach <= kMateReach; ++it) {
          const std::size_t length = unitigs_[*it / 2].bases.size();
          if (length >= kAnchorLength) {
            anchor = *it;
            break;
          }
          reach += length - static_cast<std::size_t>(k_) + 1;
        }
        if (anchor && reach <= kMateReach) {
          const std::map<Oriented, std::uint32_t> votes = mates(*anchor, following);
          std::uint32_t total = 0;
          for (const auto& [way, count] : votes) total += count;
          for (const auto& [way, count] : votes) {
            if (count >= kMinimumPairs && count == total) next = way;
          }
        }
      }
    }
    if (!next) break;
    const bool seen = std::any_of(path.begin(), path.end(), [&](Oriented oriented) { return oriented / 2 == *next / 2; });
    if (seen) break;
    path.push_back(*next);
  }
  return path;
}

// The unitig with what follows it and what comes before it (way_on, both ways), as the
// oriented unitigs it reads through, in order: every occurrence of a unitig in the genome
// goes on that way, so the extension is as true as the unitig. No unitig is in it twice.
std::vector<UnitigGraph::Oriented> UnitigGraph::extension(const Junctions& joined, std::size_t index,
                                                          const NextAfter& reads, const MatesAfter& mates) const {
  const std::vector<Oriented> forward = way_on(joined, 2 * index, reads, mates);
  const std::vector<Oriented> backward = way_on(joined, 2 * index + 1, reads, mates);
  std::vector<Oriented> walk;
  walk.reserve(backward.size() + forward.size() - 1);
  // Backward, read the other way, then the unitig and forward.
  for (auto it = backward.rbegin(); it != backward.rend(); ++it) walk.push_back(*it ^ 1);
  for (std::size_t i = 1; i < forward.size(); ++i) {
    const bool seen = std::any_of(walk.begin(), walk.end(), [&](Oriented in) { return in / 2 == forward[i] / 2; });
    if (seen) break;
    walk.push_back(forward[i]);
  }
  return walk;
}

// The bases of a walk, each unitig after the first without the k - 1 it shares.
std::size_t UnitigGraph::spelled_length(const std::vector<Oriented>& walk) const {
  std::size_t length = 0;
  for (const Oriented oriented : walk) length += unitigs_[oriented / 2].bases.size();
  return length - (walk.size() - 1) * (static_cast<std::size_t>(k_) - 1);
}

std::string UnitigGraph::spelled(const std::vector<Oriented>& walk) const {
  const std::size_t overlap = static_cast<std::size_t>(k_) - 1;
  std::string bases;
  bases.reserve(spelled_length(walk));
  for (const Oriented oriented : walk) {
    const std::string piece = oriented_bases(oriented);
    bases.append(bases.empty() ? std::string_view(piece) : std::string_view(piece).substr(overlap));
  }
  return bases;
}

// A candidate's walk without the unitigs at its ends that a longer contig holds, but for
// repeats right next to the rest (see contigs()). The candidate's own unitig is not
// covered, so the trimming stops there at the latest.
void UnitigGraph::trim_covered_ends(std::vector<Oriented>& walk, const std::vector<bool>& covered,
                                    std::size_t minimum_length) const {
  constexpr double kRepeatCoverage = 1.5;
  auto first = std::find_if(walk.begin(), walk.end(), [&](Oriented in) { return !covered[in / 2]; });
  auto last = std::find_if(walk.rbegin(), walk.rend(), [&](Oriented in) { return !covered[in / 2]; }).base();
  if (first == walk.begin() && last == walk.end()) return;
  if (spelled_length(std::vector<Oriented>(first, last)) >= minimum_length) {
    // Mean counts compared as fractions, without a division: sum / kmers of one unitig
    // against 1.5 times those of the rest.
    std::uint64_t count = 0;
    std::uint64_t kmers = 0;
    for (auto it = first; it != last; ++it) {
      count += unitigs_[*it / 2].coverage_sum;
      kmers += unitigs_[*it / 2].kmers;
    }
    const auto repeat = [&](Oriented in) {
      const Unitig& unitig = unitigs_[in / 2];
      return 2.0 * static_cast<double>(unitig.coverage_sum) * static_cast<double>(kmers) >=
             3.0 * static_cast<double>(count) * static_cast<double>(unitig.kmers);
    };
    static_assert(kRepeatCoverage == 1.5, "the test above multiplies by 2 and 3");
    while (first != walk.begin() && repeat(*(first - 1))) --first;
    while (last != walk.end() && repeat(*last)) ++last;
  }
  walk = std::vector<Oriented>(first, last);
}

// Every unitig is a candidate, extended as far as it is sure; the longest are taken first.
// A unitig is written once, but for repeats:
// - a candidate's ends lose the unitigs a longer contig already holds (a candidate from a
//   bubble's other branch or a tip would otherwise write again the whole region around it),
//   and a candidate with less than `minimum_length` left is not written;
// - of those ends, a repeat right next to what is left stays (a unitig read 1.5 times as
//   often as the rest of the contig, or more): it is this contig's own copy of the repeat;
//   and a repeat inside a contig stays (reads led through it).
std::vector<Unitig> UnitigGraph::contigs(std::size_t minimum_length, bool extend, const NextAfter& reads,
                                         const MatesAfter& mates, std::vector<std::vector<Oriented>>* paths) const {
  const std::size_t k = static_cast<std::size_t>(k_);
  std::vector<std::vector<Oriented>> walks(unitigs_.size());
  std::vector<std::size_t> lengths(unitigs_.size());
  const Junctions joined = extend ? junctions() : Junctions{};
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (extend && !unitigs_[index].circular) {
      walks[index] = extension(joined, index, reads, mates);
      lengths[index] = spelled_length(walks[index]);
    } else {
      walks[index].assign(1, 2 * index);
      // A cycle is written once round: without the k - 1 bases its end repeats.
      lengths[index] = unitigs_[index].bases.size() - (unitigs_[index].circular ? k - 1 : 0);
    }
  }
  std::vector<std::size_t> order(unitigs_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return lengths[a] != lengths[b] ? lengths[a] > lengths[b] : a < b;
  });
  std::vector<bool> covered(unitigs_.size(), false);
  // Each contig with its path: sorted as pairs, they keep the order the contigs alone would take.
  std::vector<std::pair<Unitig, std::vector<Oriented>>> chosen;
  for (const std::size_t index : order) {
    if (covered[index]) continue;
    std::vector<Oriented>& walk = walks[index];
    if (extend && !unitigs_[index].circular) {
      trim_covered_ends(walk, covered, minimum_length);
      lengths[index] = spelled_length(walk);
    }
    for (const Oriented member : walk) covered[member / 2] = true;
    const std::size_t length = lengths[index];
    if (length < minimum_length) continue;
    Unitig contig;
    contig.coverage_sum = unitigs_[index].coverage_sum;
    contig.kmers = unitigs_[index].kmers;
    contig.circular = unitigs_[index].circular;
    contig.bases = walk.size() > 1 ? spelled(walk) : unitigs_[index].bases.substr(0, length);
    std::string reverse = reverse_complement(contig.bases);
    if (reverse < contig.bases) {
      contig.bases = std::move(reverse);
      // The same unitigs, last first, each read the other way.
      std::reverse(walk.begin(), walk.end());
      for (Oriented& member : walk) member ^= 1;
    }
    chosen.emplace_back(std::move(contig), std::move(walk));
  }
  std::sort(chosen.begin(), chosen.end(), [](const auto& left, const auto& right) {
    const Unitig& a = left.first;
    const Unitig& b = right.first;
    return a.bases.size() != b.bases.size() ? a.bases.size() > b.bases.size() : a.bases < b.bases;
  });
  std::vector<Unitig> contigs;
  contigs.reserve(chosen.size());
  if (paths != nullptr) paths->clear();
  for (auto& [contig, path] : chosen) {
    contigs.push_back(std::move(contig));
    if (paths != nullptr) paths->push_back(std::move(path));
  }
  return contigs;
}

std::size_t n50(const std::vector<Unitig>& contigs) {
  std::vector<std::size_t> lengths;
  std::size_t total = 0;
  for (const Unitig& contig : contigs) {
    lengths.push_back(contig.bases.size());
    total += contig.bases.size();
  }
  std::sort(lengths.rbegin(), lengths.rend());
  std::size_t running = 0;
  for (const std::size_t length : lengths) {
    running += length;
    if (2 * running >= total) return length;
  }
  return 0;
}

}  // namespace xenon::genomics
