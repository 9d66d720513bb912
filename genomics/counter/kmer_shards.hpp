// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/io/checkpoint_file.hpp"
#include "genomics/kmer/kmer_count_table.hpp"

// The counted k-mers saved for --continue --dump: each store writes its table as one shard,
// DIR/checkpoints/kmers-I-of-N (store I of N), a checkpoint (checkpoint_file.hpp) whose bytes
// are entries of the key's words then its count, each a little-endian u64, in the table's
// order. Stores hold disjoint k-mers, and the dump merges whatever sorted sets the stores
// hold, so a later run may spread the N shards over any number of stores (other -t, other
// process counts): store J of M loads the shards I with I mod M = J.
namespace xenon::genomics::kmer_shards {

inline std::string name(std::size_t shard, std::size_t shards) {
  return "kmers-" + std::to_string(shard) + "-of-" + std::to_string(shards);
}
inline std::string origin(const std::string& run_origin, std::size_t shard, std::size_t shards) {
  return run_origin + " shard " + std::to_string(shard) + " of " + std::to_string(shards);
}

template <int Words>
constexpr std::size_t kEntryBytes = 8 * Words + 8;

template <int Words>
void save(const KmerCountTable<Words>& table, const std::string& directory, const std::string& name,
          const std::string& origin) {
  checkpoint::save_in_pieces(directory, name, origin, [&](const checkpoint::ConsumePiece& consume) {
    std::vector<std::byte> piece;
    piece.reserve(kEntryBytes<Words> * 65536);
    table.for_each([&](const KmerKey<Words>& key, std::uint64_t count) {
      const std::size_t at = piece.size();
      piece.resize(at + kEntryBytes<Words>);
      for (int word = 0; word < Words; ++word) store_le64(piece.data() + at + 8 * word, key[word]);
      store_le64(piece.data() + at + 8 * Words, count);
      if (piece.size() == piece.capacity()) {
        consume(piece);
        piece.clear();
      }
    });
    if (!piece.empty()) consume(piece);
  });
}

// Adds a shard's k-mers to `table`; false with `why` if it cannot be used (then `table` may
// hold part of it: clear it). The caller checks the result against the saved histogram,
// which also finds shards that overlap.
template <int Words>
bool load(KmerCountTable<Words>& table, const std::string& directory, const std::string& name,
          const std::string& origin, std::string& why) {
  return checkpoint::load_in_pieces(
      directory, name, origin, kEntryBytes<Words>,
      [&](std::span<const std::byte> piece) {
        for (std::size_t at = 0; at < piece.size(); at += kEntryBytes<Words>) {
          KmerKey<Words> key;
          for (int word = 0; word < Words; ++word) key[word] = load_le64(piece.data() + at + 8 * word);
          const std::uint64_t count = load_le64(piece.data() + at + 8 * Words);
          if (count == 0) throw std::runtime_error(name + ": a k-mer counted 0 times");
          table.insert_new(key, count);
        }
      },
      why);
}

}  // namespace xenon::genomics::kmer_shards
