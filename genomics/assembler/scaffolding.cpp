// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/scaffolding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <utility>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

namespace {

using Oriented = UnitigGraph::Oriented;
constexpr std::size_t kNone = ~std::size_t{0};
constexpr std::uint64_t kUnmeasured = ~std::uint64_t{0};
constexpr std::uint64_t kFewestLinkPairs = 3;
// Two dead ends linked to each other alone need this many pairs (join_lone_dead_ends).
constexpr std::uint64_t kFewestDeadEndPairs = 2;
// A unitig read more than this many times as often as its genome's typical base is a repeat.
constexpr double kRepeatCoverage = 1.5;
// A contig this long is mostly its genome's unique sequence (a bacterium's repeats are
// shorter: IS elements, rRNA operons of 5-6 kbp), so its median base tells how often its
// genome was read; a shorter contig may be a repeat copy itself, and is judged by the median
// base of all the contigs.
constexpr std::size_t kLongContig = 10000;
// Fragments measured inside contigs needed to say their length, and so how far a link may
// reach and how long a gap is.
constexpr std::size_t kFewestForReach = 100;
// The share of the fragments measured inside contigs under the length a link may reach by.
constexpr double kLongFragmentShare = 0.98;
// Two joined contigs that the graph does not connect are merged where the one ends with
// bases the other begins with: at least this many (a chance match of 10 bases or more
// between two given ends is about 1 in 10^6; most such overlaps are shorter than 20, where
// too few reads covered the join for the graph to hold it), at most this many, a mismatch
// allowed in every 25.
constexpr std::size_t kFewestOverlapBases = 10;
constexpr std::size_t kMostOverlapBases = 500;
constexpr std::size_t kOverlapBasesPerMismatch = 25;
// Only where the pairs measured no gap longer than this (or none at all).
constexpr std::int64_t kMostGapForOverlap = 100;

// The value below which `share` of the weight lies, each value taken with its weight (0 when
// there are none).
template <typename Weight>
double weighted_quantile(std::vector<std::pair<double, Weight>> values, double share) {
  std::sort(values.begin(), values.end());
  Weight total = 0;
  for (const auto& [value, weight] : values) total += weight;
  Weight running = 0;
  for (const auto& [value, weight] : values) {
    running += weight;
    if (static_cast<double>(running) >= share * static_cast<double>(total)) return value;
  }
  return 0;
}

// The median of values, each taken as many times as its weight (0 when there are none).
double weighted_median(std::vector<std::pair<double, std::uint64_t>> values) {
  return weighted_quantile(std::move(values), 0.5);
}

// The two largest of some counts, and whether the second rivals the first: a third as many
// or more (an end that pairs link two ways about as often is left open).
struct TwoMost {
  std::uint64_t most = 0;
  std::uint64_t next = 0;
  // Counts `count`; true when it is the largest so far.
  bool add(std::uint64_t count) {
    if (count > most) {
      next = most;
      most = count;
      return true;
    }
    next = std::max(next, count);
    return false;
  }
  bool rivalled() const { return 3 * next >= most; }
};

// How many bases a scaffold's piece stands for.
std::size_t piece_length(const ScaffoldPiece& piece, const std::vector<Contig>& contigs) {
  if (piece.contig == ScaffoldPiece::kOwnBases) return piece.bases.size();
  const std::size_t length = contigs[piece.contig].length;
  return length - std::min(piece.from, length);
}

// `count` bases (fewer where it ends first) of those a scaffold's piece stands for, from its
// base `offset`: its contig's spelled from `unitigs`, only the unitigs that hold them read.
std::string piece_window(const ScaffoldPiece& piece, const std::vector<Contig>& contigs,
                         const std::vector<Unitig>& unitigs, int k, std::size_t offset, std::size_t count) {
  if (piece.contig == ScaffoldPiece::kOwnBases) return piece.bases.substr(std::min(offset, piece.bases.size()), count);
  return spelled_window(unitigs, k, contigs[piece.contig], piece.reversed, piece.from + offset, count);
}

// Contig ends are numbered 2 * contig (its start) and 2 * contig + 1 (its end).
std::size_t other_end(std::size_t end) { return end ^ 1; }
std::size_t contig_of(std::size_t end) { return end / 2; }

// Where a unitig lies in the contigs: in one contig (at a step of its path, one way), in
// several (a repeat's copies: it places no mate), or in none.
struct Placement {
  std::size_t contig = kNone;
  std::size_t step = 0;
  bool reversed = false;
  bool unique = false;
};

// A mate placed in a contig: at which step of the contig's path, and whether the fragment
// runs along the contig as contigs.fasta reads it.
struct MatePlace {
  std::size_t contig;
  std::size_t step;
  bool along;
};

class Scaffolder {
 public:
  Scaffolder(const UnitigGraph& graph, const std::vector<Contig>& contigs)
      : graph_(graph), contigs_(contigs), k_(static_cast<std::size_t>(graph.k())),
        placements_(graph.unitigs().size()), starts_(contigs.size()), successors_(2 * graph.unitigs().size()),
        held_by_(2 * contigs.size(), kUnmeasured) {
    for (std::size_t contig = 0; contig < contigs.size(); ++contig) {
      std::size_t start = 0;
      for (std::size_t step = 0; step < contigs[contig].path.size(); ++step) {
        const Oriented oriented = contigs[contig].path[step];
        starts_[contig].push_back(start);
        start += unitig_length(oriented) - (k_ - 1);
        if (contigs[contig].circular) continue;  // a circular contig is whole: nothing to join
        Placement& placement = placements_[oriented / 2];
        placement.unique = placement.contig == kNone;  // a second copy: placed nowhere
        placement.contig = contig;
        placement.step = step;
        placement.reversed = oriented % 2 != 0;
      }
    }
    // A unitig read far more often than its genome's typical one is a repeat whose other
    // copies no contig holds (shorter than a contig, or trimmed off one): it places no mate.
    // Its genome's, not the sample's: in a sample of genomes read 10x to 60x, the median
    // base of the sample would make every unitig of the genomes read most a repeat.
    typical_ = typical_coverages();
    // Nor does a unitig shorter than 2k: in a tangle of such (a repeat's variants, errors),
    // the reads cross unitigs that the contigs' paths part from.
    for (std::size_t unitig = 0; unitig < placements_.size(); ++unitig) {
      const Unitig& held = graph.unitigs()[unitig];
      Placement& placement = placements_[unitig];
      if (!placement.unique) continue;
      if (held.coverage() > kRepeatCoverage * typical_[placement.contig] || held.bases.size() < 2 * k_) {
        placement.unique = false;
      }
    }
    for (const auto& [x, y] : graph.links()) {
      successors_[x].push_back(y);
      if ((y ^ 1) != x) successors_[y ^ 1].push_back(x ^ 1);
    }
  }

  std::vector<Scaffold> scaffold(const ReadThreads& pairs, ScaffoldingReport& report) {
    measure_fragments(pairs);  // first: the link reach follows from the fragments' lengths
    count_links(pairs);
    count_ways_out(pairs);
    report.insert_size = insert_size_;
    spans_per_depth_ = join_spans_per_depth();
    report.join_span_median = static_cast<std::uint64_t>(std::llround(spans_per_depth_ * std::max(sample_typical_, 1.0)));
    report.link_threshold = std::max(kFewestLinkPairs, report.join_span_median / 4);
    report.link_reach = link_reach_;
    const std::vector<std::size_t> joined = join_ends(report);
    std::vector<Scaffold> scaffolds;
    std::vector<bool> written(contigs_.size(), false);
    for (std::size_t contig = 0; contig < contigs_.size(); ++contig) {
      if (written[contig]) continue;
      scaffolds.push_back(chain_through(contig, joined, written, report));
    }
    std::stable_sort(scaffolds.begin(), scaffolds.end(), [](const Scaffold& a, const Scaffold& b) {
      if (a.length != b.length) return a.length > b.length;
      return a.contigs.front() < b.contigs.front();
    });
    return scaffolds;
  }

 private:
  // For each contig, the coverage typical of its genome: the median base of its own unitigs
  // when it is kLongContig bases or more, else the median base of all the contigs' unitigs.
  std::vector<double> typical_coverages() {
    std::vector<std::pair<double, std::uint64_t>> everywhere;  // coverage, bases
    for (std::size_t unitig = 0; unitig < placements_.size(); ++unitig) {
      if (placements_[unitig].contig == kNone) continue;
      const Unitig& held = graph_.unitigs()[unitig];
      everywhere.emplace_back(held.coverage(), held.bases.size());
    }
    std::vector<double> typical(contigs_.size(), weighted_median(std::move(everywhere)));
    sample_typical_ = typical.empty() ? 0 : typical.front();
    for (std::size_t contig = 0; contig < contigs_.size(); ++contig) {
      if (contigs_[contig].length < kLongContig) continue;
      std::vector<std::pair<double, std::uint64_t>> own;
      for (const Oriented oriented : contigs_[contig].path) {
        const Unitig& held = graph_.unitigs()[oriented / 2];
        own.emplace_back(held.coverage(), held.bases.size());
      }
      typical[contig] = weighted_median(std::move(own));
    }
    return typical;
  }

  // A contig's typical coverage, as a divisor (never 0).
  double depth(std::size_t contig) const { return std::max(typical_[contig], 1.0); }

  std::size_t unitig_length(Oriented oriented) const { return graph_.unitigs()[oriented / 2].bases.size(); }
  std::string unitig_bases(Oriented oriented) const {
    const std::string& bases = graph_.unitigs()[oriented / 2].bases;
    return oriented % 2 == 0 ? bases : reverse_complement(bases);
  }

  // The mate placed by the first unitig (or the last, `from_back`) of `path` that places
  // mates; but by a later one whose contig's genome was read far less (kRepeatCoverage times)
  // where there is one: the read of one strain that crosses from its own unitigs into a
  // stretch it shares with a strain read more often, whose contig holds that stretch.
  std::optional<MatePlace> place(std::span<const ReadThreads::CompactOriented> path, bool from_back) const {
    std::optional<Oriented> chosen;
    for (std::size_t i = 0; i < path.size(); ++i) {
      const Oriented oriented = path[from_back ? path.size() - 1 - i : i];
      const Placement& placement = placements_[oriented / 2];
      if (!placement.unique) continue;
      if (!chosen || kRepeatCoverage * typical_[placement.contig] < typical_[placements_[*chosen / 2].contig]) {
        chosen = oriented;
      }
    }
    if (!chosen) return std::nullopt;
    const Placement& placement = placements_[*chosen / 2];
    return MatePlace{placement.contig, placement.step, (*chosen % 2 != 0) == placement.reversed};
  }

  // Bases of `contig` before its unitig at `step` (`before`), or after it.
  std::size_t bases_beside(std::size_t contig, std::size_t step, bool before) const {
    const std::size_t start = starts_[contig][step];
    if (before) return start;
    return contigs_[contig].length - (start + unitig_length(contigs_[contig].path[step]));
  }

  // The two mates of a pair, placed.
  struct PlacedPair {
    MatePlace first, second;
  };
  std::optional<PlacedPair> place_pair(std::span<const ReadThreads::CompactOriented> first_mate,
                                       std::span<const ReadThreads::CompactOriented> second_along) const {
    const std::optional<MatePlace> first = place(first_mate, true);
    if (!first) return std::nullopt;
    const std::optional<MatePlace> second = place(second_along, false);
    if (!second) return std::nullopt;
    return PlacedPair{*first, *second};
  }

  // The pairs: within one contig, the joins between unitigs each spans; across two contigs,
  // a link between the end the fragment leaves the first by and the end it enters the second
  // by, when the bases between the mates' unitigs and those ends are at most the link reach
  // (measure_fragments).
  void count_links(const ReadThreads& pairs) {
    std::vector<std::vector<std::int64_t>> spanning(contigs_.size());
    for (std::size_t contig = 0; contig < contigs_.size(); ++contig) spanning[contig].assign(contigs_[contig].path.size() + 1, 0);
    pairs.for_each_pair([&](auto first_mate, auto second_along, std::uint32_t alike, std::int64_t /*leads*/) {
      const std::optional<PlacedPair> placed = place_pair(first_mate, second_along);
      if (!placed || placed->first.contig != placed->second.contig) return;
      const MatePlace& first = placed->first;
      const MatePlace& second = placed->second;
      // Along the fragment, the first mate's unitig comes first (else no fragment this contig holds).
      if (first.along != second.along || first.step == second.step || (first.step < second.step) != first.along) return;
      const std::size_t from = std::min(first.step, second.step);
      const std::size_t to = std::max(first.step, second.step);
      spanning[first.contig][from] += alike;  // the joins after steps from, ..., to - 1
      spanning[first.contig][to] -= alike;
    });
    // The joins that unique unitigs lie on both sides of (no mate is placed beyond a
    // contig's last one: in a repeat copy its end reaches into).
    for (std::size_t contig = 0; contig < contigs_.size(); ++contig) {
      std::vector<std::size_t> unique_steps;
      for (std::size_t step = 0; step < contigs_[contig].path.size(); ++step) {
        if (placements_[contigs_[contig].path[step] / 2].unique) unique_steps.push_back(step);
      }
      if (unique_steps.size() < 2) continue;
      std::int64_t running = 0;
      for (std::size_t join = 0; join < unique_steps.back(); ++join) {
        running += spanning[contig][join];
        if (join >= unique_steps.front()) join_spans_.push_back(static_cast<double>(running) / depth(contig));
        // The joins just inside each end's outermost unitig that places mates.
        if (join == unique_steps.front()) held_by_[2 * contig] = static_cast<std::uint64_t>(running);
        if (join + 1 == unique_steps.back()) held_by_[2 * contig + 1] = static_cast<std::uint64_t>(running);
      }
    }
    pairs.for_each_pair([&](auto first_mate, auto second_along, std::uint32_t alike, std::int64_t /*leads*/) {
      const std::optional<PlacedPair> placed = place_pair(first_mate, second_along);
      if (!placed || placed->first.contig == placed->second.contig) return;
      const MatePlace& first = placed->first;
      const MatePlace& second = placed->second;
      const std::size_t leaves_by = 2 * first.contig + (first.along ? 1 : 0);
      const std::size_t enters_by = 2 * second.contig + (second.along ? 0 : 1);
      const std::size_t reach = bases_beside(first.contig, first.step, !first.along) +
                                bases_beside(second.contig, second.step, second.along);
      if (reach > link_reach_) return;
      links_[{std::min(leaves_by, enters_by), std::max(leaves_by, enters_by)}] += alike;
    });
  }

  // The ways out of a contig end whose last unitig the graph goes on from two ways or more:
  // each way's first unitig, and the unitigs that begin within link_reach_ bases along it
  // that no other way reaches and the contig does not hold.
  std::vector<std::pair<Oriented, std::set<Oriented>>> ways_out(std::size_t end) const {
    const std::optional<Oriented> last = outermost_unitig(end);
    if (!last || successors_[*last].size() < 2) return {};
    std::set<std::size_t> own;  // the contig's unitigs, either way
    for (const Oriented oriented : contigs_[contig_of(end)].path) own.insert(oriented / 2);
    std::vector<std::pair<Oriented, std::set<Oriented>>> ways;
    std::map<Oriented, std::size_t> reached_by;  // unitig: how many ways reach it
    for (const Oriented way : successors_[*last]) {
      std::set<Oriented> along;
      // The unitigs that begin within the link reach of the way's start.
      const Reach reach =
          shortest_ways(way, unitig_length(way) - (k_ - 1), {link_reach_, kAnyLength}, [](Oriented) { return false; });
      for (const auto& [unitig, unused] : reach.through) {
        if (own.count(unitig / 2) != 0) continue;
        along.insert(unitig);
        ++reached_by[unitig];
      }
      ways.emplace_back(way, std::move(along));
    }
    for (auto& [way, along] : ways) std::erase_if(along, [&](Oriented unitig) { return reached_by[unitig] > 1; });
    return ways;
  }

  // At each contig end two ways or more leave (ways_out), the pairs with a mate in the contig
  // within the link reach of that end whose other mate lies along each way. A stretch that
  // another copy of a repeat shares with the contig's last unitig lends the contig the reads
  // of that copy, whose mates lie along the copy's own way out: pairs then lead out both
  // ways, and the end is joined to neither (join_ends).
  void count_ways_out(const ReadThreads& pairs) {
    std::map<std::size_t, std::vector<std::pair<Oriented, std::set<Oriented>>>> ways;
    for (std::size_t end = 0; end < 2 * contigs_.size(); ++end) {
      auto out = ways_out(end);
      if (!out.empty()) ways.emplace(end, std::move(out));
    }
    if (ways.empty()) return;
    // The way the first of `outward`'s unitigs (read out of `end`) that lies along one lies along.
    const auto vote = [&](std::size_t end, auto&& outward, std::uint32_t alike) {
      const auto found = ways.find(end);
      for (const Oriented unitig : outward) {
        for (const auto& [way, along] : found->second) {
          if (along.count(unitig) == 0) continue;
          way_pairs_[end][way] += alike;
          return;
        }
      }
    };
    // Whether `mate`'s unitig lies within the link reach of the end the fragment crosses
    // (`toward_end`: the contig's end, else its start), and that end has ways out.
    const auto near_end_with_ways = [&](const MatePlace& mate, bool toward_end, std::size_t& end) {
      end = 2 * mate.contig + (toward_end ? 1 : 0);
      return ways.count(end) != 0 && bases_beside(mate.contig, mate.step, !toward_end) <= link_reach_;
    };
    pairs.for_each_pair([&](auto first_mate, auto second_along, std::uint32_t alike, std::int64_t /*leads*/) {
      const std::optional<MatePlace> first = place(first_mate, true);
      const std::optional<MatePlace> second = place(second_along, false);
      if (first && second && first->contig == second->contig) return;
      std::size_t end = 0;
      // The fragment leaves the first mate's contig, along the second mate.
      if (first && near_end_with_ways(*first, first->along, end)) vote(end, second_along, alike);
      // It enters the second mate's contig: read back, the first mate leads out of it.
      if (second && near_end_with_ways(*second, !second->along, end)) {
        std::vector<Oriented> outward;
        for (auto unitig = first_mate.rbegin(); unitig != first_mate.rend(); ++unitig) outward.push_back(*unitig ^ 1);
        vote(end, outward, alike);
      }
    });
  }

  // Whether pairs lead out of `end` along two of its ways, the second at least a third as
  // many as the first and kFewestLinkPairs or more.
  bool led_out_two_ways(std::size_t end) const {
    const auto found = way_pairs_.find(end);
    if (found == way_pairs_.end()) return false;
    TwoMost counts;
    for (const auto& [way, count] : found->second) counts.add(count);
    return counts.next >= kFewestLinkPairs && counts.rivalled();
  }

  // Where a fragment begins or ends in a contig: the contig, the end of it the fragment leaves
  // (its first mate) or enters (its second) by, and the bases from that end to where the
  // fragment begins or ends, less the mate's lead.
  struct FragmentEnd {
    std::size_t contig;
    std::size_t end;
    std::int64_t bases;
  };
  // By the unitig the first mate begins in (`leaving`) or the second ends in (read along the
  // fragment), when that unitig places mates; none otherwise.
  std::optional<FragmentEnd> fragment_end(Oriented oriented, bool leaving) const {
    const Placement& placement = placements_[oriented / 2];
    if (!placement.unique) return std::nullopt;
    const std::size_t contig = placement.contig;
    const bool along = (oriented % 2 != 0) == placement.reversed;
    const auto start = static_cast<std::int64_t>(starts_[contig][placement.step]);
    const auto length = static_cast<std::int64_t>(unitig_length(oriented));
    const auto contig_length = static_cast<std::int64_t>(contigs_[contig].length);
    if (leaving) {  // from where the fragment begins, lead bases into the unitig, to the end it leaves by
      return FragmentEnd{contig, 2 * contig + (along ? 1 : 0), along ? contig_length - start : start + length};
    }
    // From the end it enters by to where it ends, lead bases before the unitig's end.
    return FragmentEnd{contig, 2 * contig + (along ? 0 : 1), along ? start + length : contig_length - start};
  }

  // The fragments' length (the median over the pairs whose mates' outer unitigs lie in one
  // contig, the fragment along it) and the link reach it sets, then, for each pair of contig ends that such pairs link,
  // the bases between the two ends: the fragment's length less what the two contigs hold of
  // it, the median over the pairs.
  void measure_fragments(const ReadThreads& pairs) {
    std::vector<std::pair<double, std::uint64_t>> lengths;  // the mean of pairs alike, and how many
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::pair<double, std::uint64_t>>> held;
    pairs.for_each_pair([&](auto first_mate, auto second_along, std::uint32_t alike, std::int64_t leads) {
      const std::optional<FragmentEnd> begins = fragment_end(first_mate.front(), true);
      const std::optional<FragmentEnd> ends = fragment_end(second_along.back(), false);
      if (!begins || !ends || alike == 0) return;
      // What the contigs hold of the fragment, the mean of the pairs alike.
      const double within = static_cast<double>(begins->bases + ends->bases) - static_cast<double>(leads) / alike;
      if (begins->contig != ends->contig) {
        held[{std::min(begins->end, ends->end), std::max(begins->end, ends->end)}].emplace_back(within, alike);
        return;
      }
      // In one contig, read along it: the contig's length counted twice.
      if (begins->end == ends->end) return;
      const double length = within - static_cast<double>(contigs_[begins->contig].length);
      if (length > 0) lengths.emplace_back(length, alike);
    });
    std::uint64_t measured = 0;
    for (const auto& [length, alike] : lengths) measured += alike;
    if (measured < kFewestForReach) return;  // too few to say: gaps of unknown size
    // A mate places by a unitig it crosses, so at least one k-mer of it lies in that unitig:
    // the bases between a linking pair's mates' unitigs and the two ends are at most the
    // fragment's length less 2k, twice that where two contigs both hold the repeat between
    // them (up to a fragment less 2k long), which the pair then crosses once.
    const double longest = weighted_quantile(lengths, kLongFragmentShare);
    const double reach = 2 * std::max(0.0, longest - 2 * static_cast<double>(k_));
    link_reach_ = std::min(kLinkReach, static_cast<std::size_t>(reach));
    insert_size_ = static_cast<std::uint64_t>(weighted_median(std::move(lengths)));
    for (auto& [ends, within] : held) {
      gaps_[ends] = static_cast<std::int64_t>(static_cast<double>(insert_size_) - weighted_median(within));
    }
  }

  // The median of the pairs that span a join inside a contig, over the contig's typical coverage.
  double join_spans_per_depth() {
    if (join_spans_.empty()) return 0;
    std::vector<double> spans = join_spans_;
    std::nth_element(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(spans.size() / 2), spans.end());
    return spans[spans.size() / 2];
  }

  // The pairs a link needs at an end of `contig`: a quarter of those that span a join inside a
  // contig of its depth (so it follows its genome's depth, not the sample's), and at least
  // kFewestLinkPairs.
  std::uint64_t link_threshold(std::size_t contig) const {
    // Rounded: a span over a depth, times that depth, may come back a hair under the span.
    return std::max(kFewestLinkPairs, static_cast<std::uint64_t>(std::llround(spans_per_depth_ * depth(contig))) / 4);
  }

  // Whether the pairs that link two ends put them more than a fragment into each other: the
  // mates lie in a repeat that both ends carry (merged into each where a gap in the reads hid
  // its other copies' ways out), not beside each other.
  bool overlaps_past_a_fragment(std::pair<std::size_t, std::size_t> ends) const {
    const auto sized = gaps_.find({std::min(ends.first, ends.second), std::max(ends.first, ends.second)});
    return sized != gaps_.end() && sized->second < -static_cast<std::int64_t>(insert_size_);
  }

  // For each contig end, the end it is joined to (kNone: open).
  std::vector<std::size_t> join_ends(ScaffoldingReport& report) {
    std::vector<std::size_t> partner(2 * contigs_.size(), kNone);
    std::vector<TwoMost> linked(2 * contigs_.size());  // the pairs linking each end to its partner, and to the next
    for (const auto& [ends, count] : links_) {
      // Both contigs' thresholds: a link from the genome read most to one read far less
      // (its reads in a stretch two strains share) stays under the first's.
      const std::uint64_t threshold = std::max(link_threshold(contig_of(ends.first)), link_threshold(contig_of(ends.second)));
      if (count < threshold || overlaps_past_a_fragment(ends) || way_in_doubt(ends.first) || way_in_doubt(ends.second)) {
        continue;
      }
      for (const auto& [end, other] : {ends, std::pair{ends.second, ends.first}}) {
        if (linked[end].add(count)) partner[end] = other;
      }
    }
    join_lone_dead_ends(partner, linked, report);
    // An end whose second partner is linked by at least a third as many pairs as its first is
    // left open, as is one that pairs lead out of two ways.
    std::vector<bool> conflicted(2 * contigs_.size(), false);
    for (std::size_t end = 0; end < partner.size(); ++end) {
      if (partner[end] == kNone) continue;
      conflicted[end] = linked[end].rivalled() || led_out_two_ways(end);
    }
    std::vector<std::size_t> joined(2 * contigs_.size(), kNone);
    for (std::size_t end = 0; end < partner.size(); ++end) {
      if (conflicted[end]) ++report.conflicted_ends;
      const std::size_t other = partner[end];
      if (other == kNone || conflicted[end] || conflicted[other] || partner[other] != end) continue;
      joined[end] = other;
    }
    // Ends that no pair links, where the repeat between two contigs is longer than a
    // fragment (a tandem array): joined when the graph leads from each to the other alone.
    std::vector<Lead> led_to(2 * contigs_.size());
    for (std::size_t end = 0; end < led_to.size(); ++end) {
      if (partner[end] == kNone && !contigs_[contig_of(end)].circular) led_to[end] = only_end_reached(end);
    }
    for (std::size_t end = 0; end < led_to.size(); ++end) {
      const std::size_t other = led_to[end].end;
      if (other == kNone || contig_of(other) == contig_of(end) || led_to[other].end != end) continue;
      joined[end] = other;
      if (end > other) continue;
      ++report.joins_by_graph_alone;
      if (led_to[end].through_loop) rounds_unknown_.emplace(end, other);
    }
    return joined;
  }

  // Two dead ends that pairs link to each other and to nothing else, by kFewestDeadEndPairs
  // (under the least threshold), where both contigs' thresholds are the least: at 10x, coverage
  // often thins to nothing over a few dozen bases and only one or two fragments span the gap
  // with a mate in each contig. Not where either genome was read deeply, whose threshold the
  // pairs of a strain read less, in a stretch the two strains share, stay under.
  void join_lone_dead_ends(std::vector<std::size_t>& partner, std::vector<TwoMost>& linked,
                           ScaffoldingReport& report) const {
    // Pairs that put two ends more than a fragment into each other lie in a repeat both carry:
    // no rival to a neighbour (on E. coli 10x, a link of 4 pairs sizing -117,009 bases held
    // open an end that 2 pairs linked to the contig beside it on the genome).
    std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::uint64_t>> beside;  // links not past a fragment
    std::vector<std::size_t> linked_ends(partner.size(), 0);
    for (const auto& [ends, count] : links_) {
      if (overlaps_past_a_fragment(ends)) continue;
      beside.emplace_back(ends, count);
      ++linked_ends[ends.first];
      ++linked_ends[ends.second];
    }
    for (const auto& [ends, count] : beside) {
      const auto [one, other] = ends;
      if (count < kFewestDeadEndPairs || linked_ends[one] != 1 || linked_ends[other] != 1) continue;
      if (partner[one] != kNone || partner[other] != kNone) continue;
      if (link_threshold(contig_of(one)) != kFewestLinkPairs || link_threshold(contig_of(other)) != kFewestLinkPairs) {
        continue;
      }
      if (!dead_end(one) || !dead_end(other)) continue;
      for (const auto& [end, to] : {ends, std::pair{other, one}}) {
        partner[end] = to;
        linked[end].add(count);
      }
      ++report.joins_of_dead_ends;
    }
  }

  // Whether the contig may have left by the wrong way at `end`: the graph goes on from its
  // outermost unitig two ways or more, and fewer than half the pairs a link needs tie its
  // outermost unitig that places mates to the rest of it. Where two copies of a repeat are
  // alike over k bases and more, a contig can run on into the other copy's way; its pairs
  // then link it to that copy's neighbour. Measured on the mock community: a G27 contig whose
  // last 500 bases came from the copy 455 kbp away, tied to its contig by 2 pairs (a link
  // needed 7) where its other end was tied by 39. (On 40x E. coli a short contig's end tied
  // by 3 pairs, a link needing 4, faces its neighbour: under the whole threshold is not enough
  // to doubt.)
  bool way_in_doubt(std::size_t end) const {
    const std::optional<Oriented> last = outermost_unitig(end);
    return last && successors_[*last].size() >= 2 && held_by_[end] != kUnmeasured &&
           2 * held_by_[end] < link_threshold(contig_of(end));
  }

  // Whether the graph goes on from no unitig out of `end` of its contig.
  bool dead_end(std::size_t end) const {
    const std::optional<Oriented> last = outermost_unitig(end);
    return last && successors_[*last].empty();
  }

  // The unitig at `end` of its contig, read out of the contig by that end; none for a circular
  // contig (it has no ends) or an empty one.
  std::optional<Oriented> outermost_unitig(std::size_t end) const {
    const std::vector<Oriented>& path = contigs_[contig_of(end)].path;
    if (path.empty() || contigs_[contig_of(end)].circular) return std::nullopt;
    return end % 2 == 0 ? path.front() ^ 1 : path.back();
  }

  // The unitig that places mates nearest `end` of its contig, read out of the contig by that
  // end; none if the contig has no such unitig.
  std::optional<Oriented> leaving_unitig(std::size_t end) const {
    const std::vector<Oriented>& path = contigs_[contig_of(end)].path;
    const bool by_start = end % 2 == 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
      const Oriented oriented = path[by_start ? i : path.size() - 1 - i];
      if (placements_[oriented / 2].unique) return by_start ? oriented ^ 1 : oriented;
    }
    return std::nullopt;
  }

  // The contig end that every way out of `end` leads into, through unitigs that place no
  // mate (the contig's own repeat tail, then the repeat beyond it) within kLinkReach bases;
  // none where the ways reach two ends or more, a unitig that places mates inside a contig, a
  // dead end (the genome's way may be lost there) or go further than that. Whether a loop
  // lies between (a tandem array: how many times the genome goes round it no read says).
  struct Lead {
    std::size_t end = kNone;
    bool through_loop = false;
  };
  Lead only_end_reached(std::size_t end) const {
    const std::optional<Oriented> from = leaving_unitig(end);
    if (!from) return {};
    const Reach reach = reach_through_unplaced(*from);
    if (reach.dead_end || reach.too_far) return {};
    std::size_t reached_end = kNone;
    for (const auto& [left, entered] : reach.exits) {
      const std::size_t entered_end = end_entered(entered);
      if (entered_end == kNone || (reached_end != kNone && reached_end != entered_end)) return {};
      reached_end = entered_end;
    }
    std::set<Oriented> region;
    for (const auto& [unitig, unused] : reach.through) {
      if (unitig != *from) region.insert(unitig);
    }
    return {reached_end, has_loop(region)};
  }

  // Whether the unitigs of `region`, with the graph's links between them, hold a cycle: a
  // depth-first walk that meets a unitig it is still inside.
  bool has_loop(const std::set<Oriented>& region) const {
    enum class Mark : std::uint8_t { kInside, kDone };
    std::map<Oriented, Mark> marks;
    for (const Oriented root : region) {
      if (marks.count(root) != 0) continue;
      std::vector<std::pair<Oriented, std::size_t>> stack{{root, 0}};  // a unitig, and its next successor
      marks[root] = Mark::kInside;
      while (!stack.empty()) {
        auto& [at, next_successor] = stack.back();
        if (next_successor == successors_[at].size()) {
          marks[at] = Mark::kDone;
          stack.pop_back();
          continue;
        }
        const Oriented next = successors_[at][next_successor++];
        if (region.count(next) == 0) continue;
        const auto mark = marks.find(next);
        if (mark != marks.end()) {
          if (mark->second == Mark::kInside) return true;
          continue;
        }
        marks[next] = Mark::kInside;
        stack.emplace_back(next, 0);
      }
    }
    return false;
  }

  // The contig end by which `oriented`, a unitig that places mates, enters its contig when
  // it is the contig's nearest such unitig to that end; none if it lies further in.
  std::size_t end_entered(Oriented oriented) const {
    const std::size_t contig = placements_[oriented / 2].contig;
    for (const std::size_t end : {2 * contig, 2 * contig + 1}) {
      const std::optional<Oriented> leaving = leaving_unitig(end);
      if (leaving && (*leaving ^ 1) == oriented) return end;
    }
    return kNone;
  }

  // The scaffold of the chain of joined contigs that `contig` is in.
  Scaffold chain_through(std::size_t contig, const std::vector<std::size_t>& joined, std::vector<bool>& written,
                         ScaffoldingReport& report) const {
    // Its two end contigs (or, on a cycle of joins, `contig`, the smallest of the cycle not
    // written yet, broken before its start).
    const auto last_along = [&](std::size_t leaving) {
      std::size_t end = leaving;
      while (joined[end] != kNone) {
        end = other_end(joined[end]);
        if (contig_of(end) == contig) return kNone;
      }
      return end;
    };
    const std::size_t one = last_along(2 * contig);
    std::size_t entry = 2 * contig;  // the end the scaffold begins by
    if (one != kNone) {
      const std::size_t another = last_along(2 * contig + 1);
      entry = contig_of(one) <= contig_of(another) ? one : another;
      if (contig_of(one) == contig_of(another)) entry = std::min(one, another);
    }
    Scaffold scaffold;
    const std::size_t first = contig_of(entry);
    std::size_t at = entry;
    std::vector<Oriented> previous;
    while (true) {
      const std::size_t current = contig_of(at);
      const bool reversed = at % 2 != 0;
      std::vector<Oriented> path = contigs_[current].path;
      if (reversed) {
        std::reverse(path.begin(), path.end());
        for (Oriented& oriented : path) oriented ^= 1;
      }
      const ScaffoldPiece piece{current, reversed, 0, {}};
      if (scaffold.contigs.empty()) {
        append_contig(scaffold, piece);
      } else {
        append_joined(scaffold, previous, path, piece, {joined[at], at}, report);
      }
      scaffold.contigs.push_back(current);
      written[current] = true;
      previous = std::move(path);
      const std::size_t next = joined[other_end(at)];
      if (next == kNone || contig_of(next) == first) break;
      at = next;
    }
    return scaffold;
  }

  // `contig` (a contig read along `path`, from its first base) after the scaffold so far,
  // whose last contig was read along `before`: overlapping where `path` begins with the
  // unitigs `before` ends with, else through the graph's way between them, else after a gap
  // as long as the pairs that link `ends` (the end left, the end entered) say, kUnknownGap N
  // at least.
  void append_joined(Scaffold& scaffold, const std::vector<Oriented>& before, const std::vector<Oriented>& path,
                     ScaffoldPiece contig, std::pair<std::size_t, std::size_t> ends,
                     ScaffoldingReport& report) const {
    ++report.joins;
    if (rounds_unknown_.count({std::min(ends.first, ends.second), std::max(ends.first, ends.second)}) != 0) {
      // Round a loop that no pair spans: as many N as the shortest way's bases (kUnknownGap
      // at least), not those bases, which would drop every round but one.
      std::size_t between = 0;
      if (const std::optional<std::vector<Oriented>> way = graph_way(before.back(), path.front())) {
        for (const Oriented oriented : *way) between += unitig_length(oriented) - (k_ - 1);
      }
      append_gap(scaffold, std::max(kUnknownGap, between > k_ - 1 ? between - (k_ - 1) : 0));
      append_contig(scaffold, std::move(contig));
      return;
    }
    for (std::size_t shared = std::min(before.size(), path.size()); shared > 0; --shared) {
      if (!std::equal(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(shared),
                      before.end() - static_cast<std::ptrdiff_t>(shared))) {
        continue;
      }
      std::size_t overlap = k_ - 1;
      for (std::size_t step = 0; step < shared; ++step) overlap += unitig_length(path[step]) - (k_ - 1);
      contig.from = overlap;
      append_contig(scaffold, std::move(contig));
      ++report.joins_through_graph;
      return;
    }
    if (const std::optional<std::vector<Oriented>> way = graph_way(before.back(), path.front())) {
      std::string between;
      for (const Oriented oriented : *way) between.append(unitig_bases(oriented), k_ - 1);
      append_own(scaffold, std::move(between));
      contig.from = k_ - 1;
      append_contig(scaffold, std::move(contig));
      ++report.joins_through_graph;
      return;
    }
    const auto sized = gaps_.find({std::min(ends.first, ends.second), std::max(ends.first, ends.second)});
    if (sized == gaps_.end() || sized->second <= kMostGapForOverlap) {
      const std::string head = piece_window(contig, contigs_, graph_.unitigs(), graph_.k(), 0, kMostOverlapBases);
      if (const std::size_t overlap = overlap_of(tail_of(scaffold, kMostOverlapBases), head)) {
        contig.from = overlap;
        append_contig(scaffold, std::move(contig));
        ++report.joins_by_overlap;
        return;
      }
    }
    std::size_t gap = kUnknownGap;
    if (sized != gaps_.end()) {
      ++report.gaps_sized;
      gap = static_cast<std::size_t>(std::max<std::int64_t>(sized->second, static_cast<std::int64_t>(kUnknownGap)));
    }
    append_gap(scaffold, gap);
    append_contig(scaffold, std::move(contig));
  }

  // A contig's piece after the scaffold so far (none of it if it begins past the contig's end).
  void append_contig(Scaffold& scaffold, ScaffoldPiece contig) const {
    const std::size_t length = contigs_[contig.contig].length;
    contig.from = std::min(contig.from, length);
    scaffold.length += length - contig.from;
    scaffold.pieces.push_back(std::move(contig));
  }
  static void append_own(Scaffold& scaffold, std::string bases) {
    if (bases.empty()) return;
    scaffold.length += bases.size();
    scaffold.pieces.push_back({ScaffoldPiece::kOwnBases, false, 0, std::move(bases)});
  }
  static void append_gap(Scaffold& scaffold, std::size_t length) {
    append_own(scaffold, std::string(length, 'N'));
    ++scaffold.gaps;
  }
  // The last `count` bases of the scaffold so far (all of them when it is shorter).
  std::string tail_of(const Scaffold& scaffold, std::size_t count) const {
    std::string tail;
    for (auto piece = scaffold.pieces.rbegin(); piece != scaffold.pieces.rend() && tail.size() < count; ++piece) {
      const std::size_t length = piece_length(*piece, contigs_);
      const std::size_t taken = std::min(count - tail.size(), length);
      tail.insert(0, piece_window(*piece, contigs_, graph_.unitigs(), graph_.k(), length - taken, taken));
    }
    return tail;
  }

  // The longest run of bases (kFewestOverlapBases to kMostOverlapBases) that `before` ends
  // with and `after` begins with, a mismatch allowed every kOverlapBasesPerMismatch bases (a
  // sequencing error or a variant at the end of a contig where the graph broke); 0 if none.
  static std::size_t overlap_of(const std::string& before, const std::string& after) {
    const std::size_t longest = std::min({before.size(), after.size(), kMostOverlapBases});
    for (std::size_t length = longest; length >= kFewestOverlapBases; --length) {
      const std::size_t allowed = length / kOverlapBasesPerMismatch;
      const char* end_of_before = before.data() + (before.size() - length);
      std::size_t mismatches = 0;
      for (std::size_t i = 0; i < length && mismatches <= allowed; ++i) mismatches += end_of_before[i] != after[i];
      if (mismatches <= allowed) return length;
    }
    return 0;
  }

  // The unitigs strictly between `from` and `to` on the graph's shortest way from the one to
  // the other, through unitigs that no single contig holds (repeat copies and what no contig
  // took), at most kLinkReach bases; none if there is no such way.
  std::optional<std::vector<Oriented>> graph_way(Oriented from, Oriented to) const {
    const Reach reach = reach_through_unplaced(from, to);
    for (const auto& [left, entered] : reach.exits) {
      if (entered != to) continue;
      std::vector<Oriented> way;
      for (Oriented step = left; step != from; step = reach.through.at(step).second) way.push_back(step);
      std::reverse(way.begin(), way.end());
      return way;
    }
    return std::nullopt;
  }

  // What a search from `from` along the graph's links met, nearest first: the unitigs it went
  // through, each with its bases to its end (`start` for `from`, then each unitig's bases past
  // the k - 1 it shares with the one before) and the unitig before it; its steps into a
  // unitig it stops at; whether it met a dead end within its bounds, and a way that went
  // further than they let it.
  struct Reach {
    std::map<Oriented, std::pair<std::size_t, Oriented>> through;
    std::vector<std::pair<Oriented, Oriented>> exits;  // the unitig left, the unitig entered
    bool dead_end = false;
    bool too_far = false;
  };
  // How far a search goes on: into the unitigs that begin within `begins` bases, and end
  // within `ends`.
  struct Bounds {
    std::size_t begins;
    std::size_t ends;
  };
  static constexpr std::size_t kAnyLength = std::numeric_limits<std::size_t>::max();
  template <typename StopsAt>
  Reach shortest_ways(Oriented from, std::size_t start, Bounds bounds, StopsAt stops_at) const {
    Reach reach;
    reach.through[from] = {start, from};
    std::set<std::pair<std::size_t, Oriented>> frontier{{start, from}};
    while (!frontier.empty()) {
      const auto [distance, at] = *frontier.begin();
      frontier.erase(frontier.begin());
      if (distance > bounds.begins) continue;  // what follows it begins past the bound
      if (successors_[at].empty()) reach.dead_end = true;
      for (const Oriented next : successors_[at]) {
        if (stops_at(next)) {
          reach.exits.emplace_back(at, next);
          continue;
        }
        if (next == from) continue;
        const std::size_t further = distance + unitig_length(next) - (k_ - 1);
        if (further > bounds.ends) {
          reach.too_far = true;
          continue;
        }
        const auto found = reach.through.find(next);
        if (found != reach.through.end() && found->second.first <= further) continue;
        if (found != reach.through.end()) frontier.erase({found->second.first, next});
        reach.through[next] = {further, at};
        frontier.insert({further, next});
      }
    }
    return reach;
  }

  // A search from `from` through unitigs that place no mate (nor `target`, nor `from` again),
  // within kLinkReach bases, stopping at those that do and at `target`.
  Reach reach_through_unplaced(Oriented from, std::optional<Oriented> target = std::nullopt) const {
    return shortest_ways(from, 0, {kAnyLength, kLinkReach},
                         [&](Oriented next) { return next == target || placements_[next / 2].unique; });
  }

  const UnitigGraph& graph_;
  const std::vector<Contig>& contigs_;
  std::size_t k_;
  std::vector<Placement> placements_;           // by unitig
  std::vector<std::vector<std::size_t>> starts_;  // by contig, where each step of its path begins
  std::vector<std::vector<Oriented>> successors_;  // by oriented unitig
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> links_;  // pairs linking two ends
  std::map<std::size_t, std::map<Oriented, std::uint64_t>> way_pairs_;  // by end, by way out: pairs along it
  std::vector<double> typical_;  // each contig's genome's typical coverage (typical_coverages)
  double sample_typical_ = 0;    // the median base's coverage over all the contigs
  double spans_per_depth_ = 0;   // the median of join_spans_
  std::vector<double> join_spans_;  // pairs spanning each join inside a contig, over its typical coverage
  // For each contig end, the pairs that tie its outermost unitig that places mates to the
  // rest of its contig (kUnmeasured: the contig has one such unitig or none).
  std::vector<std::uint64_t> held_by_;
  std::size_t link_reach_ = kLinkReach;  // the most bases between a linking pair's mates' unitigs
  std::uint64_t insert_size_ = 0;  // the fragments' median length; 0: too few pairs measured it
  std::map<std::pair<std::size_t, std::size_t>, std::int64_t> gaps_;  // bases between two linked ends
  std::set<std::pair<std::size_t, std::size_t>> rounds_unknown_;  // ends the graph alone joined round a loop
};

}  // namespace

std::vector<Scaffold> scaffold_contigs(const UnitigGraph& graph, const std::vector<Contig>& contigs,
                                       const ReadThreads& pairs, ScaffoldingReport& report) {
  return Scaffolder(graph, contigs).scaffold(pairs, report);
}

std::vector<Scaffold> unscaffolded(const std::vector<Contig>& contigs) {
  std::vector<Scaffold> scaffolds;
  for (std::size_t contig = 0; contig < contigs.size(); ++contig) {
    scaffolds.push_back({{ScaffoldPiece{contig, false, 0, {}}}, contigs[contig].length, {contig}, 0});
  }
  return scaffolds;
}

std::string spelled_scaffold(const Scaffold& scaffold, const std::vector<Contig>& contigs,
                             const std::vector<Unitig>& unitigs, int k) {
  std::string bases;
  bases.reserve(scaffold.length);
  spell_in_windows(scaffold, contigs, unitigs, k, scaffold.length, [&bases](std::string_view window) {
    bases += window;
  });
  return bases;
}

void spell_in_windows(const Scaffold& scaffold, const std::vector<Contig>& contigs, const std::vector<Unitig>& unitigs,
                      int k, std::size_t window, const std::function<void(std::string_view)>& take) {
  window = std::max<std::size_t>(window, 1);
  for (const ScaffoldPiece& piece : scaffold.pieces) {
    const std::size_t length = piece_length(piece, contigs);
    for (std::size_t from = 0; from < length; from += window) {
      take(piece_window(piece, contigs, unitigs, k, from, window));
    }
  }
}

std::size_t scaffold_n50(const std::vector<Scaffold>& scaffolds) {
  std::vector<std::size_t> lengths;
  for (const Scaffold& scaffold : scaffolds) lengths.push_back(scaffold.length);
  return n50_of_lengths(std::move(lengths));
}

}  // namespace xenon::genomics
