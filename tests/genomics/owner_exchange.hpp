// SPDX-License-Identifier: BSD-3-Clause
// Asks and answers between the owners of an end index's slices, held in flight and delivered
// one at a time in random order: how the tracer tests stand in for a network that may deliver
// them in any order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/owner_ask.hpp"

namespace xenon::testing {

class OwnerExchange {
 public:
  // What the tracer of `owner` asks through.
  genomics::AskOwner asker(std::size_t owner) {
    return [this, owner](std::size_t to, std::string_view kmer, std::uint64_t ticket) {
      asked_.push_back({owner, to, std::string(kmer), ticket});
    };
  }
  bool idle() const { return asked_.empty() && answers_.empty(); }
  std::uint64_t asks() const { return asks_; }

  // Delivers one ask or answer at random: an ask to its owner's slice, which answers it; an
  // answer to answered(owner that asked, ticket, place). False when nothing is in flight.
  template <class Answered>
  bool deliver_one(std::mt19937_64& random, const std::vector<genomics::EndIndex>& slices, Answered&& answered) {
    if (idle()) return false;
    const std::size_t pick = random() % (asked_.size() + answers_.size());
    if (pick < asked_.size()) {
      const genomics::KmerAsk ask = take(asked_, pick);
      if (ask.to == ask.from) throw std::logic_error("an owner asked itself");
      answers_.push_back(genomics::answer_of(slices.at(ask.to), ask));
      ++asks_;
    } else {
      const genomics::KmerAnswer answer = take(answers_, pick - asked_.size());
      answered(answer.to, answer.ticket, answer.place);
    }
    return true;
  }

 private:
  template <class T>
  static T take(std::vector<T>& from, std::size_t at) {
    std::swap(from[at], from.back());
    T taken = std::move(from.back());
    from.pop_back();
    return taken;
  }

  std::vector<genomics::KmerAsk> asked_;
  std::vector<genomics::KmerAnswer> answers_;
  std::uint64_t asks_ = 0;
};

}  // namespace xenon::testing
