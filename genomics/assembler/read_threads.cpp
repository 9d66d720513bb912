// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/read_threads.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include "genomics/io/block_splitter.hpp"
#include "genomics/io/sequence_parser.hpp"
#include "genomics/kmer/ambiguity_codes.hpp"
#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

ReadThreads::ReadThreads(const UnitigGraph& graph, int k, std::size_t end_span)
    : ReadThreads(ends_of(graph, k, end_span), k, end_span) {}

ReadThreads::ReadThreads(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span)
    : k_(k), index_(ends, k, checked_span(end_span)) {}

std::size_t ReadThreads::checked_span(std::size_t end_span) {
  if (end_span == 0 || end_span > kEndSpan) {
    throw std::invalid_argument("unitig ends: a span of " + std::to_string(end_span) + " k-mers (1 to " +
                                std::to_string(kEndSpan) + ")");
  }
  return end_span;
}

std::size_t ReadThreads::end_span_for(std::uint64_t longest_read, int k) {
  const auto bases = static_cast<std::uint64_t>(k);
  if (longest_read < bases) return 1;  // no read holds a k-mer: nothing crosses
  return static_cast<std::size_t>(std::min<std::uint64_t>(longest_read - bases + 1, kEndSpan));
}

std::vector<UnitigEnds> ReadThreads::ends_of(const UnitigGraph& graph, int k, std::size_t end_span) {
  std::vector<UnitigEnds> ends;
  ends.reserve(graph.unitigs().size());
  for (const Unitig& unitig : graph.unitigs()) ends.push_back(UnitigEnds::of(unitig.bases, static_cast<std::size_t>(k), end_span));
  return ends;
}

std::uint64_t ReadThreads::bytes_of(const std::vector<UnitigEnds>& ends) {
  std::uint64_t bytes = ends.capacity() * sizeof(UnitigEnds);
  for (const UnitigEnds& unitig : ends) bytes += unitig.head.capacity() + unitig.tail.capacity();
  return bytes;
}

void ReadThreads::thread_files(const std::vector<std::string>& files, bool pair_mates,
                               const std::vector<InputRole>& roles) {
  // Each record whole: FASTQ records come in one piece, FASTA ones line by line.
  // Each record's unitigs and lead, for the files that hold mates.
  struct MatePaths {
    FlatLists<CompactOriented> paths;
    std::vector<std::int64_t> leads;
  };
  struct Visitor {
    ReadThreads& threads;
    MatePaths* mates;  // when pairing
    std::string record;
    bool open = false;
    void close() {
      if (open) {
        const auto [path, lead] = threads.thread(record);
        if (mates != nullptr) {
          mates->paths.push_back(path);
          mates->leads.push_back(lead);
        }
      }
      record.clear();
      open = false;
    }
    void begin_record() {
      close();
      open = true;
    }
    void resume_record(std::string_view /*carried*/) {}  // `record` holds those bases already
    void bases(std::string_view line) { append_resolving_ambiguity(record, line); }
  };
  const std::vector<MateFiles> mates = pair_mates ? mate_files(roles, files.size()) : std::vector<MateFiles>{};
  // Every record's path, for the files that hold mates (each read once, all its records).
  std::map<std::uint32_t, MatePaths> paths_of;
  for (const MateFiles& each : mates) {
    paths_of[each.first];
    paths_of[each.second];
  }
  std::string block;
  for (std::size_t file = 0; file < files.size(); ++file) {
    BlockSplitter splitter(files[file], static_cast<std::uint32_t>(file), 1 << 20, static_cast<std::size_t>(k_ - 1));
    const auto paths = paths_of.find(static_cast<std::uint32_t>(file));
    Visitor visitor{*this, paths == paths_of.end() ? nullptr : &paths->second, {}, false};
    BlockOrigin origin;
    while (splitter.next(origin, block)) SequenceParser(origin, block, files[file]).parse(visitor);
    visitor.close();
  }
  if (mates.empty()) return;
  std::vector<std::uint64_t> records(files.size(), 0);
  for (const auto& [file, paths] : paths_of) records[file] = paths.paths.size();
  check_mate_records(files, roles, records);
  for (const MateFiles& each : mates) {
    const MatePaths& first = paths_of.at(each.first);
    if (each.interleaved()) {
      for (std::size_t i = 0; i + 1 < first.paths.size(); i += 2) {
        add_pair(first.paths[i], first.paths[i + 1], 1, first.leads[i] + first.leads[i + 1]);
      }
      continue;
    }
    const MatePaths& second = paths_of.at(each.second);
    if (first.paths.size() != second.paths.size()) {
      ++unpaired_files_;  // positional files: mates are records at the same place in both, not these
      continue;
    }
    for (std::size_t i = 0; i < first.paths.size(); ++i) {
      add_pair(first.paths[i], second.paths[i], 1, first.leads[i] + second.leads[i]);
    }
  }
}

namespace {

// A path read the other way: last unitig first, each reverse complemented.
template <class Oriented>
std::vector<ReadThreads::CompactOriented> flipped(std::span<const Oriented> path) {
  std::vector<ReadThreads::CompactOriented> other(path.rbegin(), path.rend());
  for (ReadThreads::CompactOriented& oriented : other) oriented ^= 1;
  return other;
}

// The counts are 32 bits (one for each distinct path, pair of ways and passage): a sum past
// that is refused rather than wrapped, which would turn the most-voted way into the least.
// The throw ends the run, so the counts it leaves half added (a pair kept one way of two) are
// never read.
void add_count(std::uint32_t& total, std::uint32_t more, const char* what) {
  if (more > std::numeric_limits<std::uint32_t>::max() - total) {
    throw std::overflow_error(std::string("read threads: more than 2^32 - 1 ") + what);
  }
  total += more;
}

}  // namespace

// A fragment reads: first mate, a gap, the second mate reverse complemented. Kept read from
// either end, each time by the unitigs of the mate it starts with.
void ReadThreads::add_pair(std::span<const CompactOriented> first, std::span<const CompactOriented> second,
                           std::uint32_t pairs, std::int64_t leads) {
  if (first.empty() || second.empty() || pairs == 0) return;
  std::pair<std::vector<CompactOriented>, std::vector<CompactOriented>> fragment{{first.begin(), first.end()},
                                                                                 flipped(second)};
  keep_pair(first, fragment.second, pairs);
  keep_pair(second, flipped(first), pairs);
  FragmentCount& count = fragments_[std::move(fragment)];
  add_count(count.pairs, pairs, "read pairs of one fragment");
  count.leads += leads;
}

void ReadThreads::keep_pair(std::span<const CompactOriented> from, std::vector<CompactOriented> to,
                            std::uint32_t pairs) {
  auto [found, added] = pair_ids_.try_emplace({{from.begin(), from.end()}, std::move(to)},
                                              static_cast<std::uint32_t>(pairs_.size()));
  if (!added) {
    add_count(pair_counts_[found->second], pairs, "read pairs of one pair of ways");
    return;
  }
  const std::uint32_t id = found->second;
  pairs_.push_back(found->first.second);
  pair_counts_.push_back(pairs);
  for (const CompactOriented oriented : from) {
    std::vector<std::uint32_t>& ids = pairs_by_unitig_[oriented];
    if (ids.empty() || ids.back() != id) ids.push_back(id);
  }
}


std::map<ReadThreads::Oriented, std::uint32_t> ReadThreads::mates_after(Oriented anchor,
                                                                        const std::vector<Oriented>& ways) const {
  std::map<Oriented, std::uint32_t> votes;
  const auto found = pairs_by_unitig_.find(anchor);
  if (found == pairs_by_unitig_.end()) return votes;
  for (const std::uint32_t id : found->second) {
    const std::span<const CompactOriented> mate = pairs_[id];
    for (const Oriented way : ways) {
      if (std::find(mate.begin(), mate.end(), way) != mate.end()) {
        add_count(votes[way], pair_counts_[id], "read pairs voting for one way");
      }
    }
  }
  return votes;
}

void ReadThreads::thread_reads(const std::vector<std::string>& reads) {
  for (const std::string& read : reads) thread(read);
}

std::pair<std::vector<ReadThreads::CompactOriented>, std::int64_t> ReadThreads::thread(std::string_view read) {
  const Traced traced = trace(read);
  ++reads_threaded_;
  add_traced(traced.runs, read);
  std::vector<CompactOriented> path;
  for (const std::vector<Oriented>& run : traced.runs) path.insert(path.end(), run.begin(), run.end());
  return {std::move(path), traced.lead};
}

ReadThreads::Traced ReadThreads::trace(std::string_view read) const {
  // Runs of ACGT, each threaded on its own.
  Traced traced;
  for_each_acgt_run(read, static_cast<std::size_t>(k_), [&](std::size_t begin, std::string_view bases) {
    std::int64_t lead = 0;
    std::vector<Oriented> run = thread_run(bases, lead);
    if (!run.empty()) {
      if (traced.runs.empty()) traced.lead = lead - static_cast<std::int64_t>(begin);
      traced.runs.push_back(std::move(run));
    }
  });
  return traced;
}

void ReadThreads::add_traced(const std::vector<std::vector<Oriented>>& runs, std::string_view read,
                             std::uint32_t reads) {
  bool crossed = false;
  for (const std::vector<Oriented>& run : runs) {
    if (run.size() < 2) continue;
    count(run, reads);
    crossed = true;
  }
  if (crossed && !read.empty()) kept_reads_.emplace_back(read);
}

std::vector<ReadThreads::Oriented> ReadThreads::thread_run(std::string_view bases, std::int64_t& lead) const {
  const std::size_t last_start = bases.size() - static_cast<std::size_t>(k_);
  std::size_t start = 0;
  std::optional<Place> at = next_place(bases, 0, search_stride(), start);
  if (!at) return {};
  lead = static_cast<std::int64_t>(at->offset) - static_cast<std::int64_t>(start);
  std::vector<Oriented> path{at->unitig};
  while (true) {
    const std::size_t next = start + (index_.unitig_kmers(at->unitig / 2) - 1 - at->offset) + 1;
    if (next > last_start) break;
    at = place(bases, next);
    if (!at || at->offset != 0) break;
    path.push_back(at->unitig);
    start = next;
  }
  return path;
}

void ReadThreads::count(const std::vector<Oriented>& path, std::uint32_t reads) {
  for (std::size_t i = 0; i + 2 < path.size(); ++i) add_passages(path[i], path[i + 1], path[i + 2], reads);
  keep_path({path.begin(), path.end()}, reads);
  keep_path(flipped(std::span<const Oriented>(path)), reads);
}

// A read's path, for next_after(): found by each unitig something follows in it.
void ReadThreads::keep_path(const std::vector<CompactOriented>& path, std::uint32_t reads) {
  const auto [found, added] = path_ids_.try_emplace(path, static_cast<std::uint32_t>(paths_.size()));
  if (!added) {
    add_count(path_reads_[found->second], reads, "reads of one path");
    return;
  }
  const std::uint32_t id = found->second;
  paths_.push_back(path);
  path_reads_.push_back(reads);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    std::vector<std::uint32_t>& ids = paths_by_unitig_[path[i]];
    if (ids.empty() || ids.back() != id) ids.push_back(id);
  }
}

std::map<ReadThreads::Oriented, std::uint32_t> ReadThreads::next_after(const std::vector<Oriented>& context) const {
  std::map<Oriented, std::uint32_t> next;
  if (context.empty()) return next;
  // A read that went through the context and on is listed under each of the context's
  // unitigs (something follows each in it): the shortest of those lists is enough to scan.
  const std::vector<std::uint32_t>* shortest = nullptr;
  for (const Oriented unitig : context) {
    const auto found = paths_by_unitig_.find(unitig);
    if (found == paths_by_unitig_.end()) return next;
    if (shortest == nullptr || found->second.size() < shortest->size()) shortest = &found->second;
  }
  for (const std::uint32_t id : *shortest) {
    const std::span<const CompactOriented> path = paths_[id];
    for (std::size_t at = 0; at + context.size() < path.size(); ++at) {
      if (std::equal(context.begin(), context.end(), path.begin() + static_cast<std::ptrdiff_t>(at))) {
        add_count(next[path[at + context.size()]], path_reads_[id], "reads voting for one way");
        break;  // a read votes once
      }
    }
  }
  return next;
}

ReadThreads::Passage ReadThreads::canonical_passage(Oriented x, Oriented y, Oriented z) {
  return std::min(Passage{x, y, z}, Passage{z ^ 1, y ^ 1, x ^ 1});
}

void ReadThreads::add_passages(Oriented x, Oriented y, Oriented z, std::uint32_t reads) {
  add_count(passages_[canonical_passage(x, y, z)], reads, "reads through one passage");
}

std::uint32_t ReadThreads::passages(Oriented x, Oriented y, Oriented z) const {
  const auto found = passages_.find(canonical_passage(x, y, z));
  return found == passages_.end() ? 0 : found->second;
}

}  // namespace xenon::genomics
