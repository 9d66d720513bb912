// SPDX-License-Identifier: BSD-3-Clause
// A later round's carried sequences, spread over the stores: the shares node 0 sends, the
// setup that carries one, and the exchange that brings each carried k-mer to the store that
// owns it, checked against every store scanning every sequence (as the stores once did).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/carried_kmer_exchange.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/graph_protocol.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/minimizer.hpp"

namespace xenon::genomics {
namespace {

std::string random_sequences(std::mt19937_64& random, int count, int k) {
  std::string sequences;
  for (int sequence = 0; sequence < count; ++sequence) {
    std::string bases(static_cast<std::size_t>(k) + random() % 200, 'A');
    for (char& base : bases) base = "ACGT"[random() % 4];
    sequences += bases + "\n";
  }
  return sequences;
}

// However many shares, each line is in exactly one, whole, and the shares in order are the
// sequences again; a share may be empty (more shares than lines).
TEST(CarriedShare, PutsEveryLineInOneShareWhole) {
  std::mt19937_64 random(3);
  const std::string sequences = random_sequences(random, 25, 21);
  for (const std::string_view text : {std::string_view(sequences), std::string_view("ACGTACGTACGTACGTACGTA\n"), std::string_view()}) {
    for (const std::size_t shares : {1u, 2u, 7u, 64u}) {
      std::string joined;
      for (std::size_t index = 0; index < shares; ++index) {
        const std::string_view share = carried_share(text, shares, index);
        EXPECT_TRUE(share.empty() || share.back() == '\n') << shares << " shares, share " << index;
        joined += share;
      }
      EXPECT_EQ(joined, text) << shares << " shares";
    }
  }
}

TEST(GraphSetup, SaysWhetherAnyStoreCarriesSequencesAndNamesTheFiltersKeepers) {
  GraphSetup setup;
  setup.k = 33;
  setup.threshold = 4;
  setup.stores = {ActorName::from_value(5), ActorName::from_value(6)};
  setup.minimizer_length = 15;
  setup.carried_anywhere = true;
  const Payload payload = setup.encode();
  const GraphSetup back = GraphSetup::decode(payload.bytes());
  EXPECT_EQ(back.k, 33u);
  EXPECT_EQ(back.threshold, 4u);
  EXPECT_EQ(back.stores, setup.stores);
  EXPECT_TRUE(back.carried_anywhere);
  setup.carried_anywhere = false;
  EXPECT_FALSE(GraphSetup::decode(setup.encode().bytes()).carried_anywhere);
  std::vector<std::byte> bytes(payload.bytes().begin(), payload.bytes().end());
  store_le64(bytes.data() + 16, 2);  // neither 0 nor 1
  EXPECT_THROW(GraphSetup::decode(bytes), std::invalid_argument);
  EXPECT_THROW(GraphSetup::decode(std::span(payload.bytes()).first(31)), std::invalid_argument);

  // A filter for the later rounds names its keepers, one a node; one without them is refused.
  setup.k = 21;
  setup.filter_items = 1000;
  setup.filter_keepers = {ActorName::from_value(8), ActorName::from_value(9)};
  const GraphSetup with_filter = GraphSetup::decode(setup.encode().bytes());
  EXPECT_EQ(with_filter.filter_items, 1000u);
  EXPECT_EQ(with_filter.filter_keepers, setup.filter_keepers);
  setup.filter_keepers = {};
  EXPECT_THROW(GraphSetup::decode(setup.encode().bytes()), std::invalid_argument);
}

// Each store routes its share, a part at a time; every batch reaches its store (here straight away, after that
// store's setup or before it); each store's judgement of what it owns is what scanning every
// sequence itself and keeping its own k-mers gives.
template <int Words>
void exchange_and_compare(int k, int minimizer_length) {
  using Key = KmerKey<Words>;
  std::mt19937_64 random(static_cast<std::uint64_t>(k));
  const std::string sequences = random_sequences(random, 60, k);
  constexpr std::uint64_t kThreshold = 3;
  // Counts made up from the key: some above the threshold, some under, some none.
  const auto count_of = [](const Key& key) { return key[0] % 5; };

  for (const std::size_t stores : {1u, 3u, 8u}) {
    std::vector<CarriedKmerExchange<Words>> exchanges(stores);
    std::size_t parts_after_the_first = 0;
    // Store 1 (if any) gets its setup last: what comes before it waits.
    for (std::size_t store = 0; store < stores; ++store) {
      if (store != 1) exchanges[store].judge_from_now(kThreshold, count_of);
    }
    for (std::size_t from = 0; from < stores; ++from) {
      // A part at a time, parts of a few k-mers (ending inside a batch).
      CarriedKmerRouter<Words> router(Payload{}, carried_share(sequences, stores, from), k, minimizer_length, stores);
      while (!router.route_some(150, [&](std::size_t to, Payload batch) { exchanges[to].batch_arrived(std::move(batch), count_of); })) {
        ++parts_after_the_first;
      }
      const std::vector<std::uint64_t>& sent = router.sent();
      for (std::size_t to = 0; to < stores; ++to) {
        EXPECT_FALSE(exchanges[to].complete(stores) && from + 1 < stores) << "complete before every report";
        exchanges[to].report_arrived(sent[to]);
      }
    }
    EXPECT_GE(parts_after_the_first, stores) << "shares that went in several parts";
    if (stores > 1) {
      EXPECT_FALSE(exchanges[1].complete(stores)) << "complete before its setup";
      exchanges[1].judge_from_now(kThreshold, count_of);
    }

    std::uint64_t under = 0;
    for (std::size_t store = 0; store < stores; ++store) {
      ASSERT_TRUE(exchanges[store].complete(stores)) << store;
      const typename CarriedKmerExchange<Words>::Kept kept = exchanges[store].take();
      // Every store scanning every sequence, as the stores did before the exchange.
      std::map<Key, std::uint64_t> expected;
      KmerScanner<Words> scanner(k);
      MinimizerWindow window(k, minimizer_length);
      for_each_carried_sequence(sequences, [&](std::string_view sequence) {
        scanner.reset();
        window.reset();
        scanner.feed(sequence, [&](const PackedKmer<Words>& kmer) {
          if (store_of_minimizer(window.minimum(), static_cast<std::uint32_t>(stores)) != store) return;
          const Key key = key_of<Words>(kmer);
          if (count_of(key) < kThreshold) expected[key] = count_of(key);
        }, window);
      });
      std::vector<Key> expected_under, expected_uncounted;
      for (const auto& [key, count] : expected) (count == 0 ? expected_uncounted : expected_under).push_back(key);
      EXPECT_EQ(kept.under_threshold, expected_under) << stores << " stores, store " << store;
      EXPECT_EQ(kept.uncounted, expected_uncounted) << stores << " stores, store " << store;
      under += kept.under_threshold.size() + kept.uncounted.size();
    }
    EXPECT_GT(under, 100u) << "the made-up counts leave some carried k-mers under the threshold";
  }
}

TEST(CarriedKmerExchange, BringsEachCarriedKmerToItsStoreToBeJudged) {
  exchange_and_compare<1>(21, 11);
  exchange_and_compare<2>(55, 19);
}

// A store told of more batches than came is not complete; more batches than it was told of is
// a fault, named.
TEST(CarriedKmerExchange, CountsTheBatchesItWasToldOf) {
  CarriedKmerExchange<1> exchange;
  const auto none = [](const KmerKey<1>&) { return std::uint64_t{0}; };
  exchange.judge_from_now(2, none);
  exchange.report_arrived(2);
  const std::vector<KmerKey<1>> keys = {KmerKey<1>{{7}}};
  exchange.batch_arrived(KmerBatch<1>::encode(0, keys), none);
  EXPECT_FALSE(exchange.complete(1));
  exchange.batch_arrived(KmerBatch<1>::encode(0, keys), none);
  EXPECT_TRUE(exchange.complete(1));
  exchange.batch_arrived(KmerBatch<1>::encode(0, keys), none);
  EXPECT_THROW(exchange.complete(1), std::logic_error);
  EXPECT_EQ(exchange.take().uncounted, keys) << "each key once";
  EXPECT_THROW(exchange.judge_from_now(0, none), std::invalid_argument);
}

}  // namespace
}  // namespace xenon::genomics
