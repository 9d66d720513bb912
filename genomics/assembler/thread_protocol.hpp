// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/read_threads.hpp"
#include "genomics/io/input_plan.hpp"

// The messages of read threading, which every node does for its share of the input (the
// pieces plan_input gives it, one list per store) against the ends of the current graph's
// unitigs:
//   coordinator -> store  ACTION_THREAD_READS    ThreadingRequest, to the first store of its shares,
//   store -> store                               which passes it on down the binary tree of the
//                                                shares (merge_tree.hpp), before it threads
//   store -> coordinator  ACTION_THREADED_READS  CrossedRuns (any number, each ~1 MiB, in varints):
//                                                the runs, or in a repeat round only the passages
//                                                (three unitigs in a row, canonical), as runs of 3
//   store -> coordinator  ACTION_THREADING_DONE  ThreadingDone (how many CrossedRuns it sent)
//   store -> itself       ACTION_THREAD_NEXT     the next block (one block a turn)
//   store <-> store       ACTION_END_ASKS, ACTION_END_ANSWERS  with two shares or more, each
//                                                store holds one slice of the index of the
//                                                unitigs' ends and asks the others where the
//                                                k-mers they own lie (end_lookups.hpp)
//   coordinator -> store  ACTION_THREAD_RELEASE  every store has reported: its slice may go
// Asked for bridges (read_bridges.hpp), a store only finds those its reads spell, and sends
// them with its report.
// A store keeps the reads that crossed two unitigs when asked, and threads them again (only
// them: no other read can matter) through the next round's graph.
// The coordinator counts what the reads crossed: in a repeat round, which reads only the
// passages, the stores count them, so node 0 merges one record per distinct passage and store.
// When asked for paths, each store keeps every read's unitigs where it read them, and the
// stores pair the mates among themselves
// (mate_pairing.hpp) once every store's piece record counts are in: the same evidence, and so
// the same contigs, however the input was shared.
namespace xenon::genomics {

inline constexpr Action ACTION_THREAD_READS{"genomics.threads.thread-reads"};
inline constexpr Action ACTION_THREADED_READS{"genomics.threads.threaded-reads"};
inline constexpr Action ACTION_THREADING_DONE{"genomics.threads.done"};
inline constexpr Action ACTION_THREAD_NEXT{"genomics.threads.next-block"};

// One request for every store, the same bytes (one shared payload: the unitigs' ends are
// megabytes): each store takes its own pieces from it by its name. It goes down the binary
// tree of the shares' stores (merge_tree.hpp), so node 0 sends ceil(log2 n) copies of the
// unitigs' ends, not one to every other node (4.0 MB to every node at 8 processes of 40x E.
// coli, over the run).
struct ThreadingRequest {
  // The pieces of the input one store threads, in input order.
  struct Share {
    ActorName store;
    std::vector<InputPiece> pieces;
  };

  std::uint32_t k = 0;
  // Which of the coordinator's threadings this is, counted from 1: what the stores' lookups in
  // each other's slices of the end index name (end_lookups.hpp).
  std::uint64_t threading = 0;
  ActorName coordinator;             // where each store reports (not who passed it on)
  bool keep_crossing_reads = false;  // the store keeps the reads that crossed two unitigs
  bool rethread_kept = false;        // thread the reads it kept last time, not its pieces
  bool paths = false;                // keep every read's unitigs (for pairing mates)
  bool passages = false;             // send each read's passages (ReadThreads::Passage), not its runs
  bool bridges = false;              // find the bridges reads spell between dead ends, nothing else
  std::vector<std::uint8_t> dead_ends;  // DeadEnds::of_unitig, when finding bridges
  std::size_t end_span = ReadThreads::kEndSpan;  // the k-mers of `ends` at each end of a long unitig
  std::vector<UnitigEnds> ends;
  std::vector<std::string> files;  // every input, as given
  std::vector<Share> shares;       // every store's (encoded)
  std::vector<InputPiece> pieces;  // the receiving store's (decoded; not encoded)
  std::vector<ActorName> pass_on_to;  // the receiving store's children in the tree (decoded)
  // Every share's store in order, each owning a slice of the end index when there are two or
  // more, and the receiving store's place among them (decoded).
  std::vector<ActorName> owners;
  std::size_t owner = 0;

  Payload encode() const;
  // The request as `store` takes it: its own pieces in `pieces` (an error when it has none).
  static ThreadingRequest decode(std::span<const std::byte> bytes, ActorName store);
};

// A run of ACGT of a read that crossed two unitigs or more, and how many of the store's reads
// crossed just so: each distinct run is sent once, so what node 0 receives and keeps is sized
// by the graph's ways through its junctions, not by the reads.
struct CrossedRun {
  std::vector<std::size_t> unitigs;  // as UnitigGraph numbers them (index * 2 + reversed)
  std::uint64_t reads = 0;
};

struct CrossedRuns {
  static void append(std::vector<std::byte>& message, const CrossedRun& run) { append(message, run.unitigs, run.reads); }
  // The same record from a run held elsewhere (a store's map of runs or passages): no copy.
  static void append(std::vector<std::byte>& message, std::span<const std::size_t> unitigs, std::uint64_t reads);
  static std::vector<CrossedRun> decode(std::span<const std::byte> bytes);
};

// The records of one piece, as the store that threaded it counted them.
struct ThreadedPiece {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;
  std::uint64_t records = 0;
};

struct ThreadingDone {
  std::uint64_t messages = 0;  // CrossedRuns sent before this
  std::uint64_t reads = 0;     // threaded
  std::vector<ThreadedPiece> pieces;
  std::string failure;  // empty unless a piece could not be read
  std::vector<std::byte> bridges;  // BridgeVotes::encode(), when asked for bridges

  Payload encode() const;
  static ThreadingDone decode(std::span<const std::byte> bytes);
};

}  // namespace xenon::genomics
