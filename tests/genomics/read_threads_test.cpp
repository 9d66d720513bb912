// SPDX-License-Identifier: BSD-3-Clause
// ReadThreads' counts of the evidence: each sum is 32 bits and refuses to wrap.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "genomics/assembler/read_threads.hpp"

namespace {

using namespace xenon::genomics;

constexpr std::uint32_t kMost = std::numeric_limits<std::uint32_t>::max();

TEST(ReadThreadsCounts, APassageCountedPastThirtyTwoBitsIsRefusedNotWrapped) {
  ReadThreads threads(31);
  threads.add_passages(0, 2, 4, kMost - 1);
  threads.add_passages(5, 3, 1, 1);  // the same passage read the other way
  EXPECT_EQ(threads.passages(0, 2, 4), kMost);
  EXPECT_THROW(threads.add_passages(0, 2, 4, 1), std::overflow_error);
  threads.add_passages(0, 2, 6, kMost);  // another passage counts on its own
  EXPECT_EQ(threads.passages(0, 2, 6), kMost);
}

TEST(ReadThreadsCounts, APathTakenByMoreReadsThanThirtyTwoBitsHoldIsRefused) {
  ReadThreads threads(31);
  const std::vector<std::vector<ReadThreads::Oriented>> runs{{0, 2}};
  threads.add_traced(runs, "", kMost);
  EXPECT_EQ(threads.next_after({0}), (std::map<ReadThreads::Oriented, std::uint32_t>{{2, kMost}}));
  EXPECT_THROW(threads.add_traced(runs, "", 1), std::overflow_error);
}

TEST(ReadThreadsCounts, APairOfWaysSeenMoreTimesThanThirtyTwoBitsHoldIsRefused) {
  ReadThreads threads(31);
  const std::vector<ReadThreads::CompactOriented> first{0};
  const std::vector<ReadThreads::CompactOriented> second{3};
  threads.add_pair(first, second, kMost - 2);
  threads.add_pair(first, second, 2);
  EXPECT_EQ(threads.mates_after(0, {2}), (std::map<ReadThreads::Oriented, std::uint32_t>{{2, kMost}}));
  EXPECT_THROW(threads.add_pair(first, second, 1), std::overflow_error);
}

}  // namespace
