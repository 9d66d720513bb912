// SPDX-License-Identifier: BSD-3-Clause
#include "core/parker.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/support/test_support.hpp"

namespace xenon {
namespace {

TEST(Parker, WakeBeforeParkIsNotLost) {
  Parker parker;
  parker.prepare_to_park();
  parker.wake();
  parker.park();  // returns at once: the wake-up was recorded
  EXPECT_FALSE(parker.parked());
}

TEST(Parker, CancelledParkLeavesItRunning) {
  Parker parker;
  parker.prepare_to_park();
  parker.cancel_park();
  EXPECT_FALSE(parker.parked());
}

// Two threads hand a token back and forth, each parking until the other publishes: a lost
// wake-up hangs, and the watchdog turns that into a failure.
TEST(Parker, HandsOffManyTimesWithoutLosingAWakeUp) {
  testing::Watchdog watchdog("parker hand-off");
  const std::uint64_t rounds = testing::stress_items(100'000);
  Parker parkers[2];
  std::atomic<std::uint64_t> token{0};
  auto player = [&](int me) {
    for (std::uint64_t round = 0; round < rounds; ++round) {
      const std::uint64_t mine = 2 * round + static_cast<std::uint64_t>(me);
      // Acquire: pairs with the release store below of the other player.
      while (token.load(std::memory_order_acquire) != mine) {
        parkers[me].prepare_to_park();
        if (token.load(std::memory_order_acquire) == mine) {
          parkers[me].cancel_park();
          break;
        }
        parkers[me].park();
      }
      // Release: pairs with the other player's acquire load of token.
      token.store(mine + 1, std::memory_order_release);
      parkers[1 - me].wake();
    }
  };
  std::thread other(player, 1);
  player(0);
  other.join();
  EXPECT_EQ(token.load(std::memory_order_relaxed), 2 * rounds);
}

}  // namespace
}  // namespace xenon
