// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/counter/counter_protocol.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <xenon/xenon.hpp>

namespace xenon::genomics {
namespace {

// u64 number, u64 first record, u32 file, u8 format, u8 ends file, u8 continues record, u8 0
constexpr std::size_t kBlockHeaderBytes = 24;

void require_size(std::span<const std::byte> bytes, std::size_t size, const char* what) {
  if (bytes.size() < size) {
    throw std::invalid_argument(std::string(what) + " message of " + std::to_string(bytes.size()) +
                                " bytes is too short (" + std::to_string(size) + " expected)");
  }
}


// Variable-length messages, written and read field by field (little-endian).
class Writer {
 public:
  void u8(std::uint8_t value) { bytes_.push_back(static_cast<std::byte>(value)); }
  void u32(std::uint32_t value) {
    std::byte out[4];
    store_le32(out, value);
    bytes_.insert(bytes_.end(), out, out + 4);
  }
  void u64(std::uint64_t value) {
    std::byte out[8];
    store_le64(out, value);
    bytes_.insert(bytes_.end(), out, out + 8);
  }
  void text(std::string_view value) {
    u32(static_cast<std::uint32_t>(value.size()));
    const auto* data = reinterpret_cast<const std::byte*>(value.data());
    bytes_.insert(bytes_.end(), data, data + value.size());
  }
  void tally(const InputTally& tally) {
    u64(tally.blocks);
    u64(tally.records);
    u64(tally.bases);
    u64(tally.kmers);
    u64(tally.kmers_left_out);
    u64(tally.longest_record);
  }
  void failure(const InputFailure& failure) {
    u32(failure.file_index);
    u32(failure.piece);
    u64(failure.record);
    u8(failure.names_record ? 1 : 0);
    text(failure.text);
  }
  Payload payload() const {
    Payload payload = Payload::for_overwrite(bytes_.size());
    if (!bytes_.empty()) std::memcpy(payload.writable_bytes().data(), bytes_.data(), bytes_.size());
    return payload;
  }

 private:
  std::vector<std::byte> bytes_;
};

class Reader {
 public:
  Reader(std::span<const std::byte> bytes, const char* what) : bytes_(bytes), what_(what) {}
  std::uint8_t u8() { return static_cast<std::uint8_t>(take(1)[0]); }
  std::uint32_t u32() { return load_le32(take(4).data()); }
  std::uint64_t u64() { return load_le64(take(8).data()); }
  std::string text() {
    const std::uint32_t size = u32();
    const std::span<const std::byte> data = take(size);
    return std::string(reinterpret_cast<const char*>(data.data()), data.size());
  }
  InputTally tally() {
    InputTally tally;
    tally.blocks = u64();
    tally.records = u64();
    tally.bases = u64();
    tally.kmers = u64();
    tally.kmers_left_out = u64();
    tally.longest_record = u64();
    if (tally.kmers_left_out > tally.kmers) throw std::invalid_argument(std::string(what_) + ": more k-mers left out than read");
    return tally;
  }
  InputFailure failure() {
    InputFailure failure;
    failure.file_index = u32();
    failure.piece = u32();
    failure.record = u64();
    failure.names_record = u8() != 0;
    failure.text = text();
    return failure;
  }
  // A count of items that each take at least `item_bytes`: checked against what is left.
  std::uint32_t count(std::size_t item_bytes) {
    const std::uint32_t n = u32();
    if (static_cast<std::uint64_t>(n) * item_bytes > bytes_.size() - at_) too_short();
    return n;
  }
  void finish() const {
    if (at_ != bytes_.size()) throw std::invalid_argument(std::string(what_) + " message has bytes left over");
  }

 private:
  std::span<const std::byte> take(std::size_t n) {
    if (bytes_.size() - at_ < n) too_short();
    const std::span<const std::byte> data = bytes_.subspan(at_, n);
    at_ += n;
    return data;
  }
  [[noreturn]] void too_short() const {
    throw std::invalid_argument(std::string(what_) + " message of " + std::to_string(bytes_.size()) +
                                " bytes is too short");
  }

  std::span<const std::byte> bytes_;
  const char* what_;
  std::size_t at_ = 0;
};

}  // namespace

Payload BlockMessage::encode(std::uint64_t block_number, const BlockOrigin& origin,
                             std::string_view records) {
  Payload payload = Payload::for_overwrite(kBlockHeaderBytes + records.size());
  std::byte* out = payload.writable_bytes().data();
  store_le64(out, block_number);
  store_le64(out + 8, origin.first_record);
  store_le32(out + 16, origin.file_index);
  out[20] = static_cast<std::byte>(origin.format);
  out[21] = static_cast<std::byte>(origin.ends_file ? 1 : 0);
  out[22] = static_cast<std::byte>(origin.continues_record ? 1 : 0);
  out[23] = std::byte{0};
  std::memcpy(out + kBlockHeaderBytes, records.data(), records.size());
  return payload;
}

BlockMessage BlockMessage::decode(std::span<const std::byte> bytes) {
  require_size(bytes, kBlockHeaderBytes, "block");
  BlockMessage block;
  block.block_number = load_le64(bytes.data());
  block.origin.first_record = load_le64(bytes.data() + 8);
  block.origin.file_index = load_le32(bytes.data() + 16);
  const auto format = static_cast<SequenceFormat>(bytes[20]);
  if (format != SequenceFormat::kFasta && format != SequenceFormat::kFastq) {
    throw std::invalid_argument("block message names no known sequence format");
  }
  block.origin.format = format;
  block.origin.ends_file = bytes[21] != std::byte{0};
  block.origin.continues_record = bytes[22] != std::byte{0};
  block.records = bytes.subspan(kBlockHeaderBytes);
  return block;
}

Payload InputTally::encode() const {
  Writer writer;
  writer.tally(*this);
  return writer.payload();
}

InputTally InputTally::decode(std::span<const std::byte> bytes) {
  // 32 bytes: a checkpoint of a build before the filter, which left no k-mer out.
  constexpr std::size_t kBeforeTheFilter = 32;
  if (bytes.size() == kBeforeTheFilter) {
    return {load_le64(bytes.data()), load_le64(bytes.data() + 8), load_le64(bytes.data() + 16),
            load_le64(bytes.data() + 24), 0, InputTally::kLongRecord};
  }
  Reader reader(bytes, "tally");
  const InputTally tally = reader.tally();
  reader.finish();
  return tally;
}

template <int Words>
Payload KmerBatch<Words>::encode(std::uint64_t block_number, std::span<const KmerKey<Words>> keys) {
  Payload payload = Payload::for_overwrite(8 + 8 * Words * keys.size());
  std::byte* out = payload.writable_bytes().data();
  store_le64(out, block_number);
  out += 8;
  if constexpr (std::endian::native == std::endian::little) {
    if (!keys.empty()) std::memcpy(out, keys.data(), keys.size_bytes());  // already little-endian words
  } else {
    for (const KmerKey<Words>& key : keys) {
      for (int word = 0; word < Words; ++word, out += 8) store_le64(out, key[static_cast<std::size_t>(word)]);
    }
  }
  return payload;
}

template <int Words>
std::uint64_t KmerBatch<Words>::decode(std::span<const std::byte> bytes, std::vector<KmerKey<Words>>& keys) {
  if (bytes.size() < 8 || (bytes.size() - 8) % (8 * Words) != 0) {
    throw std::invalid_argument("k-mer batch of " + std::to_string(bytes.size()) +
                                " bytes is not a block number and whole keys");
  }
  const std::size_t count = (bytes.size() - 8) / (8 * Words);
  keys.resize(count);
  const std::byte* in = bytes.data() + 8;
  if constexpr (std::endian::native == std::endian::little) {
    if (count != 0) std::memcpy(keys.data(), in, count * sizeof(KmerKey<Words>));  // little-endian words as they are
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      for (int word = 0; word < Words; ++word, in += 8) keys[i][static_cast<std::size_t>(word)] = load_le64(in);
    }
  }
  return load_le64(bytes.data());
}

template <int Words>
Payload KmerBatch<Words>::encode_stored(std::uint64_t block_number) {
  Payload payload = Payload::for_overwrite(8);
  store_le64(payload.writable_bytes().data(), block_number);
  return payload;
}

template <int Words>
std::uint64_t KmerBatch<Words>::decode_stored(std::span<const std::byte> bytes) {
  if (bytes.size() != 8) {
    throw std::invalid_argument("k-mer batch stored: " + std::to_string(bytes.size()) + " bytes, not a block number");
  }
  return load_le64(bytes.data());
}

template struct KmerBatch<1>;
template struct KmerBatch<2>;
template struct KmerBatch<4>;

Payload StoreHistogram::encode() const {
  const std::vector<std::byte> pairs = histogram.to_bytes();
  Payload payload = Payload::for_overwrite(8 + pairs.size());
  store_le64(payload.writable_bytes().data(), kmers_received);
  std::copy(pairs.begin(), pairs.end(), payload.writable_bytes().data() + 8);
  return payload;
}

StoreHistogram StoreHistogram::decode(std::span<const std::byte> bytes) {
  if (bytes.size() < 8) throw std::invalid_argument("histogram message too short");
  return {load_le64(bytes.data()), KmerHistogram::from_bytes(bytes.subspan(8))};
}

template <int Words>
Payload DumpChunk<Words>::encode(std::span<const Entry> entries) {
  Payload payload = Payload::for_overwrite(entries.size() * kEntryBytes);
  std::byte* out = payload.writable_bytes().data();
  for (const auto& [kmer, count] : entries) {
    for (int word = 0; word < Words; ++word, out += 8) store_le64(out, kmer[static_cast<std::size_t>(word)]);
    store_le64(out, count);
    out += 8;
  }
  return payload;
}

template <int Words>
void DumpChunk<Words>::decode(std::span<const std::byte> bytes, std::vector<Entry>& entries) {
  if (bytes.size() % kEntryBytes != 0) {
    throw std::invalid_argument("dump chunk of " + std::to_string(bytes.size()) + " bytes is not whole entries");
  }
  entries.clear();
  for (std::size_t at = 0; at < bytes.size(); at += kEntryBytes) {
    Entry entry;
    for (int word = 0; word < Words; ++word) {
      entry.first[static_cast<std::size_t>(word)] = load_le64(bytes.data() + at + 8 * static_cast<std::size_t>(word));
    }
    entry.second = load_le64(bytes.data() + at + 8 * Words);
    entries.push_back(entry);
  }
}

template struct DumpChunk<1>;
template struct DumpChunk<2>;
template struct DumpChunk<4>;

Payload ParserArguments::encode() const {
  const std::size_t stores_end = 8 + 8 * stores.size();
  Payload payload = Payload::for_overwrite(stores_end + 20);
  std::byte* out = payload.writable_bytes().data();
  store_le32(out, k);
  store_le32(out + 4, static_cast<std::uint32_t>(stores.size()));
  for (std::size_t i = 0; i < stores.size(); ++i) store_le64(out + 8 + 8 * i, stores[i].value());
  store_le32(out + stores_end, minimizer_length);
  store_le32(out + stores_end + 4, filter_k);
  store_le64(out + stores_end + 8, filter_words);
  store_le32(out + stores_end + 16, resolve_ambiguity_codes ? 1 : 0);
  return payload;
}

ParserArguments ParserArguments::decode(std::span<const std::byte> bytes) {
  require_size(bytes, 8, "parser arguments");
  ParserArguments arguments;
  arguments.k = load_le32(bytes.data());
  if (arguments.k == 0 || arguments.k > static_cast<std::uint32_t>(kMaxKmerLength)) {
    throw std::invalid_argument("parser arguments: k = " + std::to_string(arguments.k));
  }
  const std::uint32_t stores = load_le32(bytes.data() + 4);
  const std::size_t stores_end = 8 + 8 * static_cast<std::size_t>(stores);
  require_size(bytes, stores_end + 20, "parser arguments");
  if (bytes.size() != stores_end + 20) {
    throw std::invalid_argument("parser arguments: " + std::to_string(bytes.size()) + " bytes for " +
                                std::to_string(stores) + " stores");
  }
  for (std::uint32_t i = 0; i < stores; ++i) {
    arguments.stores.push_back(ActorName::from_value(load_le64(bytes.data() + 8 + 8 * i)));
  }
  arguments.minimizer_length = load_le32(bytes.data() + stores_end);
  if (arguments.minimizer_length > 32 || arguments.minimizer_length > arguments.k) {
    throw std::invalid_argument("parser arguments: minimizer length " +
                                std::to_string(arguments.minimizer_length) + " with k " +
                                std::to_string(arguments.k));
  }
  arguments.filter_k = load_le32(bytes.data() + stores_end + 4);
  arguments.filter_words = load_le64(bytes.data() + stores_end + 8);
  if (arguments.filter_words != 0 && (arguments.filter_k == 0 || arguments.filter_k > 32 || arguments.filter_k > arguments.k)) {
    throw std::invalid_argument("parser arguments: a filter of " + std::to_string(arguments.filter_k) +
                                "-mers with k " + std::to_string(arguments.k));
  }
  const std::uint32_t resolve = load_le32(bytes.data() + stores_end + 16);
  if (resolve > 1) throw std::invalid_argument("parser arguments: ambiguity codes read as " + std::to_string(resolve));
  arguments.resolve_ambiguity_codes = resolve == 1;
  return arguments;
}

Payload InputFailure::encode() const {
  Writer writer;
  writer.failure(*this);
  return writer.payload();
}

InputFailure InputFailure::decode(std::span<const std::byte> bytes) {
  Reader reader(bytes, "failure");
  InputFailure failure = reader.failure();
  reader.finish();
  return failure;
}

Payload BlockOutcome::encode_done(std::uint64_t block_number, const InputTally& tally) {
  Writer writer;
  writer.u64(block_number);
  writer.tally(tally);
  return writer.payload();
}

Payload BlockOutcome::encode_failed(std::uint64_t block_number, const InputFailure& failure) {
  Writer writer;
  writer.u64(block_number);
  writer.failure(failure);
  return writer.payload();
}

BlockOutcome BlockOutcome::decode_done(std::span<const std::byte> bytes) {
  Reader reader(bytes, "block done");
  BlockOutcome outcome;
  outcome.block_number = reader.u64();
  outcome.tally = reader.tally();
  reader.finish();
  return outcome;
}

BlockOutcome BlockOutcome::decode_failed(std::span<const std::byte> bytes) {
  Reader reader(bytes, "block failed");
  BlockOutcome outcome;
  outcome.block_number = reader.u64();
  outcome.failure = reader.failure();
  reader.finish();
  return outcome;
}

Payload ReaderArguments::encode() const {
  Writer writer;
  writer.u32(reader_index);
  writer.u64(coordinator.value());
  writer.u32(static_cast<std::uint32_t>(parsers.size()));
  for (const ActorName parser : parsers) writer.u64(parser.value());
  writer.u32(static_cast<std::uint32_t>(files.size()));
  for (const std::string& file : files) writer.text(file);
  writer.u32(static_cast<std::uint32_t>(pieces.size()));
  for (const InputPiece& piece : pieces) {
    writer.u32(piece.file_index);
    writer.u32(piece.piece);
    writer.u8(static_cast<std::uint8_t>(piece.encoding));
    writer.u8(piece.format ? static_cast<std::uint8_t>(*piece.format) : 0);
    writer.u8(piece.whole ? 1 : 0);
    writer.u64(piece.begin);
    writer.u64(piece.end);
  }
  writer.u64(block_bytes);
  writer.u64(overlap_bases);
  writer.u32(blocks_per_parser);
  writer.u8(show_progress ? 1 : 0);
  writer.text(program);
  return writer.payload();
}

ReaderArguments ReaderArguments::decode(std::span<const std::byte> bytes) {
  Reader reader(bytes, "reader arguments");
  ReaderArguments arguments;
  arguments.reader_index = reader.u32();
  arguments.coordinator = ActorName::from_value(reader.u64());
  for (std::uint32_t i = 0, n = reader.count(8); i < n; ++i) arguments.parsers.push_back(ActorName::from_value(reader.u64()));
  for (std::uint32_t i = 0, n = reader.count(4); i < n; ++i) arguments.files.push_back(reader.text());
  for (std::uint32_t i = 0, n = reader.count(27); i < n; ++i) {
    InputPiece piece;
    piece.file_index = reader.u32();
    piece.piece = reader.u32();
    const std::uint8_t encoding = reader.u8();
    const std::uint8_t format = reader.u8();
    if (encoding < 1 || encoding > 4 || format > 2 || piece.file_index >= arguments.files.size()) {
      throw std::invalid_argument("reader arguments: a piece of no known file, encoding or format");
    }
    piece.encoding = static_cast<InputEncoding>(encoding);
    if (format != 0) piece.format = static_cast<SequenceFormat>(format);
    piece.whole = reader.u8() != 0;
    piece.begin = reader.u64();
    piece.end = reader.u64();
    if (!piece.whole && (!piece.format || piece.begin > piece.end ||
                         (piece.encoding != InputEncoding::kPlain && piece.encoding != InputEncoding::kBgzf))) {
      throw std::invalid_argument("reader arguments: a range of a file that cannot be read in ranges");
    }
    arguments.pieces.push_back(piece);
  }
  arguments.block_bytes = reader.u64();
  arguments.overlap_bases = reader.u64();
  arguments.blocks_per_parser = reader.u32();
  arguments.show_progress = reader.u8() != 0;
  arguments.program = reader.text();
  reader.finish();
  if (arguments.parsers.empty()) throw std::invalid_argument("reader arguments: no parser");
  return arguments;
}

Payload ReaderReport::encode() const {
  Writer writer;
  writer.u32(reader_index);
  writer.tally(tally);
  writer.u64(file_bytes_read);
  writer.u32(static_cast<std::uint32_t>(pieces.size()));
  for (const PieceRecords& piece : pieces) {
    writer.u32(piece.file_index);
    writer.u32(piece.piece);
    writer.u64(piece.records);
  }
  writer.u8(failure ? 1 : 0);
  if (failure) writer.failure(*failure);
  return writer.payload();
}

ReaderReport ReaderReport::decode(std::span<const std::byte> bytes) {
  Reader reader(bytes, "reader report");
  ReaderReport report;
  report.reader_index = reader.u32();
  report.tally = reader.tally();
  report.file_bytes_read = reader.u64();
  for (std::uint32_t i = 0, n = reader.count(16); i < n; ++i) {
    PieceRecords piece;
    piece.file_index = reader.u32();
    piece.piece = reader.u32();
    piece.records = reader.u64();
    report.pieces.push_back(piece);
  }
  if (reader.u8() != 0) report.failure = reader.failure();
  reader.finish();
  return report;
}

}  // namespace xenon::genomics
