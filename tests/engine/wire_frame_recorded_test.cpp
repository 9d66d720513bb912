// SPDX-License-Identifier: BSD-3-Clause
// Frames recorded once from the little-endian x86-64 build, byte for byte. Every build must
// decode them to the same fields and encode the same records to the same bytes: run on the
// big-endian POWER7 build (make test-cross), this proves nodes of either byte order agree.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "engine/wire_frame.hpp"

namespace xenon {
namespace {

inline constexpr Action ACTION_RECORDED_PING{"test.recorded.ping"};

// Every multi-byte field has distinct bytes, so a swapped or shifted field cannot match.
constexpr std::uint32_t kSourceNode = 0x0a0b0c0d;
constexpr std::uint64_t kSequence = 0x0102030405060708;
constexpr ActorName kFirstSource = ActorName::make(0x12345, 0x678, 0x9abcdef0);
constexpr ActorName kFirstDestination = ActorName::make(1, 2, 3);
const std::vector<std::byte> kFirstPayload{std::byte{0xde}, std::byte{0xad}, std::byte{0xbe},
                                           std::byte{0xef}, std::byte{0x00}, std::byte{0x7f},
                                           std::byte{0x80}, std::byte{0xff}};

// Two records: names with every byte set, urgent, then the zero name and the "no actor"
// name, normal. (Version 2: the top bit of the length field is the priority.)
constexpr std::string_view kTwoRecordFrame =
    "584e4631 0200 0000"  // magic "XNF1", version 2, flags 0
    "0d0c0b0a 02000000"   // source node 0x0a0b0c0d, 2 records
    "0807060504030201"    // sequence 0x0102030405060708
    "3800000000000000"    // body length 56
    "f0debc9a78563412"    // record 1: source 0x123456789abcdef0 (node.worker.index)
    "0300000002100000"    //           destination 0x0000100200000003 = 1.2.3
    "d1f1d7b6 08000080"   //           action "test.recorded.ping", 8 payload bytes, urgent
    "deadbeef007f80ff"    //           payload
    "0000000000000000"    // record 2: source 0.0.0
    "ffffffffffffffff"    //           destination: no actor
    "e1470652 00000000";  //           action "xenon.child-stopped", no payload

// One urgent record whose 0x12345 payload bytes follow the frame as an attachment.
constexpr std::string_view kAttachedFrame =
    "584e4631 0200 0100"  // magic, version 2, flags: kFlagAttachedPayload
    "0d0c0b0a 01000000"   // source node 0x0a0b0c0d, 1 record
    "8877665544332211"    // sequence 0x1122334455667788
    "1800000000000000"    // body length 24: the record header alone
    "f0debc9a78563412"    // source 0x123456789abcdef0
    "0300000002100000"    // destination 1.2.3
    "d1f1d7b6 45230180";  // action "test.recorded.ping", attached length 0x12345, urgent

// No records; the top bit of the sequence set.
constexpr std::string_view kEmptyFrame =
    "584e4631 0200 0000"  // magic, version 2, flags 0
    "07000000 00000000"   // source node 7, 0 records
    "0000000000000080"    // sequence 0x8000000000000000
    "0000000000000000";   // body length 0

// The recorded bytes: pairs of lowercase hex digits, spaces ignored.
std::vector<std::byte> from_hex(std::string_view hex) {
  std::vector<std::byte> bytes;
  int high = -1;
  for (char c : hex) {
    if (c == ' ') continue;
    const bool digit = c >= '0' && c <= '9';
    if (!digit && (c < 'a' || c > 'f')) ADD_FAILURE() << "not a hex digit: " << c;
    const int value = digit ? c - '0' : c - 'a' + 10;
    if (high < 0) {
      high = value;
    } else {
      bytes.push_back(static_cast<std::byte>(high * 16 + value));
      high = -1;
    }
  }
  if (high >= 0) ADD_FAILURE() << "odd number of hex digits";
  return bytes;
}

struct Decoded {
  FrameHeader header;
  std::vector<WireRecord> records;
  std::vector<std::vector<std::byte>> payloads;
};

Decoded decode(const std::vector<std::byte>& frame) {
  Decoded decoded{};
  decoded.header = decode_frame(frame, [&](const WireRecord& record) {
    decoded.records.push_back(record);
    decoded.payloads.emplace_back(record.payload.begin(), record.payload.end());
  });
  return decoded;
}

TEST(WireFrameRecorded, ActionCodesAreTheRecordedHashes) {
  EXPECT_EQ(ACTION_RECORDED_PING.code(), 0xb6d7f1d1u);
  EXPECT_EQ(ACTION_CHILD_STOPPED.code(), 0x520647e1u);
}

TEST(WireFrameRecorded, DecodesEveryFieldOfTheRecordedFrame) {
  const Decoded decoded = decode(from_hex(kTwoRecordFrame));
  EXPECT_EQ(decoded.header.flags, 0u);
  EXPECT_EQ(decoded.header.source_node, kSourceNode);
  EXPECT_EQ(decoded.header.record_count, 2u);
  EXPECT_EQ(decoded.header.sequence, kSequence);
  ASSERT_EQ(decoded.records.size(), 2u);

  const WireRecord& first = decoded.records[0];
  EXPECT_EQ(first.source.value(), 0x123456789abcdef0u);
  EXPECT_EQ(first.source.node(), 0x12345u);
  EXPECT_EQ(first.source.worker(), 0x678u);
  EXPECT_EQ(first.source.index(), 0x9abcdef0u);
  EXPECT_EQ(first.destination, kFirstDestination);
  EXPECT_EQ(first.destination.node(), 1u);
  EXPECT_EQ(first.destination.worker(), 2u);
  EXPECT_EQ(first.destination.index(), 3u);
  EXPECT_EQ(first.action, ACTION_RECORDED_PING);
  EXPECT_EQ(decoded.payloads[0], kFirstPayload);
  EXPECT_EQ(first.attached_length, 0u);
  EXPECT_TRUE(first.urgent);

  const WireRecord& second = decoded.records[1];
  EXPECT_EQ(second.source.value(), 0u);
  EXPECT_TRUE(second.destination.is_none());
  EXPECT_EQ(second.action, ACTION_CHILD_STOPPED);
  EXPECT_TRUE(decoded.payloads[1].empty());
  EXPECT_FALSE(second.urgent);
}

TEST(WireFrameRecorded, EncodesTheRecordedFrameByteForByte) {
  FrameWriter writer(kSourceNode);
  writer.append(kFirstSource, kFirstDestination, ACTION_RECORDED_PING, kFirstPayload,
                /*urgent=*/true);
  writer.append(ActorName::make(0, 0, 0), ActorName::none(), ACTION_CHILD_STOPPED, {});
  EXPECT_EQ(writer.take(kSequence), from_hex(kTwoRecordFrame));
}

TEST(WireFrameRecorded, DecodesAndEncodesTheRecordedAttachedPayloadFrame) {
  const Decoded decoded = decode(from_hex(kAttachedFrame));
  EXPECT_EQ(decoded.header.flags, kFlagAttachedPayload);
  EXPECT_EQ(decoded.header.source_node, kSourceNode);
  EXPECT_EQ(decoded.header.record_count, 1u);
  EXPECT_EQ(decoded.header.sequence, 0x1122334455667788u);
  ASSERT_EQ(decoded.records.size(), 1u);
  EXPECT_EQ(decoded.records[0].source, kFirstSource);
  EXPECT_EQ(decoded.records[0].destination, kFirstDestination);
  EXPECT_EQ(decoded.records[0].action, ACTION_RECORDED_PING);
  EXPECT_TRUE(decoded.payloads[0].empty());
  EXPECT_EQ(decoded.records[0].attached_length, 0x12345u);
  EXPECT_TRUE(decoded.records[0].urgent);

  FrameWriter writer(kSourceNode);
  writer.append_attached(kFirstSource, kFirstDestination, ACTION_RECORDED_PING, 0x12345,
                         /*urgent=*/true);
  EXPECT_EQ(writer.take(0x1122334455667788u), from_hex(kAttachedFrame));
}

TEST(WireFrameRecorded, RejectsAVersion1Frame) {
  std::vector<std::byte> frame = from_hex(kEmptyFrame);
  frame[4] = std::byte{1};  // version 1 read its length field whole: no priority bit
  EXPECT_THROW(decode(frame), WireFormatError);
}

TEST(WireFrameRecorded, DecodesAndEncodesTheRecordedEmptyFrame) {
  const Decoded decoded = decode(from_hex(kEmptyFrame));
  EXPECT_EQ(decoded.header.flags, 0u);
  EXPECT_EQ(decoded.header.source_node, 7u);
  EXPECT_EQ(decoded.header.record_count, 0u);
  EXPECT_EQ(decoded.header.sequence, 0x8000000000000000u);
  EXPECT_TRUE(decoded.records.empty());

  FrameWriter writer(7);
  EXPECT_EQ(writer.take(0x8000000000000000u), from_hex(kEmptyFrame));
}

}  // namespace
}  // namespace xenon
