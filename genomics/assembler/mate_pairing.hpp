// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/assembler/flat_lists.hpp"
#include "genomics/assembler/read_threads.hpp"
#include "genomics/io/read_pairing.hpp"

// Pairing the mates of read pairs among the stores that threaded them. A store keeps the
// unitigs of every read it threaded (ThreadedPaths) where it read them. Once node 0 has every
// piece's record count, it tells every store where each piece begins in its file and which
// files hold mates (PairingRequest). Each store then sends each mate to the store that owns
// its pair (by a hash of the pair's number), and each owner pairs the mates it is sent and
// counts each distinct pair of ways. The same pair of ways is counted by many owners (pairs
// are spread by number), so each owner sends each of its counts on to the store that sums that
// pair of ways (by a hash of its ways), and those send node 0 each distinct pair of ways once,
// with how many pairs took it. So node 0 receives what the graph's junctions make of the
// pairs, once, not a path per read nor a count per store, and no node holds more than its
// share of the reads.
//   coordinator -> store  ACTION_PAIR_MATES        PairingRequest
//   store -> itself       ACTION_PAIR_NEXT         route the next slice of mates (a slice a turn)
//   store -> store        ACTION_MATES             MateBatch (any number, each ~1 MiB)
//   store -> store        ACTION_MATES_SENT        how many MateBatch it sent that store (u64)
//   store -> store        ACTION_PAIR_COUNTS       PairCounts to sum (any number, each ~1 MiB)
//   store -> store        ACTION_PAIR_COUNTS_SENT  how many PairCounts it sent that store (u64)
//   store -> coordinator  ACTION_PAIRS_COUNTED     PairCounts, summed (any number, each ~1 MiB)
//   store -> coordinator  ACTION_PAIRING_DONE      how many PairCounts it sent before (u64)
namespace xenon::genomics {

inline constexpr Action ACTION_PAIR_MATES{"genomics.pairs.pair-mates"};
inline constexpr Action ACTION_PAIR_NEXT{"genomics.pairs.next-slice"};
inline constexpr Action ACTION_MATES{"genomics.pairs.mates"};
inline constexpr Action ACTION_MATES_SENT{"genomics.pairs.mates-sent"};
inline constexpr Action ACTION_PAIR_COUNTS{"genomics.pairs.counts-to-sum"};
inline constexpr Action ACTION_PAIR_COUNTS_SENT{"genomics.pairs.counts-sent"};
inline constexpr Action ACTION_PAIRS_COUNTED{"genomics.pairs.counted"};
inline constexpr Action ACTION_PAIRING_DONE{"genomics.pairs.done"};

using CompactPath = std::vector<ReadThreads::CompactOriented>;

// Where a read is: its piece of its file, and its record in the piece (from 1).
struct ReadPlace {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;
  std::uint64_t record = 0;
};

// One store's reads that met the graph, each with the unitigs of its runs, joined, and its
// lead (ReadThreads::Traced).
struct ThreadedPaths {
  std::vector<ReadPlace> places;
  FlatLists<ReadThreads::CompactOriented> paths;
  std::vector<std::int64_t> leads;
};

// How many records of its file come before a piece.
struct PieceStart {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;
  std::uint64_t first = 0;
};

struct PairingRequest {
  std::vector<MateFiles> mates;    // the files whose records pair (not positional ones that cannot)
  std::vector<PieceStart> pieces;  // of every store
  std::vector<ActorName> owners;   // the stores that pair, each a share of the pairs

  Payload encode() const;
  static PairingRequest decode(std::span<const std::byte> bytes);
};

// One mate on its way to the owner of its pair: which files (an index into the request's
// mates), the pair's number (its record number in them; for an interleaved file, its
// records' half), and which mate.
struct Mate {
  std::uint32_t mates = 0;
  std::uint64_t pair = 0;
  bool second = false;
  CompactPath path;
  std::int64_t lead = 0;  // ReadThreads::Traced
};

struct MateBatch {
  static void append(std::vector<std::byte>& message, const Mate& mate);
  static std::vector<Mate> decode(std::span<const std::byte> bytes);
};

// The pairs whose mates crossed these unitigs, first mate and second, how many, and the sum
// of their mates' leads.
struct PairCount {
  CompactPath first;
  CompactPath second;
  std::uint64_t pairs = 0;
  std::int64_t leads = 0;
};

struct PairCounts {
  static void append(std::vector<std::byte>& message, const PairCount& count);
  static std::vector<PairCount> decode(std::span<const std::byte> bytes);
};

// A store's side of sending: its reads' mates to the owners of their pairs, a slice of reads
// a step, about a MiB a message.
class MateRouter {
 public:
  using Send = std::function<void(std::size_t owner, std::vector<std::byte>&& batch)>;
  static constexpr std::size_t kReadsPerStep = 1 << 16;
  static constexpr std::size_t kMessageBytes = 1 << 20;

  MateRouter(const PairingRequest& request, ThreadedPaths paths);
  // Routes the next slice; false once every read is sent (the last batches flushed).
  bool step(const Send& send);
  // How many batches went to each owner (for ACTION_MATES_SENT).
  const std::vector<std::uint64_t>& batches_sent() const { return batches_sent_; }

 private:
  void flush(std::size_t owner, const Send& send);

  ThreadedPaths paths_;
  std::size_t at_ = 0;
  std::vector<MateFiles> mates_;
  // For each input file, the mates it holds records of (an index into mates_), if any.
  std::vector<std::int64_t> mates_of_file_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> first_of_piece_;
  std::vector<std::vector<std::byte>> outgoing_;  // per owner
  std::vector<std::uint64_t> batches_sent_;
};

// The owner of `pair` of `mates` among `owners` stores.
std::size_t owner_of_pair(std::uint32_t mates, std::uint64_t pair, std::size_t owners);
// The store among `owners` that sums the counts of the pairs of ways `first` and `second`.
std::size_t summer_of_pair_count(const CompactPath& first, const CompactPath& second, std::size_t owners);

// Counts of pairs of ways, each distinct pair of ways once with the sums of its pairs and leads.
class PairCountTable {
 public:
  void add(CompactPath first, CompactPath second, std::uint64_t pairs, std::int64_t leads);
  // The counts, about a MiB a message, in one list for each of `owners` stores: each pair of
  // ways in the list of the store that sums it (summer_of_pair_count). The table empties.
  std::vector<std::vector<std::vector<std::byte>>> take(std::size_t owners);

 private:
  struct Counted {
    std::uint64_t pairs = 0;
    std::int64_t leads = 0;
  };
  std::map<std::pair<CompactPath, CompactPath>, Counted> counts_;
};

// Tells when every store's batches of one kind have come: each store reports how many it sent.
class BatchesAwaited {
 public:
  void received() { ++batches_received_; }
  void sent(std::uint64_t batches) {  // one store's report
    ++reports_;
    batches_promised_ += batches;
  }
  // Every store (of `stores`) has reported, and every batch it promised is in. More reports
  // than stores, or more batches than they promised, throw: waiting on would never end.
  bool complete(std::size_t stores) const {
    if (reports_ > stores || (reports_ == stores && batches_received_ > batches_promised_)) {
      throw std::invalid_argument("pairing: " + std::to_string(reports_) + " reports of " + std::to_string(stores) +
                                  " stores, " + std::to_string(batches_received_) + " batches of " +
                                  std::to_string(batches_promised_) + " promised");
    }
    return reports_ == stores && batches_received_ == batches_promised_;
  }

 private:
  std::uint64_t reports_ = 0;
  std::uint64_t batches_promised_ = 0;
  std::uint64_t batches_received_ = 0;
};

// An owner's side: pairs the mates it is sent as they come, and counts each distinct pair of
// ways. A mate whose other mate met no unitig is never paired, as when one node paired them.
class MateMatcher {
 public:
  void add(std::span<const std::byte> batch);
  void sent(std::uint64_t batches) { awaited_.sent(batches); }  // one store's ACTION_MATES_SENT
  bool complete(std::size_t stores) const { return awaited_.complete(stores); }
  // The counted pairs, in one list of messages for each of `owners` stores, to sum
  // (PairCountTable::take); the matcher starts over empty.
  std::vector<std::vector<std::vector<std::byte>>> take_counts(std::size_t owners);

 private:
  struct Waiting {
    bool second = false;
    CompactPath path;
    std::int64_t lead = 0;
  };
  struct KeyHash {
    std::size_t operator()(const std::pair<std::uint32_t, std::uint64_t>& key) const noexcept;
  };

  std::unordered_map<std::pair<std::uint32_t, std::uint64_t>, Waiting, KeyHash> waiting_;
  PairCountTable counts_;
  BatchesAwaited awaited_;
};

// A summing store's side: adds up the counts that every owner sends it of the pairs of ways
// it sums, so that node 0 is sent each distinct pair of ways once.
class PairCountSummer {
 public:
  void add(std::span<const std::byte> batch);
  void sent(std::uint64_t batches) { awaited_.sent(batches); }  // one store's ACTION_PAIR_COUNTS_SENT
  bool complete(std::size_t stores) const { return awaited_.complete(stores); }
  // The summed counts, about a MiB a message; the summer starts over empty.
  std::vector<std::vector<std::byte>> take_counts();

 private:
  PairCountTable counts_;
  BatchesAwaited awaited_;
};

}  // namespace xenon::genomics
