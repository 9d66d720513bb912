// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <vector>

#include "genomics/assembler/assembler_settings.hpp"
#include "genomics/assembler/assembly_pipeline.hpp"
#include "genomics/io/checkpoint_file.hpp"

namespace xenon::genomics {

// An assembly's two checkpoints, after the counter's counts that begin each (--continue):
//  - "graph": the graph's pieces as the stores joined them, and the outcome's counts up to them;
//  - "contigs": every output before it is written, and the outcome's counts up to it.
// Each is only read back for the same options: those it depends on, besides k and the inputs.
std::string graph_checkpoint_options(const AssemblerSettings& settings);
std::string contigs_checkpoint_options(const AssemblerSettings& settings);

void write_graph_checkpoint(CheckpointWriter& writer, const AssemblyOutcome& outcome,
                            const std::vector<GraphPiece>& pieces);
// Throws std::runtime_error when the bytes do not hold one graph, and nothing after it.
std::vector<GraphPiece> read_graph_checkpoint(CheckpointReader& reader, AssemblyOutcome& outcome);

void write_contigs_checkpoint(CheckpointWriter& writer, const AssemblyOutcome& outcome, const AssembledOutputs& outputs);
// Throws std::runtime_error when the bytes do not hold the outputs, and nothing after them.
AssembledOutputs read_contigs_checkpoint(CheckpointReader& reader, AssemblyOutcome& outcome);

}  // namespace xenon::genomics
