// SPDX-License-Identifier: BSD-3-Clause
// Stores that share the end index (ReadShare with two owners or more: each holds its slice and
// asks the others in batches, end_lookups.hpp) send and keep exactly what one store with the
// whole index does for the same reads: the runs crossed, the passages, the reads kept, every
// read's path, the bridges. Batches travel in random order, as a network may deliver them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "genomics/assembler/end_lookups.hpp"
#include "genomics/assembler/read_share.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/assembler/thread_protocol.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/io/input_plan.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/random_bases.hpp"
#include "tests/support/temporary_directory.hpp"

namespace {

using namespace xenon::genomics;
using xenon::testing::random_bases;

constexpr int kK = 21;

// What the stores sent and kept, summed over the stores (each read's place names its piece).
struct Outcome {
  std::map<std::vector<std::size_t>, std::uint64_t> runs;
  std::vector<std::string> kept;
  std::vector<std::tuple<std::uint32_t, std::uint64_t, std::vector<ReadThreads::CompactOriented>, std::int64_t>> paths;
  std::vector<std::byte> bridges;
  std::uint64_t reads = 0;
  std::uint64_t records = 0;  // in the pieces read
  std::uint64_t batches = 0;  // of asks and answers between the stores
};

// A graph of 40 unitigs, many shorter than a read, their neighbours sharing k - 1 bases, and a
// copy of one (its k-mers ambiguous): the ends, which is all threading needs of it.
std::string cut_genome(std::mt19937_64& random, std::vector<UnitigEnds>& ends, std::size_t span) {
  std::vector<std::size_t> lengths;
  for (int i = 0; i < 40; ++i) lengths.push_back(kK + random() % (i % 2 == 0 ? 30 : 400));
  std::size_t bases = kK - 1;
  for (const std::size_t length : lengths) bases += length - (kK - 1);
  const std::string genome = random_bases(random, bases);
  std::size_t at = 0;
  for (const std::size_t length : lengths) {
    ends.push_back(UnitigEnds::of(std::string_view(genome).substr(at, length), kK, span));
    at += length - (kK - 1);
  }
  ends.push_back(ends[3]);
  return genome;
}

// FASTQ reads of either strand, with substitutions, a base missing, N, some random.
std::string fastq_of(std::mt19937_64& random, const std::string& genome, std::size_t count) {
  std::string fastq;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t length = 30 + random() % 170;
    std::string read = i % 10 == 9 ? random_bases(random, length) : genome.substr(random() % (genome.size() - length), length);
    if (random() % 2 == 0) read = reverse_complement(read);
    if (random() % 3 == 0) read[random() % read.size()] = "ACGTN"[random() % 5];
    if (random() % 4 == 0) read.erase(random() % read.size(), 1);
    fastq += "@r" + std::to_string(i) + "\n" + read + "\n+\n" + std::string(read.size(), 'I') + "\n";
  }
  return fastq;
}

// Every store's share of `request` (its pieces of plan_input over `stores`), stepped and its
// batches delivered in random order until all are done; one store has the whole index.
// `window` and `batch_bytes` as ReadShare takes them: small, a store stops reading to wait for
// answers, and sends its asks in many batches.
Outcome thread_shares(ThreadingRequest request, std::size_t stores, std::uint64_t seed,
                      const std::vector<std::vector<std::string>>& kept = {}, std::size_t window = ReadShare::kWindow,
                      std::size_t batch_bytes = EndAskBatches::kBatchBytes) {
  std::mt19937_64 random(seed);
  std::vector<InputLayout> layouts;
  for (const std::string& file : request.files) layouts.push_back(inspect_input(file));
  const std::vector<std::vector<InputPiece>> plan = plan_input(layouts, static_cast<int>(stores));
  request.threading = 3;
  request.owners.clear();
  for (std::size_t store = 0; store < stores; ++store) request.owners.push_back(xenon::ActorName::make(0, 0, 100 + store));
  if (stores == 1) request.owners.clear();  // as the store's own path: the whole index
  struct Batch {
    std::size_t to;
    std::size_t from;
    bool answers;
    std::vector<std::byte> bytes;
  };
  std::vector<Batch> in_flight;
  std::vector<std::unique_ptr<ReadShare>> shares;
  std::vector<std::shared_ptr<const EndSlice>> slices;
  for (std::size_t store = 0; store < stores; ++store) {
    ThreadingRequest mine = request;
    mine.pieces = plan[store];
    mine.owner = store;
    shares.push_back(std::make_unique<ReadShare>(
        std::move(mine), store < kept.size() ? kept[store] : std::vector<std::string>{},
        [&in_flight, store](std::size_t owner, std::vector<std::byte>&& batch) {
          if (owner == store) throw std::logic_error("a store asked itself");
          in_flight.push_back({owner, store, false, std::move(batch)});
        },
        window, batch_bytes));
    slices.push_back(shares.back()->slice());
    EXPECT_EQ(slices.back() == nullptr, stores == 1);
  }
  Outcome outcome;
  std::vector<bool> steppable(stores, true);
  while (true) {
    std::vector<std::size_t> ready;
    for (std::size_t store = 0; store < stores; ++store) {
      if (steppable[store]) ready.push_back(store);
    }
    if (ready.empty() && in_flight.empty()) break;
    if (!ready.empty() && (in_flight.empty() || random() % 2 == 0)) {
      const std::size_t store = ready[random() % ready.size()];
      steppable[store] = shares[store]->step([&](std::vector<std::byte>&& message) {
        for (CrossedRun& run : CrossedRuns::decode(message)) outcome.runs[run.unitigs] += run.reads;
      });
      continue;
    }
    const std::size_t pick = random() % in_flight.size();
    Batch batch = std::move(in_flight[pick]);
    in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
    ++outcome.batches;
    if (!batch.answers) {
      in_flight.push_back({batch.from, batch.to, true, answer_end_asks(batch.bytes, slices[batch.to]->index, 3)});
      continue;
    }
    ReadShare& share = *shares[batch.to];
    share.answers_arrived(batch.bytes);
    steppable[batch.to] = steppable[batch.to] || share.can_go_on();
  }
  // Each piece's first record in its file (the pieces differ with the stores): paths by their
  // file and record.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> piece_starts;
  for (const auto& share : shares) {
    for (const ThreadedPiece& piece : share->done().pieces) piece_starts[{piece.file_index, piece.piece}] = piece.records;
  }
  std::map<std::uint32_t, std::uint64_t> records_before;
  for (auto& [piece, records] : piece_starts) {
    const std::uint64_t count = records;
    records = records_before[piece.first];
    records_before[piece.first] += count;
    outcome.records += count;
  }
  for (std::size_t store = 0; store < stores; ++store) {
    ReadShare& share = *shares[store];
    EXPECT_TRUE(share.finished()) << "store " << store;
    EXPECT_EQ(share.done().failure, "");
    outcome.reads += share.done().reads;
    for (std::string& read : share.take_kept()) outcome.kept.push_back(std::move(read));
    const ThreadedPaths paths = share.take_paths();
    for (std::size_t i = 0; i < paths.places.size(); ++i) {
      const auto path = paths.paths[i];
      const ReadPlace& place = paths.places[i];
      outcome.paths.emplace_back(place.file_index, piece_starts.at({place.file_index, place.piece}) + place.record,
                                 std::vector<ReadThreads::CompactOriented>(path.begin(), path.end()), paths.leads[i]);
    }
  }
  std::sort(outcome.kept.begin(), outcome.kept.end());
  std::sort(outcome.paths.begin(), outcome.paths.end());
  BridgeVotes votes;
  for (const auto& share : shares) votes.add_encoded(share->done().bridges);
  outcome.bridges = votes.encode();
  return outcome;
}

void expect_same(const Outcome& sliced, const Outcome& whole, const std::string& what) {
  EXPECT_EQ(sliced.reads, whole.reads) << what;
  EXPECT_EQ(sliced.runs, whole.runs) << what;
  EXPECT_EQ(sliced.kept, whole.kept) << what;
  EXPECT_EQ(sliced.paths, whole.paths) << what;
  EXPECT_EQ(sliced.bridges, whole.bridges) << what;
}

TEST(SlicedReadShare, StoresAskingEachOtherSendAndKeepWhatOneStoreWithTheWholeIndexDoes) {
  const xenon::testing::TemporaryDirectory directory("xenon-sliced-share");
  std::uint64_t batches = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 random(seed);
    const std::size_t span = seed % 2 == 0 ? 7 : ReadThreads::kEndSpan;
    ThreadingRequest request;
    request.k = kK;
    request.end_span = span;
    const std::string genome = cut_genome(random, request.ends, span);
    request.files = {directory.write("a" + std::to_string(seed) + ".fq", fastq_of(random, genome, 700)),
                     directory.write("b" + std::to_string(seed) + ".fq", fastq_of(random, genome, 500))};
    // Runs, kept reads; passages; every read's path.
    ThreadingRequest runs = request;
    runs.keep_crossing_reads = true;
    ThreadingRequest passages = request;
    passages.passages = true;
    ThreadingRequest paths = request;
    paths.paths = true;
    const Outcome whole_runs = thread_shares(runs, 1, seed);
    ASSERT_GT(whole_runs.runs.size(), 50u);
    ASSERT_GT(whole_runs.kept.size(), 100u);
    ASSERT_EQ(whole_runs.reads, 1200u);
    const Outcome whole_passages = thread_shares(passages, 1, seed);
    const Outcome whole_paths = thread_shares(paths, 1, seed);
    ASSERT_GT(whole_paths.paths.size(), 300u);
    for (std::size_t stores = 2; stores <= 5; ++stores) {
      const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(stores) + " stores";
      const Outcome sliced_runs = thread_shares(runs, stores, seed * 10 + stores);
      expect_same(sliced_runs, whole_runs, what + ", runs");
      expect_same(thread_shares(runs, stores, seed * 10 + stores, {}, 1 + seed % 4, 64), whole_runs,
                  what + ", runs, stores that wait for answers after a few reads, a few asks a batch");
      EXPECT_EQ(sliced_runs.records, whole_runs.records) << what;
      expect_same(thread_shares(passages, stores, seed * 10 + stores), whole_passages, what + ", passages");
      expect_same(thread_shares(paths, stores, seed * 10 + stores), whole_paths, what + ", paths");
      // The kept reads threaded again, however they are spread over the stores.
      ThreadingRequest again = runs;
      again.rethread_kept = true;
      std::vector<std::vector<std::string>> kept(stores);
      for (std::size_t i = 0; i < whole_runs.kept.size(); ++i) kept[i % stores].push_back(whole_runs.kept[i]);
      const Outcome sliced_again = thread_shares(again, stores, seed, kept);
      const Outcome whole_again = thread_shares(again, 1, seed, {whole_runs.kept});
      expect_same(sliced_again, whole_again, what + ", kept reads again");
      expect_same(thread_shares(again, stores, seed, kept, 2, 64), whole_again, what + ", kept reads again, tight");
      EXPECT_EQ(sliced_again.reads, whole_runs.kept.size());
      batches += sliced_runs.batches;
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GT(batches, 100u) << "the stores did ask one another";
}

// Bridges between dead ends: a genome whose graph lost the k-mers of four gaps.
TEST(SlicedReadShare, StoresAskingEachOtherFindTheBridgesOneStoreFinds) {
  const xenon::testing::TemporaryDirectory directory("xenon-sliced-bridges");
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    std::mt19937_64 random(seed);
    const std::string genome = random_bases(random, 12000);
    UnitigGraph graph(kK);
    const std::vector<std::size_t> gaps = {2000, 5000, 8000, 10500};
    std::size_t from = 0;
    for (std::size_t i = 0; i <= gaps.size(); ++i) {  // the pieces between the gaps, some read the other way
      const std::size_t to = i < gaps.size() ? gaps[i] + kK - 1 : genome.size();
      const std::string piece = genome.substr(from, to - from);
      graph.add(i % 2 == 0 ? piece : reverse_complement(piece), 20, false);
      if (i < gaps.size()) from = gaps[i] + 40;
    }
    graph.compact();
    ThreadingRequest request;
    request.k = kK;
    request.bridges = true;
    request.ends = ReadThreads::ends_of(graph, kK);
    request.dead_ends = DeadEnds::of(graph).of_unitig;
    std::string fastq;
    for (std::size_t i = 0; i < 800; ++i) {
      const std::size_t gap = gaps[random() % gaps.size()];
      std::string read = genome.substr(gap - random() % 150, 60 + random() % 120);
      if (random() % 2 == 0) read = reverse_complement(read);
      if (random() % 4 == 0) read[random() % read.size()] = "ACGTN"[random() % 5];
      fastq += "@r" + std::to_string(i) + "\n" + read + "\n+\n" + std::string(read.size(), 'I') + "\n";
    }
    request.files = {directory.write("gaps" + std::to_string(seed) + ".fq", fastq)};
    const Outcome whole = thread_shares(request, 1, seed);
    ASSERT_GT(whole.bridges.size(), 16u) << "seed " << seed;
    for (std::size_t stores = 2; stores <= 4; ++stores) {
      const std::string what = "seed " + std::to_string(seed) + ", " + std::to_string(stores) + " stores";
      expect_same(thread_shares(request, stores, seed * 10 + stores), whole, what);
      expect_same(thread_shares(request, stores, seed * 10 + stores, {}, 1 + seed % 3, 64), whole, what + ", tight");
    }
  }
}

// A batch is refused when it names another threading or is cut short, answers to a batch never
// sent (or answered already) or short of its asks are refused, and an ask of a k-mer the slice
// does not own (the asker routes wrong) is refused too.
TEST(SlicedReadShare, BatchesOfAnotherThreadingOrCutShortAreRefused) {
  std::mt19937_64 random(5);
  std::vector<UnitigEnds> ends;
  const std::string genome = cut_genome(random, ends, ReadThreads::kEndSpan);
  const EndIndex first(ends, kK, ReadThreads::kEndSpan, 0, 2);
  std::vector<std::vector<std::byte>> sent(2);
  EndAskBatches asks(7, 2, kK, [&sent](std::size_t owner, std::vector<std::byte>&& batch) { sent[owner] = std::move(batch); });
  const std::string_view kmer = std::string_view(genome).substr(0, kK);
  const std::size_t owner = first.owner_of(genome, 0);
  std::size_t second = 1;  // another k-mer of the same owner
  while (first.owner_of(genome, second) != owner) ++second;
  asks.add(owner, kmer, 42);
  asks.add(owner, std::string_view(genome).substr(second, kK), 43);
  EXPECT_EQ(asks.unsent(), 2u);
  asks.flush();
  EXPECT_EQ(asks.unsent(), 0u);
  EXPECT_EQ(asks.batches_out(), 1u);
  ASSERT_FALSE(sent[owner].empty());
  EXPECT_EQ(end_lookup_threading(sent[owner]), 7u);
  const EndIndex mine(ends, kK, ReadThreads::kEndSpan, owner, 2);
  const EndIndex other(ends, kK, ReadThreads::kEndSpan, 1 - owner, 2);
  const std::vector<std::byte> answers = answer_end_asks(sent[owner], mine, 7);
  const auto ignore = [](std::uint64_t, std::optional<EndIndex::Place>) {};
  EXPECT_THROW(answer_end_asks(sent[owner], mine, 8), std::invalid_argument) << "another threading";
  std::vector<std::byte> short_asks = sent[owner];
  short_asks.pop_back();
  EXPECT_THROW(answer_end_asks(short_asks, mine, 7), std::invalid_argument) << "cut short";
  std::vector<std::byte> padded = sent[owner];
  padded.back() |= std::byte{0x80};  // k = 21: the last byte holds one base, in its low 2 bits
  EXPECT_THROW(answer_end_asks(padded, mine, 7), std::invalid_argument) << "bits past the last base";
  EXPECT_THROW(answer_end_asks(std::span(sent[owner]).first(16), mine, 7), std::invalid_argument) << "no asks";
  EXPECT_THROW(answer_end_asks(sent[owner], other, 7), std::invalid_argument) << "a k-mer the slice does not own";
  std::vector<std::byte> short_answers = answers;
  short_answers.resize(answers.size() - 24);
  EXPECT_THROW(asks.take_answers(short_answers, ignore), std::invalid_argument) << "an answer missing";
  std::vector<std::byte> of_another = answers;
  of_another[0] = std::byte{8};
  EXPECT_THROW(asks.take_answers(of_another, ignore), std::invalid_argument) << "another threading";
  std::vector<std::byte> nowhere_at_an_offset = answers;
  for (std::size_t byte = 16 + 8; byte < 16 + 16; ++byte) nowhere_at_an_offset[byte] = std::byte{0xff};  // the first's unitig
  nowhere_at_an_offset[16 + 16] = std::byte{1};                                                        // and its offset
  EXPECT_THROW(asks.take_answers(nowhere_at_an_offset, ignore), std::invalid_argument) << "nowhere, at an offset";
  std::vector<std::uint64_t> tickets;
  asks.take_answers(answers, [&](std::uint64_t ticket, std::optional<EndIndex::Place> place) {
    tickets.push_back(ticket);
    const std::optional<EndIndex::Place> expected = mine.place(genome, ticket == 42 ? 0 : second);
    ASSERT_EQ(place.has_value(), expected.has_value());
    if (place) {
      EXPECT_EQ(place->unitig, expected->unitig);
      EXPECT_EQ(place->offset, expected->offset);
    }
  });
  EXPECT_EQ(tickets, (std::vector<std::uint64_t>{42, 43}));
  EXPECT_EQ(asks.batches_out(), 0u);
  EXPECT_THROW(asks.take_answers(answers, ignore), std::invalid_argument) << "answered already";
  EXPECT_THROW(asks.add(owner, kmer.substr(1), 1), std::invalid_argument);
  EXPECT_THROW(asks.add(owner, std::string(kK, 'N'), 1), std::invalid_argument);
  EXPECT_EQ(asks.unsent(), 0u) << "a refused k-mer leaves no ask behind";
  asks.flush();
  EXPECT_EQ(asks.batches_out(), 0u) << "nor a batch to send";
  EXPECT_THROW(end_lookup_threading({}), std::invalid_argument);
}

}  // namespace
