// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/counter/kmer_shards.hpp"
#include "genomics/io/checkpoint_file.hpp"
#include "genomics/kmer/kmer_count_table.hpp"
#include "genomics/kmer/kmer_histogram.hpp"

namespace xenon::genomics {

// Owns the k-mers whose hash routes to it (store_of()) and counts them. One store per worker
// of every node. Answers each batch with ACTION_KMER_BATCH_STORED (the parsers' flow control),
// the coordinator's histogram request with its histogram, and the dump requests with its
// k-mers in sorted order, a chunk at a time.
template <int Words>
class KmerStore : public Actor {
 public:
  using Key = KmerKey<Words>;
  static constexpr std::size_t kDumpChunkEntries = 8192;

  // Arguments: nothing is needed; accepted for spawning by name.
  explicit KmerStore(std::span<const std::byte> /*arguments*/ = {}) {}

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_KMER_BATCH) {
      store_batch(message);
    } else if (action == ACTION_HISTOGRAM_REQUEST) {
      send_histogram(message);
    } else if (action == ACTION_DUMP_PREPARE) {
      prepare_dump(message.payload_as<std::uint64_t>());
    } else if (action == ACTION_DUMP_CHUNK_REQUEST) {
      send_dump_chunk(message);
    } else if (action == ACTION_KMERS_SAVE) {
      save_shard(message);
    } else if (action == ACTION_KMERS_LOAD) {
      load_shards(message);
    } else if (action == ACTION_KMERS_FORGET) {
      table_.clear();
      reply(message, ACTION_KMERS_FORGOTTEN);
    } else if (action == ACTION_COUNTER_STOP) {
      stop();
    } else {
      receive_other(message);
    }
  }

 protected:
  // Actions of a store that does more than count (the assembler's graph store).
  virtual void receive_other(const Message& message) {
    throw std::runtime_error("k-mer store: unexpected action " + std::to_string(message.action().code()));
  }

  KmerCountTable<Words> table_;

 private:
  void store_batch(const Message& message) {
    const std::uint64_t block_number = KmerBatch<Words>::decode(message.payload(), keys_);
    table_.add_all(keys_);
    kmers_received_ += keys_.size();
    reply(message, ACTION_KMER_BATCH_STORED, KmerBatch<Words>::encode_stored(block_number));
  }

  // Reply: u64 k-mers received, then the histogram's (count, k-mers) pairs.
  void send_histogram(const Message& request) {
    StoreHistogram reply_histogram{kmers_received_, {}};
    table_.for_each([&](const Key&, std::uint64_t count) { reply_histogram.histogram.add(count); });
    reply(request, ACTION_HISTOGRAM, reply_histogram.encode());
  }

  // The table into checkpoint shard `shard` of `shards`.
  void save_shard(const Message& request) {
    CheckpointReader arguments(request.payload());
    const std::string directory = arguments.text();
    const std::string run_origin = arguments.text();
    const std::uint64_t shard = arguments.u64();
    const std::uint64_t shards = arguments.u64();
    kmer_shards::save(table_, directory, kmer_shards::name(shard, shards),
                      kmer_shards::origin(run_origin, shard, shards));
    reply(request, ACTION_KMERS_SAVED);
  }

  // This store's share of the saved shards: those whose index modulo the stores is its own.
  void load_shards(const Message& request) {
    CheckpointReader arguments(request.payload());
    const std::string directory = arguments.text();
    const std::string run_origin = arguments.text();
    const std::uint64_t shards = arguments.u64();
    const std::uint64_t store = arguments.u64();
    const std::uint64_t stores = arguments.u64();
    if (stores == 0 || store >= stores) throw std::invalid_argument("k-mer load: store " + std::to_string(store) + " of " + std::to_string(stores));
    std::string why;
    bool loaded = true;
    for (std::uint64_t shard = store; loaded && shard < shards; shard += stores) {
      loaded = kmer_shards::load(table_, directory, kmer_shards::name(shard, shards),
                                 kmer_shards::origin(run_origin, shard, shards), why);
    }
    CheckpointWriter answer;
    answer.u64(loaded ? 1 : 0);
    if (loaded) {
      KmerHistogram histogram;
      table_.for_each([&](const Key&, std::uint64_t count) { histogram.add(count); });
      answer.bytes(histogram.to_bytes());
    } else {
      table_.clear();
      answer.text(why);
    }
    reply(request, ACTION_KMERS_LOADED, Payload::copy_of(answer.data()));
  }

  void prepare_dump(std::uint64_t minimum_count) {
    dump_.clear();
    table_.for_each([&](const Key& key, std::uint64_t count) {
      if (count >= minimum_count) dump_.emplace_back(kmer_of<Words>(key), count);
    });
    std::sort(dump_.begin(), dump_.end(), [](const auto& a, const auto& b) {
      return words_less<Words>(a.first, b.first);
    });
    dump_position_ = 0;
  }

  // Reply: up to kDumpChunkEntries entries (k-mer words, count); an empty chunk ends the dump.
  void send_dump_chunk(const Message& request) {
    const std::size_t count = std::min(kDumpChunkEntries, dump_.size() - dump_position_);
    Payload payload =
        DumpChunk<Words>::encode(std::span<const DumpEntry>(dump_).subspan(dump_position_, count));
    dump_position_ += count;
    reply(request, ACTION_DUMP_CHUNK, std::move(payload));
    if (dump_position_ == dump_.size()) {
      dump_ = {};  // free it; later requests get empty chunks
      dump_position_ = 0;
    }
  }

  std::vector<Key> keys_;  // decoded batch, reused
  std::uint64_t kmers_received_ = 0;
  using DumpEntry = typename DumpChunk<Words>::Entry;
  std::vector<DumpEntry> dump_;
  std::size_t dump_position_ = 0;
};

}  // namespace xenon::genomics
