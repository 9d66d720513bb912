// SPDX-License-Identifier: BSD-3-Clause
// The counted k-mers saved for --continue --dump: a checkpoint written and read in pieces,
// shards spread over other tables, and the family of shard files a run removes.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "genomics/counter/kmer_shards.hpp"
#include "genomics/io/checkpoint_file.hpp"
#include "genomics/io/output_directory.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using namespace xenon::genomics;
using xenon::testing::TemporaryDirectory;

template <int Words>
using Counts = std::map<KmerKey<Words>, std::uint64_t>;

template <int Words>
Counts<Words> contents(const KmerCountTable<Words>& table) {
  Counts<Words> counts;
  table.for_each([&](const KmerKey<Words>& key, std::uint64_t count) { EXPECT_TRUE(counts.emplace(key, count).second); });
  return counts;
}

// Two tables of random keys, with the awkward ones: the key whose routing word marks empty
// slots, and counts past the 32 bits of a slot.
template <int Words>
void expect_shards_spread_over_another_table(std::uint64_t seed) {
  TemporaryDirectory folder;
  std::mt19937_64 random(seed);
  KmerCountTable<Words> first;
  KmerCountTable<Words> second;
  for (int i = 0; i < 200000; ++i) {
    KmerKey<Words> key;
    for (auto& word : key) word = random();
    (i % 2 == 0 ? first : second).add(key);
    if (i % 7 == 0) (i % 2 == 0 ? first : second).add(key);
  }
  KmerKey<Words> marker;
  marker.fill(~std::uint64_t{0});
  first.insert_new(marker, 3);
  KmerKey<Words> heavy{};
  heavy[Words - 1] = 12345;
  second.insert_new(heavy, (std::uint64_t{1} << 32) + 17);
  Counts<Words> expected = contents(first);
  const Counts<Words> more = contents(second);
  expected.insert(more.begin(), more.end());
  ASSERT_EQ(expected.size(), first.distinct() + second.distinct());

  kmer_shards::save(first, folder.path(), kmer_shards::name(0, 2), kmer_shards::origin("run", 0, 2));
  kmer_shards::save(second, folder.path(), kmer_shards::name(1, 2), kmer_shards::origin("run", 1, 2));
  KmerCountTable<Words> both;
  std::string why;
  ASSERT_TRUE(kmer_shards::load(both, folder.path(), "kmers-0-of-2", kmer_shards::origin("run", 0, 2), why)) << why;
  ASSERT_TRUE(kmer_shards::load(both, folder.path(), "kmers-1-of-2", kmer_shards::origin("run", 1, 2), why)) << why;
  EXPECT_EQ(contents(both), expected);
  EXPECT_EQ(both.distinct(), expected.size());
  both.add(heavy);
  EXPECT_EQ(contents(both)[heavy], (std::uint64_t{1} << 32) + 18) << "a count past 32 bits goes on counting";

  // Shard 1's origin names its place: it is not taken for shard 0.
  KmerCountTable<Words> wrong;
  EXPECT_FALSE(kmer_shards::load(wrong, folder.path(), "kmers-1-of-2", kmer_shards::origin("run", 0, 2), why));
  EXPECT_NE(why.find("came from other inputs or options"), std::string::npos) << why;
}

TEST(KmerShards, SpreadOverAnotherTableGiveBackEveryCount) {
  expect_shards_spread_over_another_table<1>(1);
  expect_shards_spread_over_another_table<2>(2);
}

TEST(CheckpointInPieces, IsReadBackInWholeUnitsAndRefusedWhenDamagedOrCut) {
  TemporaryDirectory folder;
  std::vector<std::byte> bytes(3 * 1000 * 1000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 7 + i / 251);
  checkpoint::save_in_pieces(folder.path(), "big", "origin", [&](const checkpoint::ConsumePiece& consume) {
    for (std::size_t at = 0; at < bytes.size(); at += 100000) consume(std::span(bytes).subspan(at, 100000));
  });
  // The same file as a checkpoint saved whole, so either reader takes it.
  std::string why;
  const auto whole = checkpoint::load(folder.path(), "big", "origin", why);
  ASSERT_TRUE(whole.has_value()) << why;
  EXPECT_EQ(*whole, bytes);

  std::vector<std::byte> read;
  ASSERT_TRUE(checkpoint::load_in_pieces(folder.path(), "big", "origin", 24,
                                         [&](std::span<const std::byte> piece) {
                                           EXPECT_EQ(piece.size() % 24, 0u);
                                           read.insert(read.end(), piece.begin(), piece.end());
                                         },
                                         why))
      << why;
  EXPECT_EQ(read, bytes);

  const auto ignore = [](std::span<const std::byte>) {};
  EXPECT_FALSE(checkpoint::load_in_pieces(folder.path(), "big", "origin", 7, ignore, why)) << "not whole units";
  EXPECT_NE(why.find("cut short or not a checkpoint"), std::string::npos) << why;

  std::string saved = folder.read("big");
  saved[saved.size() / 2] ^= 1;
  folder.write("big", saved);
  EXPECT_FALSE(checkpoint::load_in_pieces(folder.path(), "big", "origin", 24, ignore, why));
  EXPECT_NE(why.find("damaged (its CRC-32 does not match)"), std::string::npos) << why;

  folder.write("big", saved.substr(0, saved.size() - 24));
  EXPECT_FALSE(checkpoint::load_in_pieces(folder.path(), "big", "origin", 24, ignore, why));
  EXPECT_NE(why.find("cut short"), std::string::npos) << why;

  folder.write("big", saved + "x");
  EXPECT_FALSE(checkpoint::load_in_pieces(folder.path(), "big", "origin", 24, ignore, why));
  EXPECT_NE(why.find("cut short or not a checkpoint"), std::string::npos) << why;
}

TEST(OutputDirectory, RemovesAFamilyOfCheckpointsByTheStartOfTheirNames) {
  TemporaryDirectory folder;
  folder.write("kmer_counter.log", "2026-11-30T17:07:34.123Z  kmer_counter (Xenon) 0.1.0\n");
  std::filesystem::create_directory(folder.path() + "/checkpoints");
  folder.write("checkpoints/counted", "saved");
  folder.write("checkpoints/kmers-0-of-2", "saved");
  folder.write("checkpoints/kmers-1-of-2", "saved");
  folder.write("checkpoints/notes", "the user's");
  OutputDirectory(folder.path(), OutputRules{"kmer_counter", {}, {"counted", "kmers-*"}, false, false})
      .remove_previous_results();
  EXPECT_EQ(folder.entries(), (std::vector<std::string>{"checkpoints", "kmer_counter.log"}));
  EXPECT_TRUE(std::filesystem::exists(folder.path() + "/checkpoints/notes")) << "not the tool's: kept";
  EXPECT_FALSE(std::filesystem::exists(folder.path() + "/checkpoints/kmers-0-of-2"));
}

}  // namespace
