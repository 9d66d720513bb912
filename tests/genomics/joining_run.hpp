// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The stores joining pieces (piece_joining.hpp) with their messages taken in a random order,
// as piece_joining_test.cpp checks them and junction_cleaning_test.cpp joins what each
// cleaning step left.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/assembler/piece_joining.hpp"

namespace xenon::genomics {

struct RawPiece {
  std::string bases;
  std::uint64_t coverage_sum = 0;
  PieceJoining::WaysOn ways_on{};  // as the joining emitted it
};

// The stores and the coordinator, their messages taken in a random order; tokens that come
// before all of a store's links wait, as the stores make them.
class JoiningRun {
 public:
  JoiningRun(std::size_t k, std::size_t stores, std::uint64_t seed) : random_(seed) {
    for (std::size_t store = 0; store < stores; ++store) joinings_.emplace_back(static_cast<int>(k), stores, store);
    waiting_.resize(stores);
  }
  PieceJoining& store(std::size_t index) { return joinings_[index]; }

  std::vector<RawPiece> run() {
    for (std::size_t store = 0; store < joinings_.size(); ++store) post(kEnds, joinings_[store].ends());
    while (!queue_.empty()) {
      const std::size_t pick = random_() % queue_.size();
      const Letter letter = std::move(queue_[pick]);
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pick));
      deliver(letter);
    }
    EXPECT_EQ(finished_, started_);
    EXPECT_TRUE(gathered_);
    for (const PieceJoining& joining : joinings_) EXPECT_TRUE(joining.done());
    return out_;
  }
  // The store that emitted each unitig run() returned, in the same order: in a run it keeps it.
  const std::vector<std::size_t>& emitted_by() const { return emitted_by_; }
  // Whether each unitig run() returned is a piece of a cycle of pieces (which a store sends
  // node 0 at once), in the same order.
  const std::vector<bool>& on_cycle() const { return on_cycle_; }

 private:
  enum Kind { kEnds, kLinks, kTokens, kGather, kPieces };
  struct Letter {
    std::size_t to;
    Kind kind;
    std::vector<std::byte> bytes;
  };

  void post(Kind kind, PieceJoining::Messages messages) {
    for (std::size_t to = 0; to < messages.size(); ++to) {
      if (kind == kEnds || kind == kLinks || !messages[to].empty()) queue_.push_back({to, kind, std::move(messages[to])});
    }
  }

  void deliver(const Letter& letter) {
    PieceJoining& joining = joinings_[letter.to];
    const auto emitter = [this, &letter](bool cycle) -> PieceJoining::Emit {
      return [this, &letter, cycle](std::string bases, std::uint64_t coverage_sum, PieceJoining::WaysOn ways_on) {
        out_.push_back({std::move(bases), coverage_sum, ways_on});
        emitted_by_.push_back(letter.to);
        on_cycle_.push_back(cycle);
      };
    };
    const PieceJoining::Emit emit = emitter(false);
    switch (letter.kind) {
      case kEnds:
        if (joining.ends_arrived(letter.bytes)) post(kLinks, joining.links());
        return;
      case kLinks:
        if (!joining.links_arrived(letter.bytes)) return;
        post(kTokens, joining.start_tokens());
        started_ += joining.tokens_started();
        ++starts_reported_;
        for (const std::vector<std::byte>& tokens : waiting_[letter.to]) post(kTokens, joining.pass_tokens(tokens));
        waiting_[letter.to].clear();
        break;
      case kTokens:
        if (!joining.all_links_in()) {
          waiting_[letter.to].push_back(letter.bytes);
          return;
        }
        post(kTokens, joining.pass_tokens(letter.bytes));
        break;
      case kGather:  // one store at a time: others' pieces may come before a store's own turn
        post(kPieces, joining.gather(emit, emitter(true)));
        return;
      case kPieces:
        joining.gathered(letter.bytes, emit);
        return;
    }
    finished_ = 0;
    for (const PieceJoining& each : joinings_) finished_ += each.tokens_finished();
    if (!gathered_ && starts_reported_ == joinings_.size() && finished_ == started_) {
      gathered_ = true;
      for (std::size_t store = 0; store < joinings_.size(); ++store) queue_.push_back({store, kGather, {}});
    }
  }

  std::mt19937_64 random_;
  std::vector<PieceJoining> joinings_;
  std::vector<std::vector<std::vector<std::byte>>> waiting_;
  std::vector<Letter> queue_;
  std::uint64_t started_ = 0;
  std::uint64_t finished_ = 0;
  std::size_t starts_reported_ = 0;
  bool gathered_ = false;
  std::vector<RawPiece> out_;
  std::vector<std::size_t> emitted_by_;
  std::vector<bool> on_cycle_;
};

}  // namespace xenon::genomics
