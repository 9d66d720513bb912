// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_share.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "genomics/io/input_error.hpp"
#include "genomics/io/piece_splitter.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "genomics/kmer/ambiguity_codes.hpp"

namespace xenon::genomics {

ReadShare::ReadShare(ThreadingRequest request, std::vector<std::string> kept, EndAskBatches::Send send_asks,
                     std::size_t window, std::size_t batch_bytes)
    : request_(std::move(request)), window_(window) {
  if (window_ == 0) throw std::invalid_argument("read share: a window of no reads");
  if (request_.rethread_kept) rethread_ = std::move(kept);
  const int k = static_cast<int>(request_.k);
  if (request_.owners.size() < 2) {
    threads_.emplace(request_.ends, k, request_.end_span);
    graph_copy_.emplace(ReadThreads::bytes_of(request_.ends) + threads_->index_bytes());
    if (request_.bridges) dead_ = DeadEnds::of(std::move(request_.dead_ends), request_.ends, request_.k);
    return;
  }
  if (!send_asks) throw std::invalid_argument("read share: a share of several stores with nowhere to send asks");
  {
    // The ends as they came, until this store's slice is cut from them.
    const GraphCopies::Hold arrived(ReadThreads::bytes_of(request_.ends));
    slice_ = std::make_shared<EndSlice>(request_.ends, k, request_.end_span, request_.owner, request_.owners.size());
    if (request_.bridges) dead_ = DeadEnds::of(std::move(request_.dead_ends), request_.ends, request_.k);
    std::vector<UnitigEnds>().swap(request_.ends);
  }
  asks_.emplace(request_.threading, request_.owners.size(), k, std::move(send_asks), batch_bytes);
  AskOwner ask = [this](std::size_t owner, std::string_view kmer, std::uint64_t ticket) {
    asks_->add(owner, kmer, ticket);
  };
  if (request_.bridges) {
    bridge_tracer_.emplace(slice_->index, dead_, std::move(ask));
  } else {
    read_tracer_.emplace(slice_->index, std::move(ask));
  }
}

bool ReadShare::step(const Send& send) {
  if (finished_) throw std::logic_error("read share: a turn after the share ended");
  if (!input_over_ && unthreaded() < window_) {
    if (request_.rethread_kept) {
      rethread_some();
    } else {
      read_block();
    }
  }
  take_threaded();
  if (input_over_ && unthreaded() == 0) {
    finish(send);
    return false;
  }
  const bool more = can_go_on();
  flush_unless(more);
  return more;
}

// Asks wait in their batches while the share reads on, and while asks it sent are unanswered
// (a read that goes on from an answer often asks again at once: as each answer came, the tail
// of a threading sent a few asks a batch); all go once the share would wait for them alone.
// Fewer, larger messages, and none waits on a batch that never fills: the asks out are
// answered whatever their askers do.
void ReadShare::flush_unless(bool reading_on) {
  if (asks_ && !reading_on && asks_->batches_out() == 0) asks_->flush();
}

bool ReadShare::can_go_on() const {
  if (finished_) return false;
  return input_over_ ? unthreaded() == 0 : unthreaded() < window_;
}

void ReadShare::answers_arrived(std::span<const std::byte> answers) {
  if (!slice_ || finished_) throw std::invalid_argument("read share: answers to no ask of this share");
  asks_->take_answers(answers, [this](std::uint64_t ticket, std::optional<EndIndex::Place> place) {
    if (read_tracer_) {
      read_tracer_->answered(ticket, place);
    } else {
      bridge_tracer_->answered(ticket, place);
    }
  });
  take_threaded();
  flush_unless(can_go_on());  // a read the answers let go on may have asked again
}

std::size_t ReadShare::unthreaded() const {
  if (read_tracer_) return read_tracer_->in_flight();
  if (bridge_tracer_) return bridge_tracer_->in_flight();
  return 0;
}

// The next block of the share's pieces, its records threaded (or admitted to the tracer).
void ReadShare::read_block() {
  // Each record whole: FASTQ records come in one piece, FASTA ones line by line.
  struct Visitor {
    ReadShare& share;
    void begin_record() {
      share.end_record();
      ++share.records_;
      share.record_open_ = true;
    }
    void resume_record(std::string_view /*carried*/) {}  // record_ holds those bases already
    void bases(std::string_view line) { append_resolving_ambiguity(share.record_, line); }
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
        return;
      }
    } catch (const std::exception& error) {
      // Threading a read (or asking for it) failed, not the input: the share cannot finish.
      if (threading_failed_) throw;
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
  input_over_ = true;
}

// Last time's kept reads, some thousands a turn (they are not numbered: only pairing needs
// that, and pairing threads every read).
void ReadShare::rethread_some() {
  const std::size_t end = std::min(rethread_.size(), rethread_at_ + kReadsPerTurn);
  for (; rethread_at_ < end; ++rethread_at_) {
    thread_read({0, 0, rethread_at_ + 1}, rethread_[rethread_at_]);
    rethread_[rethread_at_] = {};
  }
  if (rethread_at_ < rethread_.size()) return;
  rethread_ = {};
  input_over_ = true;
}

void ReadShare::end_record() {
  if (!record_open_) return;
  const InputPiece& piece = request_.pieces[piece_];
  try {
    thread_read({piece.file_index, piece.piece, records_}, record_);
  } catch (...) {
    threading_failed_ = true;
    throw;
  }
  record_.clear();
  record_open_ = false;
}

void ReadShare::thread_read(const ReadPlace& place, std::string_view bases) {
  if (request_.bridges) {
    ++done_.reads;
    if (bridge_tracer_) {
      bridge_tracer_->admit(bases);
    } else {
      find_bridges(*threads_, dead_, static_cast<int>(request_.k), bases, bridges_);
    }
    return;
  }
  if (!read_tracer_) {
    add(place, threads_->trace(bases), bases);
    return;
  }
  read_tracer_->admit(bases);
  if (request_.paths) places_.push_back(place);
}

void ReadShare::take_threaded() {
  if (!read_tracer_) return;
  while (read_tracer_->oldest_done()) {
    // The read's bases stay in the tracer's slot until another read is admitted into it.
    const std::string_view bases = read_tracer_->oldest_read();
    const ReadThreads::Traced traced = read_tracer_->take_oldest();
    ReadPlace place;
    if (request_.paths) {
      place = places_.front();
      places_.pop_front();
    }
    add(place, traced, bases);
  }
}

void ReadShare::add(const ReadPlace& place, const ReadThreads::Traced& traced, std::string_view bases) {
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
  if (crossed && request_.keep_crossing_reads) kept_.emplace_back(bases);
  if (!request_.paths || traced.runs.empty()) return;
  paths_.places.push_back(place);
  std::vector<ReadThreads::CompactOriented> path;
  for (const std::vector<std::size_t>& run : traced.runs) path.insert(path.end(), run.begin(), run.end());
  paths_.paths.push_back(path);
  paths_.leads.push_back(traced.lead);
}

void ReadShare::finish(const Send& send) {
  if (asks_ && (asks_->batches_out() != 0 || asks_->unsent() != 0)) {
    throw std::logic_error("read share: every read threaded with asks still out");
  }
  send_crossed(send);
  if (bridge_tracer_) {
    done_.bridges = bridge_tracer_->votes().encode();
  } else if (request_.bridges) {
    done_.bridges = bridges_.encode();
  }
  finished_ = true;
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

}  // namespace xenon::genomics
