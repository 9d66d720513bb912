// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_share.hpp"

#include <string>
#include <vector>
#include <utility>

#include "genomics/io/input_error.hpp"
#include "genomics/io/piece_splitter.hpp"
#include "genomics/io/sequence_parser.hpp"

namespace xenon::genomics {

ReadShare::ReadShare(const ThreadingRequest& request)
    : request_(request), threads_(request.ends, static_cast<int>(request.k)) {}

ThreadingDone ReadShare::run(const std::function<void(std::vector<std::byte>&&)>& send) {
  // Each record whole: FASTQ records come in one piece, FASTA ones line by line (and a long
  // FASTA record over several blocks).
  struct Visitor {
    ReadShare& share;
    const std::function<void(std::vector<std::byte>&&)>& send;
    const InputPiece& piece;
    std::uint64_t records = 0;
    std::string record;
    bool open = false;
    void close() {
      if (open) {
        share.add({piece.file_index, piece.piece, records, share.threads_.trace(record), {}}, record, send);
        record.clear();
      }
      open = false;
    }
    void begin_record() {
      close();
      ++records;
      open = true;
    }
    void resume_record(std::string_view /*carried*/) {}  // `record` holds those bases already
    void bases(std::string_view line) { record.append(line); }
  };
  std::string block;
  for (const InputPiece& piece : request_.pieces) {
    const std::string& file = request_.files[piece.file_index];
    Visitor visitor{*this, send, piece, 0, {}, false};
    try {
      const auto splitter = open_piece(file, piece, 1 << 20, request_.k - 1);
      BlockOrigin origin;
      while (splitter->next(origin, block)) SequenceParser(origin, block, file).parse(visitor);
      visitor.close();
    } catch (const std::exception& error) {
      // The input was read whole when counting: it changed since, or cannot be read again.
      done_.failure = "threading reads: piece " + std::to_string(piece.piece + 1) + " of " +
                      input_display_name(file) + ": " + error.what();
      break;
    }
    done_.pieces.push_back({piece.file_index, piece.piece, visitor.records});
  }
  if (!message_.empty()) {
    send(std::move(message_));
    ++done_.messages;
  }
  return std::move(done_);
}

void ReadShare::add(ThreadedRead read, const std::string& bases, const std::function<void(std::vector<std::byte>&&)>& send) {
  ++done_.reads;
  bool crossed = false;
  for (const std::vector<std::size_t>& run : read.runs) crossed |= run.size() >= 2;
  if (!request_.paths) {  // only the runs that crossed are counted
    std::erase_if(read.runs, [](const std::vector<std::size_t>& run) { return run.size() < 2; });
  }
  if (read.runs.empty()) return;  // nothing the coordinator needs
  if (crossed && request_.keep_crossing_reads) read.bases = bases;
  ThreadedReads::append(message_, read);
  if (message_.size() >= kMessageBytes) {
    send(std::move(message_));
    message_ = {};
    ++done_.messages;
  }
}

}  // namespace xenon::genomics
