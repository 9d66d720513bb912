// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/read_pairing.hpp"
#include "genomics/kmer/kmer_histogram.hpp"

namespace xenon::genomics {

// What kmer_counter was asked to do.
struct CounterSettings {
  int k = 31;
  std::vector<std::string> files;
  std::vector<InputRole> roles;    // one per file, how it was given (-1, -2, --12, -s, positional)
  std::string output_directory;
  bool dump = false;               // write every k-mer with its count (sorted)
  std::uint64_t minimum_count = 1; // of the k-mers dumped
  // Input block handed to a parser. Each parser has two blocks in flight, and a block's
  // hashed k-mers (about 3x its bytes) are in flight to the stores of every node until
  // counted: memory every node holds whatever the number of nodes. Small blocks keep it
  // small (1 MiB blocks cost each node about 10 MB more of its 71 MB peak at 8 nodes on 40x
  // E. coli; one process counted in the same CPU time with either).
  std::size_t block_bytes = 256 << 10;
  int blocks_per_parser = 2;
  bool show_progress = true;
  bool resume = false;             // --continue: skip what a whole checkpoint holds
};

// What it did (filled in on node 0 by the coordinator, read after the engine has stopped).
struct CounterOutcome {
  bool succeeded = false;
  std::string error;  // why not, when it did not
  InputTally tally;
  KmerHistogram histogram;
  std::uint64_t kmers_dumped = 0;
  std::vector<std::string> files_written;
};

// Names of the files in the output directory.
inline constexpr const char* kHistogramFile = "histogram.txt";
inline constexpr const char* kSummaryFile = "summary.json";
inline constexpr const char* kDumpFile = "counts.txt";
// In DIR/checkpoints: the histogram and tally of a finished count (all that the outputs
// need without --dump).
inline constexpr const char* kCountedCheckpoint = "counted";
// With --dump, also the counted k-mers: one shard per store, "kmers-I-of-N" (kmer_shards.hpp).
inline constexpr const char* kKmerShardCheckpoints = "kmers-*";

// The summary file: k, the inputs and the totals, nothing that depends on threads or time, so
// the same input gives the same bytes however it was run.
std::string summary_json(const CounterSettings& settings, const InputTally& tally,
                         const KmerHistogram& histogram);

}  // namespace xenon::genomics
