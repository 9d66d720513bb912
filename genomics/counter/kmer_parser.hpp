// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "genomics/kmer/ambiguity_codes.hpp"
#include "genomics/kmer/kmer_filter_window.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/minimizer.hpp"

namespace xenon::genomics {

// Parses blocks of records, hashes the canonical form of every k-mer, and sends each hashed
// k-mer to the store that owns it (by its hash, or by its minimizer), batched per store. A block is done when every store has
// counted its batches; only then does the reader hear of it, so the k-mers in flight are
// bounded by the blocks the reader lets out. One parser per worker of every node.
template <int Words>
class KmerParser : public Actor {
 public:
  using Key = KmerKey<Words>;
  // Keys per batch: up to 4096 (32 KiB for k <= 32), fewer with many stores so that the
  // batches a parser fills at once stay near 1 MiB (never under 256 keys a batch).
  static std::size_t batch_keys_for(std::size_t stores) {
    return std::clamp<std::size_t>((std::size_t{1} << 20) / sizeof(Key) / stores, 256, 4096);
  }

  explicit KmerParser(std::span<const std::byte> arguments) : KmerParser(ParserArguments::decode(arguments)) {}
  // On the coordinator's node: its arguments as they are.
  explicit KmerParser(ParserArguments arguments)
      : arguments_(std::move(arguments)),
        scanner_(static_cast<int>(arguments_.k)),
        batches_(arguments_.stores.size()),
        batch_keys_(batch_keys_for(arguments_.stores.size())) {
    if (arguments_.minimizer_length != 0) {
      window_.emplace(static_cast<int>(arguments_.k), static_cast<int>(arguments_.minimizer_length));
    }
    if (arguments_.k == 0 || kmer_words(static_cast<int>(arguments_.k)) != Words ||
        arguments_.stores.empty()) {
      throw std::invalid_argument("k-mer parser: bad arguments (k " +
                                  std::to_string(arguments_.k) + ", " +
                                  std::to_string(arguments_.stores.size()) + " stores)");
    }
  }

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_BLOCK) {
      parse_block(message);
    } else if (action == ACTION_KMER_BATCH_STORED) {
      batch_stored(KmerBatch<Words>::decode_stored(message.payload()));
    } else if (action == ACTION_PARSER_FILTER) {
      take_filter(message);
    } else if (action == ACTION_COUNTER_STOP) {
      stop();
    } else {
      throw std::runtime_error("k-mer parser: unexpected action " + std::to_string(action.code()));
    }
  }

 private:
  struct PendingBlock {
    ActorName reader;
    InputTally tally;
    std::size_t batches_in_flight = 0;
    bool failed = false;
    InputFailure failure;
  };

  // What follows the scan beside the k-mers: the minimizers (to route) and the filter's
  // verdict (to leave out k-mers read once), either or both. Which ones is a template
  // argument, so that the scan asks nothing per base about what it does not have.
  template <bool kMinimizers, bool kFilter>
  struct ScanObserver {
    MinimizerWindow* minimizers;
    KmerFilterWindow* filter;
    void begin_record() {
      if constexpr (kMinimizers) minimizers->reset();
      if constexpr (kFilter) filter->begin_record();
    }
    // The bases the scanner is about to feed, for the filter to look up ahead.
    void prepare(std::string_view bases) {
      if constexpr (kFilter) filter->prepare(bases);
    }
    // The scanner's calls: a break, a base.
    void reset() {
      if constexpr (kMinimizers) minimizers->reset();
      if constexpr (kFilter) filter->reset();
    }
    void push(int code) {
      if constexpr (kMinimizers) minimizers->push(code);
      if constexpr (kFilter) filter->push(code);
    }
  };

  // Sees every record of a block (SequenceParser's visitor).
  template <bool kMinimizers, bool kFilter>
  struct Visitor {
    KmerParser& parser;
    InputTally& tally;
    ScanObserver<kMinimizers, kFilter> observer{kMinimizers ? &parser.window_.value() : nullptr,
                                                kFilter ? &parser.filter_window_.value() : nullptr};
    std::uint64_t record_bases = 0;
    void begin_record() {
      ++tally.records;
      record_bases = 0;
      parser.scanner_.reset();
      observer.begin_record();
    }
    // The bases before a cut inside a long record were counted with the previous block:
    // they only prime the scanner for the k-mers that span the cut.
    void resume_record(std::string_view raw) {
      const std::string_view carried = parser.readable(raw);
      tally.longest_record = InputTally::kLongRecord;
      parser.scanner_.reset();
      observer.begin_record();
      observer.prepare(carried);
      parser.scanner_.feed(carried, [](const PackedKmer<Words>&) {}, observer);
    }
    void bases(std::string_view raw) {
      const std::string_view line = parser.readable(raw);
      tally.bases += line.size();
      record_bases += line.size();
      tally.longest_record = std::max(tally.longest_record, record_bases);
      const std::uint32_t stores = static_cast<std::uint32_t>(parser.batches_.size());
      observer.prepare(line);
      parser.scanner_.feed(line, [this, stores](const PackedKmer<Words>& kmer) {
        ++tally.kmers;
        if constexpr (kFilter) {
          if (!observer.filter->passes()) {
            ++tally.kmers_left_out;
            return;
          }
        }
        const Key key = key_of<Words>(kmer);
        if constexpr (kMinimizers) {
          parser.route(key, store_of_minimizer(observer.minimizers->minimum(), stores));
        } else {
          parser.route(key, store_of<Words>(key, stores));
        }
      }, observer);
    }
  };

  // The bases as the scanner should read them: for an assembler, ambiguity codes resolved
  // (ambiguity_codes.hpp) in a copy, made only for a line that has one.
  std::string_view readable(std::string_view bases) {
    if (!arguments_.resolve_ambiguity_codes || !has_ambiguity_code(bases)) return bases;
    resolved_.clear();
    append_resolving_ambiguity(resolved_, bases);
    return resolved_;
  }

  // The records of a block through the visitor of what this parser has.
  void parse_records(const BlockMessage& block, std::string_view records, InputTally& tally) {
    if (window_ && filter_window_) {
      parse_records_with<true, true>(block, records, tally);
    } else if (window_) {
      parse_records_with<true, false>(block, records, tally);
    } else if (filter_window_) {
      parse_records_with<false, true>(block, records, tally);
    } else {
      parse_records_with<false, false>(block, records, tally);
    }
  }
  template <bool kMinimizers, bool kFilter>
  void parse_records_with(const BlockMessage& block, std::string_view records, InputTally& tally) {
    // Files are known here by index; the reader, which knows their names, words the error.
    static const std::string kFileLabel = "input";
    Visitor<kMinimizers, kFilter> visitor{*this, tally};
    SequenceParser(block.origin, records, kFileLabel).parse(visitor);
  }

  void take_filter(const Message& message) {
    if (arguments_.filter_words == 0 || filter_) throw std::logic_error("k-mer parser: a filter not asked for, or twice");
    filter_ = KmerBloomFilter::from_bytes(message.payload());
    if (filter_->words() != arguments_.filter_words) {
      throw std::invalid_argument("k-mer parser: a filter of " + std::to_string(filter_->words()) + " words for one of " +
                                  std::to_string(arguments_.filter_words));
    }
    filter_window_.emplace(*filter_, static_cast<int>(arguments_.filter_k), static_cast<int>(arguments_.k));
    reply(message, ACTION_PARSER_FILTER_TAKEN);
  }

  void parse_block(const Message& message) {
    // The coordinator lets the readers start once every parser has its filter.
    if (arguments_.filter_words != 0 && !filter_) throw std::logic_error("k-mer parser: a block before its filter");
    const BlockMessage block = BlockMessage::decode(message.payload());
    current_block_ = block.block_number;
    PendingBlock& pending = pending_[block.block_number];
    pending.reader = message.source();
    pending.tally.blocks = 1;
    const std::string_view records(reinterpret_cast<const char*>(block.records.data()),
                                   block.records.size());
    try {
      parse_records(block, records, pending.tally);
    } catch (const InputError& error) {
      pending.failed = true;
      // The reader knows the piece and, with the other readers, the record's number in the file.
      pending.failure = {block.origin.file_index, 0, error.record(), true, error.problem()};
    }
    for (std::size_t store = 0; store < batches_.size(); ++store) flush(store);
    finish_if_counted(block.block_number);
  }

  void route(const Key& key, std::uint32_t store) {
    std::vector<Key>& batch = batches_[store];
    batch.push_back(key);
    if (batch.size() == batch_keys_) flush(store);
  }

  void flush(std::size_t store) {
    std::vector<Key>& batch = batches_[store];
    if (batch.empty()) return;
    send(arguments_.stores[store], ACTION_KMER_BATCH, KmerBatch<Words>::encode(current_block_, batch));
    ++pending_[current_block_].batches_in_flight;
    batch.clear();
  }

  void batch_stored(std::uint64_t block_number) {
    const auto found = pending_.find(block_number);
    if (found == pending_.end() || found->second.batches_in_flight == 0) {
      throw std::logic_error("k-mer parser: a store acknowledged block " +
                             std::to_string(block_number) + ", which has no batch in flight");
    }
    --found->second.batches_in_flight;
    finish_if_counted(block_number);
  }

  void finish_if_counted(std::uint64_t block_number) {
    const auto found = pending_.find(block_number);
    PendingBlock& pending = found->second;
    if (pending.batches_in_flight != 0) return;
    if (pending.failed) {
      send(pending.reader, ACTION_BLOCK_FAILED, BlockOutcome::encode_failed(block_number, pending.failure));
    } else {
      send(pending.reader, ACTION_BLOCK_DONE, BlockOutcome::encode_done(block_number, pending.tally));
    }
    pending_.erase(found);
  }

  ParserArguments arguments_;
  KmerScanner<Words> scanner_;
  std::optional<MinimizerWindow> window_;  // with minimizer routing
  std::optional<KmerBloomFilter> filter_;          // with a filter, once it has come
  std::optional<KmerFilterWindow> filter_window_;  // reads filter_
  std::vector<std::vector<Key>> batches_;  // one per store, filled as k-mers come
  std::size_t batch_keys_;
  std::uint64_t current_block_ = 0;
  std::map<std::uint64_t, PendingBlock> pending_;
  std::string resolved_;  // readable()'s copy of a line
};

}  // namespace xenon::genomics
