// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/thread_protocol.hpp"

#include <algorithm>
#include <stdexcept>

#include "genomics/assembler/merge_tree.hpp"
#include "genomics/assembler/varint.hpp"
#include "genomics/io/checkpoint_file.hpp"
#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {
namespace {

constexpr std::uint64_t kMaxK = kMaxKmerLength;

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
  writer.u64(threading);
  writer.u64(coordinator.value());
  writer.u64(keep_crossing_reads ? 1 : 0);
  writer.u64(rethread_kept ? 1 : 0);
  writer.u64(paths ? 1 : 0);
  writer.u64(passages ? 1 : 0);
  writer.u64(bridges ? 1 : 0);
  writer.text(std::string(dead_ends.begin(), dead_ends.end()));
  writer.u64(end_span);
  writer.u64(ends.size());
  for (const UnitigEnds& unitig : ends) {
    writer.u64(unitig.kmers);
    writer.text(unitig.head);
    writer.text(unitig.tail);
  }
  writer.u64(files.size());
  for (const std::string& file : files) writer.text(file);
  writer.u64(shares.size());
  for (const Share& share : shares) {
    writer.u64(share.store.value());
    writer.u64(share.pieces.size());
    for (const InputPiece& piece : share.pieces) write_piece(writer, piece);
  }
  return Payload::copy_of(writer.data());
}

ThreadingRequest ThreadingRequest::decode(std::span<const std::byte> bytes, ActorName store) {
  CheckpointReader reader(bytes);
  ThreadingRequest request;
  const std::uint64_t k = reader.u64();
  if (k == 0 || k > kMaxK) throw std::invalid_argument("threading request: k = " + std::to_string(k));
  request.k = static_cast<std::uint32_t>(k);
  request.threading = reader.u64();
  if (request.threading == 0) throw std::invalid_argument("threading request: a threading numbered 0");
  request.coordinator = ActorName::from_value(reader.u64());
  request.keep_crossing_reads = reader.u64() != 0;
  request.rethread_kept = reader.u64() != 0;
  request.paths = reader.u64() != 0;
  request.passages = reader.u64() != 0;
  request.bridges = reader.u64() != 0;
  const std::string dead_ends = reader.text();
  request.dead_ends.assign(dead_ends.begin(), dead_ends.end());
  const std::uint64_t end_span = reader.u64();
  if (end_span == 0 || end_span > ReadThreads::kEndSpan) {
    throw std::invalid_argument("threading request: an end span of " + std::to_string(end_span) + " k-mers");
  }
  request.end_span = static_cast<std::size_t>(end_span);
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
  const std::uint64_t shares = reader.u64();
  std::vector<ActorName> owners;
  std::size_t place = 0;
  bool found = false;
  for (std::uint64_t share = 0; share < shares; ++share) {
    const ActorName owner = ActorName::from_value(reader.u64());
    const std::uint64_t pieces = reader.u64();
    if (owner == store && found) throw std::invalid_argument("threading request: two shares for one store");
    if (owner == store) place = owners.size();
    found = found || owner == store;
    owners.push_back(owner);
    for (std::uint64_t i = 0; i < pieces; ++i) {
      InputPiece piece = read_piece(reader, request.files.size());
      if (owner == store) request.pieces.push_back(piece);
    }
  }
  if (!found) throw std::invalid_argument("threading request: no share for store " + std::to_string(store.value()));
  for (const std::size_t child : merge_tree::children(place, owners.size())) request.pass_on_to.push_back(owners[child]);
  if (owners.size() > EndIndex::kMostOwners) {
    throw std::invalid_argument("threading request: " + std::to_string(owners.size()) + " shares, more than " +
                                std::to_string(EndIndex::kMostOwners));
  }
  request.owners = std::move(owners);
  request.owner = place;
  if (request.passages && (request.paths || request.bridges)) {
    throw std::invalid_argument("threading request: passages asked with paths or bridges");
  }
  if (request.bridges && request.dead_ends.size() != request.ends.size()) {
    throw std::invalid_argument("threading request: dead ends for " + std::to_string(request.dead_ends.size()) +
                                " unitigs, ends for " + std::to_string(request.ends.size()));
  }
  if (!reader.at_end()) throw std::invalid_argument("threading request: bytes after its end");
  return request;
}

void CrossedRuns::append(std::vector<std::byte>& message, std::span<const std::size_t> unitigs, std::uint64_t reads) {
  put_varint(message, reads);
  put_varint(message, unitigs.size());
  for (const std::size_t oriented : unitigs) put_varint(message, oriented);
}

std::vector<CrossedRun> CrossedRuns::decode(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "crossed runs");
  std::vector<CrossedRun> runs;
  while (!reader.at_end()) {
    CrossedRun run;
    run.reads = reader.next();
    const std::uint64_t unitigs = reader.count("unitigs");
    run.unitigs.reserve(unitigs);
    for (std::uint64_t i = 0; i < unitigs; ++i) run.unitigs.push_back(static_cast<std::size_t>(reader.next()));
    runs.push_back(std::move(run));
  }
  return runs;
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
  std::string bridge_bytes(bridges.size(), '\0');
  std::transform(bridges.begin(), bridges.end(), bridge_bytes.begin(), [](std::byte byte) { return static_cast<char>(byte); });
  writer.text(bridge_bytes);
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
  const std::string bridges = reader.text();
  done.bridges.resize(bridges.size());
  std::transform(bridges.begin(), bridges.end(), done.bridges.begin(), [](char byte) { return static_cast<std::byte>(byte); });
  if (!reader.at_end()) throw std::invalid_argument("threading done: bytes after its end");
  return done;
}

}  // namespace xenon::genomics
