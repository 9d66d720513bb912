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
#include "genomics/kmer/kmer_hash.hpp"

namespace xenon::genomics {

ReadThreads::ReadThreads(const UnitigGraph& graph, int k, std::size_t end_span)
    : ReadThreads(ends_of(graph, k, end_span), k, end_span) {}

ReadThreads::ReadThreads(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span)
    : k_(k), end_span_(end_span), end_keys_(end_keys_for(k)) {
  if (end_span == 0 || end_span > kEndSpan) {
    throw std::invalid_argument("unitig ends: a span of " + std::to_string(end_span) + " k-mers (1 to " +
                                std::to_string(kEndSpan) + ")");
  }
  index(ends);
}

std::size_t ReadThreads::end_span_for(std::uint64_t longest_read, int k) {
  const auto bases = static_cast<std::uint64_t>(k);
  if (longest_read < bases) return 1;  // no read holds a k-mer: nothing crosses
  return static_cast<std::size_t>(std::min<std::uint64_t>(longest_read - bases + 1, kEndSpan));
}

UnitigEnds UnitigEnds::of(std::string_view bases, std::size_t k, std::size_t end_span) {
  const std::size_t kmers = bases.size() - k + 1;
  if (kmers <= 2 * end_span) return {kmers, std::string(bases), {}};
  return {kmers, std::string(bases.substr(0, end_span + k - 1)), std::string(bases.substr(kmers - end_span))};
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

std::uint64_t ReadThreads::index_bytes() const {
  const std::uint64_t key_bytes = std::visit([](const auto& end_keys) { return sizeof(end_keys.keys[0]) * end_keys.keys.capacity(); }, end_keys_);
  return key_bytes + locations_.capacity() * sizeof(Location) + tags_.capacity() +
         kmers_.capacity() * sizeof(std::size_t);
}

std::string UnitigEnds::last_junction(bool reversed, std::size_t k) const {
  if (reversed) return reverse_complement(std::string_view(head).substr(0, k - 1));
  const std::string& last = tail.empty() ? head : tail;
  return last.substr(last.size() - (k - 1));
}

std::string UnitigEnds::first_junction(bool reversed, std::size_t k) const {
  return reverse_complement(last_junction(!reversed, k));
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
    void bases(std::string_view line) { record.append(line); }
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

void ReadThreads::index(const std::vector<UnitigEnds>& ends) {
  if (ends.size() > 0x7fffffffu) throw std::invalid_argument("unitig ends: more unitigs than paths can name");
  std::size_t total = 0;
  for (const UnitigEnds& unitig : ends) {
    if (unitig.kmers > kLargestOffset + std::size_t{1}) {
      throw std::invalid_argument("unitig ends: a unitig of " + std::to_string(unitig.kmers) + " k-mers, over 2^31");
    }
    kmers_.push_back(unitig.kmers);
    total += std::min<std::size_t>(unitig.kmers, 2 * end_span_);
  }
  probing_ = LinearProbing(total, kFullest);
  const std::size_t slots = probing_.slots();
  std::visit([&](auto& end_keys) { end_keys.keys.resize(slots); }, end_keys_);
  locations_.resize(slots);
  tags_.assign(slots, kEmpty);
  for (std::size_t index = 0; index < ends.size(); ++index) {
    // As ends_of() cuts them: a short unitig whole, a long one's first and last end_span_ k-mers.
    const bool whole = ends[index].tail.empty();
    const std::size_t span = end_span_ + static_cast<std::size_t>(k_) - 1;
    // A whole unitig of more k-mers than its ends would hold would overfill the slots, sized for those.
    if (whole ? ends[index].head.size() != kmers_[index] + static_cast<std::size_t>(k_) - 1 || kmers_[index] == 0 ||
                    kmers_[index] > 2 * end_span_
              : kmers_[index] <= 2 * end_span_ || ends[index].head.size() != span || ends[index].tail.size() != span) {
      throw std::invalid_argument("unitig ends: unitig " + std::to_string(index) + " has the wrong number of bases");
    }
    const auto index_kmers_of = [&](const std::string& bases, std::size_t first_offset) {
      std::visit([&](auto& end_keys) { index_kmers(end_keys, bases, index, first_offset); }, end_keys_);
    };
    index_kmers_of(ends[index].head, 0);
    if (!ends[index].tail.empty()) index_kmers_of(ends[index].tail, kmers_[index] - end_span_);
  }
}

// The k-mers of `bases`, the first of them at `first_offset` in the unitig.
template <int Words>
void ReadThreads::index_kmers(EndKeys<Words>& end_keys, const std::string& bases, std::size_t unitig,
                              std::size_t first_offset) {
  const KmerShape<Words>& shape = end_keys.shape;
  const std::size_t count = bases.size() - static_cast<std::size_t>(k_) + 1;
  PackedKmer<Words> kmer = shape.pack(bases);
  for (std::size_t at = 0; at < count; ++at) {
    if (at != 0) kmer = shape.successor(kmer, kBaseCodes[static_cast<unsigned char>(bases[at + static_cast<std::size_t>(k_) - 1])]);
    const PackedKmer<Words> canonical = shape.canonical(kmer);
    const std::uint64_t hash = key_of<Words>(canonical)[Words - 1];
    const std::size_t slot = end_slot<Words>(end_keys, canonical, hash);
    if (tags_[slot] != kEmpty) {
      // A k-mer in two places (copies of a settled repeat, a cycle's seam): it says nothing
      // about where a read is.
      locations_[slot].unitig = kAmbiguous;
      continue;
    }
    tags_[slot] = tag_of(hash);
    end_keys.keys[slot] = canonical;
    Location& location = locations_[slot];
    location.unitig = static_cast<std::uint32_t>(unitig);
    location.offset = static_cast<std::uint32_t>(first_offset + at) & kLargestOffset;  // index() checked it fits
    location.canonical_forward = same_words<Words>(kmer, canonical) ? 1 : 0;
  }
}

template <int Words>
std::size_t ReadThreads::end_slot(const EndKeys<Words>& end_keys, const PackedKmer<Words>& canonical,
                                  std::uint64_t hash) const {
  const std::vector<PackedKmer<Words>>& keys = end_keys.keys;
  const std::uint8_t tag = tag_of(hash);
  return probing_.probe(hash, [&](std::size_t slot) { return tags_[slot] == kEmpty; },
                        [&](std::size_t slot) { return tags_[slot] == tag && same_words<Words>(keys[slot], canonical); });
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

std::optional<ReadThreads::Place> ReadThreads::place(std::string_view bases, std::size_t start) const {
  if (tags_.empty()) return std::nullopt;  // counting only
  // A branch on the width, not std::visit: this runs for every k-mer a read is searched at.
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) return place_as(*one_word, bases, start);
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) return place_as(*two_words, bases, start);
  return place_as(std::get<EndKeys<4>>(end_keys_), bases, start);
}

template <int Words>
std::optional<ReadThreads::Place> ReadThreads::place_as(const EndKeys<Words>& end_keys, std::string_view bases,
                                                        std::size_t start) const {
  const PackedKmer<Words> kmer = end_keys.shape.pack(bases.substr(start));
  const PackedKmer<Words> canonical = end_keys.shape.canonical(kmer);
  return place_canonical<Words>(end_keys, kmer, canonical, key_of<Words>(canonical)[Words - 1]);
}

template <int Words>
std::optional<ReadThreads::Place> ReadThreads::place_canonical(const EndKeys<Words>& end_keys,
                                                               const PackedKmer<Words>& kmer,
                                                               const PackedKmer<Words>& canonical,
                                                               std::uint64_t hash) const {
  const std::size_t slot = end_slot<Words>(end_keys, canonical, hash);
  if (tags_[slot] == kEmpty || locations_[slot].unitig == kAmbiguous) return std::nullopt;
  const Location& found = locations_[slot];
  const bool read_is_canonical = same_words<Words>(kmer, canonical);
  const bool forward = read_is_canonical == (found.canonical_forward != 0);
  const std::size_t offset = forward ? found.offset : kmers_[found.unitig] - 1 - found.offset;
  return Place{2 * static_cast<std::size_t>(found.unitig) + (forward ? 0 : 1), offset};
}

std::optional<ReadThreads::Place> ReadThreads::next_place(std::string_view bases, std::size_t from, std::size_t step,
                                                          std::size_t& found) const {
  if (tags_.empty()) {  // counting only: nothing is placed, and `found` ends where the search would
    for (found = from; found + static_cast<std::size_t>(k_) <= bases.size(); found += step) {}
    return std::nullopt;
  }
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) return next_place_as(*one_word, bases, from, step, found);
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) return next_place_as(*two_words, bases, from, step, found);
  return next_place_as(std::get<EndKeys<4>>(end_keys_), bases, from, step, found);
}

// Each k-mer tried is rolled on from the one before (`step` bases shifted in, not k packed):
// packing was most of a miss's cost once the tags kept misses off the keys. The k-mers are
// taken a few at a time, their tags' slots prefetched before the first is probed, so that the
// waits for the tags (a megabyte and more: out of the nearest caches) overlap.
template <int Words>
std::optional<ReadThreads::Place> ReadThreads::next_place_as(const EndKeys<Words>& end_keys, std::string_view bases,
                                                             std::size_t from, std::size_t step,
                                                             std::size_t& found) const {
  constexpr std::size_t kAhead = 8;
  const auto k = static_cast<std::size_t>(k_);
  const KmerShape<Words>& shape = end_keys.shape;
  struct Tried {
    PackedKmer<Words> kmer;
    PackedKmer<Words> canonical;
    std::uint64_t hash;
  };
  std::array<Tried, kAhead> tried;
  PackedKmer<Words> kmer{};
  std::size_t next = from;  // the start of the next k-mer to roll to
  found = from;
  while (found + k <= bases.size()) {
    std::size_t count = 0;
    for (; count < kAhead && next + k <= bases.size(); ++count, next += step) {
      if (next == from || step >= k) {
        kmer = shape.pack(bases.substr(next));
      } else {
        for (std::size_t at = next - step + k; at < next + k; ++at) {
          kmer = shape.successor(kmer, kBaseCodes[static_cast<unsigned char>(bases[at])]);
        }
      }
      const PackedKmer<Words> canonical = shape.canonical(kmer);
      const std::uint64_t hash = key_of<Words>(canonical)[Words - 1];
      __builtin_prefetch(tags_.data() + probing_.home(hash));
      tried[count] = {kmer, canonical, hash};
    }
    for (std::size_t i = 0; i < count; ++i, found += step) {
      if (std::optional<Place> placed = place_canonical<Words>(end_keys, tried[i].kmer, tried[i].canonical, tried[i].hash)) {
        return placed;
      }
    }
  }
  return std::nullopt;
}

std::vector<ReadThreads::Oriented> ReadThreads::thread_run(std::string_view bases, std::int64_t& lead) const {
  const std::size_t last_start = bases.size() - static_cast<std::size_t>(k_);
  std::size_t start = 0;
  std::optional<Place> at = next_place(bases, 0, search_stride(), start);
  if (!at) return {};
  lead = static_cast<std::int64_t>(at->offset) - static_cast<std::int64_t>(start);
  std::vector<Oriented> path{at->unitig};
  while (true) {
    const std::size_t next = start + (kmers_[at->unitig / 2] - 1 - at->offset) + 1;
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
