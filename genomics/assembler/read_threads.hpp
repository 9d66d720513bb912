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

#include "genomics/assembler/end_index.hpp"
#include "genomics/assembler/flat_lists.hpp"
#include "genomics/assembler/unitig_graph.hpp"
#include "genomics/io/read_pairing.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

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
  explicit ReadThreads(int k) : k_(k), index_(k) {}

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

  // Where the k-mer at `start` of `bases` lies, when it is one of the indexed k-mers near a
  // unitig's ends, and the first such k-mer of a search (EndIndex::place, next_place).
  using Place = EndIndex::Place;
  std::optional<Place> place(std::string_view bases, std::size_t start) const { return index_.place(bases, start); }
  std::optional<Place> next_place(std::string_view bases, std::size_t from, std::size_t step,
                                  std::size_t& found) const {
    return index_.next_place(bases, from, step, found);
  }
  // The step that finds a read's first placed k-mer: a few spread over the read, as an error
  // breaks the k k-mers around it.
  std::size_t search_stride() const { return index_.search_stride(); }
  std::size_t unitig_kmers(std::size_t index) const { return index_.unitig_kmers(index); }
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
  std::uint64_t index_bytes() const { return index_.bytes(); }

 private:
  static std::size_t checked_span(std::size_t end_span);  // 1 to kEndSpan, else invalid_argument
  // The unitigs it went through, and its lead (Traced::lead).
  std::pair<std::vector<CompactOriented>, std::int64_t> thread(std::string_view read);
  // Those of one run of ACGT, and where the run begins in the first of them.
  std::vector<Oriented> thread_run(std::string_view bases, std::int64_t& lead) const;
  void count(const std::vector<Oriented>& path, std::uint32_t reads);
  void keep_path(const std::vector<CompactOriented>& path, std::uint32_t reads);
  void keep_pair(std::span<const CompactOriented> from, std::vector<CompactOriented> to, std::uint32_t pairs);

  int k_;
  EndIndex index_;  // the k-mers near every unitig's ends (none when only counting)
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
