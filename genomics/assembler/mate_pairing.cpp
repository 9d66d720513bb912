// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/mate_pairing.hpp"

#include <stdexcept>
#include <string>

#include "genomics/assembler/varint.hpp"
#include "genomics/io/checkpoint_file.hpp"

namespace xenon::genomics {
namespace {

std::uint64_t mix(std::uint64_t value) {  // splitmix64's finaliser: pair numbers are consecutive
  value ^= value >> 30;
  value *= 0xbf58476d1ce4e5b9ULL;
  value ^= value >> 27;
  value *= 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

std::uint32_t narrow_file(std::uint64_t value) {
  if (value > 0xffffffffu) throw std::invalid_argument("pairing request: a file index out of range");
  return static_cast<std::uint32_t>(value);
}

void put_path(std::vector<std::byte>& message, const CompactPath& path) {
  put_varint(message, path.size());
  for (const ReadThreads::CompactOriented oriented : path) put_varint(message, oriented);
}

CompactPath read_path(VarintReader& reader) {
  const std::uint64_t unitigs = reader.count("unitigs");
  CompactPath path;
  path.reserve(unitigs);
  for (std::uint64_t i = 0; i < unitigs; ++i) path.push_back(reader.next32("a unitig"));
  return path;
}

}  // namespace

std::size_t owner_of_pair(std::uint32_t mates, std::uint64_t pair, std::size_t owners) {
  return static_cast<std::size_t>(mix(pair * 64 + mates) % owners);
}

std::size_t summer_of_pair_count(const CompactPath& first, const CompactPath& second, std::size_t owners) {
  std::uint64_t hash = mix(first.size() * 0x10000 + second.size());
  for (const ReadThreads::CompactOriented oriented : first) hash = mix(hash ^ oriented);
  for (const ReadThreads::CompactOriented oriented : second) hash = mix(hash + oriented);
  return static_cast<std::size_t>(hash % owners);
}

Payload PairingRequest::encode() const {
  CheckpointWriter writer;
  writer.u64(mates.size());
  for (const MateFiles& each : mates) {
    writer.u64(each.first);
    writer.u64(each.second);
    writer.u64(each.declared ? 1 : 0);
  }
  writer.u64(pieces.size());
  for (const PieceStart& piece : pieces) {
    writer.u64(piece.file_index);
    writer.u64(piece.piece);
    writer.u64(piece.first);
  }
  writer.u64(owners.size());
  for (const ActorName owner : owners) writer.u64(owner.value());
  return Payload::copy_of(writer.data());
}

PairingRequest PairingRequest::decode(std::span<const std::byte> bytes) {
  CheckpointReader reader(bytes);
  PairingRequest request;
  const std::uint64_t mates = reader.u64();
  if (mates > bytes.size()) throw std::invalid_argument("pairing request: more mate files than bytes");
  for (std::uint64_t i = 0; i < mates; ++i) {
    MateFiles each;
    each.first = narrow_file(reader.u64());
    each.second = narrow_file(reader.u64());
    each.declared = reader.u64() != 0;
    request.mates.push_back(each);
  }
  const std::uint64_t pieces = reader.u64();
  if (pieces > bytes.size()) throw std::invalid_argument("pairing request: more pieces than bytes");
  for (std::uint64_t i = 0; i < pieces; ++i) {
    PieceStart piece;
    piece.file_index = narrow_file(reader.u64());
    piece.piece = narrow_file(reader.u64());
    piece.first = reader.u64();
    request.pieces.push_back(piece);
  }
  const std::uint64_t owners = reader.u64();
  if (owners > bytes.size()) throw std::invalid_argument("pairing request: more owners than bytes");
  for (std::uint64_t i = 0; i < owners; ++i) request.owners.push_back(ActorName::from_value(reader.u64()));
  if (!reader.at_end()) throw std::invalid_argument("pairing request: bytes after its end");
  return request;
}

void MateBatch::append(std::vector<std::byte>& message, const Mate& mate) {
  put_varint(message, mate.mates);
  put_varint(message, mate.pair);
  put_varint(message, mate.second ? 1 : 0);
  put_path(message, mate.path);
  put_signed_varint(message, mate.lead);
}

std::vector<Mate> MateBatch::decode(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "mates");
  std::vector<Mate> mates;
  while (!reader.at_end()) {
    Mate mate;
    mate.mates = reader.next32("mate files");
    mate.pair = reader.next();
    const std::uint64_t second = reader.next();
    if (second > 1) reader.fail("a mate neither first nor second");
    mate.second = second == 1;
    mate.path = read_path(reader);
    mate.lead = reader.next_signed();
    mates.push_back(std::move(mate));
  }
  return mates;
}

void PairCounts::append(std::vector<std::byte>& message, const PairCount& count) {
  put_varint(message, count.pairs);
  put_path(message, count.first);
  put_path(message, count.second);
  put_signed_varint(message, count.leads);
}

std::vector<PairCount> PairCounts::decode(std::span<const std::byte> bytes) {
  VarintReader reader(bytes, "pair counts");
  std::vector<PairCount> counts;
  while (!reader.at_end()) {
    PairCount count;
    count.pairs = reader.next();
    count.first = read_path(reader);
    count.second = read_path(reader);
    count.leads = reader.next_signed();
    counts.push_back(std::move(count));
  }
  return counts;
}

MateRouter::MateRouter(const PairingRequest& request, ThreadedPaths paths)
    : paths_(std::move(paths)), mates_(request.mates), outgoing_(request.owners.size()),
      batches_sent_(request.owners.size(), 0) {
  if (request.owners.empty()) throw std::invalid_argument("pairing request: no store to pair the mates");
  if (paths_.paths.size() != paths_.places.size() || paths_.leads.size() != paths_.places.size()) {
    throw std::invalid_argument("threaded paths: a path and a lead for each read needed");
  }
  for (std::size_t index = 0; index < mates_.size(); ++index) {
    for (const std::uint32_t file : {mates_[index].first, mates_[index].second}) {
      if (file >= mates_of_file_.size()) mates_of_file_.resize(file + 1, -1);
      if (mates_of_file_[file] != -1 && mates_of_file_[file] != static_cast<std::int64_t>(index)) {
        throw std::invalid_argument("pairing request: file " + std::to_string(file + 1) + " pairs twice");
      }
      mates_of_file_[file] = static_cast<std::int64_t>(index);
    }
  }
  for (const PieceStart& piece : request.pieces) first_of_piece_[{piece.file_index, piece.piece}] = piece.first;
}

bool MateRouter::step(const Send& send) {
  const std::size_t end = std::min(paths_.places.size(), at_ + kReadsPerStep);
  for (; at_ < end; ++at_) {
    const ReadPlace& place = paths_.places[at_];
    if (place.file_index >= mates_of_file_.size() || mates_of_file_[place.file_index] < 0) continue;  // unpaired
    const auto first = first_of_piece_.find({place.file_index, place.piece});
    if (first == first_of_piece_.end()) {
      throw std::logic_error("pairing: piece " + std::to_string(place.piece + 1) + " of file " +
                             std::to_string(place.file_index + 1) + " was not counted");
    }
    const std::uint64_t record = first->second + place.record;  // in its file, from 1
    Mate mate;
    mate.mates = static_cast<std::uint32_t>(mates_of_file_[place.file_index]);
    const MateFiles& files = mates_[mate.mates];
    mate.pair = files.interleaved() ? (record + 1) / 2 : record;
    mate.second = files.interleaved() ? record % 2 == 0 : place.file_index == files.second;
    const std::span<const ReadThreads::CompactOriented> path = paths_.paths[at_];
    mate.path.assign(path.begin(), path.end());
    mate.lead = paths_.leads[at_];
    const std::size_t owner = owner_of_pair(mate.mates, mate.pair, outgoing_.size());
    MateBatch::append(outgoing_[owner], mate);
    if (outgoing_[owner].size() >= kMessageBytes) flush(owner, send);
  }
  if (at_ < paths_.places.size()) return true;
  for (std::size_t owner = 0; owner < outgoing_.size(); ++owner) flush(owner, send);
  paths_ = {};
  return false;
}

void MateRouter::flush(std::size_t owner, const Send& send) {
  if (outgoing_[owner].empty()) return;
  send(owner, std::move(outgoing_[owner]));
  outgoing_[owner] = {};
  ++batches_sent_[owner];
}

std::size_t MateMatcher::KeyHash::operator()(const std::pair<std::uint32_t, std::uint64_t>& key) const noexcept {
  return static_cast<std::size_t>(mix(key.second * 64 + key.first));
}

void MateMatcher::add(std::span<const std::byte> batch) {
  awaited_.received();
  for (Mate& mate : MateBatch::decode(batch)) {
    const auto [found, added] = waiting_.try_emplace({mate.mates, mate.pair});
    if (added) {
      found->second = {mate.second, std::move(mate.path), mate.lead};
      continue;
    }
    if (found->second.second == mate.second) {
      throw std::invalid_argument("mates: pair " + std::to_string(mate.pair) + " sent the same mate twice");
    }
    CompactPath& other = found->second.path;
    const std::int64_t leads = found->second.lead + mate.lead;
    if (mate.second) {
      counts_.add(std::move(other), std::move(mate.path), 1, leads);
    } else {
      counts_.add(std::move(mate.path), std::move(other), 1, leads);
    }
    waiting_.erase(found);
  }
}

std::vector<std::vector<std::vector<std::byte>>> MateMatcher::take_counts(std::size_t owners) {
  std::vector<std::vector<std::vector<std::byte>>> messages = counts_.take(owners);
  *this = {};
  return messages;
}

void PairCountTable::add(CompactPath first, CompactPath second, std::uint64_t pairs, std::int64_t leads) {
  Counted& counted = counts_[{std::move(first), std::move(second)}];
  counted.pairs += pairs;
  counted.leads += leads;
}

std::vector<std::vector<std::vector<std::byte>>> PairCountTable::take(std::size_t owners) {
  if (owners == 0) throw std::invalid_argument("pair counts: no store to sum them");
  std::vector<std::vector<std::vector<std::byte>>> messages(owners);
  for (const auto& [paths, counted] : counts_) {
    std::vector<std::vector<std::byte>>& list = messages[summer_of_pair_count(paths.first, paths.second, owners)];
    if (list.empty() || list.back().size() >= MateRouter::kMessageBytes) list.emplace_back();
    PairCounts::append(list.back(), {paths.first, paths.second, counted.pairs, counted.leads});
  }
  counts_ = {};
  return messages;
}

void PairCountSummer::add(std::span<const std::byte> batch) {
  awaited_.received();
  for (PairCount& count : PairCounts::decode(batch)) {
    counts_.add(std::move(count.first), std::move(count.second), count.pairs, count.leads);
  }
}

std::vector<std::vector<std::byte>> PairCountSummer::take_counts() {
  std::vector<std::vector<std::byte>> messages = std::move(counts_.take(1).front());
  *this = {};
  return messages;
}

}  // namespace xenon::genomics
