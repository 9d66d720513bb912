// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "xenon/engine/action.hpp"
#include "xenon/engine/actor_name.hpp"

namespace xenon {

// The wire format of messages between nodes: one frame carries many messages to one node.
// Every field is little-endian, whatever the host.
//
//   header (32 bytes)
//     u32 magic "XNF1" (0x31464e58)   u16 version (2)   u16 flags (0)
//     u32 source node                 u32 record count
//     u64 sequence: frames from one node to another are numbered 0, 1, 2, ...
//     u64 body length: bytes after the header
//   records, back to back, no padding
//     u64 source name   u64 destination name   u32 action
//     u32 payload length (bits 0-30) and priority (bit 31: 1 for urgent, Actor::send_urgent)
//     payload bytes
//
// Version 2 added the priority bit; version 1 had the whole u32 as the length (a payload
// for another node is at most 2 GiB - 1 bytes, Transport::kMaxAttachmentBytes, so the bit
// was always 0). A node reads only its own version.
//
// Large payloads do not travel inside a frame: a frame with flag kFlagAttachedPayload holds
// exactly one record, without its payload bytes, and the payload follows as the next
// attachment from the same node (Transport::send_attachment), sent from and received into
// the payload's own memory: no copy on either side.
//
// A frame that is short, has another magic or version, or whose records do not add up to
// exactly its body is rejected with WireFormatError; decoding never reads past the end.
inline constexpr std::uint32_t kFrameMagic = 0x31464e58;  // "XNF1" read as little-endian
inline constexpr std::uint16_t kFrameVersion = 2;
inline constexpr std::size_t kFrameHeaderSize = 32;
inline constexpr std::size_t kRecordHeaderSize = 24;
inline constexpr std::uint16_t kFlagAttachedPayload = 1;
inline constexpr std::uint32_t kRecordUrgentBit = 1u << 31;
inline constexpr std::uint32_t kMaxRecordPayload = kRecordUrgentBit - 1;  // 2 GiB - 1

class WireFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds one frame. Reusable: take() hands the bytes over and starts a new frame.
class FrameWriter {
 public:
  explicit FrameWriter(std::uint32_t source_node);

  void append(ActorName source, ActorName destination, Action action,
              std::span<const std::byte> payload, bool urgent = false);
  // Makes this (empty) writer's frame carry one record whose payload of `length` bytes is
  // sent as an attachment after the frame.
  void append_attached(ActorName source, ActorName destination, Action action,
                       std::size_t length, bool urgent = false);
  std::size_t record_count() const noexcept { return records_; }
  std::size_t size() const noexcept { return bytes_.size(); }
  bool empty() const noexcept { return records_ == 0; }

  // Finishes the header and returns the frame; the writer is empty afterwards and writes
  // its next frame into next_buffer (whose capacity a finished send may have left behind,
  // so that a steady stream of frames allocates nothing).
  std::vector<std::byte> take(std::uint64_t sequence, std::vector<std::byte> next_buffer = {});

 private:
  void start();
  std::uint32_t source_node_;
  std::vector<std::byte> bytes_;
  std::uint32_t records_ = 0;
  std::uint16_t flags_ = 0;
};

// One decoded message; payload points into the frame.
struct WireRecord {
  ActorName source;
  ActorName destination;
  Action action;
  std::span<const std::byte> payload;  // empty when the payload is attached
  std::uint32_t attached_length = 0;   // bytes of the attachment that follows the frame
  bool urgent = false;                 // sent with Actor::send_urgent()
};

struct FrameHeader {
  std::uint16_t flags;
  std::uint32_t source_node;
  std::uint32_t record_count;
  std::uint64_t sequence;
};

// Validates the header (magic, version, length); throws WireFormatError.
FrameHeader read_frame_header(std::span<const std::byte> frame);

// Validates the whole frame first, then calls handle for each record in order. Throws
// WireFormatError naming the problem (and the record number); a bad frame delivers nothing.
FrameHeader decode_frame(std::span<const std::byte> frame,
                         const std::function<void(const WireRecord&)>& handle);

}  // namespace xenon
