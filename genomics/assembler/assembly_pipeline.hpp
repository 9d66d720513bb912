// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/assembly_progress.hpp"
#include "genomics/assembler/graph_gfa.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/scaffolding.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/run/graph_copies.hpp"

namespace xenon::genomics {

// A piece of the graph as the stores gave it (the unitigs they joined from their walks'
// pieces, and pieces left for compaction) or a cycle, before compaction.
struct GraphPiece {
  std::string bases;
  std::uint64_t coverage = 0;
  bool closed = false;
};

// What an assembly writes: the contigs, the graph they were read from, the scaffolds.
struct AssembledOutputs {
  std::vector<Contig> contigs;  // spelled from graph's unitigs
  GraphFile graph;
  std::vector<Scaffold> scaffolds;
};

// What the pipeline needs before it can go on.
enum class NextStep {
  thread_for_bridges,  // every read through graph(), for the bridges it spells between dead ends
  carry,               // nothing: a round before the last hands graph() to the next
  thread_for_repeats,  // the reads through graph() (after the first round, only those the round before kept)
  thread_with_mates,   // every read through the final graph(), mates paired (again once gaps the pairs confirm are joined)
  write,               // nothing: outputs() are ready to be made
};

// The steps of one assembly after the stores' walks, in order, on node 0:
//  1. what the stores could not join of the walks' pieces compacted, and the graph cleaned (tips, bubbles); then
//     dead ends joined where reads bridge them (read_bridges.hpp); a round
//     before the last ends here;
//  2. repeat rounds: the reads threaded through the graph settle repeats shorter than a read,
//     up to `repeat_rounds` rounds, while a round changes the graph;
//  3. every read threaded again through the final graph, mates paired; the gaps whose reads
//     meet too briefly to join alone joined where the pairs link their ends (paired_gaps.hpp),
//     and, if any was, the reads threaded once more;
//  4. contigs guided by those reads, the graph in GFA, scaffolds by the pairs.
// Reading the reads is not the pipeline's: next() says which threading it needs, and whoever
// threads (the stores, or this node alone) hands back what the reads crossed.
class AssemblyPipeline {
 public:
  AssemblyPipeline(const AssemblerSettings& settings, AssemblyOutcome& outcome, const AssemblyProgress& progress)
      : settings_(settings), outcome_(outcome), progress_(progress), graph_(settings.counting.k) {}

  // Step 1: the graph the stores cleaned (their unitigs, and the cycles node 0 holds), with the
  // phase "cleaning" begun and the outcome's unitigs and cleaning counted by the caller. Joins
  // the pieces of cycles.
  void take_cleaned(std::vector<GraphPiece> pieces);

  // What comes next; begins that step's phase.
  NextStep next();
  // The repeat round the next threading is for, from 0; whether another may follow it.
  int repeat_round() const { return repeat_round_; }
  bool another_round_may_follow() const { return repeat_round_ + 1 < settings_.repeat_rounds; }

  // The bridges the reads spelled: those chosen join their dead ends.
  void bridges_threaded(const BridgeVotes& votes, std::uint64_t reads);
  // A repeat round's reads: the repeats they settle.
  void repeats_threaded(const ReadThreads& threads);
  // The reads and pairs through the final graph, which guide the contigs and scaffolds.
  void mates_threaded(ReadThreads threads);

  // Step 4, once next() says write. It ends the pipeline: the graph's unitigs go to the
  // outputs' graph, and graph() is left empty.
  AssembledOutputs outputs();

  const UnitigGraph& graph() const { return graph_; }

 private:
  std::vector<Scaffold> scaffolds_of(const std::vector<Contig>& contigs);
  // After the first threading with mates: the gaps whose reads overlap too little to join them
  // alone, joined where the pairs link their ends (paired_gaps.hpp); the reads are then
  // threaded again.
  void join_paired_gaps();
  // The bridges' bases added to the graph (each checked to begin and end with its two ends'
  // junctions), each k-mer read as often as the reads that spelled it; then compacted.
  void add_bridges(const std::vector<ReadBridge>& bridges);

  const AssemblerSettings& settings_;
  AssemblyOutcome& outcome_;
  const AssemblyProgress& progress_;
  UnitigGraph graph_;
  bool bridged_ = false;
  int repeat_round_ = 0;
  bool graph_changed_ = true;
  std::optional<ReadThreads> final_threads_;  // step 3's
  bool gaps_paired_ = false;
  // The graph counted among this node's copies of the whole graph (graph_copies.hpp), as it
  // was after the step that changed it last.
  void count_graph();
  std::optional<GraphCopies::Hold> graph_counted_;
};

// The outcome's figures for contigs and scaffolds about to be written.
void record_contigs(AssemblyOutcome& outcome, const std::vector<Contig>& contigs);
void record_scaffolds(AssemblyOutcome& outcome, const std::vector<Scaffold>& scaffolds);

}  // namespace xenon::genomics
