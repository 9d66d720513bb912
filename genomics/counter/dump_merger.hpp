// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/io/atomic_output_file.hpp"
#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

// Merges the sorted chunks that every store sends into one sorted "kmer count" file. Each
// store holds a disjoint set of k-mers, sorted; the merger keeps one chunk per store and
// asks a store for its next chunk (through `request`) once it has used up the last one, so
// memory stays at one chunk per store whatever the number of k-mers.
template <int Words>
class DumpMerger {
 public:
  using Entry = typename DumpChunk<Words>::Entry;

  DumpMerger(std::size_t stores, int k, AtomicOutputFile& output,
             std::function<void(std::size_t store)> request)
      : sources_(stores), k_(k), output_(output), request_(std::move(request)) {}

  // Asks every store for its first chunk.
  void start() {
    for (std::size_t store = 0; store < sources_.size(); ++store) ask(store);
  }

  // A chunk from a store (an empty one: the store has no more).
  void add_chunk(std::size_t store, std::span<const std::byte> bytes) {
    if (store >= sources_.size() || !sources_[store].asked) {
      throw std::logic_error("dump chunk from store " + std::to_string(store) + " unasked");
    }
    Source& source = sources_[store];
    DumpChunk<Words>::decode(bytes, source.chunk);
    source.asked = false;
    --waiting_;
    source.position = 0;
    if (source.chunk.empty()) {
      source.exhausted = true;
    } else {
      push(store);
    }
    merge();
  }

  bool finished() const {
    return waiting_ == 0 && heap_.empty() &&
           std::all_of(sources_.begin(), sources_.end(), [](const Source& s) { return s.exhausted; });
  }
  std::uint64_t written() const { return written_; }

 private:
  struct Source {
    std::vector<Entry> chunk;
    std::size_t position = 0;
    bool asked = false;
    bool exhausted = false;
  };

  void ask(std::size_t store) {
    sources_[store].asked = true;
    ++waiting_;
    request_(store);
  }

  // The heap holds the stores with an entry at hand, smallest k-mer on top.
  bool later(std::size_t a, std::size_t b) const {
    return words_less<Words>(sources_[b].chunk[sources_[b].position].first,
                             sources_[a].chunk[sources_[a].position].first);
  }
  void push(std::size_t store) {
    heap_.push_back(store);
    std::push_heap(heap_.begin(), heap_.end(), [this](auto a, auto b) { return later(a, b); });
  }

  // Writes entries while every store that may still have k-mers has one at hand.
  void merge() {
    std::string line;
    while (waiting_ == 0 && !heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), [this](auto a, auto b) { return later(a, b); });
      const std::size_t store = heap_.back();
      heap_.pop_back();
      Source& source = sources_[store];
      const Entry& entry = source.chunk[source.position++];
      line = kmer_to_string<Words>(entry.first, k_);
      line += ' ';
      line += std::to_string(entry.second);
      line += '\n';
      output_.write(line);
      ++written_;
      if (source.position < source.chunk.size()) {
        push(store);
      } else {
        ask(store);
      }
    }
  }

  std::vector<Source> sources_;
  int k_;
  AtomicOutputFile& output_;
  std::function<void(std::size_t)> request_;
  std::vector<std::size_t> heap_;
  std::size_t waiting_ = 0;
  std::uint64_t written_ = 0;
};

}  // namespace xenon::genomics
