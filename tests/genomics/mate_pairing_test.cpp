// SPDX-License-Identifier: BSD-3-Clause
// Mates paired among the stores that threaded them (mate_pairing.hpp), against one node
// pairing every read in input order; and the weights that let node 0 keep each distinct path
// or pair of ways once.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <vector>

#include "genomics/assembler/mate_pairing.hpp"
#include "genomics/assembler/read_threads.hpp"

namespace xenon::genomics {
namespace {

constexpr int kK = 31;
constexpr std::size_t kUnitigs = 6;  // oriented: 12

// Every vote mates_after() and next_after() can give, over every unitig and every context of
// one or two unitigs: two ReadThreads that agree here give the same contigs.
std::map<std::vector<std::size_t>, std::map<std::size_t, std::uint32_t>> all_votes(const ReadThreads& threads) {
  std::map<std::vector<std::size_t>, std::map<std::size_t, std::uint32_t>> votes;
  std::vector<std::size_t> every;
  for (std::size_t oriented = 0; oriented < 2 * kUnitigs; ++oriented) every.push_back(oriented);
  for (const std::size_t anchor : every) {
    votes[{anchor}] = threads.mates_after(anchor, every);
    votes[{anchor, 99}] = threads.next_after({anchor});
    for (const std::size_t second : every) votes[{anchor, second}] = threads.next_after({anchor, second});
  }
  return votes;
}

// Every read pair kept, with how many pairs were alike and the sum of their mates' leads.
std::map<std::pair<CompactPath, CompactPath>, std::pair<std::uint32_t, std::int64_t>> all_fragments(
    const ReadThreads& threads) {
  std::map<std::pair<CompactPath, CompactPath>, std::pair<std::uint32_t, std::int64_t>> fragments;
  threads.for_each_pair([&](auto first, auto second_along, std::uint32_t pairs, std::int64_t leads) {
    fragments[{{first.begin(), first.end()}, {second_along.begin(), second_along.end()}}] = {pairs, leads};
  });
  return fragments;
}

std::vector<ReadThreads::CompactOriented> random_path(std::mt19937& random) {
  std::vector<ReadThreads::CompactOriented> path;
  if (random() % 5 == 0) return path;  // met no unitig: not kept, its mate left unpaired
  const std::size_t length = 1 + random() % 3;
  for (std::size_t i = 0; i < length; ++i) path.push_back(static_cast<ReadThreads::CompactOriented>(random() % (2 * kUnitigs)));
  return path;
}

TEST(MatePairing, StoresPairTheMatesOneNodePairsWhereverThePiecesEnd) {
  std::mt19937 random(7);
  // Files: 0 and 1 are -1/-2 (record r with record r), 2 is interleaved, 3 is single-end.
  constexpr std::uint64_t kRecords = 4000;
  std::vector<std::vector<std::vector<ReadThreads::CompactOriented>>> file_paths(4);
  std::vector<std::vector<std::int64_t>> file_leads(4);  // where each read begins in its first unitig
  for (std::size_t file = 0; file < 4; ++file) {
    for (std::uint64_t r = 0; r < kRecords; ++r) {
      file_paths[file].push_back(random_path(random));
      file_leads[file].push_back(static_cast<std::int64_t>(random() % 2000) - 100);
    }
  }
  ReadThreads one_node(kK);
  for (std::uint64_t r = 0; r < kRecords; ++r) {
    one_node.add_pair(file_paths[0][r], file_paths[1][r], 1, file_leads[0][r] + file_leads[1][r]);
  }
  for (std::uint64_t r = 0; r + 1 < kRecords; r += 2) {
    one_node.add_pair(file_paths[2][r], file_paths[2][r + 1], 1, file_leads[2][r] + file_leads[2][r + 1]);
  }

  for (const std::size_t stores : {1u, 2u, 3u, 5u}) {
    // Each file cut into pieces at random records (one cut between two interleaved mates is
    // likely), the pieces dealt to the stores in turn.
    std::vector<ThreadedPaths> held(stores);
    PairingRequest request;
    request.mates = {{0, 1, true}, {2, 2, true}};
    for (std::size_t s = 0; s < stores; ++s) request.owners.push_back(ActorName::from_value(s + 1));
    std::size_t next_store = 0;
    for (std::uint32_t file = 0; file < 4; ++file) {
      std::uint64_t begin = 0;
      for (std::uint32_t piece = 0; begin < kRecords; ++piece) {
        const std::uint64_t end = std::min<std::uint64_t>(kRecords, begin + 1 + random() % 900);
        request.pieces.push_back({file, piece, begin});
        ThreadedPaths& store = held[next_store++ % stores];
        for (std::uint64_t r = begin; r < end; ++r) {
          if (file_paths[file][r].empty()) continue;
          store.places.push_back({file, piece, r - begin + 1});
          store.paths.push_back(file_paths[file][r]);
          store.leads.push_back(file_leads[file][r]);
        }
        begin = end;
      }
    }
    // The messages, delivered in a shuffled order (as messages of different senders may come).
    struct Delivery {
      std::size_t owner;
      std::vector<std::byte> batch;
      std::uint64_t sent = 0;
      bool report = false;
    };
    std::vector<Delivery> deliveries;
    for (ThreadedPaths& paths : held) {
      MateRouter router(PairingRequest::decode(request.encode().bytes()), std::move(paths));
      while (router.step([&](std::size_t owner, std::vector<std::byte>&& batch) {
        deliveries.push_back({owner, std::move(batch)});
      })) {
      }
      for (std::size_t owner = 0; owner < stores; ++owner) {
        deliveries.push_back({owner, {}, router.batches_sent()[owner], true});
      }
    }
    std::shuffle(deliveries.begin(), deliveries.end(), random);
    std::vector<MateMatcher> owners(stores);
    for (Delivery& delivery : deliveries) {
      EXPECT_FALSE(owners[delivery.owner].complete(stores)) << "complete before its last message";
      if (delivery.report) {
        owners[delivery.owner].sent(delivery.sent);
      } else {
        owners[delivery.owner].add(delivery.batch);
      }
    }
    // Each owner's counts go to the stores that sum them, again in a shuffled order.
    std::vector<Delivery> counts;
    for (MateMatcher& owner : owners) {
      ASSERT_TRUE(owner.complete(stores));
      std::vector<std::vector<std::vector<std::byte>>> by_summer = owner.take_counts(stores);
      ASSERT_EQ(by_summer.size(), stores);
      for (std::size_t summer = 0; summer < stores; ++summer) {
        for (std::vector<std::byte>& message : by_summer[summer]) counts.push_back({summer, std::move(message)});
        counts.push_back({summer, {}, by_summer[summer].size(), true});
      }
    }
    std::shuffle(counts.begin(), counts.end(), random);
    std::vector<PairCountSummer> summers(stores);
    for (Delivery& delivery : counts) {
      EXPECT_FALSE(summers[delivery.owner].complete(stores)) << "complete before its last message";
      if (delivery.report) {
        summers[delivery.owner].sent(delivery.sent);
      } else {
        summers[delivery.owner].add(delivery.batch);
      }
    }
    // Node 0 is sent each distinct pair of ways once, summed.
    ReadThreads counted(kK);
    std::uint64_t pairs = 0;
    std::set<std::pair<CompactPath, CompactPath>> sent_to_node0;
    for (PairCountSummer& summer : summers) {
      ASSERT_TRUE(summer.complete(stores));
      for (const std::vector<std::byte>& message : summer.take_counts()) {
        for (const PairCount& count : PairCounts::decode(message)) {
          EXPECT_TRUE(sent_to_node0.insert({count.first, count.second}).second) << "a pair of ways sent twice";
          counted.add_pair(count.first, count.second, static_cast<std::uint32_t>(count.pairs), count.leads);
          pairs += count.pairs;
        }
      }
    }
    EXPECT_EQ(sent_to_node0.size(), counted.pair_count());
    std::uint64_t expected_pairs = 0;
    for (std::uint64_t r = 0; r < kRecords; ++r) expected_pairs += !file_paths[0][r].empty() && !file_paths[1][r].empty();
    for (std::uint64_t r = 0; r + 1 < kRecords; r += 2) {
      expected_pairs += !file_paths[2][r].empty() && !file_paths[2][r + 1].empty();
    }
    EXPECT_EQ(pairs, expected_pairs) << stores << " stores";
    EXPECT_EQ(all_votes(counted), all_votes(one_node)) << stores << " stores";
    EXPECT_EQ(all_fragments(counted), all_fragments(one_node)) << stores << " stores";
  }
}

TEST(MatePairing, MessagesComeBackAsTheyWereSentAndACutOneIsRefused) {
  PairingRequest request;
  request.mates = {{0, 1, true}, {2, 2, false}};
  request.pieces = {{0, 0, 0}, {0, 1, 12345678901}, {2, 7, 3}};
  request.owners = {ActorName::from_value(3), ActorName::from_value(std::uint64_t{1} << 50)};
  const PairingRequest back = PairingRequest::decode(request.encode().bytes());
  ASSERT_EQ(back.mates.size(), 2u);
  EXPECT_EQ(back.mates[1].first, 2u);
  EXPECT_FALSE(back.mates[1].declared);
  ASSERT_EQ(back.pieces.size(), 3u);
  EXPECT_EQ(back.pieces[1].first, 12345678901u);
  EXPECT_EQ(back.owners, request.owners);

  std::vector<std::byte> mates;
  MateBatch::append(mates, {1, std::uint64_t{1} << 40, true, {0x7fffffff, 0, 5}, -37});
  const std::size_t first_mate_bytes = mates.size();
  MateBatch::append(mates, {0, 2, false, {4}, std::int64_t{1} << 40});
  const std::vector<Mate> mate = MateBatch::decode(mates);
  ASSERT_EQ(mate.size(), 2u);
  EXPECT_EQ(mate[0].pair, std::uint64_t{1} << 40);
  EXPECT_TRUE(mate[0].second);
  EXPECT_EQ(mate[0].path, (CompactPath{0x7fffffff, 0, 5}));
  EXPECT_EQ(mate[0].lead, -37);
  EXPECT_EQ(mate[1].lead, std::int64_t{1} << 40);
  std::vector<std::byte> counts;
  PairCounts::append(counts, {{1, 2}, {3}, 77, -123456789012});
  const std::vector<PairCount> count = PairCounts::decode(counts);
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(count[0].first, (CompactPath{1, 2}));
  EXPECT_EQ(count[0].second, (CompactPath{3}));
  EXPECT_EQ(count[0].pairs, 77u);
  EXPECT_EQ(count[0].leads, -123456789012);
  for (std::size_t cut = 1; cut < mates.size(); ++cut) {
    if (cut == first_mate_bytes) continue;  // the first mate whole
    EXPECT_THROW(MateBatch::decode(std::span(mates).first(cut)), std::invalid_argument) << "cut at " << cut;
  }
  for (std::size_t cut = 1; cut < counts.size(); ++cut) {
    EXPECT_THROW(PairCounts::decode(std::span(counts).first(cut)), std::invalid_argument) << "cut at " << cut;
  }
}

// A store that is sent more batches than the stores promised, or more reports than there are
// stores, says so rather than wait for a completion that cannot come.
TEST(MatePairing, MoreBatchesOrReportsThanPromisedAreRefused) {
  BatchesAwaited extra_batch;
  extra_batch.received();
  extra_batch.received();
  extra_batch.sent(1);
  EXPECT_FALSE(extra_batch.complete(2)) << "one store has not reported yet";
  extra_batch.sent(0);
  EXPECT_THROW(extra_batch.complete(2), std::invalid_argument);
  BatchesAwaited extra_report;
  for (int store = 0; store < 3; ++store) extra_report.sent(0);
  EXPECT_THROW(extra_report.complete(2), std::invalid_argument);
  BatchesAwaited exact;
  exact.received();
  exact.sent(1);
  exact.sent(0);
  EXPECT_TRUE(exact.complete(2));
}

TEST(MatePairing, AMateSentTwiceIsRefused) {
  std::vector<std::byte> twice;
  MateBatch::append(twice, {0, 9, false, {1}});
  MateBatch::append(twice, {0, 9, false, {2}});
  MateMatcher owner;
  EXPECT_THROW(owner.add(twice), std::invalid_argument);
}

// Node 0 keeps each distinct path and pair of ways once, with its count: it must vote as the
// reads would one by one.
TEST(ReadThreads, ReadsCountedTogetherVoteAsTheyWouldOneByOne) {
  ReadThreads one_by_one(kK);
  ReadThreads together(kK);
  const std::vector<std::vector<std::size_t>> runs{{0, 2, 4}, {5, 3}};
  for (int i = 0; i < 3; ++i) one_by_one.add_traced(runs, {});
  together.add_traced(runs, {}, 3);
  const std::vector<ReadThreads::CompactOriented> first{0, 2};
  const std::vector<ReadThreads::CompactOriented> second{7};
  for (int i = 0; i < 2; ++i) one_by_one.add_pair(first, second);
  together.add_pair(first, second, 2);
  EXPECT_EQ(all_votes(together), all_votes(one_by_one));
  EXPECT_EQ(together.passages(0, 2, 4), 3u);
  EXPECT_EQ(together.next_after({0}).at(2), 3u);
  EXPECT_EQ(together.mates_after(0, {6}).at(6), 2u);
}

}  // namespace
}  // namespace xenon::genomics
