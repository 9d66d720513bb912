// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/block_splitter.hpp"

namespace xenon::genomics {

struct ReaderSettings {
  std::vector<std::string> files;
  std::size_t block_bytes = 1 << 20;
  std::size_t overlap_bases = 30;  // k - 1: what a block cut inside a FASTA record repeats
  int blocks_per_parser = 2;  // blocks each parser may hold at once (flow control)
  bool show_progress = true;  // a progress line on standard error
  std::string program = "kmer_counter";
};

// Reads the input files one after the other, cuts them into blocks of whole records and
// hands each parser a new block whenever one of its blocks is fully counted, so fast parsers
// get more blocks and memory stays bounded. After the last block, or after the first bad
// record once the blocks already out are back, it reports to the coordinator and stops.
// Bad input is reported at its first place in the input, whatever the order in which the
// parsers found problems.
class InputReader : public Actor {
 public:
  InputReader(ReaderSettings settings, std::vector<ActorName> parsers, ActorName coordinator);

  void receive(const Message& message) override;

 private:
  void dispatch(ActorName parser);
  bool next_block(BlockOrigin& origin);
  void record_failure(InputFailure failure);
  void finish_if_idle();
  std::string progress_text() const;

  ReaderSettings settings_;
  std::vector<ActorName> parsers_;
  ActorName coordinator_;
  std::unique_ptr<BlockSplitter> splitter_;
  std::size_t next_file_ = 0;     // the file to open after the current one
  std::uint32_t file_index_ = 0;  // the file being read
  std::string block_;  // reused
  std::uint64_t blocks_sent_ = 0;
  std::uint64_t blocks_in_flight_ = 0;
  bool input_exhausted_ = false;
  std::optional<InputFailure> failure_;
  InputTally tally_;
  ProgressLine progress_;
  MonotonicClock::time_point started_;
};

}  // namespace xenon::genomics
