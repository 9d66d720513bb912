// SPDX-License-Identifier: BSD-3-Clause
#include "core/spsc_ring.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "tests/support/test_support.hpp"
#include "xenon/core/random.hpp"

namespace xenon {
namespace {

TEST(SpscRing, RejectsCapacityThatIsNotAPowerOfTwo) {
  EXPECT_THROW(SpscRing<int>(0), std::invalid_argument);
  EXPECT_THROW(SpscRing<int>(1), std::invalid_argument);
  EXPECT_THROW(SpscRing<int>(12), std::invalid_argument);
  EXPECT_NO_THROW(SpscRing<int>(16));
}

TEST(SpscRing, PopsInPushOrder) {
  SpscRing<int> ring(8);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(ring.try_push(i));
  for (int i = 0; i < 5; ++i) {
    int value = -1;
    ASSERT_TRUE(ring.try_pop(value));
    EXPECT_EQ(value, i);
  }
  int value;
  EXPECT_FALSE(ring.try_pop(value));
}

TEST(SpscRing, RefusesWhenFullAndAcceptsAfterAPop) {
  SpscRing<int> ring(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(ring.try_push(i));
  EXPECT_FALSE(ring.try_push(99));
  int value;
  ASSERT_TRUE(ring.try_pop(value));
  EXPECT_EQ(value, 0);
  EXPECT_TRUE(ring.try_push(4));
  for (int expected = 1; expected <= 4; ++expected) {
    ASSERT_TRUE(ring.try_pop(value));
    EXPECT_EQ(value, expected);
  }
}

TEST(SpscRing, StagedItemsStayInvisibleUntilPublished) {
  SpscRing<int> ring(8);
  ASSERT_TRUE(ring.try_stage(1));
  ASSERT_TRUE(ring.try_stage(2));
  EXPECT_EQ(ring.staged_count(), 2u);
  EXPECT_TRUE(ring.empty_for_consumer());
  int value;
  EXPECT_FALSE(ring.try_pop(value));
  EXPECT_EQ(ring.publish(), 2u);
  EXPECT_EQ(ring.publish(), 0u);
  EXPECT_FALSE(ring.empty_for_consumer());
  std::vector<int> seen;
  EXPECT_EQ(ring.consume([&](const int& item) { seen.push_back(item); }), 2u);
  EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

TEST(SpscRing, StagedItemsCountTowardsCapacity) {
  SpscRing<int> ring(4);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(ring.try_stage(i));
  EXPECT_FALSE(ring.try_stage(4));
}

TEST(SpscRing, ConsumeHonoursItsLimit) {
  SpscRing<int> ring(16);
  for (int i = 0; i < 10; ++i) ring.try_stage(i);
  ring.publish();
  int sum = 0;
  EXPECT_EQ(ring.consume([&](const int& item) { sum += item; }, 3), 3u);
  EXPECT_EQ(sum, 0 + 1 + 2);
  EXPECT_EQ(ring.consume([&](const int& item) { sum += item; }), 7u);
  EXPECT_EQ(sum, 45);
}

TEST(SpscRing, WrapsAroundManyTimesSingleThreaded) {
  SpscRing<std::uint64_t> ring(8);
  std::uint64_t next_in = 0, next_out = 0;
  Random random(7);
  for (int round = 0; round < 100000; ++round) {
    const auto pushes = random.below(9);
    for (std::uint64_t i = 0; i < pushes && ring.try_stage(next_in); ++i) ++next_in;
    ring.publish();
    ring.consume([&](const std::uint64_t& item) { ASSERT_EQ(item, next_out++); },
                 random.below(9));
  }
  ring.consume([&](const std::uint64_t& item) { ASSERT_EQ(item, next_out++); });
  EXPECT_EQ(next_in, next_out);
  EXPECT_GT(next_out, 8u * 10000u);  // the ring wrapped tens of thousands of times
}

// One producer, one consumer, millions of items through a small ring: every item arrives
// exactly once and in order, whatever the batch sizes.
void stream_exactly_once(std::size_t capacity, std::uint64_t items, bool batched) {
  testing::Watchdog watchdog("spsc stream");
  SpscRing<std::uint64_t> ring(capacity);
  std::thread producer([&] {
    Random random(11);
    std::uint64_t next = 0;
    while (next < items) {
      const std::uint64_t batch = batched ? 1 + random.below(64) : 1;
      for (std::uint64_t i = 0; i < batch && next < items; ++i) {
        if (!ring.try_stage(next)) break;
        ++next;
      }
      ring.publish();
    }
  });
  std::uint64_t expected = 0;
  bool in_order = true;
  while (expected < items) {
    ring.consume([&](const std::uint64_t& item) {
      in_order &= (item == expected);
      ++expected;
    });
  }
  producer.join();
  EXPECT_TRUE(in_order);
  EXPECT_EQ(expected, items);
  EXPECT_TRUE(ring.empty_for_consumer());
}

TEST(SpscRingStress, SingleItemsArriveExactlyOnceInOrder) {
  stream_exactly_once(64, testing::stress_items(4'000'000), false);
}

TEST(SpscRingStress, BatchesThroughATinyRingArriveExactlyOnceInOrder) {
  stream_exactly_once(8, testing::stress_items(4'000'000), true);
}

// The engine's layout: one ring per producer into one consumer. Each producer's items
// arrive in its order, and every item arrives once.
TEST(SpscRingStress, ManyProducersEachKeepTheirOrder) {
  testing::Watchdog watchdog("many producers");
  constexpr int kProducers = 4;
  const std::uint64_t per_producer = testing::stress_items(1'000'000);
  std::vector<std::unique_ptr<SpscRing<std::uint64_t>>> rings;
  for (int p = 0; p < kProducers; ++p) rings.push_back(std::make_unique<SpscRing<std::uint64_t>>(32));
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (std::uint64_t i = 0; i < per_producer;) {
        if (rings[p]->try_stage((std::uint64_t{static_cast<unsigned>(p)} << 48) | i)) {
          ++i;
          if (i % 16 == 0) rings[p]->publish();
        } else {
          rings[p]->publish();
        }
      }
      rings[p]->publish();
    });
  }
  std::vector<std::uint64_t> next(kProducers, 0);
  std::uint64_t received = 0, misordered = 0;
  while (received < kProducers * per_producer) {
    for (auto& ring : rings) {
      received += ring->consume([&](const std::uint64_t& item) {
        const auto producer = static_cast<std::size_t>(item >> 48);
        const std::uint64_t sequence = item & ((std::uint64_t{1} << 48) - 1);
        if (producer >= next.size() || sequence != next[producer]) ++misordered;
        if (producer < next.size()) next[producer] = sequence + 1;
      });
    }
  }
  for (auto& producer : producers) producer.join();
  EXPECT_EQ(misordered, 0u);
  for (int p = 0; p < kProducers; ++p) EXPECT_EQ(next[p], per_producer);
}

struct Wide {
  std::uint64_t sequence;
  std::uint64_t check;
  std::byte filler[48];
};

// Cache-line-sized items (like messages): each item's fields must be seen whole.
TEST(SpscRingStress, WideItemsArriveIntact) {
  testing::Watchdog watchdog("wide items");
  const std::uint64_t items = testing::stress_items(2'000'000);
  SpscRing<Wide> ring(16);
  std::thread producer([&] {
    for (std::uint64_t i = 0; i < items;) {
      Wide item{};
      item.sequence = i;
      item.check = ~i;
      item.filler[47] = static_cast<std::byte>(i);
      if (ring.try_push(item)) ++i;
    }
  });
  std::uint64_t expected = 0, torn = 0;
  while (expected < items) {
    ring.consume([&](const Wide& item) {
      if (item.sequence != expected || item.check != ~expected ||
          item.filler[47] != static_cast<std::byte>(expected)) {
        ++torn;
      }
      ++expected;
    });
  }
  producer.join();
  EXPECT_EQ(torn, 0u);
}

}  // namespace
}  // namespace xenon
