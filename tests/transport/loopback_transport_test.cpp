// SPDX-License-Identifier: BSD-3-Clause
#include "transport/loopback_transport.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace xenon {
namespace {

std::vector<std::byte> frame_of(std::size_t size, std::byte fill) {
  return std::vector<std::byte>(size, fill);
}

TEST(LoopbackTransport, AHandlerThatSaysStopLeavesTheRestForTheNextPoll) {
  LoopbackTransport transport;
  for (int i = 0; i < 3; ++i) transport.send(0, frame_of(8, std::byte(i)));
  std::vector<int> seen;
  const auto take_one = [&](int source, std::span<const std::byte> frame) {
    EXPECT_EQ(source, 0);
    seen.push_back(std::to_integer<int>(frame[0]));
    return false;
  };
  EXPECT_EQ(transport.poll(take_one), 1u);
  EXPECT_EQ(seen, (std::vector<int>{0}));
  const auto take_all = [&](int, std::span<const std::byte> frame) {
    seen.push_back(std::to_integer<int>(frame[0]));
    return true;
  };
  EXPECT_EQ(transport.poll(take_all), 2u);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(transport.poll(take_all), 0u);
}

TEST(LoopbackTransport, AHandledFrameLeavesItsBufferForTheNextFrame) {
  LoopbackTransport transport;
  EXPECT_EQ(transport.spare_frame_buffer().capacity(), 0u);
  transport.send(0, frame_of(1000, std::byte{1}));
  transport.poll([](int, std::span<const std::byte>) { return true; });
  const std::vector<std::byte> spare = transport.spare_frame_buffer();
  EXPECT_TRUE(spare.empty());
  EXPECT_GE(spare.capacity(), 1000u);
  EXPECT_EQ(transport.spare_frame_buffer().capacity(), 0u) << "handed out once only";
}

}  // namespace
}  // namespace xenon
