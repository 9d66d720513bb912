// SPDX-License-Identifier: BSD-3-Clause
#include "engine/timer_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace xenon {
namespace {

using namespace std::chrono_literals;

// A worker's timer heap alone, on one thread, with a clock of our choosing.

const MonotonicClock::time_point kStart{};

Timer timer_at(std::chrono::milliseconds deadline, std::uint32_t owner = 1,
               TimerDuration period = TimerDuration::zero()) {
  Timer timer;
  timer.deadline = kStart + deadline;
  timer.period = period;
  timer.owner = owner;
  timer.action = static_cast<std::uint32_t>(deadline.count());  // to tell them apart
  return timer;
}

std::vector<std::uint32_t> fire(TimerQueue& queue, std::chrono::milliseconds now) {
  std::vector<std::uint32_t> fired;
  queue.fire_due(kStart + now, [&](const Timer& timer, const PayloadSlot& payload) {
    fired.push_back(timer.action);
    payload.release();
  });
  return fired;
}

TEST(TimerQueue, FiresWhatIsDueEarliestFirstAndNothingBefore) {
  TimerQueue queue;
  queue.add(timer_at(30ms));
  queue.add(timer_at(10ms));
  queue.add(timer_at(20ms));
  EXPECT_EQ(queue.next_deadline(), kStart + 10ms);
  EXPECT_TRUE(fire(queue, 9ms).empty());
  EXPECT_EQ(fire(queue, 25ms), (std::vector<std::uint32_t>{10, 20}));
  EXPECT_EQ(fire(queue, 30ms), (std::vector<std::uint32_t>{30}));
  EXPECT_TRUE(queue.empty());
}

TEST(TimerQueue, APeriodicTimerComesBackAndSkipsWhatAStallMissed) {
  TimerQueue queue;
  const TimerId id = queue.add(timer_at(10ms, 1, 10ms));
  EXPECT_EQ(fire(queue, 10ms).size(), 1u);
  EXPECT_EQ(queue.next_deadline(), kStart + 20ms);
  EXPECT_EQ(fire(queue, 55ms).size(), 1u);          // one, not four
  EXPECT_EQ(queue.next_deadline(), kStart + 65ms);  // a period after now
  EXPECT_TRUE(queue.cancel(id, 1));
  EXPECT_TRUE(fire(queue, 1000ms).empty());
}

TEST(TimerQueue, OnlyItsOwnerCancelsATimerAndOnlyOnce) {
  TimerQueue queue;
  const TimerId id = queue.add(timer_at(10ms, 1));
  EXPECT_FALSE(queue.cancel(id, 2));
  EXPECT_TRUE(queue.cancel(id, 1));
  EXPECT_FALSE(queue.cancel(id, 1));
  EXPECT_TRUE(queue.empty());
  EXPECT_TRUE(fire(queue, 100ms).empty());
}

TEST(TimerQueue, AnOwnersTimersEndTogetherAndOthersStay) {
  TimerQueue queue;
  queue.add(timer_at(10ms, 1));
  queue.add(timer_at(20ms, 2));
  queue.add(timer_at(30ms, 1, 5ms));
  EXPECT_EQ(queue.cancel_owned_by(1), 2u);
  EXPECT_EQ(fire(queue, 100ms), (std::vector<std::uint32_t>{20}));
}

TEST(TimerQueue, ATimerCancelledWhileAnotherFiresDoesNotFire) {
  TimerQueue queue;
  queue.add(timer_at(10ms));
  const TimerId second = queue.add(timer_at(20ms));
  int fired = 0;
  queue.fire_due(kStart + 30ms, [&](const Timer&, const PayloadSlot&) {
    ++fired;
    queue.cancel(second, 1);  // as an answer cancels its ask's timeout during a send
  });
  EXPECT_EQ(fired, 1);
  EXPECT_TRUE(queue.empty());
}

TEST(TimerQueue, CancelledEntriesDoNotPileUpInTheHeap) {
  TimerQueue queue;
  // As asks answered long before their timeout: set and cancelled, many times over.
  for (int i = 0; i < 100000; ++i) {
    queue.cancel(queue.add(timer_at(1000ms)), 1);
    ASSERT_LE(queue.heap_entries(), 2 * (queue.size() + 1) + 64) << "after " << i;
  }
  EXPECT_TRUE(queue.empty());
  const TimerId live = queue.add(timer_at(5ms));
  EXPECT_EQ(queue.next_deadline(), kStart + 5ms);
  EXPECT_TRUE(queue.cancel(live, 1));
}

TEST(TimerQueue, APeriodicPayloadIsSharedPerMessageAndFreedWithTheTimer) {
  TimerQueue queue;
  Payload payload = Payload::with_size(1000);  // a shared block, not inline
  Payload observer = payload.share();          // keeps the block alive to look at it
  Timer timer = timer_at(1ms, 1, 1ms);
  timer.payload = payload.release_slot();
  const TimerId id = queue.add(timer);
  std::vector<Payload> messages;
  queue.fire_due(kStart + 1ms, [&](const Timer&, const PayloadSlot& slot) {
    messages.push_back(Payload::adopt_slot(slot));
  });
  queue.fire_due(kStart + 2ms, [&](const Timer&, const PayloadSlot& slot) {
    messages.push_back(Payload::adopt_slot(slot));
  });
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].bytes().data(), observer.bytes().data());  // the same bytes
  EXPECT_EQ(messages[1].bytes().data(), observer.bytes().data());
  EXPECT_TRUE(queue.cancel(id, 1));
  messages.clear();  // with the timer's own reference gone, only the observer's is left
}

}  // namespace
}  // namespace xenon
