// SPDX-License-Identifier: BSD-3-Clause
// Load balancing's hand-off (engine/worker_balancing.cpp) under Relacy's memory model, with
// the shipped SpscRing: a home worker H sends message 1 of actor X to worker K, hands X (its
// state a plain cell) to worker W once K has taken everything H sent it
// (SpscRing::consumer_took_everything()), and W, running X, sends message 2 to K. K must
// receive 1 before 2 (order per sender/receiver pair), and W must see X's state as H left
// it (no data race on the actor). Without the wait for K, the check must fail: that is
// what the wait is for.

#include <gtest/gtest.h>

#include <cstdint>

#include "core/spsc_ring.hpp"
#include "tests/model/model_test_support.hpp"
#include "tests/model/relacy_atomics.hpp"

namespace xenon::model {
namespace {

enum Kind : std::uint64_t { kMessage1 = 1, kMessage2 = 2, kHandOff = 3 };

struct Item {
  std::uint64_t kind;
};

struct WaitForConsumer {
  static constexpr bool kWait = true;
  static constexpr bool kTouchAfter = false;
};
struct HandOverAtOnce {
  static constexpr bool kWait = false;
  static constexpr bool kTouchAfter = false;
};
// The bug ThreadSanitizer once found: the home still emptied the actor's mailbox after
// staging it, and a full batch had already published it to the taker.
struct TouchAfterHandOff {
  static constexpr bool kWait = true;
  static constexpr bool kTouchAfter = true;
};

template <class Weaken, class Policy>
struct HandOffKeepsOrder : rl::test_suite<HandOffKeepsOrder<Weaken, Policy>, 3> {
  using Atomics = RelacyAtomics<Weaken>;
  SpscRing<Item, Atomics> home_to_k{2};
  SpscRing<Item, Atomics> home_to_w{2};
  SpscRing<Item, Atomics> w_to_k{2};
  typename Atomics::template plain<std::uint64_t> actor_state;  // the moving actor

  void thread(unsigned index) {
    if (index == 0) {
      run_home();
    } else if (index == 1) {
      run_taker();
    } else {
      run_receiver();
    }
  }

  // H: X sends message 1 to K, then H hands X over.
  void run_home() {
    Atomics::plain_write(actor_state) = 41;
    while (!home_to_k.try_push({kMessage1})) rl::yield(1, RL_INFO);
    Atomics::plain_write(actor_state) = 42;  // X's last turn here
    if constexpr (Policy::kWait) {
      while (!home_to_k.consumer_took_everything()) rl::yield(1, RL_INFO);
    }
    while (!home_to_w.try_push({kHandOff})) rl::yield(1, RL_INFO);
    if constexpr (Policy::kTouchAfter) Atomics::plain_write(actor_state) = 42;
  }

  // W: takes X, runs it: it reads its state and sends message 2 to K.
  void run_taker() {
    Item item{};
    while (!home_to_w.try_pop(item)) rl::yield(1, RL_INFO);
    RL_ASSERT(item.kind == kHandOff);
    RL_ASSERT(Atomics::plain_read(actor_state) == 42);
    while (!w_to_k.try_push({kMessage2})) rl::yield(1, RL_INFO);
  }

  // K: looks at its rings in turn (W's first) and delivers what it finds, in order.
  void run_receiver() {
    bool got_1 = false;
    bool got_2 = false;
    while (!got_1 || !got_2) {
      Item item{};
      if (w_to_k.try_pop(item)) {
        RL_ASSERT(item.kind == kMessage2);
        RL_ASSERT(got_1);  // message 1 was delivered before message 2
        got_2 = true;
      } else if (home_to_k.try_pop(item)) {
        RL_ASSERT(item.kind == kMessage1);
        got_1 = true;
      } else {
        rl::yield(1, RL_INFO);
      }
    }
  }
};

const Search kSampled = Search::random(100'000);

TEST(ActorHandOffModel, MessagesBeforeAndAfterTheMoveArriveInOrder) {
  expect_passes(check_model<HandOffKeepsOrder<Faithful, WaitForConsumer>>(Search::preemptions(2)));
  expect_passes(check_model<HandOffKeepsOrder<Faithful, WaitForConsumer>>(kSampled));
}

// Without the wait, message 2 can reach K first: the check must catch it.
TEST(ActorHandOffModel, CatchesAHandOffThatDoesNotWaitForTheConsumer) {
  expect_caught(check_model<HandOffKeepsOrder<Faithful, HandOverAtOnce>>(kSampled),
                rl::test_result_user_assert_failed);
}

// Once handed over, the actor is the taker's: a write to it by the home is a data race.
TEST(ActorHandOffModel, CatchesTheHomeTouchingTheActorAfterTheHandOff) {
  expect_caught(check_model<HandOffKeepsOrder<Faithful, TouchAfterHandOff>>(kSampled),
                rl::test_result_data_race);
}

// The wait's acquire load of the consumer's head, weakened (with the ring's other acquires),
// no longer orders K's take of message 1 before the hand-off.
TEST(ActorHandOffModel, CatchesAcquireWeakenedToRelaxed) {
  expect_caught(check_model<HandOffKeepsOrder<AcquireAsRelaxed, WaitForConsumer>>(kSampled),
                rl::test_result_data_race);
}

}  // namespace
}  // namespace xenon::model
