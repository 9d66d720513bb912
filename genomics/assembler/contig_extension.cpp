// SPDX-License-Identifier: BSD-3-Clause
// Contigs: each unitig extended into its neighbours while one way leads on (or reads and mates
// choose one), the longest candidates taken first, their ends trimmed of what a longer contig
// already holds, and the walks spelled out as bases.
#include "genomics/assembler/unitig_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {
namespace {

// The ways at a junction as the mates' question takes them.
std::vector<UnitigGraph::Oriented> as_vector(std::span<const UnitigGraph::Oriented> ways) {
  return {ways.begin(), ways.end()};
}

// Whether `unitig` is read 3/2 as often as a stretch of `kmers` k-mers counted `count` times
// in all, or more (a repeat beside it): compared without a division.
bool read_half_again_as_often(const Unitig& unitig, std::uint64_t count, std::uint64_t kmers) {
  return 2.0 * static_cast<double>(unitig.coverage_sum) * static_cast<double>(kmers) >=
         3.0 * static_cast<double>(count) * static_cast<double>(unitig.kmers);
}

// How many copies of `unitig` its count makes room for, the candidate read as one copy: n
// where it is read n times as often as the candidate, rounded (n + 1/2 times or more: n + 1).
std::size_t copies_against(const Unitig& unitig, const Unitig& candidate) {
  if (candidate.coverage_sum == 0 || unitig.kmers == 0) return 1;
  const double ratio = static_cast<double>(unitig.coverage_sum) * static_cast<double>(candidate.kmers) /
                       (static_cast<double>(unitig.kmers) * static_cast<double>(candidate.coverage_sum));
  return std::max<std::size_t>(1, static_cast<std::size_t>(ratio + 0.5));
}

// How many times `walk` goes through `unitig`, either way.
std::size_t visits(std::span<const std::size_t> walk, std::size_t unitig) {
  return static_cast<std::size_t>(
      std::count_if(walk.begin(), walk.end(), [&](std::size_t in) { return in / 2 == unitig / 2; }));
}

// Whether a walk of the candidate `start` may go on into `next`: a unitig it has not been
// through, or a repeat it has been through fewer times than its count makes room for
// (copies_against). So a short loop out of a repeat and back into it (X R Y R Z, Y between
// two copies of R: a tandem repeat longer than a read) is walked round where the reads and
// mates choose each way out of R, instead of ending the contig at R's second copy. Never the
// candidate again: a walk round a cycle stops. Never again by the mates' choice (`by_mates`):
// mates from one anchor say the same on each round of a loop, so they may choose a way out
// of it, not a way back in.
bool may_enter(const std::vector<Unitig>& unitigs, std::span<const std::size_t> walk, std::size_t next,
               std::size_t start, bool by_mates = false) {
  const std::size_t times = visits(walk, next);
  if (times == 0) return true;
  return !by_mates && next / 2 != start / 2 && times < copies_against(unitigs[next / 2], unitigs[start / 2]);
}

// The votes' total, leaving out those for which `ignored` holds (64 bits: a sum of 32-bit counts).
template <typename Ignored>
std::uint64_t total_of(const std::map<std::size_t, std::uint32_t>& votes, Ignored ignored) {
  std::uint64_t total = 0;
  for (const auto& [way, count] : votes) total += ignored(way) ? 0 : count;
  return total;
}

std::uint64_t total_of(const std::map<std::size_t, std::uint32_t>& votes) {
  return total_of(votes, [](std::size_t) { return false; });
}

constexpr std::size_t kAnchorLength = 300;  // a unitig this long is taken for unique
constexpr std::size_t kMateReach = 300;     // bases from the anchor's end to the branch, at most
constexpr std::uint32_t kMinimumPairs = 3;
constexpr std::uint32_t kPairsIntoLoop = 2;

}  // namespace

// A short tandem repeat R Y R Z: from R (the path's last unitig), a way Y whose only way on
// is back into R and that only R leads into, besides the way out Z. Reads as long as R Y R
// choose between Y and Z; where too few reads are that long (E. coli at 20x), the walk goes
// round the loop as many times as the counts make room for: first into Y, while Y and
// another copy of R have room and pairs from the anchor reach Y (so this copy of R is the one
// beside the loop: loop_not_yet_walked); then, once Y has none, the reads and mates that point
// into Y are those of the rounds walked, and they no longer count against Z (loop_walked).
bool UnitigGraph::loops_back(const Junctions& joined, Oriented from, Oriented way) const {
  const std::span<const Oriented> on = after(joined, way);
  const std::span<const Oriented> into = before(joined, way);
  return way / 2 != from / 2 && on.size() == 1 && on[0] == from && into.size() == 1 && into[0] == from;
}

bool UnitigGraph::loop_walked(const Junctions& joined, std::span<const Oriented> path, Oriented start,
                              Oriented way) const {
  return way / 2 != start / 2 && loops_back(joined, path.back(), way) && !may_enter(unitigs_, path, way, start);
}

std::optional<UnitigGraph::Oriented> UnitigGraph::loop_not_yet_walked(
    const Junctions& joined, std::span<const Oriented> path, Oriented start,
    const std::map<Oriented, std::uint32_t>& pair_votes) const {
  const std::span<const Oriented> following = after(joined, path.back());
  if (following.size() != 2) return std::nullopt;
  const bool first_loops = loops_back(joined, path.back(), following[0]);
  if (first_loops == loops_back(joined, path.back(), following[1])) return std::nullopt;
  const Oriented way = first_loops ? following[0] : following[1];
  const auto pairs = pair_votes.find(way);
  if (pairs == pair_votes.end() || pairs->second < kPairsIntoLoop) return std::nullopt;
  if (visits(path, way) != 0 || !may_enter(unitigs_, path, path.back(), start)) return std::nullopt;
  return way;
}

// The only way on may lead into a unitig (`back` read backwards) that another way leads into
// too, where a gap in the reads hid this unitig's own way in (a genome read 10x, two places
// sharing the k - 1 bases of a junction): then the reads and pairs read from that unitig
// backwards, if they agree on another way than `arriving`, say the walk would jump between
// the two places. So do reads that go into another way as well as into `arriving`, unless the
// unitig is a repeat: at a large k, a repeat whose other copy lost its way out to a gap in the
// reads is merged into the single stretch beside it, and the walk would take that stretch.
bool UnitigGraph::chosen_against(const Junctions& joined, Oriented back, Oriented arriving, const NextAfter& reads,
                                 const MatesAfter& mates) const {
  if (after(joined, back).size() < 2) return false;  // `arriving` is the only way into it
  const auto against = [&](const std::map<Oriented, std::uint32_t>& votes, std::uint32_t minimum) {
    return total_of(votes) >= minimum && votes.count(arriving) == 0;
  };
  if (reads) {
    const std::map<Oriented, std::uint32_t> votes = reads({back});
    if (against(votes, 2)) return true;
    // Reads that go from it into another way too (two or more, half as many as into
    // `arriving` or more): two places lead into it, and unless it is read half again as often
    // as the walk's last unitig (a repeat, whose way out is chosen at its own end), the walk
    // cannot know it is at its own.
    const auto own = votes.find(arriving);
    const std::uint32_t own_votes = own == votes.end() ? 0 : own->second;
    const Unitig& from = unitigs_[arriving / 2];
    if (!read_half_again_as_often(unitigs_[back / 2], from.coverage_sum, from.kmers) &&
        std::any_of(votes.begin(), votes.end(), [&](const auto& vote) {
          return vote.first != arriving && vote.second >= 2 && 2 * std::uint64_t{vote.second} >= own_votes;
        })) {
      return true;
    }
  }
  return mates && unitigs_[back / 2].bases.size() >= kAnchorLength &&
         against(mates(back, as_vector(after(joined, back))), kMinimumPairs);
}

// Where reads go on both ways, the path's end may be shared by two genomes read at depths far
// apart (two strains in a community, one read 60 times and the other 10): the abundant
// one's walk takes the way read about as often as its start (within 3/2 either way; two reads
// or more take it) when that way is read 3 times as often as every other way the reads take,
// or more. Not the other way round: for the rarer genome's walk, a way read 3 times as often
// is as likely a repeat's copies as another genome's; and a repeat's copies, read alike,
// choose nothing here. Four copies of a repeat beside a unique way look the same to it: on
// the Shigella plasmids, walks inside an insertion sequence go on into its next piece (no
// misassembly; 824 unique bases were left to contigs under 500). A bound of 4 times left
// them be, but took the community's G27 from NGA50 52 kbp to 38 kbp and added misassemblies.
std::optional<UnitigGraph::Oriented> UnitigGraph::way_of_own_depth(
    Oriented start, const std::map<Oriented, std::uint32_t>& votes, std::span<const Oriented> following,
    const std::function<bool(Oriented)>& walked) const {
  const double own = unitigs_[start / 2].coverage();
  std::optional<Oriented> chosen;
  double others = 0;  // the coverage of the most read other way
  for (const auto& [way, count] : votes) {
    if (walked(way) || std::find(following.begin(), following.end(), way) == following.end()) continue;
    const double coverage = unitigs_[way / 2].coverage();
    if (coverage >= own * 2 / 3 && coverage <= own * 3 / 2) {
      if (chosen || count < 2) return std::nullopt;
      chosen = way;
    } else {
      others = std::max(others, coverage);
    }
  }
  if (!chosen || unitigs_[*chosen / 2].coverage() < 3 * others) return std::nullopt;
  return chosen;
}

// The pairs whose first mate lies in the path's last long unitig (the anchor), close enough
// to the branch for the other mate to reach past it, by the way on the other mate is in;
// none when no such anchor lies close enough.
std::map<UnitigGraph::Oriented, std::uint32_t> UnitigGraph::pairs_from_anchor(std::span<const Oriented> path,
                                                                              std::span<const Oriented> following,
                                                                              const MatesAfter& mates) const {
  std::size_t reach = 0;
  for (auto it = path.rbegin(); it != path.rend() && reach <= kMateReach; ++it) {
    const std::size_t length = unitigs_[*it / 2].bases.size();
    if (length >= kAnchorLength) return mates(*it, as_vector(following));
    reach += length - static_cast<std::size_t>(k_) + 1;
  }
  return {};
}

// The unitigs after `start`, one way on at a time: the only one, or the one reads choose, as
// long as the walk may enter it (may_enter).
std::vector<UnitigGraph::Oriented> UnitigGraph::way_on(const Junctions& joined, Oriented start,
                                                       const NextAfter& reads, const MatesAfter& mates) const {
  constexpr std::size_t kSteps = 64;
  constexpr std::size_t kLongestContext = 8;
  std::vector<Oriented> path{start};
  const auto walked = [&](Oriented way) { return loop_walked(joined, path, start, way); };
  while (path.size() <= kSteps) {
    const std::span<const Oriented> following = after(joined, path.back());
    std::optional<Oriented> next;
    bool by_mates = false;
    if (following.size() == 1) {
      if (!chosen_against(joined, following[0] ^ 1, path.back() ^ 1, reads, mates)) next = following[0];
    } else if (following.size() > 1 && reads) {
      // The longest stretch of the path's end that at least two reads crossed decides.
      for (std::size_t length = std::min(kLongestContext, path.size()); length >= 1 && !next; --length) {
        const std::vector<Oriented> context(path.end() - static_cast<std::ptrdiff_t>(length), path.end());
        const std::map<Oriented, std::uint32_t> votes = reads(context);
        const std::uint64_t total = total_of(votes, walked);
        if (total < 2) continue;
        for (const auto& [way, count] : votes) {
          if (count == total && std::find(following.begin(), following.end(), way) != following.end()) next = way;
        }
        if (!next) next = way_of_own_depth(start, votes, following, walked);
        break;  // enough reads at this length: they agreed or they did not
      }
      std::map<Oriented, std::uint32_t> pair_votes;
      if (!next && mates) {
        pair_votes = pairs_from_anchor(path, following, mates);
        const std::uint64_t total = total_of(pair_votes, walked);
        for (const auto& [way, count] : pair_votes) {
          if (count >= kMinimumPairs && count == total) next = way;
        }
        by_mates = next.has_value();
      }
      if (!next) next = loop_not_yet_walked(joined, path, start, pair_votes);
    }
    if (!next || !may_enter(unitigs_, path, *next, start, by_mates)) break;
    path.push_back(*next);
  }
  return path;
}

// The unitig with what follows it and what comes before it (way_on, both ways), as the
// oriented unitigs it reads through, in order: every occurrence of a unitig in the genome
// goes on that way, so the extension is as true as the unitig. No unitig is in it twice but
// a repeat's further copies, as many as its count makes room for (may_enter).
std::vector<UnitigGraph::Oriented> UnitigGraph::extension(const Junctions& joined, std::size_t index,
                                                          const NextAfter& reads, const MatesAfter& mates) const {
  const std::vector<Oriented> forward = way_on(joined, 2 * index, reads, mates);
  const std::vector<Oriented> backward = way_on(joined, 2 * index + 1, reads, mates);
  std::vector<Oriented> walk;
  walk.reserve(backward.size() + forward.size() - 1);
  // Backward, read the other way, then the unitig and forward.
  for (auto it = backward.rbegin(); it != backward.rend(); ++it) walk.push_back(*it ^ 1);
  for (std::size_t i = 1; i < forward.size(); ++i) {
    if (!may_enter(unitigs_, walk, forward[i], 2 * index)) break;
    walk.push_back(forward[i]);
  }
  return walk;
}

// The bases of a walk, each unitig after the first without the k - 1 it shares.
std::size_t UnitigGraph::spelled_length(std::span<const Oriented> walk) const {
  return spelled_path_length(unitigs_, k_, walk);
}

// A repeat's copy lies between the unitig before it and the one after it, and both of their
// contigs go on into it: written by both, each copy would be written twice (QUAST's
// duplication: 1.08 on the Shigella plasmids, whose IS elements of 1.3 kbp sat at the ends of
// two contigs each). The one before keeps it: of the unitigs at each end of a candidate's
// walk read 3/2 as often as the candidate's own unitig or more (a repeat), the walk keeps
// those its unique part enters, read forward (at the walk's end; reverse complemented at its
// start: the same, read from the unique part outwards), and leaves those it is entered
// from. So each copy of a repeat is written once, beside the unitig that leads into it,
// whichever strand holds it; a copy whose unitig before it branches, or whose contig is too
// short to be written, is written by neither (the repeat is written where another copy is,
// or alone).
void UnitigGraph::leave_repeats_entered_from(std::vector<Oriented>& walk, std::size_t candidate) const {
  const Unitig& own = unitigs_[candidate];
  const auto repeat = [&](Oriented in) {
    return in / 2 != candidate && read_half_again_as_often(unitigs_[in / 2], own.coverage_sum, own.kmers);
  };
  // The unique part: walk[first, last).
  std::size_t first = 0;
  while (first < walk.size() && repeat(walk[first])) ++first;
  std::size_t last = walk.size();
  while (last > first && repeat(walk[last - 1])) --last;
  const bool leave_after = last < walk.size() && walk[last] % 2 != 0;
  const bool leave_before = first > 0 && walk[first - 1] % 2 == 0;
  if (leave_after) walk.resize(last);
  if (leave_before) walk.erase(walk.begin(), walk.begin() + static_cast<std::ptrdiff_t>(first));
}

// Whether a unitig that longer contigs hold (`held`: their coverages added up) has room for
// one more copy, of a contig whose `kmers` k-mers are counted `count` times in all: it is read 3/2 as often as that contig
// or more (a repeat), and what is left of its count once theirs is taken is half that
// contig's or more. So a repeat read twice as often as the two contigs around its copies
// goes to both, but a unitig of an abundant genome is no copy for a contig of a rarer one
// beside it (a strain's variant, in a community: read 7 times where the unitig is read 30,
// and its contig of 30 already holds it).
bool UnitigGraph::room_for_copy(std::size_t unitig, const Held& held, std::uint64_t count,
                                std::uint64_t kmers) const {
  const double coverage = static_cast<double>(count) / static_cast<double>(kmers);
  return read_half_again_as_often(unitigs_[unitig], count, kmers) &&
         unitigs_[unitig].coverage() - held.coverage[unitig] >= coverage / 2;
}

// A candidate's walk up to the nearest unitig on each side of its own that a longer contig
// holds and that has no room for another copy (room_for_copy): past that unitig the walk
// would write again what the longer contig wrote. (A candidate inside a tandem repeat walks
// out of it both ways, round its loops, into regions already written; held repeats stay, as
// reads led through them.)
void UnitigGraph::keep_up_to_written(std::vector<Oriented>& walk, const Held& held,
                                     std::size_t candidate) const {
  const Unitig& own = unitigs_[candidate];
  const auto written = [&](Oriented in) {
    return in / 2 != candidate && held.any[in / 2] && !room_for_copy(in / 2, held, own.coverage_sum, own.kmers);
  };
  const auto at = std::find_if(walk.begin(), walk.end(), [&](Oriented in) { return in / 2 == candidate; });
  if (at == walk.end()) return;
  auto last = std::find_if(at, walk.end(), written);
  walk.erase(last, walk.end());
  auto first = std::find_if(std::make_reverse_iterator(at), walk.rend(), written).base();
  walk.erase(walk.begin(), first);
}

// A candidate's walk without the unitigs at its ends that a longer contig holds, but for
// repeats right next to the rest with room for this contig's copy (see contig_paths()). The
// candidate's own unitig is not held, so the trimming stops there at the latest.
void UnitigGraph::trim_covered_ends(std::vector<Oriented>& walk, const Held& held,
                                    std::size_t minimum_length) const {
  auto first = std::find_if(walk.begin(), walk.end(), [&](Oriented in) { return !held.any[in / 2]; });
  auto last = std::find_if(walk.rbegin(), walk.rend(), [&](Oriented in) { return !held.any[in / 2]; }).base();
  if (first == walk.begin() && last == walk.end()) return;
  if (spelled_length(std::span<const Oriented>(first, last)) >= minimum_length) {
    // The rest's mean count (sum / kmers).
    std::uint64_t count = 0;
    std::uint64_t kmers = 0;
    for (auto it = first; it != last; ++it) {
      count += unitigs_[*it / 2].coverage_sum;
      kmers += unitigs_[*it / 2].kmers;
    }
    const auto repeat = [&](Oriented in) { return room_for_copy(in / 2, held, count, kmers); };
    while (first != walk.begin() && repeat(*(first - 1))) --first;
    while (last != walk.end() && repeat(*last)) ++last;
  }
  walk.erase(last, walk.end());
  walk.erase(walk.begin(), first);
}

// Every unitig is a candidate, extended as far as it is sure; the longest are taken first.
// A unitig is written once, but for repeats:
// - a candidate's ends lose the unitigs a longer contig already holds (a candidate from a
//   bubble's other branch or a tip would otherwise write again the whole region around it),
//   and a candidate with less than `minimum_length` left is not written;
// - of those ends, a repeat right next to what is left stays (a unitig read 1.5 times as
//   often as the rest of the contig, or more, with room for this copy: room_for_copy): it
//   is this contig's own copy of the repeat; and a repeat inside a contig stays (reads led
//   through it).
std::vector<Contig> UnitigGraph::contig_paths(std::size_t minimum_length, bool extend, const NextAfter& reads,
                                              const MatesAfter& mates) const {
  const std::size_t k = static_cast<std::size_t>(k_);
  std::vector<std::vector<Oriented>> walks(unitigs_.size());
  std::vector<std::size_t> lengths(unitigs_.size());
  const Junctions joined = extend ? junctions() : Junctions{};
  for (std::size_t index = 0; index < unitigs_.size(); ++index) {
    if (extend && !unitigs_[index].circular) {
      walks[index] = extension(joined, index, reads, mates);
      leave_repeats_entered_from(walks[index], index);
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
  Held held{std::vector<bool>(unitigs_.size(), false), std::vector<double>(unitigs_.size(), 0.0)};
  std::vector<Contig> contigs;
  for (const std::size_t index : order) {
    if (held.any[index]) continue;
    std::vector<Oriented>& walk = walks[index];
    if (extend && !unitigs_[index].circular) {
      keep_up_to_written(walk, held, index);
      trim_covered_ends(walk, held, minimum_length);
      lengths[index] = spelled_length(walk);
    }
    for (const Oriented member : walk) {
      held.any[member / 2] = true;
      held.coverage[member / 2] += unitigs_[index].coverage();
    }
    const std::size_t length = lengths[index];
    if (length < minimum_length) continue;
    Contig contig{std::move(walk), 0, length, unitigs_[index].coverage_sum, unitigs_[index].kmers,
                  unitigs_[index].circular};
    // Read the way whose bases are the smaller: the same unitigs, last first, each read the
    // other way, where its reverse complement is. Compared up to their first difference, not
    // spelled whole.
    if (compare_spelled(unitigs_, k_, contig, true, contig, false) < 0) {
      contig = reversed_contig(unitigs_, k_, std::move(contig));
    }
    contigs.push_back(std::move(contig));
  }
  // Longest first; contigs of one length by their bases.
  std::stable_sort(contigs.begin(), contigs.end(), [&](const Contig& a, const Contig& b) {
    if (a.length != b.length) return a.length > b.length;
    return compare_spelled(unitigs_, k_, a, false, b, false) < 0;
  });
  return contigs;
}

std::vector<Unitig> UnitigGraph::contigs(std::size_t minimum_length, bool extend, const NextAfter& reads,
                                         const MatesAfter& mates, std::vector<std::vector<Oriented>>* paths) const {
  std::vector<Unitig> spelled;
  if (paths != nullptr) paths->clear();
  for (Contig& contig : contig_paths(minimum_length, extend, reads, mates)) {
    spelled.push_back({spelled_contig(unitigs_, k_, contig), contig.coverage_sum, contig.kmers, contig.circular});
    if (paths != nullptr) paths->push_back(std::move(contig.path));
  }
  return spelled;
}

}  // namespace xenon::genomics
