// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/io/block_splitter.hpp"
#include "genomics/io/input_plan.hpp"
#include "genomics/kmer/kmer.hpp"
#include "genomics/kmer/kmer_bloom_filter.hpp"
#include "genomics/kmer/kmer_hash.hpp"
#include "genomics/kmer/kmer_histogram.hpp"

// The messages of the k-mer counter. Who sends what:
//   coordinator -> reader ACTION_COUNTER_START         read your pieces (one reader per node)
//   reader -> parser      ACTION_BLOCK                 a block of whole records (its own node's parsers)
//   parser -> store       ACTION_KMER_BATCH            hashed k-mers the store owns
//   store  -> parser      ACTION_KMER_BATCH_STORED     the batch is counted (flow control)
//   parser -> reader      ACTION_BLOCK_DONE / _FAILED  every batch of the block is counted
//   ?      -> parser      ACTION_PARSER_FILTER         the filter its arguments name (filter_words),
//   parser -> ?           ACTION_PARSER_FILTER_TAKEN   before any block; answered once it is taken
//   reader -> coordinator ACTION_INPUT_DONE            its pieces are read, or it stopped at a problem
//   coordinator <-> store ACTION_HISTOGRAM_REQUEST, ACTION_HISTOGRAM, ACTION_DUMP_*
//   coordinator <-> store ACTION_KMERS_SAVE / _SAVED, _LOAD / _LOADED, _FORGET / _FORGOTTEN:
//                         the counted k-mers to and from checkpoints (--dump; kmer_shards.hpp)
//   coordinator -> all    ACTION_COUNTER_STOP
//   coordinator -> itself ACTION_COUNTER_GIVE_BACK_MEMORY  every second while counting (below)
// Every payload is little-endian.
namespace xenon::genomics {

inline constexpr Action ACTION_COUNTER_START{"genomics.counter.start"};
inline constexpr Action ACTION_BLOCK{"genomics.counter.block"};
inline constexpr Action ACTION_KMER_BATCH{"genomics.counter.kmer-batch"};
inline constexpr Action ACTION_KMER_BATCH_STORED{"genomics.counter.kmer-batch-stored"};
// The whole filter, as KmerBloomFilter::write_bytes writes it.
inline constexpr Action ACTION_PARSER_FILTER{"genomics.counter.parser-filter"};
inline constexpr Action ACTION_PARSER_FILTER_TAKEN{"genomics.counter.parser-filter-taken"};
inline constexpr Action ACTION_BLOCK_DONE{"genomics.counter.block-done"};
inline constexpr Action ACTION_BLOCK_FAILED{"genomics.counter.block-failed"};
inline constexpr Action ACTION_INPUT_DONE{"genomics.counter.input-done"};
inline constexpr Action ACTION_HISTOGRAM_REQUEST{"genomics.counter.histogram-request"};
inline constexpr Action ACTION_HISTOGRAM{"genomics.counter.histogram"};
inline constexpr Action ACTION_DUMP_PREPARE{"genomics.counter.dump-prepare"};
inline constexpr Action ACTION_DUMP_CHUNK_REQUEST{"genomics.counter.dump-chunk-request"};
inline constexpr Action ACTION_DUMP_CHUNK{"genomics.counter.dump-chunk"};
inline constexpr Action ACTION_COUNTER_STOP{"genomics.counter.stop"};
// Node 0's freed heap pages go back to the system while the stores count (release_freed_memory_past):
// its heap is full of holes its serial steps left, and the batches that stream through it
// while counting land in one hole after another. At 40x E. coli over 8 processes, a later
// round's counting left 22.7 MiB of node 0's free heap resident, more than any other rank.
inline constexpr Action ACTION_COUNTER_GIVE_BACK_MEMORY{"genomics.counter.give-back-memory"};
// Save: directory, the run's origin, shard, shards (CheckpointWriter); answered empty.
inline constexpr Action ACTION_KMERS_SAVE{"genomics.counter.kmers-save"};
inline constexpr Action ACTION_KMERS_SAVED{"genomics.counter.kmers-saved"};
// Load: directory, the run's origin, shards saved, this store's index, stores now; answered
// with 1 and the histogram of what the store now holds, or 0 and why a shard is not usable.
inline constexpr Action ACTION_KMERS_LOAD{"genomics.counter.kmers-load"};
inline constexpr Action ACTION_KMERS_LOADED{"genomics.counter.kmers-loaded"};
// Forget: empty the table (a load that failed somewhere); answered empty.
inline constexpr Action ACTION_KMERS_FORGET{"genomics.counter.kmers-forget"};
inline constexpr Action ACTION_KMERS_FORGOTTEN{"genomics.counter.kmers-forgotten"};

// Names under which stores and parsers are registered on every node, by k-mer width (words).
template <int Words>
inline constexpr std::string_view kStoreType = Words == 1   ? "genomics.kmer-store.1"
                                               : Words == 2 ? "genomics.kmer-store.2"
                                                            : "genomics.kmer-store.4";
template <int Words>
inline constexpr std::string_view kParserType = Words == 1   ? "genomics.kmer-parser.1"
                                                : Words == 2 ? "genomics.kmer-parser.2"
                                                             : "genomics.kmer-parser.4";
inline constexpr std::string_view kReaderType = "genomics.input-reader";

// A block of records and where it comes from.
struct BlockMessage {
  std::uint64_t block_number = 0;  // counted by the reader over all files
  BlockOrigin origin;
  std::span<const std::byte> records;

  static Payload encode(std::uint64_t block_number, const BlockOrigin& origin,
                        std::string_view records);
  // Views into bytes; throws std::invalid_argument if they are not a block message.
  static BlockMessage decode(std::span<const std::byte> bytes);
};

// What one block held (parser -> reader), and the sum over all blocks (reader -> coordinator).
struct InputTally {
  std::uint64_t blocks = 0;
  std::uint64_t records = 0;
  std::uint64_t bases = 0;
  std::uint64_t kmers = 0;
  std::uint64_t kmers_left_out = 0;  // of kmers, read once by a filter's verdict: sent to no store
  // The bases of the longest record, or kLongRecord once a record longer than a block was
  // cut between blocks (no parser sees all of it).
  std::uint64_t longest_record = 0;
  static constexpr std::uint64_t kLongRecord = ~std::uint64_t{0};

  InputTally& operator+=(const InputTally& other) {
    blocks += other.blocks;
    records += other.records;
    bases += other.bases;
    kmers += other.kmers;
    kmers_left_out += other.kmers_left_out;
    longest_record = std::max(longest_record, other.longest_record);
    return *this;
  }
  Payload encode() const;
  static InputTally decode(std::span<const std::byte> bytes);
};

// A problem found in the input: where (file, piece of the file, record within the piece) and
// what. Failures are ordered by position, so the first one in the input can be reported
// whatever the order in which parallel parsers and readers found them. A problem in a record
// (names_record) holds only what is wrong: the coordinator words the message once it can
// number the record over the whole file. Any other (a file that cannot be read, corrupt
// compressed data) holds the whole message, and `record` is where reading stopped.
struct InputFailure {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;
  std::uint64_t record = 0;
  bool names_record = false;
  std::string text;

  bool comes_before(const InputFailure& other) const {
    if (file_index != other.file_index) return file_index < other.file_index;
    return piece != other.piece ? piece < other.piece : record < other.record;
  }
  Payload encode() const;
  static InputFailure decode(std::span<const std::byte> bytes);
};

// What a parser says of a block (parser -> reader): its number, and its tally or failure.
struct BlockOutcome {
  std::uint64_t block_number = 0;
  InputTally tally;
  InputFailure failure;  // ACTION_BLOCK_FAILED only

  static Payload encode_done(std::uint64_t block_number, const InputTally& tally);
  static Payload encode_failed(std::uint64_t block_number, const InputFailure& failure);
  static BlockOutcome decode_done(std::span<const std::byte> bytes);
  static BlockOutcome decode_failed(std::span<const std::byte> bytes);
};

// What a reader is to read and whom it serves (the spawn arguments of a reader).
struct ReaderArguments {
  std::uint32_t reader_index = 0;  // its node
  ActorName coordinator;
  std::vector<ActorName> parsers;  // those of its node
  std::vector<std::string> files;  // every input, as given
  std::vector<InputPiece> pieces;  // its own, in input order
  std::uint64_t block_bytes = 256 << 10;
  std::uint64_t overlap_bases = 30;
  std::uint32_t blocks_per_parser = 2;
  bool show_progress = true;
  std::string program = "kmer_counter";

  Payload encode() const;
  static ReaderArguments decode(std::span<const std::byte> bytes);
};

// The records of one piece of a file, as its reader counted them.
struct PieceRecords {
  std::uint32_t file_index = 0;
  std::uint32_t piece = 0;
  std::uint64_t records = 0;
};

// What a reader sends when it is done (reader -> coordinator, ACTION_INPUT_DONE): what its
// blocks held, the bytes it read from the files, the records of each of its pieces, and the
// first problem it met, if any (it stops there: pieces after it are not counted, but then
// nothing after that problem decides which problem is reported first, or its number).
struct ReaderReport {
  std::uint32_t reader_index = 0;
  InputTally tally;
  std::uint64_t file_bytes_read = 0;
  std::vector<PieceRecords> pieces;
  std::optional<InputFailure> failure;

  Payload encode() const;
  static ReaderReport decode(std::span<const std::byte> bytes);
};

// A batch of hashed k-mers for the store that owns them (parser -> store, ACTION_KMER_BATCH):
// u64 block number, then the keys, Words u64 each. Answered with the block number alone
// (ACTION_KMER_BATCH_STORED). Many per block: the keys are copied as they are where the
// machine is little-endian.
template <int Words>
struct KmerBatch {
  static Payload encode(std::uint64_t block_number, std::span<const KmerKey<Words>> keys);
  // The keys into `keys` (resized; reused from batch to batch, so as not to allocate), and the
  // block number; throws std::invalid_argument if the bytes are not a block number and whole keys.
  static std::uint64_t decode(std::span<const std::byte> bytes, std::vector<KmerKey<Words>>& keys);

  static Payload encode_stored(std::uint64_t block_number);
  static std::uint64_t decode_stored(std::span<const std::byte> bytes);
};
extern template struct KmerBatch<1>;
extern template struct KmerBatch<2>;
extern template struct KmerBatch<4>;

// A store's histogram (store -> coordinator, ACTION_HISTOGRAM): u64 k-mers the store received,
// then the histogram (KmerHistogram::to_bytes).
struct StoreHistogram {
  std::uint64_t kmers_received = 0;
  KmerHistogram histogram;

  Payload encode() const;
  static StoreHistogram decode(std::span<const std::byte> bytes);
};

// A chunk of a store's sorted dump (store -> coordinator, ACTION_DUMP_CHUNK): entries of a
// k-mer's Words u64 then its u64 count; an empty chunk ends the dump.
template <int Words>
struct DumpChunk {
  using Entry = std::pair<PackedKmer<Words>, std::uint64_t>;
  static constexpr std::size_t kEntryBytes = 8 * Words + 8;

  static Payload encode(std::span<const Entry> entries);
  // The entries into `entries` (replacing what it held); throws std::invalid_argument if the
  // bytes are not whole entries.
  static void decode(std::span<const std::byte> bytes, std::vector<Entry>& entries);
};
extern template struct DumpChunk<1>;
extern template struct DumpChunk<2>;
extern template struct DumpChunk<4>;

// Arguments of a parser: k, the stores in store order, and how k-mers are routed to them: by
// their hash (minimizer_length 0), or by the minimizer of that length (the assembler's stores).
struct ParserArguments {
  std::uint32_t k = 0;
  std::vector<ActorName> stores;
  std::uint32_t minimizer_length = 0;
  // With a filter (of the hashed k-mers of filter_k bases read twice or more): a k-mer goes to
  // its store only when each of its k-mers of filter_k bases may be in the filter; the others
  // were read once (kmer_filter_window.hpp) and are only tallied.
  std::uint32_t filter_k = 0;
  // The filter's size, 0 for none. It comes as a message (ACTION_PARSER_FILTER) before the
  // first block, from whoever put it together on the parser's node: megabytes sent once a node,
  // not in every parser's arguments from the coordinator's node.
  std::uint64_t filter_words = 0;
  // An assembler's parsers read IUPAC ambiguity codes as bases (ambiguity_codes.hpp); a
  // counter's break k-mers there, as Jellyfish does.
  bool resolve_ambiguity_codes = false;
  Payload encode() const;
  static ParserArguments decode(std::span<const std::byte> bytes);
};

}  // namespace xenon::genomics
