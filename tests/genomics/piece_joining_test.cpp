// SPDX-License-Identifier: BSD-3-Clause
// The stores joining the walks' pieces into unitigs (piece_joining.hpp): run over 1 to 8
// stores whose messages arrive in a random order, and checked against node 0 compacting every
// piece alone, as it did before: the same unitigs, and only what the stores cannot join
// (cycles of pieces, junctions that are their own reverse complement, branches) left to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "genomics/assembler/piece_joining.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "tests/genomics/joining_run.hpp"
#include "tests/genomics/random_bases.hpp"

namespace xenon::genomics {
namespace {

using xenon::testing::random_bases;

// `sequence` cut into pieces that share k-1 bases where they meet, each read either way.
void cut(std::mt19937_64& random, const std::string& sequence, std::size_t k, std::vector<RawPiece>& pieces) {
  const std::size_t kmers = sequence.size() - k + 1;
  std::size_t first = 0;
  while (first < kmers) {
    const std::size_t taken = std::min<std::size_t>(kmers - first, 1 + random() % 40);
    std::string bases = sequence.substr(first, taken + k - 1);
    if (random() % 2 == 0) bases = reverse_complement(bases);
    pieces.push_back({std::move(bases), 1 + random() % 1000});
    first += taken;
  }
}

// Unitigs of random bases (with k = 21 no two share a junction by chance), a branch (two
// unitigs leaving the end of one), two unitigs that end at one junction and two that leave
// one (two ends there, both one way: not joined), a cycle in `cycle_pieces` pieces, a cycle
// in one piece (both its ends at one junction), and, for odd k, a unitig cut where its
// junction reads the same both ways.
std::vector<RawPiece> random_pieces(std::mt19937_64& random, std::size_t k, std::size_t& cycle_pieces) {
  std::vector<RawPiece> pieces;
  for (int unitig = 0; unitig < 30; ++unitig) cut(random, random_bases(random, k + random() % 400), k, pieces);
  const std::string trunk = random_bases(random, 150);
  const std::string junction = trunk.substr(trunk.size() - (k - 1));
  cut(random, trunk, k, pieces);
  cut(random, junction + random_bases(random, 90), k, pieces);
  cut(random, junction + random_bases(random, 120), k, pieces);
  const std::string meeting = random_bases(random, k - 1);
  cut(random, random_bases(random, 50) + meeting, k, pieces);
  cut(random, random_bases(random, 70) + meeting, k, pieces);
  const std::string parting = random_bases(random, k - 1);
  cut(random, parting + random_bases(random, 40), k, pieces);
  cut(random, reverse_complement(parting + random_bases(random, 60)), k, pieces);
  const std::string ring = random_bases(random, 45);
  pieces.push_back({ring + ring.substr(0, k - 1), 7});
  const std::string circle = random_bases(random, 300);
  const std::size_t before_cycle = pieces.size();
  cut(random, circle + circle.substr(0, k - 1), k, pieces);
  cycle_pieces = pieces.size() - before_cycle;
  if ((k - 1) % 2 == 0) {
    const std::string half = random_bases(random, (k - 1) / 2);
    const std::string palindrome = half + reverse_complement(half);
    cut(random, random_bases(random, 60) + palindrome, k, pieces);
    cut(random, palindrome + random_bases(random, 70), k, pieces);
  }
  std::shuffle(pieces.begin(), pieces.end(), random);
  return pieces;
}

std::vector<std::tuple<std::string, std::uint64_t, bool>> compacted(std::size_t k, const std::vector<RawPiece>& pieces) {
  UnitigGraph graph(static_cast<int>(k));
  for (const RawPiece& piece : pieces) graph.add(piece.bases, piece.coverage_sum, false);
  graph.compact();
  std::vector<std::tuple<std::string, std::uint64_t, bool>> unitigs;
  for (const Unitig& unitig : graph.unitigs()) unitigs.emplace_back(unitig.bases, unitig.coverage_sum, unitig.circular);
  return unitigs;
}

// Whether anything leads on from `junction` (k-1 bases, read the way a unitig arrives at it)
// among `unitigs`: one that leaves it read either way, or any at all when the junction reads
// the same both ways.
bool leads_on(const std::string& junction, const std::vector<RawPiece>& unitigs) {
  if (reverse_complement(junction) == junction) return true;
  const std::string other_way = reverse_complement(junction);
  return std::any_of(unitigs.begin(), unitigs.end(), [&](const RawPiece& unitig) {
    return unitig.bases.starts_with(junction) || unitig.bases.ends_with(other_way);
  });
}

// Each unitig's ways on, as the joined unitigs themselves give them.
void expect_ways_on(std::size_t k, const std::vector<RawPiece>& unitigs, std::array<std::size_t, 2>& seen) {
  for (const RawPiece& unitig : unitigs) {
    const std::string first = unitig.bases.substr(0, k - 1);
    const std::string last = unitig.bases.substr(unitig.bases.size() - (k - 1));
    EXPECT_EQ(unitig.ways_on[0], leads_on(reverse_complement(first), unitigs)) << "at the start of " << unitig.bases;
    EXPECT_EQ(unitig.ways_on[1], leads_on(last, unitigs)) << "at the end of " << unitig.bases;
    for (const bool way : unitig.ways_on) ++seen[way ? 1 : 0];
  }
}

TEST(PieceJoining, JoinsWhatCompactionWouldWhereverThePiecesAndMessagesGo) {
  std::array<std::size_t, 2> ways_on_seen{};  // ends with nothing, and with something, leading on
  for (const std::size_t k : {21u, 22u}) {
    for (const std::size_t stores : {1u, 2u, 3u, 8u}) {
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        std::mt19937_64 random(seed * 100 + stores);
        std::size_t cycle_pieces = 0;
        const std::vector<RawPiece> pieces = random_pieces(random, k, cycle_pieces);
        JoiningRun run(k, stores, seed);
        for (const RawPiece& piece : pieces) run.store(random() % stores).add_piece(piece.bases, piece.coverage_sum);
        const std::vector<RawPiece> unitigs = run.run();
        const auto expected = compacted(k, pieces);
        EXPECT_EQ(compacted(k, unitigs), expected) << stores << " stores, seed " << seed << ", k " << k;
        // Every unitig arrives whole but the cycle, left in its pieces for node 0 to join:
        // they, and they alone, come as pieces of a cycle.
        EXPECT_EQ(unitigs.size(), expected.size() - 1 + cycle_pieces) << stores << " stores, seed " << seed;
        EXPECT_EQ(static_cast<std::size_t>(std::count(run.on_cycle().begin(), run.on_cycle().end(), true)), cycle_pieces);
        EXPECT_GT(pieces.size(), 2 * unitigs.size()) << "pieces to join";
        // And says for each end whether anything leads on from it, as tips are judged.
        std::vector<RawPiece> joined;
        for (std::size_t at = 0; at < unitigs.size(); ++at) {
          if (!run.on_cycle()[at]) joined.push_back(unitigs[at]);
        }
        expect_ways_on(k, joined, ways_on_seen);
      }
    }
  }
  EXPECT_GT(ways_on_seen[0], 0u);
  EXPECT_GT(ways_on_seen[1], 0u);
}

TEST(PieceJoining, LeavesACycleOfTwoPiecesAsItWasAndJoinsAChainOfTwo) {
  constexpr std::size_t k = 21;
  std::mt19937_64 random(11);
  const std::string circle = random_bases(random, 60);
  const std::string closed = circle + circle.substr(0, k - 1);  // 60 k-mers
  const std::string line = random_bases(random, 50);
  JoiningRun run(k, 2, 7);
  run.store(0).add_piece(closed.substr(0, 50), 6);  // 30 k-mers
  run.store(1).add_piece(closed.substr(30), 9);     // the other 30: each piece goes on into the other
  run.store(1).add_piece(line.substr(0, 35), 3);
  run.store(0).add_piece(reverse_complement(line.substr(15)), 4);  // goes on from the one before, read backwards
  std::vector<RawPiece> out = run.run();
  ASSERT_EQ(out.size(), 3u);
  for (std::size_t at = 0; at < out.size(); ++at) {
    EXPECT_EQ(run.on_cycle()[at], out[at].coverage_sum != 7) << "the cycle's pieces, and not the joined chain";
  }
  std::sort(out.begin(), out.end(), [](const RawPiece& a, const RawPiece& b) { return a.coverage_sum < b.coverage_sum; });
  EXPECT_EQ(out[0].bases, closed.substr(0, 50));  // the cycle's pieces, unjoined
  EXPECT_EQ(out[2].bases, closed.substr(30));
  EXPECT_TRUE(out[1].bases == line || out[1].bases == reverse_complement(line)) << out[1].bases;
  EXPECT_EQ(out[1].coverage_sum, 7u);  // 3 + 4
}

// A chain whose second piece is held reversed, ending where two unitigs leave: the joined
// unitig leads on at that end only, whichever way it comes out and whichever store joins it.
TEST(PieceJoining, TellsEachUnitigWhatLeadsOnFromItsEnds) {
  constexpr std::size_t k = 21;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 random(seed);
    const std::string line = random_bases(random, 60);
    const std::string junction = line.substr(line.size() - (k - 1));
    JoiningRun run(k, 2, seed);
    run.store(1).add_piece(line.substr(0, 35), 3);
    run.store(0).add_piece(reverse_complement(line.substr(15)), 4);
    run.store(seed % 2).add_piece(junction + random_bases(random, 30), 5);
    run.store(1 - seed % 2).add_piece(reverse_complement(junction + random_bases(random, 40)), 6);
    const std::vector<RawPiece> out = run.run();
    ASSERT_EQ(out.size(), 3u);
    for (const RawPiece& unitig : out) {
      if (unitig.coverage_sum == 7) {  // the line, joined
        const bool forward = unitig.bases == line;
        ASSERT_TRUE(forward || unitig.bases == reverse_complement(line)) << unitig.bases;
        EXPECT_EQ(unitig.ways_on, (PieceJoining::WaysOn{!forward, forward})) << "seed " << seed;
      } else {  // a branch: the line arrives where it leaves, nothing at its other end
        const bool forward = unitig.bases.starts_with(junction);
        EXPECT_EQ(unitig.ways_on, (PieceJoining::WaysOn{forward, !forward})) << "seed " << seed;
      }
    }
  }
}

TEST(PieceJoining, RefusesMessagesThatDoNotFit) {
  PieceJoining joining(21, 2, 0);
  EXPECT_THROW(joining.add_piece("ACGT", 1), std::invalid_argument);
  std::vector<std::byte> ends;
  put_varint(ends, 5);  // a store outside the two
  EXPECT_THROW(joining.ends_arrived(ends), std::invalid_argument);
  std::vector<std::byte> links;
  put_varint(links, 0);  // a piece this store does not have
  put_varint(links, 0);
  put_varint(links, 1);
  put_varint(links, 0);
  EXPECT_THROW(joining.links_arrived(links), std::invalid_argument);
  std::vector<std::byte> leads_on;
  put_varint(leads_on, 0);  // something leads on from the end of a piece this store does not have
  put_varint(leads_on, 3);
  EXPECT_THROW(PieceJoining(21, 2, 0).links_arrived(leads_on), std::invalid_argument);
  EXPECT_THROW(joining.start_tokens(), std::logic_error) << "before every store's links";
  std::vector<std::byte> gathered;
  for (const std::uint64_t field : {0, 0, 10, 4, 21}) put_varint(gathered, field);  // ways on 4: out of range
  gathered.resize(gathered.size() + 21, std::byte{'A'});
  EXPECT_THROW(joining.gathered(gathered, [](std::string, std::uint64_t, PieceJoining::WaysOn) {}), std::invalid_argument);
  EXPECT_THROW(PieceJoining(21, 2, 2), std::invalid_argument);
}

}  // namespace
}  // namespace xenon::genomics
