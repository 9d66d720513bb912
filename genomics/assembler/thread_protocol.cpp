// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/thread_protocol.hpp"

#include <stdexcept>

#include "genomics/io/checkpoint_file.hpp"

namespace xenon::genomics {
namespace {

constexpr std::uint64_t kMaxK = 64;

void write_piece(CheckpointWriter& writer, const InputPiece& piece) {
  writer.u64(piece.file_index);
  writer.u64(piece.piece);
  writer.u64(static_cast<std::uint64_t>(piece.encoding));
  writer.u64(piece.format ? static_cast<std::uint64_t>(*piece.format) : 0);
  writer.u64(piece.whole ? 1 : 0);
  writer.u64(piece.begin);
  writer.u64(piece.end);
}

InputPiece read_piece(CheckpointReader& reader, std::size_t files) {
  InputPiece piece;
  const std::uint64_t file_index = reader.u64();
  const std::uint64_t number = reader.u64();
  const std::uint64_t encoding = reader.u64();
  const std::uint64_t format = reader.u64();
  if (file_index >= files || number > 0xffffffffu || encoding < 1 || encoding > 4 || format > 2) {
    throw std::invalid_argument("threading request: a piece of no known file, encoding or format");
  }
  piece.file_index = static_cast<std::uint32_t>(file_index);
  piece.piece = static_cast<std::uint32_t>(number);
  piece.encoding = static_cast<InputEncoding>(encoding);
  if (format != 0) piece.format = static_cast<SequenceFormat>(format);
  piece.whole = reader.u64() != 0;
  piece.begin = reader.u64();
  piece.end = reader.u64();
  if (!piece.whole && (!piece.format || piece.begin > piece.end ||
                       (piece.encoding != InputEncoding::kPlain && piece.encoding != InputEncoding::kBgzf))) {
    throw std::invalid_argument("threading request: a range of a file that cannot be read in ranges");
  }
  return piece;
}

std::uint32_t narrow32(std::uint64_t value, const char* what) {
  if (value > 0xffffffffu) throw std::invalid_argument(std::string("threaded reads: ") + what + " out of range");
  return static_cast<std::uint32_t>(value);
}

}  // namespace

Payload ThreadingRequest::encode() const {
  CheckpointWriter writer;
  writer.u64(k);
  writer.u64(keep_crossing_reads ? 1 : 0);
  writer.u64(rethread_kept ? 1 : 0);
  writer.u64(paths ? 1 : 0);
  writer.u64(ends.size());
  for (const UnitigEnds& unitig : ends) {
    writer.u64(unitig.kmers);
    writer.text(unitig.head);
    writer.text(unitig.tail);
  }
  writer.u64(files.size());
  for (const std::string& file : files) writer.text(file);
  writer.u64(pieces.size());
  for (const InputPiece& piece : pieces) write_piece(writer, piece);
  return Payload::copy_of(writer.data());
}

ThreadingRequest ThreadingRequest::decode(std::span<const std::byte> bytes) {
  CheckpointReader reader(bytes);
  ThreadingRequest request;
  const std::uint64_t k = reader.u64();
  if (k == 0 || k > kMaxK) throw std::invalid_argument("threading request: k = " + std::to_string(k));
  request.k = static_cast<std::uint32_t>(k);
  request.keep_crossing_reads = reader.u64() != 0;
  request.rethread_kept = reader.u64() != 0;
  request.paths = reader.u64() != 0;
  const std::uint64_t unitigs = reader.u64();
  for (std::uint64_t i = 0; i < unitigs; ++i) {
    UnitigEnds unitig;
    unitig.kmers = reader.u64();
    unitig.head = reader.text();
    unitig.tail = reader.text();
    request.ends.push_back(std::move(unitig));
  }
  const std::uint64_t files = reader.u64();
  for (std::uint64_t i = 0; i < files; ++i) request.files.push_back(reader.text());
  const std::uint64_t pieces = reader.u64();
  for (std::uint64_t i = 0; i < pieces; ++i) request.pieces.push_back(read_piece(reader, request.files.size()));
  if (!reader.at_end()) throw std::invalid_argument("threading request: bytes after its end");
  return request;
}

namespace {

// ThreadedReads in varints (LEB128: seven bits a byte, low bits first): the numbers in a
// threaded read are small (unitig numbers, run lengths), and at 8 bytes each they made most
// of what the stores sent node 0 and what waited there to be counted.
void put_varint(std::vector<std::byte>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::byte>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::byte>(value));
}

class VarintReader {
 public:
  explicit VarintReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool at_end() const { return at_ == bytes_.size(); }
  std::size_t left() const { return bytes_.size() - at_; }
  std::uint64_t next() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_end()) throw std::invalid_argument("threaded reads: a number cut off at the end");
      const auto byte = std::to_integer<std::uint8_t>(bytes_[at_++]);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    throw std::invalid_argument("threaded reads: a number longer than 64 bits");
  }

 private:
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

void ThreadedReads::append(std::vector<std::byte>& message, const ThreadedRead& read) {
  put_varint(message, read.file_index);
  put_varint(message, read.piece);
  put_varint(message, read.record);
  put_varint(message, read.runs.size());
  for (const std::vector<std::size_t>& run : read.runs) {
    put_varint(message, run.size());
    for (const std::size_t oriented : run) put_varint(message, oriented);
  }
}

std::vector<ThreadedRead> ThreadedReads::decode(std::span<const std::byte> bytes) {
  VarintReader reader(bytes);
  std::vector<ThreadedRead> reads;
  while (!reader.at_end()) {
    ThreadedRead read;
    read.file_index = narrow32(reader.next(), "file");
    read.piece = narrow32(reader.next(), "piece");
    read.record = reader.next();
    const std::uint64_t runs = reader.next();
    if (runs > reader.left()) throw std::invalid_argument("threaded reads: more runs than bytes");
    read.runs.resize(runs);
    for (std::vector<std::size_t>& run : read.runs) {
      const std::uint64_t unitigs = reader.next();
      if (unitigs > reader.left()) throw std::invalid_argument("threaded reads: more unitigs than bytes");
      run.reserve(unitigs);
      for (std::uint64_t i = 0; i < unitigs; ++i) run.push_back(static_cast<std::size_t>(reader.next()));
    }
    reads.push_back(std::move(read));
  }
  return reads;
}

Payload ThreadingDone::encode() const {
  CheckpointWriter writer;
  writer.u64(messages);
  writer.u64(reads);
  writer.u64(pieces.size());
  for (const ThreadedPiece& piece : pieces) {
    writer.u64(piece.file_index);
    writer.u64(piece.piece);
    writer.u64(piece.records);
  }
  writer.text(failure);
  return Payload::copy_of(writer.data());
}

ThreadingDone ThreadingDone::decode(std::span<const std::byte> bytes) {
  CheckpointReader reader(bytes);
  ThreadingDone done;
  done.messages = reader.u64();
  done.reads = reader.u64();
  const std::uint64_t pieces = reader.u64();
  if (pieces > bytes.size()) throw std::invalid_argument("threading done: more pieces than bytes");
  for (std::uint64_t i = 0; i < pieces; ++i) {
    ThreadedPiece piece;
    piece.file_index = narrow32(reader.u64(), "file");
    piece.piece = narrow32(reader.u64(), "piece");
    piece.records = reader.u64();
    done.pieces.push_back(piece);
  }
  done.failure = reader.text();
  if (!reader.at_end()) throw std::invalid_argument("threading done: bytes after its end");
  return done;
}

}  // namespace xenon::genomics
