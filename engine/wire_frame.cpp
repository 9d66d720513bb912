// SPDX-License-Identifier: BSD-3-Clause
#include "engine/wire_frame.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "xenon/core/byte_order.hpp"

namespace xenon {

FrameWriter::FrameWriter(std::uint32_t source_node) : source_node_(source_node) { start(); }

void FrameWriter::start() {
  bytes_.clear();
  bytes_.resize(kFrameHeaderSize);
  records_ = 0;
  flags_ = 0;
}

namespace {

// The record's last header field: the payload length, and the priority in the top bit.
std::uint32_t length_and_priority(std::size_t length, bool urgent) {
  if (length > kMaxRecordPayload) {
    throw WireFormatError("a payload of " + std::to_string(length) +
                          " bytes cannot be framed (at most 2 GiB - 1)");
  }
  return static_cast<std::uint32_t>(length) | (urgent ? kRecordUrgentBit : 0);
}

}  // namespace

void FrameWriter::append_attached(ActorName source, ActorName destination, Action action,
                                  std::size_t length, bool urgent) {
  if (records_ != 0) throw std::logic_error("an attached payload needs a frame of its own");
  const std::uint32_t last_field = length_and_priority(length, urgent);
  bytes_.resize(kFrameHeaderSize + kRecordHeaderSize);
  std::byte* out = bytes_.data() + kFrameHeaderSize;
  store_le64(out, source.value());
  store_le64(out + 8, destination.value());
  store_le32(out + 16, action.code());
  store_le32(out + 20, last_field);
  records_ = 1;
  flags_ = kFlagAttachedPayload;
}

void FrameWriter::append(ActorName source, ActorName destination, Action action,
                         std::span<const std::byte> payload, bool urgent) {
  const std::uint32_t last_field = length_and_priority(payload.size(), urgent);
  const std::size_t at = bytes_.size();
  bytes_.resize(at + kRecordHeaderSize + payload.size());
  std::byte* out = bytes_.data() + at;
  store_le64(out, source.value());
  store_le64(out + 8, destination.value());
  store_le32(out + 16, action.code());
  store_le32(out + 20, last_field);
  if (!payload.empty()) std::memcpy(out + kRecordHeaderSize, payload.data(), payload.size());
  ++records_;
}

std::vector<std::byte> FrameWriter::take(std::uint64_t sequence,
                                        std::vector<std::byte> next_buffer) {
  std::byte* header = bytes_.data();
  store_le32(header, kFrameMagic);
  store_le16(header + 4, kFrameVersion);
  store_le16(header + 6, flags_);
  store_le32(header + 8, source_node_);
  store_le32(header + 12, records_);
  store_le64(header + 16, sequence);
  store_le64(header + 24, bytes_.size() - kFrameHeaderSize);
  std::vector<std::byte> frame = std::move(bytes_);
  bytes_ = std::move(next_buffer);
  start();
  return frame;
}

namespace {

[[noreturn]] void reject(const std::string& problem) {
  throw WireFormatError("malformed frame: " + problem);
}

}  // namespace

FrameHeader read_frame_header(std::span<const std::byte> frame) {
  if (frame.size() < kFrameHeaderSize) {
    reject(std::to_string(frame.size()) + " bytes, shorter than the " +
           std::to_string(kFrameHeaderSize) + "-byte header");
  }
  const std::byte* header = frame.data();
  if (load_le32(header) != kFrameMagic) reject("bad magic number (not a Xenon frame)");
  if (load_le16(header + 4) != kFrameVersion) {
    reject("version " + std::to_string(load_le16(header + 4)) + ", this build reads version " +
           std::to_string(kFrameVersion));
  }
  const std::uint64_t body_length = load_le64(header + 24);
  if (body_length != frame.size() - kFrameHeaderSize) {
    reject("header says " + std::to_string(body_length) + " body bytes, frame has " +
           std::to_string(frame.size() - kFrameHeaderSize));
  }
  const std::uint16_t flags = load_le16(header + 6);
  if ((flags & ~kFlagAttachedPayload) != 0) reject("unknown flags " + std::to_string(flags));
  return FrameHeader{flags, load_le32(header + 8), load_le32(header + 12), load_le64(header + 16)};
}

FrameHeader decode_frame(std::span<const std::byte> frame,
                         const std::function<void(const WireRecord&)>& handle) {
  const FrameHeader header = read_frame_header(frame);
  const std::uint32_t record_count = header.record_count;
  if ((header.flags & kFlagAttachedPayload) != 0) {
    // One record, its payload elsewhere: the body is exactly one record header.
    if (record_count != 1 || frame.size() != kFrameHeaderSize + kRecordHeaderSize) {
      reject("a frame with an attached payload must hold exactly one bare record");
    }
    const std::byte* in = frame.data() + kFrameHeaderSize;
    const std::uint32_t last_field = load_le32(in + 20);
    handle(WireRecord{ActorName::from_value(load_le64(in)), ActorName::from_value(load_le64(in + 8)),
                      Action::from_code(load_le32(in + 16)), {}, last_field & kMaxRecordPayload,
                      (last_field & kRecordUrgentBit) != 0});
    return header;
  }
  // First pass: check every record fits, so a bad frame delivers nothing at all.
  std::size_t offset = kFrameHeaderSize;
  for (std::uint32_t record = 0; record < record_count; ++record) {
    const std::size_t left = frame.size() - offset;
    if (left < kRecordHeaderSize) {
      reject("record " + std::to_string(record + 1) + " of " + std::to_string(record_count) +
             " is truncated (" + std::to_string(left) + " bytes left)");
    }
    const std::uint32_t length = load_le32(frame.data() + offset + 20) & kMaxRecordPayload;
    if (length > left - kRecordHeaderSize) {
      reject("record " + std::to_string(record + 1) + " of " + std::to_string(record_count) +
             " claims " + std::to_string(length) + " payload bytes, " +
             std::to_string(left - kRecordHeaderSize) + " left");
    }
    offset += kRecordHeaderSize + length;
  }
  if (offset != frame.size()) {
    reject(std::to_string(frame.size() - offset) + " bytes after the last of " +
           std::to_string(record_count) + " records");
  }
  offset = kFrameHeaderSize;
  for (std::uint32_t record = 0; record < record_count; ++record) {
    const std::byte* in = frame.data() + offset;
    const std::uint32_t last_field = load_le32(in + 20);
    const std::uint32_t length = last_field & kMaxRecordPayload;
    handle(WireRecord{ActorName::from_value(load_le64(in)),
                      ActorName::from_value(load_le64(in + 8)),
                      Action::from_code(load_le32(in + 16)),
                      frame.subspan(offset + kRecordHeaderSize, length), 0,
                      (last_field & kRecordUrgentBit) != 0});
    offset += kRecordHeaderSize + length;
  }
  return header;
}

}  // namespace xenon
