// SPDX-License-Identifier: BSD-3-Clause
// The assembler's two checkpoints give back what was written in them, and refuse bytes that
// end early or go on after what they hold.
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "genomics/assembler/assembly_checkpoints.hpp"

namespace {

using namespace xenon::genomics;

AssemblyOutcome counted_outcome() {
  AssemblyOutcome outcome;
  outcome.coverage_threshold = 7;
  outcome.solid_kmers = 123456;
  outcome.edges = 123999;
  outcome.unitigs = 321;
  outcome.cycles = 2;
  outcome.cleaning = {23, 45, 67, 3};
  outcome.repeats_resolved = 8;
  outcome.insert_size = 396;
  return outcome;
}

AssembledOutputs some_outputs() {
  AssembledOutputs outputs;
  outputs.graph.k = 3;
  outputs.graph.segments = {{"ACGT", 9, 2, false}, {"TTTAC", 12, 3, true}};
  outputs.graph.links = {{0, 0}, {2, 3}};
  // "ACGT"; and "GTAAA" then "ACGT" less its first 2: "GTAAAGT", from its second base, 5 bases.
  outputs.contigs = {{{0}, 0, 4, 70, 10, false}, {{3, 0}, 1, 5, 24, 4, true}};
  const std::string gap(10, 'N');
  outputs.scaffolds = {{{{0, false, 0, {}}, {ScaffoldPiece::kOwnBases, false, 0, gap}, {1, true, 2, {}}}, 17, {0, 1}, 1},
                       {{{ScaffoldPiece::kOwnBases, false, 0, "ACGT"}}, 4, {}, 0}};
  return outputs;
}

// `read` (a checkpoint's reading) throws on `bytes` with one byte more, and with one less.
template <class Read>
void expect_only_whole_bytes_read(const std::vector<std::byte>& bytes, Read&& read) {
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  std::vector<std::byte> shorter = bytes;
  shorter.pop_back();
  for (const std::vector<std::byte>* changed : {&longer, &shorter}) {
    CheckpointReader reader(*changed);  // a view: the bytes outlive it
    AssemblyOutcome outcome;
    EXPECT_THROW(read(reader, outcome), std::runtime_error) << changed->size() << " bytes of " << bytes.size();
  }
}

TEST(AssemblyCheckpoints, ContigsComeBackWithTheCountsUpToThem) {
  const AssemblyOutcome written = counted_outcome();
  const AssembledOutputs outputs = some_outputs();
  CheckpointWriter writer;
  write_contigs_checkpoint(writer, written, outputs);

  CheckpointReader reader(writer.data());
  AssemblyOutcome read;
  const AssembledOutputs back = read_contigs_checkpoint(reader, read);
  ASSERT_EQ(back.contigs.size(), 2u);
  EXPECT_EQ(back.contigs, outputs.contigs);
  EXPECT_EQ(spelled_contig(back.graph.segments, back.graph.k, back.contigs[1]), "TAAAG");
  EXPECT_EQ(graph_gfa_text(back.graph, back.contigs), graph_gfa_text(outputs.graph, outputs.contigs));
  EXPECT_EQ(back.graph.segments.size(), 2u);
  EXPECT_EQ(back.graph.bases(), 9u);
  EXPECT_EQ(back.graph.segments[1].kmers, 3u);
  EXPECT_TRUE(back.graph.segments[1].circular);
  ASSERT_EQ(back.scaffolds.size(), 2u);
  EXPECT_EQ(spelled_scaffold(back.scaffolds[0], back.contigs, back.graph.segments, back.graph.k),
            "ACGT" + std::string(10, 'N') + "TTA");
  for (std::size_t scaffold = 0; scaffold < 2; ++scaffold) {
    EXPECT_EQ(back.scaffolds[scaffold].pieces, outputs.scaffolds[scaffold].pieces);
    EXPECT_EQ(back.scaffolds[scaffold].length, outputs.scaffolds[scaffold].length);
    EXPECT_EQ(spelled_scaffold(back.scaffolds[scaffold], back.contigs, back.graph.segments, back.graph.k),
              spelled_scaffold(outputs.scaffolds[scaffold], outputs.contigs, outputs.graph.segments, 3));
    EXPECT_EQ(back.scaffolds[scaffold].contigs, outputs.scaffolds[scaffold].contigs);
    EXPECT_EQ(back.scaffolds[scaffold].gaps, outputs.scaffolds[scaffold].gaps);
  }
  EXPECT_EQ(read.coverage_threshold, 7u);
  EXPECT_EQ(read.solid_kmers, 123456u);
  EXPECT_EQ(read.edges, 123999u);
  EXPECT_EQ(read.unitigs, 321u);
  EXPECT_EQ(read.cycles, 2u);
  EXPECT_EQ(read.cleaning.weak_branches_removed, 23u);
  EXPECT_EQ(read.cleaning.tips_removed, 45u);
  EXPECT_EQ(read.cleaning.bubbles_popped, 67u);
  EXPECT_EQ(read.cleaning.rounds, 3);
  EXPECT_EQ(read.repeats_resolved, 8u);
  EXPECT_EQ(read.insert_size, 396u);

  expect_only_whole_bytes_read(writer.data(), [](CheckpointReader& reader, AssemblyOutcome& outcome) {
    read_contigs_checkpoint(reader, outcome);
  });

  // Handed on in pieces (as saved, never held whole), the same bytes in the same order.
  std::vector<std::byte> pieces;
  std::size_t piece_count = 0;
  CheckpointWriter handing_on([&](std::span<const std::byte> piece) {
    pieces.insert(pieces.end(), piece.begin(), piece.end());
    ++piece_count;
  });
  write_contigs_checkpoint(handing_on, written, outputs);
  EXPECT_EQ(pieces, writer.data());
  EXPECT_EQ(handing_on.size(), writer.data().size());
  EXPECT_EQ(writer.size(), writer.data().size());
  EXPECT_TRUE(handing_on.data().empty()) << "nothing kept";
  EXPECT_GT(piece_count, 10u);
}

// Recipes that point past what the checkpoint holds are refused as it is read, not spelled.
TEST(AssemblyCheckpoints, ContigsThatPointPastWhatIsSavedAreRefused) {
  const AssemblyOutcome written = counted_outcome();
  const auto refused = [&written](const AssembledOutputs& outputs, const std::string& why) {
    CheckpointWriter writer;
    write_contigs_checkpoint(writer, written, outputs);
    CheckpointReader reader(writer.data());
    AssemblyOutcome read;
    try {
      read_contigs_checkpoint(reader, read);
    } catch (const std::runtime_error& error) {
      return std::string(error.what()).find(why) != std::string::npos;
    }
    return false;
  };
  AssembledOutputs outputs = some_outputs();
  outputs.contigs[1].path.back() = 4;  // of 2 unitigs: 0 to 3
  EXPECT_TRUE(refused(outputs, "a contig through a unitig it does not hold"));
  outputs = some_outputs();
  outputs.contigs[1].length = 7;  // from its second of 7 bases
  EXPECT_TRUE(refused(outputs, "a contig longer than its path"));
  outputs = some_outputs();
  outputs.scaffolds[0].pieces[2].contig = 2;
  EXPECT_TRUE(refused(outputs, "a scaffold of a contig it does not hold"));
  outputs = some_outputs();
  outputs.scaffolds[0].length = 18;
  EXPECT_TRUE(refused(outputs, "a scaffold whose pieces are not its length"));
  outputs = some_outputs();
  outputs.graph.links[1].second = 4;
  EXPECT_TRUE(refused(outputs, "a link to a unitig it does not hold"));
  outputs = some_outputs();
  outputs.graph.segments[0].bases = "AC";
  EXPECT_TRUE(refused(outputs, "a unitig shorter than k"));
  EXPECT_FALSE(refused(some_outputs(), "checkpoints/contigs")) << "as written";
}

TEST(AssemblyCheckpoints, GraphPiecesComeBackWithTheCountsUpToThem) {
  const AssemblyOutcome written = counted_outcome();
  const std::vector<GraphPiece> pieces{{"ACGTTGCA", 40, false}, {"TTTTGGGGCC", 12, true}};
  CheckpointWriter writer;
  write_graph_checkpoint(writer, written, pieces);

  CheckpointReader reader(writer.data());
  AssemblyOutcome read;
  const std::vector<GraphPiece> back = read_graph_checkpoint(reader, read);
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t piece = 0; piece < 2; ++piece) {
    EXPECT_EQ(back[piece].bases, pieces[piece].bases);
    EXPECT_EQ(back[piece].coverage, pieces[piece].coverage);
    EXPECT_EQ(back[piece].closed, pieces[piece].closed);
  }
  EXPECT_EQ(read.coverage_threshold, 7u);
  EXPECT_EQ(read.solid_kmers, 123456u);
  EXPECT_EQ(read.edges, 123999u);
  EXPECT_EQ(read.cycles, 2u);
  // The graph is saved cleaned (by the stores): the counts of unitigs and of what cleaning
  // removed come back with it.
  EXPECT_EQ(read.unitigs, 321u);
  EXPECT_EQ(read.cleaning.weak_branches_removed, 23u);
  EXPECT_EQ(read.cleaning.tips_removed, 45u);
  EXPECT_EQ(read.cleaning.bubbles_popped, 67u);
  EXPECT_EQ(read.cleaning.rounds, 3);
  EXPECT_EQ(read.repeats_resolved, 0u) << "the repeats come after the graph checkpoint";

  expect_only_whole_bytes_read(writer.data(), [](CheckpointReader& reader, AssemblyOutcome& outcome) {
    read_graph_checkpoint(reader, outcome);
  });
}

// A change of any option the contigs depend on makes another checkpoint; the graph's do not
// depend on the options after it, but on the cleaning's (it is saved cleaned).
TEST(AssemblyCheckpoints, OptionsNameWhatEachCheckpointDependsOn) {
  const AssemblerSettings defaults;
  AssemblerSettings other_contig = defaults;
  other_contig.minimum_contig = 500;
  EXPECT_EQ(graph_checkpoint_options(other_contig), graph_checkpoint_options(defaults));
  EXPECT_NE(contigs_checkpoint_options(other_contig), contigs_checkpoint_options(defaults));
  AssemblerSettings other_threshold = defaults;
  other_threshold.coverage_threshold = 5;
  EXPECT_NE(graph_checkpoint_options(other_threshold), graph_checkpoint_options(defaults));
  EXPECT_NE(contigs_checkpoint_options(other_threshold), contigs_checkpoint_options(defaults));
  AssemblerSettings carried = defaults;
  carried.carried_sequences = "ACGTACGT\n";
  EXPECT_NE(graph_checkpoint_options(carried), graph_checkpoint_options(defaults));
  for (const auto& change : std::vector<void (*)(AssemblerSettings&)>{
           [](AssemblerSettings& settings) { settings.cleaning.tip_length = 40; },
           [](AssemblerSettings& settings) { settings.cleaning.bubble_length = 90; },
           [](AssemblerSettings& settings) { settings.cleaning.rounds = 2; }}) {
    AssemblerSettings other_cleaning = defaults;
    change(other_cleaning);
    EXPECT_NE(graph_checkpoint_options(other_cleaning), graph_checkpoint_options(defaults));
    EXPECT_NE(contigs_checkpoint_options(other_cleaning), contigs_checkpoint_options(defaults));
  }
}

}  // namespace
