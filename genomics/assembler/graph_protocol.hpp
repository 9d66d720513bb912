// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/kmer/kmer_bloom_filter.hpp"

// The messages of the assembler, after the k-mers are counted (see counter_protocol.hpp).
// Each step ends everywhere before the coordinator starts the next, up to the cleaning,
// whose steps and joinings the stores take by themselves (a store may be a step ahead of
// another):
//   coordinator -> store  ACTION_GRAPH_CARRIED_SHARE  before counting, in a round that carries
//                                                sequences from a smaller k: the store's share of
//                                                them (carried_share), its bytes, so that node 0
//                                                need not hold them all while the stores count
//   coordinator -> store  ACTION_GRAPH_SOLIDIFY  keep k-mers counted at least `threshold` times,
//                                                and those of the carried sequences
//   store -> store        ACTION_GRAPH_CARRIED_KMERS  the k-mers of its share the other store owns
//                                                (KmerBatch, block number 0)
//   store -> store        ACTION_GRAPH_CARRIED_JUDGED   answers each batch (flow control)
//   store -> every store  ACTION_GRAPH_CARRIED_SENT   u64 batches of carried k-mers it sent that store
//   store -> store        ACTION_GRAPH_FILTER_PART  the filter asked for (filter_items), to its
//                                                node's first store, which ORs the node's together
//   store -> keeper       ACTION_FILTER_PART     from a node's first store: each keeper its part of
//                                                the keeper's slice (filter_keeper.hpp)
//   store -> coordinator  ACTION_GRAPH_SOLID     u64 vertices kept
//   coordinator -> store  ACTION_GRAPH_EDGES     find each vertex's neighbours
//   store -> coordinator  ACTION_GRAPH_EDGES_DONE  u64 edges
//   coordinator -> store  ACTION_GRAPH_WALK      walk the unitigs that start at its vertices
//   store -> coordinator  ACTION_GRAPH_WALK_DONE  u64 pieces walked, u64 k-mers in them
//   then the pieces joined into unitigs by the stores (piece_joining.hpp):
//   store -> every store  ACTION_JOIN_ENDS       its pieces' ends whose junctions that store owns
//   store -> every store  ACTION_JOIN_LINKS      the links found at its junctions, of that store's pieces,
//                                                and its pieces' ends there that something leads on from
//   store -> store        ACTION_JOIN_TOKENS     tokens along chains of pieces
//   store -> coordinator  ACTION_JOIN_STARTED    u64 step, u64 tokens it started (once)
//   store -> coordinator  ACTION_JOIN_FINISHED   u64 step, u64 more tokens that reached their chain's
//                                                other end
//   coordinator -> store  ACTION_JOIN_GATHER     every token has finished: gather the chains
//   store -> store        ACTION_JOIN_PIECES     pieces of chains that store collects, with their ways on
//   store -> coordinator  ACTION_UNITIGS         the pieces of cycles of pieces (UnitigRecords), then
//                         ACTION_GRAPH_JOINED    u64 step, u64 unitigs sent, u64 k-mers in them,
//                                                u64 unitigs kept, u64 k-mers in them
//   (step: the number of the cleaning step the joining follows, 0 after the walks; each
//   report says it, as the stores' reports overtake each other: cleaning_step_check.hpp)
//   coordinator -> store  ACTION_UNVISITED_REQUEST  vertices no walk reached (cycles)
//   store -> coordinator  ACTION_UNVISITED       VertexRecords
//   then the kept unitigs cleaned by the stores (junction_cleaning.hpp, cleaning_rounds.hpp):
//   coordinator -> store  ACTION_CLEAN_START     u64 rounds, u64 threshold, u64 tip length, u64 bubble length;
//                                                then each store takes every step (numbered 1, 2, ...) by itself
//   store -> every store  ACTION_CLEAN_REPORTS   its unitigs' ends and pairs of junctions that store owns
//   store -> every store  ACTION_CLEAN_VERDICTS  the verdicts on that store's unitigs, and how many of each
//                                                kind the sender gave in all
//   store -> coordinator  ACTION_CLEAN_STEP_DONE u64 step, u64 unitigs each kind would remove (weak
//                                                branches, tips, bubbles), then u64 k-mers in them, each kind
//   then, where a kind removed anything anywhere, each store removes the first such kind and
//   joins the unitigs left (the joining above, again); then it takes the next step, or once
//   the rounds are over (cleaning_rounds.hpp, followed on every store alike) sends
//   store -> coordinator  ACTION_CLEANED_UNITIGS  its cleaned unitigs (UnitigRecords), then
//                         ACTION_GRAPH_CLEANED   u64 unitigs sent, u64 k-mers in them
//   all without a word from the coordinator, which follows the rounds from the reports
//   store <-> store       ACTION_LOOKUP, ACTION_LOOKUP_REPLY  (LookupBatcher)
// Every payload is little-endian.
namespace xenon::genomics {

inline constexpr Action ACTION_GRAPH_CARRIED_SHARE{"genomics.graph.carried-share"};
inline constexpr Action ACTION_GRAPH_SOLIDIFY{"genomics.graph.solidify"};
inline constexpr Action ACTION_GRAPH_SOLID{"genomics.graph.solid"};
inline constexpr Action ACTION_GRAPH_FILTER_PART{"genomics.graph.filter-part"};
inline constexpr Action ACTION_GRAPH_CARRIED_KMERS{"genomics.graph.carried-kmers"};
inline constexpr Action ACTION_GRAPH_CARRIED_JUDGED{"genomics.graph.carried-judged"};
inline constexpr Action ACTION_GRAPH_CARRIED_SENT{"genomics.graph.carried-sent"};
inline constexpr Action ACTION_GRAPH_EDGES{"genomics.graph.edges"};
inline constexpr Action ACTION_GRAPH_EDGES_DONE{"genomics.graph.edges-done"};
inline constexpr Action ACTION_GRAPH_WALK{"genomics.graph.walk"};
inline constexpr Action ACTION_GRAPH_WALK_DONE{"genomics.graph.walk-done"};
inline constexpr Action ACTION_JOIN_ENDS{"genomics.graph.join-ends"};
inline constexpr Action ACTION_JOIN_LINKS{"genomics.graph.join-links"};
inline constexpr Action ACTION_JOIN_TOKENS{"genomics.graph.join-tokens"};
inline constexpr Action ACTION_JOIN_STARTED{"genomics.graph.join-started"};
inline constexpr Action ACTION_JOIN_FINISHED{"genomics.graph.join-finished"};
inline constexpr Action ACTION_JOIN_GATHER{"genomics.graph.join-gather"};
inline constexpr Action ACTION_JOIN_PIECES{"genomics.graph.join-pieces"};
inline constexpr Action ACTION_UNITIGS{"genomics.graph.unitigs"};
inline constexpr Action ACTION_GRAPH_JOINED{"genomics.graph.joined"};
inline constexpr Action ACTION_CLEAN_START{"genomics.graph.clean-start"};
inline constexpr Action ACTION_CLEAN_REPORTS{"genomics.graph.clean-reports"};
inline constexpr Action ACTION_CLEAN_VERDICTS{"genomics.graph.clean-verdicts"};
inline constexpr Action ACTION_CLEAN_STEP_DONE{"genomics.graph.clean-step-done"};
inline constexpr Action ACTION_CLEANED_UNITIGS{"genomics.graph.cleaned-unitigs"};
inline constexpr Action ACTION_GRAPH_CLEANED{"genomics.graph.cleaned"};
inline constexpr Action ACTION_UNVISITED_REQUEST{"genomics.graph.unvisited-request"};
inline constexpr Action ACTION_UNVISITED{"genomics.graph.unvisited"};
inline constexpr Action ACTION_LOOKUP{"genomics.graph.lookup"};
inline constexpr Action ACTION_LOOKUP_REPLY{"genomics.graph.lookup-reply"};

template <int Words>
inline constexpr std::string_view kGraphStoreType = Words == 1   ? "genomics.graph-store.1"
                                                    : Words == 2 ? "genomics.graph-store.2"
                                                                 : "genomics.graph-store.4";

// What every store needs for the graph: k, the solidity threshold, all stores in order and
// how k-mers are routed to them.
struct GraphSetup {
  std::uint32_t k = 0;
  std::uint64_t threshold = 1;
  std::vector<ActorName> stores;
  std::uint32_t minimizer_length = 0;  // k-mers are in the store of their minimizer
  // Whether this round carries sequences from the round of a smaller k, one a line
  // (multi_k_assembly.hpp): each store keeps the k-mers of them it owns, whatever their count
  // (at least 1). Each store got its share before counting (ACTION_GRAPH_CARRIED_SHARE) and
  // sends each k-mer of it to the store that owns it; every store reports to every other
  // what it sent.
  bool carried_anywhere = false;
  // Not 0 (the first of several rounds, k <= 32): every store also builds a filter of its
  // k-mers counted twice or more, all sized alike for this many over all stores, whose union
  // leaves out of the later rounds the k-mers read once (kmer_filter_window.hpp), and sends
  // each of these keepers (one a node) its part of the keeper's slice (filter_keeper.hpp).
  std::uint64_t filter_items = 0;
  std::vector<ActorName> filter_keepers;

  Payload encode() const;
  static GraphSetup decode(std::span<const std::byte> bytes);
};

// Share `index` of `shares` of sequences one a line: the lines that begin in that share of the
// bytes. Every line is in one share; the shares are in order.
std::string_view carried_share(std::string_view sequences, std::size_t shares, std::size_t index);

// A unitig as a store found it: its bases and the sum of its k-mers' counts.
struct UnitigRecord {
  std::string bases;
  std::uint64_t coverage_sum = 0;
};

// Appends one record (u64 coverage sum, u32 length, bases) to a message being built.
void append_unitig(std::vector<std::byte>& message, std::string_view bases, std::uint64_t coverage_sum);
// Throws std::invalid_argument on a truncated record or a letter other than ACGT.
std::vector<UnitigRecord> decode_unitigs(std::span<const std::byte> bytes);

}  // namespace xenon::genomics
