// SPDX-License-Identifier: BSD-3-Clause
// A store's share of read threading (ReadShare), read from a file as a store reads it.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

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

constexpr int kK = 21;

using xenon::testing::random_bases;

struct Sent {
  std::vector<CrossedRun> records;
  std::vector<std::string> kept;
  std::uint64_t reads = 0;
};

// Everything one store sends for its share (the whole file), and the reads it kept.
Sent thread_share(const UnitigGraph& graph, const std::string& file, bool passages) {
  ThreadingRequest request;
  request.k = kK;
  request.keep_crossing_reads = true;
  request.passages = passages;
  request.ends = ReadThreads::ends_of(graph, kK);
  request.files = {file};
  request.pieces = plan_input({inspect_input(file)}, 1).front();
  ReadShare share(request);
  Sent sent;
  std::uint64_t messages = 0;
  while (share.step([&](std::vector<std::byte>&& message) {
    ++messages;
    for (CrossedRun& run : CrossedRuns::decode(message)) sent.records.push_back(std::move(run));
  })) {
  }
  EXPECT_EQ(share.done().failure, "");
  EXPECT_EQ(share.done().messages, messages) << "the report counts every message sent";
  sent.kept = share.take_kept();
  sent.reads = share.done().reads;
  return sent;
}

// In a repeat round a store counts its reads' passages (three unitigs in a row) and sends
// those, not the runs, which is all resolve_repeats reads: node 0 then counts every passage
// as it would from the runs (and as the whole graph threading every read does), and the store
// keeps the same reads to thread again. Two genomes share a repeat shorter than the reads,
// which reads cross in both directions, some with an N that cuts them in two runs.
TEST(ReadShare, AStoreSendingPassagesGivesTheCountsItsRunsWould) {
  std::mt19937_64 random(12);
  const std::string repeat = random_bases(random, 60);
  const std::vector<std::string> genomes = {random_bases(random, 1500) + repeat + random_bases(random, 1500),
                                            random_bases(random, 1200) + repeat + random_bases(random, 1300)};
  // As the stores' walks give it: each genome's flank into the repeat and out of it, and the
  // repeat once, each ending where the next begins (k - 1 bases shared).
  UnitigGraph graph(kK);
  const auto add = [&graph](const std::string& bases, std::uint64_t depth) {
    graph.add(bases, depth * (bases.size() - kK + 1), false);
  };
  for (const std::string& genome : genomes) {
    const std::size_t at = genome.find(repeat);
    add(genome.substr(0, at + kK - 1), 20);
    add(genome.substr(at + repeat.size() - (kK - 1)), 20);
  }
  add(repeat, 40);
  graph.compact();
  ASSERT_EQ(graph.unitigs().size(), 5u) << "two ways in, the repeat, two ways out";
  std::string fasta;
  int reads = 0;
  for (const std::string& genome : genomes) {
    for (std::size_t at = 0; at + 150 <= genome.size(); at += 3, ++reads) {
      std::string read = genome.substr(at, 150);
      if (reads % 2 == 1) read = reverse_complement(read);
      if (reads % 7 == 0) read[40] = 'N';
      fasta += ">r" + std::to_string(reads) + "\n" + read + "\n";
    }
  }
  const xenon::testing::TemporaryDirectory directory("xenon-read-share");
  const std::string file = directory.write("reads.fa", fasta);

  const Sent runs = thread_share(graph, file, false);
  const Sent passages = thread_share(graph, file, true);
  EXPECT_EQ(passages.reads, static_cast<std::uint64_t>(reads));
  EXPECT_EQ(runs.reads, passages.reads);
  EXPECT_FALSE(passages.kept.empty());
  EXPECT_EQ(passages.kept, runs.kept) << "the reads to thread again do not depend on what is sent";
  ReadThreads from_runs(kK);
  for (const CrossedRun& run : runs.records) from_runs.add_traced({run.unitigs}, {}, static_cast<std::uint32_t>(run.reads));
  ReadThreads from_passages(kK);
  std::size_t passages_sent = 0;
  for (const CrossedRun& passage : passages.records) {
    ASSERT_EQ(passage.unitigs.size(), 3u);
    const auto& u = passage.unitigs;
    EXPECT_EQ(ReadThreads::canonical_passage(u[0], u[1], u[2]), (ReadThreads::Passage{u[0], u[1], u[2]}))
        << "sent as counted";
    from_passages.add_passages(u[0], u[1], u[2], static_cast<std::uint32_t>(passage.reads));
    ++passages_sent;
  }
  EXPECT_GT(passages_sent, 0u);
  EXPECT_LT(passages_sent, runs.records.size()) << "a run of two unitigs holds no passage";
  ReadThreads whole(graph, kK);
  whole.thread_files({file});
  std::uint32_t counted = 0;
  const std::size_t oriented = 2 * graph.unitigs().size();
  for (std::size_t x = 0; x < oriented; ++x) {
    for (std::size_t y = 0; y < oriented; ++y) {
      for (std::size_t z = 0; z < oriented; ++z) {
        ASSERT_EQ(from_passages.passages(x, y, z), from_runs.passages(x, y, z)) << x << " " << y << " " << z;
        ASSERT_EQ(from_passages.passages(x, y, z), whole.passages(x, y, z)) << x << " " << y << " " << z;
        counted += from_passages.passages(x, y, z);
      }
    }
  }
  EXPECT_GT(counted, 0u);
  EXPECT_EQ(from_passages.distinct_paths(), 0u) << "node 0 keeps no read paths in a repeat round";
}

// A request cannot ask for passages together with paths or bridges: they are three purposes.
TEST(ReadShare, ARequestForPassagesAndPathsIsRefused) {
  ThreadingRequest request;
  request.k = kK;
  request.threading = 1;
  request.ends = {{1, std::string(kK, 'A'), {}}};
  request.files = {"a.fq"};
  InputPiece piece;
  piece.whole = true;
  const xenon::ActorName store = xenon::ActorName::make(0, 0, 7);
  request.shares = {{store, {piece}}};
  request.passages = true;
  EXPECT_TRUE(ThreadingRequest::decode(request.encode().bytes(), store).passages);
  request.paths = true;
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), store), std::invalid_argument);
  request.paths = false;
  request.bridges = true;
  request.dead_ends = {0};
  EXPECT_THROW(ThreadingRequest::decode(request.encode().bytes(), store), std::invalid_argument);
}

}  // namespace
