// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_share.hpp"

#include <string>
#include <utility>
#include <vector>

#include "genomics/io/input_error.hpp"
#include "genomics/io/piece_splitter.hpp"
#include "genomics/io/sequence_parser.hpp"

namespace xenon::genomics {

ReadShare::ReadShare(ThreadingRequest request)
    : request_(std::move(request)), threads_(request_.ends, static_cast<int>(request_.k)) {}

bool ReadShare::step(const Send& send) {
  // Each record whole: FASTQ records come in one piece, FASTA ones line by line.
  struct Visitor {
    ReadShare& share;
    const Send& send;
    void begin_record() {
      share.end_record(send);
      ++share.records_;
      share.record_open_ = true;
    }
    void resume_record(std::string_view /*carried*/) {}  // record_ holds those bases already
    void bases(std::string_view line) { share.record_.append(line); }
  };
  while (piece_ < request_.pieces.size()) {
    const InputPiece& piece = request_.pieces[piece_];
    const std::string& file = request_.files[piece.file_index];
    try {
      if (splitter_ == nullptr) splitter_ = open_piece(file, piece, 1 << 20, request_.k - 1);
      BlockOrigin origin;
      if (splitter_->next(origin, block_)) {
        Visitor visitor{*this, send};
        SequenceParser(origin, block_, file).parse(visitor);
        return true;
      }
    } catch (const std::exception& error) {
      // The input was read whole when counting: it changed since, or cannot be read again.
      done_.failure = "threading reads: piece " + std::to_string(piece.piece + 1) + " of " +
                      input_display_name(file) + ": " + error.what();
      piece_ = request_.pieces.size();
      break;
    }
    end_record(send);
    done_.pieces.push_back({piece.file_index, piece.piece, records_});
    splitter_.reset();
    records_ = 0;
    ++piece_;
  }
  if (!message_.empty()) {
    send(std::move(message_));
    message_ = {};
    ++done_.messages;
  }
  return false;
}

void ReadShare::end_record(const Send& send) {
  if (!record_open_) return;
  const InputPiece& piece = request_.pieces[piece_];
  add({piece.file_index, piece.piece, records_, threads_.trace(record_), {}}, send);
  record_.clear();
  record_open_ = false;
}

void ReadShare::add(ThreadedRead read, const Send& send) {
  ++done_.reads;
  bool crossed = false;
  for (const std::vector<std::size_t>& run : read.runs) crossed |= run.size() >= 2;
  if (!request_.paths) {  // only the runs that crossed are counted
    std::erase_if(read.runs, [](const std::vector<std::size_t>& run) { return run.size() < 2; });
  }
  if (read.runs.empty()) return;  // nothing the coordinator needs
  if (crossed && request_.keep_crossing_reads) read.bases = record_;
  ThreadedReads::append(message_, read);
  if (message_.size() >= kMessageBytes) {
    send(std::move(message_));
    message_ = {};
    ++done_.messages;
  }
}

}  // namespace xenon::genomics
