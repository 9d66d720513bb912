// SPDX-License-Identifier: BSD-3-Clause
// The shipped BasicParker under Relacy's memory model (tests/model/relacy_atomics.hpp): a
// lost wake-up leaves the owner asleep for good, which Relacy reports as a deadlock.

#include <gtest/gtest.h>

#include <cstdint>

#include "core/parker.hpp"
#include "core/spsc_ring.hpp"
#include "tests/model/model_test_support.hpp"

namespace xenon::model {
namespace {

// The owner waits for one flag, the waker raises it: the owner's protocol from
// core/parker.hpp, step by step.
template <class Weaken>
struct NoLostWakeUp : rl::test_suite<NoLostWakeUp<Weaken>, 2> {
  using Atomics = RelacyAtomics<Weaken>;
  BasicParker<Atomics> parker;
  typename Atomics::template atomic<std::uint32_t> work{0};

  void thread(unsigned index) {
    if (index == 0) {
      // Acquire: pairs with the waker's release store of work.
      while (work.load(std::memory_order_acquire) == 0) {
        parker.prepare_to_park();
        if (work.load(std::memory_order_acquire) != 0) {
          parker.cancel_park();
          break;
        }
        parker.park();
      }
      RL_ASSERT(!parker.parked());
      return;
    }
    // Release: pairs with the owner's acquire loads of work.
    work.store(1, std::memory_order_release);
    parker.wake();
  }
};

// The engine's use: a consumer drains its ring and parks when it finds it empty; the
// producer pushes (publish is a release store) and then wakes it. Every item must arrive,
// and the consumer must never sleep through a published one.
template <class Weaken>
struct RingConsumerParks : rl::test_suite<RingConsumerParks<Weaken>, 2> {
  using Atomics = RelacyAtomics<Weaken>;
  static constexpr std::uint64_t kItems = 3;
  SpscRing<std::uint64_t, Atomics> ring{2};
  BasicParker<Atomics> parker;

  void thread(unsigned index) {
    if (index == 0) {
      for (std::uint64_t item = 1; item <= kItems; ++item) {
        while (!ring.try_push(item)) rl::yield(1, RL_INFO);
        parker.wake();
      }
      return;
    }
    std::uint64_t expected = 1;
    while (expected <= kItems) {
      const std::size_t taken = ring.consume([&expected](std::uint64_t item) {
        RL_ASSERT(item == expected);
        ++expected;
      });
      if (taken != 0) continue;
      parker.prepare_to_park();
      if (!ring.empty_for_consumer()) {
        parker.cancel_park();
        continue;
      }
      parker.park();
    }
  }
};

const Search kSampled = Search::random(200'000);

TEST(ParkerModel, NeverLosesAWakeUp) {
  expect_passes(check_model<NoLostWakeUp<Faithful>>(Search::exhaustive()));
}

TEST(ParkerModel, RingConsumerNeverSleepsThroughAPublishedItem) {
  expect_passes(check_model<RingConsumerParks<Faithful>>(Search::preemptions(2)));
  expect_passes(check_model<RingConsumerParks<Faithful>>(kSampled));
}

// The proof that the checks can fail: with the two seq_cst fences weakened to acq_rel, the
// owner's recheck and the waker's look at "parked" may both miss (store buffering).
TEST(ParkerModel, CatchesSeqCstFencesWeakenedToAcqRel) {
  expect_caught(check_model<NoLostWakeUp<SeqCstFenceAsAcqRel>>(Search::exhaustive()),
                rl::test_result_deadlock);
  expect_caught(check_model<RingConsumerParks<SeqCstFenceAsAcqRel>>(kSampled),
                rl::test_result_deadlock);
}

}  // namespace
}  // namespace xenon::model
