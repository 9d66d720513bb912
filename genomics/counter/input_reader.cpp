// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/counter/input_reader.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "genomics/io/input_error.hpp"
#include "genomics/io/piece_splitter.hpp"

namespace xenon::genomics {

InputReader::InputReader(std::span<const std::byte> arguments)
    : arguments_(ReaderArguments::decode(arguments)),
      piece_records_(arguments_.pieces.size(), 0),
      progress_(stderr, arguments_.show_progress),
      started_(MonotonicClock::now()) {}

void InputReader::receive(const Message& message) {
  const Action action = message.action();
  if (action == ACTION_COUNTER_START) {
    started_ = MonotonicClock::now();
    for (std::uint32_t round = 0; round < arguments_.blocks_per_parser; ++round) {
      for (const ActorName parser : arguments_.parsers) dispatch(parser);
    }
  } else if (action == ACTION_BLOCK_DONE || action == ACTION_BLOCK_FAILED) {
    const bool failed = action == ACTION_BLOCK_FAILED;
    BlockOutcome outcome = failed ? BlockOutcome::decode_failed(message.payload())
                                  : BlockOutcome::decode_done(message.payload());
    const auto found = block_pieces_.find(outcome.block_number);
    if (found == block_pieces_.end()) {
      throw std::logic_error("input reader: block " + std::to_string(outcome.block_number) + " is not out");
    }
    const std::size_t piece = found->second;
    block_pieces_.erase(found);
    if (failed) {
      outcome.failure.piece = arguments_.pieces[piece].piece;
      record_failure(std::move(outcome.failure));
    } else {
      piece_records_[piece] += outcome.tally.records;
      tally_ += outcome.tally;
      if (progress_.due()) progress_.show(progress_text());
      dispatch(message.source());
    }
  } else if (action == ACTION_COUNTER_STOP) {  // the run failed elsewhere
    progress_.finish();
    stop();
    return;
  } else {
    throw std::runtime_error("input reader: unexpected action " + std::to_string(action.code()));
  }
  finish_if_idle();
}

void InputReader::dispatch(ActorName parser) {
  if (failure_ || input_exhausted_) return;
  BlockOrigin origin;
  if (!next_block(origin)) return;
  send(parser, ACTION_BLOCK, BlockMessage::encode(blocks_sent_, origin, block_));
  block_pieces_[blocks_sent_] = piece_index_;
  ++blocks_sent_;
}

std::unique_ptr<BlockSplitter> InputReader::open_piece(const InputPiece& piece) const {
  return genomics::open_piece(arguments_.files[piece.file_index], piece, arguments_.block_bytes, arguments_.overlap_bases);
}

void InputReader::close_piece() {
  if (splitter_ != nullptr) file_bytes_read_ += splitter_->file_bytes_read();
  splitter_.reset();
}

// The next block over all pieces, opening each in turn; false at the end of the last piece
// or when a piece cannot be read (the failure is recorded).
bool InputReader::next_block(BlockOrigin& origin) {
  while (true) {
    try {
      if (splitter_ == nullptr) {
        if (next_piece_ == arguments_.pieces.size()) {
          input_exhausted_ = true;
          return false;
        }
        piece_index_ = next_piece_++;
        const InputPiece& piece = arguments_.pieces[piece_index_];
        splitter_ = open_piece(piece);
        if (splitter_->empty() && piece.piece == 0) {
          std::fprintf(stderr, "%s: warning: %s is empty (no records)\n", arguments_.program.c_str(),
                       input_display_name(arguments_.files[piece.file_index]).c_str());
        }
      }
      if (splitter_->next(origin, block_)) return true;
      close_piece();
    } catch (const InputError& error) {
      // Ordered after every record of this piece handed out so far, before any later piece.
      const InputPiece& piece = arguments_.pieces[piece_index_];
      const std::uint64_t position = splitter_ != nullptr ? splitter_->next_record() : 0;
      record_failure({piece.file_index, piece.piece, position, false, error.what()});
      close_piece();
      return false;
    }
  }
}

void InputReader::record_failure(InputFailure failure) {
  if (!failure_ || failure.comes_before(*failure_)) failure_ = std::move(failure);
}

void InputReader::finish_if_idle() {
  if (!block_pieces_.empty() || (!failure_ && !input_exhausted_)) return;
  if (failure_) {
    progress_.finish();
  } else {
    progress_.finish(progress_text());
  }
  close_piece();
  ReaderReport report;
  report.reader_index = arguments_.reader_index;
  report.tally = tally_;
  report.file_bytes_read = file_bytes_read_;
  for (std::size_t i = 0; i < arguments_.pieces.size(); ++i) {
    report.pieces.push_back({arguments_.pieces[i].file_index, arguments_.pieces[i].piece, piece_records_[i]});
  }
  report.failure = failure_;
  send(arguments_.coordinator, ACTION_INPUT_DONE, report.encode());
  stop();
}

std::string InputReader::progress_text() const {
  const double seconds = seconds_between(started_, MonotonicClock::now());
  const double rate = seconds > 0 ? static_cast<double>(tally_.kmers) / seconds : 0.0;
  const double reads_rate = seconds > 0 ? static_cast<double>(tally_.records) / seconds : 0.0;
  char text[200];
  std::snprintf(text, sizeof text,
                "%s: %.2f M reads, %.1f M bases, %.1f M k-mers in %.1f s (%.2f M reads/s, "
                "%.1f M k-mers/s)",
                arguments_.program.c_str(), static_cast<double>(tally_.records) / 1e6,
                static_cast<double>(tally_.bases) / 1e6, static_cast<double>(tally_.kmers) / 1e6,
                seconds, reads_rate / 1e6, rate / 1e6);
  return text;
}

}  // namespace xenon::genomics
