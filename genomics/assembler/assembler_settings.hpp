// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/graph_image.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/counter/counter_settings.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "genomics/kmer/kmer_histogram.hpp"

namespace xenon::genomics {

// What the assembler was asked to do.
struct AssemblerSettings {
  CounterSettings counting;          // k, inputs, output directory, blocks, progress
  std::uint64_t coverage_threshold = 0;  // keep k-mers counted at least this often; 0: from the histogram
  std::size_t minimum_contig = 200;  // shorter contigs are not written
  CleaningSettings cleaning;
  int repeat_rounds = 3;               // rounds of settling repeats with reads (0: none)
  std::uint32_t minimum_passages = 2;  // reads that must pair a way into a repeat with a way out
  GraphImage graph_image = GraphImage::automatic;  // whether to draw graph.png
  std::vector<std::string> command_line;  // as given, for the run record
  // Several k in turn (multi_k_assembly.hpp): every round's k, smallest first (counting.k is
  // this round's), and how they were chosen; for one round's coordinator, the sequences the
  // round before carried (their k-mers are solid whatever their count), and whether it hands
  // its own to a next round instead of writing the output files.
  std::vector<int> k_rounds;
  std::string k_rounds_from;  // "-k", "--k-list" or "median read length N"
  std::string carried_sequences;  // one a line
  bool carry_to_next_round = false;
  // Dead ends joined where reads bridge them (read_bridges.hpp), in every round: a larger k
  // reads each base in fewer k-mers, so coverage thins to one read in places it did not.
  bool read_bridges = true;
  bool first_round = true;
  // Rounds after the first leave out the k-mers read once (kmer_filter_window.hpp): a k-mer
  // with a k_rounds[0]-mer read once was read once itself. The first round builds the filter
  // of its k-mers read twice or more; the later ones read it, with the k-mers of the carried
  // sequences (solid whatever their count) added. The counts and outputs stay exact; only the
  // stores' tables shrink. Off with --no-count-filter, and when k-mers read once can be solid
  // (--min-coverage 1) or the first k is over 32.
  bool count_filter = true;
  // For a later round: the words of the first round's filter, which the keepers hold in
  // slices (0: none).
  std::uint64_t first_round_filter_words = 0;
  // One a node: where the first round's filter goes, a slice to each, and who puts a later
  // round's filter together on each node for its parsers (filter_keeper.hpp).
  std::vector<ActorName> filter_keepers;
};

// One round of several k: its k, its threshold, the count it kept k-mers at (solid_floor), and
// the solid k-mers (with those carried from the round before).
struct KRound {
  int k = 0;
  std::uint64_t coverage_threshold = 0;
  std::string coverage_threshold_source;  // CoverageThreshold::from
  std::uint64_t solid_floor = 0;
  std::uint64_t solid_kmers = 0;
  std::uint64_t read_bridges = 0;  // dead ends joined by reads (the last round's with those read pairs confirm)
};

// A way between two dead ends spelled by reads that overlap by too few bases to join them
// alone, found in a round of k `k` (its bases begin with one end's last k-1 and end with the
// other's first k-1), kept for the last round's read pairs to confirm (paired_gaps.hpp).
struct ShortOverlap {
  int k = 0;
  std::string bases;
  std::uint64_t reads = 0;
};

// What it did (filled in on node 0, read after the engine has stopped).
struct AssemblyOutcome {
  std::uint64_t coverage_threshold = 0;
  std::string coverage_threshold_source;  // CoverageThreshold::from
  std::uint64_t solid_kmers = 0;
  std::uint64_t edges = 0;
  std::uint64_t unitigs = 0;
  std::uint64_t cycles = 0;
  CleaningReport cleaning;
  std::uint64_t read_bridges = 0;  // in this round
  std::uint64_t repeats_resolved = 0;
  std::uint64_t contigs = 0;
  std::uint64_t total_length = 0;
  std::uint64_t largest_contig = 0;
  std::uint64_t n50 = 0;
  std::vector<KRound> rounds;  // every round done, this one's last once it is
  std::vector<ShortOverlap> short_overlaps;  // of every round so far, until the last joins them
  std::string carried_sequences;  // for the next round, if there is one (carried_sequences.hpp)
  // The first of several rounds' filter of its k-mers read twice or more, which the filter
  // keepers hold in slices: its words, 0 for none.
  std::uint64_t first_round_filter_words = 0;
  // The scaffolds (scaffolding.hpp): how many, their bases (N counted), their N50, and the
  // read pairs' fragment length that sized their gaps (0: unknown).
  std::uint64_t scaffolds = 0;
  std::uint64_t scaffold_total_length = 0;
  std::uint64_t scaffold_n50 = 0;
  std::uint64_t insert_size = 0;
};

inline constexpr const char* kContigsFile = "contigs.fasta";
inline constexpr const char* kScaffoldsFile = "scaffolds.fasta";
inline constexpr const char* kAssemblySummaryFile = "assembly.json";
inline constexpr const char* kGraphFile = "graph.gfa";        // the graph the contigs were read from
inline constexpr const char* kGraphImageFile = "graph.png";  // drawn by Bandage from graph.gfa
// In DIR/checkpoints: the graph as the stores left it (the unitigs they joined from their
// walks' pieces, and the cycles), with the counts, histogram and tally: what --continue starts from.
inline constexpr const char* kGraphCheckpoint = "graph";
// The contigs (about the genome's size) and graph.gfa, with the outcome up to them: all the
// outputs need.
inline constexpr const char* kContigsCheckpoint = "contigs";

// The solidity threshold from a k-mer histogram: the count at its first minimum (between the
// error k-mers seen once or twice and the genome's peak: the first count with no fewer k-mers
// at the next count, where some are), at least 2; 2 when there is none.
std::uint64_t coverage_threshold_from(const KmerHistogram& histogram);

// The threshold a round applies, and what set it, as the run record says it: "--min-coverage"
// (forced), "histogram" (coverage_threshold_from), or "the round before" (a round after the
// first caps the histogram's at the round before's: a larger k reads each base in fewer k-mers,
// so its depth is lower, and at low depth its histogram may have no minimum but noise). After
// --continue, "checkpoint" where the checkpoint holds a count these rules do not give.
inline constexpr const char* kThresholdFromOption = "--min-coverage";
inline constexpr const char* kThresholdFromHistogram = "histogram";
inline constexpr const char* kThresholdFromRoundBefore = "the round before";
inline constexpr const char* kThresholdFromCheckpoint = "checkpoint";
struct CoverageThreshold {
  std::uint64_t count = 0;
  std::string from;
};
CoverageThreshold choose_coverage_threshold(const AssemblerSettings& settings, const KmerHistogram& histogram,
                                            const std::vector<KRound>& rounds_before);

// The count a k-mer needs to enter the graph. With --min-coverage, that count: one threshold
// everywhere, as asked. Else 2, under the histogram's threshold where that is higher, so that a
// genome read thinly beside deep ones (a metagenome, a strain mixture) keeps its k-mers: cleaning
// removes those under the threshold only where a well-read branch runs beside them
// (UnitigGraph::clean). A k-mer read once is not told from an error anywhere.
std::uint64_t solid_floor(const AssemblerSettings& settings, std::uint64_t threshold);
inline constexpr std::uint64_t kSolidFloor = 2;  // solid_floor's count without --min-coverage

// Whether this round builds the filter of its k-mers read twice or more (the first of several,
// when k-mers read once are never solid and its k is at most 32), or reads the first round's.
bool builds_count_filter(const AssemblerSettings& settings);
bool reads_count_filter(const AssemblerSettings& settings);

// The name of the contig at `index` (from 0) in contigs.fasta and graph.gfa: "contig_N", N from 1.
std::string contig_name(std::size_t index);

// N50: the length such that contigs at least this long hold half the total length.
std::size_t n50(const std::vector<Unitig>& contigs);
// The same of any sequences' lengths (the scaffolds').
std::size_t n50_of_lengths(std::vector<std::size_t> lengths);

// What a round did, once it is done.
KRound round_record(const AssemblerSettings& settings, const AssemblyOutcome& outcome);

// The rounds as a JSON array of {"k", "coverage_threshold", "coverage_threshold_from", "solid_floor", "solid_kmers",
// "read_bridges"}.
std::string k_rounds_json(const std::vector<KRound>& rounds);

// The assembly summary file; nothing in it depends on threads, processes or time.
std::string assembly_json(const AssemblerSettings& settings, const AssemblyOutcome& outcome);

}  // namespace xenon::genomics
