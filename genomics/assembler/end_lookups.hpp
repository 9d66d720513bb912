// SPDX-License-Identifier: BSD-3-Clause
// The messages by which the stores that thread reads share one end index, each holding its
// slice (EndIndex, owner_ask.hpp) rather than a copy of every unitig's ends:
//   store -> store  ACTION_END_ASKS     a batch of asks: where do these k-mers, which you own, lie?
//   store -> store  ACTION_END_ANSWERS  the batch's answers, one an ask, in its order
//   coordinator -> store  ACTION_THREAD_RELEASE  the threading is over at every store: its
//                                                slice may go (the threading's number, a u64)
// Each batch names its threading (ThreadingRequest::threading): a store that has not yet taken
// that threading's request keeps the asks until it has its slice; one that has gone past it
// refuses them.
// Asks: the threading and the batch's number (8 bytes each), then each ask's ticket (8 bytes)
// and k-mer, 2 bits a base. Answers: the same header, then each ticket and its place (unitig
// and offset, 8 bytes each; a unitig of all ones, offset 0, when the slice places it nowhere).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/end_index.hpp"

namespace xenon::genomics {

inline constexpr Action ACTION_END_ASKS{"genomics.threads.end-asks"};
inline constexpr Action ACTION_END_ANSWERS{"genomics.threads.end-answers"};
inline constexpr Action ACTION_THREAD_RELEASE{"genomics.threads.release"};

// The asks one owner's tracer makes of the others, gathered into a batch per owner: a batch is
// sent once it holds `batch_bytes` (kBatchBytes: about a thousand asks at k = 31), and the rest
// when flushed (the share holds them while it reads on, or while asks it sent are out:
// ReadShare::flush_unless). Each batch is numbered, and its answers must come whole, once.
class EndAskBatches {
 public:
  using Send = std::function<void(std::size_t owner, std::vector<std::byte>&& batch)>;
  using Answered = std::function<void(std::uint64_t ticket, std::optional<EndIndex::Place> place)>;
  static constexpr std::size_t kBatchBytes = 1 << 14;

  EndAskBatches(std::uint64_t threading, std::size_t owners, int k, Send send, std::size_t batch_bytes = kBatchBytes);

  // Refuses a k-mer of other than k bases or with a base not ACGT (invalid_argument).
  void add(std::size_t owner, std::string_view kmer, std::uint64_t ticket);
  void flush();
  // The answers to one of the batches sent, each handed to `answered` (ticket, place), once
  // the batch is checked: of this threading, a batch sent and not answered yet, one answer an
  // ask, none cut short (invalid_argument otherwise, nothing handed).
  void take_answers(std::span<const std::byte> answers, const Answered& answered);
  std::size_t unsent() const { return unsent_; }  // asks in batches not sent yet
  std::size_t batches_out() const { return out_.size(); }  // sent, not answered
  std::uint64_t batches_sent() const { return next_batch_; }

 private:
  void send(std::size_t owner);

  std::uint64_t threading_;
  std::size_t k_;
  Send send_;
  std::size_t batch_bytes_;
  std::vector<std::vector<std::byte>> batches_;  // per owner
  std::vector<std::size_t> asks_in_;              // per owner, in its batch
  std::size_t unsent_ = 0;
  std::uint64_t next_batch_ = 0;
  std::unordered_map<std::uint64_t, std::size_t> out_;  // batch number: its asks
};

// The threading a batch of asks or answers names (invalid_argument when it has no header).
std::uint64_t end_lookup_threading(std::span<const std::byte> batch);

// The answers of `slice` to a batch of asks of its threading, in the asks' order: invalid_argument
// when the batch is empty or cut short, names another threading, has bits set past its
// k-mers' last base, or asks a k-mer the slice does not own.
std::vector<std::byte> answer_end_asks(std::span<const std::byte> asks, const EndIndex& slice,
                                       std::uint64_t threading);

}  // namespace xenon::genomics
