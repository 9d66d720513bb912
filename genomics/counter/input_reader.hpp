// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/block_splitter.hpp"

namespace xenon::genomics {

// One per node: reads its pieces of the input (input_plan.hpp: ranges of plain and BGZF
// files, whole gzip files, and on node 0 whatever can be read only once), cuts them into
// blocks of whole records and hands each parser of its node a new block whenever one of its
// blocks is fully counted, so fast parsers get more blocks and memory stays bounded. After
// its last block, or after its first bad record once the blocks already out are back, it
// reports to the coordinator (ReaderReport) and stops. Records are numbered within each
// piece; the coordinator numbers them over the file when every reader has reported.
class InputReader : public Actor {
 public:
  explicit InputReader(std::span<const std::byte> arguments);

  void receive(const Message& message) override;

 private:
  void dispatch(ActorName parser);
  bool next_block(BlockOrigin& origin);
  std::unique_ptr<BlockSplitter> open_piece(const InputPiece& piece) const;
  void close_piece();
  void record_failure(InputFailure failure);
  void finish_if_idle();
  std::string progress_text() const;

  ReaderArguments arguments_;
  std::unique_ptr<BlockSplitter> splitter_;
  std::size_t next_piece_ = 0;   // the piece to open after the current one
  std::size_t piece_index_ = 0;  // the piece being read
  std::vector<std::uint64_t> piece_records_;           // per piece, as its blocks come back
  std::map<std::uint64_t, std::size_t> block_pieces_;  // block in flight -> its piece
  std::uint64_t file_bytes_read_ = 0;                  // by the pieces closed
  std::string block_;  // reused
  std::uint64_t blocks_sent_ = 0;
  bool input_exhausted_ = false;
  std::optional<InputFailure> failure_;
  InputTally tally_;
  ProgressLine progress_;
  MonotonicClock::time_point started_;
};

}  // namespace xenon::genomics
