// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/counter/counter_protocol.hpp"

#include <cstring>
#include <stdexcept>

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
  Payload payload = Payload::for_overwrite(32);
  std::byte* out = payload.writable_bytes().data();
  store_le64(out, blocks);
  store_le64(out + 8, records);
  store_le64(out + 16, bases);
  store_le64(out + 24, kmers);
  return payload;
}

InputTally InputTally::decode(std::span<const std::byte> bytes) {
  require_size(bytes, 32, "tally");
  return {load_le64(bytes.data()), load_le64(bytes.data() + 8), load_le64(bytes.data() + 16),
          load_le64(bytes.data() + 24)};
}

Payload InputFailure::encode() const {
  Payload payload = Payload::for_overwrite(12 + text.size());
  std::byte* out = payload.writable_bytes().data();
  store_le32(out, file_index);
  store_le64(out + 4, record);
  std::memcpy(out + 12, text.data(), text.size());
  return payload;
}

InputFailure InputFailure::decode(std::span<const std::byte> bytes) {
  require_size(bytes, 12, "failure");
  InputFailure failure;
  failure.file_index = load_le32(bytes.data());
  failure.record = load_le64(bytes.data() + 4);
  failure.text.assign(reinterpret_cast<const char*>(bytes.data() + 12), bytes.size() - 12);
  return failure;
}

Payload ParserArguments::encode() const {
  Payload payload = Payload::for_overwrite(12 + 8 * stores.size());
  std::byte* out = payload.writable_bytes().data();
  store_le32(out, k);
  store_le32(out + 4, static_cast<std::uint32_t>(stores.size()));
  for (std::size_t i = 0; i < stores.size(); ++i) store_le64(out + 8 + 8 * i, stores[i].value());
  store_le32(out + 8 + 8 * stores.size(), minimizer_length);
  return payload;
}

ParserArguments ParserArguments::decode(std::span<const std::byte> bytes) {
  require_size(bytes, 8, "parser arguments");
  ParserArguments arguments;
  arguments.k = load_le32(bytes.data());
  const std::uint32_t stores = load_le32(bytes.data() + 4);
  const std::size_t size = 12 + 8 * static_cast<std::size_t>(stores);
  require_size(bytes, size, "parser arguments");
  for (std::uint32_t i = 0; i < stores; ++i) {
    arguments.stores.push_back(ActorName::from_value(load_le64(bytes.data() + 8 + 8 * i)));
  }
  arguments.minimizer_length = load_le32(bytes.data() + size - 4);
  if (arguments.minimizer_length > 32 || arguments.minimizer_length > arguments.k) {
    throw std::invalid_argument("parser arguments: minimizer length " +
                                std::to_string(arguments.minimizer_length) + " with k " +
                                std::to_string(arguments.k));
  }
  return arguments;
}

}  // namespace xenon::genomics
