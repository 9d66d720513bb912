// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/assembly_pipeline.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "genomics/assembler/paired_gaps.hpp"

namespace xenon::genomics {

void AssemblyPipeline::take_cleaned(std::vector<GraphPiece> pieces) {
  for (GraphPiece& piece : pieces) graph_.add(std::move(piece.bases), piece.coverage, piece.closed);
  pieces.clear();
  graph_.compact();
  count_graph();
  progress_.phase_done("cleaning: %llu weak branches removed, %llu tips removed, %llu bubbles popped, %llu unitigs left",
                       outcome_.cleaning.weak_branches_removed, outcome_.cleaning.tips_removed,
                       outcome_.cleaning.bubbles_popped, graph_.unitigs().size());
}

NextStep AssemblyPipeline::next() {
  if (final_threads_) return NextStep::write;
  if (!bridged_ && settings_.read_bridges) {
    progress_.log().begin_phase("read bridges");
    return NextStep::thread_for_bridges;
  }
  if (settings_.carry_to_next_round) return NextStep::carry;
  if (repeat_round_ < settings_.repeat_rounds && graph_changed_) {
    progress_.log().begin_phase("repeats, round " + std::to_string(repeat_round_ + 1));
    return NextStep::thread_for_repeats;
  }
  if (repeat_round_ == 0) return NextStep::write;  // no repeat rounds: no reads guide the contigs
  progress_.log().begin_phase(gaps_paired_ ? "reads and pairs again" : "reads and pairs");
  return NextStep::thread_with_mates;
}

void AssemblyPipeline::bridges_threaded(const BridgeVotes& votes, std::uint64_t reads) {
  bridged_ = true;
  // The shorter overlaps wait for the last round's read pairs (paired_gaps.hpp).
  const BridgeVotes::Choice choice = votes.choose(DeadEnds::of(graph_));
  const std::vector<ReadBridge>& bridges = choice.bridges;
  const std::vector<ReadBridge>& short_overlaps = choice.short_overlaps;
  const std::uint64_t ambiguous = choice.ambiguous;
  for (const ReadBridge& overlap : short_overlaps) {
    outcome_.short_overlaps.push_back({settings_.counting.k, overlap.bases, overlap.reads});
  }
  add_bridges(bridges);
  outcome_.read_bridges = bridges.size();
  const auto overlapping = static_cast<std::uint64_t>(
      std::count_if(bridges.begin(), bridges.end(), [](const ReadBridge& bridge) { return bridge.overlapping; }));
  progress_.phase_done("read bridges: %llu reads threaded, %llu ways between dead ends spelled, %llu dead ends "
                       "joined in pairs (%llu pairs by reads that meet in a gap; %llu distinct reads stop in "
                       "one), %llu left for spelling more than one way, %llu unitigs left; %llu ways where reads meet "
                       "too briefly to join alone kept for the last round's read pairs to confirm",
                       reads, votes.size(), 2 * bridges.size(), overlapping, votes.overhangs(), ambiguous,
                       graph_.unitigs().size(), short_overlaps.size());
}

void AssemblyPipeline::add_bridges(const std::vector<ReadBridge>& bridges) {
  const auto k = static_cast<std::size_t>(settings_.counting.k);
  for (const ReadBridge& bridge : bridges) {
    if (bridge.from / 2 >= graph_.unitigs().size() || bridge.to / 2 >= graph_.unitigs().size() ||
        bridge.bases.size() < k || bridge.bases.compare(0, k - 1, graph_.last_junction(bridge.from)) != 0 ||
        bridge.bases.compare(bridge.bases.size() - (k - 1), k - 1, graph_.first_junction(bridge.to)) != 0) {
      throw std::logic_error("a read bridge does not join the ends it names");
    }
    // Each of its k-mers read as often as the reads that spelled it (the store counted them
    // fewer times than the solid floor).
    const std::uint64_t kmers = bridge.bases.size() - k + 1;
    graph_.add(bridge.bases, kmers * bridge.reads, false);
  }
  if (!bridges.empty()) graph_.compact();
  count_graph();
}

void AssemblyPipeline::repeats_threaded(const ReadThreads& threads) {
  const std::uint64_t settled = graph_.resolve_repeats(
      [&threads](std::size_t x, std::size_t y, std::size_t z) { return threads.passages(x, y, z); },
      settings_.minimum_passages);
  outcome_.repeats_resolved += settled;
  count_graph();
  graph_changed_ = settled != 0;
  progress_.phase_done("repeats: %llu reads threaded, %llu repeats settled, %llu unitigs left",
                       threads.reads_threaded(), settled, graph_.unitigs().size());
  ++repeat_round_;
}

void AssemblyPipeline::mates_threaded(ReadThreads threads) {
  if (threads.unpaired_files() != 0 && !gaps_paired_) {  // said once, not again after the gaps are joined
    progress_.log().line(progress_.report(
        "%llu pair(s) of files hold different numbers of records: their reads are not paired", threads.unpaired_files()));
  }
  progress_.phase_done("reads and pairs threaded through the final graph: %llu read paths and %llu pairs of ways kept",
                       threads.distinct_paths(), threads.distinct_pairs());
  final_threads_.emplace(std::move(threads));
  if (!gaps_paired_) join_paired_gaps();
}

void AssemblyPipeline::join_paired_gaps() {
  gaps_paired_ = true;
  std::uint64_t ambiguous = 0;
  const std::vector<ReadBridge> joins = paired_gaps(graph_, outcome_.short_overlaps, *final_threads_, ambiguous);
  const std::size_t candidates = outcome_.short_overlaps.size();
  outcome_.short_overlaps = {};
  progress_.log().line(progress_.report(
      "%llu gaps where reads meet too briefly to join alone joined, read pairs linking their ends (of %llu such ways "
      "over the rounds; %llu ends left for two)",
      joins.size(), candidates, ambiguous));
  if (joins.empty()) return;
  add_bridges(joins);
  outcome_.read_bridges += joins.size();
  // The graph changed under the reads: they are threaded through it again.
  final_threads_.reset();
}

namespace {

// A stretch of path's hash (FNV-1a over its unitigs).
struct PathHash {
  std::size_t operator()(const std::vector<std::size_t>& path) const noexcept {
    std::uint64_t hash = 14695981039346656037ull;
    for (const std::size_t unitig : path) hash = (hash ^ unitig) * 1099511628211ull;
    return static_cast<std::size_t>(hash);
  }
};

// Votes looked up once for each key.
using VoteMemo = std::unordered_map<std::vector<std::size_t>, std::map<std::size_t, std::uint32_t>, PathHash>;
template <class Count>
const std::map<std::size_t, std::uint32_t>& memoized(VoteMemo& memo, std::vector<std::size_t> key, Count&& count) {
  const auto [found, first] = memo.try_emplace(std::move(key));
  if (first) found->second = count();
  return found->second;
}

}  // namespace

AssembledOutputs AssemblyPipeline::outputs() {
  UnitigGraph::NextAfter reads;
  UnitigGraph::MatesAfter mates;
  // Each unitig's extension walks on through its neighbours' (contig_extension.cpp), so the
  // same stretches of path are put to the reads again and again, and the same ways to the
  // mates: each is looked up once (40x E. coli at k = 31: 12,500 distinct stretches of 60,000
  // and more), by hash (ordered by their vectors, the lookups took 20 ms of a 50-67 ms phase;
  // by hash, 9 ms).
  VoteMemo votes_after;
  VoteMemo mates_votes;
  if (final_threads_) {
    const ReadThreads& threads = *final_threads_;
    reads = [&threads, &votes_after](const std::vector<std::size_t>& context) {
      return memoized(votes_after, context, [&] { return threads.next_after(context); });
    };
    mates = [&threads, &mates_votes](std::size_t anchor, const std::vector<std::size_t>& ways) {
      std::vector<std::size_t> key{anchor};  // the anchor, then the ways
      key.insert(key.end(), ways.begin(), ways.end());
      return memoized(mates_votes, std::move(key), [&] { return threads.mates_after(anchor, ways); });
    };
  }
  progress_.log().begin_phase("contigs");
  AssembledOutputs outputs;
  outputs.contigs = graph_.contig_paths(settings_.minimum_contig, true, reads, mates);
  record_contigs(outcome_, outputs.contigs);
  progress_.log().end_phase(std::to_string(outcome_.contigs) + " contigs, " + std::to_string(outcome_.total_length) +
                            " bases, the largest " + std::to_string(outcome_.largest_contig) + ", N50 " +
                            std::to_string(outcome_.n50));
  outputs.scaffolds = scaffolds_of(outputs.contigs);
  // The last step that reads the graph: its unitigs are graph.gfa's segments, and what the
  // contigs and scaffolds are spelled from as they are written; not copied.
  outputs.graph = graph_file(std::move(graph_));
  return outputs;
}

// The contigs in scaffolds, by the read pairs threaded through the final graph (each contig
// alone when there are none).
std::vector<Scaffold> AssemblyPipeline::scaffolds_of(const std::vector<Contig>& contigs) {
  progress_.log().begin_phase("scaffolds");
  if (!final_threads_ || final_threads_->pair_count() == 0) {
    std::vector<Scaffold> scaffolds = unscaffolded(contigs);
    record_scaffolds(outcome_, scaffolds);
    progress_.log().end_phase("no read pairs: each contig a scaffold of its own");
    return scaffolds;
  }
  ScaffoldingReport report;
  std::vector<Scaffold> scaffolds = scaffold_contigs(graph_, contigs, *final_threads_, report);
  record_scaffolds(outcome_, scaffolds);
  outcome_.insert_size = report.insert_size;
  progress_.phase_done(
      "%llu scaffolds, N50 %llu: %llu joins (%llu through the graph, %llu by overlapping ends, %llu gaps sized by "
      "fragments of %llu bases; %llu by the graph alone, %llu of lone dead ends), links of %llu pairs or more "
      "(a join in a contig: %llu) reaching %llu bases, %llu ends conflicted",
      outcome_.scaffolds, outcome_.scaffold_n50, report.joins, report.joins_through_graph, report.joins_by_overlap,
      report.gaps_sized, report.insert_size, report.joins_by_graph_alone, report.joins_of_dead_ends,
      report.link_threshold, report.join_span_median, report.link_reach, report.conflicted_ends);
  return scaffolds;
}

void AssemblyPipeline::count_graph() {
  std::uint64_t bytes = graph_.unitigs().capacity() * sizeof(Unitig);
  for (const Unitig& unitig : graph_.unitigs()) bytes += unitig.bases.capacity();
  graph_counted_.reset();
  graph_counted_.emplace(bytes);
}

void record_contigs(AssemblyOutcome& outcome, const std::vector<Contig>& contigs) {
  outcome.contigs = contigs.size();
  outcome.total_length = 0;
  outcome.largest_contig = 0;
  for (const Contig& contig : contigs) {
    outcome.total_length += contig.length;
    outcome.largest_contig = std::max<std::uint64_t>(outcome.largest_contig, contig.length);
  }
  outcome.n50 = contig_n50(contigs);
}

void record_scaffolds(AssemblyOutcome& outcome, const std::vector<Scaffold>& scaffolds) {
  outcome.scaffolds = scaffolds.size();
  outcome.scaffold_total_length = 0;
  for (const Scaffold& scaffold : scaffolds) outcome.scaffold_total_length += scaffold.length;
  outcome.scaffold_n50 = scaffold_n50(scaffolds);
}

}  // namespace xenon::genomics
