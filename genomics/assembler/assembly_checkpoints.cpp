// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/assembly_checkpoints.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "genomics/assembler/carried_sequences.hpp"

namespace xenon::genomics {
namespace {

// The outcome's counts up to the contigs, in the contigs checkpoint's order (const or not,
// as the outcome is).
template <class Outcome>
auto counts_up_to_contigs(Outcome& outcome) {
  using Count = std::conditional_t<std::is_const_v<Outcome>, const std::uint64_t, std::uint64_t>;
  return std::vector<Count*>{&outcome.coverage_threshold, &outcome.solid_kmers, &outcome.edges, &outcome.unitigs, &outcome.cycles,
          &outcome.cleaning.weak_branches_removed, &outcome.cleaning.tips_removed, &outcome.cleaning.bubbles_popped, &outcome.read_bridges, &outcome.repeats_resolved};
}

}  // namespace

std::string graph_checkpoint_options(const AssemblerSettings& settings) {
  // solid-floor: a graph kept at the histogram's threshold, before k-mers under it were judged by
  // their neighbours, is not the graph of today's options. The graph is kept cleaned (by the
  // stores, which a resumed run does not have): "cleaned" tells it from an older checkpoint's.
  return " min-coverage=" + std::to_string(settings.coverage_threshold) + " solid-floor=" + std::to_string(kSolidFloor) +
         carried_fingerprint(settings.carried_sequences) + " tip-length=" + std::to_string(settings.cleaning.tip_length) +
         " bubble-length=" + std::to_string(settings.cleaning.bubble_length) +
         " cleaning-rounds=" + std::to_string(settings.cleaning.rounds) + " cleaned" +
         " codes-as-bases";  // reads' ambiguity codes read as bases (ambiguity_codes.hpp), not as breaks
}

std::string contigs_checkpoint_options(const AssemblerSettings& settings) {
  return graph_checkpoint_options(settings) + " repeat-rounds=" + std::to_string(settings.repeat_rounds) +
         " min-passages=" + std::to_string(settings.minimum_passages) +
         " min-contig=" + std::to_string(settings.minimum_contig) +
         " read-bridges=" + std::to_string(settings.read_bridges ? 1 : 0) +
         " with graph.gfa scaffolds.fasta insert_size"  // so that an older checkpoint, without them, is not read as one with them
         " paired-gaps"  // contigs read through the gaps read pairs confirm (paired_gaps.hpp), unlike an older one's
         " shared-entries";  // walks that stop at a unitig two places lead into, links past a fragment dropped
}

void write_graph_checkpoint(CheckpointWriter& writer, const AssemblyOutcome& outcome,
                            const std::vector<GraphPiece>& pieces) {
  writer.u64(outcome.coverage_threshold);
  writer.u64(outcome.solid_kmers);
  writer.u64(outcome.edges);
  writer.u64(outcome.cycles);
  writer.u64(outcome.unitigs);
  writer.u64(outcome.cleaning.weak_branches_removed);
  writer.u64(outcome.cleaning.tips_removed);
  writer.u64(outcome.cleaning.bubbles_popped);
  writer.u64(static_cast<std::uint64_t>(outcome.cleaning.rounds));
  writer.u64(pieces.size());
  for (const GraphPiece& piece : pieces) {
    writer.text(piece.bases);
    writer.u64(piece.coverage);
    writer.u64(piece.closed ? 1 : 0);
  }
}

std::vector<GraphPiece> read_graph_checkpoint(CheckpointReader& reader, AssemblyOutcome& outcome) {
  outcome.coverage_threshold = reader.u64();
  outcome.solid_kmers = reader.u64();
  outcome.edges = reader.u64();
  outcome.cycles = reader.u64();
  outcome.unitigs = reader.u64();
  outcome.cleaning.weak_branches_removed = reader.u64();
  outcome.cleaning.tips_removed = reader.u64();
  outcome.cleaning.bubbles_popped = reader.u64();
  outcome.cleaning.rounds = static_cast<int>(reader.u64());
  std::vector<GraphPiece> pieces(reader.u64());
  for (GraphPiece& piece : pieces) {
    piece.bases = reader.text();
    piece.coverage = reader.u64();
    piece.closed = reader.u64() != 0;
  }
  if (!reader.at_end()) throw std::runtime_error("checkpoints/graph: bytes after the graph");
  return pieces;
}

void write_contigs_checkpoint(CheckpointWriter& writer, const AssemblyOutcome& outcome, const AssembledOutputs& outputs) {
  for (const std::uint64_t* count : counts_up_to_contigs(outcome)) writer.u64(*count);
  writer.u64(static_cast<std::uint64_t>(outcome.cleaning.rounds));
  writer.u64(outputs.contigs.size());
  for (const Contig& contig : outputs.contigs) {
    writer.u64(contig.path.size());
    for (const Contig::Oriented oriented : contig.path) writer.u64(oriented);
    writer.u64(contig.from);
    writer.u64(contig.length);
    writer.u64(contig.coverage_sum);
    writer.u64(contig.kmers);
    writer.u64(contig.circular ? 1 : 0);
  }
  const GraphFile& graph = outputs.graph;
  writer.u64(static_cast<std::uint64_t>(graph.k));
  writer.u64(graph.segments.size());
  for (const Unitig& segment : graph.segments) {
    writer.text(segment.bases);
    writer.u64(segment.coverage_sum);
    writer.u64(segment.kmers);
    writer.u64(segment.circular ? 1 : 0);
  }
  writer.u64(graph.links.size());
  for (const auto& [from, to] : graph.links) {
    writer.u64(from);
    writer.u64(to);
  }
  writer.u64(outputs.scaffolds.size());
  for (const Scaffold& scaffold : outputs.scaffolds) {
    writer.u64(scaffold.pieces.size());
    for (const ScaffoldPiece& piece : scaffold.pieces) {
      writer.u64(piece.contig);
      writer.u64(piece.reversed ? 1 : 0);
      writer.u64(piece.from);
      writer.text(piece.bases);
    }
    writer.u64(scaffold.length);
    writer.u64(scaffold.contigs.size());
    for (const std::size_t contig : scaffold.contigs) writer.u64(contig);
    writer.u64(scaffold.gaps);
  }
  writer.u64(outcome.insert_size);
}

namespace {

// The recipes read hold together: every index within what was read, every length within what
// it is spelled from. A checkpoint whose CRC matched but that does not (a bug, or bytes of
// another layout) must not be spelled from.
void check_recipes(const AssembledOutputs& outputs) {
  const auto fail = [](const char* what) { throw std::runtime_error(std::string("checkpoints/contigs: ") + what); };
  const GraphFile& graph = outputs.graph;
  if (graph.k < 1) fail("k below 1");
  for (const Unitig& segment : graph.segments) {
    if (segment.bases.size() < static_cast<std::size_t>(graph.k)) fail("a unitig shorter than k");
  }
  const std::size_t oriented = 2 * graph.segments.size();
  for (const auto& [from, to] : graph.links) {
    if (from >= oriented || to >= oriented) fail("a link to a unitig it does not hold");
  }
  for (const Contig& contig : outputs.contigs) {
    if (contig.path.empty()) fail("a contig without unitigs");
    for (const Contig::Oriented unitig : contig.path) {
      if (unitig >= oriented) fail("a contig through a unitig it does not hold");
    }
    if (contig.from > spelled_path_length(graph.segments, graph.k, contig.path) ||
        contig.length > spelled_path_length(graph.segments, graph.k, contig.path) - contig.from) {
      fail("a contig longer than its path");
    }
  }
  for (const Scaffold& scaffold : outputs.scaffolds) {
    std::size_t length = 0;
    for (const ScaffoldPiece& piece : scaffold.pieces) {
      if (piece.contig == ScaffoldPiece::kOwnBases) {
        length += piece.bases.size();
        continue;
      }
      if (piece.contig >= outputs.contigs.size()) fail("a scaffold of a contig it does not hold");
      if (piece.from > outputs.contigs[piece.contig].length) fail("a scaffold's piece past its contig's end");
      length += outputs.contigs[piece.contig].length - piece.from;
    }
    if (length != scaffold.length) fail("a scaffold whose pieces are not its length");
    for (const std::size_t contig : scaffold.contigs) {
      if (contig >= outputs.contigs.size()) fail("a scaffold of a contig it does not hold");
    }
  }
}

}  // namespace

AssembledOutputs read_contigs_checkpoint(CheckpointReader& reader, AssemblyOutcome& outcome) {
  for (std::uint64_t* count : counts_up_to_contigs(outcome)) *count = reader.u64();
  outcome.cleaning.rounds = static_cast<int>(reader.u64());
  AssembledOutputs outputs;
  outputs.contigs.resize(reader.u64());
  for (Contig& contig : outputs.contigs) {
    contig.path.resize(reader.u64());
    for (Contig::Oriented& oriented : contig.path) oriented = reader.u64();
    contig.from = reader.u64();
    contig.length = reader.u64();
    contig.coverage_sum = reader.u64();
    contig.kmers = reader.u64();
    contig.circular = reader.u64() != 0;
  }
  GraphFile& graph = outputs.graph;
  graph.k = static_cast<int>(reader.u64());
  graph.segments.resize(reader.u64());
  for (Unitig& segment : graph.segments) {
    segment.bases = reader.text();
    segment.coverage_sum = reader.u64();
    segment.kmers = reader.u64();
    segment.circular = reader.u64() != 0;
  }
  graph.links.resize(reader.u64());
  for (auto& [from, to] : graph.links) {
    from = reader.u64();
    to = reader.u64();
  }
  outputs.scaffolds.resize(reader.u64());
  for (Scaffold& scaffold : outputs.scaffolds) {
    scaffold.pieces.resize(reader.u64());
    for (ScaffoldPiece& piece : scaffold.pieces) {
      piece.contig = reader.u64();
      piece.reversed = reader.u64() != 0;
      piece.from = reader.u64();
      piece.bases = reader.text();
    }
    scaffold.length = reader.u64();
    scaffold.contigs.resize(reader.u64());
    for (std::size_t& contig : scaffold.contigs) contig = reader.u64();
    scaffold.gaps = reader.u64();
  }
  outcome.insert_size = reader.u64();
  if (!reader.at_end()) throw std::runtime_error("checkpoints/contigs: bytes after the contigs");
  check_recipes(outputs);
  return outputs;
}

}  // namespace xenon::genomics
