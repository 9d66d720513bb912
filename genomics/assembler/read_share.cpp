// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_share.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "genomics/io/input_error.hpp"
#include "genomics/io/piece_splitter.hpp"
#include "genomics/io/sequence_parser.hpp"

namespace xenon::genomics {

ReadShare::ReadShare(ThreadingRequest request, std::vector<std::string> kept)
    : request_(std::move(request)),
      threads_(request_.ends, static_cast<int>(request_.k), request_.end_span),
      graph_copy_(ReadThreads::bytes_of(request_.ends) + threads_.index_bytes()) {
  if (request_.rethread_kept) rethread_ = std::move(kept);
  if (request_.bridges) dead_ = DeadEnds::of(std::move(request_.dead_ends), request_.ends, request_.k);
}

bool ReadShare::step(const Send& send) {
  if (request_.rethread_kept) return rethread_step(send);
  // Each record whole: FASTQ records come in one piece, FASTA ones line by line.
  struct Visitor {
    ReadShare& share;
    void begin_record() {
      share.end_record();
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
        Visitor visitor{*this};
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
    end_record();
    done_.pieces.push_back({piece.file_index, piece.piece, records_});
    splitter_.reset();
    records_ = 0;
    ++piece_;
  }
  send_crossed(send);
  if (request_.bridges) done_.bridges = bridges_.encode();
  return false;
}

// Last time's kept reads, some thousands a turn (they are not numbered: only pairing needs
// that, and pairing threads every read).
bool ReadShare::rethread_step(const Send& send) {
  const std::size_t end = std::min(rethread_.size(), rethread_at_ + kReadsPerTurn);
  for (; rethread_at_ < end; ++rethread_at_) {
    std::string& read = rethread_[rethread_at_];
    add({0, 0, rethread_at_ + 1}, threads_.trace(read), read);
    read = {};
  }
  if (rethread_at_ < rethread_.size()) return true;
  rethread_ = {};
  send_crossed(send);
  return false;
}

// Each distinct crossed run (or passage, as a run of three) once, with its count, about a MiB
// a message.
void ReadShare::send_crossed(const Send& send) {
  std::vector<std::byte> message;
  const auto append = [&](std::span<const std::size_t> unitigs, std::uint64_t reads) {
    CrossedRuns::append(message, unitigs, reads);
    if (message.size() < kMessageBytes) return;
    send(std::move(message));
    message = {};
    ++done_.messages;
  };
  for (const auto& [unitigs, reads] : crossed_) append(unitigs, reads);
  for (const auto& [passage, reads] : passages_) append(passage, reads);
  crossed_ = {};
  passages_ = {};
  if (message.empty()) return;
  send(std::move(message));
  ++done_.messages;
}

void ReadShare::end_record() {
  if (!record_open_) return;
  const InputPiece& piece = request_.pieces[piece_];
  if (request_.bridges) {
    ++done_.reads;
    find_bridges(threads_, dead_, static_cast<int>(request_.k), record_, bridges_);
  } else {
    add({piece.file_index, piece.piece, records_}, threads_.trace(record_), record_);
  }
  record_.clear();
  record_open_ = false;
}

void ReadShare::add(const ReadPlace& place, const ReadThreads::Traced& traced, std::string& bases) {
  ++done_.reads;
  bool crossed = false;
  for (const std::vector<std::size_t>& run : traced.runs) {
    if (run.size() < 2) continue;  // only runs that crossed are counted
    crossed = true;
    if (!request_.passages) {
      ++crossed_[run];
      continue;
    }
    for (std::size_t i = 0; i + 2 < run.size(); ++i) {
      ++passages_[ReadThreads::canonical_passage(run[i], run[i + 1], run[i + 2])];
    }
  }
  if (crossed && request_.keep_crossing_reads) kept_.push_back(std::move(bases));
  if (!request_.paths || traced.runs.empty()) return;
  paths_.places.push_back(place);
  std::vector<ReadThreads::CompactOriented> path;
  for (const std::vector<std::size_t>& run : traced.runs) path.insert(path.end(), run.begin(), run.end());
  paths_.paths.push_back(path);
  paths_.leads.push_back(traced.lead);
}

}  // namespace xenon::genomics
