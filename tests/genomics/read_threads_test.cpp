// SPDX-License-Identifier: BSD-3-Clause
// ReadThreads: where a read's k-mers lie among the unitig ends, and the counts of the
// evidence (each sum is 32 bits and refuses to wrap).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/read_threads.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

constexpr std::uint32_t kMost = std::numeric_limits<std::uint32_t>::max();

// Unitigs cut from `genome` as a de Bruijn graph has them (neighbours share k - 1 bases), their
// ends as ReadThreads::ends_of gives them for `span` k-mers.
std::vector<UnitigEnds> ends_of_pieces(const std::string& genome, const std::vector<std::size_t>& lengths,
                                       std::size_t k, std::size_t span) {
  std::vector<UnitigEnds> ends;
  std::size_t at = 0;
  for (const std::size_t bases : lengths) {
    ends.push_back(UnitigEnds::of(std::string_view(genome).substr(at, bases), k, span));
    at += bases - (k - 1);
  }
  return ends;
}

// next_place() rolls each k-mer on from the one before: it must find what place() finds,
// trying every step-th k-mer, for every step (shorter and longer than k) and start, of every
// width of k-mer.
TEST(ReadThreadsPlaces, TheSearchFindsTheFirstKmerThatPlaceFinds) {
  std::mt19937_64 random(7);
  for (const int k : {21, 45, 77}) {
    const auto bases_k = static_cast<std::size_t>(k);
    const std::vector<std::size_t> lengths{bases_k + 3, 400, bases_k, 1500, 90 + bases_k, 700};
    std::size_t genome_bases = bases_k - 1;
    for (const std::size_t length : lengths) genome_bases += length - (bases_k - 1);
    const std::string genome = xenon::testing::random_bases(random, genome_bases);
    const ReadThreads threads(ends_of_pieces(genome, lengths, bases_k, 60), k, 60);
    std::size_t placed_searches = 0;
    for (int read = 0; read < 40; ++read) {
      // Half the reads from the genome (with an error), half random bases, which rarely place.
      std::string bases = read % 2 == 0 ? genome.substr(random() % (genome.size() - 200), 200)
                                        : xenon::testing::random_bases(random, 200);
      bases[random() % bases.size()] = 'A';
      for (const std::size_t step : {std::size_t{1}, std::size_t{5}, bases_k - 1, bases_k, bases_k + 2}) {
        for (std::size_t from = 0; from < bases.size(); from += 17) {
          std::size_t expected_at = from;
          std::optional<ReadThreads::Place> expected;
          for (; expected_at + bases_k <= bases.size(); expected_at += step) {
            expected = threads.place(bases, expected_at);
            if (expected) break;
          }
          std::size_t found = 0;
          const std::optional<ReadThreads::Place> placed = threads.next_place(bases, from, step, found);
          ASSERT_EQ(placed.has_value(), expected.has_value()) << "k " << k << " step " << step << " from " << from;
          ASSERT_EQ(found, expected_at) << "k " << k << " step " << step << " from " << from;
          if (placed) {
            ++placed_searches;
            EXPECT_EQ(placed->unitig, expected->unitig);
            EXPECT_EQ(placed->offset, expected->offset);
          }
        }
      }
    }
    EXPECT_GT(placed_searches, 100u) << "k " << k;  // the reads from the genome place
  }
}

// Known answers, which the comparison above cannot give (both go through the index): each
// k-mer of a read cut from the genome lies in the unitig that holds it, at its offset there,
// where that is near enough an end to be indexed, read forward or reverse complemented; a read
// of random bases places nowhere.
TEST(ReadThreadsPlaces, EachKmerOfTheGenomeIsPlacedWhereItsUnitigHoldsIt) {
  std::mt19937_64 random(11);
  constexpr std::size_t kK = 21;
  constexpr std::size_t kSpan = 50;
  const std::vector<std::size_t> lengths{kK + 3, 400, kK, 1500, 90 + kK, 700};
  std::size_t genome_bases = kK - 1;
  for (const std::size_t length : lengths) genome_bases += length - (kK - 1);
  const std::string genome = xenon::testing::random_bases(random, genome_bases);
  const ReadThreads threads(ends_of_pieces(genome, lengths, kK, kSpan), kK, kSpan);
  std::vector<std::size_t> first_kmer{0};  // of each unitig, in the genome
  for (const std::size_t length : lengths) first_kmer.push_back(first_kmer.back() + length - (kK - 1));
  std::size_t indexed = 0;
  for (std::size_t at = 0; at + kK <= genome.size(); ++at) {
    std::size_t unitig = 0;
    while (at >= first_kmer[unitig + 1]) ++unitig;
    const std::size_t kmers = lengths[unitig] - kK + 1;
    const std::size_t offset = at - first_kmer[unitig];
    const bool near_an_end = kmers <= 2 * kSpan || offset < kSpan || offset >= kmers - kSpan;
    const std::string kmer = genome.substr(at, kK);
    const std::string reverse = reverse_complement(kmer);
    const std::optional<ReadThreads::Place> forward = threads.place(kmer, 0);
    const std::optional<ReadThreads::Place> backward = threads.place(reverse, 0);
    ASSERT_EQ(forward.has_value(), near_an_end) << "k-mer " << at;
    ASSERT_EQ(backward.has_value(), near_an_end) << "k-mer " << at;
    if (!near_an_end) continue;
    ++indexed;
    EXPECT_EQ(forward->unitig, 2 * unitig) << "k-mer " << at;
    EXPECT_EQ(forward->offset, offset) << "k-mer " << at;
    EXPECT_EQ(backward->unitig, 2 * unitig + 1) << "k-mer " << at;
    EXPECT_EQ(backward->offset, kmers - 1 - offset) << "k-mer " << at;
  }
  // The short unitigs whole (4, 1 and 91 k-mers), 2 x 50 of each of the three long ones.
  EXPECT_EQ(indexed, 4u + 1u + 91u + 3u * 2u * kSpan);
  for (int read = 0; read < 200; ++read) {
    const std::string bases = xenon::testing::random_bases(random, 150);
    std::size_t found = 0;
    EXPECT_FALSE(threads.next_place(bases, 0, 1, found).has_value()) << bases;
  }
}

TEST(ReadThreadsPlaces, EndsThatDoNotMatchTheirSpanAreRefused) {
  std::mt19937_64 random(5);
  const std::string unitig = xenon::testing::random_bases(random, 300);
  // Kept whole, but 280 k-mers where a span of 100 keeps at most 200: it would overfill the
  // slots sized for 200.
  const std::vector<UnitigEnds> overfull{{280, unitig, {}}};
  EXPECT_THROW(ReadThreads(overfull, 21, 100), std::invalid_argument);
  EXPECT_NO_THROW(ReadThreads(overfull, 21, 140));
}

TEST(ReadThreadsPlaces, ACountingOnlyObjectPlacesNothingAndEndsTheSearchPastTheRead) {
  const ReadThreads threads(31);
  const std::string bases(100, 'C');
  std::size_t found = 0;
  EXPECT_FALSE(threads.next_place(bases, 3, 7, found).has_value());
  EXPECT_EQ(found, 73u);  // 3 + 7 * 10: the first start with fewer than k bases after it
  EXPECT_FALSE(threads.place(bases, 0).has_value());
}

TEST(ReadThreadsCounts, APassageCountedPastThirtyTwoBitsIsRefusedNotWrapped) {
  ReadThreads threads(31);
  threads.add_passages(0, 2, 4, kMost - 1);
  threads.add_passages(5, 3, 1, 1);  // the same passage read the other way
  EXPECT_EQ(threads.passages(0, 2, 4), kMost);
  EXPECT_THROW(threads.add_passages(0, 2, 4, 1), std::overflow_error);
  threads.add_passages(0, 2, 6, kMost);  // another passage counts on its own
  EXPECT_EQ(threads.passages(0, 2, 6), kMost);
}

TEST(ReadThreadsCounts, APathTakenByMoreReadsThanThirtyTwoBitsHoldIsRefused) {
  ReadThreads threads(31);
  const std::vector<std::vector<ReadThreads::Oriented>> runs{{0, 2}};
  threads.add_traced(runs, "", kMost);
  EXPECT_EQ(threads.next_after({0}), (std::map<ReadThreads::Oriented, std::uint32_t>{{2, kMost}}));
  EXPECT_THROW(threads.add_traced(runs, "", 1), std::overflow_error);
}

TEST(ReadThreadsCounts, APairOfWaysSeenMoreTimesThanThirtyTwoBitsHoldIsRefused) {
  ReadThreads threads(31);
  const std::vector<ReadThreads::CompactOriented> first{0};
  const std::vector<ReadThreads::CompactOriented> second{3};
  threads.add_pair(first, second, kMost - 2);
  threads.add_pair(first, second, 2);
  EXPECT_EQ(threads.mates_after(0, {2}), (std::map<ReadThreads::Oriented, std::uint32_t>{{2, kMost}}));
  EXPECT_THROW(threads.add_pair(first, second, 1), std::overflow_error);
}

}  // namespace
