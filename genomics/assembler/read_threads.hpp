// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "genomics/assembler/flat_lists.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/io/read_pairing.hpp"
#include "genomics/kmer/kmer.hpp"
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

// How often reads pass through three unitigs in a row (X, then Y whole, then Z), each read
// one way: the evidence that settles, at a repeat Y that several unitigs enter and leave,
// which way in goes with which way out. Unitigs are read as UnitigGraph numbers them
// (index * 2 + reversed); a passage and its reverse complement count as one.
class ReadThreads {
 public:
  using Oriented = std::size_t;
  // As the paths of reads are kept: graphs have far fewer than 2^31 unitigs.
  using CompactOriented = std::uint32_t;

  // The k-mers indexed at each end of a long unitig (all of a short one's): a read that
  // crosses from one unitig into another has its k-mers in the first within that many of its
  // end, for reads up to kEndSpan + k - 1 bases. Pairing mates wants more (a mate within an
  // insert of a contig's end, kEndSpan); finding crossings wants only the longest read's.
  static constexpr std::size_t kEndSpan = 1024;
  // The span that reads of up to `longest_read` bases cross within (1 to kEndSpan k-mers).
  static std::size_t end_span_for(std::uint64_t longest_read, int k);

  // Ready to thread reads through the unitigs of `graph`, or through the unitigs whose ends
  // are `ends` (ends_of(graph) of the same span: the same threads).
  ReadThreads(const UnitigGraph& graph, int k, std::size_t end_span = kEndSpan);
  ReadThreads(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span = kEndSpan);
  static std::vector<UnitigEnds> ends_of(const UnitigGraph& graph, int k, std::size_t end_span = kEndSpan);
  // What `ends` take: their bases and strings.
  static std::uint64_t bytes_of(const std::vector<UnitigEnds>& ends);
  // Only for counting what reads traced elsewhere crossed (add_traced, add_pair): no index,
  // so trace() finds nothing (the index of a bacterium's unitig ends is tens of MB).
  explicit ReadThreads(int k) : k_(k), end_span_(kEndSpan), end_keys_(end_keys_for(k)) {}

  // One read threaded, nothing counted: the unitigs of each of its runs of ACGT that met the
  // graph, in read order, and where the read begins in the first of them (its first base's
  // offset in that unitig read as the run reads it; below 0 where the read begins before it:
  // what sizes the fragments of read pairs). Where reads are threaded on other nodes than the
  // one that counts.
  struct Traced {
    std::vector<std::vector<Oriented>> runs;
    std::int64_t lead = 0;
    bool operator==(const Traced&) const = default;
  };
  Traced trace(std::string_view read) const;

  // Where the k-mer at `start` of `bases` (ACGT) lies, when it is one of the indexed k-mers near
  // a unitig's ends: the unitig read the way the k-mer reads it, and its offset along that
  // reading. The unitigs' k-mer counts give where a read leaves each.
  struct Place {
    Oriented unitig = 0;
    std::size_t offset = 0;
  };
  std::optional<Place> place(std::string_view bases, std::size_t start) const;
  // The first k-mer of `bases` (ACGT only, as place()) at or after `from` that place() finds,
  // trying every `step`-th (step >= 1): where it lies, with its start in `found`; none found,
  // `found` is the first start tried that has fewer than k bases after it.
  std::optional<Place> next_place(std::string_view bases, std::size_t from, std::size_t step,
                                  std::size_t& found) const;
  // The step that finds a read's first placed k-mer: a few spread over the read, as an error
  // breaks the k k-mers around it.
  std::size_t search_stride() const { return std::max<std::size_t>(1, static_cast<std::size_t>(k_) / 4); }
  std::size_t unitig_kmers(std::size_t index) const { return kmers_[index]; }
  // What a traced read adds: its runs that crossed two unitigs or more, and the read itself
  // when one did (kept for the next round; not when `read` is empty: kept where it was read).
  // `reads`: as many reads traced alike (a store sends each distinct run once, with its count).
  void add_traced(const std::vector<std::vector<Oriented>>& runs, std::string_view read, std::uint32_t reads = 1);
  // Reads traced elsewhere, for reads_threaded().
  void add_reads_threaded(std::uint64_t reads) { reads_threaded_ += reads; }
  // A read pair (mates traced elsewhere: each one's runs, joined), or `pairs` alike, with the
  // sum over them of both mates' leads (Traced::lead), and a pair of files whose records could
  // not be paired.
  void add_pair(std::span<const CompactOriented> first, std::span<const CompactOriented> second,
                std::uint32_t pairs = 1, std::int64_t leads = 0);
  void add_unpaired_files(std::uint64_t files) { unpaired_files_ += files; }

  // Threads every read of `files` (FASTA/FASTQ, plain or gzip). With `pair_mates`, pairs the
  // mates that the files' `roles` say (mate_files(); no roles: every file positional, so
  // files 1 and 2, 3 and 4, ...). Files said to be pairs that cannot be (check_mate_records)
  // throw; positional ones that hold different numbers of records are left unpaired, and
  // unpaired_files() counts them.
  void thread_files(const std::vector<std::string>& files, bool pair_mates = false,
                    const std::vector<InputRole>& roles = {});
  // Threads reads kept by an earlier ReadThreads (through a graph that joined unitigs since:
  // a read crosses no more unitigs than it did, so no other read can matter).
  void thread_reads(const std::vector<std::string>& reads);

  // The reads that crossed two unitigs or more.
  std::vector<std::string>& kept_reads() { return kept_reads_; }

  std::uint32_t passages(Oriented x, Oriented y, Oriented z) const;
  // A passage as it is counted: the lesser of X, Y, Z and its reverse complement (Z, Y, X each
  // read the other way), so that a read and its reverse complement count the same passage.
  using Passage = std::array<Oriented, 3>;
  static Passage canonical_passage(Oriented x, Oriented y, Oriented z);
  // `reads` passages through X, Y, Z (or its reverse complement) counted elsewhere: in the
  // repeat rounds each store counts its reads' passages and sends those, not their runs.
  void add_passages(Oriented x, Oriented y, Oriented z, std::uint32_t reads);

  // How many reads went on to each unitig right after going through `context` (unitigs in a
  // row, read as given). The key is the next unitig.
  std::map<Oriented, std::uint32_t> next_after(const std::vector<Oriented>& context) const;

  // How many read pairs with one mate in `anchor` have the other mate, further along the
  // same way, in each of `ways` (read as given).
  std::map<Oriented, std::uint32_t> mates_after(Oriented anchor, const std::vector<Oriented>& ways) const;
  // The read pairs added, each distinct one once with how many pairs were alike: its first
  // mate's unitigs, then the second's read along the fragment (reverse complemented), in the
  // order of their unitigs, so the same whichever store paired which; and the sum of their
  // mates' leads. A fragment begins `lead` bases into the first mate's first unitig and ends
  // `lead` bases before the end of the second mate's last unitig (read along the fragment),
  // so its pairs' mean length follows from where the contigs hold those two unitigs.
  std::size_t pair_count() const { return fragments_.size(); }
  template <class Visit>  // visit(first, second along the fragment, pairs, leads)
  void for_each_pair(Visit&& visit) const {
    for (const auto& [mates, count] : fragments_) {
      visit(std::span<const CompactOriented>(mates.first), std::span<const CompactOriented>(mates.second), count.pairs,
            count.leads);
    }
  }
  std::uint64_t unpaired_files() const { return unpaired_files_; }
  // What is kept: each distinct path (either way) and pair of ways (from either mate) once.
  std::uint64_t distinct_paths() const { return paths_.size(); }
  std::uint64_t distinct_pairs() const { return pairs_.size(); }
  std::uint64_t reads_threaded() const { return reads_threaded_; }
  // What the index of the unitigs' ends takes: its slots, and each unitig's k-mer count.
  std::uint64_t index_bytes() const;

 private:
  // 8 bytes a slot, as the keys of k <= 32 (the index is on every node, for every read share).
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

  // The canonical k-mers near the unitigs' ends, in their slots, of as many words as k needs:
  // one up to k = 32, two up to 64, four above.
  template <int Words>
  struct EndKeys {
    KmerShape<Words> shape;
    std::vector<PackedKmer<Words>> keys;
  };
  using AnyEndKeys = std::variant<EndKeys<1>, EndKeys<2>, EndKeys<4>>;
  static AnyEndKeys end_keys_for(int k) {
    if (k > 64) return EndKeys<4>{KmerShape<4>(k), {}};
    if (k > 32) return EndKeys<2>{KmerShape<2>(k), {}};
    return EndKeys<1>{KmerShape<1>(k), {}};
  }

  void index(const std::vector<UnitigEnds>& ends);
  template <int Words>
  void index_kmers(EndKeys<Words>& end_keys, const std::string& bases, std::size_t unitig, std::size_t first_offset);
  // The slot of a canonical k-mer among the end k-mers, or the empty one where it goes; `hash`
  // is its key's routing word (key_of), which gives both its home and its tag.
  template <int Words>
  std::size_t end_slot(const EndKeys<Words>& end_keys, const PackedKmer<Words>& canonical, std::uint64_t hash) const;
  template <int Words>
  std::optional<Place> place_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t start) const;
  // Where `kmer` (as read) lies, its canonical form and that form's hash (key_of's routing
  // word) known.
  template <int Words>
  std::optional<Place> place_canonical(const EndKeys<Words>& end_keys, const PackedKmer<Words>& kmer,
                                       const PackedKmer<Words>& canonical, std::uint64_t hash) const;
  template <int Words>
  std::optional<Place> next_place_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t from,
                                     std::size_t step, std::size_t& found) const;
  // The unitigs it went through, and its lead (Traced::lead).
  std::pair<std::vector<CompactOriented>, std::int64_t> thread(std::string_view read);
  // Those of one run of ACGT, and where the run begins in the first of them.
  std::vector<Oriented> thread_run(std::string_view bases, std::int64_t& lead) const;
  void count(const std::vector<Oriented>& path, std::uint32_t reads);
  void keep_path(const std::vector<CompactOriented>& path, std::uint32_t reads);
  void keep_pair(std::span<const CompactOriented> from, std::vector<CompactOriented> to, std::uint32_t pairs);

  int k_;
  std::size_t end_span_;  // k-mers indexed at each end of a long unitig
  std::vector<std::size_t> kmers_;  // per unitig
  // Open addressing over the k-mers near the ends of every unitig (no slots when only counting).
  // Each slot has a byte of its own, beside the keys: 0 where it is empty, else a tag of its
  // key's hash (tag_of). Most k-mers of a read are not near an end, and such a miss then reads
  // a few neighbouring bytes (prefetched: next_place_as) and a key only about once in 255 slots
  // it passes, where a bit of occupancy made it read the key of every full slot.
  LinearProbing probing_;
  AnyEndKeys end_keys_;
  std::vector<Location> locations_;
  std::vector<std::uint8_t> tags_;
  std::map<Passage, std::uint32_t> passages_;
  // The paths of reads that crossed two unitigs or more, each read both ways, each distinct
  // path once with how many reads took it (so they are as many as the graph's ways through
  // its junctions, not as the reads), and for each unitig, the paths where something follows it.
  FlatLists<CompactOriented> paths_;
  std::vector<std::uint32_t> path_reads_;
  std::map<std::vector<CompactOriented>, std::uint32_t> path_ids_;
  std::map<Oriented, std::vector<std::uint32_t>> paths_by_unitig_;
  // Read pairs, each both ways: the unitigs of the mate further along the fragment, found by
  // the unitigs of the mate before it; each distinct pair of ways once, with its count.
  FlatLists<CompactOriented> pairs_;
  std::vector<std::uint32_t> pair_counts_;
  std::map<std::pair<std::vector<CompactOriented>, std::vector<CompactOriented>>, std::uint32_t> pair_ids_;
  std::map<Oriented, std::vector<std::uint32_t>> pairs_by_unitig_;
  struct FragmentCount {
    std::uint32_t pairs = 0;
    std::int64_t leads = 0;
  };
  std::map<std::pair<std::vector<CompactOriented>, std::vector<CompactOriented>>, FragmentCount> fragments_;
  std::uint64_t unpaired_files_ = 0;
  std::uint64_t reads_threaded_ = 0;
  std::vector<std::string> kept_reads_;
};

}  // namespace xenon::genomics
