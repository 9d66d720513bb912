// SPDX-License-Identifier: BSD-3-Clause
#include "engine/wire_frame.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "xenon/core/byte_order.hpp"

namespace xenon {
namespace {

inline constexpr Action ACTION_PING{"test.ping"};

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

std::vector<std::byte> two_record_frame() {
  FrameWriter writer(3);
  writer.append(ActorName::make(3, 1, 7), ActorName::make(0, 2, 9), ACTION_PING, {});
  const auto payload = bytes_of({1, 2, 3, 4, 5});
  writer.append(ActorName::make(3, 0, 1), ActorName::make(0, 0, 2), ACTION_CHILD_STOPPED, payload);
  return writer.take(42);
}

TEST(WireFrame, RoundTripsRecordsInOrder) {
  const std::vector<std::byte> frame = two_record_frame();
  EXPECT_EQ(frame.size(), kFrameHeaderSize + 2 * kRecordHeaderSize + 5);
  std::vector<WireRecord> records;
  std::vector<std::vector<std::byte>> payloads;
  const FrameHeader header = decode_frame(frame, [&](const WireRecord& record) {
    records.push_back(record);
    payloads.emplace_back(record.payload.begin(), record.payload.end());
  });
  EXPECT_EQ(header.source_node, 3u);
  EXPECT_EQ(header.sequence, 42u);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].source, ActorName::make(3, 1, 7));
  EXPECT_EQ(records[0].destination, ActorName::make(0, 2, 9));
  EXPECT_EQ(records[0].action, ACTION_PING);
  EXPECT_TRUE(payloads[0].empty());
  EXPECT_EQ(records[1].action, ACTION_CHILD_STOPPED);
  EXPECT_EQ(payloads[1], bytes_of({1, 2, 3, 4, 5}));
}

// The byte layout is fixed little-endian whatever the host: these offsets are the format.
TEST(WireFrame, HasTheDocumentedLittleEndianLayout) {
  const std::vector<std::byte> frame = two_record_frame();
  EXPECT_EQ(frame[0], std::byte{'X'});
  EXPECT_EQ(frame[1], std::byte{'N'});
  EXPECT_EQ(frame[2], std::byte{'F'});
  EXPECT_EQ(frame[3], std::byte{'1'});
  EXPECT_EQ(load_le16(&frame[4]), kFrameVersion);
  EXPECT_EQ(load_le32(&frame[8]), 3u);   // source node
  EXPECT_EQ(load_le32(&frame[12]), 2u);  // records
  EXPECT_EQ(load_le64(&frame[16]), 42u);
  EXPECT_EQ(load_le64(&frame[24]), frame.size() - kFrameHeaderSize);
  EXPECT_EQ(frame[32], std::byte{7});  // low byte of the first source name comes first
  EXPECT_EQ(load_le64(&frame[32]), ActorName::make(3, 1, 7).value());
}

void expect_rejected(std::vector<std::byte> frame, const std::string& fragment) {
  bool delivered = false;
  try {
    decode_frame(frame, [&](const WireRecord&) { delivered = true; });
    ADD_FAILURE() << "accepted a bad frame (" << fragment << ")";
  } catch (const WireFormatError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
  EXPECT_FALSE(delivered) << "a bad frame must deliver nothing";
}

TEST(WireFrame, RejectsMalformedFramesWithoutReadingPastTheEnd) {
  const std::vector<std::byte> good = two_record_frame();
  expect_rejected({}, "shorter than the 32-byte header");
  expect_rejected(std::vector<std::byte>(good.begin(), good.begin() + 20), "shorter than");

  auto bad_magic = good;
  bad_magic[0] = std::byte{'Y'};
  expect_rejected(bad_magic, "bad magic");

  auto future = good;
  store_le16(&future[4], kFrameVersion + 1);
  expect_rejected(future, "version " + std::to_string(kFrameVersion + 1));

  auto truncated = good;
  truncated.pop_back();
  expect_rejected(truncated, "body bytes");

  auto lying_length = good;  // header and size agree, but the last record claims too much
  store_le32(&lying_length[kFrameHeaderSize + kRecordHeaderSize + 20], 500);
  expect_rejected(lying_length, "claims 500 payload bytes");

  auto too_many = good;
  store_le32(&too_many[12], 3);
  expect_rejected(too_many, "record 3 of 3 is truncated");

  auto too_few = good;
  store_le32(&too_few[12], 1);
  expect_rejected(too_few, "bytes after the last of 1 records");
}

TEST(WireFrame, AReusedBufferGivesTheSameBytesAsAFreshOne) {
  const auto write = [](FrameWriter& writer) {
    writer.append(ActorName::make(0, 1, 2), ActorName::make(1, 0, 3), ACTION_PING,
                  std::as_bytes(std::span("payload")));
    writer.append(ActorName::make(0, 1, 2), ActorName::make(1, 0, 4), ACTION_PING, {});
  };
  FrameWriter fresh(0);
  write(fresh);
  const std::vector<std::byte> expected = fresh.take(9);

  FrameWriter reusing(0);
  std::vector<std::byte> used(4096, std::byte{0xEE});  // a finished frame's leftovers
  const std::byte* storage = used.data();
  reusing.take(8, std::move(used));
  write(reusing);
  const std::vector<std::byte> frame = reusing.take(9);
  EXPECT_EQ(frame, expected);
  EXPECT_EQ(frame.data(), storage) << "the writer should have written into the given buffer";
}

TEST(WireFrame, WriterStartsAfreshAfterTake) {
  FrameWriter writer(0);
  writer.append(ActorName::make(0, 0, 0), ActorName::make(1, 0, 0), ACTION_PING, {});
  EXPECT_EQ(writer.record_count(), 1u);
  writer.take(0);
  EXPECT_TRUE(writer.empty());
  EXPECT_EQ(writer.size(), kFrameHeaderSize);
  std::size_t records = 0;
  decode_frame(writer.take(1), [&](const WireRecord&) { ++records; });
  EXPECT_EQ(records, 0u);
}

}  // namespace
}  // namespace xenon
