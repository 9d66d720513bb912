// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/assembler/graph_protocol.hpp"

#include <algorithm>
#include <stdexcept>

#include <xenon/xenon.hpp>
#include "genomics/counter/counter_protocol.hpp"
#include "genomics/kmer/kmer.hpp"

namespace xenon::genomics {

// u64 threshold, u64 filter_items, u64 carried_anywhere (0 or 1), u64 keepers, their names
// (u64 each), then the stores as ParserArguments (with no filter).
Payload GraphSetup::encode() const {
  ParserArguments stores_part_fields;
  stores_part_fields.k = k;
  stores_part_fields.stores = stores;
  stores_part_fields.minimizer_length = minimizer_length;
  const Payload stores_part = stores_part_fields.encode();
  const std::size_t head = 32 + 8 * filter_keepers.size();
  Payload payload = Payload::for_overwrite(head + stores_part.size());
  std::byte* out = payload.writable_bytes().data();
  store_le64(out, threshold);
  store_le64(out + 8, filter_items);
  store_le64(out + 16, carried_anywhere ? 1 : 0);
  store_le64(out + 24, filter_keepers.size());
  for (std::size_t i = 0; i < filter_keepers.size(); ++i) store_le64(out + 32 + 8 * i, filter_keepers[i].value());
  std::copy(stores_part.bytes().begin(), stores_part.bytes().end(), out + head);
  return payload;
}

GraphSetup GraphSetup::decode(std::span<const std::byte> bytes) {
  if (bytes.size() < 32) throw std::invalid_argument("graph setup message too short");
  const std::uint64_t carried_anywhere = load_le64(bytes.data() + 16);
  const std::uint64_t keepers = load_le64(bytes.data() + 24);
  if (keepers > (bytes.size() - 32) / 8) throw std::invalid_argument("graph setup: filter keepers cut short");
  const std::size_t head = 32 + 8 * static_cast<std::size_t>(keepers);
  if (carried_anywhere > 1) {
    throw std::invalid_argument("graph setup: carried_anywhere is " + std::to_string(carried_anywhere) + ", not 0 or 1");
  }
  const ParserArguments arguments = ParserArguments::decode(bytes.subspan(head));
  GraphSetup setup;
  setup.threshold = load_le64(bytes.data());
  setup.filter_items = load_le64(bytes.data() + 8);
  setup.carried_anywhere = carried_anywhere != 0;
  for (std::uint64_t i = 0; i < keepers; ++i) setup.filter_keepers.push_back(ActorName::from_value(load_le64(bytes.data() + 32 + 8 * i)));
  setup.k = arguments.k;
  setup.stores = arguments.stores;
  setup.minimizer_length = arguments.minimizer_length;
  if (setup.k % 2 == 0 || setup.k > static_cast<std::uint32_t>(kMaxKmerLength) || setup.stores.empty() ||
      setup.minimizer_length == 0 || setup.minimizer_length > setup.k ||
      (setup.filter_items != 0 && (setup.k > 32 || setup.filter_keepers.empty()))) {
    throw std::invalid_argument("graph setup with k = " + std::to_string(setup.k) + " and " +
                                std::to_string(setup.stores.size()) + " stores" +
                                (setup.filter_items != 0 ? " and a filter" : ""));
  }
  return setup;
}

std::string_view carried_share(std::string_view sequences, std::size_t shares, std::size_t index) {
  // The first line that begins at or after a byte: at it, or after the next line break.
  const auto line_at = [&](std::size_t byte) {
    if (byte == 0 || byte >= sequences.size()) return std::min(byte, sequences.size());
    const std::size_t end = sequences.find('\n', byte - 1);
    return end == std::string_view::npos ? sequences.size() : end + 1;
  };
  const std::size_t first = line_at(sequences.size() * index / shares);
  const std::size_t end = line_at(sequences.size() * (index + 1) / shares);
  return sequences.substr(first, end - first);
}

void append_unitig(std::vector<std::byte>& message, std::string_view bases, std::uint64_t coverage_sum) {
  const std::size_t at = message.size();
  message.resize(at + 12 + bases.size());
  store_le64(message.data() + at, coverage_sum);
  store_le32(message.data() + at + 8, static_cast<std::uint32_t>(bases.size()));
  std::copy(bases.begin(), bases.end(), reinterpret_cast<char*>(message.data() + at + 12));
}

std::vector<UnitigRecord> decode_unitigs(std::span<const std::byte> bytes) {
  std::vector<UnitigRecord> unitigs;
  std::size_t at = 0;
  while (at < bytes.size()) {
    if (bytes.size() - at < 12) throw std::invalid_argument("truncated unitig record header");
    UnitigRecord record;
    record.coverage_sum = load_le64(bytes.data() + at);
    const std::uint32_t length = load_le32(bytes.data() + at + 8);
    at += 12;
    if (length == 0 || bytes.size() - at < length) {
      throw std::invalid_argument("unitig record of " + std::to_string(length) + " bases with " +
                                  std::to_string(bytes.size() - at) + " bytes left");
    }
    record.bases.assign(reinterpret_cast<const char*>(bytes.data() + at), length);
    for (const char base : record.bases) {
      if (base != 'A' && base != 'C' && base != 'G' && base != 'T') {
        throw std::invalid_argument("unitig record holds a letter other than ACGT");
      }
    }
    at += length;
    unitigs.push_back(std::move(record));
  }
  return unitigs;
}

}  // namespace xenon::genomics
