// SPDX-License-Identifier: BSD-3-Clause
// The shipped SpscRing under Relacy's C++ memory model (tests/model/relacy_atomics.hpp):
// every interleaving and every value the model allows an atomic load to return, sampled by
// Relacy's random scheduler. A weakened order must be caught, or these checks prove nothing.

#include <gtest/gtest.h>

#include <cstdint>

#include "core/spsc_ring.hpp"
#include "tests/model/model_test_support.hpp"
#include "tests/model/relacy_atomics.hpp"

namespace xenon::model {
namespace {

// Two words, so a slot read that overlaps its write would show as a torn item.
struct Item {
  std::uint64_t sequence;
  std::uint64_t check;
};

Item make_item(std::uint64_t sequence) { return {sequence, ~sequence}; }

// Capacity 2, five items: the producer laps the ring twice, reusing slots the consumer
// has just released, so both release/acquire edges (tail and head) are exercised.
template <class Weaken>
struct ExactlyOnceInOrder : rl::test_suite<ExactlyOnceInOrder<Weaken>, 2> {
  static constexpr std::uint64_t kItems = 5;
  SpscRing<Item, RelacyAtomics<Weaken>> ring{2};

  void thread(unsigned index) {
    if (index == 0) {
      for (std::uint64_t sequence = 1; sequence <= kItems; ++sequence) {
        while (!ring.try_push(make_item(sequence))) rl::yield(1, RL_INFO);
      }
      return;
    }
    std::uint64_t expected = 1;
    while (expected <= kItems) {
      Item item{};
      if (!ring.try_pop(item)) {
        rl::yield(1, RL_INFO);
        continue;
      }
      RL_ASSERT(item.sequence == expected);
      RL_ASSERT(item.check == ~expected);
      ++expected;
    }
    RL_ASSERT(ring.empty_for_consumer());
  }
};

// Staged publish: three items staged and published at once, then two more filled in place
// (the second wraps to slot 0) and published. The consumer sees whole batches only: after
// each consume() it has taken 3 or 5 items, never 1, 2 or 4.
template <class Weaken>
struct StagedPublish : rl::test_suite<StagedPublish<Weaken>, 2> {
  SpscRing<Item, RelacyAtomics<Weaken>> ring{4};

  void thread(unsigned index) {
    if (index == 0) {
      for (std::uint64_t sequence = 1; sequence <= 3; ++sequence) {
        RL_ASSERT(ring.try_stage(make_item(sequence)));
      }
      RL_ASSERT(ring.staged_count() == 3);
      RL_ASSERT(ring.publish() == 3);
      for (std::uint64_t sequence = 4; sequence <= 5; ++sequence) {
        while (!ring.try_stage_in_place([sequence](Item& slot) { slot = make_item(sequence); })) {
          rl::yield(1, RL_INFO);
        }
      }
      RL_ASSERT(ring.publish() == 2);
      return;
    }
    std::uint64_t taken = 0;
    while (taken < 5) {
      const std::size_t count = ring.consume([&taken](const Item& item) {
        ++taken;
        RL_ASSERT(item.sequence == taken);
        RL_ASSERT(item.check == ~taken);
      });
      if (count == 0) {
        rl::yield(1, RL_INFO);
        continue;
      }
      RL_ASSERT(taken == 3 || taken == 5);
    }
  }
};

// Stamps every second position, with one stamp cell for a ring of 2: positions 0, 2 and 4
// reuse it, so the producer's write of a stamp races the consumer's read of the previous
// one unless the head's release/acquire orders them, as it does the slots.
struct EverySecondPosition {
  static constexpr std::uint64_t kInterval = 2;
  static std::uint64_t stamp(std::uint64_t position) noexcept { return position * 3 + 1; }
};

template <class Weaken>
struct StampsTravelWithTheirItems : rl::test_suite<StampsTravelWithTheirItems<Weaken>, 2> {
  static constexpr std::uint64_t kItems = 5;
  SpscRing<Item, RelacyAtomics<Weaken>, EverySecondPosition> ring{2};

  void thread(unsigned index) {
    if (index == 0) {
      for (std::uint64_t sequence = 1; sequence <= kItems; ++sequence) {
        while (!ring.try_push(make_item(sequence))) rl::yield(1, RL_INFO);
      }
      return;
    }
    std::uint64_t expected = 1;
    while (expected <= kItems) {
      const std::size_t count = ring.consume(
          [&expected](const Item& item, const std::uint64_t* stamp) {
            RL_ASSERT(item.sequence == expected);
            const std::uint64_t position = expected - 1;
            if (position % 2 == 0) {
              RL_ASSERT(stamp != nullptr);
              RL_ASSERT(*stamp == position * 3 + 1);
            } else {
              RL_ASSERT(stamp == nullptr);
            }
            ++expected;
          },
          1);
      if (count == 0) rl::yield(1, RL_INFO);
    }
  }
};

const Search kSampled = Search::random(200'000);

TEST(SpscRingModel, DeliversExactlyOnceInOrderThroughWrapAround) {
  expect_passes(check_model<ExactlyOnceInOrder<Faithful>>(Search::preemptions(2)));
  expect_passes(check_model<ExactlyOnceInOrder<Faithful>>(kSampled));
}

TEST(SpscRingModel, StagedBatchesBecomeVisibleWhole) {
  expect_passes(check_model<StagedPublish<Faithful>>(Search::exhaustive()));
}

TEST(SpscRingModel, StampsTravelWithTheirItemsThroughReuse) {
  expect_passes(check_model<StampsTravelWithTheirItems<Faithful>>(Search::preemptions(2)));
  expect_passes(check_model<StampsTravelWithTheirItems<Faithful>>(kSampled));
}

// The proof that the checks can fail: with publish()'s and release_consumed()'s release
// stores downgraded to relaxed, a slot read is no longer ordered after its write.
TEST(SpscRingModel, CatchesReleaseWeakenedToRelaxed) {
  expect_caught(check_model<ExactlyOnceInOrder<ReleaseAsRelaxed>>(kSampled),
                rl::test_result_data_race);
  expect_caught(check_model<StagedPublish<ReleaseAsRelaxed>>(kSampled), rl::test_result_data_race);
  expect_caught(check_model<StampsTravelWithTheirItems<ReleaseAsRelaxed>>(kSampled),
                rl::test_result_data_race);
}

// The same with the acquire loads of tail and head downgraded to relaxed.
TEST(SpscRingModel, CatchesAcquireWeakenedToRelaxed) {
  expect_caught(check_model<ExactlyOnceInOrder<AcquireAsRelaxed>>(kSampled),
                rl::test_result_data_race);
  expect_caught(check_model<StagedPublish<AcquireAsRelaxed>>(kSampled), rl::test_result_data_race);
  expect_caught(check_model<StampsTravelWithTheirItems<AcquireAsRelaxed>>(kSampled),
                rl::test_result_data_race);
}

}  // namespace
}  // namespace xenon::model
