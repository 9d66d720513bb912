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

// One run of ACGT of a read, followed through the graph: at each dead end it leaves, on to the
// next k-mer the graph holds.
void bridges_of_run(const ReadThreads& threads, const DeadEnds& dead, std::size_t k, std::string_view bases,
                    BridgeVotes& votes) {
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
    // The read holds the unitig's last k-mer itself (not one with an error in it), then k-mers
    // the graph lacks, then another unitig's first k-mer.
    const std::optional<ReadThreads::Place> left = threads.place(bases, left_at);
    const bool leaves_at_end =
        left && left->unitig == at->unitig && left->offset == threads.unitig_kmers(at->unitig / 2) - 1;
    std::size_t entered = 0;
    const std::optional<ReadThreads::Place> into = threads.next_place(bases, next, 1, entered);
    if (leaves_at_end && into && into->offset == 0 && entered > next && dead.head(into->unitig) &&
        into->unitig / 2 != at->unitig / 2) {
      votes.add(at->unitig, into->unitig, bases.substr(next, entered - next + k - 1));
    }
    start = entered;
    at = into;
  }
}

}  // namespace

void find_bridges(const ReadThreads& threads, const DeadEnds& dead, int k, std::string_view read, BridgeVotes& votes) {
  const auto length = static_cast<std::size_t>(k);
  for_each_acgt_run(read, length, [&](std::size_t /*begin*/, std::string_view run) {
    bridges_of_run(threads, dead, length, run, votes);
  });
}

}  // namespace xenon::genomics
