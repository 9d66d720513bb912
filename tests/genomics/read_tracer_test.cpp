// SPDX-License-Identifier: BSD-3-Clause
// ReadTracer: reads threaded by several owners, each holding a slice of the end index and
// asking the others, give exactly what ReadThreads::trace gives through the whole index,
// whatever order the asks and answers travel in.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/read_tracer.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/owner_exchange.hpp"
#include "tests/genomics/random_bases.hpp"

namespace {

using namespace xenon::genomics;

struct Genome {
  std::string bases;
  std::vector<UnitigEnds> ends;
};

// Unitigs cut as a de Bruijn graph has them (neighbours share k - 1 bases), many shorter than
// a read, so that reads cross several; and a copy of one (its k-mers ambiguous).
Genome cut_genome(std::mt19937_64& random, std::size_t k, std::size_t span) {
  Genome genome;
  std::vector<std::size_t> lengths;
  for (int i = 0; i < 40; ++i) lengths.push_back(k + random() % (i % 2 == 0 ? 30 : 400));
  std::size_t bases = k - 1;
  for (const std::size_t length : lengths) bases += length - (k - 1);
  genome.bases = xenon::testing::random_bases(random, bases);
  std::size_t at = 0;
  for (const std::size_t length : lengths) {
    genome.ends.push_back(UnitigEnds::of(std::string_view(genome.bases).substr(at, length), k, span));
    at += length - (k - 1);
  }
  genome.ends.push_back(genome.ends[3]);
  return genome;
}

// Reads as a sequencer gives them: either strand, errors (substitutions, a base missing or
// added), an N now and then, lower case, some shorter than k, some random.
std::vector<std::string> reads_of(std::mt19937_64& random, const std::string& genome, std::size_t count) {
  std::vector<std::string> reads;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t length = 10 + random() % 200;
    if (i % 10 == 9 || length > genome.size()) {
      reads.push_back(xenon::testing::random_bases(random, length));
      continue;
    }
    std::string read = genome.substr(random() % (genome.size() - length + 1), length);
    if (random() % 2 == 0) read = reverse_complement(read);
    for (int errors = static_cast<int>(random() % 3); errors > 0; --errors) read[random() % read.size()] = "ACGTN"[random() % 5];
    if (random() % 7 == 0) read[random() % read.size()] = 'a';
    // A base missing or one too many: a read that leaves a unitig then meets the next one's
    // k-mers a base further on or back, not its first.
    if (random() % 3 == 0) read.erase(random() % read.size(), 1);
    if (random() % 5 == 0) read.insert(random() % read.size(), 1, 'G');
    reads.push_back(std::move(read));
  }
  return reads;
}

void expect_same(const ReadThreads::Traced& traced, const ReadThreads::Traced& expected, const std::string& read) {
  ASSERT_EQ(traced.runs, expected.runs) << read;
  ASSERT_EQ(traced.lead, expected.lead) << read;
}

TEST(ReadTracer, OwnersAskingEachOtherThreadEachReadAsTheWholeIndexDoes) {
  std::uint64_t asks = 0;
  std::size_t crossed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 random(seed);
    const int k = seed % 4 == 0 ? 45 : seed % 7 == 0 ? 77 : 21;  // k-mers of one, two and four words
    const std::size_t span = seed % 3 == 0 ? 7 : 120;
    const Genome genome = cut_genome(random, static_cast<std::size_t>(k), span);
    const ReadThreads whole(genome.ends, k, span);
    const std::vector<std::string> reads = reads_of(random, genome.bases, 400);
    const std::size_t owners = 1 + seed % 5;
    const std::size_t window = seed % 2 == 0 ? 1 : 16384;
    std::vector<EndIndex> slices;
    for (std::size_t owner = 0; owner < owners; ++owner) slices.emplace_back(genome.ends, k, span, owner, owners);
    xenon::testing::OwnerExchange exchange;
    std::vector<ReadTracer> tracers;
    for (std::size_t owner = 0; owner < owners; ++owner) tracers.emplace_back(slices[owner], exchange.asker(owner));
    // Each owner threads every owners-th read, and takes them back in that order.
    std::vector<std::size_t> admitted(owners, 0);
    std::vector<std::size_t> taken(owners, 0);
    const auto read_of = [&](std::size_t owner, std::size_t nth) { return owner + nth * owners; };
    const auto take_done = [&](std::size_t owner) {
      while (tracers[owner].oldest_done()) {
        const std::size_t read = read_of(owner, taken[owner]++);
        ASSERT_EQ(tracers[owner].oldest_read(), reads[read]);
        const ReadThreads::Traced traced = tracers[owner].take_oldest();
        const ReadThreads::Traced expected = whole.trace(reads[read]);
        expect_same(traced, expected, reads[read]);
        for (const auto& run : expected.runs) crossed += run.size() > 1 ? 1 : 0;
      }
    };
    while (true) {
      // One step at random: admit a read somewhere, or deliver an ask or an answer.
      std::vector<std::size_t> can_admit;
      for (std::size_t owner = 0; owner < owners; ++owner) {
        if (read_of(owner, admitted[owner]) < reads.size() && tracers[owner].in_flight() < window) can_admit.push_back(owner);
      }
      if (can_admit.empty() && exchange.idle()) break;
      if (!can_admit.empty() && (exchange.idle() || random() % 3 == 0)) {
        const std::size_t owner = can_admit[random() % can_admit.size()];
        tracers[owner].admit(reads[read_of(owner, admitted[owner]++)]);
        take_done(owner);
      } else {
        exchange.deliver_one(random, slices, [&](std::size_t to, std::uint64_t ticket, std::optional<EndIndex::Place> place) {
          tracers[to].answered(ticket, place);
          take_done(to);
        });
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
    for (std::size_t owner = 0; owner < owners; ++owner) {
      EXPECT_EQ(tracers[owner].in_flight(), 0u) << "seed " << seed;
      EXPECT_EQ(tracers[owner].waiting(), 0u) << "seed " << seed;
      EXPECT_EQ(taken[owner], admitted[owner]) << "seed " << seed;
    }
    std::size_t all_taken = 0;
    for (const std::size_t each : taken) all_taken += each;
    EXPECT_EQ(all_taken, reads.size()) << "seed " << seed;
    asks += exchange.asks();
  }
  EXPECT_GT(asks, 2000u);  // the owners did ask one another (the filter spares most asks)
  EXPECT_GT(crossed, 1000u);  // and reads crossed unitigs
}

TEST(ReadTracer, AnAnswerNobodyAskedForIsRefused) {
  std::mt19937_64 random(4);
  const Genome genome = cut_genome(random, 21, 50);
  const std::string read = genome.bases.substr(0, 150);
  // The slice that does not hold the read's first k-mer: it asks for it at once.
  const std::size_t holder = EndIndex(genome.ends, 21, 50, 0, 2).owner_of(read, 0);
  const EndIndex slice(genome.ends, 21, 50, 1 - holder, 2);
  std::vector<std::uint64_t> tickets;
  ReadTracer tracer(slice, [&tickets](std::size_t, std::string_view, std::uint64_t ticket) { tickets.push_back(ticket); });
  tracer.admit(read);
  ASSERT_EQ(tickets.size(), 1u);
  EXPECT_THROW(tracer.answered(tickets[0] + 1, std::nullopt), std::invalid_argument);
  // Another owner's ticket (tickets name their owner), and places outside the graph.
  EXPECT_THROW(tracer.answered(first_ticket_of(holder), std::nullopt), std::invalid_argument);
  EXPECT_THROW(tracer.answered(tickets[0], EndIndex::Place{2 * slice.unitigs(), 0}), std::invalid_argument);
  EXPECT_THROW(tracer.answered(tickets[0], EndIndex::Place{0, slice.unitig_kmers(0)}), std::invalid_argument);
  EXPECT_FALSE(tracer.oldest_done());
  EXPECT_THROW(tracer.take_oldest(), std::logic_error);
  // Refused, the ask still waits; its true answer lets the read go on.
  EXPECT_EQ(tracer.waiting(), 1u);
  tracer.answered(tickets[0], EndIndex(genome.ends, 21, 50, holder, 2).place_owned(read.substr(0, 21)));
  EXPECT_TRUE(tickets.size() == 2 ? tracer.waiting() == 1 : tracer.waiting() == 0 && tracer.oldest_done());
}

TEST(ReadTracer, AnOwnerRefusesAKmerItDoesNotHold) {
  std::mt19937_64 random(6);
  const Genome genome = cut_genome(random, 21, 50);
  const EndIndex first(genome.ends, 21, 50, 0, 2);
  const EndIndex second(genome.ends, 21, 50, 1, 2);
  for (std::size_t at = 0; at < 40; ++at) {
    const std::string kmer = genome.bases.substr(at, 21);
    const EndIndex& owner = first.owner_of(kmer, 0) == 0 ? first : second;
    const EndIndex& other = &owner == &first ? second : first;
    EXPECT_NO_THROW(owner.place_owned(kmer));
    EXPECT_THROW(other.place_owned(kmer), std::invalid_argument);
  }
  EXPECT_THROW(first.place_owned(genome.bases.substr(0, 20)), std::invalid_argument);
  EXPECT_THROW(first.place_owned(std::string(21, 'N')), std::invalid_argument);
}

}  // namespace
