// SPDX-License-Identifier: BSD-3-Clause
// The k-mers near the unitigs' ends, each with where it lies: what a read's k-mers are looked
// up in to thread it through the graph. Whole (every end k-mer) or one owner's slice of them,
// so that the stores can share one index instead of each holding all of it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "genomics/kmer/kmer_ops.hpp"
#include "genomics/kmer/linear_probing.hpp"

namespace xenon::genomics {

// The bases of a unitig that reads are threaded by: the k-mers near its ends (all of them in
// a short unitig), which is what a node needs of the graph to thread its share of the reads.
struct UnitigEnds {
  std::uint64_t kmers = 0;  // in the whole unitig
  std::string head;         // the bases of its first k-mers (all its bases when short)
  std::string tail;         // of its last k-mers; empty when `head` holds them

  // Those of a unitig of `bases` (at least k), for reads crossing within `end_span` k-mers of
  // an end: all its bases when it has 2 end_span k-mers or fewer.
  static UnitigEnds of(std::string_view bases, std::size_t k, std::size_t end_span);

  // Its first and last k-1 bases, read forward or (`reversed`) reverse complemented: what
  // UnitigGraph::first_junction and last_junction give, from these bases alone.
  std::string first_junction(bool reversed, std::size_t k) const;
  std::string last_junction(bool reversed, std::size_t k) const;
};

class EndIndex {
 public:
  using Oriented = std::size_t;  // a unitig read one way: index * 2 + reversed

  // Where a k-mer lies: the unitig read the way the k-mer reads it, and its offset along
  // that reading.
  struct Place {
    Oriented unitig = 0;
    std::size_t offset = 0;
  };

  // Which of `owners` owns a canonical k-mer, by its routing hash (key_of's last word): the
  // hash's low half, since the high half picks a slot's home (LinearProbing::home). By the
  // high half each owner's k-mers would crowd into a 1/owners stretch of its slots.
  static std::size_t owner_of_hash(std::uint64_t hash, std::size_t owners) {
    return static_cast<std::size_t>(((hash & 0xffffffffu) * owners) >> 32);
  }

  // Owners are numbered in 16 bits (tickets name them: owner_ask.hpp).
  static constexpr std::size_t kMostOwners = std::size_t{1} << 16;

  // Nothing indexed: places nothing (a ReadThreads that only counts).
  explicit EndIndex(int k);
  // The end k-mers of `ends` (within `end_span` k-mers of each end, as UnitigEnds::of cuts
  // them) that `owner` of `owners` owns: all of them for one owner. A k-mer in two places
  // (copies of a settled repeat, a cycle's seam) is placed nowhere: all its copies have one
  // owner, so a slice places exactly the k-mers it owns that the whole index places, where
  // the whole index places them. Ends cut otherwise are refused (invalid_argument).
  EndIndex(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span, std::size_t owner = 0,
           std::size_t owners = 1);

  // Where the k-mer at `start` of `bases` (ACGT) lies, when it is indexed here.
  std::optional<Place> place(std::string_view bases, std::size_t start) const;
  // The first k-mer of `bases` (ACGT only, as place()) at or after `from` that place() finds,
  // trying every `step`-th (step >= 1): where it lies, with its start in `found`; none found,
  // `found` is the first start tried that has fewer than k bases after it.
  std::optional<Place> next_place(std::string_view bases, std::size_t from, std::size_t step,
                                  std::size_t& found) const;
  // Which owner holds the k-mer at `start` of `bases` (ACGT).
  std::size_t owner_of(std::string_view bases, std::size_t start) const;
  // Its owner, and whether any owner may hold it at all: a slice keeps a filter of every end
  // k-mer (KmerBloomFilter::sized_for: 16 bits each), which says "no" of nearly all the k-mers
  // of reads that lie near no end, so that those need not be asked of their owner.
  // With its place looked up when this slice owns it: one packing and hashing of the k-mer.
  struct Route {
    std::size_t owner = 0;
    bool maybe_held = true;
    std::optional<Place> place;  // when owner() owns it
  };
  Route route(std::string_view bases, std::size_t start) const;
  // A slice's next_place: the first k-mer of `bases` at or after `from`, every `step`-th, that
  // this slice places or another owner may hold (its route, with its start in `found`); where
  // none is, a route that is not maybe_held, and `found` as next_place leaves it. The k-mers
  // tried before it are held by no owner, or by this one and not placed.
  Route next_route(std::string_view bases, std::size_t from, std::size_t step, std::size_t& found) const;
  // Where `kmer` lies, as place() says, for another owner that asked: a k-mer of other than k
  // bases, with a base not ACGT, or owned by another owner is refused (invalid_argument), as
  // it says the asker routes wrong.
  std::optional<Place> place_owned(std::string_view kmer) const;
  // Refuses (invalid_argument) an answer that places a k-mer outside the unitigs or past the
  // last k-mer of its unitig: another owner's answer is a message, not to be trusted.
  void check_answer(const std::optional<Place>& place) const;
  // The step that finds a read's first placed k-mer: a few spread over the read, as an error
  // breaks the k k-mers around it.
  std::size_t search_stride() const { return std::max<std::size_t>(1, static_cast<std::size_t>(k_) / 4); }
  std::size_t owner() const { return owner_; }
  std::size_t owners() const { return owners_; }

  // Every unitig's k-mer count (slices keep all of them: a read leaves a unitig by it).
  std::size_t unitig_kmers(std::size_t index) const { return kmers_[index]; }
  std::size_t unitigs() const { return kmers_.size(); }
  // The distinct k-mers held (ambiguous ones included), and the most slots a lookup passes.
  std::size_t entries() const { return entries_; }
  std::size_t longest_probe() const;
  // Its slots, keys, locations and tags, the unitigs' k-mer counts and the filter.
  std::uint64_t bytes() const;
  std::uint64_t filter_bytes() const { return filter_.bytes(); }
  int k() const { return k_; }

 private:
  // 8 bytes a slot, as the keys of k <= 32.
  struct Location {
    std::uint32_t unitig = 0;
    std::uint32_t offset : 31 = 0;            // of the k-mer in the unitig's bases
    std::uint32_t canonical_forward : 1 = 1;  // the unitig holds the canonical k-mer as it is
  };
  static_assert(sizeof(Location) == 8);

  static constexpr std::uint32_t kAmbiguous = ~std::uint32_t{0};
  static constexpr std::uint8_t kEmpty = 0;
  // How full the index may be: its misses read tag bytes, so a fuller table costs them little,
  // and every node holds one. threading_bench, side by side: at 0.6 (a sixth fewer slots than
  // half full) 0.95-1.02x the reads per second of 0.5; at 2/3, 0.6-0.9x.
  static constexpr double kFullest = 0.6;
  // A key's tag: its hash's low byte (the home is the high bits), never kEmpty.
  static std::uint8_t tag_of(std::uint64_t hash) {
    const auto tag = static_cast<std::uint8_t>(hash);
    return tag == kEmpty ? 1 : tag;
  }
  static constexpr std::uint32_t kLargestOffset = (std::uint32_t{1} << 31) - 1;  // Location::offset

  // The canonical k-mers in their slots, of as many words as k needs: one up to k = 32, two up
  // to 64, four above.
  template <int Words>
  struct EndKeys {
    KmerShape<Words> shape;
    std::vector<PackedKmer<Words>> keys;
  };
  using AnyEndKeys = std::variant<EndKeys<1>, EndKeys<2>, EndKeys<4>>;
  static AnyEndKeys end_keys_for(int k);

  // Checks that `ends` are cut as UnitigEnds::of cuts them, and keeps each one's k-mer count.
  void take_unitig_kmers(const std::vector<UnitigEnds>& ends);
  // Calls visit(kmer, canonical, hash, offset) for each k-mer of `bases`, the first at
  // `first_offset` in its unitig.
  template <int Words, class Visit>
  void for_each_kmer(const EndKeys<Words>& end_keys, const std::string& bases, std::size_t first_offset,
                     Visit&& visit) const;
  // The end k-mers this slice owns, counted, and every one put in the filter.
  template <int Words>
  std::size_t count_owned_and_filter(const EndKeys<Words>& end_keys, const std::vector<UnitigEnds>& ends);
  template <int Words>
  void insert(EndKeys<Words>& end_keys, const std::string& bases, std::size_t unitig, std::size_t first_offset);
  // The slot of a canonical k-mer, or the empty one where it goes; `hash` is its key's routing
  // word (key_of), which gives both its home and its tag.
  template <int Words>
  std::size_t slot_of(const EndKeys<Words>& end_keys, const PackedKmer<Words>& canonical, std::uint64_t hash) const;
  template <int Words>
  std::optional<Place> place_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t start) const;
  template <int Words>
  Route route_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t start) const;
  // Where `kmer` (as read) lies, its canonical form and that form's hash known.
  template <int Words>
  std::optional<Place> place_canonical(const EndKeys<Words>& end_keys, const PackedKmer<Words>& kmer,
                                       const PackedKmer<Words>& canonical, std::uint64_t hash) const;
  // next_place, and in a slice (Sliced) next_route: the first k-mer tried that this index
  // places or, Sliced, that another owner may hold.
  template <int Words, bool Sliced>
  Route search_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t from, std::size_t step,
                  std::size_t& found) const;

  int k_;
  std::size_t end_span_ = 0;
  std::size_t owner_ = 0;
  std::size_t owners_ = 1;
  std::size_t entries_ = 0;
  std::vector<std::size_t> kmers_;  // per unitig
  // Open addressing over the end k-mers this index owns (no slots when it places nothing).
  // Each slot has a byte of its own, beside the keys: 0 where it is empty, else a tag of its
  // key's hash (tag_of). Most k-mers of a read are not near an end, and such a miss then reads
  // a few neighbouring bytes (prefetched: search_as) and a key only about once in 255 slots
  // it passes, where a bit of occupancy made it read the key of every full slot.
  LinearProbing probing_;
  AnyEndKeys end_keys_;
  std::vector<Location> locations_;
  std::vector<std::uint8_t> tags_;
  KmerBloomFilter filter_;  // of every end k-mer, in a slice (empty in the whole index)
};

}  // namespace xenon::genomics
