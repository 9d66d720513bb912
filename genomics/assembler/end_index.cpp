// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/end_index.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/kmer_ops.hpp"

namespace xenon::genomics {

UnitigEnds UnitigEnds::of(std::string_view bases, std::size_t k, std::size_t end_span) {
  const std::size_t kmers = bases.size() - k + 1;
  if (kmers <= 2 * end_span) return {kmers, std::string(bases), {}};
  return {kmers, std::string(bases.substr(0, end_span + k - 1)), std::string(bases.substr(kmers - end_span))};
}

std::string UnitigEnds::last_junction(bool reversed, std::size_t k) const {
  if (reversed) return reverse_complement(std::string_view(head).substr(0, k - 1));
  const std::string& last = tail.empty() ? head : tail;
  return last.substr(last.size() - (k - 1));
}

std::string UnitigEnds::first_junction(bool reversed, std::size_t k) const {
  return reverse_complement(last_junction(!reversed, k));
}

EndIndex::AnyEndKeys EndIndex::end_keys_for(int k) {
  if (k > 64) return EndKeys<4>{KmerShape<4>(k), {}};
  if (k > 32) return EndKeys<2>{KmerShape<2>(k), {}};
  return EndKeys<1>{KmerShape<1>(k), {}};
}

EndIndex::EndIndex(int k) : k_(k), end_keys_(end_keys_for(k)) {}

EndIndex::EndIndex(const std::vector<UnitigEnds>& ends, int k, std::size_t end_span, std::size_t owner,
                   std::size_t owners)
    : k_(k), end_span_(end_span), owner_(owner), owners_(owners), end_keys_(end_keys_for(k)) {
  if (owners == 0 || owners > kMostOwners || owner >= owners) {
    throw std::invalid_argument("unitig ends: owner " + std::to_string(owner) + " of " + std::to_string(owners));
  }
  take_unitig_kmers(ends);
  std::size_t owned = 0;
  for (const std::size_t kmers : kmers_) owned += std::min(kmers, 2 * end_span_);
  if (owners > 1) {  // counted, not estimated: a table sized for an owner's share could fill
    filter_ = KmerBloomFilter::sized_for(owned);
    owned = std::visit([&](const auto& end_keys) { return count_owned_and_filter(end_keys, ends); }, end_keys_);
  }
  probing_ = LinearProbing(owned, kFullest);
  const std::size_t slots = probing_.slots();
  std::visit([&](auto& end_keys) { end_keys.keys.resize(slots); }, end_keys_);
  locations_.resize(slots);
  tags_.assign(slots, kEmpty);
  for (std::size_t index = 0; index < ends.size(); ++index) {
    std::visit(
        [&](auto& end_keys) {
          insert(end_keys, ends[index].head, index, 0);
          if (!ends[index].tail.empty()) insert(end_keys, ends[index].tail, index, kmers_[index] - end_span_);
        },
        end_keys_);
  }
}

// As UnitigEnds::of cuts them: a short unitig whole, a long one's first and last end_span_
// k-mers. A whole unitig of more k-mers than its ends would hold would overfill the slots,
// sized for those, and a miss would then probe forever.
void EndIndex::take_unitig_kmers(const std::vector<UnitigEnds>& ends) {
  if (end_span_ == 0 || end_span_ > kLargestOffset) {
    throw std::invalid_argument("unitig ends: a span of " + std::to_string(end_span_) + " k-mers");
  }
  if (ends.size() > 0x7fffffffu) throw std::invalid_argument("unitig ends: more unitigs than paths can name");
  const auto k = static_cast<std::size_t>(k_);
  const std::size_t span = end_span_ + k - 1;
  kmers_.reserve(ends.size());
  for (std::size_t index = 0; index < ends.size(); ++index) {
    const UnitigEnds& unitig = ends[index];
    if (unitig.kmers > kLargestOffset + std::size_t{1}) {
      throw std::invalid_argument("unitig ends: a unitig of " + std::to_string(unitig.kmers) + " k-mers, over 2^31");
    }
    const bool whole = unitig.tail.empty();
    if (whole ? unitig.head.size() != unitig.kmers + k - 1 || unitig.kmers == 0 || unitig.kmers > 2 * end_span_
              : unitig.kmers <= 2 * end_span_ || unitig.head.size() != span || unitig.tail.size() != span) {
      throw std::invalid_argument("unitig ends: unitig " + std::to_string(index) + " has the wrong number of bases");
    }
    kmers_.push_back(unitig.kmers);
  }
}

template <int Words, class Visit>
void EndIndex::for_each_kmer(const EndKeys<Words>& end_keys, const std::string& bases, std::size_t first_offset,
                             Visit&& visit) const {
  const KmerShape<Words>& shape = end_keys.shape;
  const auto k = static_cast<std::size_t>(k_);
  const std::size_t count = bases.size() - k + 1;
  PackedKmer<Words> kmer = shape.pack(bases);
  for (std::size_t at = 0; at < count; ++at) {
    if (at != 0) kmer = shape.successor(kmer, kBaseCodes[static_cast<unsigned char>(bases[at + k - 1])]);
    const PackedKmer<Words> canonical = shape.canonical(kmer);
    visit(kmer, canonical, key_of<Words>(canonical)[Words - 1], first_offset + at);
  }
}

template <int Words>
std::size_t EndIndex::count_owned_and_filter(const EndKeys<Words>& end_keys, const std::vector<UnitigEnds>& ends) {
  std::size_t owned = 0;
  const auto count = [&](const PackedKmer<Words>&, const PackedKmer<Words>&, std::uint64_t hash, std::size_t) {
    filter_.insert(hash);
    owned += owner_of_hash(hash, owners_) == owner_ ? 1 : 0;
  };
  for (const UnitigEnds& unitig : ends) {
    for_each_kmer(end_keys, unitig.head, 0, count);
    if (!unitig.tail.empty()) for_each_kmer(end_keys, unitig.tail, 0, count);
  }
  return owned;
}

template <int Words>
void EndIndex::insert(EndKeys<Words>& end_keys, const std::string& bases, std::size_t unitig,
                      std::size_t first_offset) {
  for_each_kmer(end_keys, bases, first_offset,
                [&](const PackedKmer<Words>& kmer, const PackedKmer<Words>& canonical, std::uint64_t hash,
                    std::size_t offset) {
                   if (owners_ != 1 && owner_of_hash(hash, owners_) != owner_) return;
                   const std::size_t slot = slot_of<Words>(end_keys, canonical, hash);
                   if (tags_[slot] != kEmpty) {
                     // A k-mer in two places: it says nothing about where a read is.
                     locations_[slot].unitig = kAmbiguous;
                     return;
                   }
                   ++entries_;
                   tags_[slot] = tag_of(hash);
                   end_keys.keys[slot] = canonical;
                   Location& location = locations_[slot];
                   location.unitig = static_cast<std::uint32_t>(unitig);
                   location.offset = static_cast<std::uint32_t>(offset) & kLargestOffset;  // take_unitig_kmers() saw it fits
                   location.canonical_forward = same_words<Words>(kmer, canonical) ? 1 : 0;
                 });
}

template <int Words>
std::size_t EndIndex::slot_of(const EndKeys<Words>& end_keys, const PackedKmer<Words>& canonical,
                              std::uint64_t hash) const {
  const std::vector<PackedKmer<Words>>& keys = end_keys.keys;
  const std::uint8_t tag = tag_of(hash);
  return probing_.probe(hash, [&](std::size_t slot) { return tags_[slot] == kEmpty; },
                        [&](std::size_t slot) { return tags_[slot] == tag && same_words<Words>(keys[slot], canonical); });
}

std::size_t EndIndex::longest_probe() const {
  // A run of full slots is probed through from its first to the empty slot after it.
  const std::size_t slots = tags_.size();
  if (slots == 0) return 0;
  std::size_t start = 0;  // an empty slot: each run is met whole from the one after it
  while (tags_[start] != kEmpty) ++start;
  std::size_t longest = 0;
  std::size_t run = 0;
  for (std::size_t i = 1; i <= slots; ++i) {
    if (tags_[(start + i) % slots] == kEmpty) {
      longest = std::max(longest, run + 1);
      run = 0;
    } else {
      ++run;
    }
  }
  return longest;
}

std::uint64_t EndIndex::bytes() const {
  const std::uint64_t key_bytes =
      std::visit([](const auto& end_keys) { return sizeof(end_keys.keys[0]) * end_keys.keys.capacity(); }, end_keys_);
  return key_bytes + locations_.capacity() * sizeof(Location) + tags_.capacity() + kmers_.capacity() * sizeof(std::size_t) +
         filter_.bytes();
}

std::size_t EndIndex::owner_of(std::string_view bases, std::size_t start) const { return route(bases, start).owner; }

EndIndex::Route EndIndex::route(std::string_view bases, std::size_t start) const {
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) return route_as(*one_word, bases, start);
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) return route_as(*two_words, bases, start);
  return route_as(std::get<EndKeys<4>>(end_keys_), bases, start);
}

template <int Words>
EndIndex::Route EndIndex::route_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t start) const {
  const PackedKmer<Words> kmer = end_keys.shape.pack(bases.substr(start));
  const PackedKmer<Words> canonical = end_keys.shape.canonical(kmer);
  const std::uint64_t hash = key_of<Words>(canonical)[Words - 1];
  Route route{owner_of_hash(hash, owners_), true, std::nullopt};
  if (route.owner == owner_) {
    if (!tags_.empty()) route.place = place_canonical<Words>(end_keys, kmer, canonical, hash);
  } else {
    route.maybe_held = filter_.empty() || filter_.may_contain(hash);
  }
  return route;
}

std::optional<EndIndex::Place> EndIndex::place_owned(std::string_view kmer) const {
  if (kmer.size() != static_cast<std::size_t>(k_)) {
    throw std::invalid_argument("unitig ends: asked where a k-mer of " + std::to_string(kmer.size()) + " bases lies (k " +
                                std::to_string(k_) + ")");
  }
  if (std::any_of(kmer.begin(), kmer.end(), [](char base) { return kBaseCodes[static_cast<unsigned char>(base)] < 0; })) {
    throw std::invalid_argument("unitig ends: asked where a k-mer with a base not ACGT lies");
  }
  const Route routed = route(kmer, 0);
  if (routed.owner != owner_) {
    throw std::invalid_argument("unitig ends: owner " + std::to_string(owner_) + " was asked for a k-mer owner " +
                                std::to_string(routed.owner) + " holds");
  }
  return routed.place;
}

void EndIndex::check_answer(const std::optional<Place>& place) const {
  if (!place) return;
  if (place->unitig / 2 >= kmers_.size() || place->offset >= kmers_[place->unitig / 2]) {
    throw std::invalid_argument("unitig ends: an answer places a k-mer at offset " + std::to_string(place->offset) +
                                " of unitig " + std::to_string(place->unitig / 2) + ", outside the graph's " +
                                std::to_string(kmers_.size()) + " unitigs");
  }
}

std::optional<EndIndex::Place> EndIndex::place(std::string_view bases, std::size_t start) const {
  if (tags_.empty()) return std::nullopt;  // nothing indexed
  // A branch on the width, not std::visit: this runs for every k-mer a read is searched at.
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) return place_as(*one_word, bases, start);
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) return place_as(*two_words, bases, start);
  return place_as(std::get<EndKeys<4>>(end_keys_), bases, start);
}

template <int Words>
std::optional<EndIndex::Place> EndIndex::place_as(const EndKeys<Words>& end_keys, std::string_view bases,
                                                  std::size_t start) const {
  const PackedKmer<Words> kmer = end_keys.shape.pack(bases.substr(start));
  const PackedKmer<Words> canonical = end_keys.shape.canonical(kmer);
  return place_canonical<Words>(end_keys, kmer, canonical, key_of<Words>(canonical)[Words - 1]);
}

template <int Words>
std::optional<EndIndex::Place> EndIndex::place_canonical(const EndKeys<Words>& end_keys, const PackedKmer<Words>& kmer,
                                                         const PackedKmer<Words>& canonical, std::uint64_t hash) const {
  const std::size_t slot = slot_of<Words>(end_keys, canonical, hash);
  if (tags_[slot] == kEmpty || locations_[slot].unitig == kAmbiguous) return std::nullopt;
  const Location& found = locations_[slot];
  const bool read_is_canonical = same_words<Words>(kmer, canonical);
  const bool forward = read_is_canonical == (found.canonical_forward != 0);
  const std::size_t offset = forward ? found.offset : kmers_[found.unitig] - 1 - found.offset;
  return Place{2 * static_cast<std::size_t>(found.unitig) + (forward ? 0 : 1), offset};
}

std::optional<EndIndex::Place> EndIndex::next_place(std::string_view bases, std::size_t from, std::size_t step,
                                                    std::size_t& found) const {
  if (tags_.empty()) {  // nothing indexed: nothing is placed, and `found` ends where the search would
    for (found = from; found + static_cast<std::size_t>(k_) <= bases.size(); found += step) {}
    return std::nullopt;
  }
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) {
    return search_as<1, false>(*one_word, bases, from, step, found).place;
  }
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) {
    return search_as<2, false>(*two_words, bases, from, step, found).place;
  }
  return search_as<4, false>(std::get<EndKeys<4>>(end_keys_), bases, from, step, found).place;
}

EndIndex::Route EndIndex::next_route(std::string_view bases, std::size_t from, std::size_t step,
                                     std::size_t& found) const {
  if (tags_.empty()) {  // nothing indexed: as next_place
    next_place(bases, from, step, found);
    return {owner_, false, std::nullopt};
  }
  if (const auto* one_word = std::get_if<EndKeys<1>>(&end_keys_)) return search_as<1, true>(*one_word, bases, from, step, found);
  if (const auto* two_words = std::get_if<EndKeys<2>>(&end_keys_)) return search_as<2, true>(*two_words, bases, from, step, found);
  return search_as<4, true>(std::get<EndKeys<4>>(end_keys_), bases, from, step, found);
}

// Each k-mer tried is rolled on from the one before (`step` bases shifted in, not k packed):
// packing was most of a miss's cost once the tags kept misses off the keys. The k-mers are
// taken a few at a time, their tags' slots prefetched before the first is probed, so that the
// waits for the tags (a megabyte and more: out of the nearest caches) overlap.
template <int Words, bool Sliced>
EndIndex::Route EndIndex::search_as(const EndKeys<Words>& end_keys, std::string_view bases, std::size_t from,
                                    std::size_t step, std::size_t& found) const {
  constexpr std::size_t kAhead = 8;
  const auto k = static_cast<std::size_t>(k_);
  const KmerShape<Words>& shape = end_keys.shape;
  struct Tried {
    PackedKmer<Words> kmer;
    PackedKmer<Words> canonical;
    std::uint64_t hash;
    std::size_t owner;
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
      std::size_t owner = owner_;
      if constexpr (Sliced) owner = owner_of_hash(hash, owners_);
      if (!Sliced || owner == owner_) {
        __builtin_prefetch(tags_.data() + probing_.home(hash));
      } else if (!filter_.empty()) {
        filter_.prefetch(hash);
      }
      tried[count] = {kmer, canonical, hash, owner};
    }
    for (std::size_t i = 0; i < count; ++i, found += step) {
      const Tried& each = tried[i];
      if (Sliced && each.owner != owner_) {
        if (filter_.empty() || filter_.may_contain(each.hash)) return {each.owner, true, std::nullopt};
        continue;
      }
      if (std::optional<Place> placed = place_canonical<Words>(end_keys, each.kmer, each.canonical, each.hash)) {
        return {owner_, true, placed};
      }
    }
  }
  return {owner_, false, std::nullopt};
}

}  // namespace xenon::genomics
