// SPDX-License-Identifier: BSD-3-Clause
// EndIndex sliced among owners: each owner places exactly the k-mers it owns that the whole
// index places, where the whole index places them, and its lookups stay as short.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/end_index.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

// Unitigs cut from a random genome as a de Bruijn graph has them (neighbours share k - 1
// bases), cut for `span` k-mers, with two that hold the k-mers of others again: a copy of a
// unitig (a settled repeat's copies) and one that ends where the genome begins (a cycle's
// seam). Their k-mers are ambiguous, and no index may place them.
struct CutGenome {
  std::string genome;
  std::vector<UnitigEnds> ends;
};

CutGenome cut_genome(std::mt19937_64& random, std::size_t k, std::size_t span, std::size_t unitigs) {
  std::vector<std::size_t> lengths;
  for (std::size_t i = 0; i < unitigs; ++i) lengths.push_back(k + random() % (i % 3 == 0 ? 40 : 3 * span));
  std::size_t bases = k - 1;
  for (const std::size_t length : lengths) bases += length - (k - 1);
  CutGenome cut{xenon::testing::random_bases(random, bases), {}};
  std::size_t at = 0;
  for (const std::size_t length : lengths) {
    cut.ends.push_back(UnitigEnds::of(std::string_view(cut.genome).substr(at, length), k, span));
    at += length - (k - 1);
  }
  cut.ends.push_back(cut.ends[1]);
  const std::string seam = cut.genome.substr(cut.genome.size() - 10) + cut.genome.substr(0, k + 5);
  cut.ends.push_back(UnitigEnds::of(seam, k, span));
  return cut;
}

bool same_place(const std::optional<EndIndex::Place>& a, const std::optional<EndIndex::Place>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->unitig == b->unitig && a->offset == b->offset);
}

TEST(EndIndexSlices, EachOwnerPlacesTheKmersItOwnsAsTheWholeIndexDoes) {
  std::mt19937_64 random(3);
  for (const int k : {21, 45, 77}) {
    const auto bases_k = static_cast<std::size_t>(k);
    for (const std::size_t span : {std::size_t{1}, std::size_t{7}, std::size_t{120}, std::size_t{1024}}) {
      const CutGenome cut = cut_genome(random, bases_k, span, 12);
      const EndIndex whole(cut.ends, k, span);
      // Every k-mer of the genome both ways, and random ones, which place nowhere.
      std::vector<std::string> kmers;
      for (std::size_t at = 0; at + bases_k <= cut.genome.size(); ++at) {
        kmers.push_back(cut.genome.substr(at, bases_k));
        kmers.push_back(reverse_complement(kmers.back()));
      }
      for (int i = 0; i < 200; ++i) kmers.push_back(xenon::testing::random_bases(random, bases_k));
      std::size_t placed = 0;
      for (const std::string& kmer : kmers) placed += whole.place(kmer, 0).has_value() ? 1 : 0;
      ASSERT_GE(placed, 20u) << "k " << k << " span " << span;  // at span 1, two k-mers a unitig, both ways
      for (std::size_t owners = 1; owners <= 8; ++owners) {
        std::vector<EndIndex> slices;
        std::size_t entries = 0;
        for (std::size_t owner = 0; owner < owners; ++owner) {
          slices.emplace_back(cut.ends, k, span, owner, owners);
          entries += slices.back().entries();
          ASSERT_EQ(slices.back().unitigs(), whole.unitigs());
        }
        EXPECT_EQ(entries, whole.entries()) << "k " << k << " span " << span << " owners " << owners;
        for (const std::string& kmer : kmers) {
          const std::size_t owner = slices[0].owner_of(kmer, 0);
          ASSERT_LT(owner, owners);
          for (std::size_t other = 0; other < owners; ++other) {
            const std::optional<EndIndex::Place> found = slices[other].place(kmer, 0);
            if (other == owner) {
              ASSERT_TRUE(same_place(found, whole.place(kmer, 0)))
                  << kmer << " k " << k << " span " << span << " owner " << owner << " of " << owners;
            } else {
              ASSERT_FALSE(found.has_value()) << kmer << " placed by " << other << ", owned by " << owner;
            }
          }
        }
      }
    }
  }
}

// Owners are chosen by the hash's low half, and homes by its high half: by the same bits, an
// owner's k-mers would crowd into a stretch of its slots and its lookups probe on past them.
TEST(EndIndexSlices, AnOwnersLongestProbeStaysWithinFourTimesTheWholeIndexs) {
  std::mt19937_64 random(9);
  constexpr int kK = 31;
  const CutGenome cut = cut_genome(random, kK, 200, 400);
  const EndIndex whole(cut.ends, kK, 200);
  ASSERT_GT(whole.entries(), 50000u);
  for (const std::size_t owners : {2, 3, 8}) {
    std::size_t entries = 0;
    for (std::size_t owner = 0; owner < owners; ++owner) {
      const EndIndex slice(cut.ends, kK, 200, owner, owners);
      entries += slice.entries();
      EXPECT_LE(slice.longest_probe(), 4 * whole.longest_probe()) << owner << " of " << owners;
      // Each holds its share: within a tenth of the whole over the owners.
      EXPECT_NEAR(static_cast<double>(slice.entries()), static_cast<double>(whole.entries()) / owners,
                  0.1 * static_cast<double>(whole.entries()) / owners);
      EXPECT_LT(slice.bytes(), whole.bytes() / owners + whole.bytes() / 10);
    }
    EXPECT_EQ(entries, whole.entries());
  }
}

TEST(EndIndexSlices, AnOwnerOutsideTheOwnersIsRefused) {
  std::mt19937_64 random(4);
  const CutGenome cut = cut_genome(random, 21, 50, 5);
  EXPECT_THROW(EndIndex(cut.ends, 21, 50, 3, 3), std::invalid_argument);
  EXPECT_THROW(EndIndex(cut.ends, 21, 50, 0, 0), std::invalid_argument);
  EXPECT_THROW(EndIndex(cut.ends, 21, 0), std::invalid_argument);
  EXPECT_NO_THROW(EndIndex(cut.ends, 21, 50, 2, 3));
}

}  // namespace
