// SPDX-License-Identifier: BSD-3-Clause
// The walks' pieces joined into unitigs by the stores, which keep them to clean them
// (junction_cleaning.hpp), so that node 0 does not join them alone (on 40x E. coli, 42 k pieces into 17 k unitigs at k = 21: the
// largest of node 0's serial steps). Long unitigs come in many pieces: walks also start at
// seeds, one vertex in about a thousand, so that no walk is as long as the genome.
//
// Two pieces join where the last k-1 bases of one are the first k-1 of the other and no other
// piece meets that junction: one way in, one way out, as UnitigGraph::compact() joins them.
//  1. Every store sends each of its pieces' two ends to the store that owns the end's junction
//     (by a hash of the junction read its smaller way), one message to every store.
//  2. A junction's owner, once every store's ends are in, links the two ends that meet at a
//     junction with one way in and one way out, and tells both pieces' stores.
//  3. Linked pieces form chains (a cycle of pieces has no end). Once every store has all its
//     links, each chain's two end pieces send a token along it: each piece learns its place
//     and reading from either end. Each store tells the coordinator how many tokens it
//     started and, as they come, how many reached the other end of their chain.
//  4. When every token has (the coordinator says), each piece of a chain goes to the end
//     piece of the two with the smaller number, which joins the chain once all of it is in.
//     Pieces on no chain stay as they are. Those on a cycle of pieces (no token went round
//     it) go to node 0, whose compaction joins them: nothing else meets a cycle's junctions.
// An owner that sees every end at a junction also knows, for each, whether anything leads on
// from it (an end there the other way): each unitig comes out with that for its two ends, which
// is what the cleaning's tips are judged by, so they take no exchange of their own.
// Pieces are numbered by store (high 32 bits) and in the order their store walked them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace xenon::genomics {

class PieceJoining {
 public:
  // One message for every store, by store index (empty: nothing for that store).
  using Messages = std::vector<std::vector<std::byte>>;
  // For a unitig's start and its end, whether anything leads on from the junction there, read
  // the way the unitig arrives at it (another unitig's end there the other way; always at a
  // junction that is its own reverse complement).
  using WaysOn = std::array<bool, 2>;
  // A unitig joined, or a piece as it was walked (its bases moved out).
  using Emit = std::function<void(std::string bases, std::uint64_t coverage_sum, WaysOn ways_on)>;

  PieceJoining(int k, std::size_t stores, std::size_t self);

  void add_piece(std::string bases, std::uint64_t coverage_sum);
  std::size_t pieces() const { return pieces_.size(); }

  // Step 1: this store's piece ends, to their junctions' owners (every store gets a message,
  // empty or not: its owner counts them).
  Messages ends() const;
  // Step 2, as an owner of junctions: one store's ends; true once every store's are in.
  bool ends_arrived(std::span<const std::byte> bytes);
  // The links at this store's junctions, and the ends that something leads on from, to the
  // stores of their pieces; the ends go.
  Messages links();

  // Step 3: one store's links of this store's pieces; true once every store's are in.
  bool links_arrived(std::span<const std::byte> bytes);
  bool all_links_in() const { return links_in_ == stores_; }
  // From each piece at one end of a chain, a token to the next piece (by store).
  Messages start_tokens();
  // Tokens for this store's pieces (all links in): those that go on, by store.
  Messages pass_tokens(std::span<const std::byte> bytes);
  std::uint64_t tokens_started() const { return tokens_started_; }
  std::uint64_t tokens_finished() const { return tokens_finished_; }

  // Step 4, once every store's tokens have all finished: the chains' pieces to their
  // collectors (by store); pieces on no chain through `emit`, and those on a cycle of pieces
  // through `emit_cycle_piece` (nothing else meets a cycle's junctions).
  Messages gather(const Emit& emit, const Emit& emit_cycle_piece);
  // Pieces of chains this store collects: each chain joined and emitted once all of it is in.
  void gathered(std::span<const std::byte> bytes, const Emit& emit);
  // Whether gather() was called and every chain this store collects was emitted.
  bool done() const { return gathered_ && chains_.empty(); }
  // The chains this store joined, and the pieces in them.
  std::uint64_t chains_joined() const { return chains_joined_; }
  std::uint64_t pieces_joined() const { return pieces_joined_; }

 private:
  static constexpr int kStart = 0;  // a piece's first k-1 bases
  static constexpr int kEnd = 1;    // its last k-1 bases
  static constexpr std::uint64_t kLeadsOn = 2;  // in links: kLeadsOn + side, an end with ways on and no link

  struct Link {
    std::uint64_t piece = 0;  // the piece this side meets
    int side = kStart;        // and the side of it that meets this one
  };
  // A token's visit: the chain read from its end piece `origin`, this piece the
  // `position`-th, read reverse complemented or not.
  struct Visit {
    std::uint64_t origin = 0;
    std::uint32_t position = 0;
    bool reversed = false;
  };
  struct Piece {
    std::string bases;
    std::uint64_t coverage_sum = 0;
    std::array<bool, 2> linked{};
    std::array<Link, 2> links{};
    WaysOn ways_on{};
    std::array<Visit, 2> visits{};
    int visit_count = 0;
  };
  // A junction's end of a piece, as the junction's owner keeps it until every store's are in.
  struct End {
    std::string junction;  // read its smaller way
    std::uint64_t piece = 0;
    int side = kStart;
    bool entering = false;  // the piece, read so that the junction is read its smaller way, ends there
  };
  // A chain this store collects (its end piece has the smaller number): the pieces in order.
  struct Chain {
    std::vector<std::string> bases;
    std::vector<bool> in;
    std::uint64_t coverage_sum = 0;
    WaysOn ways_on{};  // at its first piece's start and its last piece's end
    std::size_t missing = 0;
  };

  std::uint64_t id_of(std::size_t local) const { return (static_cast<std::uint64_t>(self_) << 32) | local; }
  static std::size_t store_of(std::uint64_t id) { return static_cast<std::size_t>(id >> 32); }
  static std::size_t local_of(std::uint64_t id) { return static_cast<std::size_t>(id & 0xffffffffu); }
  Piece& piece_at(std::uint64_t local, const char* what);
  void visit(std::size_t local, const Visit& visit, int entered_at, Messages& out);
  void put_in_chain(std::uint64_t collector_local, std::uint32_t position, std::string bases,
                    std::uint64_t coverage_sum, WaysOn ways_on, const Emit& emit);

  std::size_t k_;
  std::size_t stores_;
  std::size_t self_;
  std::vector<Piece> pieces_;
  std::vector<End> ends_;  // as an owner of junctions
  std::size_t ends_in_ = 0;
  std::size_t links_in_ = 0;
  std::uint64_t tokens_started_ = 0;
  std::uint64_t tokens_finished_ = 0;
  bool gathered_ = false;
  std::unordered_map<std::uint64_t, Chain> chains_;  // by the collector's local number
  std::uint64_t chains_joined_ = 0;
  std::uint64_t pieces_joined_ = 0;
};

}  // namespace xenon::genomics
