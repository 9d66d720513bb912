// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"

// The first round's filter between rounds (AssemblerSettings::count_filter): a slice of it on
// every node, so that no node holds the whole filter while the later rounds build and walk
// their graphs. Node 0 puts it together to start a round's parsers, which hold it on every
// node while they count, and lets go of it when counting is done. (On 40x E. coli at 8
// processes the whole filter, 9.2 MB, was what node 0 held above the others in every round.)
//   MultiKAssembly -> every node  request_spawn kFilterKeeperType (no arguments): one keeper a node
//   coordinator -> keeper     ACTION_FILTER_SLICE_KEEP  FilterSlice: u64 first word, then the words
//                                                       (filter_slice), little-endian
//   MultiKAssembly -> keeper  ACTION_FILTER_SLICE_ASK   before each later round
//   keeper -> MultiKAssembly  ACTION_FILTER_SLICE       the slice it keeps, as it came
//   MultiKAssembly -> keeper  ACTION_COUNTER_STOP       after the last round's ask, when the first
//                                                       round built no filter after all, or a failure
namespace xenon::genomics {

inline constexpr std::string_view kFilterKeeperType = "genomics.filter-keeper";
inline constexpr Action ACTION_FILTER_SLICE_KEEP{"genomics.filter-slice.keep"};
inline constexpr Action ACTION_FILTER_SLICE_ASK{"genomics.filter-slice.ask"};
inline constexpr Action ACTION_FILTER_SLICE{"genomics.filter-slice"};

// The words [first, end) of a filter of `words` words that slice `index` of `slices` holds:
// the slices cover the filter in order, their sizes at most one word apart.
struct WordRange {
  std::size_t first = 0;
  std::size_t end = 0;
};
inline WordRange filter_slice(std::size_t words, std::size_t slices, std::size_t index) {
  return {words * index / slices, words * (index + 1) / slices};
}

// A slice as it travels: its first word, then its words as the filter's bytes hold them.
struct FilterSlice {
  std::uint64_t first_word = 0;
  std::span<const std::byte> words;

  // The slice of a filter's bytes (KmerBloomFilter::write_bytes) that `range` names.
  static Payload encode(std::span<const std::byte> filter_bytes, WordRange range) {
    const std::span<const std::byte> words = filter_bytes.subspan(8 * range.first, 8 * (range.end - range.first));
    Payload slice = Payload::for_overwrite(8 + words.size());
    store_le64(slice.writable_bytes().data(), range.first);
    std::copy(words.begin(), words.end(), slice.writable_bytes().data() + 8);
    return slice;
  }
  // Throws std::invalid_argument on a message too short to hold the first word.
  static FilterSlice view(std::span<const std::byte> bytes) {
    if (bytes.size() < 8) throw std::invalid_argument("a filter slice of " + std::to_string(bytes.size()) + " bytes");
    return {load_le64(bytes.data()), bytes.subspan(8)};
  }
};

// Keeps its node's slice from the first round to the last round's start, and gives it back
// when asked; stops when told to.
class FilterKeeper : public Actor {
 public:
  explicit FilterKeeper(std::span<const std::byte> arguments = {}) {
    if (!arguments.empty()) throw std::invalid_argument("a filter keeper takes no arguments");
  }

  void receive(const Message& message) override {
    const Action action = message.action();
    if (action == ACTION_FILTER_SLICE_KEEP) {
      if (slice_.size() != 0) throw std::logic_error("a second filter slice for one keeper");
      FilterSlice::view(message.payload());  // checked as it arrives, not when it is needed
      slice_ = message.share_payload();
      if (!asker_.is_none()) send(asker_, ACTION_FILTER_SLICE, slice_.share());
    } else if (action == ACTION_FILTER_SLICE_ASK) {
      // The slice and the ask come from two actors: the ask may overtake the slice.
      if (slice_.size() == 0) {
        asker_ = message.source();
      } else {
        reply(message, ACTION_FILTER_SLICE, slice_.share());
      }
    } else if (action == ACTION_COUNTER_STOP) {
      stop();
    } else {
      throw std::runtime_error("filter keeper: unexpected action " + std::to_string(action.code()));
    }
  }

 private:
  Payload slice_;
  ActorName asker_ = ActorName::none();  // asked before its slice came
};

}  // namespace xenon::genomics
