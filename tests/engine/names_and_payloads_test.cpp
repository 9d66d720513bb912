// SPDX-License-Identifier: BSD-3-Clause
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include <xenon/xenon.hpp>

namespace xenon {
namespace {

TEST(ActorName, EncodesNodeWorkerAndIndex) {
  const ActorName name = ActorName::make(1000, 17, 123456789);
  EXPECT_EQ(name.node(), 1000u);
  EXPECT_EQ(name.worker(), 17u);
  EXPECT_EQ(name.index(), 123456789u);
  EXPECT_EQ(ActorName::from_value(name.value()), name);
  EXPECT_FALSE(name.is_none());
  const ActorName largest =
      ActorName::make(ActorName::kMaxNodes - 1, ActorName::kMaxWorkers, 0xFFFFFFFFu);
  EXPECT_EQ(largest.node(), ActorName::kMaxNodes - 1);
  EXPECT_EQ(largest.worker(), ActorName::kMaxWorkers);
  EXPECT_FALSE(largest.is_none());
}

TEST(ActorName, NoneIsDistinctFromEveryRealName) {
  EXPECT_TRUE(ActorName::none().is_none());
  EXPECT_TRUE(ActorName().is_none());
  EXPECT_NE(ActorName::make(0, 0, 0), ActorName::none());
}

inline constexpr Action ACTION_GREET{"test.greet"};
inline constexpr Action ACTION_GREET_AGAIN{"test.greet"};
inline constexpr Action ACTION_PART{"test.part"};

TEST(Action, SameNameSameCodeOtherNameOtherCode) {
  static_assert(ACTION_GREET == ACTION_GREET_AGAIN);
  EXPECT_EQ(ACTION_GREET.code(), ACTION_GREET_AGAIN.code());
  EXPECT_NE(ACTION_GREET.code(), ACTION_PART.code());
  EXPECT_EQ(ACTION_GREET.name(), "test.greet");
  EXPECT_EQ(Action::from_code(ACTION_GREET.code()), ACTION_GREET);
  EXPECT_NE(ACTION_CHILD_STOPPED, ACTION_GREET);
}

TEST(Payload, SmallPayloadsTravelInline) {
  const std::uint64_t value = 0x0123456789abcdefULL;
  Payload payload = Payload::of(value);
  EXPECT_EQ(payload.size(), sizeof value);
  PayloadSlot slot = payload.release_slot();
  EXPECT_FALSE(slot.is_shared());
  EXPECT_EQ(payload.size(), 0u);
  Message message(ActorName::make(0, 0, 1), ActorName::make(0, 0, 2), ACTION_GREET, slot);
  EXPECT_EQ(message.payload_as<std::uint64_t>(), value);
  EXPECT_THROW(message.payload_as<std::uint32_t>(), std::length_error);
  slot.release();
}

TEST(Payload, LargePayloadsAreSharedNotCopied) {
  std::vector<std::byte> bytes(1 << 20);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 7);
  Payload original = Payload::copy_of(bytes);
  EXPECT_EQ(original.size(), bytes.size());
  Payload second = original.share();
  EXPECT_EQ(second.bytes().data(), original.bytes().data());  // same block
  Message message(ActorName::make(0, 0, 1), ActorName::make(0, 0, 2), ACTION_GREET,
                  second.release_slot());
  Payload third = message.share_payload();
  EXPECT_EQ(third.bytes().data(), original.bytes().data());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), third.bytes().begin()));
  message.payload_slot().release();  // what the engine does after receive()
  // original and third release their references here; ASan reports a leak or double free.
}

TEST(Payload, MovingTransfersOwnership) {
  Payload a = Payload::with_size(100);
  const std::byte* data = a.bytes().data();
  Payload b = std::move(a);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.bytes().data(), data);
  b = Payload::with_size(3);
  EXPECT_EQ(b.size(), 3u);
}

}  // namespace
}  // namespace xenon
