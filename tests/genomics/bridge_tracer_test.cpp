// SPDX-License-Identifier: BSD-3-Clause
// BridgeTracer: read bridges found by several owners, each holding a slice of the end index
// and asking the others, are the votes find_bridges gives through the whole index, whatever
// order the asks and answers travel in.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/bridge_tracer.hpp"
#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/read_bridges.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/read_tracer.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/owner_exchange.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

constexpr int kK = 21;
constexpr std::size_t kBasesK = kK;

// A genome whose graph lost the k-mers of a few gaps (each read once: not solid), so that its
// unitigs have dead ends there, some pieces read the other way, and a unitig from elsewhere
// that a few reads run into from a gap's edge.
struct GappedGenome {
  std::string genome;
  std::vector<std::size_t> gaps;  // where each gap's k-mers begin, 40 of them each
  std::string elsewhere;
  UnitigGraph graph{kK};
};

GappedGenome gapped_genome(std::mt19937_64& random) {
  GappedGenome gapped;
  gapped.genome = xenon::testing::random_bases(random, 12000);
  gapped.gaps = {2000, 5000, 8000, 10500};
  gapped.elsewhere = xenon::testing::random_bases(random, 600);
  std::size_t from = 0;
  for (std::size_t i = 0; i <= gapped.gaps.size(); ++i) {
    const std::size_t to = i < gapped.gaps.size() ? gapped.gaps[i] + kBasesK - 1 : gapped.genome.size();
    const std::string piece = gapped.genome.substr(from, to - from);
    gapped.graph.add(i % 2 == 0 ? piece : reverse_complement(piece), 20, false);
    if (i < gapped.gaps.size()) from = gapped.gaps[i] + 40;
  }
  gapped.graph.add(gapped.elsewhere, 20, false);
  gapped.graph.compact();
  return gapped;
}

// Reads most of them near a gap: spanning it, leaving a unitig or entering one in it, with
// substitutions, a base missing, an N, either strand; some run into the unitig from elsewhere.
std::vector<std::string> reads_near_gaps(std::mt19937_64& random, const GappedGenome& gapped, std::size_t count) {
  std::vector<std::string> reads;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t length = 60 + random() % 91;
    std::string read;
    if (i % 9 == 8) {
      const std::size_t gap = gapped.gaps[random() % gapped.gaps.size()];
      read = gapped.genome.substr(gap - 50, 50 + random() % 20) + gapped.elsewhere.substr(0, 60);
    } else {
      const std::size_t gap = gapped.gaps[random() % gapped.gaps.size()];
      const std::size_t start = gap - std::min<std::size_t>(gap, random() % 200);
      read = gapped.genome.substr(start, length);
    }
    if (random() % 2 == 0) read = reverse_complement(read);
    if (random() % 4 == 0) read[random() % read.size()] = "ACGT"[random() % 4];
    if (random() % 10 == 0) read.erase(random() % read.size(), 1);
    if (random() % 15 == 0) read[random() % read.size()] = 'N';
    reads.push_back(std::move(read));
  }
  return reads;
}

TEST(BridgeTracer, OwnersAskingEachOtherFindTheBridgesTheWholeIndexFinds) {
  std::uint64_t asks = 0;
  std::uint64_t replays = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 random(seed);
    const GappedGenome gapped = gapped_genome(random);
    const std::vector<UnitigEnds> ends = ReadThreads::ends_of(gapped.graph, kK);
    const ReadThreads whole(ends, kK);
    const DeadEnds dead = DeadEnds::of(gapped.graph);
    const std::vector<std::string> reads = reads_near_gaps(random, gapped, 600);
    BridgeVotes expected;
    for (const std::string& read : reads) find_bridges(whole, dead, kK, read, expected);
    ASSERT_GT(expected.size(), 3u) << "seed " << seed;
    ASSERT_GT(expected.overhangs(), 3u) << "seed " << seed;

    const std::size_t owners = 1 + seed % 5;
    const DeadEnds sent = DeadEnds::of(dead.of_unitig, ends, kBasesK);
    std::vector<EndIndex> slices;
    for (std::size_t owner = 0; owner < owners; ++owner) slices.emplace_back(ends, kK, ReadThreads::kEndSpan, owner, owners);
    xenon::testing::OwnerExchange exchange;
    std::vector<BridgeTracer> tracers;
    for (std::size_t owner = 0; owner < owners; ++owner) tracers.emplace_back(slices[owner], sent, exchange.asker(owner));
    // One step at random: admit a read (each owner every owners-th), or deliver an ask or an answer.
    for (std::size_t admitted = 0; admitted < reads.size() || !exchange.idle();) {
      if (admitted < reads.size() && (exchange.idle() || random() % 3 == 0)) {
        tracers[admitted % owners].admit(reads[admitted]);
        ++admitted;
      } else {
        exchange.deliver_one(random, slices, [&](std::size_t to, std::uint64_t ticket, std::optional<EndIndex::Place> place) {
          tracers[to].answered(ticket, place);
        });
      }
    }
    BridgeVotes found;
    for (const BridgeTracer& tracer : tracers) {
      EXPECT_EQ(tracer.in_flight(), 0u);
      EXPECT_EQ(tracer.waiting(), 0u);
      found.add_encoded(tracer.votes().encode());
      asks += tracer.asks();
      replays += tracer.replays();
    }
    EXPECT_EQ(found.encode(), expected.encode()) << "seed " << seed << ", " << owners << " owners";
  }
  EXPECT_GT(asks, 100u);
  EXPECT_EQ(replays, asks) << "a pass asks for one k-mer, the first it lacks, and runs again once it is answered";
}

TEST(BridgeTracer, AnAnswerNobodyAskedForIsRefused) {
  std::mt19937_64 random(3);
  const GappedGenome gapped = gapped_genome(random);
  const std::vector<UnitigEnds> ends = ReadThreads::ends_of(gapped.graph, kK);
  const DeadEnds dead = DeadEnds::of(gapped.graph);
  const EndIndex slice(ends, kK, ReadThreads::kEndSpan, 0, 3);
  std::vector<std::uint64_t> tickets;
  BridgeTracer tracer(slice, dead, [&tickets](std::size_t, std::string_view, std::uint64_t ticket) { tickets.push_back(ticket); });
  for (std::size_t i = 0; tickets.empty() && i < 100; ++i) tracer.admit(gapped.genome.substr(1900 + i, 150));
  ASSERT_FALSE(tickets.empty());
  EXPECT_EQ(tracer.in_flight(), 1u);
  EXPECT_THROW(tracer.answered(tickets.back() + 1, std::nullopt), std::invalid_argument);
  EXPECT_THROW(tracer.answered(first_ticket_of(1), std::nullopt), std::invalid_argument);
  EXPECT_THROW(tracer.answered(tickets.back(), EndIndex::Place{2 * slice.unitigs() + 1, 0}), std::invalid_argument);
  EXPECT_EQ(tracer.waiting(), tickets.size()) << "a refused answer leaves its ask waiting";
}

}  // namespace
