// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_bridges.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

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
  return dead;
}

void BridgeVotes::add(UnitigGraph::Oriented from, UnitigGraph::Oriented to, std::string_view bases,
                      std::uint64_t reads) {
  // The same bridge read from the other strand: from `to` reversed into `from` reversed.
  std::string upper(bases.size(), 'N');  // as the graph spells bases (reads may be lower case)
  for (std::size_t i = 0; i < bases.size(); ++i) upper[i] = "ACGT"[kBaseCodes[static_cast<unsigned char>(bases[i])] & 3];
  std::tuple<UnitigGraph::Oriented, UnitigGraph::Oriented, std::string> forward{from, to, upper};
  std::tuple<UnitigGraph::Oriented, UnitigGraph::Oriented, std::string> backward{to ^ 1, from ^ 1,
                                                                                 reverse_complement(upper)};
  votes_[std::min(std::move(forward), std::move(backward))] += reads;
}

std::vector<std::byte> BridgeVotes::encode() const {
  std::vector<std::byte> bytes;
  for (const auto& [bridge, reads] : votes_) {
    const auto& [from, to, bases] = bridge;
    put_varint(bytes, from);
    put_varint(bytes, to);
    put_varint(bytes, reads);
    put_varint(bytes, bases.size());
    for (const char base : bases) put_varint(bytes, static_cast<unsigned char>(base));
  }
  return bytes;
}

void BridgeVotes::add_encoded(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "read bridges");
  while (!reader.at_end()) {
    const std::uint64_t from = reader.next();
    const std::uint64_t to = reader.next();
    const std::uint64_t reads = reader.next();
    const std::uint64_t length = reader.count("bases");
    std::string bases(length, '\0');
    for (char& base : bases) {
      const std::uint64_t code = reader.next();
      if (code > 0x7f || kBaseCodes[code] < 0) reader.fail("a bridge's bases hold other than ACGT");
      base = static_cast<char>(code);
    }
    if (bases.empty() || reads == 0) reader.fail("a bridge of no bases or no reads");
    add(static_cast<UnitigGraph::Oriented>(from), static_cast<UnitigGraph::Oriented>(to), bases, reads);
  }
}

std::vector<ReadBridge> BridgeVotes::chosen(std::uint64_t& ambiguous) const {
  // Every dead end a bridge leaves (read as leaving it: a bridge from x into y also leaves y^1
  // into x^1), and where to.
  std::map<UnitigGraph::Oriented, std::set<UnitigGraph::Oriented>> leads_to;
  for (const auto& [bridge, reads] : votes_) {
    const auto& [from, to, bases] = bridge;
    leads_to[from].insert(to);
    leads_to[to ^ 1].insert(from ^ 1);
  }
  ambiguous = 0;
  for (const auto& [end, targets] : leads_to) ambiguous += targets.size() > 1;
  std::vector<ReadBridge> bridges;
  for (auto vote = votes_.begin(); vote != votes_.end();) {
    const auto& [from, to, first_bases] = vote->first;
    // The votes of one pair of ends lie together (ordered by from, then to): the best of them.
    auto best = vote;
    auto after = vote;
    for (; after != votes_.end() && std::get<0>(after->first) == from && std::get<1>(after->first) == to; ++after) {
      if (after->second > best->second) best = after;
    }
    if (leads_to.at(from).size() == 1 && leads_to.at(to ^ 1).size() == 1) {
      bridges.push_back({from, to, std::get<2>(best->first), best->second});
    }
    vote = after;
  }
  return bridges;
}

namespace {

// The last k-1 bases of a unitig read as `oriented` reads it, from the bases the stores were
// given of its ends (the graph's own, not a read's).
std::string last_junction(const std::vector<UnitigEnds>& ends, UnitigGraph::Oriented oriented, std::size_t k) {
  const UnitigEnds& unitig = ends.at(oriented / 2);
  if ((oriented & 1) != 0) return reverse_complement(unitig.head.substr(0, k - 1));
  const std::string& last = unitig.tail.empty() ? unitig.head : unitig.tail;
  return last.substr(last.size() - (k - 1));
}

std::string first_junction(const std::vector<UnitigEnds>& ends, UnitigGraph::Oriented oriented, std::size_t k) {
  return reverse_complement(last_junction(ends, oriented ^ 1, k));
}

// Whether the read holds, where the unitig `at.unitig` would put it, one of the unitig's last
// k+1 k-mers (`last` is where the read would hold the very last one): an error in the read
// within a k-mer of the dead end hides the last k-mers, not where the read leaves.
bool holds_unitig_near_end(const ReadThreads& threads, std::string_view bases, const ReadThreads::Place& at,
                           std::size_t at_start, std::size_t last, std::size_t k) {
  const std::size_t last_offset = threads.unitig_kmers(at.unitig / 2) - 1;
  for (std::size_t back = 0; back <= k && back <= last - at_start && back <= last_offset; ++back) {
    if (last - back == at_start) return at.offset == last_offset - back;
    const std::optional<ReadThreads::Place> held = threads.place(bases, last - back);
    if (held && held->unitig == at.unitig && held->offset == last_offset - back) return true;
  }
  return false;
}

// The bases of a bridge from the read (`between`: the k-1 bases before its first missing
// k-mer to the k-1 after its last), with both junctions the graph's own where the read's
// differ: an error the read has there. Empty when the two junctions overlap and disagree.
std::string bridge_bases(std::string_view between, const std::string& from_end, const std::string& into_start) {
  const std::size_t junction = from_end.size();
  std::string bridge(between);
  bridge.replace(0, junction, from_end);
  const std::size_t entry = bridge.size() - junction;
  for (std::size_t i = 0; i < junction; ++i) {
    if (entry + i < junction && bridge[entry + i] != into_start[i]) return {};
    bridge[entry + i] = into_start[i];
  }
  return bridge;
}

// One run of ACGT of a read, followed through the graph: at each dead end it leaves, on to the
// next k-mer the graph holds.
void bridges_of_run(const ReadThreads& threads, const DeadEnds& dead, const std::vector<UnitigEnds>& ends,
                    std::size_t k, std::string_view bases, BridgeVotes& votes) {
  const std::size_t last_start = bases.size() - k;
  const std::size_t stride = threads.search_stride();
  std::size_t start = 0;
  std::optional<ReadThreads::Place> at = threads.next_place(bases, 0, stride, start);
  while (at) {
    const std::size_t left_at = start + (threads.unitig_kmers(at->unitig / 2) - 1 - at->offset);
    if (left_at >= last_start) return;  // the read ends in this unitig
    const std::size_t next = left_at + 1;
    if (!dead.tail(at->unitig)) {
      // The graph goes on: the read follows it, or it has an error here.
      std::optional<ReadThreads::Place> on = threads.place(bases, next);
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
    const std::optional<ReadThreads::Place> into = threads.next_place(bases, next, 1, entered);
    if (leaves_near_end && into && into->offset <= k && entered > next + into->offset && dead.head(into->unitig) &&
        into->unitig / 2 != at->unitig / 2) {
      const std::size_t into_start = entered - into->offset;  // where the read would hold its first k-mer
      const std::string bridge = bridge_bases(bases.substr(next, into_start - next + k - 1),
                                              last_junction(ends, at->unitig, k), first_junction(ends, into->unitig, k));
      if (!bridge.empty()) votes.add(at->unitig, into->unitig, bridge);
    }
    start = entered;
    at = into;
  }
}

}  // namespace

void find_bridges(const ReadThreads& threads, const DeadEnds& dead, const std::vector<UnitigEnds>& ends, int k,
                  std::string_view read, BridgeVotes& votes) {
  const auto length = static_cast<std::size_t>(k);
  for_each_acgt_run(read, length, [&](std::size_t /*begin*/, std::string_view run) {
    bridges_of_run(threads, dead, ends, length, run, votes);
  });
}

}  // namespace xenon::genomics
