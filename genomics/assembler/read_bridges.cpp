// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_bridges.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "genomics/assembler/memo_placer.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

DeadEnds DeadEnds::of(const UnitigGraph& graph) {
  DeadEnds dead;
  dead.of_unitig.assign(graph.unitigs().size(), kHead | kTail);
  // A link x then y joins x's tail (read as x reads it) and y's head.
  const auto joined_tail = [&dead](UnitigGraph::Oriented oriented) {
    dead.of_unitig[oriented / 2] &= static_cast<std::uint8_t>(~((oriented & 1) == 0 ? kTail : kHead));
  };
  for (const auto& [x, y] : graph.links()) {
    joined_tail(x);
    joined_tail(y ^ 1);
  }
  for (UnitigGraph::Oriented oriented = 0; oriented < 2 * graph.unitigs().size(); ++oriented) {
    if (dead.tail(oriented)) dead.junctions.emplace(oriented, graph.last_junction(oriented));
  }
  return dead;
}

DeadEnds DeadEnds::of(std::vector<std::uint8_t> of_unitig, const std::vector<UnitigEnds>& ends, std::size_t k) {
  if (of_unitig.size() != ends.size()) {
    throw std::invalid_argument("dead ends: flags for " + std::to_string(of_unitig.size()) + " unitigs, ends of " +
                                std::to_string(ends.size()));
  }
  DeadEnds dead;
  dead.of_unitig = std::move(of_unitig);
  for (UnitigGraph::Oriented oriented = 0; oriented < 2 * ends.size(); ++oriented) {
    if (dead.tail(oriented)) dead.junctions.emplace(oriented, ends[oriented / 2].last_junction((oriented & 1) != 0, k));
  }
  return dead;
}

std::string DeadEnds::first_junction(UnitigGraph::Oriented oriented) const {
  return reverse_complement(last_junction(oriented ^ 1));
}

namespace {

// A read's base (ACGT, either case) as the graph spells it.
char graph_base(char base) { return "ACGT"[kBaseCodes[static_cast<unsigned char>(base)] & 3]; }

std::string upper_case(std::string_view bases) {
  std::string upper(bases.size(), 'N');
  for (std::size_t i = 0; i < bases.size(); ++i) upper[i] = graph_base(bases[i]);
  return upper;
}

// For each start in `bases`, how many of the 16 pairs of bases follow one another from there
// on: 1 in a run of one base, 2 or 3 in a repeat of two or three bases. One pass from the end,
// so that every start of an overhang is judged in the time of one.
std::vector<std::uint8_t> kinds_of_base_pairs_from(std::string_view bases) {
  std::vector<std::uint8_t> kinds(bases.size() + 1, 0);
  std::uint16_t seen = 0;
  for (std::size_t i = bases.size(); i-- > 0;) {
    if (i + 1 < bases.size()) {
      seen |= static_cast<std::uint16_t>(1u << ((kBaseCodes[static_cast<unsigned char>(bases[i])] & 3) * 4 +
                                               (kBaseCodes[static_cast<unsigned char>(bases[i + 1])] & 3)));
    }
    kinds[i] = static_cast<std::uint8_t>(std::popcount(seen));
  }
  return kinds;
}

// Bases hashed as they are, a string or a view of one (so a view is looked up without a copy).
struct BasesHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view bases) const noexcept { return std::hash<std::string_view>{}(bases); }
};

// What each record of an encoded BridgeVotes is.
enum class VoteKind : std::uint8_t { bridge = 0, overhang = 1 };

void put_bases(std::vector<std::byte>& bytes, const std::string& bases) {
  put_varint(bytes, bases.size());
  for (const char base : bases) put_varint(bytes, static_cast<unsigned char>(base));
}

std::string take_bases(VarintReader& reader) {
  const std::uint64_t length = reader.count("bases");
  std::string bases(length, '\0');
  for (char& base : bases) {
    const std::uint64_t code = reader.next();
    if (code > 0x7f || kBaseCodes[code] < 0) reader.fail("a bridge's bases hold other than ACGT");
    base = static_cast<char>(code);
  }
  return bases;
}

}  // namespace

void BridgeVotes::add_to(Votes& votes, UnitigGraph::Oriented from, UnitigGraph::Oriented to, std::string_view bases,
                         std::uint64_t reads) {
  // The same bridge read from the other strand: from `to` reversed into `from` reversed.
  std::string upper = upper_case(bases);
  std::tuple<UnitigGraph::Oriented, UnitigGraph::Oriented, std::string> forward{from, to, upper};
  std::tuple<UnitigGraph::Oriented, UnitigGraph::Oriented, std::string> backward{to ^ 1, from ^ 1,
                                                                                 reverse_complement(upper)};
  votes[std::min(std::move(forward), std::move(backward))] += reads;
}

void BridgeVotes::add(UnitigGraph::Oriented from, UnitigGraph::Oriented to, std::string_view bases,
                      std::uint64_t reads) {
  add_to(votes_, from, to, bases, reads);
}

void BridgeVotes::add_overhang(UnitigGraph::Oriented end, std::string_view junction, std::string_view beyond,
                               std::uint64_t reads) {
  overhangs_[{end, upper_case(junction), upper_case(beyond)}] += reads;
}

void BridgeVotes::add_all(const BridgeVotes& other) {
  for (const auto& [bridge, reads] : other.votes_) votes_[bridge] += reads;  // each kept one way already
  for (const auto& [overhang, reads] : other.overhangs_) overhangs_[overhang] += reads;
}

std::vector<std::byte> BridgeVotes::encode() const {
  std::vector<std::byte> bytes;
  for (const auto& [bridge, reads] : votes_) {
    const auto& [from, to, bases] = bridge;
    put_varint(bytes, static_cast<std::uint64_t>(VoteKind::bridge));
    put_varint(bytes, from);
    put_varint(bytes, to);
    put_varint(bytes, reads);
    put_bases(bytes, bases);
  }
  for (const auto& [overhang, reads] : overhangs_) {
    const auto& [end, junction, beyond] = overhang;
    put_varint(bytes, static_cast<std::uint64_t>(VoteKind::overhang));
    put_varint(bytes, end);
    put_varint(bytes, reads);
    put_bases(bytes, junction);
    put_bases(bytes, beyond);
  }
  return bytes;
}

void BridgeVotes::add_encoded(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "read bridges");
  while (!reader.at_end()) {
    const std::uint64_t kind = reader.next();
    if (kind == static_cast<std::uint64_t>(VoteKind::bridge)) {
      const std::uint64_t from = reader.next();
      const std::uint64_t to = reader.next();
      const std::uint64_t reads = reader.next();
      const std::string bases = take_bases(reader);
      if (bases.empty() || reads == 0) reader.fail("a bridge of no bases or no reads");
      add(static_cast<UnitigGraph::Oriented>(from), static_cast<UnitigGraph::Oriented>(to), bases, reads);
    } else if (kind == static_cast<std::uint64_t>(VoteKind::overhang)) {
      const std::uint64_t end = reader.next();
      const std::uint64_t reads = reader.next();
      const std::string junction = take_bases(reader);
      const std::string beyond = take_bases(reader);
      if (junction.empty() || beyond.empty() || reads == 0) reader.fail("an overhang of no bases or no reads");
      add_overhang(static_cast<UnitigGraph::Oriented>(end), junction, beyond, reads);
    } else {
      reader.fail("a vote of no known kind");
    }
  }
}

BridgeVotes::Votes BridgeVotes::overlapping_overhangs(const DeadEnds* dead, std::size_t least_overlap) const {
  // Ends a read spans from are left to those reads.
  std::set<UnitigGraph::Oriented> spanned;
  for (const auto& [bridge, reads] : votes_) {
    spanned.insert(std::get<0>(bridge));
    spanned.insert(std::get<1>(bridge) ^ 1);
  }
  // Every overhang, then, with `dead`, every dead end that no read leaves: its own last k-1
  // bases, as the reads that hold its last k-mer all stop there (they may still overlap a read
  // that enters the other end).
  struct Overhang {
    UnitigGraph::Oriented end;
    std::string bases;
    std::uint64_t reads;
  };
  std::vector<Overhang> overhangs;
  std::set<UnitigGraph::Oriented> left_by_reads;
  for (const auto& [overhang, reads] : overhangs_) {
    const auto& [end, junction, beyond] = overhang;
    overhangs.push_back({end, junction + beyond, reads});
    left_by_reads.insert(end);
  }
  if (dead != nullptr) {
    for (const auto& [end, junction] : dead->junctions) {
      if (!left_by_reads.contains(end)) overhangs.push_back({end, junction, 1});
    }
  }
  // Each overhang read the other way: the read's bases into the dead beginning of its end
  // reversed, then that unitig's first k-1, indexed by their first least_overlap bases.
  struct Entering {
    UnitigGraph::Oriented into;
    std::string bases;
    std::size_t overhang;  // which (its place in overhangs)
    std::uint64_t reads;
  };
  std::vector<Entering> entering;
  // Looked up at every base of every leaving overhang: by hash.
  std::unordered_map<std::string, std::vector<std::size_t>, BasesHash, std::equal_to<>> entering_by_start;
  for (std::size_t index = 0; index < overhangs.size(); ++index) {
    const Overhang& overhang = overhangs[index];
    std::string bases = reverse_complement(overhang.bases);
    if (!spanned.contains(overhang.end) && bases.size() > least_overlap) {
      entering_by_start[bases.substr(0, least_overlap)].push_back(entering.size());
      entering.push_back({overhang.end ^ 1, std::move(bases), index, overhang.reads});
    }
  }
  // Each leaving overhang against the entering ones its bases end like, at the longest overlap.
  Votes votes;
  for (std::size_t leaving = 0; leaving < overhangs.size(); ++leaving) {
    const auto& [end, bases, reads] = overhangs[leaving];
    if (spanned.contains(end)) continue;
    std::set<std::size_t> met;
    const std::vector<std::uint8_t> kinds = kinds_of_base_pairs_from(bases);
    for (std::size_t at = 1; at + least_overlap <= bases.size(); ++at) {
      const auto found = entering_by_start.find(std::string_view(bases).substr(at, least_overlap));
      // A start that many reads share (a short repeat, a run of one base) says nothing of
      // where a read goes on, nor does an overlap of so few kinds of base pairs.
      if (found == entering_by_start.end() || found->second.size() > kMostOverlapCandidates ||
          kinds[at] < kLeastOverlapBasePairs) {
        continue;
      }
      const std::size_t overlap = bases.size() - at;
      for (const std::size_t candidate : found->second) {
        const Entering& other = entering[candidate];
        // Each pair once (it is met from both of its ends), never a unitig to itself.
        if (other.overhang <= leaving || other.into / 2 == end / 2 || met.contains(candidate)) continue;
        if (other.bases.size() <= overlap || other.bases.compare(0, overlap, bases, at, overlap) != 0) continue;
        met.insert(candidate);
        add_to(votes, end, other.into, bases + other.bases.substr(overlap), std::min(reads, other.reads));
      }
    }
  }
  return votes;
}

std::vector<ReadBridge> BridgeVotes::chosen(std::uint64_t& ambiguous) const {
  return chosen_of(overlapping_overhangs(nullptr, kMinimumOverlap), ambiguous);
}

std::vector<ReadBridge> BridgeVotes::short_overlaps(const DeadEnds& dead) const {
  return short_overlaps_of(overlapping_overhangs(nullptr, kMinimumOverlap), dead);
}

BridgeVotes::Choice BridgeVotes::choose(const DeadEnds& dead) const {
  const Votes overlapping = overlapping_overhangs(nullptr, kMinimumOverlap);
  Choice choice;
  choice.bridges = chosen_of(overlapping, choice.ambiguous);
  choice.short_overlaps = short_overlaps_of(overlapping, dead);
  return choice;
}

std::vector<ReadBridge> BridgeVotes::chosen_of(const Votes& overlapping, std::uint64_t& ambiguous) const {
  // Every dead end a bridge leaves (read as leaving it: a bridge from x into y also leaves y^1
  // into x^1), and where to.
  std::map<UnitigGraph::Oriented, std::set<UnitigGraph::Oriented>> leads_to;
  for (const Votes* votes : {&votes_, &overlapping}) {
    for (const auto& [bridge, reads] : *votes) {
      const auto& [from, to, bases] = bridge;
      leads_to[from].insert(to);
      leads_to[to ^ 1].insert(from ^ 1);
    }
  }
  ambiguous = 0;
  for (const auto& [end, targets] : leads_to) ambiguous += targets.size() > 1;
  std::vector<ReadBridge> bridges;
  for (const Votes* votes : {&votes_, &overlapping}) {
    for (ReadBridge& bridge : best_of(*votes, votes == &overlapping)) {
      if (leads_to.at(bridge.from).size() == 1 && leads_to.at(bridge.to ^ 1).size() == 1) {
        bridges.push_back(std::move(bridge));
      }
    }
  }
  return bridges;
}

std::vector<ReadBridge> BridgeVotes::short_overlaps_of(const Votes& overlapping, const DeadEnds& dead) const {
  // Ends that chosen() weighs (spanned by reads, or overlapping by kMinimumOverlap) are its own.
  std::set<UnitigGraph::Oriented> taken;
  for (const Votes* votes : {&votes_, &overlapping}) {
    for (const auto& [bridge, reads] : *votes) {
      taken.insert(std::get<0>(bridge));
      taken.insert(std::get<1>(bridge) ^ 1);
    }
  }
  std::vector<ReadBridge> bridges;
  for (ReadBridge& bridge : best_of(overlapping_overhangs(&dead, kLeastPairedOverlap), true)) {
    if (!taken.contains(bridge.from) && !taken.contains(bridge.to ^ 1)) bridges.push_back(std::move(bridge));
  }
  return bridges;
}

std::vector<ReadBridge> BridgeVotes::best_of(const Votes& votes, bool overlapping) {
  std::vector<ReadBridge> bridges;
  for (auto vote = votes.begin(); vote != votes.end();) {
    const auto& [from, to, first_bases] = vote->first;
    // The votes of one pair of ends lie together (ordered by from, then to): the most reads'
    // (the smaller bases when as many read others).
    auto best = vote;
    auto after = vote;
    for (; after != votes.end() && std::get<0>(after->first) == from && std::get<1>(after->first) == to; ++after) {
      if (after->second > best->second) best = after;
    }
    bridges.push_back({from, to, std::get<2>(best->first), best->second, overlapping});
    vote = after;
  }
  return bridges;
}

namespace {

// Whether the read holds, where the unitig `at.unitig` would put it, one of the unitig's last
// k+1 k-mers (`last` is where the read would hold the very last one): an error in the read
// within a k-mer of the dead end hides the last k-mers, not where the read leaves.
template <class Placer>
bool holds_unitig_near_end(const Placer& threads, std::string_view bases, const EndIndex::Place& at,
                           std::size_t at_start, std::size_t last, std::size_t k) {
  const std::size_t last_offset = threads.unitig_kmers(at.unitig / 2) - 1;
  for (std::size_t back = 0; back <= k && back <= last - at_start && back <= last_offset; ++back) {
    if (last - back == at_start) return at.offset == last_offset - back;
    const std::optional<EndIndex::Place> held = threads.place(bases, last - back);
    if (held && held->unitig == at.unitig && held->offset == last_offset - back) return true;
  }
  return false;
}

// Whether the read's bases where it should hold a unitig's junction differ from the graph's
// only as errors of a base or two do: an inserted or missing base shifts all that follow, and
// the junction would not say where the read's bases go on.
bool junction_held(std::string_view read, const std::string& junction) {
  std::size_t differences = 0;
  for (std::size_t i = 0; i < junction.size(); ++i) {
    differences += graph_base(read[i]) != junction[i];
  }
  return differences <= kMostJunctionErrors;
}

// The bases of a bridge from the read (`between`: the k-1 bases before its first missing
// k-mer to the k-1 after its last), with both junctions the graph's own where the read's
// differ: an error the read has there. Empty when the read's bases there differ by more than
// such errors, or when the two junctions overlap and disagree.
std::string bridge_bases(std::string_view between, const std::string& from_end, const std::string& into_start) {
  const std::size_t junction = from_end.size();
  if (!junction_held(between.substr(0, junction), from_end) ||
      !junction_held(between.substr(between.size() - junction), into_start)) {
    return {};
  }
  std::string bridge(between);
  bridge.replace(0, junction, from_end);
  const std::size_t entry = bridge.size() - junction;
  for (std::size_t i = 0; i < junction; ++i) {
    if (entry + i < junction && bridge[entry + i] != into_start[i]) return {};
    bridge[entry + i] = into_start[i];
  }
  return bridge;
}

// A read that begins in a gap and enters a dead beginning (its first k-mer the graph holds,
// looked for at every base, lies within a k-mer of it): an overhang of that end read the
// other way, as the same read from the other strand leaves it.
template <class Placer>
void add_entering_overhang(const Placer& threads, const DeadEnds& dead,
                           std::size_t k, std::string_view bases, BridgeVotes& votes) {
  std::size_t first = 0;
  const std::optional<EndIndex::Place> at = threads.next_place(bases, 0, 1, first);
  if (!at || !dead.head(at->unitig) || at->offset > k || first <= at->offset) return;
  const std::size_t enters = first - at->offset;  // where the read would hold the unitig's first k-mer
  const UnitigGraph::Oriented end = at->unitig ^ 1;
  const std::string junction = dead.last_junction(end);
  const std::string held = reverse_complement(bases.substr(enters, k - 1));
  if (junction_held(held, junction)) votes.add_overhang(end, junction, reverse_complement(bases.substr(0, enters)));
}

// One run of ACGT of a read, followed through the graph: at each dead end it leaves, on to the
// next k-mer the graph holds.
template <class Placer>
void bridges_of_run(const Placer& threads, const DeadEnds& dead,
                    std::size_t k, std::string_view bases, BridgeVotes& votes) {
  const std::size_t last_start = bases.size() - k;
  const std::size_t stride = threads.search_stride();
  std::size_t start = 0;
  std::optional<EndIndex::Place> at = threads.next_place(bases, 0, stride, start);
  if (at && start > 0 && dead.head(at->unitig)) add_entering_overhang(threads, dead, k, bases, votes);
  while (at) {
    const std::size_t left_at = start + (threads.unitig_kmers(at->unitig / 2) - 1 - at->offset);
    if (left_at >= last_start) return;  // the read ends in this unitig
    const std::size_t next = left_at + 1;
    if (!dead.tail(at->unitig)) {
      // The graph goes on: the read follows it, or it has an error here.
      std::optional<EndIndex::Place> on = threads.place(bases, next);
      if (on) {
        start = next;
        at = on;
      } else {
        at = threads.next_place(bases, next + 1, stride, start);
      }
      continue;
    }
    // The read holds the unitig up to within a k-mer of its end, then k-mers the graph lacks,
    // then another unitig from within a k-mer of its beginning (where the read's first k-mer
    // found in it lies at most k on). An error of the read next to either end leaves the
    // bridge's bases there to the graph.
    const bool leaves_near_end = holds_unitig_near_end(threads, bases, *at, start, left_at, k);
    std::size_t entered = 0;
    const std::optional<EndIndex::Place> into = threads.next_place(bases, next, 1, entered);
    if (leaves_near_end && into && into->offset <= k && entered > next + into->offset && dead.head(into->unitig) &&
        into->unitig / 2 != at->unitig / 2) {
      const std::size_t into_start = entered - into->offset;  // where the read would hold its first k-mer
      const std::string bridge = bridge_bases(bases.substr(next, into_start - next + k - 1),
                                              dead.last_junction(at->unitig), dead.first_junction(into->unitig));
      if (!bridge.empty()) votes.add(at->unitig, into->unitig, bridge);
    } else if (leaves_near_end && !into) {  // the read stops in the gap
      const std::string junction = dead.last_junction(at->unitig);
      if (junction_held(bases.substr(next, k - 1), junction)) {
        votes.add_overhang(at->unitig, junction, bases.substr(left_at + k));
      }
    }
    start = entered;
    at = into;
  }
}

template <class Placer>
void find_bridges_through(const Placer& threads, const DeadEnds& dead, int k, std::string_view read,
                          BridgeVotes& votes) {
  const auto length = static_cast<std::size_t>(k);
  for_each_acgt_run(read, length, [&](std::size_t /*begin*/, std::string_view run) {
    bridges_of_run(threads, dead, length, run, votes);
  });
}

}  // namespace

void find_bridges(const ReadThreads& threads, const DeadEnds& dead, int k, std::string_view read, BridgeVotes& votes) {
  find_bridges_through(threads, dead, k, read, votes);
}

void find_bridges(const MemoPlacer& placer, const DeadEnds& dead, int k, std::string_view read, BridgeVotes& votes) {
  find_bridges_through(placer, dead, k, read, votes);
}

}  // namespace xenon::genomics
