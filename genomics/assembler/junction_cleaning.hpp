// SPDX-License-Identifier: BSD-3-Clause
// Cleaning decided where the unitigs meet, by the stores that hold them, so that node 0 is
// sent the cleaned graph and never holds the graph it was cleaned from. It makes the same
// decisions as UnitigGraph::clean() (graph_cleaning.cpp), which takes in each round three
// kinds of removal in turn:
//  - weak branches: a unitig read less than the threshold goes when, read either way, it
//    ends at a junction where another unitig read at least that often ends too;
//  - tips: a unitig shorter than the tip length with nothing before it (read one way) goes
//    when it ends at a junction where a better covered unitig ends beside which it looks
//    like an error. Whether anything comes before a unitig or after it is known at its two
//    junctions: the joining that left the unitigs as they are says it for each (its ways on,
//    piece_joining.hpp);
//  - bubbles: unitigs between the same two junctions, of about the same length, are judged
//    against the best covered of them by the store that owns that pair of junctions.
// A step judges every kind the round has left, from the one it begins with, on the unitigs as
// they are: until one of them removes something, the graph is the same for all. Every store
// then removes the first kind that removed anything anywhere and joins what is left
// (piece_joining.hpp), as compact() does; the kinds after it are judged again by the next step
// (cleaning_rounds.hpp). A round that removes nothing takes one step.
// Each step is two exchanges: every store sends every store one message, the ends (and pairs
// of junctions) that store owns; each owner, once every store's are in, judges and sends every
// store one message back, the verdicts on its unitigs with how many of each kind it gave in
// all, so that every store knows which kind goes without asking, and what comes next: it
// follows the rounds from those counts (judged_anywhere()) and takes the next step by itself.
// Every unitig comes from a joining, and no step begins after a removal before the joining.
//
// The stores hold unitigs walked from one set of k-mers, so no two share a k-mer: their first
// k bases, read the smaller way, put them in the graph's sequence order, which breaks ties
// between equally covered unitigs as UnitigGraph does. A cycle meets nothing else at its
// junctions, so it is never judged: node 0 holds the cycles no walk reached and the pieces of
// cycles of pieces (each joining sends them), and a unitig that a step left a ring by itself
// (its ends at one junction, nothing else there) stays on its store unjudged until node 0's
// compaction closes it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "genomics/assembler/cleaning_rules.hpp"

namespace xenon::genomics {

class JunctionCleaning {
 public:
  // The kinds of removal, in the order a round takes them.
  enum class Step : std::uint8_t { weak_branches = 0, tips = 1, bubbles = 2 };
  static constexpr std::size_t kKinds = 3;
  // The figures the steps judge by: the coverage threshold, and the tip and bubble lengths
  // for this k (CleaningSettings).
  struct Rules {
    std::uint64_t threshold = 0;
    std::size_t tip_length = 0;
    std::size_t bubble_length = 0;
  };
  // One message for every store, by store index.
  using Messages = std::vector<std::vector<std::byte>>;
  struct StoredUnitig {
    std::string bases;
    std::uint64_t coverage_sum = 0;
  };
  // At a unitig's start and end, whether anything leads on (PieceJoining::WaysOn).
  using WaysOn = std::array<bool, 2>;

  JunctionCleaning(int k, std::size_t stores, std::size_t self);

  // A unitig as a joining gave it (PieceJoining::Emit).
  void add(std::string bases, std::uint64_t coverage_sum, WaysOn ways_on);
  const std::vector<StoredUnitig>& unitigs() const { return unitigs_; }
  std::vector<StoredUnitig> take_unitigs();

  // A step begins, judging every kind from `first` on: this store's ends (and pairs of
  // junctions) to their owners. Refused after a removal until the unitigs were taken and
  // joined again.
  Messages begin(Step first, const Rules& rules);
  // As an owner: one store's records; true once every store's are in.
  bool reports_arrived(std::span<const std::byte> bytes);
  // As an owner: the verdicts on the records it holds, to their unitigs' stores.
  Messages verdicts();
  // One owner's verdicts on this store's unitigs; true once every owner's are in: then
  // removed_in_step() says how many of them each kind would remove.
  bool verdicts_arrived(std::span<const std::byte> bytes);
  std::uint64_t removed_in_step(Step kind) const { return removed_[static_cast<std::size_t>(kind)]; }
  std::uint64_t kmers_removed_in_step(Step kind) const { return kmers_removed_[static_cast<std::size_t>(kind)]; }
  // Once every owner's verdicts are in: the first kind any owner judged anything to go for,
  // the same on every store; none when the step removes nothing anywhere.
  std::optional<Step> kind_to_remove() const;
  // Once every owner's verdicts are in: how many verdicts of each kind the owners gave in all
  // (not 0 exactly where that kind removes anything anywhere), the same on every store.
  const std::array<std::uint64_t, kKinds>& judged_anywhere() const;
  // The unitigs the last step judged to go for `kind` go; the rest wait to be taken and joined.
  void remove_judged(Step kind);

 private:
  static constexpr int kStart = 0;  // a unitig's first k-1 bases, as it is held
  static constexpr int kEnd = 1;    // its last k-1 bases
  // Record flags.
  static constexpr std::uint64_t kEntering = 1;      // an end: the unitig ends at the junction read its smaller way
  static constexpr std::uint64_t kWeakEligible = 2;  // an end: the unitig may go as a weak branch
  static constexpr std::uint64_t kTipEligible = 4;   // an end: the unitig may go as a tip for it
  static constexpr std::uint64_t kBubbleReading = 8;  // not an end: a reading of a short unitig between its two junctions
  // A unitig's record at an owner: one end (read the way that ends there), or one reading of
  // it between two junctions.
  struct Record {
    std::string key;  // the junction read its smaller way, or the two junctions
    std::size_t store = 0;
    std::uint64_t local = 0;
    int side = kStart;
    std::uint64_t flags = 0;
    std::uint64_t coverage_sum = 0;
    std::uint64_t length = 0;
    std::string order;  // its first k bases read the smaller way: its place in sequence order
  };
  void put_record(std::vector<std::byte>& message, std::string_view key, std::size_t local, int side,
                  std::uint64_t flags, std::string_view order) const;
  using Counts = std::array<std::uint64_t, kKinds>;
  // The verdicts judged go into `out`, by store, and are counted by kind in `given`.
  void judge_ends(std::span<const Record> group, Messages& out, Counts& given) const;
  void judge_bubbles(std::span<const Record> group, Messages& out, Counts& given) const;
  bool better(const Record& a, const Record& b) const;
  cleaning_rules::Coverage coverage(const Record& record) const { return {record.coverage_sum, record.length - k_ + 1}; }
  static void put_verdict(Messages& out, Counts& given, const Record& record, Step kind);

  std::size_t k_;
  std::size_t stores_;
  std::size_t self_;
  std::vector<StoredUnitig> unitigs_;
  Step first_ = Step::weak_branches;
  Rules rules_;
  bool in_step_ = false;
  bool judged_ = false;  // a step's verdicts are all in, none removed yet
  // For each unitig's side (2 * local + side), whether anything leads on from the junction
  // there, read the way the unitig arrives at it: as the joining gave it.
  std::vector<bool> ways_on_;
  bool removed_since_joined_ = false;
  std::vector<Record> records_;  // as an owner, until every store's are in
  std::optional<Step> records_step_;  // the first kind the records are of
  std::size_t reports_in_ = 0;
  std::size_t verdicts_in_ = 0;
  std::vector<bool> verdict_marks_;  // kKinds * local + kind: the unitig goes for that kind
  Counts removed_{};
  Counts kmers_removed_{};
  Counts judged_anywhere_{};  // verdicts of each kind, from every owner
};

}  // namespace xenon::genomics
