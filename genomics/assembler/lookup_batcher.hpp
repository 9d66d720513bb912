// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

// What a store answers about one k-mer: its count (0: not a vertex), its edges, and whether
// the asker's walk claimed it.
struct LookupAnswer {
  std::uint32_t count = 0;
  std::uint8_t edges = 0;
  bool claimed = false;
};

// Lookups of k-mers in other stores, gathered per store into ACTION_LOOKUP messages of up to
// `batch_entries` keys, each key with a byte of flags for the answering store and a tag that
// the asker gets back with the answer.
//   lookup:  u64 batch number, u32 n, n keys (Words words each), n flag bytes
//   reply:   u64 batch number, n x u64 (count | edges << 32 | claimed << 40), in order
template <int Words>
class LookupBatcher {
 public:
  using Key = KmerKey<Words>;

  LookupBatcher(std::size_t stores, std::size_t batch_entries)
      : pending_(stores), batch_entries_(batch_entries) {}

  // Queues one lookup; true when the store's batch is full (flush it).
  bool add(std::size_t store, const Key& key, std::uint8_t flags, std::uint64_t tag) {
    Pending& pending = pending_[store];
    pending.keys.push_back(key);
    pending.flags.push_back(flags);
    pending.tags.push_back(tag);
    ++outstanding_;
    return pending.keys.size() >= batch_entries_;
  }

  // Sends a store's queued lookups, if any, with send(store, Payload).
  template <class Send>
  void flush(std::size_t store, Send&& send) {
    Pending& pending = pending_[store];
    const std::size_t count = pending.keys.size();
    if (count == 0) return;
    Payload payload = Payload::for_overwrite(12 + count * (8 * Words + 1));
    std::byte* out = payload.writable_bytes().data();
    const std::uint64_t batch = next_batch_++;
    store_le64(out, batch);
    store_le32(out + 8, static_cast<std::uint32_t>(count));
    out += 12;
    for (const Key& key : pending.keys) {
      for (int word = 0; word < Words; ++word, out += 8) store_le64(out, key[static_cast<std::size_t>(word)]);
    }
    for (const std::uint8_t flags : pending.flags) *out++ = static_cast<std::byte>(flags);
    in_flight_.emplace(batch, std::move(pending.tags));
    pending.keys.clear();
    pending.flags.clear();
    pending.tags = {};
    send(store, std::move(payload));
  }
  template <class Send>
  void flush_all(Send&& send) {
    for (std::size_t store = 0; store < pending_.size(); ++store) flush(store, send);
  }
  // Sends the batches of at least `entries` lookups.
  template <class Send>
  void flush_fuller_than(std::size_t entries, Send&& send) {
    for (std::size_t store = 0; store < pending_.size(); ++store) {
      if (pending_[store].keys.size() >= entries) flush(store, send);
    }
  }

  // Calls visit(tag, LookupAnswer) for each answer of a reply, in the lookup's order.
  template <class Visit>
  void answered(std::span<const std::byte> reply, Visit&& visit) {
    if (reply.size() < 8 || (reply.size() - 8) % 8 != 0) {
      throw std::invalid_argument("lookup reply of " + std::to_string(reply.size()) + " bytes");
    }
    const auto found = in_flight_.find(load_le64(reply.data()));
    if (found == in_flight_.end()) throw std::invalid_argument("reply to an unknown lookup batch");
    const std::vector<std::uint64_t> tags = std::move(found->second);
    in_flight_.erase(found);
    if (tags.size() != (reply.size() - 8) / 8) {
      throw std::invalid_argument("lookup reply with " + std::to_string((reply.size() - 8) / 8) +
                                  " answers to " + std::to_string(tags.size()) + " lookups");
    }
    outstanding_ -= tags.size();
    const std::byte* in = reply.data() + 8;
    for (const std::uint64_t tag : tags) {
      const std::uint64_t word = load_le64(in);
      in += 8;
      visit(tag, LookupAnswer{static_cast<std::uint32_t>(word), static_cast<std::uint8_t>(word >> 32), ((word >> 40) & 1) != 0});
    }
  }

  // Lookups queued or sent and not answered yet.
  std::size_t outstanding() const { return outstanding_; }
  // Batches sent and not answered yet: while there are some, an answer is still to come.
  std::size_t batches_in_flight() const { return in_flight_.size(); }

  // Answers a lookup message with answer(const Key&, flags) -> LookupAnswer, calling
  // prefetch(const Key&) some keys ahead; returns the reply.
  template <class Answer, class Prefetch>
  static Payload answer_all(std::span<const std::byte> lookup, Answer&& answer, Prefetch&& prefetch) {
    constexpr std::size_t kAhead = 8;
    if (lookup.size() < 12) throw std::invalid_argument("lookup message too short");
    const std::uint32_t count = load_le32(lookup.data() + 8);
    if (lookup.size() != 12 + static_cast<std::size_t>(count) * (8 * Words + 1)) {
      throw std::invalid_argument("lookup message of " + std::to_string(lookup.size()) +
                                  " bytes for " + std::to_string(count) + " keys");
    }
    std::vector<Key> keys(count);
    const std::byte* in = lookup.data() + 12;
    for (Key& key : keys) {
      for (int word = 0; word < Words; ++word, in += 8) key[static_cast<std::size_t>(word)] = load_le64(in);
    }
    const std::byte* flags = in;
    Payload reply = Payload::for_overwrite(8 + 8 * static_cast<std::size_t>(count));
    std::byte* out = reply.writable_bytes().data();
    std::copy_n(lookup.data(), 8, out);  // the batch number
    out += 8;
    for (std::size_t i = 0; i < count; ++i, out += 8) {
      if (i + kAhead < count) prefetch(keys[i + kAhead]);
      const LookupAnswer found = answer(keys[i], static_cast<std::uint8_t>(flags[i]));
      store_le64(out, found.count | (std::uint64_t{found.edges} << 32) | (std::uint64_t{found.claimed} << 40));
    }
    return reply;
  }

 private:
  struct Pending {
    std::vector<Key> keys;
    std::vector<std::uint8_t> flags;
    std::vector<std::uint64_t> tags;
  };

  std::vector<Pending> pending_;
  std::size_t batch_entries_;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> in_flight_;
  std::uint64_t next_batch_ = 0;
  std::size_t outstanding_ = 0;
};

}  // namespace xenon::genomics
