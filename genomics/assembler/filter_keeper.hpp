// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/run/exchanges.hpp"
#include "genomics/assembler/carried_sequences.hpp"
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"

// The first round's filter between rounds (AssemblerSettings::count_filter): a slice of it on
// every node, so that no node holds the whole filter while the later rounds build and walk
// their graphs. The first round's stores merge their filters on each node, and each node's
// first store sends each keeper its node's part of the keeper's slice, which the keeper ORs
// together (a reduce-scatter: no node receives the whole filter from the others, and node 0
// sends no more of it than any other). Before a later round counts, the keepers put the
// round's filter together on every node, each sending its slice to every other (an
// all-gather), and hand it to their node's parsers: each node receives the filter once, where
// node 0 used to send it whole to every node (on 40x E. coli, 9.2 MB to each node in each of
// three rounds). The round's carried k-mers are added too: each keeper finds the words that
// its node's share of the carried sequences adds to the first round's filter and sends them to
// every other keeper, so that node 0 neither gathers the filter nor scans every carried k-mer.
//   MultiKAssembly -> every node  request_spawn kFilterKeeperType (no arguments): one keeper a node
//   store -> keeper           ACTION_FILTER_PART         FilterPart: its node's filter's words of the
//                                                        keeper's slice (filter_slice), from every node
//   coordinator -> keeper     ACTION_FILTER_ROUND        FilterRound: the keepers, this node's parsers,
//                                                        the first round's k, this node's share of
//                                                        the carried sequences (once the slice is whole)
//   keeper -> other keepers   ACTION_FILTER_SHARE        FilterSlice: its slice, as it came
//   keeper -> other keepers   ACTION_FILTER_ADDITIONS    FilterAdditions: the words its share of the
//                                                        carried k-mers adds to the whole filter
//   keeper -> its parsers     ACTION_PARSER_FILTER       the whole round's filter (counter_protocol.hpp)
//   parser -> keeper          ACTION_PARSER_FILTER_TAKEN
//   keeper -> coordinator     ACTION_FILTER_DELIVERED    u64 words the carried k-mers added; every
//                                                        parser of its node has the filter
//   MultiKAssembly -> keeper  ACTION_COUNTER_STOP        when the run ends, or the first round built
//                                                        no filter after all
namespace xenon::genomics {

inline constexpr std::string_view kFilterKeeperType = "genomics.filter-keeper";
inline constexpr Action ACTION_FILTER_PART{"genomics.filter-slice.part"};
inline constexpr Action ACTION_FILTER_ROUND{"genomics.filter-slice.round"};
inline constexpr Action ACTION_FILTER_SHARE{"genomics.filter-slice.share"};
inline constexpr Action ACTION_FILTER_ADDITIONS{"genomics.filter-slice.additions"};
inline constexpr Action ACTION_FILTER_DELIVERED{"genomics.filter-slice.delivered"};
// MultiKAssembly -> a round's coordinator: a keeper failed (the reason), so the round ends
// rather than wait for a filter that will not come.
inline constexpr Action ACTION_FILTER_KEEPER_FAILED{"genomics.filter-slice.keeper-failed"};

// The largest filter a keeper takes: the assembler makes none over 1 GiB (count_filter_items).
inline constexpr std::uint64_t kLargestFilterWords = (std::uint64_t{1} << 30) / 8;

// The words [first, end) of a filter of `words` words that slice `index` of `slices` holds:
// the slices cover the filter in order, their sizes at most one word apart.
struct WordRange {
  std::size_t first = 0;
  std::size_t end = 0;
};
inline WordRange filter_slice(std::size_t words, std::size_t slices, std::size_t index) {
  return {words * index / slices, words * (index + 1) / slices};
}

// A slice as it travels: u64 the whole filter's words, u64 its first word, then its words as
// the filter's bytes hold them (little-endian).
struct FilterSlice {
  std::uint64_t filter_words = 0;
  std::uint64_t first_word = 0;
  std::span<const std::byte> words;

  std::uint64_t word_count() const { return words.size() / 8; }

  // The slice of `filter` that `range` names.
  static Payload encode(const KmerBloomFilter& filter, WordRange range) {
    Payload slice = Payload::for_overwrite(bytes_for(range));
    write(filter, range, slice.writable_bytes());
    return slice;
  }
  static std::size_t bytes_for(WordRange range) { return 16 + 8 * (range.end - range.first); }
  // The same into `out` (bytes_for(range) bytes).
  static void write(const KmerBloomFilter& filter, WordRange range, std::span<std::byte> out) {
    store_le64(out.data(), filter.words());
    store_le64(out.data() + 8, range.first);
    filter.write_words(range.first, out.subspan(16, 8 * (range.end - range.first)));
  }
  // Throws std::invalid_argument on a slice that is not whole words inside a filter of at
  // most kLargestFilterWords.
  static FilterSlice view(std::span<const std::byte> bytes) {
    if (bytes.size() < 16 || bytes.size() % 8 != 0) {
      throw std::invalid_argument("a filter slice of " + std::to_string(bytes.size()) + " bytes");
    }
    const FilterSlice slice{load_le64(bytes.data()), load_le64(bytes.data() + 8), bytes.subspan(16)};
    if (slice.filter_words == 0 || slice.filter_words > kLargestFilterWords ||
        slice.first_word > slice.filter_words || slice.word_count() > slice.filter_words - slice.first_word) {
      throw std::invalid_argument("a filter slice of words " + std::to_string(slice.first_word) + " to " +
                                  std::to_string(slice.first_word + slice.word_count()) + " of " +
                                  std::to_string(slice.filter_words));
    }
    return slice;
  }
};

// One node's part of a keeper's slice (a node's first store -> keeper, ACTION_FILTER_PART):
// u64 the parts the keeper gets in all (one from every node), then the slice of the node's
// filter (FilterSlice).
struct FilterPart {
  std::uint64_t parts = 0;
  FilterSlice slice;

  static Payload encode(std::uint64_t parts, const KmerBloomFilter& filter, WordRange range) {
    Payload part = Payload::for_overwrite(8 + FilterSlice::bytes_for(range));
    store_le64(part.writable_bytes().data(), parts);
    FilterSlice::write(filter, range, part.writable_bytes().subspan(8));
    return part;
  }
  // Throws std::invalid_argument as FilterSlice::view does, or for no parts.
  static FilterPart view(std::span<const std::byte> bytes) {
    if (bytes.size() < 8 || load_le64(bytes.data()) == 0) {
      throw std::invalid_argument("a filter part of " + std::to_string(bytes.size()) + " bytes, or of no parts");
    }
    return {load_le64(bytes.data()), FilterSlice::view(bytes.subspan(8))};
  }
};

// What a keeper needs to put a later round's filter together (coordinator -> keeper,
// ACTION_FILTER_ROUND): u32 keepers, u32 parsers, their names (u64 each, keepers in node
// order, then the parsers of the keeper's node), u32 the first round's k, u32 0, then the
// keeper's node's share of the round's carried sequences, one a line (carried_share).
struct FilterRound {
  std::vector<ActorName> keepers;
  std::vector<ActorName> parsers;
  std::uint32_t filter_k = 0;
  std::string carried;

  Payload encode() const {
    const std::size_t names = keepers.size() + parsers.size();
    Payload payload = Payload::for_overwrite(16 + 8 * names + carried.size());
    std::byte* out = payload.writable_bytes().data();
    store_le32(out, static_cast<std::uint32_t>(keepers.size()));
    store_le32(out + 4, static_cast<std::uint32_t>(parsers.size()));
    out += 8;
    for (const std::vector<ActorName>* list : {&keepers, &parsers}) {
      for (const ActorName name : *list) {
        store_le64(out, name.value());
        out += 8;
      }
    }
    store_le32(out, filter_k);
    store_le32(out + 4, 0);
    std::copy(carried.begin(), carried.end(), reinterpret_cast<char*>(out + 8));
    return payload;
  }
  // Throws std::invalid_argument on a message shorter than its names, or of no k.
  static FilterRound decode(std::span<const std::byte> bytes) {
    const auto fail = [&] { throw std::invalid_argument("a filter round of " + std::to_string(bytes.size()) + " bytes"); };
    if (bytes.size() < 16) fail();
    const std::uint64_t names = std::uint64_t{load_le32(bytes.data())} + load_le32(bytes.data() + 4);
    if (bytes.size() < 16 + 8 * names) fail();
    FilterRound round;
    const std::byte* in = bytes.data() + 8;
    for (std::uint32_t i = 0; i < load_le32(bytes.data()); ++i, in += 8) round.keepers.push_back(ActorName::from_value(load_le64(in)));
    for (std::uint32_t i = 0; i < load_le32(bytes.data() + 4); ++i, in += 8) round.parsers.push_back(ActorName::from_value(load_le64(in)));
    round.filter_k = load_le32(in);
    if (round.filter_k == 0 || load_le32(in + 4) != 0) fail();
    round.carried.assign(reinterpret_cast<const char*>(in + 8), bytes.size() - 16 - 8 * names);
    return round;
  }
};

// The words a keeper's share of the carried k-mers adds to the filter (keeper -> keeper,
// ACTION_FILTER_ADDITIONS): u64 count, then each as u64 word and u64 bits.
struct FilterAdditions {
  static Payload encode(const std::vector<KmerBloomFilter::WordBits>& additions) {
    Payload payload = Payload::for_overwrite(8 + 16 * additions.size());
    std::byte* out = payload.writable_bytes().data();
    store_le64(out, additions.size());
    for (std::size_t index = 0; index < additions.size(); ++index) {
      store_le64(out + 8 + 16 * index, additions[index].word);
      store_le64(out + 16 + 16 * index, additions[index].bits);
    }
    return payload;
  }
  // Throws std::invalid_argument on a message of another size than it says.
  static std::vector<KmerBloomFilter::WordBits> decode(std::span<const std::byte> bytes) {
    if (bytes.size() < 8 || (bytes.size() - 8) % 16 != 0 || (bytes.size() - 8) / 16 != load_le64(bytes.data())) {
      throw std::invalid_argument("filter additions of " + std::to_string(bytes.size()) + " bytes");
    }
    std::vector<KmerBloomFilter::WordBits> additions;
    for (std::size_t at = 8; at < bytes.size(); at += 16) {
      additions.push_back({load_le64(bytes.data() + at), load_le64(bytes.data() + at + 8)});
    }
    return additions;
  }
};

// Keeps its node's slice of the first round's filter from the first round to the end of the
// run, and before each later round puts that round's filter together for its node's parsers:
// the first round's, whole, with the words the round's carried k-mers add; stops when told to.
class FilterKeeper : public Actor {
 public:
  explicit FilterKeeper(std::span<const std::byte> arguments = {}) {
    if (!arguments.empty()) throw std::invalid_argument("a filter keeper takes no arguments");
  }

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_FILTER_PART) {
      part_arrived(FilterPart::view(message.payload()));
      begin_round_when_ready();
    } else if (action == ACTION_FILTER_ROUND) {
      if (round_) throw std::logic_error("a filter round before the last ended");
      round_ = FilterRound::decode(message.payload());
      coordinator_ = message.source();
      if (std::count(round_->keepers.begin(), round_->keepers.end(), self()) != 1) {
        throw std::invalid_argument("a filter round whose keepers do not name this one once");
      }
      begin_round_when_ready();
    } else if (action == ACTION_FILTER_SHARE) {
      // Another keeper's, perhaps before this keeper's own round message.
      once_from(message.source(), shares_from_, "filter slice");
      put_in(FilterSlice::view(message.payload()));
      go_on();
    } else if (action == ACTION_FILTER_ADDITIONS) {
      // Perhaps before this keeper has the whole filter: kept apart until it has added its own.
      once_from(message.source(), additions_from_, "set of filter additions");
      const std::vector<KmerBloomFilter::WordBits> additions = FilterAdditions::decode(message.payload());
      additions_.insert(additions_.end(), additions.begin(), additions.end());
      go_on();
    } else if (action == ACTION_PARSER_FILTER_TAKEN) {
      parser_took_filter();
    } else if (action == ACTION_COUNTER_STOP) {
      stop();
    } else {
      throw std::runtime_error("filter keeper: unexpected action " + std::to_string(action.code()));
    }
  }

 private:
  // Counting slices and additions counts keepers: a second message from one keeper would
  // stand for another's that has not come, and a filter with words missing would go out.
  static void once_from(ActorName sender, std::vector<ActorName>& senders, const char* what) {
    if (std::find(senders.begin(), senders.end(), sender) != senders.end()) {
      throw std::logic_error(std::string("a second ") + what + " from one sender");
    }
    senders.push_back(sender);
  }

  void all_from_keepers(const std::vector<ActorName>& senders, const char* what) const {
    for (const ActorName sender : senders) {
      if (std::find(round_->keepers.begin(), round_->keepers.end(), sender) == round_->keepers.end()) {
        throw std::logic_error(std::string("a ") + what + " from an actor that is not one of the round's keepers");
      }
    }
  }

  bool slice_complete() const { return parts_expected_ != 0 && parts_in_ == parts_expected_; }

  // The first part sets the slice's place and size; each later one is ORed in.
  void part_arrived(const FilterPart& part) {
    if (slice_complete()) throw std::logic_error("a filter part after every part came");
    if (parts_expected_ == 0) {
      parts_expected_ = part.parts;
      slice_ = Payload::for_overwrite(16 + part.slice.words.size());
      std::byte* out = slice_.writable_bytes().data();
      store_le64(out, part.slice.filter_words);
      store_le64(out + 8, part.slice.first_word);
      std::copy(part.slice.words.begin(), part.slice.words.end(), out + 16);
    } else {
      const FilterSlice mine = FilterSlice::view(slice_.bytes());
      if (part.parts != parts_expected_ || part.slice.filter_words != mine.filter_words ||
          part.slice.first_word != mine.first_word || part.slice.words.size() != mine.words.size()) {
        throw std::invalid_argument("a filter part of words " + std::to_string(part.slice.first_word) + " to " +
                                    std::to_string(part.slice.first_word + part.slice.word_count()) + " for the slice of words " +
                                    std::to_string(mine.first_word) + " to " + std::to_string(mine.first_word + mine.word_count()));
      }
      std::byte* words = slice_.writable_bytes().data() + 16;
      for (std::size_t at = 0; at < part.slice.words.size(); at += 8) {
        store_le64(words + at, load_le64(words + at) | load_le64(part.slice.words.data() + at));
      }
    }
    ++parts_in_;
  }

  // Once the round's message and every part of this keeper's slice are in (the parts come
  // from the first round's stores, the round from a later coordinator: nothing orders them),
  // the slice goes to every other keeper and into the filter this node puts together.
  void begin_round_when_ready() {
    if (!round_ || round_begun_ || !slice_complete()) return;
    round_begun_ = true;
    for (const ActorName keeper : round_->keepers) {
      if (keeper != self()) send(keeper, ACTION_FILTER_SHARE, slice_.share());
    }
    once_from(self(), shares_from_, "filter slice");
    put_in(FilterSlice::view(slice_.bytes()));
    go_on();
  }

  void put_in(const FilterSlice& slice) {
    if (filter_.empty()) {
      filter_ = KmerBloomFilter::with_words(slice.filter_words);
      words_in_ = 0;
    }
    if (filter_.words() != slice.filter_words || words_in_ + slice.word_count() > slice.filter_words) {
      throw std::invalid_argument("a filter slice of " + std::to_string(slice.word_count()) + " words of " +
                                  std::to_string(slice.filter_words) + " after " + std::to_string(words_in_) +
                                  " words of " + std::to_string(filter_.words()));
    }
    filter_.read_words(static_cast<std::size_t>(slice.first_word), slice.words);
    words_in_ += slice.word_count();
  }

  // Once every keeper's slice is in (counted by slices: a slice may be empty when the filter
  // has fewer words than there are nodes), the words this node's share of the carried k-mers
  // adds go to every other keeper; once every keeper's additions are in, they are added (each
  // found against the first round's filter alone, so their union is what one scan of every
  // carried k-mer finds) and the filter goes to every parser of this node (one buffer they
  // share until each has taken its copy).
  void go_on() {
    if (!round_begun_ || shares_from_.size() != round_->keepers.size()) return;
    if (!own_additions_sent_) {
      all_from_keepers(shares_from_, "filter slice");
      if (words_in_ != filter_.words()) {
        throw std::logic_error(std::to_string(words_in_) + " words from every keeper for a filter of " +
                               std::to_string(filter_.words()));
      }
      const std::vector<KmerBloomFilter::WordBits> own =
          carried_kmer_additions(filter_, round_->carried, static_cast<int>(round_->filter_k));
      std::string().swap(round_->carried);
      const Payload additions = FilterAdditions::encode(own);
      for (const ActorName keeper : round_->keepers) {
        if (keeper != self()) send(keeper, ACTION_FILTER_ADDITIONS, additions.share());
      }
      count_exchange_with_every_peer();
      once_from(self(), additions_from_, "set of filter additions");
      additions_.insert(additions_.end(), own.begin(), own.end());
      own_additions_sent_ = true;
    }
    if (additions_from_.size() != round_->keepers.size()) return;
    all_from_keepers(additions_from_, "set of filter additions");
    deliver();
  }

  void deliver() {
    std::sort(additions_.begin(), additions_.end(),
              [](const KmerBloomFilter::WordBits& a, const KmerBloomFilter::WordBits& b) { return a.word < b.word; });
    std::uint64_t words_added = 0;
    for (std::size_t at = 0; at < additions_.size(); ++at) {
      const KmerBloomFilter::WordBits& addition = additions_[at];
      if (addition.word >= filter_.words()) {
        throw std::invalid_argument("a filter addition to word " + std::to_string(addition.word) + " of a filter of " +
                                    std::to_string(filter_.words()));
      }
      if (at == 0 || additions_[at - 1].word != addition.word) ++words_added;
      filter_.add(addition);
    }
    Payload whole = Payload::for_overwrite(filter_.bytes());
    filter_.write_bytes(whole.writable_bytes());
    filter_ = KmerBloomFilter();
    words_added_ = words_added;
    std::vector<KmerBloomFilter::WordBits>().swap(additions_);
    shares_from_.clear();
    additions_from_.clear();
    own_additions_sent_ = false;
    takers_awaited_ = round_->parsers.size();
    for (const ActorName parser : round_->parsers) send(parser, ACTION_PARSER_FILTER, whole.share());
    if (takers_awaited_ == 0) round_ended();
  }

  void parser_took_filter() {
    if (!round_ || takers_awaited_ == 0) throw std::logic_error("a parser took a filter it was not given");
    if (--takers_awaited_ == 0) round_ended();
  }

  void round_ended() {
    send_value(coordinator_, ACTION_FILTER_DELIVERED, words_added_);
    round_.reset();
    round_begun_ = false;
  }

  Payload slice_;                     // the first round's: FilterSlice, ORed from the parts
  std::uint64_t parts_expected_ = 0;  // 0 until the first part came
  std::uint64_t parts_in_ = 0;
  // A later round's filter, while this node puts it together and hands it out.
  std::optional<FilterRound> round_;
  bool round_begun_ = false;  // its slice sent to the other keepers
  ActorName coordinator_ = ActorName::none();
  KmerBloomFilter filter_;  // the first round's, put together from every keeper's slice
  std::uint64_t words_in_ = 0;
  std::vector<ActorName> shares_from_;     // the keepers whose slices came this round
  bool own_additions_sent_ = false;
  std::vector<KmerBloomFilter::WordBits> additions_;  // every keeper's that came, this one's too
  std::vector<ActorName> additions_from_;
  std::uint64_t words_added_ = 0;
  std::size_t takers_awaited_ = 0;
};

}  // namespace xenon::genomics
