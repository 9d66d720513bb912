// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/counter/kmer_parser.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/minimizer.hpp"

namespace xenon::genomics {

// The sending side: the k-mers of a store's share of the carried sequences (one a line),
// batched by the store that owns them (by minimizer, as the parsers route k-mers), a part at a
// time, so that the store can hold back while its batches are on their way (all of them at
// once, 9 MB of keys a rank in a later round at 8 processes of 40x E. coli, were the largest
// rank's peak).
template <int Words>
class CarriedKmerRouter {
 public:
  using Key = KmerKey<Words>;

  // `share` is a view into `holder`'s bytes (or bytes that outlive the router), which the
  // router keeps until the share has gone. Batches as the parsers size them: about 1 MiB
  // filling at once over all stores.
  CarriedKmerRouter(Payload holder, std::string_view share, int k, int minimizer_length, std::size_t stores)
      : holder_(std::move(holder)), rest_(share), k_(static_cast<std::size_t>(k)), scanner_(k),
        window_(k, minimizer_length), batches_(stores), batch_keys_(KmerParser<Words>::batch_keys_for(stores)),
        sent_(stores, 0) {}

  // Routes the next `kmers` k-mers (fewer at the end), resuming inside a sequence where the
  // last call stopped; each full batch goes through send_batch(store index, KmerBatch
  // payload). True once the whole share has gone, the last batches too.
  template <class SendBatch>
  bool route_some(std::size_t kmers, SendBatch&& send_batch) {
    while (!rest_.empty() && kmers != 0) {
      const std::size_t line = std::min(rest_.find('\n'), rest_.size());
      const std::size_t starts = line >= k_ ? line - k_ + 1 : 0;  // k-mers of the sequence
      const std::size_t taken = std::min(kmers, starts - std::min(starts, offset_));
      scanner_.reset();
      window_.reset();
      scanner_.feed(rest_.substr(offset_, taken + k_ - 1), [&](const PackedKmer<Words>& kmer) {
        const std::size_t store = store_of_minimizer(window_.minimum(), static_cast<std::uint32_t>(batches_.size()));
        batches_[store].push_back(key_of<Words>(kmer));
        if (batches_[store].size() == batch_keys_) flush(store, send_batch);
      }, window_);
      kmers -= taken;
      offset_ += taken;
      if (offset_ >= starts) {  // the sequence is done
        rest_.remove_prefix(std::min(line + 1, rest_.size()));
        offset_ = 0;
      }
    }
    if (!rest_.empty()) return false;
    for (std::size_t store = 0; store < batches_.size(); ++store) {
      if (!batches_[store].empty()) flush(store, send_batch);
    }
    holder_ = Payload{};
    return true;
  }

  std::size_t batch_keys() const { return batch_keys_; }
  // How many batches went to each store.
  const std::vector<std::uint64_t>& sent() const { return sent_; }

 private:
  template <class SendBatch>
  void flush(std::size_t store, SendBatch& send_batch) {
    send_batch(store, KmerBatch<Words>::encode(0, batches_[store]));
    ++sent_[store];
    batches_[store].clear();
  }

  Payload holder_;
  std::string_view rest_;   // the sequences not yet routed, the first perhaps in part
  std::size_t offset_ = 0;  // where the next k-mer of the first of them starts
  std::size_t k_;
  KmerScanner<Words> scanner_;
  MinimizerWindow window_;
  std::vector<std::vector<Key>> batches_;  // one a store, filling
  std::size_t batch_keys_;
  std::vector<std::uint64_t> sent_;
};

// A later round's carried k-mers (GraphSetup::carried), exchanged between the stores: each
// store routes the k-mers of its share of the carried sequences to the stores that own them
// (CarriedKmerRouter) and tells every store how many batches it sent it; each store judges
// the carried k-mers it owns against its counts (this class). Every store once scanned every
// carried sequence, which node 0 sent to every store (4.6 MB to every node in each later round
// of 40x E. coli).
template <int Words>
class CarriedKmerExchange {
 public:
  using Key = KmerKey<Words>;

  // The carried k-mers this store owns that the threshold alone would not keep: those counted
  // fewer times, and those no read has. Each sorted, each key once.
  struct Kept {
    std::vector<Key> under_threshold;
    std::vector<Key> uncounted;
  };

  // The threshold and the counts (count_of(key), 0 for a k-mer no read has) are known once
  // this store has its setup: batches that came before wait until then.
  template <class CountOf>
  void judge_from_now(std::uint64_t threshold, CountOf&& count_of) {
    if (threshold == 0) throw std::invalid_argument("a threshold of 0 for the carried k-mers");
    threshold_ = threshold;
    for (const Payload& batch : held_) judge(batch.bytes(), count_of);
    held_.clear();
    held_.shrink_to_fit();
  }

  template <class CountOf>
  void batch_arrived(Payload batch, CountOf&& count_of) {
    ++batches_received_;
    if (threshold_ == 0) {
      held_.push_back(std::move(batch));
    } else {
      judge(batch.bytes(), count_of);
    }
  }

  void report_arrived(std::uint64_t batches) {
    ++reports_;
    batches_promised_ += batches;
  }

  // Every store has reported and every batch it reported has come.
  bool complete(std::size_t stores) const {
    if (reports_ > stores) throw std::logic_error(std::to_string(reports_) + " reports of carried k-mers from " + std::to_string(stores) + " stores");
    if (reports_ == stores && batches_received_ > batches_promised_) {
      throw std::logic_error(std::to_string(batches_received_) + " batches of carried k-mers where " +
                             std::to_string(batches_promised_) + " were sent");
    }
    return reports_ == stores && batches_received_ == batches_promised_ && threshold_ != 0;
  }
  bool anything_arrived() const { return reports_ != 0 || batches_received_ != 0; }

  // What was judged, for the store to keep; the exchange holds nothing after.
  Kept take() {
    for (std::vector<Key>* keys : {&kept_.under_threshold, &kept_.uncounted}) {
      std::sort(keys->begin(), keys->end());
      keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
      keys->shrink_to_fit();
    }
    return std::exchange(kept_, Kept{});
  }

 private:
  template <class CountOf>
  void judge(std::span<const std::byte> batch, CountOf& count_of) {
    KmerBatch<Words>::decode(batch, keys_);
    for (const Key& key : keys_) {
      const std::uint64_t count = count_of(key);
      if (count == 0) {
        kept_.uncounted.push_back(key);
      } else if (count < threshold_) {
        kept_.under_threshold.push_back(key);
      }
    }
  }

  std::uint64_t threshold_ = 0;  // 0 until the setup came (a threshold is at least 1)
  std::vector<Payload> held_;    // batches that came before it
  std::vector<Key> keys_;        // of the batch being judged (reused)
  Kept kept_;
  std::uint64_t batches_received_ = 0;
  std::uint64_t batches_promised_ = 0;
  std::size_t reports_ = 0;
};

}  // namespace xenon::genomics
