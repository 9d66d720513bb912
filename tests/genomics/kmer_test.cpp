// SPDX-License-Identifier: BSD-3-Clause
// The k-mer building blocks: canonical k-mers against a plain string computation, the
// bijective hash, the count table against std::map, the probing of the fixed-size tables, and
// the histogram's formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_count_table.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/kmer_histogram.hpp"
#include "genomics/kmer/linear_probing.hpp"
#include "tests/support/test_support.hpp"

namespace {

using namespace xenon::genomics;

std::string reverse_complement(const std::string& bases) {
  std::string out(bases.rbegin(), bases.rend());
  for (char& c : out) {
    switch (c) {
      case 'A': c = 'T'; break;
      case 'C': c = 'G'; break;
      case 'G': c = 'C'; break;
      default: c = 'A'; break;
    }
  }
  return out;
}

// Canonical k-mers the slow way: every window of ACGT (any case), as upper-case strings.
std::vector<std::string> expected_kmers(const std::string& sequence, int k) {
  std::vector<std::string> kmers;
  const auto length = static_cast<std::size_t>(k);
  for (std::size_t start = 0; start + length <= sequence.size(); ++start) {
    std::string window = sequence.substr(start, length);
    std::transform(window.begin(), window.end(), window.begin(),
                   [](char c) { return static_cast<char>(std::toupper(c)); });
    if (window.find_first_not_of("ACGT") != std::string::npos) continue;
    kmers.push_back(std::min(window, reverse_complement(window)));
  }
  return kmers;
}

std::string random_sequence(std::mt19937_64& random, std::size_t length) {
  static constexpr char kAlphabet[] = "ACGTACGTACGTacgtNRY";
  std::string sequence(length, 'A');
  for (char& c : sequence) c = kAlphabet[random() % (sizeof kAlphabet - 1)];
  return sequence;
}

template <int Words>
std::vector<std::string> scanned_kmers(const std::vector<std::string>& pieces, int k) {
  KmerScanner<Words> scanner(k);
  std::vector<std::string> kmers;
  for (const std::string& piece : pieces) {
    scanner.feed(piece, [&](const PackedKmer<Words>& kmer) { kmers.push_back(kmer_to_string<Words>(kmer, k)); });
  }
  return kmers;
}

class KmerScannerTest : public ::testing::TestWithParam<int> {};

TEST_P(KmerScannerTest, FindsTheCanonicalFormOfEveryWindowOfBases) {
  const int k = GetParam();
  std::mt19937_64 random(static_cast<std::uint64_t>(k));
  for (int round = 0; round < 20; ++round) {
    const std::string sequence = random_sequence(random, 300);
    const std::vector<std::string> expected = expected_kmers(sequence, k);
    // Whole, and cut into pieces as FASTA lines are: the same k-mers.
    std::vector<std::string> pieces;
    for (std::size_t at = 0; at < sequence.size();) {
      const std::size_t length = 1 + random() % 70;
      pieces.push_back(sequence.substr(at, length));
      at += length;
    }
    if (kmer_words(k) == 1) {
      EXPECT_EQ(scanned_kmers<1>({sequence}, k), expected);
      EXPECT_EQ(scanned_kmers<1>(pieces, k), expected);
    } else if (kmer_words(k) == 2) {
      EXPECT_EQ(scanned_kmers<2>({sequence}, k), expected);
      EXPECT_EQ(scanned_kmers<2>(pieces, k), expected);
    } else {
      EXPECT_EQ(scanned_kmers<4>({sequence}, k), expected);
      EXPECT_EQ(scanned_kmers<4>(pieces, k), expected);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Lengths, KmerScannerTest,
                         ::testing::Values(1, 2, 5, 21, 31, 32, 33, 47, 55, 63, 64, 65, 77, 95, 96,
                                           97, 99, 127, 128));

TEST(KmerScanner, ResetStartsANewSequence) {
  KmerScanner<1> scanner(3);
  int found = 0;
  const auto count = [&](const PackedKmer<1>&) { ++found; };
  scanner.feed("AC", count);
  scanner.reset();
  scanner.feed("G", count);
  EXPECT_EQ(found, 0);  // "ACG" would span the reset
  scanner.feed("TA", count);
  EXPECT_EQ(found, 1);  // "GTA"
}

TEST(KmerHash, IsABijectionForOneTwoAndFourWords) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 100000; ++i) {
    const PackedKmer<1> one{random()};
    EXPECT_EQ(kmer_of<1>(key_of<1>(one)), one);
    const PackedKmer<2> two{random(), random()};
    EXPECT_EQ(kmer_of<2>(key_of<2>(two)), two);
    const PackedKmer<4> four{random() >> 2, random(), random(), random()};
    EXPECT_EQ(kmer_of<4>(key_of<4>(four)), four);
    const PackedKmer<4> short_four{0, random() >> 40, random(), random()};  // k = 76: the first word is 0
    EXPECT_EQ(kmer_of<4>(key_of<4>(short_four)), short_four);
  }
}

TEST(KmerHash, SpreadsKeysEvenlyOverStores) {
  std::mt19937_64 random(11);
  for (const std::uint32_t stores : {2u, 3u, 7u, 64u}) {
    std::vector<int> per_store(stores, 0);
    const int keys = 200000;
    for (int i = 0; i < keys; ++i) {
      // Consecutive k-mers, as similar as real ones get: the hash must still spread them.
      ++per_store[store_of<1>(key_of<1>({static_cast<std::uint64_t>(i)}), stores)];
    }
    for (const int count : per_store) {
      EXPECT_NEAR(count, keys / static_cast<int>(stores), keys / static_cast<int>(stores) / 10);
    }
  }
}

template <int Words>
void expect_table_matches_map(int distinct, int insertions, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<KmerKey<Words>> pool(static_cast<std::size_t>(distinct));
  for (auto& key : pool) {
    for (auto& word : key) word = random();
  }
  KmerKey<Words> marker;  // the routing value that marks empty slots must still count
  marker.fill(~std::uint64_t{0});
  pool.push_back(marker);
  KmerCountTable<Words> table;
  std::map<KmerKey<Words>, std::uint64_t> expected;
  std::vector<KmerKey<Words>> batch;
  for (int i = 0; i < insertions; ++i) {
    const KmerKey<Words>& key = pool[random() % pool.size()];
    ++expected[key];
    batch.push_back(key);
    if (batch.size() == 1000) {
      table.add_all(batch);
      batch.clear();
    }
  }
  for (const auto& key : batch) table.add(key);
  std::map<KmerKey<Words>, std::uint64_t> counted;
  table.for_each([&](const KmerKey<Words>& key, std::uint64_t count) {
    EXPECT_TRUE(counted.emplace(key, count).second) << "a key was visited twice";
  });
  EXPECT_EQ(table.distinct(), expected.size());
  EXPECT_EQ(counted, expected);
  // count_of: each key's count, and 0 for keys never added.
  for (const auto& [key, count] : expected) ASSERT_EQ(table.count_of(key), count);
  for (int i = 0; i < 1000; ++i) {
    KmerKey<Words> absent;
    for (auto& word : absent) word = random();
    if (expected.count(absent) == 0) {
      ASSERT_EQ(table.count_of(absent), 0u);
    }
  }
}

TEST(KmerCountTable, AnEmptyTableCountsNothing) {
  const KmerCountTable<2> table;
  EXPECT_EQ(table.count_of(KmerKey<2>{1, 2}), 0u);
}

// A count past what a slot holds (2^32 - 1) is the slot's and the rest kept aside, together.
TEST(KmerCountTable, CountsPastASlotsLimitCountWhole) {
  KmerCountTable<1> table;
  table.insert_new(KmerKey<1>{12345}, std::uint64_t{1} << 33);
  table.add(KmerKey<1>{12345});
  EXPECT_EQ(table.count_of(KmerKey<1>{12345}), (std::uint64_t{1} << 33) + 1);
}

TEST(KmerCountTable, CountsLikeAMapThroughEveryGrowth) {
  if (xenon::testing::under_thread_sanitizer()) GTEST_SKIP() << "one thread only: nothing for ThreadSanitizer";
  expect_table_matches_map<1>(300000, 1000000, 1);
  expect_table_matches_map<2>(200000, 600000, 2);
  expect_table_matches_map<4>(100000, 300000, 4);
}

// Bytes this process holds in memory now (resident set, /proc/self/statm).
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4096;
}

// Every part grows several times while buffers come and go, as messages do in a store; the
// arrays a part grew out of must not stay resident (through malloc they stayed as holes under
// the live buffers: 15% above the buckets here, and a seventh of a counter's peak).
TEST(KmerCountTable, HoldsNoMoreThanItsBucketsAfterGrowing) {
  if (xenon::testing::under_sanitizer()) GTEST_SKIP() << "a sanitizer's allocator keeps freed memory on purpose";
  std::mt19937_64 random(7);
  const std::uint64_t before = resident_bytes();
  KmerCountTable<1> table;
  std::vector<std::string> in_flight(8);
  for (int i = 0; i < 2000000; ++i) {
    table.add(KmerKey<1>{random()});
    if (i % 4096 == 0) in_flight[static_cast<std::size_t>(i / 4096) % in_flight.size()] = std::string(256 << 10, 'x');
  }
  in_flight = {};
  const std::uint64_t grown = resident_bytes() - before;
  EXPECT_EQ(table.distinct(), 2000000u);
  EXPECT_LT(grown, table.memory_bytes() + table.memory_bytes() / 20 + (1u << 20))
      << "the table's buckets are " << table.memory_bytes() << " bytes";
  table.clear();
  EXPECT_LT(resident_bytes(), before + (1u << 20)) << "clearing gives the buckets back";
}

TEST(KmerHistogram, WritesJellyfishHistoWithCountsAboveTheHighMarkAddedUp) {
  KmerHistogram histogram;
  histogram.add(1, 5);
  histogram.add(3, 2);
  histogram.add(10000, 1);
  histogram.add(10001, 4);
  histogram.add(250000, 6);
  EXPECT_EQ(histogram.jellyfish_text(), "1 5\n3 2\n10000 1\n10001 10\n");
  EXPECT_EQ(histogram.distinct_kmers(), 18u);
  EXPECT_EQ(histogram.total_kmers(), 5u + 6 + 10000 + 40004 + 1500000);
  EXPECT_EQ(histogram.unique_kmers(), 5u);
  EXPECT_EQ(histogram.max_count(), 250000u);
}

TEST(LinearProbing, SizesForHalfFullAndProbesOnPastTheEndToTheStart) {
  EXPECT_EQ(LinearProbing(0).slots(), 16u);
  EXPECT_EQ(LinearProbing(8).slots(), 16u);
  EXPECT_EQ(LinearProbing(9).slots(), 18u);  // twice the entries, no power of two
  EXPECT_EQ(LinearProbing(1000000).slots(), 2000000u);
  const LinearProbing probing(8);
  std::vector<int> keys(16, -1);  // -1: empty
  const auto insert = [&](std::uint64_t hash, int key) {
    const std::size_t slot = probing.probe(hash, [&](std::size_t at) { return keys[at] == -1; },
                                           [&](std::size_t at) { return keys[at] == key; });
    keys[slot] = key;
    return slot;
  };
  const auto high = [](std::uint64_t sixteenths) { return sixteenths << 60; };
  EXPECT_EQ(insert(high(14) + 12345, 1), 14u);  // the hash's high bits, scaled to the slots
  EXPECT_EQ(insert(high(14), 2), 15u);
  EXPECT_EQ(insert(high(15), 3), 0u);            // past the end, on from the start
  EXPECT_EQ(insert(high(14), 2), 15u);           // found where it is
  EXPECT_EQ(insert(5, 4), 1u);
  EXPECT_EQ(LinearProbing(9).home(~std::uint64_t{0}), 17u);  // the last slot of 18
}

TEST(LinearProbing, SizesForAGivenFillWithAtLeastOneSlotEmpty) {
  EXPECT_EQ(LinearProbing(0, 0.6).slots(), 16u);
  EXPECT_EQ(LinearProbing(9, 0.6).slots(), 16u);
  EXPECT_EQ(LinearProbing(600, 0.6).slots(), 1001u);      // 600 in 1000 would be 0.6 full: one more
  EXPECT_EQ(LinearProbing(1000000, 0.5).slots(), 2000001u);
  EXPECT_EQ(LinearProbing(100, 1.0).slots(), 101u);       // full never: a miss's probe must end
  EXPECT_THROW(LinearProbing(100, 0.0), std::invalid_argument);
  EXPECT_THROW(LinearProbing(100, 2.0), std::invalid_argument);
  EXPECT_THROW(LinearProbing(100, -0.5), std::invalid_argument);
  for (const std::size_t entries : {17u, 1000u, 123457u}) {
    const LinearProbing probing(entries, 0.6);
    EXPECT_LE(static_cast<double>(entries) / static_cast<double>(probing.slots()), 0.6) << entries;
    EXPECT_GT(probing.slots(), entries);
  }
}

TEST(KmerHistogram, SurvivesItsMessageFormatAndRejectsPartialPairs) {
  KmerHistogram histogram;
  histogram.add(1, 7);
  histogram.add(4095, 1);
  histogram.add(4096, 2);
  histogram.add(std::uint64_t{1} << 40, 3);
  const std::vector<std::byte> bytes = histogram.to_bytes();
  EXPECT_EQ(KmerHistogram::from_bytes(bytes), histogram);
  EXPECT_THROW(KmerHistogram::from_bytes(std::span(bytes).first(bytes.size() - 1)),
               std::invalid_argument);
  KmerHistogram merged;
  merged.merge(histogram);
  merged.merge(histogram);
  EXPECT_EQ(merged.distinct_kmers(), 2 * histogram.distinct_kmers());
}

}  // namespace
