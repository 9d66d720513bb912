// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/counter/input_reader.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "genomics/io/input_error.hpp"

namespace xenon::genomics {

InputReader::InputReader(ReaderSettings settings, std::vector<ActorName> parsers,
                         ActorName coordinator)
    : settings_(std::move(settings)),
      parsers_(std::move(parsers)),
      coordinator_(coordinator),
      progress_(stderr, settings_.show_progress),
      started_(MonotonicClock::now()) {}

void InputReader::receive(const Message& message) {
  const Action action = message.action();
  if (action == ACTION_COUNTER_START) {
    started_ = MonotonicClock::now();
    for (int round = 0; round < settings_.blocks_per_parser; ++round) {
      for (const ActorName parser : parsers_) dispatch(parser);
    }
  } else if (action == ACTION_BLOCK_DONE) {
    --blocks_in_flight_;
    tally_ += InputTally::decode(message.payload());
    if (progress_.due()) progress_.show(progress_text());
    dispatch(message.source());
  } else if (action == ACTION_BLOCK_FAILED) {
    --blocks_in_flight_;
    InputFailure failure = InputFailure::decode(message.payload());
    if (failure.file_index >= settings_.files.size()) {
      throw std::invalid_argument("block failure names file " +
                                  std::to_string(failure.file_index) + " of " +
                                  std::to_string(settings_.files.size()));
    }
    failure.text = InputError(settings_.files[failure.file_index], failure.record, failure.text).what();
    record_failure(std::move(failure));
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
  ++blocks_sent_;
  ++blocks_in_flight_;
}

// The next block over all files, opening each in turn; false at the end of the last file
// or when a file cannot be read (the failure is recorded).
bool InputReader::next_block(BlockOrigin& origin) {
  while (true) {
    try {
      if (splitter_ == nullptr) {
        if (next_file_ == settings_.files.size()) {
          input_exhausted_ = true;
          return false;
        }
        file_index_ = static_cast<std::uint32_t>(next_file_++);
        splitter_ = std::make_unique<BlockSplitter>(settings_.files[file_index_], file_index_,
                                                    settings_.block_bytes, settings_.overlap_bases);
        if (splitter_->empty()) {
          std::fprintf(stderr, "%s: warning: %s is empty (no records)\n", settings_.program.c_str(),
                       input_display_name(settings_.files[file_index_]).c_str());
        }
      }
      if (splitter_->next(origin, block_)) return true;
      splitter_.reset();
    } catch (const InputError& error) {
      // Ordered after every record of this file handed out so far, before any later file.
      const std::uint64_t position = splitter_ != nullptr ? splitter_->next_record() : 0;
      record_failure({file_index_, position, error.what()});
      return false;
    }
  }
}

void InputReader::record_failure(InputFailure failure) {
  if (!failure_ || failure.comes_before(*failure_)) failure_ = std::move(failure);
}

void InputReader::finish_if_idle() {
  if (blocks_in_flight_ != 0 || (!failure_ && !input_exhausted_)) return;
  if (failure_) {
    progress_.finish();
    send(coordinator_, ACTION_INPUT_FAILED, failure_->encode());
  } else {
    progress_.finish(progress_text());
    send(coordinator_, ACTION_INPUT_DONE, tally_.encode());
  }
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
                settings_.program.c_str(), static_cast<double>(tally_.records) / 1e6,
                static_cast<double>(tally_.bases) / 1e6, static_cast<double>(tally_.kmers) / 1e6,
                seconds, reads_rate / 1e6, rate / 1e6);
  return text;
}

}  // namespace xenon::genomics
