// SPDX-License-Identifier: BSD-3-Clause
// The keepers of the first round's filter (filter_keeper.hpp): their messages as bytes, and
// the all-gather by which they put a later round's filter together for every node's parsers,
// run on one engine with a keeper standing for each node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/assembler/filter_keeper.hpp"
#include "genomics/assembler/graph_protocol.hpp"
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "tests/engine/engine_test_support.hpp"
#include "tests/support/test_support.hpp"

namespace xenon::genomics {
namespace {

std::vector<std::byte> bytes_of(const Payload& payload) {
  return {payload.bytes().begin(), payload.bytes().end()};
}

// A slice names the whole filter's size and its place in it; one that does not fit in its
// filter is refused. A store's part of a slice says how many parts the slice has.
TEST(FilterSlice, NamesItsPlaceInTheWholeFilter) {
  KmerBloomFilter filter = KmerBloomFilter::with_words(10);
  for (std::uint64_t i = 0; i < 200; ++i) filter.insert(i * 0x9e3779b97f4a7c15ULL);
  const std::vector<std::byte> bytes = bytes_of(FilterSlice::encode(filter, {3, 7}));
  const FilterSlice slice = FilterSlice::view(bytes);
  EXPECT_EQ(slice.filter_words, 10u);
  EXPECT_EQ(slice.first_word, 3u);
  EXPECT_EQ(slice.word_count(), 4u);
  const std::vector<std::byte> whole = filter.to_bytes();
  EXPECT_TRUE(std::equal(slice.words.begin(), slice.words.end(), whole.begin() + 24)) << "words 3 to 7";
  EXPECT_THROW(FilterSlice::view(std::span(bytes).first(15)), std::invalid_argument);
  EXPECT_THROW(FilterSlice::view(std::span(bytes).first(bytes.size() - 4)), std::invalid_argument);
  std::vector<std::byte> past_the_end = bytes;
  store_le64(past_the_end.data() + 8, 7);  // words 7 to 11 of 10
  EXPECT_THROW(FilterSlice::view(past_the_end), std::invalid_argument);
  std::vector<std::byte> no_filter = bytes;
  store_le64(no_filter.data(), 0);
  EXPECT_THROW(FilterSlice::view(no_filter), std::invalid_argument);
  EXPECT_THROW(FilterSlice::encode(filter, {8, 11}), std::invalid_argument);

  const std::vector<std::byte> part_bytes = bytes_of(FilterPart::encode(3, filter, {3, 7}));
  const FilterPart part = FilterPart::view(part_bytes);
  EXPECT_EQ(part.parts, 3u);
  EXPECT_EQ(part.slice.first_word, 3u);
  EXPECT_TRUE(std::equal(part.slice.words.begin(), part.slice.words.end(), slice.words.begin(), slice.words.end()));
  std::vector<std::byte> no_parts = part_bytes;
  store_le64(no_parts.data(), 0);
  EXPECT_THROW(FilterPart::view(no_parts), std::invalid_argument);
}

TEST(FilterRound, TravelsAsBytesOfTheSizeItSays) {
  FilterRound round;
  round.keepers = {ActorName::from_value(3), ActorName::from_value(5)};
  round.parsers = {ActorName::from_value(11)};
  round.filter_k = 21;
  round.carried = "ACGTACGTACGTACGTACGTAC\nTTTTGGGGCCCCAAAATTTTGG\n";
  const std::vector<std::byte> bytes = bytes_of(round.encode());
  const FilterRound back = FilterRound::decode(bytes);
  EXPECT_EQ(back.keepers, round.keepers);
  EXPECT_EQ(back.parsers, round.parsers);
  EXPECT_EQ(back.filter_k, 21u);
  EXPECT_EQ(back.carried, round.carried);
  // Cut inside the names or the k: refused (the sequences run to the end, any length).
  for (const std::size_t size : {std::size_t{0}, std::size_t{15}, std::size_t{16 + 8 * 3 - 1}}) {
    EXPECT_THROW(FilterRound::decode(std::span(bytes).first(size)), std::invalid_argument) << size;
  }
  EXPECT_TRUE(FilterRound::decode(std::span(bytes).first(16 + 8 * 3)).carried.empty());
  std::vector<std::byte> no_k = bytes;
  store_le32(no_k.data() + 8 + 8 * 3, 0);
  EXPECT_THROW(FilterRound::decode(no_k), std::invalid_argument) << "a round of no k";
}

TEST(FilterAdditions, TravelAsBytesOfTheSizeTheySay) {
  const std::vector<KmerBloomFilter::WordBits> additions = {{2, 0x10}, {9, 0x8001}};
  const std::vector<std::byte> bytes = bytes_of(FilterAdditions::encode(additions));
  EXPECT_EQ(bytes.size(), 8u + 2 * 16);
  EXPECT_EQ(FilterAdditions::decode(bytes), additions);
  EXPECT_TRUE(FilterAdditions::decode(bytes_of(FilterAdditions::encode({}))).empty());
  for (const std::size_t size : {std::size_t{0}, std::size_t{7}, std::size_t{24}, bytes.size() - 1}) {
    EXPECT_THROW(FilterAdditions::decode(std::span(bytes).first(size)), std::invalid_argument) << size;
  }
  std::vector<std::byte> longer = bytes;
  longer.resize(bytes.size() + 16);
  EXPECT_THROW(FilterAdditions::decode(longer), std::invalid_argument) << "an addition more than it says";
}

// What each stand-in parser was given.
struct Deliveries {
  std::mutex mutex;
  std::vector<KmerBloomFilter> filters;
};

// Takes the filter as a parser does, and says so.
class StandInParser : public Actor {
 public:
  explicit StandInParser(Deliveries& deliveries) : deliveries_(deliveries) {}
  void receive(const Message& message) override {
    if (message.action() == ACTION_PARSER_FILTER) {
      const std::lock_guard lock(deliveries_.mutex);
      deliveries_.filters.push_back(KmerBloomFilter::from_bytes(message.payload()));
      reply(message, ACTION_PARSER_FILTER_TAKEN);
    } else if (message.action() == ACTION_COUNTER_STOP) {
      stop();
    }
  }

 private:
  Deliveries& deliveries_;
};

// Plays the first round's stores (each keeper its part of the keeper's slice) and `rounds`
// later rounds' coordinators (each node's parsers and share of the carried sequences; the
// first to every other keeper before its slice is whole), then stops everyone once every
// keeper has delivered every round.
class RoundDriver : public Actor {
 public:
  RoundDriver(std::size_t nodes, std::size_t parsers_a_node, std::vector<KmerBloomFilter> stores_filters,
              std::string carried, std::size_t rounds, Deliveries& deliveries, std::vector<std::uint64_t>& words_added)
      : nodes_(nodes), parsers_a_node_(parsers_a_node), stores_filters_(std::move(stores_filters)),
        carried_(std::move(carried)), rounds_(rounds), deliveries_(deliveries), words_added_(words_added) {}

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == testing::ACTION_START) {
      for (std::size_t node = 0; node < nodes_; ++node) {
        keepers_.push_back(spawn_on<FilterKeeper>(static_cast<int>(node) % worker_count()));
        for (std::size_t parser = 0; parser < parsers_a_node_; ++parser) {
          parsers_.push_back(spawn_on<StandInParser>(static_cast<int>(parser) % worker_count(), deliveries_));
        }
      }
      // Every store its part of every keeper's slice; the round before the parts to every
      // other keeper (nothing orders the first round's stores and a later coordinator).
      const std::size_t words = stores_filters_.front().words();
      for (std::size_t node = 0; node < nodes_; ++node) {
        if (node % 2 == 1) begin_round(node);
        for (std::size_t store = 0; store < stores_filters_.size(); ++store) {
          send(keepers_[node], ACTION_FILTER_PART,
               FilterPart::encode(stores_filters_.size(), stores_filters_[store], filter_slice(words, nodes_, node)));
        }
        if (node % 2 == 0) begin_round(node);
      }
    } else if (action == ACTION_FILTER_DELIVERED) {
      words_added_.push_back(message.payload_as<std::uint64_t>());
      if (words_added_.size() % nodes_ != 0) return;
      if (words_added_.size() < rounds_ * nodes_) {  // the next round, with the same slices
        for (std::size_t node = 0; node < nodes_; ++node) begin_round(node);
        return;
      }
      for (const ActorName keeper : keepers_) send(keeper, ACTION_COUNTER_STOP);
      for (const ActorName parser : parsers_) send(parser, ACTION_COUNTER_STOP);
    } else if (action == ACTION_CHILD_STOPPED) {
      EXPECT_EQ(message.payload_size(), 0u) << "a keeper or parser failed: "
                                             << std::string(reinterpret_cast<const char*>(message.payload().data()),
                                                            message.payload_size());
      if (++stopped_ == keepers_.size() + parsers_.size()) stop();
    }
  }

 private:
  void begin_round(std::size_t node) {
    FilterRound round;
    round.keepers = keepers_;
    round.parsers.assign(parsers_.begin() + static_cast<std::ptrdiff_t>(node * parsers_a_node_),
                         parsers_.begin() + static_cast<std::ptrdiff_t>((node + 1) * parsers_a_node_));
    round.filter_k = 21;
    round.carried = carried_share(carried_, nodes_, node);
    send(keepers_[node], ACTION_FILTER_ROUND, round.encode());
  }

  std::size_t nodes_;
  std::size_t parsers_a_node_;
  std::vector<KmerBloomFilter> stores_filters_;  // whose union is the first round's filter
  std::string carried_;
  std::size_t rounds_;
  Deliveries& deliveries_;
  std::vector<std::uint64_t>& words_added_;
  std::vector<ActorName> keepers_;
  std::vector<ActorName> parsers_;
  std::size_t stopped_ = 0;
};

// Every parser of every node gets the union of the first round's stores' filters with the
// carried k-mers' additions, whole, however many nodes (a keeper each) and parsers a node
// there are; each keeper says so once.
TEST(FilterKeepers, PutTheRoundsFilterTogetherForEveryParser) {
  testing::Watchdog watchdog("filter keepers");
  std::mt19937_64 random(11);
  const auto random_sequences = [&random](int count) {
    std::string sequences;
    for (int sequence = 0; sequence < count; ++sequence) {
      std::string bases(60, 'A');
      for (char& base : bases) base = "ACGT"[random() % 4];
      sequences += bases + "\n";
    }
    return sequences;
  };
  // Carried sequences whose k-mers the first round's filter mostly has already (as in a run:
  // they were solid), with some it lacks; or only those it has.
  const std::string known = random_sequences(40);
  const std::string lacking = random_sequences(4);
  // A filter of thousands of words, and one of 3: more keepers than words leave some slices
  // empty, which must not end a round before every keeper's slice is in.
  for (const std::uint64_t words : {KmerBloomFilter::bytes_for(5000) / 8, std::uint64_t{3}}) {
    // Three stores' filters, each with its own k-mers, the known carried ones among them.
    std::vector<KmerBloomFilter> stores_filters(3, KmerBloomFilter::with_words(words));
    KmerBloomFilter first = KmerBloomFilter::with_words(words);
    for (int i = 0; i < 3000; ++i) {
      const std::uint64_t hash = random();
      if (words < 10 && i > 5) break;  // a few bits in a few words
      stores_filters[static_cast<std::size_t>(i) % 3].insert(hash);
      first.insert(hash);
    }
    std::size_t store = 0;
    for (const KmerBloomFilter::WordBits& bits : carried_kmer_additions(KmerBloomFilter::with_words(words), known, 21)) {
      stores_filters[store++ % 3].add(bits);
      first.add(bits);
    }
    for (const std::string& carried : {known + lacking, known}) {
      const std::vector<KmerBloomFilter::WordBits> additions = carried_kmer_additions(first, carried, 21);
      if (carried == known) {
        ASSERT_TRUE(additions.empty());
      } else if (words > 10) {
        ASSERT_FALSE(additions.empty());
      }
      KmerBloomFilter expected = first;
      for (const KmerBloomFilter::WordBits& addition : additions) expected.add(addition);

      for (const std::size_t nodes : {1u, 3u, 8u}) {
        for (const std::size_t parsers_a_node : {0u, 1u, 2u}) {
          Deliveries deliveries;
          std::vector<std::uint64_t> words_added;
          Engine engine(testing::with_threads(2));
          engine.send(engine.spawn<RoundDriver>(nodes, parsers_a_node, stores_filters, carried, 2, deliveries, words_added),
                      testing::ACTION_START);
          engine.run();
          const std::string where = std::to_string(nodes) + " nodes, " + std::to_string(words) + " words";
          // Every keeper added the words one scan of every carried k-mer finds, in both rounds.
          EXPECT_EQ(words_added, std::vector<std::uint64_t>(2 * nodes, additions.size())) << where;
          ASSERT_EQ(deliveries.filters.size(), 2 * nodes * parsers_a_node) << where;
          for (const KmerBloomFilter& filter : deliveries.filters) EXPECT_EQ(filter, expected) << where;
          EXPECT_EQ(engine.statistics().dead_letters, 0u);
        }
      }
    }
  }
}

// Sends a keeper the same keeper's slice twice, as if two keepers' slices had come: the
// keeper stops with the error, and no filter with a slice missing goes out.
class TwiceSender : public Actor {
 public:
  explicit TwiceSender(std::string& failure) : failure_(failure) {}

  void receive(const Message& message) override {
    if (message.action() == testing::ACTION_START) {
      const ActorName keeper = spawn<FilterKeeper>();
      const KmerBloomFilter filter = KmerBloomFilter::with_words(4);
      const Payload slice = FilterSlice::encode(filter, WordRange{0, 2});
      send(keeper, ACTION_FILTER_SHARE, slice.share());
      send(keeper, ACTION_FILTER_SHARE, slice.share());
    } else if (message.action() == ACTION_CHILD_STOPPED) {
      failure_.assign(reinterpret_cast<const char*>(message.payload().data()), message.payload_size());
      stop();
    }
  }

 private:
  std::string& failure_;
};

TEST(FilterKeepers, RefuseASecondSliceFromOneKeeper) {
  testing::Watchdog watchdog("filter keepers");
  std::string failure;
  Engine engine(testing::with_threads(1));
  engine.send(engine.spawn<TwiceSender>(failure), testing::ACTION_START);
  engine.run();
  EXPECT_NE(failure.find("a second filter slice from one sender"), std::string::npos) << failure;
}

}  // namespace
}  // namespace xenon::genomics
